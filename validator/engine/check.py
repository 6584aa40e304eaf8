"""The legality engine: every rule over every deck in one lazy polars plan.

Readers give entries (one long table for all decks); :func:`check` resolves them to card
names, attaches card attributes and list limits (evaluated once per card table and kept
with it), prepares the shared per-card, per-section and per-deck frames once (``tables``),
lets every registered rule add its failing rows, and collects all of it in one go; only then
are the rules that found rows worded, over those rows; then each deck gets its status
(``status``). No Python code runs per deck. Events too big for memory at once are checked
in chunks of whole decks. A check of a few decks (a judge's, a page's) is planned whole and
collected in four passes, its handful of violations then located, sorted and marked in
Python over the rows collected (``_check_few``): each polars pass costs about as much as
the work of checking a deck.
"""

from __future__ import annotations

import itertools
import time
import weakref
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cached_property

import polars as pl

from validator.cards.banlist import Banlist, stale_hint
from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.cards.store import DEMO
from validator.engine import workers
from validator.engine.fingerprints import fingerprints, same_as_listed
from validator.engine.resolve import resolve, resolve_few
from validator.engine.rules import CODES, MODULES, VIOLATION_SCHEMA, Context, RuleModule
from validator.engine.rules._context import LOCAL_CARD_COLUMNS, could_fail
from validator.engine.rules.card_pool import release_unknown
from validator.engine.status import (
    UNREADABLE_SCHEMA,
    held_plan,
    locate,
    located_few,
    open_decisions,
    statuses,
    statuses_plan,
    unreadable_by_deck,
    verdicts_few,
    verdicts_plan,
)
from validator.engine.tables import (
    _KEY_BITS,
    ENGINE,
    FEW_PLANS,
    UNRESOLVED_KEY,
    CardTable,
    by_deck,
    by_position,
    card_attributes,
    deck_by_card,
    deck_by_card_few,
    deck_index,
    deck_numbers,
    deck_sizes,
    entry_rows,
    entry_rows_few,
    prepare_rows,
    with_cards,
    with_cards_at,
)
from validator.errors import ImplementationError, Problem
from validator.text.i18n import korean_particles, say
from validator.vocab import LANGS, SECTIONS, Lang

__all__ = ["CHUNK_ABOVE", "CHUNK_ROWS", "FEW_DECKS", "FEW_ROWS", "PARALLEL_ABOVE", "CheckResult",
           "ListedDecks", "ListedFew", "check", "code_counts", "combine", "held_cards"]

_CODE_ORDER = pl.Enum(list(CODES))

#: events of more than CHUNK_ABOVE entry rows are checked in chunks of whole decks of about
#: CHUNK_ROWS rows, which bounds memory (to as many chunks as threads check at once,
#: ``_WORKERS``: on a 1M-deck event, 1.66 GB against 1.36 GB one at a time); every rule
#: looks at one deck at a time, so chunks
#: change no verdict (smaller events run whole: chunking costs a little time)
CHUNK_ABOVE = 8_000_000
CHUNK_ROWS = 2_000_000
#: a check of at most FEW_DECKS decks looks only at the rows of the card table its decks
#: and lists hold (and the cards their names are treated as), not at every card; with at
#: most FEW_ROWS entry rows, it is planned whole and collected in four passes (``_check_few``)
FEW_DECKS = 64
FEW_ROWS = 2_000
#: the chunks of an event of decks given by passcode are checked on _WORKERS threads at
#: once (each thread's polars and numpy work lets go of the interpreter); an event of more
#: than PARALLEL_ABOVE entry rows (and at most CHUNK_ABOVE) is checked in one chunk per
#: thread (on two cores, read included: legality of 100,000 decks, 2.5 million rows, 6-7%
#: faster, of 40,000-60,000 decks 2-7%; with lists within the noise: ``bench/results.md``,
#: 2026-12-06)
PARALLEL_ABOVE = 1_000_000
_WORKERS = max(1, min(4, pl.thread_pool_size()))


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
    banlist_effective: str | None = None  # the day the list takes effect
    banlist_reason: str = ""  # why it was chosen ("in force on 2025-06-15")
    #: cards of the decks about whose release in the format's regions no source says anything
    release_unknown: list[str] = field(default_factory=list)
    #: the languages the messages were worded in (``message_<lang>``; English always)
    langs: tuple[Lang, ...] = LANGS

    def worded_in(self, lang: Lang) -> bool:
        """Whether the violations' messages were worded in ``lang``."""
        return lang == "en" or lang in self.langs

    def counts(self) -> dict[str, int]:
        """Violations per code, in registry order."""
        return code_counts(self.violations)


def code_counts(violations: pl.DataFrame) -> dict[str, int]:
    """How many violations of each code, in registry order (a few counted in Python)."""
    by_code = Counter(violations.get_column("code").to_list()) if violations.height <= FEW_ROWS \
        else dict(violations.group_by("code").len().iter_rows())
    return {code: int(by_code[code]) for code in CODES if code in by_code}


class _Clock:
    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, stage: str) -> dict[str, float]:
        now = time.perf_counter()
        self.laps[stage] = now - self.last
        self.last = now
        return self.laps


