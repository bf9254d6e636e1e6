"""What the data checks read in a prompt's text (osmosis_workspace.readers.datasets.profile uses it).

- :func:`normalise_many`: the form in which prompts are compared (DAT026 repeats, DAT029 eval rows in
  the training set): lower case, prose punctuation (``. , ; : ! ? " ' ` ``) and every run of ASCII
  whitespace made one space, the ends trimmed. Symbols that change what is asked are kept: brackets,
  operators, signs, ``#``, ``%``, ``$``, ``/`` ("(15 + 5) * 3" is not "15 + 5 * 3", "-2" is not "2").
  It works a block of texts at a time, in a few C-level passes over the joined texts (about as cheap
  as hashing them).
- :func:`plain`: whether labels are ASCII with no letter and no whitespace (their own folded form).
- :func:`stands_in`: whether a label stands in a text as a whole phrase (no letter, digit or
  underscore right before or after it).
- :func:`listed_options`: the closed set of answers a prompt lists, when it clearly lists one
  ("Choose from: a, b, c", "one of: ...", "Tags: [a, b]", "Options: A) .. B) ..", a bulleted or
  numbered list after such a lead-in), else None. A list that is open ("e.g.", "such as", "etc.",
  "..."), describes answers ("a number") or has items longer than a short phrase is not a closed set.
"""

from __future__ import annotations

import functools
import re
from itertools import repeat

from osmosis_workspace.readers.datasets.decode import loads


PUNCTUATION = ".,;:!?\"'`"
_ENDS = " \t\n\r\x0b\x0c" + PUNCTUATION  # trimmed from each text's ends before the block is joined
# ASCII upper case to lower, prose punctuation and ASCII whitespace to a space: one C pass over the bytes
_TABLE = bytes(
    32 if chr(i) in PUNCTUATION or chr(i) in "\t\n\r\x0b\x0c" else i + 32 if 65 <= i <= 90 else i for i in range(256)
)
_SEP = "\x00"  # joins a block's texts; a block with a text holding it is normalised text by text


def _squeeze(text: str) -> str:
    if "   " not in text:  # runs of one or two spaces: each pair made one in one pass (replace counts first)
        return " ".join(text.split("  "))
    while "  " in text:  # on str: the same search on bytes costs several times more
        text = text.replace("  ", " ")
    return text


# A compared form is a str of the form's UTF-8 bytes read as Latin-1: one character a byte, so it is
# equal, contains and hashes exactly as those bytes would (CPython hashes a one-byte-per-character str
# over the same bytes), and the C-level passes run on str, several times faster than on bytes here.


def normalise(text: str) -> str:
    """One text's compared form (see the module's docstring and the note above)."""
    text = text.strip(_ENDS)
    data = text.encode() if text.isascii() else text.lower().encode("utf-8", "surrogatepass")
    return _squeeze(data.translate(_TABLE).decode("latin-1")).strip(" ")


def normalise_many(texts: list[str]) -> list[str]:
    """:func:`normalise` of each text, done on the joined texts at once: equal results at a fraction of
    the cost (each text's ends are trimmed first, so no space can touch a separator). Texts already in
    their compared form (ASCII letters and digits, no upper case: most labels) are returned as they are."""
    if texts and texts[0].isalnum():  # the first text tells cheaply whether the block may be such
        whole = "".join(texts)
        # bytes' tests read a table (str's look each character up in the Unicode database: several times slower)
        whole = whole.encode() if whole.isascii() else b""
        if whole.isalnum() and (whole.islower() or whole.isdigit()):
            return list(texts)
    joined = _SEP.join(map(str.strip, texts, repeat(_ENDS)))
    # each step rebinds the one name, so no more than two copies of the block's text live at once
    joined = joined.encode() if joined.isascii() else joined.lower().encode("utf-8", "surrogatepass")
    joined = _squeeze(joined.translate(_TABLE).decode("latin-1"))
    parts = joined.split(_SEP)
    if len(parts) != len(texts):  # a text holding the separator
        return list(map(normalise, texts))
    return parts


