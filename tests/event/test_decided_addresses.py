"""Real card data: two typos in one forms cell, settled by a decisions CSV, one decision
with the sheet and one without."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from tests.inputs.registrations.lists import csv_text
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import Setup
from validator.event.run import run_event
from validator.judging.decisions import read_decisions

PLAYER = "0400000001"
MAIN = ["3 Blackwing - Sirocco the Dawn", "2 Blackwing - Gale the Whirlwind",
        "3 Blackwing - Kalut the Moon Shadow", "3 Blackwing - Shura the Blue Flame",
        "3 Blackwing - Bora the Spear", "3 Blackwing - Blizzard the Far North",
        "3 Ash Blossom & Joyous Spring", "3 Effect Veiler", "3 Pot of Desires",
        "3 Infinite Impermanence", "3 Solemn Strike", "3 Cosmic Cyclone",
        "3 Ghost Ogre & Snow Rabbit", "1 Drak Hoel", "1 BW Gale"]


@pytest.fixture(scope="module")
def setup(real_db: CardDB, tcg_list: Banlist) -> Setup:
    return Setup(load_format("advanced-tcg"), real_db, tcg_list)


def _forms(tmp_path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Form responses 1"
    sheet.append(["Timestamp", "KONAMI ID", "Full name", "Main Deck", "Extra Deck",
                  "Side Deck"])
    sheet.append(["2026-11-29 10:00:00", PLAYER, "Ana Typo", "\n".join(MAIN), "", ""])
    book.save(tmp_path / "forms.xlsx")
    return tmp_path / "forms.xlsx"


def test_two_typos_in_one_cell_are_two_decisions(tmp_path: Path, setup: Setup) -> None:
    forms = _forms(tmp_path)
    before = run_event(forms, setup)
    unresolved = before.violations.filter(before.violations["code"] == "UNRESOLVED_NAME")
    assert unresolved.select("cell").rows() == [("Form responses 1!D2, line 14",),
                                                ("Form responses 1!D2, line 15",)]
    assert before.players["status"].cast(str).to_list() == ["needs_decision"]

    decisions = tmp_path / "decisions.csv"
    decisions.write_text(csv_text([
        ["player_id", "where", "card", "decided_by", "reason"],
        [PLAYER, "Form responses 1!D2, line 14", "Dark Hole", "Head judge", "typo"],
        [PLAYER, "D2, line 15", "Blackwing - Gale the Whirlwind", "Head judge", "BW = Blackwing"],
    ]), encoding="utf-8")
    after = run_event(forms, setup, decisions=read_decisions(decisions))
    assert [(d.where, d.typed) for d in after.decisions] == [
        ("Form responses 1!D2, line 14", "Drak Hoel"), ("D2, line 15", "BW Gale")]
    assert after.violations.is_empty()
    assert after.players.select("status", "legal").rows() == [("legal", True)]
    assert not [p for p in after.problems if p.code == "UNMATCHED_DECISION"]


@pytest.mark.parametrize("where", ["Registrations!D15", "D15", "lists.xlsx:D15"])
def test_a_long_layout_decision_with_or_without_the_sheet(tmp_path: Path, setup: Setup,
                                                          where: str) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Registrations"
    sheet.append(["KONAMI ID", "Section", "Qty", "Card Name"])
    for line in MAIN:
        qty, name = line.split(" ", 1)
        sheet.append([PLAYER, "Main", int(qty), name])
    book.save(tmp_path / "lists.xlsx")
    before = run_event(tmp_path / "lists.xlsx", setup)
    assert before.violations.filter(before.violations["code"] == "UNRESOLVED_NAME")[
        "cell"].to_list() == ["Registrations!D15", "Registrations!D16"]
    decisions = tmp_path / "decisions.csv"
    decisions.write_text(csv_text([
        ["player_id", "where", "card", "decided_by", "reason"],
        [PLAYER, where, "Dark Hole", "Head judge", "typo"],
        [PLAYER, "Registrations!D16", "Blackwing - Gale the Whirlwind", "Head judge", "BW"],
    ]), encoding="utf-8")
    after = run_event(tmp_path / "lists.xlsx", setup, decisions=read_decisions(decisions))
    assert [d.typed for d in after.decisions] == ["Drak Hoel", "BW Gale"]
    assert after.players.select("status", "legal").rows() == [("legal", True)]
