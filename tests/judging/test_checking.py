"""Decks checked alone or against their players' registered lists (``deckcheck check``):
siding, pairing, the head judge's decisions, and the card table made once per setup."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.deckbuild import (
    FORBIDDEN,
    FUZZY,
    LEGAL,
    NO_LIST,
    SHORT,
    SWAPPED,
    UNSETTLED,
    ydk_bytes,
)
from validator.cards.db import CardDB
from validator.cards.load import Setup, load
from validator.engine import check as engine_check
from validator.engine import tables
from validator.engine.check import CheckResult
from validator.engine.tables import CardTable
from validator.inputs.decks.batch import DeckFiles, read_deck_paths, read_deck_uploads
from validator.inputs.registrations.read import (
    Registrations,
    read_registrations,
)
from validator.judging import checking
from validator.judging.checking import check_against_lists, check_decks, paired
from validator.judging.decisions import Decision

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


def _status(result: CheckResult) -> dict[str, str]:
    return dict(result.decks.select("deck_id", pl.col("status").cast(pl.Utf8)).rows())


def _codes(result: CheckResult, deck_id: str) -> set[str]:
    return set(result.violations.filter(pl.col("deck_id") == deck_id)["code"].to_list())


def test_decks_alone_are_compared_with_nothing(setup: Setup,
                                               inputs: tuple[Registrations, DeckFiles]) -> None:
    checked = check_decks(inputs[1], setup)
    assert checked.lists is None
    assert not checked.compared
    assert (checked.problems, checked.decisions, checked.duel) == ([], [], None)
    assert not checked.result.decks["compared"].any()
    # without their lists, only the short deck and Pot of Greed are illegal
    assert _status(checked.result) == {LEGAL: "legal", SWAPPED: "legal", FORBIDDEN: "illegal",
                                       FUZZY: "legal", UNSETTLED: "legal",
                                       SHORT: "illegal", NO_LIST: "legal"}


@pytest.mark.parametrize(("duel", "swapped"), [(None, "illegal"), (1, "illegal"),
                                               (2, "legal"), (3, "legal")])
def test_from_duel_two_on_side_deck_exchanges_are_allowed(
        setup: Setup, inputs: tuple[Registrations, DeckFiles], duel: int | None,
        swapped: str) -> None:
    checked = check_decks(inputs[1], setup, registrations=inputs[0], duel=duel)
    assert checked.compared
    assert checked.duel == duel
    status = _status(checked.result)
    assert status[SWAPPED] == swapped
    assert (_codes(checked.result, SWAPPED) == {"LIST_MISMATCH"}) == (swapped == "illegal")
    # the other players are judged the same in every duel
    assert (status[LEGAL], status[FORBIDDEN], status[UNSETTLED], status[SHORT]) == (
        "legal", "illegal", "needs_decision", "illegal")
    assert _codes(checked.result, SHORT) == {"MAIN_TOO_SMALL", "LIST_MISMATCH"}


def test_the_lists_are_checked_too_and_a_deck_of_no_player_alone(
        setup: Setup, inputs: tuple[Registrations, DeckFiles]) -> None:
    checked = check_decks(inputs[1], setup, registrations=inputs[0])
    assert checked.lists is not None
    assert _codes(checked.lists, FORBIDDEN) == {"FORBIDDEN_CARD"}
    assert _codes(checked.lists, UNSETTLED) == {"UNRESOLVED_NAME"}
    assert NO_LIST not in checked.lists.decks["deck_id"].to_list()
    compared = dict(checked.result.decks.select("deck_id", "compared").rows())
    assert compared[NO_LIST] is False
    assert compared[LEGAL] is True
    assert [(p.file, p.code) for p in checked.problems] == [(f"{NO_LIST}.ydk", "UNMATCHED_DECK")]


def test_a_decision_settles_the_list_before_the_decks_meet_it(
        setup: Setup, inputs: tuple[Registrations, DeckFiles]) -> None:
    first = check_decks(inputs[1], setup, registrations=inputs[0])
    assert first.lists is not None
    open_entry = first.lists.resolved.filter(pl.col("status") == "unresolved").row(
        0, named=True)
    where = open_entry["cell"] or str(open_entry["line"])
    decided = Decision(UNSETTLED, where, "Ash Blossom & Joyous Spring", "Head judge", "typo")
    checked = check_decks(inputs[1], setup, registrations=inputs[0], decisions=[decided])
    assert _status(checked.result)[UNSETTLED] == "legal"
    assert [(d.player_id, d.card, d.typed) for d in checked.decisions] == [
        (UNSETTLED, "Ash Blossom & Joyous Spring", "Ash Blosom")]


def test_a_deck_named_by_its_players_name_pairs_with_them(
        demo_db: CardDB, inputs: tuple[Registrations, DeckFiles]) -> None:
    deck = ydk_bytes(demo_db, [("Raigeki", 3)])
    files, strays = paired(read_deck_uploads([("Ana Sato.ydk", deck),
                                              ("Nobody Here.ydk", deck)]), inputs[0])
    assert files.ids == [LEGAL, "Nobody Here"]
    assert set(files.entries["deck_id"].to_list()) == {LEGAL, "Nobody Here"}
    assert [p.file for p in strays] == ["Nobody Here.ydk"]


def test_lists_without_decks(setup: Setup, inputs: tuple[Registrations, DeckFiles]) -> None:
    met = check_against_lists(None, inputs[0], setup)
    assert (met.decks, met.files, met.matched, met.unmatched) == (None, None, [], [])
    assert met.lists.decks.height == 6
    assert _status(met.lists)[FORBIDDEN] == "illegal"