@dataclass(frozen=True)
class _Shared:
    """What every chunk of one check shares."""

    cards: CardDB
    fmt: Format
    banlist: Banlist
    made: CardTable | Future[CardTable]  # the card table, or its making on another thread
    list_problems: bool
    siding: bool
    counted_from_list: bool = False
    in_chunks: bool = False  # many sorts in one check: numpy's import pays (deck_by_card)
    langs: tuple[Lang, ...] = LANGS  # the languages the messages are worded in

    @property
    def table(self) -> CardTable:
        """The card table (waited for while another thread makes it)."""
        return self.made.result() if isinstance(self.made, Future) else self.made


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
    attributes: CardTable | None = None,
    counted_from_list: bool = False,
    chunk_rows: int = CHUNK_ROWS,
    chunk_above: int = CHUNK_ABOVE,
    parallel_above: int = PARALLEL_ABOVE,
    listed: ListedFew | None = None,
    langs: tuple[Lang, ...] = LANGS,
) -> CheckResult:
    """Check every deck in ``entries`` (and compare with ``registered`` lists when given).

    ``entries`` and ``registered`` have the columns of ``ENTRY_SCHEMA`` (only ``deck_id``,
    ``section`` and ``qty`` must be there; deck ids may be categoricals): a column missing
    or of another type is an ``InputError`` naming it.
    ``deck_ids`` names decks that must get a verdict even with no rows at all (a player
    whose registered sheet is empty is a deck of 0 cards, not a missing one).
    ``list_problems=False`` leaves the registered lists' own problems (unresolved names) to
    a separate check of the lists. ``siding`` compares decks with their lists as in duel 2
    and later (side deck exchanges allowed). ``unreadable`` holds rows of the lists that
    could not be read (``status.UNREADABLE_SCHEMA``): decisions for the head judge.
    ``attributes`` is the card table of these card data, list and format
    (``tables.card_attributes``), made by whoever loaded them; without it, it is made here.
    ``counted_from_list``: the decks were counted line by line from their lists (a judge's
    count at the table), so a line of a list that waits for a decision was not counted in
    the deck either: the deck's own counting verdicts wait for it too.
    ``chunk_rows``, ``chunk_above`` and ``parallel_above`` say how an event is split into
    chunks of whole decks (see ``CHUNK_ROWS``, ``PARALLEL_ABOVE``); the verdicts are the same.
    ``listed``: the one deck's list, ``registered``, as made before for this card table
    (``ListedDecks``): a check of that deck alone then neither resolves nor counts it again.
    ``langs``: the languages of the messages (``message_<lang>``) besides English, which is
    always worded; the columns of the others are null (a report in one language words
    only that one).

    Every deck gets a ``status``: ``illegal`` when it breaks a rule, ``needs_decision``
    when the head judge must first settle an entry (an unresolved name, an unreadable row)
    — then the verdicts that count the whole deck or list wait (``held``) —, else ``legal``.
    """
    if not isinstance(langs, tuple) or not set(langs) <= set(LANGS):
        raise ImplementationError(f"langs must be a tuple of {', '.join(LANGS)}: {langs!r}")
    total = entries.height + (registered.height if registered is not None else 0)
    # a few rows: the entry columns as the engine takes them, in one pass each
    rows = entry_rows_few if total <= FEW_ROWS else entry_rows
    given = entries, registered
    entries = rows(entries, "entries")
    if registered is not None:
        registered = rows(registered, "registered lists")
    made: CardTable | Future[CardTable]
    if attributes is None:
        # many rows: the card table made and prepared on another thread meanwhile (polars
        # lets go of the interpreter while it works, so both cores do)
        made = _PREPARING.submit(_table_prepared, cards, banlist, fmt) if rows is entry_rows \
            else card_attributes(cards, banlist, fmt)
    elif not attributes.is_for(cards, banlist, fmt):
        raise ImplementationError("the card table given is of other card data, list or format")
    else:
        made = attributes
    shared = _Shared(cards, fmt, banlist, made, list_problems, siding, counted_from_list,
                     langs=langs)
    if rows is entry_rows_few:
        few = _few_index(entries, registered, deck_ids)
        if few is not None:
            reuse = listed if listed is not None and registered is not None \
                and listed.table is attributes and few["deck_id"].to_list() == [listed.deck_id] \
                else None
            return _check_few(entries, registered, unread=_unread_few(unreadable, few),
                              index=few, shared=shared, made_list=reuse)
        entries = entry_rows(given[0], "entries")  # many decks: as the engine takes them
        if given[1] is not None:
            registered = entry_rows(given[1], "registered lists")
    index = deck_index(entries, registered, deck_ids)
    unread = unreadable_by_deck(unreadable, index)
    # passcodes only (no reading of names is shared): chunks checked on several threads at
    # once, and an event of more than PARALLEL_ABOVE rows in one chunk per thread
    workers = _WORKERS if all(_unnamed(f) for f in (entries, registered) if f is not None) \
        else 1
    if total <= chunk_above and (workers == 1 or total <= parallel_above):
        return _check(entries, registered, unread=unread, index=index, shared=shared)
    shared = replace(shared, in_chunks=True)
    # chunks of whole decks: every frame numbered by deck once (its deck id strings are
    # dropped) and ordered by number (readers write decks whole and in order, so usually it
    # already is); each chunk is then a slice of every frame, found by binary search
    numbered, deck_type = [], entries.schema["deck_id"]
    for frame in (entries, registered):
        if frame is None:
            continue
        number = deck_numbers(frame, index)
        frame = frame.with_columns(pl.lit(None, pl.Utf8).alias("deck_id"), number.alias("deck"))
        if not number.is_sorted():
            frame = frame.sort("deck", maintain_order=True)
        numbered.append(frame)
    per_chunk = max(1, chunk_rows * index.height // max(total, 1)) if total > chunk_above \
        else -(-index.height // workers)  # one chunk per core
    edges = [*range(0, index.height, per_chunk), index.height]
    starts = [frame["deck"].search_sorted(pl.Series(edges, dtype=pl.UInt32)).to_list()
              for frame in numbered]

    def part(at: int, low: int, high: int) -> CheckResult:
        pieces = [frame.slice(first[at], first[at + 1] - first[at])
                  .with_columns(pl.col("deck") - low)
                  for frame, first in zip(numbered, starts, strict=True)]
        part_index = index.slice(low, high - low).with_columns(pl.col("deck") - low)
        part_unread = unread.filter(pl.col("deck").is_between(low, high - 1)).with_columns(
            pl.col("deck") - low)
        result = _check(pieces[0], pieces[1] if registered is not None else None,
                        unread=part_unread, index=part_index, shared=shared)
        # the entries' deck ids back in place of the chunk's deck numbers
        result.resolved = result.resolved.with_columns(
            part_index["deck_id"].gather(result.resolved["deck"]).cast(deck_type)
            .alias("deck_id")).drop("deck")
        return result

    bounds = [(at, low, high) for at, (low, high) in enumerate(itertools.pairwise(edges))]
    if workers == 1 or len(bounds) == 1:
        return combine([part(*bound) for bound in bounds])
    if index.height // len(bounds) > FEW_DECKS:  # made once here, not by each thread
        _ = _prepared(shared.table).narrow  # made and kept on first use
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="deckcheck-chunk") as pool:
        return combine(list(pool.map(lambda bound: part(*bound), bounds)),
                       threads=min(workers, len(bounds)))


def held_cards(attrs: pl.DataFrame, *frames: pl.DataFrame | None) -> pl.DataFrame:
    """The rows of the card table ``attrs`` of the cards in ``frames`` (by ``card_id``) and
    of the cards whose names those are treated as (``name_id``): all that the rules of a
    check of these rows look up. Every column of the card table (``folded``, ``counts_as``)
    was computed over all cards already, so no row's values change."""
    ids = pl.concat([frame.select("card_id") for frame in frames if frame is not None])
    held = attrs.filter(pl.col("card_id").is_in(ids["card_id"].drop_nulls().implode()))
    names = held["name_id"].drop_nulls().implode()
    return attrs.filter(pl.col("card_id").is_in(held["card_id"].implode())
                        | pl.col("card_id").is_in(names))


def combine(parts: list[CheckResult], threads: int = 1) -> CheckResult:
    """Results of disjoint sets of decks as one (deck numbers continue one another); each
    stage's time is the sum over the parts, divided by the ``threads`` that checked them at
    once."""
    first = parts[0]
    decks, violations, offset = [], [], 0
    for part in parts:
        decks.append(part.decks.with_columns(pl.col("deck") + offset))
        violations.append(part.violations.with_columns(pl.col("deck") + offset))
        offset += part.decks.height
    return CheckResult(
        decks=pl.concat(decks), violations=pl.concat(violations),
        format=first.format, banlist=first.banlist, cards=first.cards,
        banlist_effective=first.banlist_effective, banlist_reason=first.banlist_reason,
        resolved=pl.concat([p.resolved for p in parts]),
        langs=tuple(lang for lang in first.langs if all(lang in p.langs for p in parts)),
        warnings=evidence_warnings(
            [w for w in first.warnings if w.code not in _PER_CHUNK]
            + [w for p in parts for w in p.warnings if w.code == "CARD_DATA_MISSING"],
            first.format, sorted({c for p in parts for c in p.release_unknown}), first.cards),
        release_unknown=sorted({c for p in parts for c in p.release_unknown}),
        timings={stage: sum(p.timings.get(stage, 0.0) for p in parts) / threads
                 for stage in first.timings},
    )


#: the rules over known cards read the rows that could fail them, picked out once (False:
#: each rule filters every row itself; the verdicts are the same)
_CANDIDATES = True
#: the card-table columns joined to every deck-by-card row (beside the card flags)
_NARROW = ("card_id", "name_id", "folded", "limit", "kind", "is_extra", "is_legend", "points")


@dataclass(frozen=True)
class _Prepared:
    """What a check takes from a card table and no deck changes: the table with every
    rule's card-level flags (``flags``), where each card's row is, and the cards about whose
    release no source says anything (``silent``: ``card_id``, ``card``)."""

    flagged: pl.DataFrame
    flags: tuple[str, ...]
    position: dict[int, int]  # card id → its row in ``flagged``
    name_of: list[int | None]  # each row's ``name_id``
    silent: pl.DataFrame
    cards: CardDB  # the card data (its ``by_card``: the order of ``card_at``)

    @cached_property
    def silent_names(self) -> dict[int, str | None]:
        """``silent``'s card names by card id."""
        return dict(zip(self.silent["card_id"].to_list(), self.silent["card"].to_list(),
                        strict=True))

    @cached_property
    def narrow_columns(self) -> list[pl.Expr]:
        """The columns joined to every deck-by-card row, as expressions built once."""
        return [pl.col(c) for c in (*_NARROW, *self.flags)]

    @cached_property
    def narrow(self) -> pl.DataFrame:
        """The columns joined to every deck-by-card row, in the card data's order
        (``tables.by_position``), made at the first check of many decks."""
        return by_position(self.flagged.select(*_NARROW, *self.flags), self.cards.by_card)

    def held(self, *frames: pl.DataFrame | None) -> pl.DataFrame:
        """``held_cards(flagged, *frames)``, by row position: the rows of the cards in
        ``frames`` and of the cards their names are treated as, in the table's order."""
        ids = pl.concat([frame["card_id"] for frame in frames if frame is not None])
        rows = {self.position[i] for i in ids.drop_nulls().unique().to_list()
                if i in self.position}
        names = {self.name_of[row] for row in rows}
        rows |= {self.position[i] for i in names if i in self.position}
        return self.flagged[pl.Series(sorted(rows), dtype=pl.UInt32)]

    def held_of(self, ids: list[int | None]) -> pl.DataFrame:
        """:meth:`held` of the cards ``ids``."""
        rows = {self.position[i] for i in ids if i is not None and i in self.position}
        rows |= {self.position[i] for i in {self.name_of[row] for row in rows}
                 if i in self.position}
        return self.flagged[pl.Series(sorted(rows), dtype=pl.UInt32)]


#: each card table's prepared frames, made at its first check
_PREPARED: weakref.WeakKeyDictionary[CardTable, _Prepared] = weakref.WeakKeyDictionary()


#: the card tables checked once already (a second check prepares the whole table)
_CHECKED: weakref.WeakSet[CardTable] = weakref.WeakSet()


def _prepared(table: CardTable) -> _Prepared:
    """The card table with the card-level conditions evaluated once per card, made at the
    first check of a card table that needs it and kept with it."""
    prepared = _PREPARED.get(table)
    if prepared is None:
        prepared = _PREPARED[table] = _prepare(table.frame, table)
    return prepared


def _prepare(frame: pl.DataFrame, table: CardTable) -> _Prepared:
    """The card-level conditions over ``frame``, rows of ``table``'s frame."""
    flags: dict[str, pl.Expr] = {}
    for module in MODULES:
        flags.update(module.card_flags(table.fmt, table.banlist.whitelist))
    flagged = frame.with_columns(**flags)
    ids = flagged["card_id"].to_list()
    silent = flagged.filter(release_unknown(table.fmt) & ~pl.col("outside_pool")).select(
        "card_id", "card")
    return _Prepared(flagged, tuple(flags), {card: at for at, card in enumerate(ids)},
                     flagged["name_id"].to_list(), silent, table.cards)


def _few_cards(table: CardTable, rows: pl.DataFrame | list[int | None],
               registered: pl.DataFrame | None = None) -> _Prepared:
    """The prepared rows of the cards a few decks hold (in ``rows`` and ``registered``, or
    the card ids ``rows``): at a card table's first check (a command checking one deck
    checks once) over those cards alone; from its second check on (a server checking deck
    after deck) picked from the whole table, prepared once."""
    if table in _PREPARED or table in _CHECKED:
        return _prepared(table)
    _CHECKED.add(table)
    if isinstance(rows, list):
        rows = pl.DataFrame([pl.Series("card_id", rows, dtype=pl.Int64)])
    return _prepare(held_cards(table.frame, rows, registered), table)


def _check(entries: pl.DataFrame, registered: pl.DataFrame | None, *, unread: pl.DataFrame,
           index: pl.DataFrame, shared: _Shared) -> CheckResult:
    """One chunk of whole decks; ``index`` numbers exactly these decks from 0."""
    cards, fmt, banlist = shared.cards, shared.fmt, shared.banlist
    clock = _Clock()
    few = index.height <= FEW_DECKS
    if not few and not isinstance(shared.made, Future) and shared.made not in _PREPARED:
        # a card table not prepared yet: prepared on another thread meanwhile
        shared = replace(shared, made=_PREPARING.submit(_prepare_whole, shared.made))
    # the lists resolved on another thread meanwhile when no row names a card by its name
    # (no reading of names is shared then): polars and numpy let go of the interpreter
    # while they work, so both cores do
    lists = None
    if registered is not None and not few and _unnamed(entries) and _unnamed(registered):
        lists = _POOL.submit(_rows_of, registered, index, shared)
    # many decks: each row's card's row in the card data, for one gather of its columns
    resolved = resolve(entries, cards, fmt, positions=not few)
    rows_df = prepare_rows(resolved, index)
    resolved = resolved.drop("card_at", strict=False)
    reg_df = None
    if lists is not None:
        reg_df = lists.result()
    elif registered is not None:
        reg_df = _rows_of(registered, index, shared)
    clock.lap("resolve")
    if few:
        prepared = _few_cards(shared.table, rows_df, reg_df)
        attrs = prepared.held(rows_df, reg_df)
    else:
        prepared = _prepared(shared.table)
        attrs = prepared.flagged
    card_table = attrs.lazy()
    # one pass over every row: the deck-by-card table, then the card flags attached once;
    # the lists' fingerprints beside it, then a deck-by-card table of the lists that differ
    plans = [deck_by_card(rows_df.lazy(), numpy_sort=shared.in_chunks)]
    rows_df = rows_df.drop("card_at", strict=False)
    rows = rows_df.lazy()
    if reg_df is not None:
        plans += [fingerprints(by_deck(rows_df)), fingerprints(by_deck(reg_df))]
    collected = pl.collect_all(plans, engine=ENGINE)
    collected[0] = with_cards_at(collected[0], prepared.narrow) if not few else \
        with_cards(collected[0], attrs.select(*_NARROW, *prepared.flags))
    same_as_list = registered_cards = None
    if reg_df is not None:
        same_as_list = same_as_listed(collected[1], collected[2], index.height)
        differing = reg_df.select("deck", "key", "section", "qty", "row", "card_id").filter(
            ~same_as_list.gather(reg_df["deck"]))
        registered_cards = deck_by_card(differing.lazy(), numpy_sort=shared.in_chunks)
        if not same_as_list.all():  # else no rule reads it
            registered_cards = registered_cards.collect(engine=ENGINE).lazy()
    clock.lap("deck-by-card table")
    deck_cards = collected[0].lazy()
    # the rows the rules over known cards read, picked out once (few of every row)
    candidates = collected[0].filter((pl.col("status") == "ok") & could_fail(fmt)) \
        if _CANDIDATES else None
    sizes = deck_sizes(index, deck_cards, rows_df["file"])
    ctx = Context(
        fmt=fmt, whitelist=banlist.whitelist, attrs=card_table, rows=rows, deck_cards=deck_cards,
        sizes=sizes.lazy(), registered=reg_df.lazy() if reg_df is not None else None,
        registered_cards=registered_cards,
        same_as_list=same_as_list,
        list_problems=shared.list_problems, stale=stale_hint(cards, banlist),
        stale_dates=(str(cards.data_date), banlist.name) if stale_hint(cards, banlist)
        else None,
        siding=shared.siding, unreadable=unread.lazy(),
        candidates=candidates.lazy() if candidates is not None else None,
    )
    clock.lap("sizes")
    # which of the few cards without release information the decks hold
    silent = prepared.silent
    release_plan = (
        deck_cards.filter(pl.col("card_id").is_in(silent["card_id"].implode()))
        .select(pl.col("card_id").unique()).join(silent.lazy(), on="card_id")
        .select(pl.col("card").unique()))
    missing = _mostly_unknown(collected[0], index, cards)
    # every rule's failing rows collected at once (with the cards above); only the rules
    # that found rows are worded, over those rows alone
    failing = [item for module in MODULES for item in module.check(ctx)]
    *failing_rows, release = pl.collect_all(
        [*(item.frame for item in failing), release_plan], engine=ENGINE)
    unknown_release = sorted(release["card"].drop_nulls().to_list())
    worded = [item.rows(rows_found, langs=shared.langs) for item, rows_found in
              zip(failing, failing_rows, strict=True) if rows_found.height]
    found = pl.concat(worded) if worded else pl.DataFrame(schema=VIOLATION_SCHEMA)
    clock.lap("rules")
    found = locate(found, rows_df, reg_df)
    open_lists = open_decisions(reg_df, unread, on_list=True)
    open_decks = open_decisions(rows_df, unread, on_list=False)
    if shared.counted_from_list:
        open_decks = pl.concat([open_decks, open_lists])
    found, decks = statuses(found, sizes.sort("deck"), open_decks, open_lists)
    listed = reg_df["deck"].unique().implode() if reg_df is not None else pl.Series(
        [], dtype=pl.UInt32).implode()
    decks = decks.with_columns(pl.col("deck").is_in(listed).alias("compared"))
    names = attrs.select("card_id", "card", *LOCAL_CARD_COLUMNS, "counts_as")
    found = (
        found.lazy().drop("row", "on_list").join(index.lazy(), on="deck", how="left")
        .join(names.lazy(), on="card_id", how="left")
        .with_columns(pl.col("code").cast(_CODE_ORDER))
        .sort("deck", "code", "section", "card_id", "passcode", nulls_last=True)
        .with_columns(pl.col("code").cast(pl.Utf8)).collect(engine=ENGINE)
    )
    return CheckResult(
        decks=decks, violations=found, format=fmt, banlist=banlist.name,
        banlist_effective=banlist.effective, banlist_reason=banlist.reason,
        cards=", ".join(str(s.get("source")) for s in cards.sources),
        resolved=resolved.filter((pl.col("status") != "ok") | (pl.col("how") == "fuzzy"))
        .join(attrs.select("card_id", "card"), on="card_id", how="left",
              maintain_order="left"),
        warnings=evidence_warnings(
            list(banlist.warnings) + list(shared.table.warnings) + list(cards.warnings)
            + _demo_warning(cards) + missing, fmt, unknown_release,
            ", ".join(str(s.get("source")) for s in cards.sources)),
        timings=clock.lap("report rows"),
        release_unknown=unknown_release,
        langs=shared.langs,
    )


#: the thread that resolves a check's lists while its decks are resolved
_POOL = workers.pool("deckcheck-lists")
#: the thread that makes and prepares a check's card table while its decks are resolved
_PREPARING = workers.pool("deckcheck-cards")


def _prepare_whole(table: CardTable) -> CardTable:
    """``table``, its ``_prepared`` frames made (those of every card, and ``narrow``)."""
    _ = _prepared(table).narrow  # made and kept on first use
    return table


def _table_prepared(cards: CardDB, banlist: Banlist, fmt: Format) -> CardTable:
    """The card table of (card data, list, format), prepared (:func:`_prepare_whole`)."""
    return _prepare_whole(card_attributes(cards, banlist, fmt))


def _unnamed(frame: pl.DataFrame) -> bool:
    """Whether no row of ``frame`` gives a card's name (passcodes only: a YDK event)."""
    return frame["name"].null_count() == frame.height


def _rows_of(frame: pl.DataFrame, index: pl.DataFrame, shared: _Shared) -> pl.DataFrame:
    """The entry rows of ``frame`` resolved and prepared (``prepare_rows``)."""
    return prepare_rows(resolve(frame, shared.cards, shared.fmt), index)


def _few_index(entries: pl.DataFrame, registered: pl.DataFrame | None,
               deck_ids: list[str] | None) -> pl.DataFrame | None:
    """``deck_index`` of a few entries, read in Python (None: more than FEW_DECKS decks)."""
    ids = list(deck_ids or [])
    for frame in (entries, registered):
        if frame is not None:
            ids += frame["deck_id"].cast(pl.Utf8).to_list()
    order = list(dict.fromkeys(ids))
    if len(order) > FEW_DECKS:
        return None
    return pl.DataFrame([pl.Series("deck", range(len(order)), dtype=pl.UInt32),
                         pl.Series("deck_id", order, dtype=pl.Utf8)])


#: the columns of ``unreadable_by_deck``'s frame
_UNREAD_SCHEMA = {**{c: t for c, t in UNREADABLE_SCHEMA.items() if c != "deck_id"},
                  "deck": pl.UInt32()}


#: no unreadable row, and no violation, made once (polars frames are not changed in place)
_NO_UNREAD = pl.DataFrame(schema=_UNREAD_SCHEMA)
_NO_VIOLATIONS = pl.DataFrame(schema=VIOLATION_SCHEMA)


def _unread_few(frame: pl.DataFrame | None, index: pl.DataFrame) -> pl.DataFrame:
    """``unreadable_by_deck``, without a pass when no row is unreadable."""
    if frame is None or frame.is_empty():
        return _NO_UNREAD
    return unreadable_by_deck(frame, index)


def _rows_plan(resolved: pl.LazyFrame, index: pl.DataFrame) -> pl.LazyFrame:
    """``prepare_rows`` as a plan: each row's deck number looked up from ``index``."""
    ids = index.filter(pl.col("deck_id").is_not_null()) if index["deck_id"].has_nulls() \
        else index
    deck = pl.col("deck_id").cast(pl.Utf8).replace_strict(
        ids["deck_id"], ids["deck"], default=None, return_dtype=pl.UInt32)
    key = pl.coalesce("card_id", "passcode", pl.lit(UNRESOLVED_KEY, pl.Int64))
    fuzzy = pl.when(pl.col("how") == "fuzzy").then(pl.col("name"))
    return resolved.with_columns(deck.alias("deck"), key.alias("key"),
                                 fuzzy.alias("read_from")).drop("deck_id", "how") \
        .with_row_index("row")


def _sizes_plan(index: pl.DataFrame, deck_cards: pl.LazyFrame,
                rows: pl.LazyFrame) -> pl.LazyFrame:
    """``deck_sizes`` as a plan."""
    main = pl.when(pl.col("kind") == "skill").then(0).otherwise(pl.col("main"))
    counted = index.lazy().join(
        deck_cards.set_sorted("deck").group_by("deck", maintain_order=True).agg(
            main.sum().alias("main"), pl.col("extra", "side").sum(), pl.col("row").min()),
        on="deck", how="left",
    ).with_columns(pl.col(*SECTIONS).fill_null(0))
    return counted.join(rows.select("row", pl.col("file").alias("source")), on="row",
                        how="left", maintain_order="left").drop("row")


def _same_as_listed_few(mine: pl.DataFrame, theirs: pl.DataFrame, decks: int) -> pl.Series:
    """``same_as_listed`` of a few decks, read in Python."""
    listed = {row[0]: row[1:] for row in theirs.rows()}
    same = [False] * decks
    for deck, *sums in mine.rows():
        if deck in listed and listed[deck] == tuple(sums):
            same[deck] = True
    return pl.Series(same, dtype=pl.Boolean)


#: each card table's rule gates of a check of a few decks, made at its first such check
_GATES: weakref.WeakKeyDictionary[CardTable, dict[RuleModule, pl.Expr]] = \
    weakref.WeakKeyDictionary()


#: over deck-by-card rows: some known card's name is shared with other cards
_ANY_FOLDED = ((pl.col("status") == "ok") & pl.col("folded")).any().alias("__folded")


def _gates(table: CardTable) -> dict[RuleModule, pl.Expr]:
    """Each rule with a ``could_find`` condition, and that condition over deck-by-card rows
    (named by the rule's module): a rule none of whose rows hold it finds nothing."""
    gates = _GATES.get(table)
    if gates is None:
        gates = _GATES[table] = {
            module: module.could_find(table.fmt).alias(module.__name__)
            for module in MODULES if hasattr(module, "could_find")}
    return gates


#: each card table's condition of the rows the rules over known cards read
_CANDIDATE: weakref.WeakKeyDictionary[CardTable, pl.Expr] = weakref.WeakKeyDictionary()


def _candidate(table: CardTable) -> pl.Expr:
    """Over deck-by-card rows: a known card's row that some rule over known cards could
    fail (``could_fail``), built once per card table."""
    held = _CANDIDATE.get(table)
    if held is None:
        held = _CANDIDATE[table] = (pl.col("status") == "ok") & could_fail(table.fmt)
    return held


@dataclass(frozen=True)
class ListedFew:
    """A registered list as the check of its one deck takes it (``ListedDecks.of``): its
    rows resolved and numbered as deck 0 (``rows``), its ``fingerprint``, its deck-by-card
    table (``cards``) and each row's card id, made for the card table ``table``."""

    deck_id: str
    rows: pl.DataFrame
    fingerprint: pl.DataFrame
    cards: pl.DataFrame
    card_ids: list[int | None]
    table: CardTable


class ListedDecks:
    """Every registered list of an event as a check of one deck against its list takes
    it, made once for a card table in a few polars passes over all the lists: a judge's
    check of a player's deck then neither resolves nor counts the player's list again.
    Each list's rows keep their order in ``registered``, as a filter of its deck id gives
    them."""

    def __init__(self, registered: pl.DataFrame, table: CardTable) -> None:
        self.table = table
        entries = entry_rows_few(registered, "registered lists")
        ids = entries.get_column("deck_id").cast(pl.Utf8)
        order = ids.unique(maintain_order=True)
        number = ids.replace_strict(order, pl.int_range(order.len(), dtype=pl.UInt32,
                                                        eager=True), default=None)
        resolved = resolve(entries, table.cards, table.fmt).with_columns(number.alias("deck"))
        if not number.is_sorted():
            resolved = resolved.sort("deck", maintain_order=True)
        key = pl.coalesce("card_id", "passcode", pl.lit(UNRESOLVED_KEY, pl.Int64))
        fuzzy = pl.when(pl.col("how") == "fuzzy").then(pl.col("name"))
        # the columns of ``_rows_plan``, each list's rows numbered from 0
        rows = resolved.lazy().select(
            pl.int_range(pl.len(), dtype=pl.UInt32).over("deck").alias("row"),
            pl.exclude("deck_id", "how", "deck"), pl.col("deck"), key.alias("key"),
            fuzzy.alias("read_from"))
        self.rows, self.fingerprints, self.cards = pl.collect_all(
            [rows, fingerprints(rows).sort("deck"),
             deck_by_card_few(rows.select("deck", "key", "section", "qty", "row", "card_id"))],
            engine=ENGINE)
        self.number = dict(zip(order.to_list(), range(order.len()), strict=True))
        self.row_spans = _spans(self.rows.get_column("deck"), order.len())
        self.card_spans = _spans(self.cards.get_column("deck"), order.len())
        # each list as deck 0, with the key packed with its deck number as a check of that
        # deck alone packs it
        zero = pl.lit(0, pl.UInt32).alias("deck")
        self.rows = self.rows.with_columns(zero)
        self.fingerprints = self.fingerprints.with_columns(zero)
        self.cards = self.cards.with_columns(
            pl.col("deck_key") - pl.col("deck").cast(pl.Int64) * _KEY_BITS, zero)

    def of(self, deck_id: str) -> ListedFew | None:
        """The list of ``deck_id`` (None: no list of that id)."""
        at = self.number.get(deck_id)
        if at is None:
            return None
        start, length = self.row_spans[at]
        rows = self.rows.slice(start, length)
        start, length = self.card_spans[at]
        return ListedFew(deck_id, rows, self.fingerprints.slice(at, 1),
                         self.cards.slice(start, length), rows.get_column("card_id").to_list(),
                         self.table)


def _spans(decks: pl.Series, count: int) -> list[tuple[int, int]]:
    """Where each deck number's rows are in a frame sorted by deck: (start, length); (0, 0)
    for a deck without rows."""
    runs = decks.rle().struct.unnest()
    lengths = runs.get_column("len").cast(pl.Int64)
    at = runs.get_column("value").cast(pl.Int64)
    starts = pl.zeros(count, pl.Int64, eager=True).scatter(at, lengths.cum_sum() - lengths)
    spans = pl.zeros(count, pl.Int64, eager=True).scatter(at, lengths)
    return list(zip(starts.to_list(), spans.to_list(), strict=True))


def _check_few(entries: pl.DataFrame, registered: pl.DataFrame | None, *,
               unread: pl.DataFrame, index: pl.DataFrame, shared: _Shared,
               made_list: ListedFew | None = None) -> CheckResult:
    """:func:`_check` of a few decks, its verdicts and rows the same: every frame planned and
    collected in four passes — the rows with the deck-by-card tables, then the decks' sizes
    and which rules could find rows, then those rules' failing rows, then those rows worded
    —, a handful of violations then located, sorted and given their decks' statuses in
    Python (more in one more pass), instead of a polars pass per step (each costs about as
    much as checking a deck)."""
    cards, fmt, banlist = shared.cards, shared.fmt, shared.banlist
    clock = _Clock()
    resolved, card_ids = resolve_few(entries, cards, fmt)
    rows = _rows_plan(resolved, index)
    reg_rows = None
    if made_list is not None:  # the list as made before: neither resolved nor counted again
        card_ids = card_ids + made_list.card_ids
    elif registered is not None:
        reg_resolved, listed_ids = resolve_few(registered, cards, fmt)
        reg_rows = _rows_plan(reg_resolved, index)
        card_ids = card_ids + listed_ids
    clock.lap("resolve")
    prepared = _few_cards(shared.table, card_ids)
    attrs = prepared.held_of(card_ids)
    deck_cards_plan = deck_by_card_few(rows).join(
        attrs.lazy().select(prepared.narrow_columns), on="card_id", how="left",
        maintain_order="left")
    plans = [resolved, rows, deck_cards_plan]
    if reg_rows is not None:
        plans += [reg_rows, fingerprints(rows), fingerprints(reg_rows),
                  deck_by_card_few(reg_rows.select("deck", "key", "section", "qty", "row",
                                               "card_id"))]
    elif made_list is not None:
        plans.append(fingerprints(rows))
    resolved_df, rows_df, deck_cards, *more = pl.collect_all(plans, engine=ENGINE,
                                                          optimizations=FEW_PLANS)
    # over the deck-by-card table collected (planned again in the pass above, the table
    # would be made once per frame read from it): the decks' sizes, the rows the rules
    # over known cards read, and which rules could find a row (those that cannot are not
    # planned)
    gates = _gates(shared.table)
    sizes, could, *picked = pl.collect_all(
        [_sizes_plan(index, deck_cards.lazy(), rows_df.lazy()),
         deck_cards.lazy().select(*(gate.any() for gate in gates.values()), _ANY_FOLDED),
         *([deck_cards.lazy().filter(_candidate(shared.table))] if _CANDIDATES else [])],
        engine=ENGINE, optimizations=FEW_PLANS)
    candidates = picked[0] if picked else None
    skipped = {module for module, found in zip(gates, could.row(0)[:len(gates)], strict=True)
               if not found}
    none_folded = not could["__folded"][0]
    same_as_list = reg_df = registered_cards = None
    if made_list is not None:
        more = [made_list.rows, *more, made_list.fingerprint, made_list.cards]
    if more:
        reg_df, mine, theirs, listed_cards = more
        same_as_list = _same_as_listed_few(mine, theirs, index.height)
        registered_cards = listed_cards.lazy().filter(
            ~pl.lit(same_as_list).gather(pl.col("deck")))
    clock.lap("deck-by-card table")
    stale = stale_hint(cards, banlist)
    ctx = Context(
        fmt=fmt, whitelist=banlist.whitelist, attrs=attrs.lazy(), rows=rows_df.lazy(),
        deck_cards=deck_cards.lazy(), sizes=sizes.lazy(),
        registered=reg_df.lazy() if reg_df is not None else None,
        registered_cards=registered_cards, same_as_list=same_as_list,
        list_problems=shared.list_problems, stale=stale,
        stale_dates=(str(cards.data_date), banlist.name) if stale else None,
        siding=shared.siding, unreadable=unread.lazy() if unread.height else None,
        candidates=candidates.lazy() if candidates is not None else None, few=True,
        none_folded=none_folded,
    )
    clock.lap("sizes")
    # which of the few cards without release information the decks hold, and the decks and
    # lists with a decision open (an unresolved name, an unreadable row), read in Python
    silent = prepared.silent_names
    unknown_release = sorted({name for card in deck_cards["card_id"].to_list()
                              if card in silent and (name := silent[card]) is not None})
    missing = _mostly_unknown(deck_cards, index, cards)
    open_decks = _open_few(rows_df, unread, on_list=False)
    open_lists = _open_few(reg_df, unread, on_list=True)
    failing = [item for module in MODULES if module not in skipped
               for item in module.check(ctx)]
    failing_rows = pl.collect_all([item.frame for item in failing], engine=ENGINE,
                                  optimizations=FEW_PLANS) if failing else []
    worded = [item.plan(rows_found, particles=False, langs=shared.langs)
              for item, rows_found in zip(failing, failing_rows, strict=True)
              if rows_found.height]
    clock.lap("rules")
    if shared.counted_from_list:
        open_decks = pl.concat([open_decks, open_lists])
    listed = reg_df["deck"] if reg_df is not None else pl.Series([], dtype=pl.UInt32)
    names = pl.DataFrame([attrs.get_column(c) for c in
                          ("card_id", "card", *LOCAL_CARD_COLUMNS, "counts_as")])
    found_df = pl.concat(worded).collect(engine=ENGINE, optimizations=FEW_PLANS) \
        if worded else _NO_VIOLATIONS
    if found_df.height <= FEW_VIOLATIONS:
        # a handful of violations: located, marked, joined and sorted in Python, no pass
        marked = located_few(found_df, rows_df, reg_df, set(open_decks["deck"].to_list()),
                             set(open_lists["deck"].to_list()))
        violations = _violations_few(marked, index, names)
        decks = verdicts_few(marked, sizes)
        compared = set(listed.to_list())
        decks = decks.hstack([pl.Series("compared", [d in compared for d in
                                                     decks.get_column("deck").to_list()],
                                        dtype=pl.Boolean)])
        unplain_df = _unplain_few(resolved_df, attrs)
    else:
        violations, decks, unplain_df = _report_rows(
            found_df.lazy(), rows_df, reg_df, open_decks["deck"], open_lists["deck"],
            sizes, listed, index, names, resolved_df, attrs)
    sources = ", ".join(str(s.get("source")) for s in cards.sources)
    return CheckResult(
        decks=decks, violations=_korean_particles(violations), format=fmt,
        banlist=banlist.name, banlist_effective=banlist.effective,
        banlist_reason=banlist.reason, cards=sources, resolved=unplain_df,
        warnings=evidence_warnings(
            list(banlist.warnings) + list(shared.table.warnings) + list(cards.warnings)
            + _demo_warning(cards) + missing, fmt, unknown_release, sources),
        timings=clock.lap("report rows"),
        release_unknown=unknown_release,
        langs=shared.langs,
    )


def _open_few(rows: pl.DataFrame | None, unread: pl.DataFrame, *,
              on_list: bool) -> pl.DataFrame:
    """``open_decisions`` of a few decks (as a frame of ``deck``), read in Python: the decks
    of the rows (the checked ones, or the lists' when ``on_list``) naming no card, and of
    the unreadable rows of that side."""
    decks: list[int] = []
    if rows is not None:
        decks += [deck for deck, status in zip(rows["deck"].to_list(),
                                               rows["status"].to_list(), strict=True)
                  if status == "unresolved"]
    decks += [deck for deck, side in zip(unread["deck"].to_list(), unread["on_list"].to_list(),
                                         strict=True) if side is on_list]
    return pl.DataFrame([pl.Series("deck", decks, dtype=pl.UInt32)])


#: a check of a few decks with at most this many violations has them located, marked and
#: sorted in Python (``_violations_few``) rather than in a polars pass
FEW_VIOLATIONS = 16


def _report_rows(found: pl.LazyFrame, rows_df: pl.DataFrame, reg_df: pl.DataFrame | None,
                 open_decks: pl.Series, open_lists: pl.Series, sizes: pl.DataFrame,
                 listed: pl.Series, index: pl.DataFrame, names: pl.DataFrame,
                 resolved_df: pl.DataFrame, attrs: pl.DataFrame) -> tuple[
                     pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The violations worded, located and sorted, the decks' statuses and the entries not
    plainly resolved, planned and collected in one pass."""
    located = statuses_plan(found, rows_df.lazy(), reg_df.lazy() if reg_df is not None
                            else None, open_decks, open_lists)
    decks_plan = verdicts_plan(held_plan(found, open_decks, open_lists),
                               sizes.lazy().sort("deck"))
    violations_plan = (
        located.drop("row", "on_list").join(index.lazy(), on="deck", how="left")
        .join(names.lazy(), on="card_id", how="left")
        .with_columns(pl.col("code").cast(_CODE_ORDER))
        .sort("deck", "code", "section", "card_id", "passcode", nulls_last=True)
        .with_columns(pl.col("code").cast(pl.Utf8)))
    unplain = resolved_df.lazy().filter(
        (pl.col("status") != "ok") | (pl.col("how") == "fuzzy")).join(
        attrs.lazy().select("card_id", "card"), on="card_id", how="left",
        maintain_order="left")
    violations, decks, unplain_df = pl.collect_all(
        [violations_plan,
         decks_plan.with_columns(pl.col("deck").is_in(pl.lit(listed).implode())
                                 .alias("compared")),
         unplain], engine=ENGINE)
    return violations, decks, unplain_df


_CODE_AT = {code: at for at, code in enumerate(CODES)}
_SECTION_AT = {section: at for at, section in enumerate(SECTIONS)}


def _last(value: int | None) -> tuple[bool, int]:
    """A sort key of a value, nulls last."""
    return (value is None, value or 0)


def _violations_few(marked: pl.DataFrame, index: pl.DataFrame,
                    names: pl.DataFrame) -> pl.DataFrame:
    """The marked violations (``status.located_few``) with their deck ids and card names,
    sorted by deck, code (registry order), section, card and passcode, nulls last: the
    rows of ``_report_rows``, read in Python."""
    keys = [(_last(deck), _CODE_AT[code], _last(_SECTION_AT.get(section)), _last(card),
             _last(passcode)) for deck, code, section, card, passcode in zip(
                 *(marked.get_column(c).to_list()
                   for c in ("deck", "code", "section", "card_id", "passcode")), strict=True)]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    kept = pl.DataFrame([marked.get_column(c) for c in marked.columns
                         if c not in ("row", "on_list")])
    if order != sorted(order):
        kept = kept[pl.Series(order, dtype=pl.UInt32)]
    deck_at = {deck: at for at, deck in enumerate(index.get_column("deck").to_list())}
    card_at = {card: at for at, card in enumerate(names.get_column("card_id").to_list())}
    decks = [deck_at.get(deck) for deck in kept.get_column("deck").to_list()]
    cards = [card_at.get(card) for card in kept.get_column("card_id").to_list()]
    ids = index.get_column("deck_id")[pl.Series(decks, dtype=pl.UInt32)]
    named = names[pl.Series(cards, dtype=pl.UInt32)]
    return kept.hstack([ids, *(named.get_column(c) for c in named.columns
                               if c != "card_id")])


def _unplain_few(resolved: pl.DataFrame, attrs: pl.DataFrame) -> pl.DataFrame:
    """The entries not plainly resolved (unknown, unresolved, fuzzy) with their card's name,
    read in Python: the rows of ``_report_rows``."""
    picked = [at for at, (status, how) in enumerate(zip(
        resolved.get_column("status").to_list(), resolved.get_column("how").to_list(),
        strict=True)) if (status is not None and status != "ok") or how == "fuzzy"]
    rows = resolved[pl.Series(picked, dtype=pl.UInt32)]
    card_at = {card: at for at, card in enumerate(attrs.get_column("card_id").to_list())}
    at = [card_at.get(card) for card in rows.get_column("card_id").to_list()]
    return rows.hstack([attrs.get_column("card")[pl.Series(at, dtype=pl.UInt32)]])


def _korean_particles(violations: pl.DataFrame) -> pl.DataFrame:
    """The few violations with their Korean messages' doubled particles resolved in Python
    (``korean_particles``: the text of the engine's patterns), in place: no polars pass."""
    at = violations.get_column_index("message_ko")
    texts = violations["message_ko"].to_list()
    violations.replace_column(at, pl.Series(
        "message_ko", [korean_particles(t) if t is not None else None for t in texts],
        dtype=pl.Utf8))
    return violations


#: warnings of one chunk of decks (the others are the same in every chunk)
_PER_CHUNK = ("CARD_DATA_MISSING", "NO_RELEASE_INFO")
#: cards named in the warning about cards without release information
_NAMED = 30


def evidence_warnings(warnings: list[Problem], fmt: Format, unknown: list[str],
                      sources: str = "") -> list[Problem]:
    """The warnings, and one more naming the cards of the decks about whose release in the
    format's regions no source says anything (with what to import to know: a cdb, or a
    newer one when ``sources``, the card data's files, hold one already)."""
    if not unknown:
        return warnings
    region = "/".join(p.upper() for p in fmt.card_pool)
    # the first names, then "…" (the count is in the sentence): no words of one language
    shown = ", ".join(unknown[:_NAMED]) + (", …" if len(unknown) > _NAMED else "")
    command = ("`deckcheck data import cards-rush.cdb`" if fmt.rush else
               "`deckcheck data import cards.delta.cdb`")
    cdbs = [p for p in sources.split(", ") if p.endswith(".cdb")]
    # the game's cdb in the card data already: these cards are newer than it
    newer = any(("rush" in p.rsplit("/", 1)[-1].lower()) == fmt.rush for p in cdbs)
    msgid = _NO_RELEASE[(fmt.rush, newer)]
    values = {"n": str(len(unknown)), "region": region, "cards": shown, "command": command}
    return [*warnings, Problem("card data", None, None, say("en", msgid, **values),
                               code="NO_RELEASE_INFO", msgid=msgid,
                               values=tuple(values.items()))]


_NO_RELEASE_START = ("{n} card(s) of the decks have no release information for {region} in "
                     "the card data, so none was called unreleased: {cards}; import ")
#: the NO_RELEASE_INFO warning by (Rush, the game's cdb imported already)
_NO_RELEASE = {
    (True, False): _NO_RELEASE_START + "the Rush cdb ({command}) to know",
    (True, True): _NO_RELEASE_START + "a newer Rush cdb ({command}) to know",
    (False, False): _NO_RELEASE_START + "the OCG/TCG cdb ({command}) to know",
    (False, True): _NO_RELEASE_START + "a newer OCG/TCG cdb ({command}) to know",
}
_DEMO = ("checked against the demo card pool (about 370 cards), not real card data: import "
         "it with `deckcheck data import cards.json cards.delta.cdb 0TCG.lflist.conf` (or "
         "`deckcheck data update`)")


def _demo_warning(cards: CardDB) -> list[Problem]:
    if not any(source.get("source") == DEMO for source in cards.sources):
        return []
    return [Problem("card data", None, None, _DEMO, code="DEMO_POOL", msgid=_DEMO)]


def _mostly_unknown(deck_cards: pl.DataFrame, index: pl.DataFrame,
                    cards: CardDB) -> list[Problem]:
    """A warning per deck most of whose passcodes the card data does not know."""
    if int((deck_cards["status"] == "unknown").sum()) < 3:  # then no deck has 3
        return []
    # decks with 3 unknown passcodes or more first (few), then their cards counted
    suspect = (deck_cards.lazy().filter(pl.col("status") == "unknown").group_by("deck")
               .len("unknown").filter(pl.col("unknown") >= 3).collect(engine=ENGINE))
    by_deck = (
        deck_cards.lazy().filter(pl.col("deck").is_in(suspect["deck"].implode())
                                 & (pl.col("status") != "unresolved"))
        .group_by("deck").len("cards").join(suspect.lazy(), on="deck")
        .filter(pl.col("unknown") * 2 > pl.col("cards"))
        .join(index.lazy(), on="deck").sort("deck").collect(engine=ENGINE)
    )
    msgid = _MOSTLY_UNKNOWN[bool(cards.data_date)]
    found = [{"unknown": str(row["unknown"]), "cards": str(row["cards"]),
              "date": str(cards.data_date), "deck": str(row["deck_id"])}
             for row in by_deck.iter_rows(named=True)]
    return [Problem(values.pop("deck"), None, None, say("en", msgid, **values),
                    code="CARD_DATA_MISSING", msgid=msgid, values=tuple(values.items()))
            for values in found]


#: the CARD_DATA_MISSING warning, by whether the card data has a date
_MOSTLY_UNKNOWN = {
    True: "{unknown} of the deck's {cards} different cards have passcodes the card data "
          "(dated {date}) does not know: the card data may be missing or old "
          "(`deckcheck data update`)",
    False: "{unknown} of the deck's {cards} different cards have passcodes the card data "
           "does not know: the card data may be missing or old (`deckcheck data update`)",
}
