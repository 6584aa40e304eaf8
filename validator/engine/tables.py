"""The tables a check is made of: the card attribute table of a (card data, list, format),
the entry frame as the engine takes it, the deck index and the deck rows prepared.

The card attribute table costs more than checking a deck: whoever loads the card data makes
it once (:func:`card_attributes`) and gives it to every check of the same three.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import polars as pl

from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.engine.resolve import RESOLVED_SCHEMA
from validator.errors import InputError, Problem
from validator.inputs.entries import ENTRY_SCHEMA
from validator.text.i18n import LOCAL_LANGS, say
from validator.vocab import SECTIONS, Lang

__all__ = [
    "ENGINE",
    "FEW_PLANS",
    "REQUIRED_COLUMNS",
    "UNRESOLVED_KEY",
    "CardTable",
    "by_deck",
    "by_position",
    "card_attributes",
    "deck_by_card",
    "deck_by_card_few",
    "deck_index",
    "deck_numbers",
    "deck_sizes",
    "entry_rows",
    "entry_rows_few",
    "gather",
    "gather_rows",
    "lean",
    "prepare_rows",
    "run_starts",
    "with_cards",
    "with_cards_at",
]

#: polars' in-memory engine: its streaming engine (polars 2.1) panics on some string
#: expressions the rules use, copies string literals for every row (a third of the page
#: faults of writing a JSON report), and the in-memory one groups pre-sorted keys fastest
ENGINE: Literal["in-memory"] = "in-memory"
#: the query optimizer's passes, all off for the plans of a few decks (a judge's check,
#: ``deckcheck check one.ydk``, the registration page's live check): planning a handful of
#: rows costs more than the passes save there (a tenth to a quarter of a check's CPU); the
#: results are the same with and without them
FEW_PLANS = pl.QueryOptFlags.none()

#: entry columns a frame must have; the others are null where a frame lacks them (no names
#: in a YDK event, no cells outside spreadsheets)
REQUIRED_COLUMNS = ("deck_id", "section", "qty")
#: deck ids may also be categoricals (compared by number: much faster on millions of rows)
_DECK_ID_TYPES = (pl.Utf8, pl.Categorical, pl.Enum)

#: key of a typed name that names no card (one group per deck, for the section sizes)
UNRESOLVED_KEY = -(2**31)
_KEY_BITS = 2**33  # keys lie in [-2**31, 2**32): passcodes, card ids, the unresolved key
_RESOLUTION = RESOLVED_SCHEMA["status"]


@dataclass(frozen=True, eq=False)
class CardTable:
    """The card attribute table of one (card data, list, format), and the list's warnings.

    ``frame`` has one row per card: attributes, the name it counts as, the list's limit and
    points.
    """

    cards: CardDB
    banlist: Banlist
    fmt: Format
    frame: pl.DataFrame
    warnings: tuple[Problem, ...]

    def is_for(self, cards: CardDB, banlist: Banlist, fmt: Format) -> bool:
        """Whether this is the table of exactly these card data, list and format."""
        return self.cards is cards and self.banlist is banlist and self.fmt == fmt


def _source_labels(cards: CardDB, lang: Lang = "en") -> dict[str, str]:
    """Each card source's label as messages name it: file name and the data's date."""
    labels: dict[str, str] = {}
    for source in cards.sources:
        path = str(source.get("source", ""))
        date = source.get("data_date") or source.get("snapshot")
        name = Path(path).name or path
        labels[path] = say(lang, "{name}, data of {date}", name=name, date=date) if date \
            else name
    return labels


def _labelled(labels: dict[str, str], sources: list[str]) -> pl.Expr:
    """The ``source`` column ("a; b": the files a card comes from) with each file's label,
    worked out once per distinct value of the column (a card data has few)."""
    return pl.col("source").replace(
        {value: "; ".join(labels.get(part, part) for part in value.split("; "))
         for value in sources})


def local_names() -> list[pl.Expr]:
    """The card's name in each language besides English (``card_ja``, ...): the name the
    card data has in that language, else the English name with the passcode, so a reader
    can tell it is not a translation. Thai events use the English names (the card data has
    no Thai ones), so ``card_th`` is the English name."""
    passcode = pl.col("passcode").cast(pl.Utf8)
    out = []
    for lang in LOCAL_LANGS:
        if lang == "th":
            out.append(pl.col("name_en").alias("card_th"))
            continue
        own = pl.col(f"name_{lang}")
        fallback = pl.when(passcode.is_not_null()).then(
            pl.format("{} ({})", pl.col("name_en"), passcode)).otherwise(pl.col("name_en"))
        out.append(pl.when(own.is_not_null() & (own != "")).then(own).otherwise(fallback)
                   .alias(f"card_{lang}"))
    return out


def card_attributes(cards: CardDB, banlist: Banlist, fmt: Format) -> CardTable:
    """The card table a check of (card data, list, format) uses, and the list's warnings.

    A card named on the format's own list counts as released in the format's card pool
    (the list is the region's own statement), whatever the card data says. ``unreleased``
    holds the regions a source calls the card unreleased in (YGOJSON's "unreleased").
    """
    bound = banlist.bind(cards)
    limits = bound.cards
    if fmt.forbidden_as_limited:
        limits = limits.with_columns(
            pl.when(pl.col("limit") == 0).then(1).otherwise(pl.col("limit")).alias("limit"))
    sources = cards.by_card["source"].drop_nulls().unique().to_list()
    attrs = cards.by_card.select(
        "card_id", "name_id", pl.col("name_en").alias("card"), *local_names(), "kind",
        pl.col("extra").alias("is_extra"), "rush", pl.col("legend").alias("is_legend"),
        "subtypes", "pools", pl.col("points").alias("card_points"),
        _labelled(_source_labels(cards), sources).alias("source"),
        *[_labelled(_source_labels(cards, lang), sources).alias(f"source_{lang}")
          for lang in LOCAL_LANGS])
    said = (
        cards.legality.filter(pl.col("status") == "unreleased")
        .join(cards.printings.select("passcode", "card_id"), on="passcode")
        .group_by("card_id").agg(pl.col("region").unique().sort().alias("unreleased"))
    )
    attrs = attrs.join(said, on="card_id", how="left", maintain_order="left").with_columns(
        pl.col("unreleased").fill_null(pl.lit([], pl.List(pl.Utf8))))
    names = attrs.select(pl.col("card_id").alias("name_id"), pl.col("card").alias("counts_as"),
                         *[pl.col(f"card_{lang}").alias(f"counts_as_{lang}")
                           for lang in LOCAL_LANGS])
    treated = pl.col("name_id") != pl.col("card_id")
    joined = (
        attrs.join(limits, on="card_id", how="left")
        .join(names, on="name_id", how="left")
        .with_columns(
            pl.col("listed").fill_null(False),
            (pl.len().over("name_id") > 1).alias("folded"),
            *[pl.when(treated).then(pl.col(column)).alias(column)
              for column in ("counts_as", *(f"counts_as_{lang}" for lang in LOCAL_LANGS))],
        )
    )
    if fmt.card_pool and fmt.owns_list(banlist.name):
        joined = joined.with_columns(
            pl.when(pl.col("listed"))
            .then(pl.concat_list("pools", pl.lit(fmt.card_pool)).list.unique().list.sort())
            .otherwise(pl.col("pools")).alias("pools"))
    points = pl.col("points").fill_null(0.0) if banlist.genesys else pl.col("card_points")
    frame = joined.with_columns(points.alias("points")).drop("card_points")
    return CardTable(cards, banlist, fmt, frame, tuple(bound.warnings))


def _type_problems(frame: pl.DataFrame, label: str) -> list[Problem]:
    """A problem for each entry column missing or of another type than the engine takes."""
    schema = frame.schema
    problems: list[Problem] = []
    for column, expected in ENTRY_SCHEMA.items():
        given = schema.get(column)
        if given is None:
            if column in REQUIRED_COLUMNS:
                problems.append(Problem(label, None, column,
                                        f"no {column!r} column (expected {expected})",
                                        code="BAD_ENTRIES"))
            continue
        if column == "deck_id":
            fits = isinstance(given, _DECK_ID_TYPES)
            wanted = "String or Categorical"
        else:
            fits = given == expected or (given == pl.Null and column not in REQUIRED_COLUMNS)
            wanted = str(expected)
        if not fits:
            problems.append(Problem(label, None, column,
                                    f"column {column!r} is {given}: expected {wanted}",
                                    code="BAD_ENTRIES"))
    if "passcode" not in schema and "name" not in schema:
        problems.append(Problem(label, None, "passcode",
                                "no 'passcode' nor 'name' column: expected at least one",
                                code="BAD_ENTRIES"))
    return problems


def entry_rows(frame: pl.DataFrame, label: str) -> pl.DataFrame:
    """An entry frame as the engine takes it: its schema checked against ``ENTRY_SCHEMA``
    (``InputError`` naming each column missing or of another type; no per-row work), then
    exactly the entry columns in order, those entirely null as constants (:func:`lean`)."""
    problems = _type_problems(frame, label)
    if problems:
        raise InputError(problems)
    return lean(frame.select(
        [pl.col(c).cast(t) if frame.schema.get(c) == pl.Null else pl.col(c)
         if c in frame.columns else pl.lit(None, t).alias(c) for c, t in ENTRY_SCHEMA.items()]))


def lean(frame: pl.DataFrame) -> pl.DataFrame:
    """Columns that are entirely null (no names in a YDK event, no cells outside
    spreadsheets) become constant columns, which take no memory per row."""
    empty = [c for c in frame.columns if frame[c].null_count() == frame.height]
    return frame.with_columns(pl.lit(None, frame.schema[c]).alias(c) for c in empty)


def run_starts(frame: pl.DataFrame) -> pl.Series:
    """The deck id at the start of each run of equal deck ids (readers write decks whole).

    Deck ids may be strings or categoricals (compared by number: much faster on millions
    of rows); the run starts, one per deck, are strings.
    """
    ids = frame["deck_id"]
    return ids.filter(ids.ne_missing(ids.shift())).cast(pl.Utf8)


def deck_index(entries: pl.DataFrame, registered: pl.DataFrame | None,
               deck_ids: list[str] | None = None) -> pl.DataFrame:
    """Every deck of a check numbered from 0 (``deck``, ``deck_id``): the decks named in
    ``deck_ids`` first, then those of the entries and of the lists, as they come."""
    ids = [pl.Series(deck_ids or [], dtype=pl.Utf8), run_starts(entries)] + (
        [run_starts(registered)] if registered is not None else [])
    return pl.concat(ids).unique(maintain_order=True).to_frame("deck_id").with_row_index("deck")


def deck_numbers(frame: pl.DataFrame, index: pl.DataFrame) -> pl.Series:
    """Each row's deck number: one lookup per run of equal deck ids, gathered by run (none
    when the runs are the first decks of the index in order, as a check of one frame
    numbers them)."""
    starts = run_starts(frame)
    runs = frame["deck_id"].rle_id()
    if starts.equals(index["deck_id"].head(starts.len())):
        return runs.alias("deck")  # the n-th run is deck n
    run_deck = starts.to_frame().join(
        index, on="deck_id", how="left", maintain_order="left")["deck"]
    return run_deck.gather(runs)


def prepare_rows(resolved: pl.DataFrame, index: pl.DataFrame) -> pl.DataFrame:
    """Resolved entries with their deck number, comparison key and row number.

    The deck number comes from a lookup per run of equal deck ids (gathered by run number),
    not a string join per row. ``key`` is the card name (``card_id``), the passcode of an
    unknown card, or ``UNRESOLVED_KEY`` for a typed name that names no card.
    """
    deck = resolved["deck"] if "deck" in resolved.columns else deck_numbers(resolved, index)
    key = pl.coalesce("card_id", "passcode", pl.lit(UNRESOLVED_KEY, pl.Int64))
    # the deck id string is no longer needed per row: the index maps numbers to ids
    # the typed text of fuzzy readings; a constant null column when there are none
    fuzzy = (pl.when(pl.col("how") == "fuzzy").then(pl.col("name"))
             if bool((resolved["how"] == "fuzzy").any()) else pl.lit(None, pl.Utf8))
    # lazily: an eager drop would copy every column whose chunks differ from the new ones
    return resolved.lazy().with_columns(deck.alias("deck"), key.alias("key"),
                                        fuzzy.alias("read_from")).drop(
        "deck_id", "how").with_row_index("row").collect(engine=ENGINE)


def deck_by_card(rows: pl.LazyFrame, *, numpy_sort: bool = False) -> pl.LazyFrame:
    """One row per (deck, key): copies in main, extra and side, and each section's first row.

    Rows are put in order of one packed 64-bit (deck, key, section) number by one stable
    sort of that number (:func:`_sorted_order`), then the last row of each (deck, key) run
    is gathered: most are the only row of their run and hold the figures as they are; the
    few runs of several rows (a card in main and side) are summed by a ``group_by`` of their
    rows alone and written over their last rows. This is the one pass over every entry of
    the event. The result is sorted by ``deck_key`` (rules rely on it to merge two tables in
    order). ``numpy_sort``: numpy may sort (a check in chunks, whose many sorts pay for its
    import; one sort of 100,000 decks gains less than that).
    """
    deck_key = pl.col("deck").cast(pl.Int64) * _KEY_BITS + (pl.col("key") - UNRESOLVED_KEY)
    section = pl.col("section").to_physical().cast(pl.Int64)
    # the card's row in the card data (``resolve(positions=True)``), carried when given
    carried = ["card_at"] if "card_at" in rows.collect_schema() else []
    given = rows.select(
        (deck_key * 4 + section).alias("order"), deck_key.alias("deck_key"), "deck", "key",
        "qty", "row", pl.col("section").to_physical(),
        # a number, not a boolean: gathered about twice as fast
        pl.col("card_id").is_not_null().cast(pl.UInt8).alias("known"),
        *carried).collect(engine=ENGINE)
    numbers, order = _sorted_order(given["order"], nearly_sorted=given["deck"].is_sorted(),
                                   numpy_sort=numpy_sort)
    sorted_key = numbers // 4
    del numbers  # (its memory reused)
    keys = sorted_key.to_frame("deck_key").select(
        pl.col("deck_key").ne_missing(pl.col("deck_key").shift(1)).alias("first"),
        pl.col("deck_key").ne_missing(pl.col("deck_key").shift(-1)).alias("last"))
    ends = order.filter(keys["last"])  # each run's last row
    # in one chunk first: a gather from the chunks of a collect is several times slower
    given = given.drop("order").rechunk()
    table = given[ends]
    in_section = {s: pl.col("section") == i for i, s in enumerate(SECTIONS)}
    table = table.select(
        "deck_key", *[pl.when(in_section[s]).then(pl.col("qty")).otherwise(0).alias(s)
                      for s in SECTIONS],
        *[pl.when(in_section[s]).then(pl.col("row")).alias(f"row_{s}") for s in SECTIONS],
        "deck", "key", pl.col("qty").alias("total"), "row", "known", *carried)
    several = ~(keys["first"] & keys["last"])
    if several.any():  # the runs of several rows, summed and written over their last rows
        runs = (
            given[order.filter(several)].lazy().group_by("deck_key", maintain_order=True)
            .agg(*[pl.col("qty").filter(in_section[s]).sum().cast(pl.Int32).alias(s)
                   for s in SECTIONS],
                 *[pl.col("row").filter(in_section[s]).min().alias(f"row_{s}")
                   for s in SECTIONS])
            .with_columns(pl.sum_horizontal(*SECTIONS).cast(pl.Int32).alias("total"),
                          pl.min_horizontal(*(f"row_{s}" for s in SECTIONS)).alias("row"))
            .collect(engine=ENGINE))
        at = several.filter(keys["last"]).arg_true()
        # each column taken out of the table to be written: a column that only the table
        # holds is then written in place, not copied whole into memory not touched yet
        columns = table.columns
        written = {c: table.drop_in_place(c).scatter(at, runs[c]) for c in runs.columns
                   if c != "deck_key"}
        table = pl.DataFrame([written[c] if c in written else table.get_column(c)
                              for c in columns])
    known = pl.col("known") == 1
    return table.lazy().with_columns(
        pl.when(known).then(pl.lit("ok", _RESOLUTION))
        .when(pl.col("key") == UNRESOLVED_KEY).then(pl.lit("unresolved", _RESOLUTION))
        .otherwise(pl.lit("unknown", _RESOLUTION)).alias("status"),
        pl.when(known).then(pl.col("key")).alias("card_id"),
        pl.when(~known & (pl.col("key") != UNRESOLVED_KEY)).then(pl.col("key"))
        .alias("passcode"),
    ).drop("known")


def _sorted_order(numbers: pl.Series, *, nearly_sorted: bool = True,
                  numpy_sort: bool = True) -> tuple[pl.Series, pl.Series]:
    """``numbers`` in ascending order (nulls first), and their positions, equal numbers in
    the order they come (a stable sort). ``nearly_sorted``: in order but within short runs
    (the packed numbers of decks given whole and in order), where numpy's stable sort of one
    column is about twice as fast as polars' on millions of rows, when ``numpy_sort``; else
    (numpy's is slower on numbers in no order), or when some number is null, polars' own,
    which gives both at once (no gather of the numbers after it)."""
    if not numpy_sort or numbers.has_nulls() or not nearly_sorted:
        # numpy would read nulls as NaN, last
        both = numbers.to_frame().with_row_index("at").sort(numbers.name, maintain_order=True)
        return both[numbers.name], both["at"]
    import numpy as np  # only a check of many decks needs it

    order = pl.Series(numbers.name, np.argsort(numbers.rechunk().to_numpy(), kind="stable")
                      ).cast(pl.UInt32)
    return numbers.gather(order), order


def with_cards(frame: pl.DataFrame, cards: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the other columns of ``cards`` (one row per ``card_id``) of each row's
    card, null where the row has no card or the table lacks it: a left join that keeps
    ``frame``'s order, by a join of the card ids alone and one gather of the other columns
    (a join that carries them sorts every column back, several times slower). A row
    without a card points at a row of nulls added below the cards: a gather with no nulls
    to skip is several times faster."""
    others = cards.drop("card_id")
    at = frame.select("card_id").join(
        cards.select("card_id").with_row_index("at"), on="card_id", how="left",
        maintain_order="left")["at"].fill_null(cards.height)
    return frame.hstack(pl.concat([others, others.clear(1)]).rechunk()[at])


def by_position(cards: pl.DataFrame, by_card: pl.DataFrame) -> pl.DataFrame:
    """The columns of ``cards`` (one row per ``card_id``) but ``card_id``, row for row in the
    order of the card data's ``by_card`` (nulls for a card ``cards`` lacks), and a row of
    nulls below: what :func:`with_cards_at` gathers from."""
    if cards["card_id"].equals(by_card["card_id"]):
        others = cards.drop("card_id")
    else:
        others = by_card.select("card_id").join(
            cards, on="card_id", how="left", maintain_order="left").drop("card_id")
    return pl.concat([others, others.clear(1)]).rechunk()


def with_cards_at(frame: pl.DataFrame, cards: pl.DataFrame) -> pl.DataFrame:
    """:func:`with_cards` of a frame that carries each row's card's row in the card data
    (``card_at``, null without a card) and a card table made by :func:`by_position`: one
    gather, no lookup; ``card_at`` is dropped."""
    at = frame["card_at"].fill_null(cards.height - 1)
    others = frame.clone()  # the columns shared, not copied
    others.drop_in_place("card_at")  # (``drop`` took longer than the gather itself)
    return others.hstack(_gathered(cards, at))


#: the most boolean columns :func:`_gathered` packs into one number (two bits each)
_PACKED = 16


def _gathered(cards: pl.DataFrame, at: pl.Series) -> pl.DataFrame:
    """``cards[at]``, its boolean columns packed first into one number per card (for each,
    a bit for "not null" and one for its value), gathered once and unpacked: a gather of
    booleans reads and writes bit by bit, a few times slower than one of numbers."""
    flags = [c for c, dtype in cards.schema.items() if dtype == pl.Boolean]
    if not 2 <= len(flags) <= _PACKED:
        return cards[at]
    bit = {c: 1 << (2 * i) for i, c in enumerate(flags)}
    packed = pl.sum_horizontal(
        pl.col(c).is_not_null().cast(pl.UInt32) * bit[c]
        + pl.col(c).fill_null(False).cast(pl.UInt32) * (bit[c] << 1) for c in flags)
    picked = cards.select(pl.exclude(flags), packed.alias("__flags"))[at]
    return picked.select(
        pl.when((pl.col("__flags") & bit[c]) != 0)
        .then((pl.col("__flags") & (bit[c] << 1)) != 0).alias(c) if c in bit else pl.col(c)
        for c in cards.columns)


def by_deck(rows: pl.DataFrame) -> pl.LazyFrame:
    """Rows to group by deck: flagged sorted when their deck numbers run in order (decks
    whole and in order, as readers write them), so polars groups them without hashing."""
    return rows.lazy().set_sorted("deck") if rows["deck"].is_sorted() else rows.lazy()


def gather(values: pl.Series, at: pl.Series) -> pl.Series:
    """``values[at]``, null where ``at`` is null (or nothing can be gathered)."""
    if values.is_empty():
        return pl.Series(values.name, [None] * len(at), dtype=values.dtype)
    picked = values.gather(at.fill_null(0))
    return picked.to_frame().select(pl.when(at.is_not_null()).then(pl.col(values.name)))[
        values.name]


def gather_rows(frame: pl.DataFrame, at: pl.Series) -> pl.DataFrame:
    """The rows ``frame[at]`` (all columns at once), null where ``at`` is null."""
    if frame.is_empty():
        return pl.DataFrame({c: pl.Series(c, [None] * len(at), dtype=t)
                             for c, t in frame.schema.items()})
    picked = frame[at.fill_null(0).cast(pl.UInt32)]
    if not at.has_nulls():
        return picked
    missing = at.is_null()
    return picked.select(pl.when(~missing).then(pl.col(c)).alias(c) for c in frame.columns)


def deck_sizes(index: pl.DataFrame, deck_cards: pl.LazyFrame,
               files: pl.Series) -> pl.DataFrame:
    """One row per deck of ``index``: its main, extra and side card counts, and the file of
    its first row (``source``; ``files`` holds each entry row's file).

    A Skill card is not a card of the deck (Speed Duel: it starts the duel outside it).
    """
    main = pl.when(pl.col("kind") == "skill").then(0).otherwise(pl.col("main"))
    # no file named (decks given as a frame): no deck's first row to look for
    named = files.null_count() < files.len()
    counted = index.lazy().join(
        deck_cards.set_sorted("deck").group_by("deck", maintain_order=True).agg(
            main.sum().alias("main"), pl.col("extra", "side").sum(),
            pl.col("row").min() if named else pl.lit(None, pl.UInt32).alias("row")),
        on="deck", how="left",
    ).with_columns(pl.col(*SECTIONS).fill_null(0)).collect(engine=ENGINE)
    if not named:
        return counted.with_columns(pl.lit(None, files.dtype).alias("source")).drop("row")
    sources = gather(files, counted["row"])
    return counted.with_columns(
        pl.when(pl.col("row").is_not_null()).then(sources).alias("source")).drop("row")


#: the entry columns as a frame's schema, in order
_ENTRY_SCHEMA = pl.Schema(ENTRY_SCHEMA)


def entry_rows_few(frame: pl.DataFrame, label: str) -> pl.DataFrame:
    """:func:`entry_rows` of a few rows (a deck or a few): the same frame in one pass, its
    entirely null columns left as they are (a few rows take little memory); a frame of
    exactly the entry columns, in order and of their types, as it is (no pass)."""
    if frame.schema == _ENTRY_SCHEMA:
        return frame
    problems = _type_problems(frame, label)
    if problems:
        raise InputError(problems)
    return frame.select(
        [pl.col(c).cast(t) if frame.schema.get(c) == pl.Null else pl.col(c)
         if c in frame.columns else pl.lit(None, t).alias(c) for c, t in ENTRY_SCHEMA.items()])


def deck_by_card_few(rows: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`deck_by_card` of a few rows as one plan (no pass of its own), the same rows
    and columns: each (deck, key) summed by a ``group_by``, then sorted by ``deck_key``."""
    keyed, sums, shaped = _deck_by_card_few_exprs()
    return rows.select(*keyed).group_by("deck_key").agg(*sums).sort("deck_key") \
        .select(*shaped)


@cache  # built once: the same expressions serve every check of a few decks
def _deck_by_card_few_exprs() -> tuple[list[pl.Expr], list[pl.Expr], list[pl.Expr]]:
    """The columns of :func:`deck_by_card_few`: the rows keyed, the sums per (deck, key),
    and the table's columns in :func:`deck_by_card`'s order and types."""
    deck_key = pl.col("deck").cast(pl.Int64) * _KEY_BITS + (pl.col("key") - UNRESOLVED_KEY)
    keyed = [deck_key.alias("deck_key"), pl.col("deck"), pl.col("key"), pl.col("qty"),
             pl.col("row"), pl.col("section").to_physical(),
             pl.col("card_id").is_not_null().alias("known")]
    in_section = {s: pl.col("section") == i for i, s in enumerate(SECTIONS)}
    sums = [*[pl.col("qty").filter(in_section[s]).sum().cast(pl.Int32).alias(s)
              for s in SECTIONS],
            *[pl.col("row").filter(in_section[s]).min().alias(f"row_{s}") for s in SECTIONS],
            pl.col("deck").first(), pl.col("key").first(),
            pl.col("qty").sum().cast(pl.Int32).alias("total"), pl.col("row").min(),
            pl.col("known").last()]
    known = pl.col("known")
    shaped = [
        pl.col("deck_key"), *[pl.col(s) for s in SECTIONS],
        *[pl.col(f"row_{s}") for s in SECTIONS], pl.col("deck"), pl.col("key"),
        pl.col("total"), pl.col("row"),
        pl.when(known).then(pl.lit("ok", _RESOLUTION))
        .when(pl.col("key") == UNRESOLVED_KEY).then(pl.lit("unresolved", _RESOLUTION))
        .otherwise(pl.lit("unknown", _RESOLUTION)).alias("status"),
        pl.when(known).then(pl.col("key")).alias("card_id"),
        pl.when(~known & (pl.col("key") != UNRESOLVED_KEY)).then(pl.col("key"))
        .alias("passcode")]
    return keyed, sums, shaped
