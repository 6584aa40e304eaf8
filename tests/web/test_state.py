"""The web app's event state: the setup and its card table, made once per setting."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from validator.cards.store import demo_cards
from validator.event.store import EventDB, EventSettings
from validator.web.state import EventState, RowsBy


def test_the_card_table_is_made_once_per_setup(tmp_path: Path) -> None:
    state = EventState(EventDB(tmp_path / "event.sqlite"), demo_cards())
    setup = state.setup()
    table = state.card_table(setup)
    assert table.is_for(setup.cards, setup.banlist, setup.fmt)
    assert state.card_table(state.setup()) is table  # the same settings: the same setup
    state.db.save_settings(EventSettings("Locals", "2026-12-05", "advanced-ocg", "ja", "ja"))
    other = state.setup()
    assert other is not setup
    changed = state.card_table(other)
    assert changed is not table
    assert changed.is_for(other.cards, other.banlist, other.fmt)


@pytest.mark.parametrize("ids", [["a", "a", "b", "b", "b", "c"],  # rows of a player together
                                 ["b", "a", "b", None, "a", "c", "b"]])  # and apart
def test_rows_by_player_are_the_rows_a_filter_finds(ids: list[str | None]) -> None:
    frame = pl.DataFrame({"deck_id": pl.Series(ids, dtype=pl.Categorical),
                          "row": list(range(len(ids)))})
    rows = RowsBy(frame, "deck_id")
    for player in ("a", "b", "c"):
        found = rows.of(player)
        assert found["row"].len() > 0
        assert_frame_equal(found, frame.filter(pl.col("deck_id") == player))
    assert rows.of("nobody").is_empty()
    assert rows.of("nobody").schema == frame.schema


def test_player_rows_are_made_once_per_check(tmp_path: Path) -> None:
    state = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    state.db.save_settings(EventSettings("E", "2026-12-05", "advanced-tcg", "th", "en"))
    state.db.add_uploads("registrations", [("lists.csv", (
        b"Player ID,Section,Qty,Card Name\nP1,main,3,Pot of Greed\nP2,main,1,Raigeki\n"
        b"P1,main,1,Raigeki\n"))])
    result, problems = state.check_now()
    assert result is not None, problems
    rows = state.rows(result)
    assert state.rows(result) is rows
    assert rows.entries.of("P1")["qty"].to_list() == [3, 1]
    assert rows.submitted is None
    report = state.report(result)
    mine = rows.violations_of(report, "P1")
    assert set(mine["player_id"].to_list()) == {"P1"}
    assert sorted(mine["code"].to_list()) == ["FORBIDDEN_CARD", "MAIN_TOO_SMALL"]
    assert rows.violations_of(report, "P2")["code"].to_list() == ["MAIN_TOO_SMALL"]
    for player in ("P1", "P2"):
        assert_frame_equal(rows.item_of(report, player),
                           report.items.filter(pl.col("player_id") == player))
        assert rows.item_of(report, player).height == 1
    assert rows.item_of(report, "nobody").is_empty()
    assert_frame_equal(rows.player_of("P2"), result.players.filter(pl.col("player_id") == "P2"))
    assert rows.player_of("P2").height == 1
    assert rows.player_of("nobody").is_empty()
    assert rows.violations_of(report, "P3").is_empty()
    again, _ = state.check_now()
    assert again is not None
    assert state.rows(again) is not rows


def test_a_check_is_sent_from_the_checking_process_as_it_was_made(tmp_path: Path) -> None:
    """The check the checking process sends reads back as the same tables, the lists as
    checked sent once when no decision changed them."""
    import pickle

    from validator.event.bounded import pack
    from validator.web.state import _sent

    state = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    state.db.save_settings(EventSettings("E", "2026-12-05", "advanced-tcg", "th", "en"))
    state.db.add_uploads("registrations", [("lists.csv", (
        b"Player ID,Section,Qty,Card Name\nP1,main,3,Pot of Greed\nP2,main,1,Raigeki\n"))])
    checked = state.check_all()
    result = checked[0]
    assert result is not None
    assert result.registered is not None
    registered = result.registered
    back = pickle.loads(pack(_sent(checked)))[0]
    assert back.registered is back.registrations.entries
    assert_frame_equal(back.registered, registered)
    for made, sent in ((result.violations, back.violations), (result.players, back.players),
                       (result.list_check.decks, back.list_check.decks)):
        assert made.height > 0
        assert_frame_equal(sent, made)
    assert back.problems == result.problems


def test_every_players_lines_are_made_once_and_are_their_own(tmp_path: Path) -> None:
    """A page's lines of a player's list and deck, read from the lines made once per check
    and setup, are those of the player's own list and deck; a player without a submitted
    deck has none (None), not an empty one."""
    from tests.deckbuild import LEGAL, SHORT, UNSETTLED, small_event
    from validator.judging.judge import registered_lines

    state = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    state.db.save_settings(EventSettings("E", "2026-12-05", "advanced-tcg", "th", "en"))
    lists, decks = small_event(state.cards)
    nodeck = "0400000099"  # a list, and no deck
    state.db.add_uploads("registrations", [("lists.csv", lists
                                             + f"{nodeck},Gil Ota,Main,3,Raigeki\n".encode())])
    state.db.add_uploads("decks", decks)
    result, problems = state.check_now()
    assert result is not None, problems
    assert nodeck in result.players_without_deck
    assert state.made_rows(result) is None
    rows = state.page_rows(result)
    assert state.made_rows(result) is rows
    setup = state.setup()
    made = rows.lines_by_player(setup)
    assert rows.lines_by_player(setup) == made
    assert made[1] is not None
    report = state.report(result)
    assert state.made_report(result) is report
    players = result.players["player_id"].to_list()
    assert {LEGAL, SHORT, UNSETTLED, nodeck} <= set(players)
    for player in players:
        listed = registered_lines(rows.entries.of(player), setup.cards, setup.fmt,
                                  rows.problems_of(player))
        assert listed
        assert rows.listed_lines(player, setup) == listed
        deck = rows.deck_lines(player, setup)
        if player == nodeck:
            assert deck is None
            continue
        assert rows.submitted is not None
        assert deck == registered_lines(rows.submitted.of(player), setup.cards, setup.fmt)
        assert deck
        assert_frame_equal(rows.deck_violations_of(report, player), report.violations.filter(
            (pl.col("player_id") == player) & (pl.col("on") == "deck")))
    assert any(line.key is None for line in rows.listed_lines(UNSETTLED, setup))
    assert rows.deck_violations_of(report, SHORT).height >= 1
    assert rows.unresolved_of(report, UNSETTLED).height == 1
    assert rows.unresolved_of(report, LEGAL).is_empty()


def test_a_panic_of_polars_in_the_event_check_is_a_failed_check_that_keeps_the_uploads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``PanicException`` (no ``Exception``, and not picklable to the server) is told on
    the pages as the check failing, as any other failure of the check is."""
    state = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    state.db.save_settings(EventSettings("E", "2026-12-05", "advanced-tcg", "th", "en"))
    state.db.add_uploads("registrations", [("lists.csv", (
        b"Player ID,Section,Qty,Card Name\nP1,main,3,Pot of Greed\n"))])

    def panicking(*args: object, **kwargs: object) -> None:
        raise pl.exceptions.PanicException("assertion failed: i < self.len()")

    monkeypatch.setattr("validator.web.state.check_event", panicking)
    result, problems, _ = state.check_all()
    assert result is None
    assert [p.code for p in problems] == ["CHECK_FAILED"]
    assert "PanicException" in problems[0].message
    assert state.db.uploads("registrations")  # kept


def test_an_interrupt_during_the_event_check_is_not_told_as_a_failed_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    state.db.add_uploads("registrations", [("lists.csv", (
        b"Player ID,Section,Qty,Card Name\nP1,main,3,Pot of Greed\n"))])

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("validator.web.state.check_event", interrupted)
    with pytest.raises(KeyboardInterrupt):
        state.check_all()
