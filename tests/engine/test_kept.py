"""Card tables kept in the data store: the same table as one made anew, made anew whenever
what it is made from differs, and never a reason for a check to fail."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards import store as store_module
from validator.cards.banlist import Banlist
from validator.cards.formats import banlists_dir, load_format
from validator.cards.load import Setup, load
from validator.cards.store import import_into_store
from validator.engine import kept
from validator.engine.kept import KEPT, kept_card_attributes, table_key
from validator.engine.tables import CardTable, card_attributes
from validator.errors import Problem
from validator.inputs.decks.batch import read_deck_paths
from validator.judging.checking import check_decks

DEMO_CARDS = Path(__file__).resolve().parents[2] / "validator" / "data" / "demo_cards.csv"
DEMO_LIST = banlists_dir() / "lists" / "demo-tcg.lflist.conf"


def _store(folder: Path) -> Path:
    """The demo card pool and a copy of the demo TCG list imported into a store."""
    own_list = folder.parent / f"{folder.name}-tcg.lflist.conf"
    shutil.copy(DEMO_LIST, own_list)
    import_into_store([DEMO_CARDS, own_list], folder)
    return folder


def _setup(folder: Path, fmt: str = "advanced-tcg") -> Setup:
    return load(fmt, None, None, None, folder, "2026-12-01")


def _tables(folder: Path) -> list[Path]:
    return sorted((folder / "cache" / "tables").glob("*.parquet"))


def _same(one: CardTable, other: CardTable) -> None:
    assert one.frame.schema == other.frame.schema
    assert one.frame.equals(other.frame)
    assert [vars(w) for w in one.warnings] == [vars(w) for w in other.warnings]


class _Counted:
    """``card_attributes`` counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: object) -> CardTable:
        self.calls += 1
        return card_attributes(*args)  # type: ignore[arg-type]


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> _Counted:
    counted = _Counted()
    monkeypatch.setattr(kept, "card_attributes", counted)
    return counted


