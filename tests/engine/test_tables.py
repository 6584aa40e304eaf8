"""The card attribute table, the entry frame as the engine takes it, and the deck rows."""

from __future__ import annotations

import itertools

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import load
from validator.engine.check import check
from validator.engine.resolve import resolve
from validator.engine.tables import (
    UNRESOLVED_KEY,
    by_deck,
    by_position,
    card_attributes,
    deck_by_card,
    deck_by_card_few,
    deck_index,
    deck_numbers,
    deck_sizes,
    entry_rows,
    gather,
    gather_rows,
    lean,
    prepare_rows,
    run_starts,
    with_cards,
    with_cards_at,
)
from validator.errors import InputError
from validator.inputs.entries import ENTRY_SCHEMA, entries_frame
from validator.vocab import SECTION_ENUM, SECTIONS

POT_OF_GREED = 55144522
CALLED_BY_THE_GRAVE = 24224830


def _row_of(table: pl.DataFrame, card: str) -> dict[str, object]:
    rows = table.filter(pl.col("card") == card).to_dicts()
    assert len(rows) == 1, card
    return rows[0]


# -- the card attribute table --------------------------------------------------------------


def test_card_table_has_one_row_per_card_with_its_lists_limit(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    table = card_attributes(setup.cards, setup.banlist, setup.fmt)
    frame = table.frame
    assert frame.height == demo_db.by_card.height
    assert frame["card_id"].n_unique() == frame.height
    assert {k: _row_of(frame, "Pot of Greed")[k] for k in ("limit", "listed")} == {
        "limit": 0, "listed": True}
    assert _row_of(frame, "Called by the Grave")["limit"] == 1
    assert {k: _row_of(frame, "Dark Hole")[k] for k in ("limit", "listed")} == {
        "limit": None, "listed": False}


def test_forbidden_cards_count_as_limited_where_the_format_says(demo_db: CardDB) -> None:
    setup = load("traditional", demo_db)
    assert setup.fmt.forbidden_as_limited
    frame = card_attributes(setup.cards, setup.banlist, setup.fmt).frame
    assert _row_of(frame, "Pot of Greed")["limit"] == 1
    assert _row_of(frame, "Called by the Grave")["limit"] == 1


def test_points_come_from_a_points_list_else_from_the_card_data(demo_db: CardDB) -> None:
    genesys = load("genesys", demo_db)
    assert genesys.banlist.genesys
    frame = card_attributes(genesys.cards, genesys.banlist, genesys.fmt).frame
    card_points = dict(demo_db.by_card.select("name_en", "points").iter_rows())
    # the demo Genesys list gives Dark Hole 1 point; the card data says 3
    assert (_row_of(frame, "Dark Hole")["points"], card_points["Dark Hole"]) == (1.0, 3.0)
    unlisted = frame.filter(~pl.col("listed"))
    assert unlisted.height > 0
    assert unlisted["points"].unique().to_list() == [0.0]
    advanced = load("advanced-tcg", demo_db)
    other = card_attributes(advanced.cards, advanced.banlist, advanced.fmt).frame
    assert _row_of(other, "Dark Hole")["points"] == 3.0


def test_card_table_is_for_exactly_its_cards_list_and_format(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    table = card_attributes(setup.cards, setup.banlist, setup.fmt)
    assert table.is_for(setup.cards, setup.banlist, load_format("advanced-tcg"))
    assert not table.is_for(setup.cards, setup.banlist, load_format("advanced-ocg"))
    again = load("advanced-tcg", demo_db)  # an equal list, read again: another object
    assert not table.is_for(setup.cards, again.banlist, setup.fmt)


def test_real_card_table_folds_names_and_releases_listed_cards(ygojson_db: CardDB,
                                                               tcg_list: Banlist) -> None:
    fmt = load_format("advanced-tcg")
    frame = card_attributes(ygojson_db, tcg_list, fmt).frame
    assert frame.height == ygojson_db.by_card.height
    assert frame["card_id"].n_unique() == frame.height
    # Harpie Lady 1 is always treated as "Harpie Lady": one name for the three-copy limit
    harpie_1, harpie = _row_of(frame, "Harpie Lady 1"), _row_of(frame, "Harpie Lady")
    assert (harpie_1["counts_as"], harpie_1["folded"]) == ("Harpie Lady", True)
    assert (harpie["counts_as"], harpie["folded"]) == (None, True)
    assert harpie_1["name_id"] == harpie["card_id"]
    # on 0TCG but with no TCG release in YGOJSON: the region's own list releases it there
    arthalion = ygojson_db.by_card.filter(pl.col("name_en") == "Dracotail Arthalion")
    assert "tcg" not in arthalion["pools"][0].to_list()
    assert "tcg" in _row_of(frame, "Dracotail Arthalion")["pools"]  # type: ignore[operator]
    assert _row_of(frame, 'Maxx "C"')["limit"] == 0


# -- the entry frame as the engine takes it ------------------------------------------------


def _entries(**columns: pl.Series) -> pl.DataFrame:
    base = {"deck_id": pl.Series(["a", "a"]),
            "section": pl.Series(["main", "side"], dtype=SECTION_ENUM),
            "passcode": pl.Series([POT_OF_GREED, CALLED_BY_THE_GRAVE]),
            "qty": pl.Series([1, 2], dtype=pl.Int32)}
    return pl.DataFrame({**base, **columns})


def test_entry_rows_give_every_entry_column_typed(demo_db: CardDB) -> None:
    frame = _entries(name=pl.Series([None, None]))  # a column of nulls, typed Null
    assert frame.schema["name"] == pl.Null
    rows = entry_rows(frame, "entries")
    assert rows.schema == pl.Schema(ENTRY_SCHEMA)
    assert rows["name"].null_count() == rows["file"].null_count() == 2
    assert rows.select("deck_id", "section", "passcode", "qty").rows() == [
        ("a", "main", POT_OF_GREED, 1), ("a", "side", CALLED_BY_THE_GRAVE, 2)]


def test_entry_rows_take_categorical_deck_ids() -> None:
    rows = entry_rows(_entries(deck_id=pl.Series(["a", "a"], dtype=pl.Categorical)), "entries")
    assert rows.schema["deck_id"] == pl.Categorical()


@pytest.mark.parametrize(("column", "values"), [
    ("section", pl.Series(["main", "side"])),  # plain strings, not the section Enum
    ("section", pl.Series(["main", "side"], dtype=pl.Categorical)),
    ("qty", pl.Series(["1", "2"])),
    ("qty", pl.Series([1, 2], dtype=pl.Int64)),
    ("passcode", pl.Series(["55144522", "24224830"])),
    ("line", pl.Series(["1", "2"])),
    ("deck_id", pl.Series([1, 2])),
])
def test_entry_rows_name_a_column_of_another_type(column: str, values: pl.Series) -> None:
    with pytest.raises(InputError) as raised:
        entry_rows(_entries(**{column: values}), "entries")
    assert [(p.file, p.column, p.code) for p in raised.value.problems] == [
        ("entries", column, "BAD_ENTRIES")]
    expected = "String or Categorical" if column == "deck_id" else str(ENTRY_SCHEMA[column])
    assert expected in raised.value.problems[0].message


@pytest.mark.parametrize("column", ["deck_id", "section", "qty"])
def test_entry_rows_name_a_required_column_missing(column: str) -> None:
    with pytest.raises(InputError) as raised:
        entry_rows(_entries().drop(column), "registered lists")
    assert [(p.file, p.column) for p in raised.value.problems] == [("registered lists", column)]


def test_entry_rows_report_every_bad_column_at_once() -> None:
    frame = _entries(section=pl.Series(["main", "side"]), qty=pl.Series(["1", "2"]))
    with pytest.raises(InputError) as raised:
        entry_rows(frame.drop("passcode"), "entries")
    assert [p.column for p in raised.value.problems] == ["section", "qty", "passcode"]


def test_lean_keeps_every_value_and_type() -> None:
    frame = entries_frame([{"deck_id": "a", "section": "main", "passcode": 1, "qty": 3},
                           {"deck_id": "b", "section": "side", "name": "Dark Hole", "qty": 1}])
    assert frame["cell"].null_count() == frame.height
    assert_frame_equal(lean(frame), frame)


# -- deck numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [pl.Utf8, pl.Categorical])
def test_run_starts_are_one_id_per_run(dtype: pl.DataType) -> None:
    frame = pl.DataFrame({"deck_id": pl.Series(["a", "a", "b", "a", "a"], dtype=dtype)})
    starts = run_starts(frame)
    assert starts.dtype == pl.Utf8
    assert starts.to_list() == ["a", "b", "a"]


def test_deck_index_numbers_named_decks_then_entries_then_lists() -> None:
    entries = pl.DataFrame({"deck_id": ["a", "a", "b", "a"]})
    registered = pl.DataFrame({"deck_id": ["b", "c"]})
    index = deck_index(entries, registered, ["z", "b"])
    assert index.rows() == [(0, "z"), (1, "b"), (2, "a"), (3, "c")]
    assert deck_numbers(entries, index).to_list() == [2, 2, 1, 2]
    assert deck_numbers(registered, index).to_list() == [1, 3]


@pytest.mark.parametrize("dtype", [pl.Utf8, pl.Categorical])
def test_deck_numbers_of_decks_in_index_order_are_their_runs(dtype: pl.DataType) -> None:
    entries = pl.DataFrame({"deck_id": pl.Series(["a", "a", "b", "c", "c"], dtype=dtype)})
    index = deck_index(entries, None)
    assert deck_numbers(entries, index).to_list() == [0, 0, 1, 2, 2]
    # the first decks of a longer index (lists of more decks), and a deck in two runs
    longer = pl.DataFrame({"deck_id": ["a", "b", "c", "d"]}).with_row_index("deck")
    assert deck_numbers(entries, longer).to_list() == [0, 0, 1, 2, 2]
    split = pl.DataFrame({"deck_id": pl.Series(["a", "b", "a"], dtype=dtype)})
    assert deck_numbers(split, deck_index(split, None)).to_list() == [0, 1, 0]


# -- the deck rows prepared -----------------------------------------------------------------


def test_prepare_rows_key_each_row_by_card_passcode_or_unresolved(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    entries = entry_rows(entries_frame([
        {"deck_id": "a", "section": "main", "passcode": POT_OF_GREED, "qty": 1},
        {"deck_id": "a", "section": "main", "passcode": 12, "qty": 1},  # no card has it
        {"deck_id": "b", "section": "side", "name": "Qwzx Vvvvvvv", "qty": 2},
    ]), "entries")
    index = deck_index(entries, None)
    rows = prepare_rows(resolve(entries, setup.cards, setup.fmt), index)
    assert not {"deck_id", "how"} & set(rows.columns)
    assert rows.select("row", "deck", "key", "status").rows() == [
        (0, 0, POT_OF_GREED, "ok"), (1, 0, 12, "unknown"), (2, 1, UNRESOLVED_KEY, "unresolved")]
    assert rows["read_from"].null_count() == 3


def test_prepare_rows_keep_the_text_of_a_fuzzy_reading(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    entries = entry_rows(entries_frame([
        {"deck_id": "a", "section": "main", "name": "Pot of Greeed", "qty": 1}]), "entries")
    resolved = resolve(entries, setup.cards, setup.fmt)
    assert resolved["how"].to_list() == ["fuzzy"]
    rows = prepare_rows(resolved, deck_index(entries, None))
    assert rows.select("key", "read_from").rows() == [(POT_OF_GREED, "Pot of Greeed")]


def _deck_rows(rows: list[tuple[int, str, int, int]]) -> pl.DataFrame:
    """(deck, section, key, qty) rows as the engine prepares them, numbered in order."""
    frame = pl.DataFrame(rows, schema={"deck": pl.UInt32, "section": SECTION_ENUM,
                                       "key": pl.Int64, "qty": pl.Int32}, orient="row")
    return frame.with_row_index("row").with_columns(
        pl.when(pl.col("key").is_in([UNRESOLVED_KEY, 12])).then(None).otherwise(pl.col("key"))
        .alias("card_id"))


def test_deck_by_card_counts_copies_per_section_and_points_at_first_rows() -> None:
    rows = _deck_rows([(0, "main", 5, 2), (0, "side", 5, 1), (0, "main", 5, 1),
                       (0, "main", UNRESOLVED_KEY, 1), (1, "extra", 12, 1)])
    table = deck_by_card(rows.lazy()).collect()
    assert table.select("deck", "key", "main", "extra", "side", "total", "row_main",
                        "row_extra", "row_side", "row", "status", "card_id",
                        "passcode").rows() == [
        (0, UNRESOLVED_KEY, 1, 0, 0, 1, 3, None, None, 3, "unresolved", None, None),
        (0, 5, 3, 0, 1, 4, 0, None, 1, 0, "ok", 5, None),
        (1, 12, 0, 1, 0, 1, None, 4, None, 4, "unknown", None, 12),
    ]
    assert table["deck_key"].is_sorted()


_ROW = st.tuples(st.integers(0, 4), st.sampled_from(SECTIONS),
                 st.sampled_from([1, 2, 89631139, 2**32 - 1, UNRESOLVED_KEY]), st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(_ROW, max_size=40))
def test_deck_by_card_equals_a_plain_count(rows: list[tuple[int, str, int, int]]) -> None:
    columns = [*SECTIONS, *(f"row_{s}" for s in SECTIONS)]
    expected: dict[tuple[int, int], dict[str, int | None]] = {}
    for number, (deck, section, key, qty) in enumerate(rows):
        cell = expected.setdefault((deck, key), {c: None if c.startswith("row_") else 0
                                                 for c in columns})
        cell[section] = (cell[section] or 0) + qty
        if cell[f"row_{section}"] is None:
            cell[f"row_{section}"] = number
    table = deck_by_card(_deck_rows(rows).lazy()).collect()
    got = {(r["deck"], r["key"]): {c: r[c] for c in columns}
           for r in table.select("deck", "key", *columns).to_dicts()}
    assert got == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(_ROW, max_size=40))
def test_deck_by_card_of_a_few_rows_is_the_same_table(
        rows: list[tuple[int, str, int, int]]) -> None:
    frame = _deck_rows(rows).lazy()
    assert_frame_equal(deck_by_card_few(frame).collect(), deck_by_card(frame).collect())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-3, 3), st.just(2**62)), max_size=60))
