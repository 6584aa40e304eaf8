"""Deck fingerprints: decks equal to their lists told apart without comparing card by card."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from tests.conftest import shared_path
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import load
from validator.engine.check import check
from validator.engine.fingerprints import fingerprints, same_as_listed
from validator.engine.resolve import resolve
from validator.engine.tables import by_deck, deck_index, entry_rows, prepare_rows
from validator.inputs.decks.batch import read_deck_paths
from validator.vocab import SECTION_ENUM

UNRESOLVED = -(2**31)


def _rows(rows: list[tuple[int, str, int, int]]) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema={"deck": pl.UInt32, "section": SECTION_ENUM,
                                       "key": pl.Int64, "qty": pl.Int32}, orient="row")
    status = pl.when(pl.col("key") == UNRESOLVED).then(pl.lit("unresolved")).otherwise(
        pl.lit("ok")).cast(pl.Enum(["ok", "unknown", "unresolved"]))
    return frame.with_columns(status.alias("status"))


def _flags(mine: list[tuple[int, str, int, int]], theirs: list[tuple[int, str, int, int]],
           decks: int) -> list[bool]:
    return same_as_listed(fingerprints(_rows(mine).lazy()).collect(),
                          fingerprints(_rows(theirs).lazy()).collect(), decks).to_list()


def test_polars_wraps_unsigned_products_and_sums() -> None:
    """Deck fingerprints are sums modulo 2**64: polars must wrap, not fail or saturate."""
    big = pl.Series([2**64 - 1, 2**63], dtype=pl.UInt64)
    assert (big * pl.Series([3, 2], dtype=pl.UInt64)).to_list() == [2**64 - 3, 0]
    assert pl.DataFrame({"a": big, "g": [1, 1]}).group_by("g").agg(pl.col("a").sum())[
        "a"].item() == 2**63 - 1


def test_a_fingerprint_is_two_sums_per_deck() -> None:
    found = fingerprints(_rows([(0, "main", 5, 3), (1, "side", 7, 1)]).lazy()).collect()
    assert found.columns == ["deck", "f0", "f1"]
    assert found.schema["f0"] == found.schema["f1"] == pl.UInt64
    assert sorted(found["deck"].to_list()) == [0, 1]


def test_copies_split_across_rows_or_reordered_keep_the_fingerprint() -> None:
    deck = [(0, "main", 5, 3), (0, "side", 7, 2)]
    split = [(0, "side", 7, 1), (0, "main", 5, 1), (0, "side", 7, 1), (0, "main", 5, 2)]
    assert _flags(deck, split, 1) == [True]


@pytest.mark.parametrize("listed", [
    [(0, "side", 5, 3)],  # the same copies in another section
    [(0, "main", 5, 2)],  # one copy fewer
    [(0, "main", 6, 3)],  # another card
    [(0, "main", 5, 3), (0, "extra", 9, 1)],  # one card more
])
def test_any_other_count_changes_the_fingerprint(listed: list[tuple[int, str, int, int]]
                                                 ) -> None:
    assert _flags([(0, "main", 5, 3)], listed, 1) == [False]


def test_rows_naming_no_card_count_nothing() -> None:
    assert _flags([(0, "main", 5, 3), (0, "main", UNRESOLVED, 2)], [(0, "main", 5, 3)],
                  1) == [True]


def test_a_deck_without_a_list_is_not_the_same_as_its_list() -> None:
    assert _flags([(0, "main", 5, 1), (1, "main", 5, 1)], [(1, "main", 5, 1)], 3) == [
        False, True, False]


_ROW = st.tuples(st.integers(0, 5), st.sampled_from(["main", "extra", "side"]),
                 st.sampled_from([1, 2, 3, 89631139, UNRESOLVED]), st.integers(0, 3))


def _exact_counts(frame: pl.DataFrame) -> dict[int, dict[tuple[str, int], int]]:
    counted: dict[int, dict[tuple[str, int], int]] = {}
    for deck, section, key, qty, status in frame.iter_rows():
        per = counted.setdefault(deck, {})
        if status != "unresolved" and qty:
            per[(section, key)] = per.get((section, key), 0) + qty
    return counted


@settings(max_examples=300, deadline=None)
@given(deck=st.lists(_ROW, max_size=30), changes=st.lists(_ROW, max_size=4),
       split=st.booleans(), moved=st.booleans(), data=st.data())
def test_fingerprints_flag_exactly_the_decks_equal_to_their_lists(
        deck: list[tuple[int, str, int, int]], changes: list[tuple[int, str, int, int]],
        split: bool, moved: bool, data: st.DataObject) -> None:
    # the list: the deck's rows reordered, copies split into rows of one, a row in another
    # section, plus a few more rows
    listed = [(d, s, k, 1) for d, s, k, q in deck for _ in range(q)] if split else list(deck)
    listed = data.draw(st.permutations(listed))
    if moved and listed:
        d, s, k, q = listed[0]
        listed[0] = (d, "side" if s != "side" else "main", k, q)
    listed += changes
    mine, theirs = _rows(deck), _rows(listed)
    flags = same_as_listed(fingerprints(mine.lazy()).collect(),
                           fingerprints(theirs.lazy()).collect(), 6)
    a, b = _exact_counts(mine), _exact_counts(theirs)
    expected = [n in a and n in b and a[n] == b[n] for n in range(6)]
    assert flags.to_list() == expected


def test_real_decks_match_themselves_reordered_and_not_once_changed(ygojson_db: CardDB
                                                                    ) -> None:
    """The 69 WindBot decks against themselves shuffled: all the same; with one copy taken
    out of one deck, exactly that deck differs."""
    fmt = load_format("advanced-tcg")
    entries = entry_rows(read_deck_paths([shared_path("decks", "windbot")]).entries, "decks")
    index = deck_index(entries, None)
    assert index.height == 69

    def prints(frame: pl.DataFrame) -> pl.DataFrame:
        rows = prepare_rows(resolve(frame, ygojson_db, fmt), index)
        return fingerprints(by_deck(rows)).collect()

    decks = prints(entries)
    shuffled = entries.sample(fraction=1.0, shuffle=True, seed=1)
    assert same_as_listed(decks, prints(shuffled), index.height).all()
    first = entries.filter(pl.col("qty") > 1).row(0, named=True)
    changed = entries.with_columns(
        pl.when((pl.col("deck_id") == first["deck_id"]) & (pl.col("line") == first["line"])
                & (pl.col("file") == first["file"]))
        .then(pl.col("qty") - 1).otherwise(pl.col("qty")).alias("qty"))
    flags = same_as_listed(decks, prints(changed), index.height)
    differing = index.filter(~flags)["deck_id"].to_list()
    assert differing == [first["deck_id"]]


def test_fingerprints_change_no_verdict(demo_db: CardDB, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """The same event checked with every deck compared card by card gives the same result."""
    from bench.synth import synthesize
    from validator.engine import check as engine

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, 400, seed=7, rate=0.05)
    calls: list[int] = []

    def none_the_same(_mine: pl.DataFrame, _theirs: pl.DataFrame, decks: int) -> pl.Series:
        calls.append(decks)
        return pl.zeros(decks, dtype=pl.Boolean, eager=True)

    for siding in (False, True):
        kwargs = {"cards": demo_db, "fmt": setup.fmt, "banlist": setup.banlist,
                  "registered": event.registered, "siding": siding}
        fast = check(event.decks, **kwargs)  # type: ignore[arg-type]
        with monkeypatch.context() as patched:
            patched.setattr(engine, "same_as_listed", none_the_same)
            slow = check(event.decks, **kwargs)  # type: ignore[arg-type]
        assert fast.violations.filter(pl.col("code") == "LIST_MISMATCH").height > 5
        assert_frame_equal(fast.violations, slow.violations)
        assert_frame_equal(fast.decks, slow.decks)
    assert calls == [400, 400]


def test_each_process_draws_its_own_fingerprint_seeds() -> None:
    """Seeds known in advance would let a deck be built to differ from its list with the
    same fingerprint; each process draws its own."""
    import subprocess
    import sys

    def seeds() -> str:
        return subprocess.run(
            [sys.executable, "-c", "from validator.engine import fingerprints; "
                                   "print(fingerprints._SEEDS)"],
            capture_output=True, text=True, check=True).stdout

    first, second = seeds(), seeds()
    assert first.startswith("(")
    assert first != second
