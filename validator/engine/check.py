"""The legality engine: every rule over every deck in one lazy polars plan.

Readers give entries (one long table for all decks); :func:`check` resolves them to card
names, attaches card attributes and list limits with joins, prepares the shared per-card,
per-section and per-deck frames once, lets every registered rule add its failing rows, and
collects all of it in one go. No Python code runs per deck.
"""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import polars as pl

from validator.cards.banlist import Banlist, stale_hint
from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.engine.resolve import RESOLVED_SCHEMA, resolve
from validator.engine.rules import (
    CODES,
    COMPARING_CODES,
    COUNTING_CODES,
    DECISION_CODES,
    MODULES,
    VIOLATION_SCHEMA,
    Context,
)
from validator.errors import Problem
from validator.inputs.entries import conform
from validator.vocab import SECTIONS, STATUS_ENUM

__all__ = [
    "STATUS",
    "UNREADABLE_SCHEMA",
    "CheckResult",
    "card_attributes",
    "check",
    "code_counts",
    "combine",
    "deck_by_card",
    "fingerprints",
    "prepare_rows",
    "same_as_listed",
    "unreadable_rows",
]

#: a deck's verdict: it breaks a rule, the head judge must settle an entry first, or legal
STATUS = STATUS_ENUM

_CODE_ORDER = pl.Enum(list(CODES))
#: polars' in-memory engine: its streaming engine (polars 2.1) panics on some string
#: expressions the rules use, copies string literals for every row (a third of the page
#: faults of writing a JSON report), and the in-memory one groups pre-sorted keys fastest
ENGINE: Literal["in-memory"] = "in-memory"


