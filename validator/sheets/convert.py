"""Decks written in another format (``deckcheck convert``): YDK, ydke, the deck codes of
``inputs/decks/codes.py`` (Omega, mycard, YGOMobile), a text list or a filled PDF sheet.

A deck is read as any deck is, then resolved with the card data (which splits an Omega
code's main and extra deck): a card given by name is written by its passcode, one given by
passcode keeps it. An Omega code has no extra deck of its own: an unknown passcode in the
extra deck reads back in the main deck (the deck's note says so).

What a format cannot hold — a name that names no card in a passcode format, a passcode wider
than the format's field, more entries than a YGOMobile link holds — is a problem of that
deck, never a silent cut; the other decks are still written.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.engine.resolve import resolve
from validator.errors import InputError, Problem
from validator.inputs.decks.codes import to_mycard, to_omega, ygomobile_link
from validator.vocab import SECTIONS

__all__ = ["FORMATS", "SUFFIXES", "Converted", "convert", "text_list"]

FORMATS = ("ydk", "ydke", "omega", "mycard", "ygomobile", "text", "pdf")
#: the file each format is written to
SUFFIXES = {"ydk": ".ydk", "ydke": ".ydke", "omega": ".omega", "mycard": ".txt",
            "ygomobile": ".txt", "text": ".txt", "pdf": ".pdf"}
_HEADERS = {"monster": "Monster", "spell": "Spell", "trap": "Trap", "extra": "Extra",
            "side": "Side"}


#: an Omega code gives the main and extra deck as one: a card the data does not know cannot
#: be told to be an Extra Deck monster when the code is read
_OMEGA_EXTRA = (", but an Omega code gives the main and extra deck as one: it reads back in "
                "the main deck")


@dataclass(frozen=True)
class Converted:
    """One deck written in the format asked for."""

    deck_id: str
    data: bytes
    notes: list[str]


Sections = dict[str, list[int]]


def _sections(resolved: pl.DataFrame, cards: CardDB, label: str) -> Sections:
    """Every copy's passcode by section, in the deck's order: the passcode given, else the
    passcode of the card its name names."""
    printed = cards.by_card.select("card_id", pl.col("passcode").alias("card_passcode"))
    rows = resolved.join(printed, on="card_id", how="left", maintain_order="left")
    unnamed = rows.filter(pl.col("passcode").is_null() & pl.col("card_passcode").is_null())
    if unnamed.height:
        shown = ", ".join(repr(name) for name in unnamed["name"].unique(maintain_order=True)
                          .head(5).to_list())
        raise InputError.at(label, f"names no card, so it has no passcode to write: {shown}",
                            code="CANNOT_WRITE")
    out: Sections = {section: [] for section in SECTIONS}
    for section, code, qty in rows.select(
            pl.col("section").cast(pl.Utf8), pl.coalesce("passcode", "card_passcode"),
            "qty").iter_rows():
        out[section].extend([int(code)] * int(qty))
    return out


def _ydk(deck: Sections) -> str:
    lines = ["#created by deckcheck", "#main", *map(str, deck["main"]), "#extra",
             *map(str, deck["extra"]), "!side", *map(str, deck["side"])]
    return "\n".join(lines) + "\n"


def _ydke(deck: Sections) -> str:
    import base64
    import struct

    parts = [base64.b64encode(struct.pack(f"<{len(deck[s])}I", *deck[s])).decode()
             for s in SECTIONS]
    return "ydke://" + "!".join(parts) + "!"


def text_list(entries: pl.DataFrame, cards: CardDB, fmt: Format, lang: str = "en") -> tuple[
        str, list[str]]:
    """A deck as a text list read back as the same cards: Monster, Spell, Trap, Extra and
    Side blocks of ``3 Name`` lines (names in ``lang``; a passcode where a name would read
    as another card), and the notes on what was written as a passcode."""
    from validator.sheets.pdf import sheet_from_deck

    sheet, notes = sheet_from_deck(entries, cards, fmt, lang=lang)
    lines: list[str] = []
    for block, header in _HEADERS.items():
        rows = sheet.blocks.get(block, [])
        if rows:
            lines += [header, *(f"{qty} {name}" for qty, name in rows)]
    return "\n".join(lines) + "\n", notes


def _written(entries: pl.DataFrame, deck_id: str, to: str, cards: CardDB, fmt: Format,
             lang: str, label: str) -> tuple[bytes, list[str]]:
    if to == "text":
        text, notes = text_list(entries, cards, fmt, lang)
        return text.encode(), notes
    if to == "pdf":
        from validator.sheets.pdf import sheet_from_deck, write_form

        # decks are named by player id, as an event's submissions are
        sheet, notes = sheet_from_deck(entries, cards, fmt, lang=lang, player_id=deck_id)
        return write_form(sheet), notes
    resolved = resolve(entries, cards, fmt)
    deck = _sections(resolved, cards, label)
    notes = [f"passcode {code} is not a known card; written in the {section} deck" + (
        _OMEGA_EXTRA if to == "omega" and section == "extra" else "")
             for section, code in resolved.filter(pl.col("status") == "unknown").select(
                 pl.col("section").cast(pl.Utf8), "passcode").unique(maintain_order=True)
             .iter_rows()]
    main, extra, side = deck["main"], deck["extra"], deck["side"]
    if to == "ydk":
        return _ydk(deck).encode(), notes
    code = {"ydke": lambda: _ydke(deck),
            "omega": lambda: to_omega(main, extra, side, label=label),
            "mycard": lambda: to_mycard(main, extra, side, label=label),
            "ygomobile": lambda: ygomobile_link(main, extra, side, label=label)}[to]()
    return (code + "\n").encode(), notes


def convert(entries: pl.DataFrame, deck_ids: list[str], labels: dict[str, str], to: str,
            cards: CardDB, fmt: Format, lang: str = "en") -> tuple[list[Converted],
                                                                  list[Problem]]:
    """Each deck written as ``to``; the problems of the decks that could not be."""
    if to not in FORMATS:
        raise InputError.at("--to", f"unknown format {to!r}; expected one of "
                                    f"{', '.join(FORMATS)}", code="BAD_OPTION")
    done: list[Converted] = []
    problems: list[Problem] = []
    by_deck = entries.partition_by("deck_id", as_dict=True, maintain_order=True)
    for deck_id in deck_ids:
        deck = by_deck.get((deck_id,), entries.clear())
        label = labels.get(deck_id, deck_id)
        try:
            data, notes = _written(deck, deck_id, to, cards, fmt, lang, label)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        done.append(Converted(deck_id, data, [f"{label}: {note}" for note in notes]))
    return done, problems
