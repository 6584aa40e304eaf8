"""Each deck's verdict, and the violations located back at the rows they point at.

A deck is ``illegal`` when it breaks a rule, ``needs_decision`` when the head judge must
first settle an entry (an unresolved name, an unreadable row of its list), else ``legal``;
while a decision is open, the verdicts that count the whole deck or list wait (``held``).
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules import COMPARING_CODES, COUNTING_CODES, DECISION_CODES
from validator.engine.tables import gather_rows
from validator.errors import Problem
from validator.vocab import SECTIONS, STATUS_ENUM

__all__ = [
    "UNREADABLE_SCHEMA",
    "held_plan",
    "locate",
    "located_few",
    "open_decisions",
    "statuses",
    "statuses_plan",
    "unreadable_by_deck",
    "unreadable_rows",
    "verdicts_few",
    "verdicts_plan",
]

#: a deck's verdict: it breaks a rule, the head judge must settle an entry first, or legal

#: the rows of lists that could not be read, for UNREADABLE_ROW: ``on_list`` when the row
#: belongs to the registered list of a compared deck rather than to the checked entries
UNREADABLE_SCHEMA: dict[str, pl.DataType] = {
    "deck_id": pl.Utf8(), "section": pl.Enum(list(SECTIONS)), "file": pl.Utf8(),
    "line": pl.Int32(), "cell": pl.Utf8(), "message": pl.Utf8(), "on_list": pl.Boolean(),
}

_LOCATION = ("passcode", "file", "line", "cell", "read_from")


def unreadable_rows(problems: list[Problem], on_list: bool) -> pl.DataFrame:
    """The rows of players' lists (or decks) that could not be read, for UNREADABLE_ROW."""
    rows = [(p.deck_id, p.section or "main", p.file, p.line, p.column, p.message, on_list)
            for p in problems if p.deck_id]
    if not rows:  # most players' lists: made once
        return _NO_UNREADABLE
    return pl.DataFrame(rows, schema=UNREADABLE_SCHEMA, orient="row")


#: no unreadable row (polars frames are not changed in place)
_NO_UNREADABLE = pl.DataFrame(schema=UNREADABLE_SCHEMA)


def unreadable_by_deck(frame: pl.DataFrame | None, index: pl.DataFrame) -> pl.DataFrame:
    """Unreadable rows by deck number (rows of decks outside ``index`` are dropped)."""
    rows = pl.DataFrame(schema=UNREADABLE_SCHEMA) if frame is None else frame.select(
        [pl.col(c).cast(t) if c in frame.columns else pl.lit(None, t).alias(c)
         for c, t in UNREADABLE_SCHEMA.items()])
    return rows.join(index, on="deck_id", how="inner").drop("deck_id")