def test_stable_order_is_polars_stable_sort(numbers: list[int | None]) -> None:
    from validator.engine import tables

    series = pl.Series("order", numbers, dtype=pl.Int64)
    expected = series.to_frame().with_row_index("at").sort("order", maintain_order=True)["at"]
    for nearly_sorted, numpy_sort in itertools.product((True, False), (True, False)):
        ordered, got = tables._sorted_order(series, nearly_sorted=nearly_sorted,
                                            numpy_sort=numpy_sort)
        assert ordered.to_list() == series.gather(expected).to_list()
        assert got.dtype == pl.UInt32
        assert got.to_list() == expected.to_list()
        assert sorted(got.to_list()) == list(range(len(numbers)))


def test_deck_sizes_count_no_skill_and_name_the_first_file() -> None:
    index = pl.DataFrame({"deck_id": ["a", "b", "empty"]}).with_row_index("deck")
    deck_cards = pl.DataFrame({
        "deck": pl.Series([0, 0, 1], dtype=pl.UInt32),
        "kind": ["monster", "skill", "spell"],
        "main": pl.Series([3, 1, 2], dtype=pl.Int32),
        "extra": pl.Series([1, 0, 0], dtype=pl.Int32),
        "side": pl.Series([0, 0, 2], dtype=pl.Int32),
        "row": pl.Series([1, 0, 2], dtype=pl.UInt32)})
    files = pl.Series("file", ["a.ydk", "a.ydk", "b.ydk"])
    sizes = deck_sizes(index, deck_cards.lazy(), files)
    assert sizes.select("deck_id", "main", "extra", "side", "source").rows() == [
        ("a", 3, 1, 0, "a.ydk"), ("b", 2, 0, 2, "b.ydk"), ("empty", 0, 0, 0, None)]
    unnamed = deck_sizes(index, deck_cards.lazy(), pl.Series("file", [None] * 3, pl.Utf8))
    assert_frame_equal(unnamed, sizes.with_columns(pl.lit(None, pl.Utf8).alias("source")))