def plain(labels: list[str]) -> bool:
    """Whether every label is ASCII with no letter and no whitespace (numbers, mostly): such a label is its
    own folded form (``label.lower().strip()``), and it stands in a lower-cased text only where it stands in
    the text as written (no character's lower case holds an ASCII character other than a letter), so the
    user-prompt leak test needs neither the labels' compared forms nor the prompts in lower case. Three
    C-level passes over the joined labels: ``str.split`` finds any whitespace (``\\x1c`` too, which ``strip``
    takes and ``bytes.split`` does not); ``bytes.swapcase`` any letter (``str.swapcase`` has no ASCII path)."""
    joined = "".join(labels)
    if not joined.isascii() or len(joined.split(None, 1)) != 1:
        return False
    data = joined.encode()
    return data.swapcase() == data


def stands_in(label: str, text: str) -> bool:
    """Whether ``label`` stands in ``text`` with no letter, digit or underscore right before or after it."""
    start = text.find(label)
    while start >= 0:
        end = start + len(label)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(label, start + 1)
    return False


# --- the options a prompt lists ----------------------------------------------------------------

_NOUNS = r"(?:options|choices|labels|tags|categories|classes|answers|values)"
# A lead-in: a phrase that announces a closed set of answers, up to the list itself.
_LEAD = (
    r"(?:\b(?:choose|pick|select)\s+(?:only\s+|exactly\s+)?(?:one|one\s+or\s+more|any|all)?\s*(?:(?:of|from|among)\b)"
    r"(?:\s+(?:the\s+)?(?:following|these))?(?:\s+" + _NOUNS + r")?"
    r"|\b(?:exactly\s+|only\s+)?one\s+of(?:\s+(?:the\s+)?(?:following|these))?(?:\s+" + _NOUNS + r")?(?=\s*[:\[{(])"
    r"|\b(?:allowed|valid|possible|available)\s+" + _NOUNS + r"(?:\s+(?:are|is))?"
    r"|\b" + _NOUNS + r"(?:\s+(?:are|is))?(?=\s*[:\[{])"
    r"|\b(?:answer|respond|reply)\s+(?:only\s+)?with(?:\s+(?:exactly\s+)?one\s+of)?(?=\s)"
    r")\s*:?"
)
_OPEN = r"\be\.?g\.|\betc\b|\.\.\.|…|\bsuch as\b|\bfor example\b|\bfor instance\b|\blike\b|\band so on\b"
_BULLET = r"^\s*(?:[-*•]|\d{1,2}[.)]|[A-Za-z][.)])\s+(.+?)\s*$"
_LETTERED = r"(?:^|\s)\(?([A-Ha-h])[).:]\s+"
_DESCRIBES = r"^(?:a|an|the|your|its|one|some|any)\s"
# Words one of the lead-ins holds: a text with none of them (and no "a)" or "a.") lists nothing, and
# the patterns are compiled only when a text may (they cost more to compile than most runs match).
_HINTS = ("choose", "pick", "select", "one of", "option", "choice", "label", "tag", "categor", "class", "answer",
          "respond", "reply", "allowed", "valid", "possible", "available", "values")


@functools.cache
def _pattern(source: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(source, flags)


ITEM_CHARS = 40
_NUMBERS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "a", "an", "few"}
ITEM_WORDS = 5
_STRIP = " \t\"'`*_.,;:!?"


def _item(text: str) -> str:
    """An option as compared: its text before a gloss (" - ...", ": ...", "(...)"), trimmed, lower case."""
    text = re.split(r"\s+[-–—]\s+|:\s|\s\(", text, maxsplit=1)[0]
    return text.strip(_STRIP).lower()


def _closed(items: list[str]) -> frozenset[str] | None:
    """The items as a closed set, or None when they do not read as one."""
    items = [i for i in items if i]
    if len(items) < 2 or len(set(items)) < len(items):
        return None
    words = [i.split() for i in items]
    if all(w[0] in _NUMBERS or w[0].isdigit() for w in words) and len(words[-1]) > 1:
        return None  # a quantity ("1 or 2 words", "one or two sentences"), not options
    for item in items:
        if len(item) > ITEM_CHARS or len(item.split()) > ITEM_WORDS or _pattern(_DESCRIBES).match(item) or _pattern(_OPEN).search(item):
            return None
    return frozenset(items)


