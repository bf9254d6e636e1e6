"""`osmosis init`: create a workspace from the workspace template plus one rollout template.

Everything is rendered into a staging folder beside the target (same filesystem, so the final move is
a rename), completed with skills, Claude links and schemas, and only then moved into place. Any
failure or Ctrl-C before that leaves nothing behind; a failure during the move into an existing
folder (--force) takes back what it had moved. Existing files are never overwritten.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import typer

from osmosis_workspace.core import assets, lock, safe_git
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.names import NAME_RULE_TEXT, name_problem
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.workspace import find_git_root
from osmosis_workspace.scaffold import catalog, folders
from osmosis_workspace.scaffold.staging import check_target, free_places, make_staging, place, take_back_interrupted

# Used for the first commit only when git has no identity configured, and said so.
FALLBACK_NAME = "Osmosis Workspace"
FALLBACK_EMAIL = "workspace@osmosis.invalid"
FIRST_COMMIT_MESSAGE = "Create Osmosis workspace with osmosis init"
NAME_QUESTIONS = {"workspace_name": "workspace", "rollout_name": "rollout"}


@dataclass(frozen=True)
class TemplateSource:
    name: str
    path: Path
    bundled: bool


def init_command(
    *,
    path: Path | None,
    template: str,
    defaults: bool,
    data: list[str],
    here: bool,
    force: bool,
    no_git: bool,
    trust: bool,
) -> int:
    if here and path is not None:
        raise UserError("give either PATH or --here, not both")
    template, implied = catalog.resolve_alias(template)
    rollout_template = resolve_template(template, trust=trust)
    workspace_template = catalog.workspace_template()
    answers = {**implied, **parse_data(data)}
    ws_questions = catalog.questions(workspace_template.path)
    ro_questions = catalog.questions(rollout_template.path)
    unknown = sorted(set(answers) - catalog.answerable(ws_questions) - catalog.answerable(ro_questions))
    if unknown:
        known = ", ".join(sorted(catalog.answerable(ws_questions) | catalog.answerable(ro_questions)))
        raise UserError(f"unknown question {unknown[0]!r} in --data; this template asks: {known}")
    catalog.refuse_unasked({**ws_questions, **ro_questions}, answers, rollout_template.name)
    for key, kind in NAME_QUESTIONS.items():
        if key in answers and (problem := name_problem(answers[key], kind=kind)):
            raise UserError(f"{problem}", hint=f"names use {NAME_RULE_TEXT}")

    if not no_git and shutil.which("git") is None:  # say so before writing anything
        raise UserError("git is not installed (not found on PATH); osmosis init makes a repository with a first commit",
                        hint="install git, or pass --no-git to create the workspace without a repository")

    interactive = not defaults and sys.stdin.isatty()
    cwd = Path.cwd()
    # abspath, not resolve: normalise `..` but keep the user's symlinked folders as they named them
    target = cwd if here else (Path(os.path.abspath(cwd / path)) if path is not None else None)
    suggested = _suggested_workspace_name(answers, target)
    named_by_folder = target is not None and "workspace_name" not in answers
    ws_data = {k: v for k, v in answers.items() if k in ws_questions}
    ro_data = {k: v for k, v in answers.items() if k in ro_questions}
    user_defaults = {}
    checker_note = None
    if "checker_source" in ws_questions and "checker_source" not in ws_data:
        # recorded, never asked at a terminal (CI setup is not a first-minute choice): where this checker came from
        ws_data["checker_source"], checker_note = _checker_source()
    if "rehearse_max_parallel" in ws_questions:  # recorded, never asked, as checker_source
        ws_data.setdefault("rehearse_max_parallel", ws_questions["rehearse_max_parallel"].get("default"))
    if suggested:
        (user_defaults if interactive else ws_data)["workspace_name"] = suggested

    if target is None and not interactive:
        target = cwd / str(ws_data.get("workspace_name") or ws_questions["workspace_name"].get("default", ""))
    if target is not None:
        if target.is_dir():
            take_back_interrupted(target)  # an `init --force` killed part-way must not block this one
        check_target(target, force)

    staging_parent = (target or cwd / "_").parent
    made_parents = folders.make_parents(staging_parent)  # `osmosis init a/b/c` makes a/ and a/b/
    staging = make_staging(staging_parent, ".osmosis-init-")
    git_note = None
    try:
        from osmosis_workspace.scaffold.render import render

        ws_answers = render(workspace_template.path, staging, data=ws_data, defaults=not interactive,
                            user_defaults=user_defaults)
        ro_answers = render(rollout_template.path, staging, data=ro_data, defaults=not interactive,
                            unsafe=trust and not rollout_template.bundled)
        rollout = str(ro_answers.get("rollout_name") or _rendered_rollout(staging, rollout_template.name))
        from osmosis_workspace.scaffold import pristine
        from osmosis_workspace.scaffold.registration import register_rollout

        register_rollout(staging, rollout)  # the rollout's secrets in .env.example
        assets.add_all(staging)
        pristine.stamp_tree(staging, {rollout: rollout_template.name})  # template versions, for `osmosis update`
        folders.follow_umask(staging)
        if target is None:  # interactive without PATH: the folder is named after the answer
            target = cwd / str(ws_answers["workspace_name"])
            check_target(target, force)
        # The repository, its first commit and the pristine ref are made in the staging folder too, so
        # the workspace appears whole (one rename) or not at all, even under kill -9.
        outer = find_git_root(target if target.exists() else target.parent, strict=True)
        refs = []
        if not no_git and outer is None:
            moves = free_places(staging, target)[0] if target.exists() else None
            git_note = _first_commit(staging, only=moves)
            _pristine_or_warn(lambda: pristine.record_after_init(staging))
        elif not no_git:
            refs = _pristine_or_warn(lambda: [pristine.prepare_after_init(staging, outer, target)]) or []
        placement = place(staging, target, what="init", refs=refs)
    except OSError as err:  # a full disk, a quota, a folder made read-only meanwhile: nothing is left behind
        where = f" {err.filename}" if err.filename else ""
        raise UserError(f"cannot write{where}: {err.strerror or err}; nothing was created",
                        hint="free some disk space (or fix the folder's permissions), then run osmosis init again") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        lock.release(staging)
        if target is None or not target.exists():
            folders.remove_made(made_parents)  # a failed init leaves nothing behind, parents included

    shown = _display(target, cwd)
    typer.echo(f"Created workspace {ws_answers.get('workspace_name')!s} in {shown} "
               f"(template {rollout_template.name}, rollout {rollout}).")
    if named_by_folder and not suggested and not interactive:
        typer.echo(f"note: the folder name {target.name!r} is not a valid workspace name ({NAME_RULE_TEXT}), "
                   f"so the default was used; choose one with --data workspace_name=NAME")
    if placement.skipped:
        typer.echo(f"Kept {len(placement.skipped)} existing file(s); not overwritten:")
        for rel in placement.skipped:
            typer.echo(f"  {rel}")
    git_steps: list[str] = []
    if no_git:
        if outer is None:  # the platform syncs a git repository (LAY007 says so): the first step is making one
            git_steps = [f"git init && git add -A && git commit -m {shlex.quote(FIRST_COMMIT_MESSAGE)}"]
    elif outer is not None:
        typer.echo(f"git: {target} is already inside the repository {outer}; review and commit the new files yourself.")
    else:
        if git_note:
            typer.echo(git_note)
        left_out = _untracked_count(target) if not placement.whole_target else 0
        if left_out:
            typer.echo(f"git: created a repository with a first commit of the files osmosis init wrote; "
                       f"your {left_out} existing file(s) are not in it (see `git status`).")
            git_steps = ["git status   # your files from before init are not committed: `git add` what belongs"]
        else:
            typer.echo("git: created a repository with a first commit.")
    print_next_steps(shown, rollout, _rollout_sources(target / "rollouts" / rollout), here=target == cwd,
                     git_steps=git_steps, has_remote=outer is not None and _has_remote(outer), root=target,
                     notes=[checker_note] if checker_note else [])
    return 0


def _rendered_rollout(staging: Path, template: str) -> str:
    """The rollout a template without a `rollout_name` answer rendered: its one folder under rollouts/
    (a local template's name is its path, which is no rollout name), else the template folder's name."""
    folders = [p.name for p in (staging / "rollouts").iterdir() if p.is_dir()] if (staging / "rollouts").is_dir() else []
    return folders[0] if len(folders) == 1 else Path(template.rstrip("/\\")).name or template


def _checker_source() -> tuple[str, str | None]:
    """The `checker_source` that installs this checker again in CI (PEP 610's record of how it was
    installed), and a next-steps note when CI cannot reach it (a local folder or wheel)."""
    from osmosis_workspace import __version__
    from osmosis_workspace.core.install_origin import checker_source_for, local_note, running_checker

    origin = running_checker(__version__)
    return checker_source_for(origin), local_note(origin)


def resolve_template(name: str, trust: bool = False) -> TemplateSource:
    """A bundled rollout template by name, or a local folder / git URL of a copier template.

    Non-bundled templates go through the trust gate (osmosis_workspace.scaffold.external): tasks, migrations and
    Jinja extensions are refused unless ``trust``. A non-bundled template's name is its path or URL.
    """
    info = catalog.find_bundled(name)
    if info is not None and info.kind == "rollout":
        return TemplateSource(info.name, info.path, bundled=True)
    from osmosis_workspace.scaffold.external import resolve_checked

    source = resolve_checked(name, trust=trust, kind="rollout")
    return TemplateSource(source.label, source.path, bundled=source.bundled)  # label: the bundled name, else URL or path


def parse_data(items: list[str]) -> dict[str, str]:
    """``--data KEY=VALUE`` pairs; a later KEY wins."""
    answers: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise UserError(f"--data expects KEY=VALUE, got {item!r}")
        answers[key] = value
    return answers


def _suggested_workspace_name(answers: dict[str, str], target: Path | None) -> str | None:
    """The folder's name, when no name was given and the folder's name is a valid one."""
    if "workspace_name" in answers or target is None:
        return None
    name = target.name
    if name_problem(name, kind="workspace") is None:
        return name
    return None


def _pristine_or_warn(record):
    """The pristine render is for `osmosis update` only: failing to record it must not lose the workspace."""
    try:
        return record()
    except Exception as err:  # noqa: BLE001
        typer.echo(f"warning: could not record the pristine render for `osmosis update`: {' '.join(str(err).split())}", err=True)
        return None


def _first_commit(repo_dir: Path, only: list[str] | None) -> str | None:
    """`git init` and the first commit in ``repo_dir`` (only ``only`` when given: the user's own files in
    an existing folder stay out). Returns a note to print about the identity used, if any."""
    try:
        used_fallback = make_first_commit(repo_dir, only=None if only is None else set(only))
    except Exception as err:  # noqa: BLE001  git or the disk failed (a full disk, a broken git config)
        raise UserError(f"git could not create the first commit ({' '.join(str(err).split())}); "
                        "nothing was created",
                        hint="free disk space or fix git, then run osmosis init again (or pass --no-git)") from None
    if not used_fallback:
        return None
    return (f"git: no git identity is configured, so the first commit is by {FALLBACK_NAME} <{FALLBACK_EMAIL}>. "
            "Set yours with `git config --global user.name ...` and `git config --global user.email ...`; "
            "`git commit --amend --reset-author` then rewrites that commit.")


def _has_remote(repo: Path) -> bool:
    try:
        return bool(safe_git.out(repo, "remote").strip())
    except safe_git.GitError:
        return False


def _untracked_count(target: Path) -> int:
    out = safe_git.out(target, "ls-files", "-z", "--others", "--exclude-standard")
    return len([p for p in out.split("\0") if p])


def make_first_commit(target: Path, only: set[str] | None = None) -> bool:
    """`git init` and commit everything (or, given ``only``, those workspace-relative files).
    Returns True when the neutral fallback identity was used.

    Through `core/safe_git.py`: an exported GIT_DIR (osmosis run from another repository's hook) must
    not make this init or commit land in that repository."""
    safe_git.run(target, "init", "-q", f"--initial-branch={_initial_branch(target)}", "--", ".")
    safe_git.run(target, "add", "-A")  # -A, then unstaging: `git add PATH` of an ignored file would fail
    if only is not None:
        others = [p for p in safe_git.out(target, "ls-files", "-z").split("\0") if p and p not in only]
        for start in range(0, len(others), 500):  # bounded command lines
            safe_git.run(target, "rm", "--cached", "-q", "--", *(f":(literal){p}" for p in others[start:start + 500]))
    fallback = not has_git_identity(target)
    env = {f"GIT_{role}_{part}": value for role in ("AUTHOR", "COMMITTER")
           for part, value in (("NAME", FALLBACK_NAME), ("EMAIL", FALLBACK_EMAIL))} if fallback else None
    safe_git.run(target, "commit", "-q", "--no-verify", "--allow-empty", "-m", FIRST_COMMIT_MESSAGE, env=env)
    return fallback


def _initial_branch(cwd: Path) -> str:
    """The user's `init.defaultBranch`, else main (git's own default still varies between versions)."""
    try:
        return safe_git.out(cwd, "config", "--get", "init.defaultBranch", check=False).strip() or "main"
    except safe_git.GitError:
        return "main"


def has_git_identity(repo: Path) -> bool:
    """Whether git knows who authors and commits (environment or config), without guessing from the host."""
    def value(env: str, key: str) -> str:
        if os.environ.get(env):
            return os.environ[env]
        try:
            return safe_git.out(repo, "config", "--get", f"user.{key}", check=False).strip()
        except safe_git.GitError:  # unreadable config counts as unset
            return ""

    return all(value(f"GIT_{role}_{part.upper()}", part) for role in ("AUTHOR", "COMMITTER") for part in ("name", "email"))


def _display(target: Path, cwd: Path) -> str:
    try:
        rel = target.relative_to(cwd)
    except ValueError:
        return str(target)
    return "." if rel == Path(".") else rel.as_posix()


def _rollout_sources(rollout_dir: Path) -> list[str]:
    """The rollout's own top-level Python files and packages: what a user edits differs per template."""
    if not rollout_dir.is_dir():
        return []
    packages = [f"{p.parent.name}/" for p in rollout_dir.glob("*/__init__.py")]
    return sorted(p.name for p in rollout_dir.glob("*.py")) + sorted(packages)


def rollout_test_steps(rollout: str) -> list[str]:
    """How to run a rollout's tests: in its own locked environment (its uv.lock), which `uv run` makes,
    from the workspace root, with pytest added whether or not the rollout's dev group has it (a third
    party's template may not): the form AGENTS.md and the skills write. uv is not a dependency of
    osmosis-workspace, so say to install it."""
    import shutil

    install = [] if shutil.which("uv") is not None else ["pip install uv"]
    return [*install, f"uv run --project rollouts/{rollout} --with pytest pytest rollouts/{rollout}"]


def rehearse_steps(rollout: str) -> list[str]:
    """The gate before anything paid (AGENTS.md's loop, step 4): the SDK in the root .venv, which
    rehearse runs, then the rehearsal. After the tests, before `eval run`."""
    return ["uv sync   # the SDK (osmosis-ai) in the workspace's .venv, which rehearse runs",
            f"osmosis rehearse {rollout}   # free, no key: the gate before anything paid"]


# The platform's commands come from osmosis-ai, which `uv sync` puts in the workspace's .venv: `uv run
# osmosis ...` reaches that one whichever `osmosis` is first on PATH (this package installs one too).
PLATFORM = "uv run osmosis"
NEXT_STEPS_HEADER = (f"`{PLATFORM} ...` is the platform's CLI (osmosis-ai, in the workspace's .venv); plain "
                     "`osmosis` is this checker (osmosis-workspace). Each line below can be pasted.\nNext steps:")


def eval_run_step(rollout: str, root: Path) -> str:
    """`osmosis eval run` (osmosis-ai 0.3) on the first five rows of the rollout's local data, or all of
    them when it has fewer: the SDK refuses `--rows 0-4` on a file of four rows (the blank template's)."""
    try:
        with (root / "data" / f"{rollout}.jsonl").open("rb") as rows:
            count = sum(1 for _, line in zip(range(5), rows) if line.strip())
    except OSError:
        count = 5
    last = max(0, min(5, count) - 1)
    return (f"{PLATFORM} --json eval run configs/eval/{rollout}.toml --dataset-file data/{rollout}.jsonl --rows 0-{last}"
            "   # osmosis-ai, your model key from .env: shows what it would run; add --yes once agreed")


def print_next_steps(shown: str, rollout: str, sources: list[str], *, here: bool, git_steps: list[str] = (),
                     has_remote: bool = False, root: Path, notes: list[str] = ()) -> None:
    steps = [] if here else [f"cd {shlex.quote(shown)}"]
    code = ", ".join(f"rollouts/{rollout}/{name}" for name in sources) or f"rollouts/{rollout}/"
    steps += [
        *git_steps,
        "# read AGENTS.md (coding agents: the workspace contract); edit "
        f"{code}, data/{rollout}.jsonl, configs/eval/{rollout}.toml",
        "osmosis doctor",
        *rollout_test_steps(rollout),
        *rehearse_steps(rollout),
        "cp .env.example .env   # then put your LLM key in .env",
        eval_run_step(rollout, root),
        *([] if has_remote else ["git remote add origin https://github.com/OWNER/REPO.git   "
                                 "# your OWNER/REPO: the repository connected to the platform (Git Sync)"]),
        f"git push{'' if has_remote else ' -u origin HEAD'}   # the platform runs the pushed code",
        f"{PLATFORM} auth login   # osmosis-ai",
        f"{PLATFORM} --json dataset upload data/{rollout}.jsonl   # osmosis-ai: the platform dataset the configs name",
        f"{PLATFORM} --json eval submit configs/eval/{rollout}.toml   # osmosis-ai: asks before it spends credits",
        f"{PLATFORM} --json train submit configs/training/{rollout}.toml   # osmosis-ai: once that evaluation passed",
        *notes,
    ]
    typer.echo("\n" + NEXT_STEPS_HEADER)
    for step in steps:
        typer.echo(f"  {step}")
