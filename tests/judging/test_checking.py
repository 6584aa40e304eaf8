"""Decks checked and compared with their lists: the card table is made once per setup."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.cards.load import load
from validator.engine import check as engine_check
from validator.engine import tables
from validator.engine.tables import CardTable
from validator.inputs.decks.batch import read_deck_paths
from validator.inputs.registrations.read import read_registrations
from validator.judging import checking
from validator.judging.checking import check_decks

RAIGEKI = "#main\n12580477\n12580477\n12580477\n"


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[CardTable]:
    """Every card table the library makes (the engine too, when given none)."""
    tables_made: list[CardTable] = []

    def counted(*args: object) -> CardTable:
        table = tables.card_attributes(*args)  # type: ignore[arg-type]
        tables_made.append(table)
        return table

    monkeypatch.setattr(checking, "card_attributes", counted)
    monkeypatch.setattr(engine_check, "card_attributes", counted)
    return tables_made


def _event(tmp_path: Path) -> Path:
    (tmp_path / "lists.csv").write_text(
        "KONAMI ID,Full name,Section,Qty,Card Name\n0400000001,Ana Sato,Main,3,Raigeki\n",
        encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "0400000001.ydk").write_text(RAIGEKI, encoding="utf-8")
    (folder / "Somebody Else.ydk").write_text(RAIGEKI, encoding="utf-8")  # no player's
    return folder


def test_lists_decks_and_stray_decks_share_one_card_table(tmp_path: Path,
                                                          made: list[CardTable]) -> None:
    setup = load("advanced-tcg", "demo")
    files = read_deck_paths([_event(tmp_path)])
    checked = check_decks(files, setup, registrations=read_registrations(tmp_path / "lists.csv"))
    assert checked.lists is not None
    assert sorted(checked.result.decks["deck_id"].to_list()) == ["0400000001", "Somebody Else"]
    assert len(made) == 1
    assert made[0].is_for(setup.cards, setup.banlist, setup.fmt)


def test_a_card_table_given_is_used(tmp_path: Path, made: list[CardTable]) -> None:
    setup = load("advanced-tcg", "demo")
    table = tables.card_attributes(setup.cards, setup.banlist, setup.fmt)
    files = read_deck_paths([_event(tmp_path)])
    checked = check_decks(files, setup, registrations=read_registrations(tmp_path / "lists.csv"),
                          attributes=table)
    assert checked.result.decks.height == 2
    assert made == []
