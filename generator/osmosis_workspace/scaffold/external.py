"""Where a `--template` comes from, what it asks, and whether it may run code.

`--template` names a bundled template (`multiply`), a local folder holding a copier template, or a
git URL of one. A copier template can run commands on the user's machine (`_tasks`, `_migrations`)
and load arbitrary Python into Jinja (`_jinja_extensions`); those are refused unless the user says
`--trust`, with a message listing exactly what would run. Everything here reads copier.yml with
pyyaml: no copier import, so `osmosis template inspect` stays fast.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from osmosis_workspace.core import safe_git
from osmosis_workspace.core.diagnostics import with_article
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.scaffold.catalog import find_bundled, rollout_templates
from osmosis_workspace.scaffold.copier_yml import copier_file as config_path
from osmosis_workspace.scaffold.copier_yml import load_config

UNSAFE_KEYS = ("_tasks", "_migrations", "_jinja_extensions")
_GIT_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|gh:|gl:)|\.git/?$", re.IGNORECASE)


@dataclass
class TemplateSource:
    """A template ready to render: ``path`` is a local folder holding copier.yml."""

    spec: str  # what the user typed
    path: Path
    bundled: bool
    url: str | None = None  # set when the template was cloned from git
    _cleanup: list[Path] = field(default_factory=list, repr=False)

    @property
    def label(self) -> str:
        return self.spec if self.bundled else (self.url or str(self.path))


def is_git_url(spec: str) -> bool:
    return bool(_GIT_URL.search(spec))


def _rollout_names() -> str:
    return ", ".join(t.name for t in rollout_templates())


def _clone(url: str) -> Path:
    from osmosis_workspace.core import lock

    lock.sweep(Path(tempfile.gettempdir()), "osmosis-template-")  # clones a killed run left
    target = Path(tempfile.mkdtemp(prefix="osmosis-template-"))
    lock.claim(target)
    # copier's shorthands for GitHub and GitLab
    prefix = {"gh:": "https://github.com/", "gl:": "https://gitlab.com/"}.get(url[:3])
    clone_url = prefix + url[3:] if prefix else url
    try:  # `--`: a "URL" starting with a dash (`--upload-pack=...`) is a URL to git, never an option
        safe_git.run(target, "clone", "--quiet", "--depth", "1", "--", clone_url, str(target / "t"), seconds=300)
    except safe_git.GitMissing:
        shutil.rmtree(target, ignore_errors=True)
        raise UserError("git is not installed; it is needed to fetch a template from a URL") from None
    except safe_git.GitFailed as err:
        shutil.rmtree(target, ignore_errors=True)
        raise UserError(f"could not clone template {url}: {err.detail}") from None
    except safe_git.GitTimeout:
        shutil.rmtree(target, ignore_errors=True)
        raise UserError(f"cloning template {url} took more than 5 minutes; giving up") from None
    except safe_git.GitError as err:
        shutil.rmtree(target, ignore_errors=True)
        raise UserError(f"could not clone template {url}: {err}") from None
    return target


@contextmanager
def open_template(spec: str, *, kind: str | None = None) -> Iterator[TemplateSource]:
    """Resolve ``spec`` (bundled name, local folder, git URL) to a local template; clones are removed after.

    ``kind`` ("rollout" or "workspace") refuses a bundled template of the other kind.
    """
    source = _resolve(spec, kind=kind)
    try:
        yield source
    finally:
        for path in source._cleanup:
            shutil.rmtree(path, ignore_errors=True)


def _resolve(spec: str, *, kind: str | None) -> TemplateSource:
    if not spec or not spec.strip():
        raise UserError("the template name is empty", hint="see `osmosis template list`")
    bundled = find_bundled(spec) if "/" not in spec and "\\" not in spec else None
    if bundled is not None:
        if kind is not None and bundled.kind != kind:
            raise UserError(f"{spec!r} is not {with_article(kind)} template; choose one of: {_rollout_names()}")
        return TemplateSource(spec=spec, path=bundled.path, bundled=True)
    local = Path(spec).expanduser()
    if local.is_dir():
        if config_path(local) is None:
            raise UserError(f"{spec} is not a copier template (no copier.yml or copier.yaml in it)")
        return TemplateSource(spec=spec, path=local.resolve(), bundled=False)
    if is_git_url(spec):
        clone = _clone(spec)
        path = clone / "t"
        if config_path(path) is None:
            shutil.rmtree(clone, ignore_errors=True)
            raise UserError(f"{spec} is not a copier template (no copier.yml or copier.yaml at its root)")
        return TemplateSource(spec=spec, path=path, bundled=False, url=spec, _cleanup=[clone])
    from osmosis_workspace.scaffold.catalog import did_you_mean

    raise UserError(f"unknown template {spec!r}: not a bundled template, a folder, or a git URL{did_you_mean(spec)}",
                    hint=f"bundled rollout templates: {_rollout_names()}")


# -- the trust gate ----------------------------------------------------------------------------


def _describe(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, list):
        return " ".join(str(part) for part in entry)
    if isinstance(entry, dict):
        if "command" in entry:
            return _describe(entry["command"])
        if "version" in entry:  # copier's old-style migration: {version, before: [...], after: [...]}
            steps = [*(entry.get("before") or []), *(entry.get("after") or [])]
            return f"for version {entry['version']}: " + "; ".join(_describe(s) for s in steps)
    return str(entry)


def unsafe_features(config: dict[str, Any]) -> dict[str, list[str]]:
    """What in ``config`` would run code: {"_tasks": [commands], "_migrations": [...], "_jinja_extensions": [...]}."""
    found: dict[str, list[str]] = {}
    for key in UNSAFE_KEYS:
        value = config.get(key)
        if not value:
            continue
        entries = value if isinstance(value, list) else [value]
        found[key] = [_describe(e) for e in entries]
    return found


def check_trust(source: TemplateSource, *, trust: bool) -> None:
    """Refuse a template that would run code unless ``trust``; bundled templates are checked too."""
    config = load_config(source.path)
    features = unsafe_features(config)
    answers_file = config.get("_answers_file")
    if isinstance(answers_file, str) and (answers_file.startswith(("/", "\\", "~")) or ".." in re.split(r"[/\\]", answers_file)):
        raise UserError(f"template {source.label} is broken (the template's fault, not osmosis's): "
                        f"_answers_file {answers_file!r} must be a relative path inside what it renders")
    if not source.bundled:
        from osmosis_workspace.core.template_guard import repository_problems

        # copier runs git inside a template folder that is a repository (a clone of ours never carries these)
        if repo := repository_problems(source.path):
            features["its git repository"] = repo
    if not features or trust:
        return
    listed = "; ".join(f"{key}: " + ", ".join(repr(item) for item in items) for key, items in features.items())
    raise UserError(
        f"template {source.label} would run code on this machine ({listed})",
        hint="read the template first; rerun with --trust to allow it",
    )


# -- questions ---------------------------------------------------------------------------------


@dataclass
class Question:
    name: str
    type: str
    help: str | None
    default: Any
    choices: list[dict[str, Any]] | None
    validation: str | None
    multiselect: bool = False
    secret: bool = False
    when: Any = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "type": self.type, "help": self.help, "default": self.default,
            "choices": self.choices, "validation": self.validation, "multiselect": self.multiselect,
            "secret": self.secret, "when": self.when,
        }


def _choices(raw: Any) -> list[dict[str, Any]] | None:
    if raw is None:
        return None
    if isinstance(raw, dict):  # {label: value}
        return [{"label": str(k), "value": v} for k, v in raw.items()]
    if isinstance(raw, list):
        out = []
        for item in raw:
            if isinstance(item, list) and len(item) == 2:
                out.append({"label": str(item[0]), "value": item[1]})
            else:
                out.append({"label": str(item), "value": item})
        return out
    return [{"label": str(raw), "value": raw}]  # a Jinja string that renders the choices


def questions(config: dict[str, Any]) -> list[Question]:
    """The template's questions in the order copier asks them."""
    found = []
    for name, spec in config.items():
        if name.startswith("_"):
            continue
        if not isinstance(spec, dict):  # shorthand `name: default`
            value_type = {bool: "bool", int: "int", float: "float"}.get(type(spec), "str")
            found.append(Question(name, value_type, None, spec, None, None))
            continue
        default = spec.get("default")
        qtype = spec.get("type") or ({bool: "bool", int: "int", float: "float"}.get(type(default), "yaml" if isinstance(default, (list, dict)) else "str"))
        validator = spec.get("validator")
        found.append(Question(
            name=name, type=str(qtype), help=spec.get("help"), default=default,
            choices=_choices(spec.get("choices")),
            validation=" ".join(str(validator).split()) if validator else None,
            multiselect=bool(spec.get("multiselect", False)), secret=bool(spec.get("secret", False)),
            when=spec.get("when", True),
        ))
    return found


def resolve_checked(spec: str, *, trust: bool, kind: str | None = "rollout") -> TemplateSource:
    """:func:`open_template` plus the trust gate, for callers that render later in the same process
    (`osmosis init`); a clone is removed when the process exits."""
    import atexit

    source = _resolve(spec, kind=kind)
    for path in source._cleanup:
        atexit.register(shutil.rmtree, path, True)
    check_trust(source, trust=trust)
    return source
