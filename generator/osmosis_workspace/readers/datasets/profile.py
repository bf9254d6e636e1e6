"""What the data checks learn from a dataset's rows as the readers stream them, in bounded memory.

Per row (osmosis_workspace.readers.datasets.rows calls :meth:`Profile.observe_block` for every block of
object rows): a digest of its prompt, its label, whether its label stands in its system or user prompt,
and whether it is among the options its system prompt lists. At the end of the file :meth:`Profile.report`
turns that into at most one finding of each kind (two for leaks: one for system prompts, one for user prompts):

- ``duplicate-rows``: a row whose prompt repeats an earlier row's. The prompt is the system prompt
  (an empty one and none differ), the user prompt and the metadata, the two prompts compared in their
  normalised form (osmosis_workspace.readers.datasets.prompt_text.normalise: case, whitespace and prose
  punctuation aside); the label is left out, so two rows asking one question with different answers
  are repeats too. Any repeat is reported. DAT029 compares eval and training rows by the same digest.
- ``dominant-label``: one label on at least DOMINANT_SHARE of the rows, in a file of at least
  DOMINANT_MIN_ROWS labelled rows. A balanced yes/no task (1:1) or a 2:1 majority is not reported;
  a tiny file is not judged (four rows of the same label say little).
- ``label-in-system-prompt``: rows whose label (at least LEAK_MIN_CHARS characters, matched as a whole
  token: "42" does not match in "420") appears in their own system prompt, when such rows are at
  least LEAK_MIN_ROWS and LEAK_SHARE of the rows. A system prompt holding the labels of rows with
  different labels, or listing the label among its options, is a list of choices ("answer yes or no"),
  not a leak, and is not counted; short labels ("1", "A", "no") appear in any prose by chance and are
  not counted either (they still mark a system prompt as a list of choices).
- ``label-in-user-prompt``: the same for the user prompt, in any case, as a whole phrase; not where the
  user prompt lists the label among choices ("A) Paris B) Lyon"), not for labels shorter than
  LEAK_MIN_CHARS in their compared form, and not for a class label (one that CLASS_MIN_ROWS rows and
  CLASS_SHARE of the labelled rows share: a question may name a class, "is this review positive?").
- ``label-off-options``: rows whose label (or an item of a JSON list label) is not among the options
  their system prompt clearly lists (prompt_text.listed_options).

The digest is Python's 64-bit hash of the compared forms, never the row (the same in the forked workers
of the parallel JSON lines reader, which inherit the hash seed; collisions are a few in a billion at the
cap). Memory is capped: DIGEST_CAP digests per file (~90 bytes each with their order and line: about
4.5 MB at the cap), LABEL_CAP distinct labels of at most LABEL_CHARS characters (longer ones are
counted by digest), SYSTEM_CAP distinct system prompts for the leak and options checks. Past a cap every
row is still compared with what is remembered, but nothing new is remembered: a check may then miss a
finding, never make one up.
"""

from __future__ import annotations

import operator
from array import array
from collections import (
    _count_elements as _count,  # Counter.update's C loop, on a plain dict
)
from itertools import repeat


from osmosis_workspace.readers.datasets.columns import (
    LABEL,
    METADATA,
    SYSTEM,
    TRUTH,
    USER,
    ColumnSpec,
)
from osmosis_workspace.readers.datasets.profile_report import (  # noqa: F401  (the thresholds are read as profile.X)
    _MENU,
    CLASS_MIN_ROWS,
    CLASS_SHARE,
    DOMINANT_MIN_ROWS,
    DOMINANT_SHARE,
    LEAK_MIN_CHARS,
    LEAK_MIN_ROWS,
    LEAK_SHARE,
    SHOWN_LINES,
    lines_text,
    report,
)
from osmosis_workspace.readers.datasets.prompt_text import listed_options, normalise, normalise_many, outside, stands_in
from osmosis_workspace.readers.datasets.prompt_text import plain as _plain

DIGEST_CAP = 50_000
LABEL_CAP = 10_000
LABEL_CHARS = 256
SYSTEM_CAP = 10_000
KNOWN_SYSTEMS = 8  # system prompts found by comparison, not hashing (Profile._entries)


