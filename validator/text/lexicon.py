"""The one matcher of the words readers recognise (``validator/data/lexicon.toml``).

Every reader asks here whether a cell or line is a column header, a section header, a total,
a quantity or a status word; no reader keeps a word list of its own. Comparisons are made on
:func:`fold`: Unicode NFKC, case folded, punctuation and spacing taken out.

A total is only a whole cell or line made of a total word and a number ("Total 40",
"合計：40枚"), or of the total word alone (a label beside its number): a card named
"Summoned Skull" or "Total Defense Shogun", or a player named "Summer Lee", never is.

Every pattern here takes time linear in its text (no quantifiers that can trade characters
with each other; an ending is read by matching the reversed text from its start), and the
readers refuse a line longer than :data:`MAX_LINE_LENGTH` before any pattern sees it: no
pasted line can hold the server.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from pydantic import BaseModel

    from validator.text._lexicon_tables import Lexicon, SectionWords

__all__ = ["MAX_HEADER_LENGTH", "MAX_LABEL_LENGTH", "MAX_LINE_LENGTH", "MAX_QUANTITY", "Header",
           "Lexicon", "SectionKey", "column_of", "columns", "entry_line", "fold", "header_of",
           "is_label_length", "is_total_label",
           "load_lexicon", "quantity_in_range", "quantity_of", "section_header", "status_of",
           "total_of", "whole_number", "words"]

#: the longest text read as a section header or a label cell ("Monster Cards", "KONAMI ID"):
#: a longer text is a card name or a sentence, never a header
MAX_LABEL_LENGTH = 40

#: the longest line of a deck list read (a card name, a number and a few words, or a deck
#: code or link): a longer line is reported, never matched
MAX_LINE_LENGTH = 2000

#: the longest text read as a column header (a form's question can be a sentence)
MAX_HEADER_LENGTH = 300

#: the copies one entry of a list or deck may hold, 1 to this: a deck holds at most
#: 60 + 15 + 15 cards, so a larger number is a typo, reported where it was typed. Every
#: reader, decision and form uses this one bound.
MAX_QUANTITY = 99

#: the groups of words that name columns or statuses (what :func:`words` is asked for)
Group = Literal["columns", "list_columns", "status"]
#: the lexicon's section headers (what :func:`section_header` is asked for)
SectionKey = Literal["main", "monster", "spell", "trap", "skill", "extra", "side"]
_BRACKETS = re.compile(r"[\(\[（【][^\)\]）】]*[\)\]）】]")


def fold(text: str) -> str:
    """The form words are compared in: NFKC, case folded, without punctuation, symbols,
    spaces or control characters (combining marks, as in Thai, are kept)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold()
                   if unicodedata.category(c)[0] not in "PSZC")


@cache
def load_lexicon(source: Traversable | None = None) -> Lexicon:
    """The lexicon the package ships, or the one in ``source`` (its tables and pydantic are
    imported here, at first use: most commands read no word of it)."""
    from validator.text._lexicon_tables import Lexicon
    from validator.text.datafile import data_file, read_model

    return read_model(Lexicon, source or data_file("lexicon.toml"))


def __getattr__(name: str) -> Any:
    """``Lexicon``, the model of the lexicon's tables, imported when first asked for."""
    if name != "Lexicon":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from validator.text._lexicon_tables import Lexicon

    return Lexicon


def _data() -> Lexicon:
    return load_lexicon()


@cache
def words(group: Group) -> dict[str, frozenset[str]]:
    """A group's words, folded, by what they mean (``columns``, ``status``, ...)."""
    table: BaseModel = getattr(_data(), group)
    return {key: frozenset(fold(w) for w in value) for key, value in table}


@cache
def _column_index(group: Group) -> dict[str, str]:
    index: dict[str, str] = {}
    for meaning, folded in words(group).items():
        for word in folded:
            index.setdefault(word, meaning)
    return index


def _header_forms(text: str) -> list[str]:
    """A header as written, without bracketed extras, and without a trailing ``#``/number
    sign word: "KONAMI ID (Card Game ID)" → "konamiid"; "Konami ID #" → "konamiid"."""
    plain = unicodedata.normalize("NFKC", text)
    forms = [fold(plain)]
    unbracketed = _BRACKETS.sub(" ", plain)
    forms.append(fold(unbracketed))
    reversed_text = unbracketed[::-1]
    number_sign = _NUMBER_SIGN_REVERSED.match(reversed_text)
    forms.append(fold(reversed_text[number_sign.end():][::-1] if number_sign else unbracketed))
    return [f for f in dict.fromkeys(forms) if f]


#: trailing number-sign words ("#", "No.", "number", "番号", "번호"), read on the reversed text
_NUMBER_SIGN_REVERSED = re.compile(r"(?:\s*+(?:#|\.?on|rebmun|号番|호번))++\s*+", re.IGNORECASE)


def column_of(text: str, group: Group = "columns") -> str | None:
    """What a header cell names (``player_id``, ``qty``, ...), or None (a text longer than
    :data:`MAX_HEADER_LENGTH` names none)."""
    if len(text) > MAX_HEADER_LENGTH:
        return None
    index = _column_index(group)
    for form in _header_forms(text):
        if form in index:
            return index[form]
    return None


def columns(group: Group = "columns") -> dict[str, list[str]]:
    """The words of a group as written, for messages ("expected one of ...")."""
    table: BaseModel = getattr(_data(), group)
    return {key: list(value) for key, value in table}


@dataclass(frozen=True)
class Header:
    section: str  # main, extra or side
    slot: str | None  # the kind of card the header announces (monster, spell, ...)


@cache
def _sections() -> dict[str, Header]:
    out: dict[str, Header] = {}
    for _, entry in _data().sections:
        for word in entry.words:
            out[fold(word)] = Header(entry.section, entry.slot)
    return out


