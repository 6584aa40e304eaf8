"""A row that could not be read keeps what it says for its card, for the head judge."""

from __future__ import annotations

from pathlib import Path

from tests.inputs.registrations.lists import csv_text
from validator.inputs.decks.textlist import read_text_list
from validator.inputs.registrations.read import read_registrations

ROOT = Path(__file__).resolve().parents[3]


def test_the_sample_events_unreadable_quantity_names_its_card() -> None:
    reg = read_registrations(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    rows = [(p.deck_id, p.column, p.code, p.text) for p in reg.problems if p.deck_id]
    assert ("0400381413", "0400381413!A17", "BAD_QUANTITY", "Infinite Impermanence") in rows


def test_a_long_layout_row_names_its_card(tmp_path: Path) -> None:
    path = tmp_path / "lists.csv"
    path.write_text(csv_text([["KONAMI ID", "Section", "Qty", "Card Name"],
                              ["1001", "Main", "three", "Raigeki"],
                              ["1001", "Main", "3", "Pot of Greed"]]), encoding="utf-8")
    reg = read_registrations(path)
    assert [(p.column, p.code, p.text) for p in reg.problems] == [
        ("C2", "BAD_QUANTITY", "Raigeki")]


def test_a_text_list_line_names_its_card() -> None:
    _, bad = read_text_list("3 Raigeki\n0 Pot of Greed\n", "deck.txt", "P1")
    assert [(p.line, p.code, p.text) for p in bad] == [(2, "BAD_QUANTITY", "Pot of Greed")]
