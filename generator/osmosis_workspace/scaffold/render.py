"""Rendering copier templates. The only module that imports copier (it is slow to import and only
`init`, `rollout new` and `update` need it).
"""

from __future__ import annotations

import warnings
from functools import cached_property
from pathlib import Path
from typing import Any

from osmosis_workspace import __version__
from osmosis_workspace.readers import yamlio
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.resources import templates_dir


# pip byte-compiles the bundled templates' own .py files on install; copier skips bytecode only for
# templates without `_subdirectory` (ours all have one), so every render leaves it out explicitly.
BYTECODE = ("__pycache__", "*.py[co]")


class RenderError(UserError):
    """Copier refused or failed to render (a bad answer, an unsafe template, a broken template)."""


def render(
    src: Path,
    dst: Path,
    *,
    data: dict[str, Any],
    defaults: bool,
    user_defaults: dict[str, Any] | None = None,
    unsafe: bool = False,
    skip_tasks: bool = False,
) -> dict[str, Any]:
    """Render template ``src`` into folder ``dst`` and return the recorded answers.

    ``defaults=False`` lets copier prompt on the terminal for questions ``data`` does not answer;
    ``user_defaults`` changes what those prompts offer. ``unsafe`` allows tasks, migrations and Jinja
    extensions, which only non-bundled templates may carry (``--trust``). ``skip_tasks`` renders
    without running the template's tasks (re-renders for `osmosis update` must not repeat them).
    """
    from copier.errors import CopierError
    from jinja2 import TemplateError
    from yaml import YAMLError

    from osmosis_workspace.scaffold.jinja_bounds import template_too_big

    if (why := template_too_big(src)) is not None:
        raise RenderError(f"template {src.name} is more than osmosis renders: {why}",
                          hint="a template is a small tree of text files; remove what it does not need to ship")
    trusted = unsafe or _is_bundled(src)
    if _is_bundled(src):
        # Bundled templates pin the tool in what they generate (the CI workflow); a hidden question,
        # never recorded in the answers, so `osmosis update` moves the pin to the installed version.
        data = {"osmosis_version": __version__, **data}
    if not defaults:
        from osmosis_workspace.scaffold.prompt_compat import wrap_validation_errors

        wrap_validation_errors()  # a long validator message is shown whole, not cut at the terminal's width
    from osmosis_workspace.scaffold.jinja_bounds import Budget, TemplateExceeded

    blocked: list[str] = []
    written: list[str] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # copier's dirty-template and deprecation warnings are noise here
            with _worker_class(trusted, blocked, written, Budget())(
                src_path=str(src), dst_path=Path(dst), data=dict(data), user_defaults=dict(user_defaults or {}),
                defaults=defaults, unsafe=unsafe, quiet=True, overwrite=False, cleanup_on_error=False,
                skip_tasks=skip_tasks, exclude=list(BYTECODE),
            ) as worker:
                worker.run_copy()
    except TemplateExceeded as err:
        raise RenderError(f"template {src.name} exceeded {err} (the template's fault, not osmosis's)",
                          hint="fix the template, or report it to its author; nothing was placed") from None
    except KeyboardInterrupt:  # Ctrl-C at a question: copier's CopierAnswersInterrupt is also a CopierError
        raise KeyboardInterrupt from None
    except CopierError as err:
        raise RenderError(f"template {src.name}: {_one_line(err)}") from None
    except ValueError as err:  # copier reports an answer its validator rejects as ValueError
        raise RenderError(f"template {src.name}: {_one_line(err)}") from None
    except (TypeError, AttributeError) as err:
        if not _raised_in_template(err):
            raise
        raise RenderError(f"template {src.name} is broken (the template's fault, not osmosis's): "
                          f"{type(err).__name__}: {_one_line(err)}", hint="fix the template, or report it to its author") from None
    except (TemplateError, YAMLError, AssertionError, ArithmeticError, RecursionError) as err:
        # Jinja's sandbox refusing an attribute, a missing include, an absolute `_answers_file` (copier
        # asserts relative paths), broken YAML, `{{ 1 / 0 }}`, `range()` past the sandbox's limit, a
        # copier.yml nested thousands deep: what the template says is wrong, not osmosis
        detail = f"{type(err).__name__}: {_one_line(err)}" if str(err).strip() else type(err).__name__
        raise RenderError(f"template {src.name} is broken (the template's fault, not osmosis's): {detail}",
                          hint="fix the template, or report it to its author") from None
    if not trusted:
        from osmosis_workspace.core.template_guard import describe, output_problems

        found = blocked + output_problems(dst, written)
        if found:
            raise RenderError(
                f"template {src.name} would make git run code or write outside the workspace; it renders: {describe(found)}",
                hint="nothing was placed; read the template first, and rerun with --trust only if you trust it",
            )
    answers_file = dst / worker.answers_relpath
    if answers_file.is_symlink():  # it would be read, and later stamped, wherever it points
        raise RenderError(f"template {src.name}: its answers file {worker.answers_relpath} is a symbolic link")
    if not answers_file.is_file():
        return dict(worker.answers.combined)
    try:
        answers = yamlio.safe_load(answers_file.read_text(encoding="utf-8")) or {}
    except (UnicodeDecodeError, yamlio.YAMLError) as err:
        raise RenderError(f"template {src.name}: its answers file is not YAML: {_one_line(err)}") from None
    if not isinstance(answers, dict):
        raise RenderError(f"template {src.name}: its answers file {worker.answers_relpath} is not a mapping")
    return answers