def test_gather_is_null_where_nothing_is_pointed_at() -> None:
    at = pl.Series([2, None, 0], dtype=pl.UInt32)
    assert gather(pl.Series("v", ["x", "y", "z"]), at).to_list() == ["z", None, "x"]
    assert gather(pl.Series("v", [], dtype=pl.Utf8), at).to_list() == [None, None, None]


def test_gather_rows_takes_every_column_at_once_null_where_nothing_is_pointed_at() -> None:
    frame = pl.DataFrame({"v": ["x", "y", "z"], "n": [1, 2, 3]})
    at = pl.Series([2, None, 0], dtype=pl.UInt32)
    assert gather_rows(frame, at).rows() == [("z", 3), (None, None), ("x", 1)]
    assert gather_rows(frame, at.drop_nulls()).rows() == [("z", 3), ("x", 1)]
    empty = gather_rows(frame.clear(), at)
    assert empty.schema == frame.schema
    assert empty.rows() == [(None, None)] * 3


def test_with_cards_is_a_left_join_that_keeps_the_order() -> None:
    cards = pl.DataFrame({"card_id": [30, 10, 20], "limit": [1, None, 0],
                          "kind": ["spell", "monster", "trap"]})
    frame = pl.DataFrame({"card_id": [20, None, 99, 10, 20], "row": [0, 1, 2, 3, 4]},
                         schema={"card_id": pl.Int64, "row": pl.Int64})
    joined = with_cards(frame, cards)
    expected = frame.join(cards, on="card_id", how="left", maintain_order="left")
    assert joined.equals(expected)
    assert joined.schema == expected.schema
    assert joined.rows() == [(20, 0, 0, "trap"), (None, 1, None, None), (99, 2, None, None),
                             (10, 3, None, "monster"), (20, 4, 0, "trap")]
    assert with_cards(frame, cards.clear())["kind"].to_list() == [None] * 5


