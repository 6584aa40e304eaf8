"""The one matcher of the words readers recognise (``validator/data/lexicon.toml``).

Every reader asks here whether a cell or line is a column header, a section header, a total,
a quantity or a status word; no reader keeps a word list of its own. Comparisons are made on
:func:`fold`: Unicode NFKC, case folded, punctuation and spacing taken out.

A total is only a whole cell or line made of a total word and a number ("Total 40",
"合計：40枚"), or of the total word alone (a label beside its number): a card named
"Summoned Skull" or "Total Defense Shogun", or a player named "Summer Lee", never is.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from validator.text.datafile import data_file, read_model
from validator.vocab import Section, Slot

__all__ = ["MAX_LABEL_LENGTH", "MAX_QUANTITY", "Header", "Lexicon", "SectionKey", "column_of",
           "columns", "entry_line", "fold", "header_of", "is_label_length", "is_total_label",
           "load_lexicon", "quantity_in_range", "quantity_of", "section_header", "status_of",
           "total_of", "whole_number", "words"]

#: the longest text read as a section header or a label cell ("Monster Cards", "KONAMI ID"):
#: a longer text is a card name or a sentence, never a header
MAX_LABEL_LENGTH = 40

#: the copies one entry of a list or deck may hold, 1 to this: a deck holds at most
#: 60 + 15 + 15 cards, so a larger number is a typo, reported where it was typed. Every
#: reader, decision and form uses this one bound.
MAX_QUANTITY = 99

#: the groups of words that name columns or statuses (what :func:`words` is asked for)
Group = Literal["columns", "list_columns", "status"]
#: the lexicon's section headers (what :func:`section_header` is asked for)
SectionKey = Literal["main", "monster", "spell", "trap", "skill", "extra", "side"]
Words = list[str]

_BRACKETS = re.compile(r"[\(\[（【][^\)\]）】]*[\)\]）】]")


def fold(text: str) -> str:
    """The form words are compared in: NFKC, case folded, without punctuation, symbols,
    spaces or control characters (combining marks, as in Thai, are kept)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold()
                   if unicodedata.category(c)[0] not in "PSZC")


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Columns(_Table):
    """Header cells of tabular layouts, by what the column holds."""

    player_id: Words
    player_name: Words
    first_name: Words
    last_name: Words
    section: Words
    qty: Words
    card: Words
    passcode: Words
    timestamp: Words
    ydke: Words
    event: Words
    date: Words


class SectionWords(_Table):
    """The headers of one part of the deck, and the kind of card that follows them."""

    section: Section
    slot: Slot | None = None
    words: Words = Field(min_length=1)


class Totals(_Table):
    words: Words = Field(min_length=1)


class Quantity(_Table):
    counters: Words = Field(min_length=1)
    words: Words


class Statuses(_Table):
    """Forbidden/Limited status words, by the copies they allow."""

    forbidden: Words
    limited: Words
    semi_limited: Words
    unlimited: Words


class ListColumns(_Table):
    """Columns of CSV/XLSX Forbidden/Limited lists."""

    passcode: Words
    name: Words
    status: Words
    points: Words


class Sections(_Table):
    """Headers that name a part of the deck, by the lexicon's own key."""

    main: SectionWords
    monster: SectionWords
    spell: SectionWords
    trap: SectionWords
    skill: SectionWords
    extra: SectionWords
    side: SectionWords


class Lexicon(_Table):
    """``validator/data/lexicon.toml``: every word the readers recognise."""

    columns: Columns
    sections: Sections
    totals: Totals
    quantity: Quantity
    status: Statuses
    list_columns: ListColumns


@cache
def load_lexicon(source: Traversable | None = None) -> Lexicon:
    """The lexicon the package ships, or the one in ``source``."""
    return read_model(Lexicon, source or data_file("lexicon.toml"))


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
    forms.append(fold(re.sub(r"(?i)(\s*(#|no\.?|number|番号|번호))+\s*$", "", unbracketed)))
    return [f for f in dict.fromkeys(forms) if f]


def column_of(text: str, group: Group = "columns") -> str | None:
    """What a header cell names (``player_id``, ``qty``, ...), or None."""
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


_HEADER_COUNT = re.compile(r"[\(\[（【]?\s*\d+\s*(枚|장|ใบ|cards?)?\s*[\)\]）】]?\s*[:：]?\s*$",
                           re.IGNORECASE)


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


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    quantity = _data().quantity
    counters = _alternatives(quantity.counters)
    units = _alternatives(quantity.counters + quantity.words)
    totals = _alternatives(_data().totals.words)
    return {
        "qty": re.compile(rf"^(?:x|×)?\s*(\d{{1,3}})\s*(?:{units})?$", re.IGNORECASE),
        "leading": re.compile(rf"^(\d{{1,3}})\s*(?:\*|{counters})?\s+(.+)$", re.IGNORECASE),
        "trailing": re.compile(r"^(.+?)\s*(?:[x×\*]\s*(\d{1,3})|\(\s*(\d{1,3})\s*\)|"
                               r"(\d{1,3})\s*(?:枚|장|ใบ))\s*$", re.IGNORECASE),
        "tab": re.compile(r"^(.+?)[\t,;]\s*(\d{1,3})\s*$"),
        "total": re.compile(rf"^(?:{totals})\s*[:：=\-]?\s*(\d{{1,4}})\s*(?:{units})?\s*\.?$",
                            re.IGNORECASE),
        "label": re.compile(rf"^(?:{totals})\s*[:：]?$", re.IGNORECASE),
    }


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


def quantity_of(text: str) -> int | None:
    """A quantity cell ("3", "x3", "3x", "３枚", "3장"), or None."""
    match = _patterns()["qty"].match(unicodedata.normalize("NFKC", text).strip())
    return int(match.group(1)) if match else None


def total_of(text: str) -> int | None:
    """The number of a whole total cell or line ("Total 40", "合計：40枚"), or None."""
    match = _patterns()["total"].match(unicodedata.normalize("NFKC", text).strip())
    return int(match.group(1)) if match else None


def is_total_label(text: str) -> bool:
    """A cell that is a total word and nothing else ("Total", "合計：")."""
    return _patterns()["label"].match(unicodedata.normalize("NFKC", text).strip()) is not None


def entry_line(text: str) -> tuple[int, str]:
    """``(quantity, name)`` of one deck-list line; a line without a number is one copy."""
    line = unicodedata.normalize("NFKC", text).strip()
    patterns = _patterns()
    if m := patterns["leading"].match(line):
        return int(m.group(1)), m.group(2).strip()
    if m := patterns["trailing"].match(line):
        return int(next(g for g in m.groups()[1:] if g)), m.group(1).strip()
    if m := patterns["tab"].match(line):
        return int(m.group(2)), m.group(1).strip()
    return 1, line


@cache
def _statuses() -> dict[str, int]:
    limits = {"forbidden": 0, "limited": 1, "semi_limited": 2, "unlimited": 3}
    return {word: limits[key] for key, folded in words("status").items() for word in folded}


def status_of(text: str) -> int | None:
    """The copies a Forbidden/Limited status word allows (0-3), or None."""
    return _statuses().get(fold(text))