@dataclass
class CheckResult:
    """Verdicts: ``decks`` (one row per deck) and ``violations`` (one row per violation)."""

    decks: pl.DataFrame
    violations: pl.DataFrame
    format: Format
    banlist: str
    cards: str
    resolved: pl.DataFrame  # entries not plainly resolved: unknown, unresolved, fuzzy
    warnings: list[Problem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage

    def counts(self) -> dict[str, int]:
        """Violations per code, in registry order."""
        return code_counts(self.violations)


def code_counts(violations: pl.DataFrame) -> dict[str, int]:
    """How many violations of each code, in registry order."""
    by_code = dict(violations.group_by("code").len().iter_rows())
    return {code: int(by_code[code]) for code in CODES if code in by_code}


def _source_labels(cards: CardDB) -> dict[str, str]:
    """Each card source's label as messages name it: file name and the data's date."""
    labels: dict[str, str] = {}
    for source in cards.sources:
        path = str(source.get("source", ""))
        date = source.get("data_date") or source.get("snapshot")
        name = Path(path).name or path
        labels[path] = f"{name}, data of {date}" if date else name
    return labels


def _attributes(cards: CardDB, banlist: Banlist, fmt: Format) -> tuple[pl.DataFrame,
                                                                       list[Problem]]:
    """One row per card: attributes, the name it counts as, the list's limit and points.

    A card named on the format's own list counts as released in the format's card pool
    (the list is the region's own statement), whatever the card data says.
    """
    bound = banlist.bind(cards)
    limits = bound.cards
    if fmt.forbidden_as_limited:
        limits = limits.with_columns(
            pl.when(pl.col("limit") == 0).then(1).otherwise(pl.col("limit")).alias("limit"))
    labels = _source_labels(cards)
    attrs = cards.by_card.select(
        "card_id", "name_id", pl.col("name_en").alias("card"), "kind",
        pl.col("extra").alias("is_extra"), "rush", pl.col("legend").alias("is_legend"),
        "subtypes", "pools", pl.col("points").alias("card_points"),
        pl.col("source").str.split("; ").list.eval(
            pl.element().replace(labels)).list.join("; ").alias("source"))
    names = attrs.select(pl.col("card_id").alias("name_id"), pl.col("card").alias("counts_as"))
    joined = (
        attrs.join(limits, on="card_id", how="left")
        .join(names, on="name_id", how="left")
        .with_columns(
            pl.col("listed").fill_null(False),
            (pl.len().over("name_id") > 1).alias("folded"),
            pl.when(pl.col("name_id") != pl.col("card_id")).then(pl.col("counts_as"))
            .alias("counts_as"),
        )
    )
    if fmt.card_pool and fmt.owns_list(banlist.name):
        joined = joined.with_columns(
            pl.when(pl.col("listed"))
            .then(pl.concat_list("pools", pl.lit(fmt.card_pool)).list.unique().list.sort())
            .otherwise(pl.col("pools")).alias("pools"))
    points = pl.col("points").fill_null(0.0) if banlist.genesys else pl.col("card_points")
    return (joined.with_columns(points.alias("points")).drop("card_points"),
            list(bound.warnings))


#: the card table of the last (card data, list, format) checked: a judge checks one deck
#: after another against the same three, and the table costs more than the deck; only the
#: last is kept, so nothing else stays alive for it
_LAST_ATTRIBUTES: list[tuple[CardDB, Banlist, str, pl.DataFrame, list[Problem]]] = []


def card_attributes(cards: CardDB, banlist: Banlist, fmt: Format) -> tuple[
        pl.DataFrame, list[Problem]]:
    """The card table a check of (card data, list, format) uses, and the list's warnings:
    made once and kept for the next check (calling it early, while the decks are read,
    has the check find it ready)."""
    shape = fmt.model_dump_json()
    for held_cards, held_banlist, held_shape, attrs, warnings in _LAST_ATTRIBUTES:
        if held_cards is cards and held_banlist is banlist and held_shape == shape:
            return attrs, list(warnings)
    attrs, warnings = _attributes(cards, banlist, fmt)
    _LAST_ATTRIBUTES[:] = [(cards, banlist, shape, attrs, warnings)]
    return attrs, list(warnings)


def _lean(frame: pl.DataFrame) -> pl.DataFrame:
    """Columns that are entirely null (no names in a YDK event, no cells outside
    spreadsheets) become constant columns, which take no memory per row."""
    empty = [c for c in frame.columns if frame[c].null_count() == frame.height]
    return frame.with_columns(pl.lit(None, frame.schema[c]).alias(c) for c in empty)


def _run_starts(frame: pl.DataFrame) -> pl.Series:
    """The deck id at the start of each run of equal deck ids (readers write decks whole).

    Deck ids may be strings or categoricals (compared by number: much faster on millions
    of rows); the run starts, one per deck, are strings.
    """
    ids = frame["deck_id"]
    return ids.filter(ids.ne_missing(ids.shift())).cast(pl.Utf8)


_STATUS = RESOLVED_SCHEMA["status"]
#: key of a typed name that names no card (one group per deck, for the section sizes)
UNRESOLVED_KEY = -(2**31)
_KEY_BITS = 2**33  # keys lie in [-2**31, 2**32): passcodes, card ids, the unresolved key


def _deck_numbers(frame: pl.DataFrame, index: pl.DataFrame) -> pl.Series:
    """Each row's deck number: one lookup per run of equal deck ids, gathered by run."""
    run_deck = _run_starts(frame).to_frame().join(
        index, on="deck_id", how="left", maintain_order="left")["deck"]
    return run_deck.gather(frame["deck_id"].rle_id())


def prepare_rows(resolved: pl.DataFrame, index: pl.DataFrame) -> pl.DataFrame:
    """Resolved entries with their deck number, comparison key and row number.

    The deck number comes from a lookup per run of equal deck ids (gathered by run number),
    not a string join per row. ``key`` is the card name (``card_id``), the passcode of an
    unknown card, or ``UNRESOLVED_KEY`` for a typed name that names no card.
    """
    deck = resolved["deck"] if "deck" in resolved.columns else _deck_numbers(resolved, index)
    key = pl.coalesce("card_id", "passcode", pl.lit(UNRESOLVED_KEY, pl.Int64))
    # the deck id string is no longer needed per row: the index maps numbers to ids
    # the typed text of fuzzy readings; a constant null column when there are none
    fuzzy = (pl.when(pl.col("how") == "fuzzy").then(pl.col("name"))
             if bool((resolved["how"] == "fuzzy").any()) else pl.lit(None, pl.Utf8))
    # lazily: an eager drop would copy every column whose chunks differ from the new ones
    return resolved.lazy().with_columns(deck.alias("deck"), key.alias("key"),
                                        fuzzy.alias("read_from")).drop(
        "deck_id", "how").with_row_index("row").collect(engine=ENGINE)


def deck_by_card(rows: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (deck, key): copies in main, extra and side, and each section's first row.

    Rows are sorted by one packed 64-bit (deck, key, section) number, stably (so each run of
    one deck, card and section keeps its rows in order and starts at its first row); every
    figure is then a running sum read at the end of each (deck, key) run, less its value at
    the end of the run before. No hashing and no per-group aggregation: this is the one pass
    over every entry of the event. The result is sorted by ``deck_key`` (rules rely on it to
    merge two tables in order).
    """
    packed = pl.col("deck").cast(pl.Int64) * _KEY_BITS + (pl.col("key") - UNRESOLVED_KEY)
    order = packed * 4 + pl.col("section").to_physical().cast(pl.Int64)
    ordered = rows.select(
        order.alias("order"), "qty", "row", "section", pl.col("card_id").is_not_null()
        .alias("known")).sort("order", maintain_order=True)
    deck_key = pl.col("order") // 4
    run_start = pl.col("order").ne_missing(pl.col("order").shift(1))
    in_section = {s: pl.col("section") == s for s in SECTIONS}
    # a section's first row, +1 so that 0 stands for none; at most one run per section, so
    # the difference of two running sums is one row number: exact in wrapping 32-bit sums
    firsts = {s: pl.when(run_start & in_section[s]).then(pl.col("row") + 1)
              .otherwise(pl.lit(0, pl.UInt32)) for s in SECTIONS}
    running = ordered.with_columns(
        deck_key.alias("deck_key"),
        *[pl.when(in_section[s]).then(pl.col("qty")).otherwise(0).cast(pl.Int64).cum_sum()
          .alias(s) for s in SECTIONS],
        *[firsts[s].cum_sum().alias(f"row_{s}") for s in SECTIONS],
    ).filter(deck_key.ne_missing(deck_key.shift(-1)))  # the last row of each (deck, key)
    since = [(pl.col(c) - pl.col(c).shift(1, fill_value=0)).alias(c)
             for c in (*SECTIONS, *(f"row_{s}" for s in SECTIONS))]
    key = pl.col("deck_key") % _KEY_BITS + UNRESOLVED_KEY
    return running.select("deck_key", "known", *since).with_columns(
        *[pl.col(s).cast(pl.Int32) for s in SECTIONS],
        *[pl.when(pl.col(f"row_{s}") > 0).then(pl.col(f"row_{s}") - 1).cast(pl.UInt32)
          .alias(f"row_{s}") for s in SECTIONS],
    ).with_columns(
        (pl.col("deck_key") // _KEY_BITS).cast(pl.UInt32).alias("deck"),
        key.alias("key"),
        (pl.col("main") + pl.col("extra") + pl.col("side")).alias("total"),
        pl.min_horizontal("row_main", "row_extra", "row_side").alias("row"),
    ).with_columns(
        pl.when(pl.col("known")).then(pl.lit("ok", _STATUS))
        .when(pl.col("key") == UNRESOLVED_KEY).then(pl.lit("unresolved", _STATUS))
        .otherwise(pl.lit("unknown", _STATUS)).alias("status"),
        pl.when(pl.col("known")).then(pl.col("key")).alias("card_id"),
        pl.when(~pl.col("known") & (pl.col("key") != UNRESOLVED_KEY)).then(pl.col("key"))
        .alias("passcode"),
    ).drop("known")


def _by_deck(rows: pl.DataFrame) -> pl.LazyFrame:
    """Rows to group by deck: flagged sorted when their deck numbers run in order (decks
    whole and in order, as readers write them), so polars groups them without hashing."""
    return rows.lazy().set_sorted("deck") if rows["deck"].is_sorted() else rows.lazy()


#: seeds of the two 64-bit hashes behind a deck's fingerprint, drawn at random when the
#: process starts: with seeds known in advance, a deck could be built to differ from its
#: list and still match its fingerprint (the sums are linear); unknown, no input can aim
#: for that, and the odds in ``same_as_listed`` hold whatever the decks
_FINGERPRINT_SEEDS = (secrets.randbits(64), secrets.randbits(64))


def fingerprints(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Per deck, two sums of ``qty × h(section, card)`` modulo 2**64 over its rows.

    Each ``h`` is a seeded 64-bit hash of the (section, key) pair, so a deck's fingerprint is
    the same however its copies are split across rows (3 lines of 1 or one line of 3) and in
    whatever order; rows naming no card count nothing (the list comparison leaves them out
    too). Products and sums wrap modulo 2**64 (``test_engine`` pins polars doing so).
    """
    cell = pl.col("key") * 4 + pl.col("section").to_physical().cast(pl.Int64)
    counted = (pl.col("qty") * (pl.col("status") != "unresolved")).cast(pl.UInt64)
    return rows.group_by("deck").agg(*[(counted * cell.hash(seed)).sum().alias(f"f{i}")
                                       for i, seed in enumerate(_FINGERPRINT_SEEDS)])


def same_as_listed(mine: pl.DataFrame, theirs: pl.DataFrame, decks: int) -> pl.Series:
    """One flag per deck number: the deck holds exactly its list's cards, section by section.

    Decided by the ``fingerprints`` of decks (``mine``) and lists (``theirs``): a deck and a
    list that differ in some (section, card) counts (by less than 2**16 copies) have two sums
    that both agree with odds below 2**-96. Decks flagged here need no deck-by-card table of
    their list (usually nearly all of an event's decks).
    """
    columns = [c for c in mine.columns if c != "deck"]
    both = mine.join(theirs, on="deck", how="inner", suffix="_list").filter(
        pl.all_horizontal(pl.col(c) == pl.col(f"{c}_list") for c in columns))
    return pl.zeros(decks, dtype=pl.Boolean, eager=True).scatter(both["deck"], True)


class _Clock:
    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, stage: str) -> dict[str, float]:
        now = time.perf_counter()
        self.laps[stage] = now - self.last
        self.last = now
        return self.laps


def _gather(values: pl.Series, at: pl.Series) -> pl.Series:
    """``values[at]``, null where ``at`` is null (or nothing can be gathered)."""
    if values.is_empty():
        return pl.Series(values.name, [None] * len(at), dtype=values.dtype)
    picked = values.gather(at.fill_null(0))
    return picked.to_frame().select(pl.when(at.is_not_null()).then(pl.col(values.name)))[
        values.name]


def _locate(found: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """Fill passcode, file, line and cell of violations from the entry row they point at."""
    columns = ("passcode", "file", "line", "cell", "read_from")
    return found.with_columns(pl.coalesce(found[c], _gather(rows[c], found["row"])).alias(c)
                              for c in columns)


def _locate_both(found: pl.DataFrame, rows: pl.DataFrame,
                 registered: pl.DataFrame) -> pl.DataFrame:
    """Locate each violation in the deck's rows, or in the list's when it points there."""
    on_list = found["on_list"].fill_null(False)
    deck_side = _locate(found.filter(~on_list), rows)
    list_side = _locate(found.filter(on_list), registered)
    return pl.concat([deck_side, list_side])


#: events of more than CHUNK_ABOVE entry rows are checked in chunks of whole decks of about
#: CHUNK_ROWS rows, which bounds memory; every rule looks at one deck at a time, so chunks
#: change no verdict (smaller events run whole: chunking costs a little time)
CHUNK_ABOVE = 8_000_000
CHUNK_ROWS = 2_000_000


#: the rows of lists that could not be read, for UNREADABLE_ROW: ``on_list`` when the row
#: belongs to the registered list of a compared deck rather than to the checked entries
UNREADABLE_SCHEMA: dict[str, pl.DataType] = {
    "deck_id": pl.Utf8(), "section": pl.Enum(list(SECTIONS)), "file": pl.Utf8(),
    "line": pl.Int32(), "cell": pl.Utf8(), "message": pl.Utf8(), "on_list": pl.Boolean(),
}


def unreadable_rows(problems: list[Problem], on_list: bool) -> pl.DataFrame:
    """The rows of players' lists (or decks) that could not be read, for UNREADABLE_ROW."""
    rows = [(p.deck_id, p.section or "main", p.file, p.line, p.column, p.message, on_list)
            for p in problems if p.deck_id]
    return pl.DataFrame(rows, schema=UNREADABLE_SCHEMA, orient="row")


@dataclass(frozen=True)
class _Options:
    list_problems: bool
    siding: bool
    warnings: list[Problem]


def check(
    entries: pl.DataFrame,
    *,
    cards: CardDB,
    fmt: Format,
    banlist: Banlist,
    registered: pl.DataFrame | None = None,
    deck_ids: list[str] | None = None,
    list_problems: bool = True,
    siding: bool = False,
    unreadable: pl.DataFrame | None = None,
    chunk_rows: int = CHUNK_ROWS,
    chunk_above: int = CHUNK_ABOVE,
) -> CheckResult:
    """Check every deck in ``entries`` (and compare with ``registered`` lists when given).

    ``deck_ids`` names decks that must get a verdict even with no rows at all (a player
    whose registered sheet is empty is a deck of 0 cards, not a missing one).
    ``list_problems=False`` leaves the registered lists' own problems (unresolved names) to
    a separate check of the lists. ``siding`` compares decks with their lists as in duel 2
    and later (side deck exchanges allowed). ``unreadable`` holds rows of the lists that
    could not be read (``UNREADABLE_SCHEMA``): decisions for the head judge.

    Every deck gets a ``status``: ``illegal`` when it breaks a rule, ``needs_decision``
    when the head judge must first settle an entry (an unresolved name, an unreadable row)
    — then the verdicts that count the whole deck or list wait (``held``) —, else ``legal``.
    """
    entries = _lean(conform(entries))
    if registered is not None:
        registered = _lean(conform(registered))
    ids = [pl.Series(deck_ids or [], dtype=pl.Utf8), _run_starts(entries)] + (
        [_run_starts(registered)] if registered is not None else [])
    index = (
        pl.concat(ids).unique(maintain_order=True).to_frame("deck_id")
        .with_row_index("deck")
    )
    attrs, bind_warnings = card_attributes(cards, banlist, fmt)
    options = _Options(list_problems, siding, bind_warnings)
    unread = _unreadable(unreadable, index)
    total = entries.height + (registered.height if registered is not None else 0)
    if total <= chunk_above:
        return _check(entries, registered, unread, index, attrs, cards, fmt, banlist, options)
    # chunks of whole decks: every frame numbered by deck once (its deck id strings are
    # dropped) and ordered by number (readers write decks whole and in order, so usually it
    # already is); each chunk is then a slice of every frame, found by binary search
    numbered = []
    for frame in (entries, registered):
        if frame is None:
            continue
        number = _deck_numbers(frame, index)
        frame = frame.with_columns(pl.lit(None, pl.Utf8).alias("deck_id"), number.alias("deck"))
        if not number.is_sorted():
            frame = frame.sort("deck", maintain_order=True)
        numbered.append(frame)
    per_chunk = max(1, chunk_rows * index.height // max(total, 1))
    edges = [*range(0, index.height, per_chunk), index.height]
    starts = [frame["deck"].search_sorted(pl.Series(edges, dtype=pl.UInt32)).to_list()
              for frame in numbered]
    parts: list[CheckResult] = []
    for at, (low, high) in enumerate(itertools.pairwise(edges)):
        pieces = [frame.slice(first[at], first[at + 1] - first[at])
                  .with_columns(pl.col("deck") - low)
                  for frame, first in zip(numbered, starts, strict=True)]
        part_index = index.slice(low, high - low).with_columns(pl.col("deck") - low)
        part_unread = unread.filter(pl.col("deck").is_between(low, high - 1)).with_columns(
            pl.col("deck") - low)
        parts.append(_check(pieces[0], pieces[1] if registered is not None else None,
                            part_unread, part_index, attrs, cards, fmt, banlist, options))
    return combine(parts)


def combine(parts: list[CheckResult]) -> CheckResult:
    """Results of disjoint sets of decks as one (deck numbers continue one another)."""
    first = parts[0]
    decks, violations, offset = [], [], 0
    for part in parts:
        decks.append(part.decks.with_columns(pl.col("deck") + offset))
        violations.append(part.violations.with_columns(pl.col("deck") + offset))
        offset += part.decks.height
    return CheckResult(
        decks=pl.concat(decks), violations=pl.concat(violations),
        format=first.format, banlist=first.banlist, cards=first.cards,
        resolved=pl.concat([p.resolved for p in parts]), warnings=first.warnings,
        timings={stage: sum(p.timings.get(stage, 0.0) for p in parts)
                 for stage in first.timings},
    )


def _unreadable(frame: pl.DataFrame | None, index: pl.DataFrame) -> pl.DataFrame:
    """Unreadable rows by deck number (rows of decks outside this check are dropped)."""
    rows = pl.DataFrame(schema=UNREADABLE_SCHEMA) if frame is None else frame.select(
        [pl.col(c).cast(t) if c in frame.columns else pl.lit(None, t).alias(c)
         for c, t in UNREADABLE_SCHEMA.items()])
    return rows.join(index, on="deck_id", how="inner").drop("deck_id")


def _statuses(found: pl.DataFrame, decks: pl.DataFrame, open_decks: pl.Series,
              open_lists: pl.Series) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Mark the violations that wait for a decision (``held``) and each deck's status.

    A counting verdict waits while its own side (the deck's rows, or the list's) has an
    open decision; the list comparison waits while either side has one.
    """
    on_list = pl.col("on_list").fill_null(False)
    deck_open = pl.col("deck").is_in(open_decks.implode())
    list_open = pl.col("deck").is_in(open_lists.implode())
    held = pl.col("code").is_in(list(COUNTING_CODES)) & (
        (~on_list & deck_open) | (on_list & list_open)
        | (pl.col("code").is_in(list(COMPARING_CODES)) & (deck_open | list_open)))
    found = found.with_columns(
        held.alias("held"), pl.col("code").is_in(list(DECISION_CODES)).alias("decision"))
    facts = found.filter(~pl.col("held") & ~pl.col("decision"))["deck"].unique().implode()
    pending = found.filter(pl.col("held") | pl.col("decision"))["deck"].unique().implode()
    status = (pl.when(pl.col("deck").is_in(facts)).then(pl.lit("illegal", STATUS))
              .when(pl.col("deck").is_in(pending)).then(pl.lit("needs_decision", STATUS))
              .otherwise(pl.lit("legal", STATUS)))
    decks = decks.with_columns(status.alias("status")).with_columns(
        (pl.col("status") == "legal").alias("legal"))
    return found, decks


def _check(entries: pl.DataFrame, registered: pl.DataFrame | None, unread: pl.DataFrame,
           index: pl.DataFrame, attrs: pl.DataFrame, cards: CardDB, fmt: Format,
           banlist: Banlist, options: _Options) -> CheckResult:
    """One chunk of whole decks; ``index`` numbers exactly these decks from 0."""
    clock = _Clock()
    resolved = resolve(entries, cards, fmt)
    rows_df = prepare_rows(resolved, index)
    rows = rows_df.lazy()
    reg_df = None
    if registered is not None:
        reg_df = prepare_rows(resolve(registered, cards, fmt), index)
    clock.lap("resolve")
    # card-level conditions are evaluated once per card, on the small card table
    flags: dict[str, pl.Expr] = {}
    for module in MODULES:
        flags.update(module.card_flags(fmt, banlist.whitelist))
    card_table = attrs.lazy().with_columns(**flags)
    narrow = card_table.select("card_id", "name_id", "folded", "limit", "kind", "is_extra",
                               "is_legend", "points", *flags)
    # one pass over every row: the deck-by-card table, with the card flags joined once; the
    # lists' fingerprints beside it, then a deck-by-card table of the lists that differ
    plans = [deck_by_card(rows).join(narrow, on="card_id", how="left", maintain_order="left")]
    if reg_df is not None:
        plans += [fingerprints(_by_deck(rows_df)), fingerprints(_by_deck(reg_df))]
    collected = pl.collect_all(plans, engine=ENGINE)
    same_as_list = registered_cards = None
    if reg_df is not None:
        same_as_list = same_as_listed(collected[1], collected[2], index.height)
        differing = reg_df.select("deck", "key", "section", "qty", "row", "card_id").filter(
            ~same_as_list.gather(reg_df["deck"]))
        registered_cards = deck_by_card(differing.lazy()).collect(engine=ENGINE).lazy()
    clock.lap("deck-by-card table")
    deck_cards = collected[0].lazy()
    # a Skill card is not a card of the deck (Speed Duel: it starts the duel outside it)
    main = pl.when(pl.col("kind") == "skill").then(0).otherwise(pl.col("main"))
    counted = index.lazy().join(
        deck_cards.set_sorted("deck").group_by("deck", maintain_order=True).agg(
            main.sum().alias("main"), pl.col("extra", "side").sum(), pl.col("row").min()),
        on="deck", how="left",
    ).with_columns(pl.col(*SECTIONS).fill_null(0)).collect(engine=ENGINE)
    sources = _gather(rows_df["file"], counted["row"])
    sizes = counted.with_columns(
        pl.when(pl.col("row").is_not_null()).then(sources).alias("source")).drop("row").lazy()
    ctx = Context(
        fmt=fmt, whitelist=banlist.whitelist, attrs=card_table, rows=rows, deck_cards=deck_cards,
        sizes=sizes, registered=reg_df.lazy() if reg_df is not None else None,
        registered_cards=registered_cards,
        same_as_list=same_as_list,
        list_problems=options.list_problems, stale=stale_hint(cards, banlist),
        siding=options.siding, unreadable=unread.lazy(),
    )
    clock.lap("sizes")
    frames = [frame for module in MODULES for frame in module.check(ctx)]
    plan = pl.concat(frames) if frames else pl.LazyFrame(schema=VIOLATION_SCHEMA)
    found, deck_sizes = pl.collect_all([plan, sizes], engine=ENGINE)
    clock.lap("rules")
    found = _locate(found, rows_df) if reg_df is None else _locate_both(found, rows_df, reg_df)
    open_decks = pl.concat([
        rows_df.filter(pl.col("status") == "unresolved")["deck"],
        unread.filter(~pl.col("on_list"))["deck"]])
    open_lists = pl.concat([
        reg_df.filter(pl.col("status") == "unresolved")["deck"] if reg_df is not None
        else pl.Series([], dtype=pl.UInt32), unread.filter(pl.col("on_list"))["deck"]])
    found, decks = _statuses(found, deck_sizes.sort("deck"), open_decks, open_lists)
    listed = reg_df["deck"].unique().implode() if reg_df is not None else pl.Series(
        [], dtype=pl.UInt32).implode()
    decks = decks.with_columns(pl.col("deck").is_in(listed).alias("compared"))
    names = attrs.select("card_id", "card", "counts_as")
    found = (
        found.drop("row", "on_list").join(index, on="deck", how="left")
        .join(names, on="card_id", how="left")
        .with_columns(pl.col("code").cast(_CODE_ORDER))
        .sort("deck", "code", "section", "card_id", "passcode", nulls_last=True)
        .with_columns(pl.col("code").cast(pl.Utf8))
    )
    return CheckResult(
        decks=decks, violations=found, format=fmt, banlist=banlist.name,
        cards=", ".join(str(s.get("source")) for s in cards.sources),
        resolved=resolved.filter((pl.col("status") != "ok") | (pl.col("how") == "fuzzy"))
        .join(attrs.select("card_id", "card"), on="card_id", how="left",
              maintain_order="left"),
        warnings=list(banlist.warnings) + options.warnings + list(cards.warnings),
        timings=clock.lap("report rows"),
    )