@pytest.mark.parametrize("order", [[30, 10, 20], [10, 20, 30]])
def test_with_cards_at_gathers_what_with_cards_joins(order: list[int]) -> None:
    """Rows carrying their card's row in the card data get the columns the join gives,
    whether the card table is in the card data's order or not, lacks a card or has none."""
    by_card = pl.DataFrame({"card_id": [30, 10, 20, 40]})
    cards = pl.DataFrame({"card_id": [30, 10, 20], "limit": [1, None, 0],
                          "kind": ["spell", "monster", "trap"]}).sort(
        pl.col("card_id").replace_strict(order, list(range(3))))
    frame = pl.DataFrame({"card_id": [20, None, 40, 10, 20], "row": [0, 1, 2, 3, 4],
                          "card_at": [2, None, 3, 1, 2]},
                         schema={"card_id": pl.Int64, "row": pl.Int64, "card_at": pl.UInt32})
    gathered = with_cards_at(frame, by_position(cards, by_card))
    assert_frame_equal(gathered, with_cards(frame.drop("card_at"), cards))
    assert gathered.rows() == [(20, 0, 0, "trap"), (None, 1, None, None),
                               (40, 2, None, None), (10, 3, None, "monster"),
                               (20, 4, 0, "trap")]
    empty = with_cards_at(frame, by_position(cards.clear(), by_card))
    assert empty["kind"].to_list() == [None] * 5


