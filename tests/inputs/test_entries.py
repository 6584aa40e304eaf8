"""The long table every reader returns, and what a person wrote for a card."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from validator.inputs.entries import (
    ENTRY_SCHEMA,
    SECTIONS,
    SLOTS,
    conform,
    entries_frame,
    typed_card,
)

COLUMNS = ["deck_id", "section", "passcode", "name", "qty", "file", "line", "cell", "slot"]


@pytest.mark.parametrize(("text", "passcode", "name"), [
    ("55144522", 55144522, "55144522"),
    (" 7 ", 7, "7"),  # "7" may still be a card's name: the resolver decides
    ("0012580477", 12580477, "0012580477"),
    ("12345678901", None, "12345678901"),  # more digits than a passcode has
    ("１２５８０４７７", None, "１２５８０４７７"),  # full-width digits are typed text
    ("Raigeki", None, "Raigeki"),
    ("", None, ""),
])
def test_typed_card(text: str, passcode: int | None, name: str) -> None:
    assert typed_card(text) == {"passcode": passcode, "name": name}


def test_the_schema_is_the_columns_every_reader_returns() -> None:
    assert list(ENTRY_SCHEMA) == COLUMNS
    assert ENTRY_SCHEMA["section"] == pl.Enum(list(SECTIONS))
    assert ENTRY_SCHEMA["slot"] == pl.Enum(list(SLOTS))
    assert (ENTRY_SCHEMA["passcode"], ENTRY_SCHEMA["qty"], ENTRY_SCHEMA["line"]) == (
        pl.Int64(), pl.Int32(), pl.Int32())


def test_entries_frame_fills_missing_keys_with_null() -> None:
    rows: list[dict[str, Any]] = [
        {"deck_id": "a", "section": "main", "passcode": 55144522, "qty": 3, "extra_key": 1},
        {"deck_id": "a", "section": "side", "name": "Raigeki", "qty": 1, "file": "a.txt",
         "line": 4, "cell": "B4", "slot": "spell"}]
    expected = pl.DataFrame(
        [("a", "main", 55144522, None, 3, None, None, None, None),
         ("a", "side", None, "Raigeki", 1, "a.txt", 4, "B4", "spell")],
        schema=ENTRY_SCHEMA, orient="row")
    assert_frame_equal(entries_frame(rows), expected)


@pytest.mark.parametrize("rows", [None, []])
def test_no_rows_is_an_empty_frame_of_the_schema(rows: list[dict[str, Any]] | None) -> None:
    frame = entries_frame(rows)
    assert frame.height == 0
    assert dict(frame.schema) == ENTRY_SCHEMA


def test_a_section_that_is_no_section_is_refused() -> None:
    with pytest.raises(pl.exceptions.InvalidOperationError):
        entries_frame([{"deck_id": "a", "section": "sideboard", "qty": 1}])


def test_conform_keeps_exactly_the_entry_columns_in_order() -> None:
    frame = pl.DataFrame({"qty": [3], "origin": [7], "deck_id": ["a"], "section": ["extra"]},
                         schema={"qty": pl.Int32, "origin": pl.Int64, "deck_id": pl.Utf8,
                                 "section": ENTRY_SCHEMA["section"]})
    expected = pl.DataFrame([("a", "extra", None, None, 3, None, None, None, None)],
                            schema=ENTRY_SCHEMA, orient="row")
    assert_frame_equal(conform(frame), expected)  # a missing column is null of its type
