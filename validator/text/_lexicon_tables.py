"""The tables of ``validator/data/lexicon.toml`` as pydantic models (imported by
:func:`validator.text.lexicon.load_lexicon` when the lexicon is first read)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from validator.vocab import Section, Slot

__all__ = ["Columns", "Lexicon", "ListColumns", "Quantity", "SectionWords", "Sections",
           "Statuses", "Totals"]

Words = list[str]


class _Table(BaseModel):
    # validators built at first use: a check that reads no such file never pays for them
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


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