@pytest.mark.parametrize("flags", [0, 1, 3, 16, 17])
def test_with_cards_at_gathers_boolean_columns_as_they_are(flags: int) -> None:
    """True, False and null in each boolean column, however many the card table has (they
    are gathered packed in one number, up to 16), beside its other columns."""
    values = [True, False, None, True, None]
    cards = pl.DataFrame({
        "card_id": [1, 2, 3, 4, 5], "limit": [1, None, 0, 2, None],
        **{f"flag{i}": pl.Series(values[i % 5:] + values[:i % 5], dtype=pl.Boolean)
           for i in range(flags)},
        "kind": ["spell", "monster", "trap", None, "skill"]})
    cards = pl.concat([cards, cards.clear(1)])  # the row of nulls of ``by_position``
    frame = pl.DataFrame({"row": [0, 1, 2, 3, 4, 5, 6], "card_at": [4, None, 0, 2, 2, 1, 3]},
                         schema={"row": pl.Int64, "card_at": pl.UInt32})
    gathered = with_cards_at(frame, cards)
    expected = frame.drop("card_at").hstack(cards[frame["card_at"].fill_null(5)])
    assert_frame_equal(gathered, expected)
    if flags:
        assert gathered["flag0"].to_list() == [None, None, True, None, None, False, True]


