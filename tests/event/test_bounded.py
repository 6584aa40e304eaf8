"""Uploads read within a time and a memory limit per file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.uploads import hostile_read, refusing_read
from validator.cards.store import demo_cards
from validator.event.bounded import (
    Job,
    Limits,
    Read,
    Reader,
    ReadFn,
    _status,
    limit_record,
    read_upload,
    still_hit,
)
from validator.event.store import EventDB
from validator.inputs.decks.batch import DeckFiles
from validator.inputs.registrations.read import Registrations
from validator.web.state import EventState

#: small limits, so a file that hits one is told quickly
LIMITS = Limits(seconds=1.5, memory=256 << 20)
YDK = b"#main\n89631139\n89631139\n"


def _deck(name: str, data: bytes = YDK) -> Job:
    return Job("decks", name, name, data)


def test_a_batch_is_read_in_order_in_one_process() -> None:
    reader = Reader(LIMITS)
    try:
        found = reader.read([_deck("a.ydk"),
                             Job("links", "pasted", "pasted", b"P2 not-a-link here")])
        first = reader._process
        assert [type(r) for r in found] == [DeckFiles, DeckFiles]
        assert isinstance(found[0], DeckFiles)
        assert found[0].ids == ["a"]
        assert isinstance(found[1], DeckFiles)
        assert [p.code for p in found[1].problems] == ["BAD_YDKE"]
        again = reader.read([_deck("b.ydk")])
        assert isinstance(again[0], DeckFiles)
        assert again[0].ids == ["b"]
        assert reader._process is first  # kept for the next batch
    finally:
        reader.close()


def test_a_file_that_hits_a_limit_is_that_files_code_and_the_others_are_read() -> None:
    reader = Reader(LIMITS, hostile_read)
    try:
        started = time.monotonic()
        found = reader.read([_deck("a.ydk"), _deck("slow.ydk", b"SLOW"),
                             _deck("huge.ydk", b"HUGE"), _deck("b.ydk"),
                             _deck("killed.ydk", b"KILLED"), _deck("c.ydk")])
        took = time.monotonic() - started
    finally:
        reader.close()
    assert found[1:3] == ["UPLOAD_TOO_SLOW", "UPLOAD_TOO_BIG_IN_MEMORY"]
    assert found[4] == "UPLOAD_TOO_BIG_IN_MEMORY"
    assert [r.ids for r in (found[0], found[3], found[5]) if isinstance(r, DeckFiles)] == [
        ["a"], ["b"], ["c"]]
    assert took < LIMITS.seconds + 8  # one wait for the slow file, not a stall


def test_a_panic_of_polars_reading_a_file_is_a_failed_read_the_server_is_told() -> None:
    """A ``PanicException`` is no ``Exception``: it would end the reading process unsent,
    and the server would take it for a process out of memory."""
    reader = Reader(LIMITS, hostile_read)
    try:
        with pytest.raises(RuntimeError, match=r"reading an upload failed \(PanicException: "
                                               r"assertion failed"):
            reader.read([_deck("panic.ydk", b"PANIC")])
        found = reader.read([_deck("b.ydk")])  # a new process reads on
    finally:
        reader.close()
    assert isinstance(found[0], DeckFiles)
    assert found[0].ids == ["b"]


def test_a_file_whose_reading_holds_too_much_memory_is_stopped_before_its_time() -> None:
    reader = Reader(Limits(seconds=60, memory=256 << 20), hostile_read)
    try:
        reader.read([_deck("a.ydk")])  # the process started
        started = time.monotonic()
        found = reader.read([_deck("grows.ydk", b"GROW"), _deck("b.ydk")])
        took = time.monotonic() - started
    finally:
        reader.close()
    assert found[0] == "UPLOAD_TOO_BIG_IN_MEMORY"
    assert isinstance(found[1], DeckFiles)
    assert found[1].ids == ["b"]
    assert took < 30  # the memory it held stopped it, not the time it took


def test_a_process_left_holding_much_memory_is_not_kept_for_the_next_file() -> None:
    reader = Reader(Limits(seconds=60, memory=256 << 20), hostile_read)
    try:
        found = reader.read([_deck("a.ydk", b"KEEP" + YDK)])
        ended = reader._process is None
        again = reader.read([_deck("b.ydk")])
    finally:
        reader.close()
    assert isinstance(found[0], DeckFiles)  # not blamed: it stayed within the limit
    assert ended  # but the process is not kept, so that the next file is not blamed either
    assert isinstance(again[0], DeckFiles)
    assert again[0].ids == ["b"]


def test_a_first_file_is_not_charged_for_what_any_first_read_costs() -> None:
    """Modules imported on first use and polars' first query (about 30 MB) are held before the
    process is ready, so a first small file grows it by little more than a later one."""
    root = Path(__file__).parents[2]
    jobs = [_deck("first.ydk", next((root / "decks" / "tcg").glob("*.ydk")).read_bytes()),
            Job("registrations", "rush-cup.csv", "rush-cup.csv",
                (root / "sample_decklists" / "rush-cup.csv").read_bytes())]
    reader = Reader(LIMITS)
    try:
        reader.start()
        assert reader._process is not None
        pid, ready = reader._process.pid, reader._resident
        found = reader.read(jobs)
        grown = _status("VmRSS", pid) - ready
    finally:
        reader.close()
    assert [type(r) for r in found] == [DeckFiles, Registrations]
    assert ready > 0
    assert grown < 16 << 20, f"a first deck and list grew the reading process by {grown >> 20} MiB"


def _state(db: Path, read: ReadFn = hostile_read) -> EventState:
    return EventState(EventDB(db), demo_cards(), limits=LIMITS, read_one=read)


def test_an_upload_that_hit_a_limit_is_one_problem_and_is_not_read_after_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    state = _state(db)
    try:
        slow = state.db.add_uploads("decks", [("slow.ydk", b"SLOW deck")])
        huge = state.db.add_uploads("decks", [("huge.ydk", b"HUGE deck")])
        fine = state.db.add_uploads("decks", [("P1.ydk", YDK)])
        outcomes = state.check_all()[2].outcomes
    finally:
        state.close()
    assert [p.code for p in outcomes[slow].problems] == ["UPLOAD_TOO_SLOW"]
    assert [(p.file, p.line) for p in outcomes[slow].problems] == [("slow.ydk", None)]
    assert [p.code for p in outcomes[huge].problems] == ["UPLOAD_TOO_BIG_IN_MEMORY"]
    assert outcomes[fine].read == 1
    assert not outcomes[fine].problems

    restarted = _state(db, refusing_read)  # the check fails if a hostile file is read again
    try:
        _, errors, versions = restarted.check_all()
    finally:
        restarted.close()
    assert errors == []
    assert [p.code for p in versions.outcomes[slow].problems] == ["UPLOAD_TOO_SLOW"]
    assert [p.code for p in versions.outcomes[huge].problems] == ["UPLOAD_TOO_BIG_IN_MEMORY"]
    assert versions.outcomes[fine].read == 1


def test_the_same_bytes_uploaded_again_are_not_read_again(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    state = _state(db)
    try:
        first = state.db.add_uploads("decks", [("slow.ydk", b"SLOW deck")])
        assert [p.code for p in state.check_all()[2].outcomes[first].problems] == [
            "UPLOAD_TOO_SLOW"]
    finally:
        state.close()
    state = _state(db, refusing_read)
    try:
        again = state.db.add_uploads("decks", [("renamed.ydk", b"SLOW deck")])
        _, errors, versions = state.check_all()
    finally:
        state.close()
    assert errors == []
    assert [(p.code, p.file) for p in versions.outcomes[again].problems] == [
        ("UPLOAD_TOO_SLOW", "renamed.ydk")]


def test_a_raised_limit_reads_the_upload_again(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    state = _state(db)
    try:
        slow = state.db.add_uploads("decks", [("slow.ydk", b"SLOW deck")])
        state.check_all()
    finally:
        state.close()
    # a lower limit: still not read; a higher one: read (a deck of no cards)
    lower, higher = Limits(1.0, LIMITS.memory), Limits(5.0, LIMITS.memory)
    for limits, read, expected in [(lower, refusing_read, (0, ["UPLOAD_TOO_SLOW"])),
                                   (higher, read_upload, (1, []))]:
        again = EventState(EventDB(db), demo_cards(), limits=limits, read_one=read)
        try:
            _, errors, versions = again.check_all()
        finally:
            again.close()
        assert errors == []
        outcome = versions.outcomes[slow]
        assert (outcome.read, [p.code for p in outcome.problems]) == expected


def test_a_kept_record_says_which_limit_still_holds() -> None:
    slow = limit_record("UPLOAD_TOO_SLOW", LIMITS)
    big = limit_record("UPLOAD_TOO_BIG_IN_MEMORY", LIMITS)
    assert still_hit(slow, LIMITS) == "UPLOAD_TOO_SLOW"
    assert still_hit(slow, Limits(seconds=LIMITS.seconds * 2)) is None
    assert still_hit(big, LIMITS) == "UPLOAD_TOO_BIG_IN_MEMORY"
    assert still_hit(big, Limits(memory=LIMITS.memory * 2)) is None
    assert still_hit(None, LIMITS) is None
    assert still_hit("UPLOAD_TOO_SLOW", LIMITS) == "UPLOAD_TOO_SLOW"  # no limit kept: holds


def test_uploads_are_sent_in_batches_of_bounded_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("validator.web.state.BATCH_BYTES", 2 * len(YDK))  # two files a batch
    sizes: list[int] = []
    read = Reader.read

    def counted(reader: Reader, jobs: list[Job]) -> list[Read | str]:
        sizes.append(len(jobs))
        return list(read(reader, jobs))

    monkeypatch.setattr(Reader, "read", counted)
    state = _state(tmp_path / "event.sqlite")
    try:
        uploads = [state.db.add_uploads("decks", [(f"P{n}.ydk", YDK)]) for n in range(3)]
        slow = state.db.add_uploads("decks", [("slow.ydk", b"SLOW deck")])
        _, errors, versions = state.check_all()
    finally:
        state.close()
    assert errors == []
    assert sizes == [2, 2]
    assert [versions.outcomes[u].read for u in uploads] == [1, 1, 1]
    assert [p.code for p in versions.outcomes[slow].problems] == ["UPLOAD_TOO_SLOW"]


def test_a_packed_read_is_the_read_and_a_shared_table_is_sent_once() -> None:
    """What a reading or checking process sends: its tables as they were (types, lists,
    enums), a table referred to twice written once."""
    import pickle

    import polars as pl
    from polars.testing import assert_frame_equal

    from validator.event.bounded import pack
    from validator.inputs.entries import entries_frame

    entries = entries_frame([{"deck_id": "P1", "section": "side", "name": "Raigeki", "qty": 2,
                              "line": 3}]).with_columns(
        pl.lit(["a", "b"], pl.List(pl.Utf8)).alias("suggestions"))
    read = DeckFiles(entries, [], ["P1"], {"P1": "P1.ydk"})
    back = pickle.loads(pack(("read", read, entries)))
    assert back[0] == "read"
    assert_frame_equal(back[1].entries, entries)
    assert back[1].entries.schema == entries.schema
    assert (back[1].ids, back[1].labels) == (["P1"], {"P1": "P1.ydk"})
    assert back[2] is back[1].entries
    assert len(pack((entries, entries))) < 1.5 * len(pack(entries))