_HEADER_COUNT = re.compile(r"[\(\[（【]?\s*+\d++\s*+(枚|장|ใบ|cards?)?\s*+[\)\]）】]?"
                           r"\s*+[:：]?\s*+$", re.IGNORECASE)


def is_label_length(text: str) -> bool:
    """Whether a cell is short enough to be a header or a label (:data:`MAX_LABEL_LENGTH`)."""
    return len(unicodedata.normalize("NFKC", text).strip()) <= MAX_LABEL_LENGTH


def section_header(key: SectionKey) -> Header:
    """The section and slot of a lexicon section key ("monster", "side", ...)."""
    entry: SectionWords = getattr(_data().sections, key)
    return Header(entry.section, entry.slot)


def header_of(text: str) -> Header | None:
    """The section a header line or cell names ("Monster (18)", "【魔法】", "Side Deck:"),
    or None. A header may carry its count."""
    plain = unicodedata.normalize("NFKC", text).strip()
    if len(plain) > MAX_LABEL_LENGTH:
        return None
    for candidate in (plain, _HEADER_COUNT.sub("", plain)):
        found = _sections().get(fold(candidate))
        if found is not None:
            return found
    return None


def _alternatives(items: list[str]) -> str:
    return "|".join(re.escape(u) for u in sorted(items, key=len, reverse=True))


def _reversed(items: list[str]) -> str:
    return "|".join(re.escape(u[::-1]) for u in items)


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    quantity = _data().quantity
    counters = _alternatives(quantity.counters)
    units = _alternatives(quantity.counters + quantity.words)
    totals = _alternatives(_data().totals.words)
    return {
        "qty": re.compile(rf"(?:x|×)?\s*+(\d{{1,3}})\s*+(?:{units})?", re.IGNORECASE),
        "leading": re.compile(rf"(\d{{1,3}})(?!\d)(?:\s*+(?:\*|{counters})(?=\s))?\s++(.+)",
                              re.IGNORECASE | re.DOTALL),
        # the endings of a line, matched on the reversed line: "x3", "(3)", "3枚"; ", 3"
        "trailing": re.compile(r"\s*+(?:(\d{1,3})\s*+[x×\*]|\)\s*+(\d{1,3})\s*+\(|"
                               rf"(?:{_reversed(['枚', '장', 'ใบ'])})\s*+(\d{{1,3}}))\s*+",
                               re.IGNORECASE),
        "tab": re.compile(r"\s*+(\d{1,3})\s*[\t,;]"),
        "total": re.compile(rf"(?:{totals})\s*+[:：=\-]?\s*+(\d{{1,4}})\s*+(?:{units})?\s*+\.?",
                            re.IGNORECASE),
        "label": re.compile(rf"(?:{totals})\s*+[:：]?", re.IGNORECASE),
    }


def _short(text: str) -> str | None:
    """A cell or line as the patterns read it (NFKC, stripped), or None when it is longer
    than :data:`MAX_LINE_LENGTH` (no number or total is that long)."""
    if len(text) > MAX_LINE_LENGTH:
        return None
    return unicodedata.normalize("NFKC", text).strip()


def whole_number(text: str, most: int = MAX_QUANTITY) -> int | None:
    """``text`` as a whole number from 0 to ``most`` written in ASCII digits, else None
    ("²" and "٣" are digits to ``str.isdigit`` but no quantity anyone types)."""
    text = text.strip()
    if not text or len(text) > len(str(most)) or not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if number <= most else None


def quantity_in_range(qty: int | None) -> bool:
    """Whether a quantity read is one an entry may have (1 to :data:`MAX_QUANTITY`)."""
    return qty is not None and 1 <= qty <= MAX_QUANTITY


def _whole(pattern: str, text: str) -> re.Match[str] | None:
    line = _short(text)
    return None if line is None else _patterns()[pattern].fullmatch(line)


def quantity_of(text: str) -> int | None:
    """A quantity cell ("3", "x3", "3x", "３枚", "3장"), or None."""
    match = _whole("qty", text)
    return int(match.group(1)) if match else None


def total_of(text: str) -> int | None:
    """The number of a whole total cell or line ("Total 40", "合計：40枚"), or None."""
    match = _whole("total", text)
    return int(match.group(1)) if match else None


def is_total_label(text: str) -> bool:
    """A cell that is a total word and nothing else ("Total", "合計：")."""
    return _whole("label", text) is not None


def entry_line(text: str) -> tuple[int, str]:
    """``(quantity, name)`` of one deck-list line; a line without a number is one copy.
    The number is read before the name ("3 Ash", "3x Ash", "3枚 灰流うらら") or after it
    ("Ash x3", "Ash (3)", "灰流うらら 3枚", "Ash, 3"); readers cap the line's length first
    (:data:`MAX_LINE_LENGTH`)."""
    line = unicodedata.normalize("NFKC", text).strip()
    patterns = _patterns()
    if m := patterns["leading"].match(line):
        return int(m.group(1)), m.group(2).strip()
    backwards = line[::-1]
    for pattern in ("trailing", "tab"):
        m = patterns[pattern].match(backwards)
        name = backwards[m.end():][::-1].strip() if m else ""
        if m and name:
            return int(next(g for g in m.groups() if g)[::-1]), name
    return 1, line


@cache
def _statuses() -> dict[str, int]:
    limits = {"forbidden": 0, "limited": 1, "semi_limited": 2, "unlimited": 3}
    return {word: limits[key] for key, folded in words("status").items() for word in folded}


def status_of(text: str) -> int | None:
    """The copies a Forbidden/Limited status word allows (0-3), or None."""
    return _statuses().get(fold(text))