def _inline(rest: str, need_or: bool) -> frozenset[str] | None:
    """The list right after a lead-in on the same line: bracketed, or up to the end of the sentence."""
    rest = rest.lstrip()
    if rest[:1] in "[{(":
        close = {"[": "]", "{": "}", "(": ")"}[rest[0]]
        end = rest.find(close)
        if end < 0:
            return None
        body = rest[1:end]
        return _closed([_item(p) for p in re.split(r"\s*[,|;/]\s*|\s+or\s+", body)])
    body = re.split(r"(?<=[^\s.])\.(?:\s|$)|\n|[!?](?:\s|$)", rest, maxsplit=1)[0]
    if _pattern(_OPEN).search(body):
        return None
    if need_or and not re.search(r"\bor\b|/|\|", body):
        return None
    parts = re.split(r"\s*(?:,|\||/|;)\s*(?:or\s+)?|\s+or\s+", body)
    return _closed([_item(p) for p in parts])


def _bulleted(after: str) -> frozenset[str] | None:
    """A bulleted or numbered list on the lines after a lead-in that ends its line."""
    lines = after.split("\n")[1:]
    while lines and not lines[0].strip():
        lines.pop(0)
    items = []
    for line in lines:
        found = _pattern(_BULLET, 0).match(line)
        if not found:
            break
        items.append(_item(found.group(1)))
    return _closed(items)


def _lettered(text: str) -> frozenset[str] | None:
    """Options written "A) Paris B) Lyon" (or "(A) ..", "A. ..", one a line): letters from A on, in order;
    the set holds the letters and the texts."""
    marks = list(_pattern(_LETTERED, 0).finditer(text))
    for i, mark in enumerate(marks):
        if mark.group(1).lower() != "a":
            continue
        run = [mark]
        for nxt in marks[i + 1 :]:
            if ord(nxt.group(1).lower()) != ord(run[-1].group(1).lower()) + 1:
                break
            run.append(nxt)
        if len(run) < 2:
            continue
        texts = [text[m.end() : (run[k + 1].start() if k + 1 < len(run) else len(text))] for k, m in enumerate(run)]
        texts[-1] = re.split(r"\n|(?<=[^\s.])\.(?:\s|$)", texts[-1], maxsplit=1)[0]
        items = _closed([_item(t) for t in texts])
        if items is not None:
            return items | {m.group(1).lower() for m in run}
    return None


def listed_options(text: str) -> frozenset[str] | None:
    """The closed set of answers ``text`` lists (lower case), or None when it lists none clearly."""
    if not text or len(text) > 20_000:
        return None
    folded = text.lower()
    if not any(hint in folded for hint in _HINTS) and "a)" not in folded and "a." not in folded and "a:" not in folded:
        return None
    for lead in _pattern(_LEAD).finditer(text):
        after = text[lead.end() :]
        need_or = lead.group(0).lower().lstrip().startswith(("answer", "respond", "reply"))
        line_rest = after.split("\n", 1)[0]
        found = _bulleted(after) if not line_rest.strip() else _inline(after, need_or)
        if found is None and lead.group(0).rstrip().endswith(":") and not line_rest.strip():
            found = _bulleted(after)
        if found is None and not line_rest.strip():
            found = _lettered(after)
        if found is not None:
            return found
    return _lettered(text)


def label_items(label: str) -> list[str] | None:
    """The items a label names, as compared with options: one, or each string of a JSON list label;
    None for a list that holds anything but strings."""
    text = label.strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            value = loads(text)
        except ValueError:  # orjson's JSONDecodeError
            value = None
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                return None
            return [v.strip(_STRIP).lower() for v in value]
    return [text.strip(_STRIP).lower()]


def outside(label: str, options: frozenset[str]) -> str | None:
    """The first item of ``label`` that is not one of ``options`` (as written in the label), or None."""
    items = label_items(label)
    if items is None:
        return None
    for item in items:
        if item and item not in options and not _marked(item, options):
            return item
    return None


def _marked(item: str, options: frozenset[str]) -> bool:
    """Whether ``item`` is a lettered option written with its mark: "(a)", "a)", "a) paris", "b. lyon"."""
    found = _pattern(r"^\(?([a-h])[).:]\s*(.*)$", 0).match(item)
    return bool(found) and found[1] in options and (not found[2] or found[2].strip(_STRIP) in options)
