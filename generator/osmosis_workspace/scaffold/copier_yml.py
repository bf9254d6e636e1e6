"""copier.yml as copier reads it, read with pyyaml (never copier): the one reader of every copier.yml.

pyyaml loads on the first read only, so `osmosis template list` (which only looks for the file) stays fast.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from osmosis_workspace.core.errors import UserError

COPIER_FILES = ("copier.yml", "copier.yaml")
_INCLUDE_FILES = 64
_INCLUDE_BYTES = 1 << 20
# a template's settings and questions fit in a few KB; pyyaml (and copier after it) takes minutes on
# tens of MB, so a bigger file is refused unread
CONFIG_BYTES = 1 << 20


def copier_file(template_dir: Path) -> Path | None:
    for name in COPIER_FILES:
        if (template_dir / name).is_file():
            return template_dir / name
    return None


@lru_cache(maxsize=None)
def _copier_loader() -> type:
    import yaml

    from osmosis_workspace.readers import yamlio

    class _CopierLoader(yamlio.SAFE_LOADER):
        """The safe loader with copier's `!include` tag followed as copier follows it (a glob inside the
        template, its documents flattened into a list), so `_tasks: !include x.yml` or a whole included
        document of `_migrations` reaches the trust gate: the one reader of every copier.yml."""

        root: Path = Path(".")
        budget: list[int] = [0]  # included files left to read in this load (a file including itself ends)

    def _include(loader: _CopierLoader, node: yaml.Node) -> list[Any]:
        pattern = str(loader.construct_scalar(node)) if isinstance(node, yaml.ScalarNode) else ""
        if not pattern or pattern.startswith(("/", "\\")) or ".." in Path(pattern).parts:
            raise yaml.YAMLError(f"!include {pattern!r}: copier includes relative paths inside the template only")
        found: list[Any] = []
        for file in sorted(loader.root.glob(pattern)):
            if not file.resolve().is_relative_to(loader.root) or not file.is_file():
                raise yaml.YAMLError(f"!include {pattern!r} leads out of the template")
            loader.budget[0] -= 1
            if loader.budget[0] < 0 or file.stat().st_size > _INCLUDE_BYTES:
                raise yaml.YAMLError(f"!include {pattern!r}: too many or too large included files")
            for doc in yaml.load_all(file.read_text(encoding="utf-8"), Loader=type(loader)):
                if doc is not None:
                    found.extend(doc if isinstance(doc, list) else [doc])
        return found

    _CopierLoader.add_constructor("!include", _include)
    return _CopierLoader


MAX_EXPANDED = 100_000  # values the config holds once its aliases are expanded; real ones hold a few hundred


def _refuse_alias_bombs(path: Path) -> None:
    """pyyaml shares an aliased value instead of copying it, but copier copies and walks the answers:
    nine lines of nested aliases ("billion laughs") become 9**9 values. Count what the aliases
    expand to, on the composed node graph (each node sized once), before anything expands."""
    import yaml

    sizes: dict[int, int] = {}
    for root in yaml.compose_all(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader):
        stack, visiting = [(root, False)], set()
        while stack:
            node, children_done = stack.pop()
            if id(node) in sizes:
                continue
            if isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            elif isinstance(node, yaml.SequenceNode):
                children = list(node.value)
            else:
                children = []
            if children_done:
                sizes[id(node)] = 1 + sum(sizes.get(id(child), 0) for child in children)
                if sizes[id(node)] > MAX_EXPANDED:
                    raise UserError(f"{path} expands to more than {MAX_EXPANDED:,} values through its YAML aliases "
                                    "(`&name` / `*name`); a template's settings need a few hundred, so it was not read",
                                    hint="fix the template, or report it to its author")
            elif id(node) not in visiting:  # a node that contains itself is counted once
                visiting.add(id(node))
                stack.append((node, True))
                stack.extend((child, False) for child in children if id(child) not in sizes)


def load_config(template: Path) -> dict[str, Any]:
    """The template's copier.yml as a mapping; a UserError when it is missing or not YAML."""
    path = copier_file(template)
    if path is None:
        raise UserError(f"{template} is not a copier template (no copier.yml or copier.yaml)")
    import yaml

    loader = type("_Loader", (_copier_loader(),), {"root": path.parent.resolve(), "budget": [_INCLUDE_FILES]})
    try:
        if path.stat().st_size > CONFIG_BYTES:
            raise UserError(f"{path} is larger than {CONFIG_BYTES >> 20} MB; a template's settings and questions fit "
                            "in a few KB, so it was not read", hint="fix the template, or report it to its author")
        try:
            _refuse_alias_bombs(path)
        except RecursionError:  # pyyaml composes recursively: thousands of levels end here
            raise UserError(f"{path} nests its values thousands of levels deep; not read",
                            hint="fix the template, or report it to its author") from None
        docs = [d for d in yaml.load_all(path.read_text(encoding="utf-8"), Loader=loader) if d is not None]
    except (yaml.YAMLError, UnicodeDecodeError, OSError) as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise UserError(f"{path} is not valid YAML: {first}") from None
    # a document that is an `!include` is the included documents, in order
    docs = [item for d in docs for item in (d if isinstance(d, list) else [d])]
    config: dict[str, Any] = {}
    joined: dict[str, list[Any]] = {}
    for doc in docs:  # copier: a later document's value wins, but these lists add up over all of them
        if not isinstance(doc, dict):
            raise UserError(f"{path} must hold a mapping of settings and questions")
        config.update(doc)
        for key in JOINED_KEYS:
            if key in doc:
                value = doc[key]
                joined.setdefault(key, []).extend(value if isinstance(value, list) else [value])
    return {**config, **joined}


# copier's load_template_config concatenates the first four over every document; `_tasks` and
# `_migrations` it takes from the last, but the trust gate must see each document's (an early
# document's tasks are a template's statement of intent, and copier's merge may change), so they are
# joined here too: what we refuse is never less than what copier would run
JOINED_KEYS = ("_exclude", "_jinja_extensions", "_secret_questions", "_skip_if_exists", "_tasks", "_migrations")
