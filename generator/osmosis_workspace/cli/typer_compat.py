"""Three adjustments to typer >= 0.29 internals, applied once by osmosis_workspace.cli. All are guarded: on
a typer without those internals they do nothing and typer's own behaviour stands.

1. Help labels. Typer 0.29 labels values by Python type (`--data <list[str]>`, `path <path>`),
   which reads as noise; options get click-style names (`--data TEXT`), arguments none (their name
   already says what they are). Only help text changes.
2. Start-up time. Typer 0.29 coerces every parameter through a pydantic TypeAdapter; importing
   pydantic and building the adapters costs ~0.3 s per run, most of `osmosis doctor`'s budget.
   Parameters of the plain kinds this CLI uses (str, int, Path, bool, Optional/List of those, no
   constraints) are converted directly instead; anything else still goes through typer.
3. Usage lines. Typer 0.29 writes a required argument as `{name}` and an optional one as `[name]`;
   ours are written the click (and uv, ruff) way: `NAME`, `PATH...`, `[PATH]`, upper case from the
   command modules' metavars, so one idea has one spelling in every command's help.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

_TYPE_NAMES = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN", "path": "PATH", "file": "FILE"}
_SIMPLE = (str, int, Path, bool)
# ParameterInfo attributes that make a parameter more than a plain conversion.
_CONSTRAINTS = ("parser", "click_type", "min", "max", "exists", "writable", "resolve_path", "path_type", "allow_dash")


def _readable_help_types(core: Any) -> None:
    original = core._TyperParameter.display_type

    def display_type(self, ctx):  # type: ignore[no-untyped-def]
        if isinstance(self, core.TyperArgument):
            return ""
        label = original(self, ctx)
        inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
        if inner.startswith("list[") and inner.endswith("]"):
            inner = inner[5:-1]
        return _TYPE_NAMES.get(inner.lower(), inner.upper() if inner.isidentifier() else inner)

    core._TyperParameter.display_type = display_type


def _leaf(annotation: Any) -> tuple[type | None, bool]:
    """(the simple type, is a list) for str / Optional[Path] / List[str] ...; (None, _) otherwise."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, getattr(types, "UnionType", None)):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _leaf(args[0]) if len(args) == 1 else (None, False)
    if origin is list:
        [item] = typing.get_args(annotation) or (None,)
        leaf, nested = _leaf(item)
        return (leaf, True) if leaf is not None and not nested else (None, False)
    return (annotation, False) if annotation in _SIMPLE else (None, False)


def _fast_coercion(core: Any) -> None:
    from typer import _coercion

    if not hasattr(_coercion, "RuntimeParam") or not hasattr(core._TyperParameter, "get_runtime_param"):
        return

    class PlainRuntimeParam(_coercion.RuntimeParam):
        """str/int/Path/bool values (or lists of them) converted without pydantic."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            leaf, many = _leaf(self.annotation)

            def one(item: Any) -> Any:
                if leaf is bool and isinstance(item, str):
                    return item.strip().lower() in ("1", "true", "yes", "y", "on")
                try:
                    return item if isinstance(item, leaf) else leaf(item)
                except (TypeError, ValueError):
                    raise core._click.exceptions.BadParameter(f"{item!r} is not a valid {leaf.__name__}", ctx=ctx, param=param) from None

            return [one(v) for v in value] if many and isinstance(value, (list, tuple)) else one(value)

    original = core._TyperParameter.get_runtime_param

    def get_runtime_param(self):  # type: ignore[no-untyped-def]
        if getattr(self, "_runtime_param", None) is None:
            desc = self.type_descriptor
            info = desc.parameter_info
            plain = desc.file_annotation is None and not getattr(desc, "is_choice", False)
            plain = plain and not any(getattr(info, name, None) not in (None, False) for name in _CONSTRAINTS)
            if plain and _leaf(desc.annotation)[0] is not None:
                self._runtime_param = PlainRuntimeParam(parameter_info=info, annotation=desc.annotation)
        return original(self)

    core._TyperParameter.get_runtime_param = get_runtime_param


def _plain_usage_names(core: Any) -> None:
    def usage_name(self):  # type: ignore[no-untyped-def]
        name = self.display_name_raw.upper()
        if self.nargs != 1:
            name += "..."
        return name if self.required else f"[{name}]"

    core.TyperArgument._usage_display_name = usage_name


def apply() -> None:
    try:
        from typer import core
    except ImportError:  # pragma: no cover
        return
    if getattr(core, "_osmosis_adjusted", False) or not hasattr(core, "_TyperParameter"):
        return
    if hasattr(core._TyperParameter, "display_type"):
        _readable_help_types(core)
    if hasattr(core, "TyperArgument") and hasattr(core.TyperArgument, "_usage_display_name"):
        _plain_usage_names(core)
    try:
        _fast_coercion(core)
    except (ImportError, AttributeError, TypeError):  # a typer whose internals moved: keep its own
        pass
    core._osmosis_adjusted = True