def _hashable(value: object) -> object:
    """A stand-in for a list or object value, equal for equal values (keys sorted)."""
    if isinstance(value, (dict, list)):
        try:
            import orjson  # here: a run whose rows hold only strings does not import it (readers/datasets/decode.py)

            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, say
            return repr(value)
    return value if value.__class__ in (str, int, float, bool) or value is None else repr(value)


_contains = operator.contains  # (text, label): is the label in it



class _Columns:
    """The little of a ColumnSpec a profile reads."""

    def __init__(self, columns: frozenset[str], metadata: bool):
        self.metadata = METADATA if metadata else None
        self.keys = columns


class Profile:
    """One file's (or one byte range's) observations; ranges merge in file order with :meth:`merge`."""

    def __init__(self, spec: ColumnSpec, digest_cap: int | None = None, ordered: bool = False):
        self.metadata = spec.metadata is not None
        self.columns = spec.keys
        self.labelled = TRUTH in spec.keys or LABEL in spec.keys
        # no prompt column (DAT006 says so): every row would share the digest of nothing
        self.prompted = USER in spec.keys or self.metadata
        self.cap = DIGEST_CAP if digest_cap is None else digest_cap
        self._n = [0, 0, 0, 0]  # see the properties below
        self.seen: set[int] = set()
        # With ``ordered``, the digests in the order first seen and their lines: to merge the parallel
        # reader's ranges, and for DAT029's lines (16 bytes a row more; off for other files).
        self.ordered = ordered
        self.firsts = array("q")
        self.first_lines = array("q")
        self.repeat_lines: list[int] = []
        self.labels: dict[object, int] = {}  # label (or digest of a long one) -> rows
        self.label_lines: dict[object, int] = {}  # label -> its first line
        self.leaks: dict[int, list] = {}  # system prompt digest -> [label or _MENU, rows, first line]
        self.user_leaks: dict[object, list] = {}  # label key -> [rows with it in their user prompt, first line]
        self.off_list: list = [0, []]  # rows whose label is not among their system prompt's options, [(line, item, options)]
        self._init_passes()

    def _init_passes(self) -> None:
        self.observe = self._observer()
        # observe_block's fast passes: prompt mode with `ground_truth` (not its alias)
        self.has_system = SYSTEM in self.columns
        self.blockwise = self.prompted and not self.metadata and TRUTH in self.columns and LABEL not in self.columns
        self._system, self._user, self._truth = operator.itemgetter(SYSTEM), operator.itemgetter(USER), operator.itemgetter(TRUTH)
        # system prompt -> its compared form; one that lists options -> (that form, its options)
        self._systems: dict[str, str] = {}
        self._listing: dict[str, tuple] = {}
        self._known: list[str] = []  # the system prompts of the last mixed block (no more than KNOWN_SYSTEMS)
        self._known_forms: list[str] = []  # their compared forms, in the same order

    def __getstate__(self) -> dict:  # a range's profile goes back from the parallel reader's worker
        # an ordered profile's set of digests is its list of them: rebuilt on arrival, not pickled twice
        drop = {"observe", "seen"} if self.ordered and len(self.seen) == len(self.firsts) else {"observe"}
        return {k: v for k, v in self.__dict__.items() if k not in drop and not k.startswith("_") or k == "_n"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if "seen" not in state:
            self.seen = set(self.firsts)
        self._init_passes()

    def _system_entry(self, system: str) -> object:
        """The compared form of a system prompt, with its options when it lists some (kept for SYSTEM_CAP prompts)."""
        entry = self._systems.get(system) or self._listing.get(system)
        if entry is None:
            options = listed_options(system)
            entry = normalise(system) if options is None else (normalise(system), options)
            kept = self._systems if options is None else self._listing
            if len(self._systems) + len(self._listing) < SYSTEM_CAP:
                kept[system] = entry
        return entry

    def _entries(self, systems: list[str]) -> list | None:
        """The compared forms of a mixed block's system prompts, or None when one lists options. The few
        prompts of the last mixed block (KNOWN_SYSTEMS at most) are kept in a list and found by comparison
        (``list.index``: a length test, then memcmp), not by hashing: each row's prompt is a fresh string
        from the parser, and hashing it (siphash, over the whole prompt) was a seventh of the block pass."""
        known = self._known
        try:
            at = list(map(known.index, systems))
        except ValueError:  # a prompt not among them
            entries = list(map(self._systems.get, systems))
            if None in entries:  # a system prompt not seen yet, or one listing options (its labels are compared)
                entries = list(map(self._system_entry, systems))
                if tuple in set(map(type, entries)):
                    return None
            distinct = dict.fromkeys(systems)  # their hashes are cached by now
            if len(distinct) <= KNOWN_SYSTEMS:
                self._known, self._known_forms = list(distinct), list(map(self._system_entry, distinct))
            return entries
        return list(map(self._known_forms.__getitem__, at))

    def _observer(self):
        """``observe(row, line)``, with what it touches bound locally: it runs for every row of a block
        the fast passes leave (see :meth:`observe_block`)."""
        seen, add_first, add_line = self.seen, self.firsts.append, self.first_lines.append
        repeat_lines, counts, label_lines, leak = self.repeat_lines, self.labels, self.label_lines, self._leak
        cap, prompted, ordered, metadata, nonlocal_counts = self.cap, self.prompted, self.ordered, self.metadata, self._n

        def observe(row: dict, line: int | None) -> None:
            nonlocal_counts[0] += 1
            system, user = row.get(SYSTEM), row.get(USER)
            entry = self._system_entry(system) if system.__class__ is str else system
            if prompted:
                try:
                    # as observe_block takes it: (system, user) in their compared forms, and the metadata in metadata mode
                    shape = (entry, normalise(user) if user.__class__ is str else user)
                    digest = hash((*shape, row.get(METADATA)) if metadata else shape)
                except TypeError:  # a list or object value (metadata mode, or a value DAT008 reports)
                    digest = hash(tuple(_hashable(row.get(c)) for c in (SYSTEM, USER, METADATA)))
                if digest in seen:
                    nonlocal_counts[1] += 1
                    if len(repeat_lines) < SHOWN_LINES:
                        repeat_lines.append(line)
                elif len(seen) < cap:
                    seen.add(digest)
                    if ordered:
                        add_first(digest)
                        add_line(line)
            label = row.get(TRUTH) or row.get(LABEL)
            if label.__class__ is not str or not label:
                return
            nonlocal_counts[2] += 1
            key = label if len(label) <= LABEL_CHARS else hash(label)
            count = counts.get(key)
            if count is not None:
                counts[key] = count + 1
            elif len(counts) < LABEL_CAP:
                counts[key] = 1
                label_lines[key] = line
            else:
                nonlocal_counts[3] += 1
            options = entry[1] if entry.__class__ is tuple else None
            if options is not None:
                self._off_list(label, options, line)
            if system.__class__ is str and label in system and stands_in(label, system):
                if options is None or outside(label, options) is not None:
                    # a short label is not counted as a leak, but still shows a system prompt to be a list of choices
                    leak(hash(system), key, line, 1 if len(label) >= LEAK_MIN_CHARS else 0)
                    return
            if user.__class__ is str:
                self._user_leak(label, key, user, line)

        return observe

    def _off_list(self, label: str, options: frozenset, line: int) -> None:
        item = outside(label, options)
        if item is not None:
            self.off_list[0] += 1
            if len(self.off_list[1]) < SHOWN_LINES:
                self.off_list[1].append((line, item, sorted(options)))

    def _user_leak(self, label: str, key: object, user: str, line: int) -> None:
        """Count a row whose label stands in its user prompt (any case, as a whole phrase), unless the
        label is short (fewer than LEAK_MIN_CHARS characters in its compared form) or the user prompt
        lists it among choices ("A) Paris B) Lyon", "options: cat, dog")."""
        folded = label.lower().strip()
        if len(normalise(label)) < LEAK_MIN_CHARS or not stands_in(folded, user.lower()):
            return
        choices = listed_options(user)
        if choices is not None and outside(label, choices) is None:
            return
        entry = self.user_leaks.get(key)
        if entry is not None:
            entry[0] += 1
            entry[1] = min(entry[1], line)
        elif len(self.user_leaks) < LABEL_CAP:
            self.user_leaks[key] = [1, line]

    # rows observed, rows repeating an earlier prompt, labelled rows, labelled rows past LABEL_CAP
    rows = property(lambda self: self._n[0], lambda self, v: self._n.__setitem__(0, v))
    repeats = property(lambda self: self._n[1], lambda self, v: self._n.__setitem__(1, v))
    labelled_rows = property(lambda self: self._n[2], lambda self, v: self._n.__setitem__(2, v))
    unlisted = property(lambda self: self._n[3], lambda self, v: self._n.__setitem__(3, v))

    def observe_block(self, rows: list[dict], lines: list[int], clean: bool = False, columns: dict | None = None) -> None:
        """:meth:`observe` of many rows at once, the usual case in a few C-level passes (``map``, set
        and dict updates, the user prompts and labels normalised on their joined text): a fraction of
        the time a row costs one by one. ``clean``: every row passed the row rules' cheap tests (the
        spec's keys, its prompts and label strings), so their types need no second look. A block where a
        pass meets anything unusual (a repeat, an odd or missing value, a label in a prompt, a system
        prompt listing options, the digest cap) goes row by row, so both ways find the same. ``columns``:
        the rows' values by column, when the reader has them (rows.compile_many)."""
        if not self.blockwise or not self._block(rows, lines, clean, columns):
            self._one_by_one(rows, lines)

    def _block(self, rows: list[dict], lines: list[int], clean: bool, columns: dict | None) -> bool:
        """:meth:`observe_block`'s passes; False, having observed nothing, when the block wants a closer look."""
        n = len(rows)
        try:
            labels = columns[TRUTH] if columns else list(map(self._truth, rows))
            # a list label has a len too, but no hash: any label not a string goes row by row
            if not clean and (set(map(type, labels)) != {str} or set(map(type, map(self._user, rows))) != {str} or "" in labels):
                return False
            if max(map(len, labels)) > LABEL_CHARS:
                return False
            if self.has_system:
                systems = columns[SYSTEM] if columns else list(map(self._system, rows))
                if not clean and set(map(type, systems)) != {str}:
                    return False
                if any(map(_contains, systems, labels)):
                    return False
                first = systems[0]
                if all(map(first.__eq__, systems)):  # one system prompt for the whole block: hashed once, not n times
                    entry = self._system_entry(first)
                    if entry.__class__ is tuple:  # it lists options: its rows' labels are compared with them
                        return False
                    entries = repeat(entry)
                else:
                    entries = self._entries(systems)
                    if entries is None:
                        return False
                del systems
            else:
                entries = repeat(None)
            # a label of LEAK_MIN_CHARS or more in its user prompt: plain labels (prompt_text.plain) in the prompts
            # as written, others in compared forms (a superset of a phrase in any case)
            users = columns[USER] if columns else list(map(self._user, rows))
            user_forms = normalise_many(users)
            plain = _plain(labels)
            texts, label_forms = (users, labels) if plain else (user_forms, normalise_many(labels))
            if any(map(_contains, texts, label_forms)) and any(
                    f in u and len(normalise(f) if plain else f) >= LEAK_MIN_CHARS for u, f in zip(texts, label_forms)):
                return False
            del users, texts, label_forms  # the block's transient copies stay few (memory is flat, and small)
            digests = list(map(hash, zip(entries, user_forms)))
            del user_forms, entries
        except (KeyError, TypeError):  # a missing or odd value: DAT008's and DAT010's rows, one by one
            return False
        seen = self.seen
        had = len(seen)
        room = self.cap - had
        # The digests' list, not a set of it, against the big set: building the small set first cost a
        # third of this pass. A repeat within the block then shows as a short growth of the set, undone
        # exactly (no digest of the block was in it before), and the block goes row by row.
        if 0 < room < n or not seen.isdisjoint(digests):  # a repeat of an earlier block, or the block that fills the cap
            return False
        if not room:  # past the cap nothing new is remembered
            if len(set(digests)) != n:
                return False
        else:
            seen.update(digests)
            if len(seen) != had + n:
                seen.difference_update(digests)
                return False
            if self.ordered:
                self.firsts.extend(digests)
                self.first_lines.extend(lines)
        self._count_labels(labels, lines)
        self._n[0] += n
        self._n[2] += n
        return True

    def _count_labels(self, labels: list[str], lines: list[int]) -> None:
        """A block's labels (strings of at most LABEL_CHARS) counted as row by row: a label not counted
        yet is taken while fewer than LABEL_CAP are, so the counts do not depend on the blocks' size."""
        counts = self.labels
        if len(counts) >= LABEL_CAP:  # past the cap only labels counted already are
            if counts.keys().isdisjoint(labels):  # the usual block: none of its labels
                self._n[3] += len(labels)
            else:
                known = list(filter(counts.__contains__, labels))
                _count(counts, known)
                self._n[3] += len(labels) - len(known)
            return
        if len(counts) + len(labels) <= LABEL_CAP and counts.keys().isdisjoint(labels):
            # none counted yet, all fit under the cap: first lines from the pairs reversed if the block repeats one
            before = len(counts)
            _count(counts, labels)
            distinct = len(counts) - before == len(labels)
            self.label_lines.update(zip(labels, lines) if distinct else zip(reversed(labels), reversed(lines)))
            return
        new = set(labels).difference(counts)
        if len(counts) + len(new) > LABEL_CAP:  # the block that reaches the cap (once a file): row by row
            for label, line in zip(labels, lines):
                self._take_label(label, line)
            return
        if new:
            for label, line in zip(labels, lines):
                if label in new and label not in self.label_lines:
                    self.label_lines[label] = line
        _count(counts, labels)

    def _take_label(self, key, line: int, rows: int = 1) -> None:
        """``rows`` rows of one label counted as the cap allows: a label counted already gains them, a new one
        is taken (with its first line) while fewer than LABEL_CAP are, else they are unlisted. (The per-row
        pass in :meth:`observe` inlines this rule: it runs for every row of a file.)"""
        counts = self.labels
        if key in counts:
            counts[key] += rows
        elif len(counts) < LABEL_CAP:
            counts[key] = rows
            self.label_lines[key] = line
        else:
            self._n[3] += rows

    def _one_by_one(self, rows: list[dict], lines: list[int]) -> None:
        for row, line in zip(rows, lines):
            self.observe(row, line)

    def _leak(self, system: int, label: object, line: int, rows: int) -> None:
        entry = self.leaks.get(system)
        if entry is None:
            if len(self.leaks) < SYSTEM_CAP:
                self.leaks[system] = [label, rows, line]
            return
        if entry[0] != label:
            entry[0] = _MENU
        entry[1] += rows
        entry[2] = min(entry[2], line)

    def empty(self) -> Profile:
        """A profile of no rows yet for the same columns, to merge ranges into."""
        return Profile(_Columns(self.columns, self.metadata), ordered=True)  # type: ignore[arg-type]  (the whole file's cap)

    def merge(self, other: Profile, offset: int) -> None:
        """Add the next range's observations, its lines shifted by ``offset``."""
        self.cap = max(self.cap, DIGEST_CAP)  # a range's share of the cap grows to the whole file's
        self.rows += other.rows
        found = []
        # The usual case in C: no digest of the range was seen before and all fit under the cap (a
        # range's digests are distinct), so they are appended in order; otherwise one by one.
        if len(self.seen) + len(other.firsts) <= self.cap and self.seen.isdisjoint(other.firsts):
            self.seen.update(other.firsts)
            self.firsts.extend(other.firsts)
            self.first_lines.extend(map(offset.__add__, other.first_lines))
        else:
            self._merge_firsts(other, offset, found)
        self.repeats += other.repeats + len(found)
        found += [n + offset for n in other.repeat_lines]
        self.repeat_lines = (self.repeat_lines + sorted(found))[:SHOWN_LINES]
        self._merge_labels(other, offset)

    def _merge_firsts(self, other: Profile, offset: int, found: list[int]) -> None:
        for digest, line in zip(other.firsts, other.first_lines):
            if digest in self.seen:
                found.append(line + offset)
            elif len(self.seen) < self.cap:
                self.seen.add(digest)
                self.firsts.append(digest)
                self.first_lines.append(line + offset)

    def _merge_labels(self, other: Profile, offset: int) -> None:
        self.labelled_rows += other.labelled_rows
        self.unlisted += other.unlisted
        for key, rows in other.labels.items():
            self._take_label(key, other.label_lines[key] + offset, rows)
        for system, (label, rows, line) in other.leaks.items():
            self._leak(system, label, line + offset, rows)
        for key, (rows, line) in other.user_leaks.items():
            entry = self.user_leaks.get(key)
            if entry is not None:
                entry[0] += rows
            elif len(self.user_leaks) < LABEL_CAP:
                self.user_leaks[key] = [rows, line + offset]
        self.off_list[0] += other.off_list[0]
        self.off_list[1] = (self.off_list[1] + [(line + offset, *rest) for line, *rest in other.off_list[1]])[:SHOWN_LINES]

    def report(self, findings) -> None:
        """At most one finding per data check into ``findings`` (two for leaks): see profile_report."""
        report(self, findings)
