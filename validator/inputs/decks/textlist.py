"""Plain-text deck lists typed by people, in English, Japanese, Korean or Thai.

Entries: ``3 Ash Blossom & Joyous Spring``, ``3x Ash Blossom``, ``Ash Blossom x3``,
``Ash Blossom ×3``, ``Ash Blossom (3)``, ``灰流うらら ３枚``, ``하루 우라라 3장``, or a bare
name (one copy) or a bare passcode. Section headers (``Main``, ``Monster``, ``Spell``,
``Trap``, ``Extra``, ``Side``, ``Skill`` and their ja/ko/th forms, with optional counts and
punctuation) switch sections; Monster/Spell/Trap/Skill are parts of the main deck. A line
that is wholly a total (``Total 40``, ``合計：40枚``) and ``#``/``//`` comments are skipped.
Every word comes from the lexicon (``validator/text/lexicon.py``).
"""

from __future__ import annotations

import re

import polars as pl

from validator.errors import InputError, Problem, ProblemCollector, capped
from validator.files.tabular import decode_text
from validator.inputs.entries import entries_frame, typed_card
from validator.text.lexicon import (
    MAX_LINE_LENGTH,
    entry_line,
    header_of,
    is_total_label,
    quantity_in_range,
    total_of,
)
from validator.text.normalize import as_typed

__all__ = ["parse_text_list", "read_text_list", "text_list_rows"]

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def read_text_list(data: bytes | str, file: str, deck_id: str) -> tuple[pl.DataFrame,
                                                                      list[Problem]]:
    """A text list's entries, and its lines that could not be read (each with the deck and
    section it belongs to: the head judge decides what they say). A text that is not a deck
    list at all (control characters, no encoding) is raised."""
    rows, bad = text_list_rows(data, file, deck_id)
    return entries_frame(rows), bad


def text_list_rows(data: bytes | str, file: str, deck_id: str) -> tuple[
        list[dict[str, object]], list[Problem]]:
    """:func:`read_text_list` as entry rows, for readers that gather many lists into one
    table."""
    problems = ProblemCollector(file)
    text = decode_text(data, file) if isinstance(data, bytes) else data
    if _CONTROL.search(text):
        problems.say("contains control characters; expected a text deck list", code="NOT_TEXT")
        problems.raise_if_any()
    section, slot = "main", None
    rows: list[dict[str, object]] = []
    bad: list[Problem] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if len(raw) > MAX_LINE_LENGTH:
            bad.append(Problem.of(file, number, None, "a line of {length} characters; a deck "
                                  "list line has at most {most}: the line is not read",
                                  code="LINE_TOO_LONG", deck_id=deck_id, section=section,
                                  length=f"{len(raw):,}", most=f"{MAX_LINE_LENGTH:,}"))
            continue
        line = raw.strip()
        if not line or line.startswith(("#", "//")) or total_of(line) is not None \
                or is_total_label(line):
            continue
        header = header_of(line)
        if header:
            section, slot = header.section, header.slot
            continue
        qty, folded = entry_line(line)
        name = as_typed(line, folded)
        wrong = (("BAD_QUANTITY", "quantity {qty} for {name}") if not quantity_in_range(qty)
                 else ("NAME_TOO_LONG", "a card name longer than any card's") if len(name) > 150
                 else None)
        if wrong:
            bad.append(Problem.of(file, number, None, wrong[1], code=wrong[0], deck_id=deck_id,
                                  section=section, text=name[:150] or None, qty=qty,
                                  name=repr(name)))
            continue
        entry: dict[str, object] = {"deck_id": deck_id, "section": section, "qty": qty,
                                    "file": file, "line": number, "slot": slot, **typed_card(name)}
        rows.append(entry)
    return rows, capped(bad)


def parse_text_list(data: bytes | str, file: str, deck_id: str) -> pl.DataFrame:
    """A text list whose every line reads, else raised with the lines that do not."""
    entries, problems = read_text_list(data, file, deck_id)
    if problems:
        raise InputError(problems)
    return entries