def _locate_in(found: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    picked = gather_rows(rows.select(_LOCATION), found["row"])
    return found.with_columns(pl.coalesce(found[c], picked[c]).alias(c) for c in _LOCATION)


def locate(found: pl.DataFrame, rows: pl.DataFrame,
           registered: pl.DataFrame | None = None) -> pl.DataFrame:
    """Fill passcode, file, line, cell and read_from of violations from the entry row they
    point at: a row of the deck's, or of the list's (``registered``) when ``on_list``."""
    if registered is None:
        return _locate_in(found, rows)
    on_list = found["on_list"].fill_null(False)
    return pl.concat([_locate_in(found.filter(~on_list), rows),
                      _locate_in(found.filter(on_list), registered)])


def open_decisions(rows: pl.DataFrame | None, unread: pl.DataFrame, *,
                   on_list: bool) -> pl.Series:
    """Deck numbers with a decision open on one side (the checked rows, or the lists when
    ``on_list``): a name that names no card, or a row that could not be read."""
    unresolved = (rows.filter(pl.col("status") == "unresolved")["deck"] if rows is not None
                  else pl.Series([], dtype=pl.UInt32))
    side = pl.col("on_list") if on_list else ~pl.col("on_list")
    return pl.concat([unresolved, unread.filter(side)["deck"]])


def statuses(found: pl.DataFrame, decks: pl.DataFrame, open_decks: pl.Series,
             open_lists: pl.Series) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Mark the violations that wait for a decision (``held``) and each deck's status.

    A counting verdict waits while its own side (the deck's rows, or the list's) has an
    open decision; the list comparison waits while either side has one.
    """
    found = found.with_columns(*_held(open_decks, open_lists))
    facts = found.filter(~pl.col("held") & ~pl.col("decision"))["deck"].implode()
    pending = found.filter(pl.col("held") | pl.col("decision"))["deck"].implode()
    status = (pl.when(pl.col("deck").is_in(facts)).then(pl.lit("illegal", STATUS_ENUM))
              .when(pl.col("deck").is_in(pending)).then(pl.lit("needs_decision", STATUS_ENUM))
              .otherwise(pl.lit("legal", STATUS_ENUM)))
    decks = decks.lazy().with_columns(status.alias("status")).with_columns(
        (pl.col("status") == "legal").alias("legal")).collect(engine="in-memory")
    return found, decks


def _held(open_decks: pl.Series, open_lists: pl.Series) -> tuple[pl.Expr, pl.Expr]:
    """Over violation rows: ``held`` (waits for a decision) and ``decision`` (is one)."""
    on_list = pl.col("on_list").fill_null(False)
    deck_open = pl.col("deck").is_in(pl.lit(open_decks).implode())
    list_open = pl.col("deck").is_in(pl.lit(open_lists).implode())
    held = pl.col("code").is_in(list(COUNTING_CODES)) & (
        (~on_list & deck_open) | (on_list & list_open)
        | (pl.col("code").is_in(list(COMPARING_CODES)) & (deck_open | list_open)))
    return held.alias("held"), pl.col("code").is_in(list(DECISION_CODES)).alias("decision")


def _located_in(found: pl.LazyFrame, rows: pl.LazyFrame) -> pl.LazyFrame:
    picked, filled, dropped = _LOCATED
    return found.join(rows.select(picked), on="row", how="left",
                      maintain_order="left").with_columns(filled).drop(dropped)


#: the columns of :func:`_located_in`: the rows' location columns picked, the violations'
#: filled from them, and the picked ones dropped (built once for every check)
_LOCATED: tuple[list[pl.Expr], list[pl.Expr], list[str]] = (
    [pl.col("row"), *(pl.col(c).alias(f"__{c}") for c in _LOCATION)],
    [pl.coalesce(pl.col(c), pl.col(f"__{c}")).alias(c) for c in _LOCATION],
    [f"__{c}" for c in _LOCATION])


def statuses_plan(found: pl.LazyFrame, rows: pl.LazyFrame, registered: pl.LazyFrame | None,
                  open_decks: pl.Series, open_lists: pl.Series) -> pl.LazyFrame:
    """:func:`locate` and the violations of :func:`statuses` as a plan (a check of a few
    decks collects it with others at once): the same rows."""
    if registered is None:
        located = _located_in(found, rows)
    else:
        on_list = pl.col("on_list").fill_null(False)
        located = pl.concat([_located_in(found.filter(~on_list), rows),
                             _located_in(found.filter(on_list), registered)])
    return located.with_columns(*_held(open_decks, open_lists))


def held_plan(found: pl.LazyFrame, open_decks: pl.Series,
              open_lists: pl.Series) -> pl.LazyFrame:
    """The violations marked as in :func:`statuses_plan`, not located: all that
    :func:`verdicts_plan` reads of them."""
    return found.with_columns(*_held(open_decks, open_lists))


def verdicts_plan(found: pl.LazyFrame, decks: pl.LazyFrame) -> pl.LazyFrame:
    """The decks of :func:`statuses` as a plan, over the violations of
    :func:`statuses_plan`: the same statuses."""
    flags = found.group_by("deck").agg(
        (~pl.col("held") & ~pl.col("decision")).any().alias("__fact"),
        (pl.col("held") | pl.col("decision")).any().alias("__pending"))
    status = (pl.when(pl.col("__fact")).then(pl.lit("illegal", STATUS_ENUM))
              .when(pl.col("__pending")).then(pl.lit("needs_decision", STATUS_ENUM))
              .otherwise(pl.lit("legal", STATUS_ENUM)))
    return decks.join(flags, on="deck", how="left", maintain_order="left").with_columns(
        status.alias("status")).with_columns((pl.col("status") == "legal").alias("legal")) \
        .drop("__fact", "__pending")


def located_few(found: pl.DataFrame, rows: pl.DataFrame, registered: pl.DataFrame | None,
                open_decks: set[int], open_lists: set[int]) -> pl.DataFrame:
    """:func:`statuses_plan` collected, read in Python over a handful of violations (every
    one of a deck: ``deck`` is never null): the same rows, in the same order, without a
    polars pass."""
    on_list = [bool(flag) for flag in found.get_column("on_list").to_list()]
    order = list(range(found.height)) if registered is None else (
        [at for at, flag in enumerate(on_list) if not flag]
        + [at for at, flag in enumerate(on_list) if flag])
    placed = found.clone() if order == sorted(order) else found[pl.Series(order, dtype=pl.UInt32)]
    on_list = [on_list[at] for at in order]
    found_rows = placed.get_column("row").to_list()
    sources = {False: _positions(rows), True: _positions(registered if registered is not None
                                                         else rows)}
    for column in _LOCATION:
        values = placed.get_column(column).to_list()
        for at, row in enumerate(found_rows):
            if values[at] is None and row is not None:
                frame, position = sources[on_list[at]]
                if row in position:
                    values[at] = frame.get_column(column)[position[row]]
        placed.replace_column(placed.get_column_index(column), pl.Series(
            column, values, dtype=placed.schema[column]))
    codes = placed.get_column("code").to_list()
    held = []
    for code, deck, listed in zip(codes, placed.get_column("deck").to_list(), on_list,
                                  strict=True):
        deck_open, list_open = deck in open_decks, deck in open_lists
        held.append(code in COUNTING_CODES and (
            (not listed and deck_open) or (listed and list_open)
            or (code in COMPARING_CODES and (deck_open or list_open))))
    return placed.hstack([pl.Series("held", held, dtype=pl.Boolean),
                          pl.Series("decision", [code in DECISION_CODES for code in codes],
                                    dtype=pl.Boolean)])


def _positions(frame: pl.DataFrame) -> tuple[pl.DataFrame, dict[int, int]]:
    """A frame of entry rows, and where each of its ``row`` numbers is in it."""
    return frame, {row: at for at, row in enumerate(frame.get_column("row").to_list())}


def verdicts_few(found: pl.DataFrame, decks: pl.DataFrame) -> pl.DataFrame:
    """:func:`verdicts_plan` collected, read in Python over a handful of violations (marked
    as :func:`located_few` marks them): the same decks and statuses."""
    facts: set[int] = set()
    pending: set[int] = set()
    for deck, held, decision in zip(*(found.get_column(c).to_list()
                                      for c in ("deck", "held", "decision")), strict=True):
        (pending if held or decision else facts).add(deck)
    numbers = decks.get_column("deck").to_list()
    if numbers != sorted(numbers):
        order = sorted(range(len(numbers)), key=numbers.__getitem__)
        decks, numbers = decks[pl.Series(order, dtype=pl.UInt32)], [numbers[at] for at in order]
    status = ["illegal" if deck in facts else "needs_decision" if deck in pending else "legal"
              for deck in numbers]
    return decks.hstack([pl.Series("status", status, dtype=STATUS_ENUM),
                         pl.Series("legal", [s == "legal" for s in status], dtype=pl.Boolean)])
