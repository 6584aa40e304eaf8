"""Rounds and tables: pairings placed on the event's players, the current round, a player's
table, seeded deck-check draws and the deck checks recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.errors import InputError
from validator.event import rounds
from validator.event.rounds import Placed, RecordDefaults, record_defaults
from validator.event.store import EventDB
from validator.inputs.pairings import Seat, read_pasted_pairings

PLAYERS = [(f"04000000{n:02d}", f"Player {n:02d}") for n in range(1, 41)]


@pytest.fixture
def db(tmp_path: Path) -> EventDB:
    return EventDB(tmp_path / "event.sqlite")


def _pair(db: EventDB, round_: int, shift: int = 0) -> None:
    """Round ``round_``: 20 tables, the players seated in order, rotated by ``shift``."""
    ids = [pid for pid, _ in PLAYERS]
    ids = ids[shift:] + ids[:shift]
    placed = [Placed(round_, 1 + i // 2, pid) for i, pid in enumerate(ids)]
    rounds.import_pairings(db, placed, "test", [])


def test_seats_are_matched_by_id_or_by_name_in_any_order_of_its_parts() -> None:
    players = [("0400000001", "Lucas Tanaka"), ("0400000002", "Ana Silva")]
    seats = read_pasted_pairings("12, Tanaka Lucas, 0400000002\n13, silva, ana\n", 3).seats
    placed, problems = rounds.place_seats(seats[:2], players)
    assert placed == [Placed(3, 12, "0400000001"), Placed(3, 12, "0400000002")]
    assert problems == []
    comma = [Seat(3, 14, "Silva, Ana", "p", 1)]
    assert rounds.place_seats(comma, players)[0] == [Placed(3, 14, "0400000002")]


def test_an_unknown_player_is_reported_with_the_closest_players() -> None:
    players = [("0400025058", "Lucas Tanaka"), ("0400000002", "Ana Silva")]
    seats = [Seat(3, 1, "0400025085", "p.csv", 2, "C2"), Seat(3, 1, "Lucas Tanaka", "p.csv", 2)]
    placed, problems = rounds.place_seats(seats, players)
    assert placed == [Placed(3, 1, "0400025058")]
    assert [(p.file, p.line, p.column, p.code) for p in problems] == [
        ("p.csv", 2, "C2", "UNKNOWN_PAIRED_PLAYER")]
    assert "0400025058" in problems[0].message


def test_a_player_at_two_tables_and_a_third_player_at_a_table_are_conflicts() -> None:
    seats = [Seat(1, 1, pid, "p", n) for n, (pid, _) in enumerate(PLAYERS[:3], start=1)]
    seats.append(Seat(1, 2, PLAYERS[0][0], "p", 4))
    seats.append(Seat(1, 1, PLAYERS[0][0], "p", 5))  # the same seat again: not a conflict
    placed, problems = rounds.place_seats(seats, PLAYERS)
    assert [p.player_id for p in placed] == [PLAYERS[0][0], PLAYERS[1][0]]
    assert [(p.line, p.code) for p in problems] == [(3, "PAIRING_CONFLICT"),
                                                     (4, "PAIRING_CONFLICT")]


def test_an_import_sets_the_current_round_and_the_tables(db: EventDB) -> None:
    assert rounds.current_round(db) is None
    assert rounds.table_of(db, PLAYERS[0][0]) is None
    _pair(db, 1)
    _pair(db, 3, shift=2)
    assert rounds.current_round(db) == 3
    assert rounds.table_of(db, PLAYERS[0][0]) == 20  # round 3: rotated to the end
    assert rounds.table_of(db, PLAYERS[0][0], 1) == 1
    assert rounds.players_at(db, 12) == [PLAYERS[24][0], PLAYERS[25][0]]
    assert rounds.rounds(db) == [(1, 20, 40), (3, 20, 40)]
    rounds.set_current_round(db, 2)
    assert rounds.current_round(db) == 2
    with pytest.raises(InputError):
        rounds.set_current_round(db, 0)


def test_a_record_starts_at_the_current_round_and_the_players_table(db: EventDB) -> None:
    assert record_defaults(db, PLAYERS[0][0]) == RecordDefaults(None, None)
    _pair(db, 3, shift=2)
    assert record_defaults(db, PLAYERS[0][0]) == RecordDefaults(3, 20)
    assert record_defaults(db, "0499999999") == RecordDefaults(3, None)


def test_a_new_import_of_a_round_replaces_its_pairings(db: EventDB) -> None:
    _pair(db, 1)
    rounds.import_pairings(db, [Placed(1, 7, PLAYERS[0][0])], "again", [])
    assert rounds.round_tables(db, 1) == {7: [PLAYERS[0][0]]}


def test_an_import_keeps_what_could_not_be_used(db: EventDB) -> None:
    read = read_pasted_pairings("x, a, b\n", 2)
    number = rounds.import_pairings(db, [], "pasted", read.problems, given=[2])
    kept = rounds.last_import(db, number)
    assert kept is not None
    assert kept.rounds == [2]
    assert [(p.line, p.code) for p in kept.problems] == [(1, "BAD_PAIRING")]
    assert rounds.current_round(db) is None  # nothing seated: the round is not current


def test_a_draw_is_recorded_repeatable_and_skips_tables_checked_before(db: EventDB) -> None:
    for round_ in (1, 2, 3):
        _pair(db, round_, shift=0)
    first = rounds.draw(db, 1, 3, seed=7)
    rounds.record_deck_check(db, player_id=PLAYERS[30][0], judge="J", round=2, result="legal",
                             started_at="2026-12-05T10:00:00+00:00",
                             ended_at="2026-12-05T10:04:10+00:00")
    made = rounds.draw(db, 3, 5, seed=42)
    skipped = {*first.tables, 16}  # PLAYERS[30] sits at table 16
    assert set(made.excluded) == skipped
    assert len(made.tables) == 5
    assert not skipped & set(made.tables)
    assert made.tables == rounds.repeat(made.eligible, 5, 42)
    again = rounds.draw(db, 3, 5, seed=42)
    assert again.tables == made.tables
    assert [d.id for d in rounds.draws(db, 3)] == [again.id, made.id]
    assert rounds.draws(db, 3)[1] == made
    everything = rounds.draw(db, 3, 20, seed=1, include_checked=True)
    assert sorted(everything.tables) == list(range(1, 21))


def test_a_draw_needs_pairings_and_a_size(db: EventDB) -> None:
    with pytest.raises(InputError) as raised:
        rounds.draw(db, 1, 5)
    assert raised.value.codes == ["NOT_READY"]
    _pair(db, 1)
    with pytest.raises(InputError) as raised:
        rounds.draw(db, 1, 0)
    assert raised.value.codes == ["BAD_OPTION"]
    assert rounds.draw(db, 1, 99).tables.__len__() == 20  # all there are


def test_a_deck_check_defaults_to_the_current_round_table_and_its_duration(
        db: EventDB) -> None:
    _pair(db, 3)
    made = rounds.record_deck_check(db, player_id=PLAYERS[23][0], judge="Floor",
                                    started_at="2026-12-05T10:00:00+00:00",
                                    ended_at="2026-12-05T10:06:01+00:00", result="legal")
    check = rounds.deck_checks(db, 3)[0]
    assert (check.id, check.round, check.table, check.extension) == (made, 3, 12, 7)
    assert rounds.deck_checks(db, player_id=PLAYERS[0][0]) == []


@pytest.mark.parametrize(("start", "end", "minutes"), [
    ("2026-12-05T10:00:00+00:00", "2026-12-05T10:03:00+00:00", 3),
    ("2026-12-05T10:00:00+00:00", "2026-12-05T10:03:01+00:00", 4),
    ("2026-12-05T10:05:00+00:00", "2026-12-05T10:00:00+00:00", 0),
    ("not a time", "2026-12-05T10:00:00+00:00", 0),
])
def test_the_extension_is_the_duration_rounded_up(start: str, end: str, minutes: int) -> None:
    assert rounds.extension_minutes(start, end) == minutes


def test_the_log_keeps_a_table_beside_the_round(db: EventDB) -> None:
    entry = db.record(player_id="P1", player_name="", judge="J", round=3, duel=1,
                      kind="infraction", codes=["X"], default_penalty="", penalty="WARNING",
                      decision="confirmed", reason="", details={}, table=12)
    found = db.log()[0]
    assert (found.id, found.round, found.table) == (entry, 3, 12)