def test_the_deck_by_card_table_carries_each_cards_row() -> None:
    rows = pl.DataFrame({
        "deck": pl.Series([0, 0, 0, 1], dtype=pl.UInt32), "key": [7, 5, 7, 7],
        "section": pl.Series(["main", "main", "side", "main"], dtype=SECTION_ENUM),
        "qty": pl.Series([2, 1, 1, 3], dtype=pl.Int32), "row": pl.Series([0, 1, 2, 3],
                                                                        dtype=pl.UInt32),
        "card_id": [7, None, 7, 7], "card_at": pl.Series([4, None, 4, 4], dtype=pl.UInt32)})
    table = deck_by_card(rows.lazy()).collect()
    assert table.select("deck", "key", "total", "card_at").rows() == [
        (0, 5, 1, None), (0, 7, 3, 4), (1, 7, 3, 4)]
    assert "card_at" not in deck_by_card(rows.drop("card_at").lazy()).collect().columns


def test_rows_in_deck_order_are_flagged_sorted() -> None:
    in_order = pl.DataFrame({"deck": pl.Series([0, 0, 1, 2], dtype=pl.UInt32)})
    assert by_deck(in_order).collect()["deck"].flags["SORTED_ASC"]
    shuffled = in_order.reverse()
    assert not by_deck(shuffled).collect()["deck"].flags["SORTED_ASC"]


@pytest.mark.parametrize("with_lists", [False, True])
def test_decks_in_order_or_shuffled_get_the_same_verdicts(demo_db: CardDB,
                                                          with_lists: bool) -> None:
    """Rows in deck order let polars group them by deck without hashing (a sorted flag); rows in
    any order must give the same verdicts (only locations of the rows differ: none here)."""
    from bench.synth import synthesize

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, 300, seed=11, rate=0.05)
    kwargs = {"cards": demo_db, "fmt": setup.fmt, "banlist": setup.banlist,
              "registered": event.registered if with_lists else None}
    ids = event.decks["deck_id"].unique(maintain_order=True).to_list()
    in_order = check(event.decks, deck_ids=ids, **kwargs)  # type: ignore[arg-type]
    shuffled = check(event.decks.sample(fraction=1.0, shuffle=True, seed=3), deck_ids=ids,
                     **kwargs)  # type: ignore[arg-type]
    assert in_order.violations.height > 20
    columns = [c for c in in_order.violations.columns if c not in ("file", "line")]
    assert_frame_equal(shuffled.violations.select(columns), in_order.violations.select(columns))
    assert_frame_equal(shuffled.decks.drop("source"), in_order.decks.drop("source"))
