"""What an editor's edit run (check/live.py) can keep finer than a whole check.

`remember_each`: one unit of work per file or folder, the same function over each (a config's
secrets, a folder's placeholders, a file's suppression comments), concatenated in order.

Through `Workspace.remember` item by item (doctor's cache keeps each as before, under the name
``prefix + ws.rel(path)``); in an editor's run (check/live.py) the whole loop goes to its memory at
once, which knows each item's function: an edit run keeps the unchanged items without a call each,
and a check whose only contact with an edited buffer is through such items keeps its findings when
the items the edit touched give what they gave last time.

`remember_items`: a loop whose items are each a unit judged on inputs of its own (a config, judged on its
file, the rollout folder and the local dataset it names): an edit run keeps an item's value without
judging it again when its token is the same object as last run's and none of its inputs changed.

`view`: a value several checks share (`Workspace.memo`) that an edit run compares with its last one: a
check that reached an edited buffer only through such views (and batches) keeps its findings when
each is equal (which rollout folders the configs name entrypoints for, say, when a config's rollout is renamed
to one with no folder).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from osmosis_workspace.core.workspace import Workspace


# A unit is named prefix + path, so two loops under one prefix would share a path's answer (a rollout
# folder named like a file, `calc.py`, was an item of suppress.scan's file loop and its rollout loop).
# remember_items' keys too ("items:" + key, owned by the judge): an editor's edit run keeps each loop's items
# under its key, and a second loop under one key would be handed the first's values for its own ids.
_PREFIX_OWNERS: dict[str, tuple[str, str]] = {}


def _one_function_a_prefix(prefix: str, fn: Callable) -> None:
    owner = (getattr(fn, "__module__", ""), getattr(fn, "__qualname__", repr(fn)))
    if _PREFIX_OWNERS.setdefault(prefix, owner) != owner:
        raise RuntimeError(f"remember_each prefix (or remember_items key) {prefix!r} used by {'.'.join(owner)} and {'.'.join(_PREFIX_OWNERS[prefix])}")


def remember_each(ws: Workspace, prefix: str, paths: Iterable[Path], fn: Callable[[Workspace, Path], list],
                  codec: tuple | None = None) -> list:
    """``fn(ws, path)`` for each of ``paths``, concatenated; each a unit whose one input is ``path``
    (with all below it): ``fn`` must read nothing else, and no editor buffer but under ``path``."""
    _one_function_a_prefix(prefix, fn)
    each = getattr(ws.units, "recall_each", None)
    if each is not None:
        return each(ws, prefix, list(paths), fn, codec)
    found: list = []
    for path in paths:
        found += ws.remember(prefix + ws.rel(path), [path], "", lambda: fn(ws, path), codec)
    return found


def remember_items(ws: Workspace, key: str, items: Iterable[tuple], judge: Callable[[tuple], tuple],
                   compute: Callable[[tuple], list], make: Callable[[tuple, list], object] | None = None,
                   codec: tuple | None = None) -> list:
    """``make(item, found)`` for each of ``items`` (tuples: an id, a token, anything else), where ``found`` is
    ``compute(item)`` as a unit: ``judge(item)`` is (unit name, inputs, extra), inputs None when the item is
    judged afresh each run. ``compute`` reads nothing but the inputs; ``judge`` and ``make`` read no buffer,
    and give the same for the same token (the files as they are on disk aside). In an editor's edit run
    (check/live.py) an item whose id had the same token (``is``) last run and none of whose inputs changed is
    last run's value, without a call: values are shared between runs, never changed."""
    _one_function_a_prefix(f"items:{key}", judge)
    each = getattr(ws.units, "recall_items", None)
    if each is not None:
        return each(ws, key, items, judge, compute, make, codec)
    out = []
    for item in items:
        unit, inputs, extra = judge(item)
        found = compute(item) if inputs is None else ws.remember(unit, inputs, extra, lambda: compute(item), codec)
        out.append(found if make is None else make(item, found))
    return out


T = TypeVar("T")


def view(ws: Workspace, key: str, fn: Callable[[Workspace], T]) -> T:
    """``fn(ws)`` once per snapshot (``ws.memo(key, ...)``). ``fn`` is a module-level function of the
    snapshot alone, and its value is compared with ``==`` and never changed after: an editor's edit run
    makes it again on the new snapshot to see whether the checks that used it can keep their findings."""
    maker = getattr(ws.units, "maker", None)
    if maker is not None:
        maker(key, fn)
    return ws.memo(key, lambda: fn(ws))