def test_a_kept_table_is_the_table_made_anew_and_is_read_not_made(tmp_path: Path,
                                                                  made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    first = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    assert made.calls == 1
    assert len(_tables(folder)) == 1
    again = _setup(folder)  # another run: the store read again
    second = kept_card_attributes(again.cards, again.banlist, again.fmt, folder)
    assert made.calls == 1
    assert second.is_for(again.cards, again.banlist, again.fmt)
    _same(second, card_attributes(again.cards, again.banlist, again.fmt))
    _same(first, second)


def test_warnings_of_the_list_are_kept_with_the_table(tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    listed = pl.concat([setup.banlist.entries, pl.DataFrame(
        {"passcode": [999999999], "name": ["No Such Card"], "limit": [0], "points": [None],
         "line": [99]}, schema=setup.banlist.entries.schema)])
    banlist = Banlist(setup.banlist.name, setup.banlist.source, listed)
    first = kept_card_attributes(setup.cards, banlist, setup.fmt, folder)
    assert [w.code for w in first.warnings] == ["UNKNOWN_LIST_ENTRY"]
    again = _setup(folder)
    second = kept_card_attributes(again.cards, Banlist(banlist.name, banlist.source, listed),
                                  again.fmt, folder)
    assert made.calls == 1
    assert all(isinstance(w, Problem) for w in second.warnings)
    _same(first, second)


def test_another_list_entry_makes_the_table_anew(tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    entries = setup.banlist.entries
    changed = entries.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(1).otherwise(pl.col("limit")).alias("limit"))
    banlist = Banlist(setup.banlist.name, setup.banlist.source, changed)
    table = kept_card_attributes(setup.cards, banlist, setup.fmt, folder)
    assert made.calls == 2
    assert len(_tables(folder)) == 2
    _same(table, card_attributes(setup.cards, banlist, setup.fmt))
    first = changed["passcode"][0]
    limit = table.frame.join(setup.cards.printings.filter(pl.col("passcode") == first)
                             .select("card_id"), on="card_id")["limit"].to_list()
    assert limit == [1]


def test_another_format_makes_the_table_anew(tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    other = setup.fmt._replace(forbidden_as_limited=not setup.fmt.forbidden_as_limited)
    table = kept_card_attributes(setup.cards, setup.banlist, other, folder)
    assert made.calls == 2
    _same(table, card_attributes(setup.cards, setup.banlist, other))


def test_card_data_imported_again_makes_the_table_anew(tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    key = table_key(setup.cards, setup.banlist, setup.fmt)
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    import_into_store([DEMO_CARDS], folder)
    again = _setup(folder)
    assert table_key(again.cards, again.banlist, again.fmt) != key
    kept_card_attributes(again.cards, again.banlist, again.fmt, folder)
    assert made.calls == 2


def test_a_changed_source_file_of_the_code_makes_the_table_anew(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    key = table_key(setup.cards, setup.banlist, setup.fmt)
    stamps = kept._code_stamps()
    assert any(s.startswith(str(Path(kept.__file__).parent / "tables.py")) for s in stamps)
    assert any(".po:" in s or ".mo:" in s for s in stamps)  # the catalogs word the labels
    monkeypatch.setattr(kept, "_code_stamps", lambda: [*stamps[:-1], stamps[-1] + "0"])
    assert table_key(setup.cards, setup.banlist, setup.fmt) != key


def test_card_data_made_in_memory_is_never_kept(tmp_path: Path, made: _Counted) -> None:
    setup = load("advanced-tcg", "demo", None, None, tmp_path / "data")
    assert table_key(setup.cards, setup.banlist, setup.fmt) is None
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, tmp_path / "data")
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, tmp_path / "data")
    assert made.calls == 2
    assert not (tmp_path / "data" / "cache" / "tables").exists()


def test_a_damaged_kept_table_is_made_anew_and_written_again(tmp_path: Path,
                                                            made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    good = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    (kept_file,) = _tables(folder)
    kept_file.write_bytes(kept_file.read_bytes()[:100])
    again = _setup(folder)
    _same(kept_card_attributes(again.cards, again.banlist, again.fmt, folder), good)
    assert made.calls == 2
    kept_file.with_suffix(".warnings").write_text("[{\"file\": 1}]")
    _same(kept_card_attributes(again.cards, again.banlist, again.fmt, folder), good)
    assert made.calls == 3
    _same(kept_card_attributes(again.cards, again.banlist, again.fmt, folder), good)
    assert made.calls == 3  # written again whole


def test_a_folder_that_cannot_be_written_only_costs_time(tmp_path: Path,
                                                         made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    (folder / "cache").mkdir(exist_ok=True)
    (folder / "cache" / "tables").write_text("a file where the folder goes")
    setup = _setup(folder)
    for _ in range(2):
        table = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
        _same(table, card_attributes(setup.cards, setup.banlist, setup.fmt))
    assert made.calls == 2


def test_at_most_kept_tables_are_kept_the_least_recently_used_removed(
        tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    setup = _setup(folder)
    lists = [Banlist(f"{setup.banlist.name} {i}", setup.banlist.source, setup.banlist.entries)
             for i in range(KEPT + 2)]
    kept_card_attributes(setup.cards, lists[0], setup.fmt, folder)
    first = _tables(folder)[0]
    for at, banlist in enumerate(lists[1:KEPT], start=1):
        kept_card_attributes(setup.cards, banlist, setup.fmt, folder)
        for table in _tables(folder):  # each written after the one before
            if table != first and table.stat().st_mtime_ns > at:
                os.utime(table, ns=(at, at))
    os.utime(first, ns=(0, 0))  # the first made, and the least recently used so far
    assert len(_tables(folder)) == KEPT
    assert made.calls == KEPT
    kept_card_attributes(setup.cards, lists[0], setup.fmt, folder)  # used again: read
    assert made.calls == KEPT
    for banlist in lists[KEPT:]:
        kept_card_attributes(setup.cards, banlist, setup.fmt, folder)
    left = _tables(folder)
    assert len(left) == KEPT
    assert first in left  # used most recently of the first ones
    oldest = {table_key(setup.cards, banlist, setup.fmt) for banlist in lists[1:3]}
    assert not oldest & {table.stem for table in left}
    assert len(list((folder / "cache" / "tables").glob("*.warnings"))) == KEPT
    assert not list((folder / "cache" / "tables").glob("*.tmp"))


def test_real_card_data_and_list_kept_give_the_same_table_and_verdicts(
        tmp_path: Path, made: _Counted) -> None:
    folder = tmp_path / "data"
    import_into_store([shared_path("ygojson", "cards.json"),
                       shared_path("lflist", "0TCG.lflist.conf")], folder)
    setup = _setup(folder)
    first = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    again = _setup(folder)
    second = kept_card_attributes(again.cards, again.banlist, again.fmt, folder)
    assert made.calls == 1
    assert first.frame.height > 10_000
    _same(second, first)
    decks = read_deck_paths([shared_path("decks")])
    fresh = check_decks(decks, again, registrations=None, decisions=[], duel=None)
    read = check_decks(decks, again, registrations=None, decisions=[], duel=None,
                       attributes=second)
    assert read.result.violations.equals(fresh.result.violations)
    assert read.result.decks.equals(fresh.result.decks)
    assert [vars(w) for w in read.result.warnings] == [vars(w) for w in fresh.result.warnings]


def test_the_format_key_names_every_field_of_the_format() -> None:
    fmt = load_format("advanced-tcg")
    assert all(repr(value) in repr(tuple(fmt)) for value in fmt)


def test_a_full_disk_only_costs_time_and_leaves_no_partial_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: _Counted) -> None:
    """polars reports a write that fails (no space left, a file-size limit) as a
    ComputeError, not an OSError."""
    folder = _store(tmp_path / "data")
    setup = _setup(folder)

    def full(self: pl.DataFrame, target: object, **_: object) -> None:
        Path(str(target)).write_bytes(b"PAR1")  # what a write cut short leaves
        raise pl.exceptions.ComputeError("parquet: No space left on device (os error 28)")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    table = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    monkeypatch.undo()
    _same(table, card_attributes(setup.cards, setup.banlist, setup.fmt))
    assert list((folder / "cache" / "tables").iterdir()) == []


def test_what_a_stopped_run_left_is_removed_once_old(tmp_path: Path, made: _Counted) -> None:
    folder = _store(tmp_path / "data")
    tables = folder / "cache" / "tables"
    tables.mkdir(parents=True)
    old_tmp, new_tmp = tables / "a.parquet.1-2.tmp", tables / "b.parquet.3-4.tmp"
    lone = tables / "c.warnings"
    for path in (old_tmp, new_tmp, lone):
        path.write_text("left")
    hour_ago = time.time() - kept._LEFT_AFTER_S - 60
    for path in (old_tmp, lone):
        os.utime(path, (hour_ago, hour_ago))
    setup = _setup(folder)
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    left = {p.name for p in tables.iterdir()}
    assert new_tmp.name in left  # another run may be writing it now
    assert old_tmp.name not in left
    assert lone.name not in left
    assert len(_tables(folder)) == 1


def test_card_data_imported_while_it_is_read_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: _Counted) -> None:
    """An import landing between the store's reads: the files read may be of two imports,
    so nothing names the data (a table kept under the new data's name would be stale)."""
    folder = _store(tmp_path / "data")
    renamed = tmp_path / "renamed.csv"
    lines = DEMO_CARDS.read_text(encoding="utf-8").splitlines()
    header, first = lines[0].split(","), lines[1].split(",")
    first[header.index("name")] = "Renamed " + first[header.index("name")]
    renamed.write_text("\n".join([lines[0], ",".join(first), *lines[2:]]) + "\n",
                       encoding="utf-8")
    real = pl.read_parquet
    imported: list[bool] = []

    def read_then_import(source: Any, *args: Any, **kwargs: Any) -> pl.DataFrame:
        frame: pl.DataFrame = real(source, *args, **kwargs)
        if not imported:  # the cards read, then an import replaces the store's files
            imported.append(True)
            import_into_store([renamed], folder)
        return frame

    monkeypatch.setattr(pl, "read_parquet", read_then_import)
    setup = _setup(folder)
    monkeypatch.undo()
    assert imported
    assert setup.cards.stored_as == ""
    assert table_key(setup.cards, setup.banlist, setup.fmt) is None
    kept_card_attributes(setup.cards, setup.banlist, setup.fmt, folder)
    assert _tables(folder) == []


def test_every_save_of_card_data_is_named_anew(tmp_path: Path) -> None:
    """Two imports whose files have the same sizes, times and inodes (a filesystem with
    coarse times, inodes reused) are still told apart: each save writes a generation."""
    folder = _store(tmp_path / "data")
    first = store_module._fingerprint(folder)
    generation = (folder / store_module.GENERATION).read_text(encoding="ascii")
    (folder / store_module.GENERATION).write_text("0" * 32, encoding="ascii")
    assert store_module._fingerprint(folder) != first
    import_into_store([DEMO_CARDS], folder)
    assert (folder / store_module.GENERATION).read_text(encoding="ascii") not in (
        generation, "0" * 32)