def _worker_class(trusted: bool, blocked: list[str], written: list[str], budget: Any) -> type:
    """copier's Worker, seeing every RENDERED path before it is written: for an untrusted template a
    path through `.git` is never written (copier runs git in the destination while rendering, so it
    must not exist even for a moment) and is listed in ``blocked``; the rest go to ``written``. Its
    Jinja works within ``budget`` (osmosis_workspace.scaffold.jinja_bounds)."""
    from copier import Worker

    from osmosis_workspace.core.template_guard import has_git_segment
    from osmosis_workspace.scaffold.jinja_bounds import bound

    fixed: dict[str, Any] = {}

    class GuardedWorker(Worker):  # type: ignore[misc, valid-type]
        @cached_property
        def jinja_env(self):  # noqa: ANN202
            try:
                env = Worker.jinja_env.func(self)  # type: ignore[attr-defined]
            except TypeError as err:  # `_envops` go to Jinja's constructor as they are
                raise RenderError(f"template {Path(self.template.local_abspath).name} is broken (the template's fault, "
                                  f"not osmosis's): _envops holds a setting Jinja does not take ({_one_line(err)})",
                                  hint="fix the template, or report it to its author") from None
            return bound(env, budget)

        # copier's own costs per path, made linear (issue 18 point 8): every part of every path was
        # compiled as a template (a file d folders deep: d compiles, so a deep tree was quadratic),
        # the answers file's name rendered again for each part, and git run once per file to sync
        # an index entry a staging folder never has
        def _render_string(self, string, extra_context=None):  # noqa: ANN001, ANN202
            if not self.template.jinja_extensions and _plain(string, self.jinja_env):
                _reset_yield(self.jinja_env)  # what compiling it would have done
                return string
            return Worker._render_string(self, string, extra_context)

        def _render_template(self) -> None:
            fixed["answers_relpath"] = Worker.answers_relpath.fget(self)  # the answers are final here
            try:
                Worker._render_template(self)
            finally:
                fixed.clear()

        @property
        def answers_relpath(self):  # noqa: ANN202
            return fixed.get("answers_relpath") or Worker.answers_relpath.fget(self)

        def _sync_git_index_executable_bit(self, dst_relpath, src_mode) -> None:  # noqa: ANN001
            return None  # for tracked files only; a render goes to a new, untracked folder

        @cached_property
        def match_exclude(self):  # noqa: ANN202
            excluded = Worker.match_exclude.func(self)  # type: ignore[attr-defined]

            def match(path: Path) -> bool:
                if excluded(path):
                    return True
                rel = Path(path).as_posix()
                if not trusted and has_git_segment(rel):
                    blocked.append(f"{rel} (inside a git folder: hooks and config there run programs)")
                    return True
                written.append(rel)
                return False

            return match

    return GuardedWorker


def _plain(string: str, env: Any) -> bool:
    """Whether Jinja would render ``string`` as itself: no tag, expression or comment opens in it,
    no line statements, and no newline for `keep_trailing_newline` / `newline_sequence` to change."""
    if env.line_statement_prefix or env.line_comment_prefix or "\n" in string or "\r" in string:
        return False
    return not any(mark in string for mark in (env.variable_start_string, env.block_start_string, env.comment_start_string))


def _reset_yield(env: Any) -> None:
    from copier._jinja_ext import get_yield_context

    context = get_yield_context(env)
    context.yield_name = None
    context.yield_iterable = None


def _is_bundled(src: Path) -> bool:
    try:
        return src.resolve().is_relative_to(templates_dir().resolve())
    except FileNotFoundError:
        return False


def _raised_in_template(err: BaseException) -> bool:
    """Whether ``err`` came out of a template's own code (`{{ 1 | length }}`), not copier's or ours:
    Jinja rewrites the traceback to show the template's lines, with the error in their globals."""
    tb = err.__traceback__
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            return True
        tb = tb.tb_next
    return False


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__
