"""A judge's deck check: the deck as found against the player's registered list.

The found deck is given as counts per registered card (and extra cards by name), or as a
pasted deck (YDK, ydke link, deck code or text list). The engine checks it like any deck, and
the report model judges it like any check: the penalty follows the regulation, with timing
from the stage (in a duel, between duels).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.engine.check import CheckResult, ListedFew, check
from validator.engine.resolve import resolve, resolve_few
from validator.engine.rules import COMPARING_CODES
from validator.engine.tables import CardTable
from validator.errors import InputError, Problem
from validator.inputs.decks.batch import parse_sources
from validator.inputs.decks.sources import Source
from validator.inputs.entries import entries_frame
from validator.judging.penalties import Policy
from validator.judging.siding import exchanges_allowed
from validator.vocab import SECTIONS, Stage

__all__ = ["JudgeCheck", "ListLine", "SideBySide", "beside", "card_names", "counts_changed",
           "decision", "found_deck", "grouped_lines", "judge_check", "lines_of", "read_as",
           "registered_lines", "side_by_side", "unknown_names"]

GROUPS = ("monster", "spell", "trap", "extra", "side")


@dataclass(frozen=True)
class ListLine:
    """One line of a registered list, laid out for counting."""

    group: str  # monster, spell, trap, extra, side, or "unreadable"
    section: str
    key: int | None  # the card; None: the head judge must decide what the line is
    name: str  # the card's name; for an unreadable line, what the line says, as written
    qty: int | None  # None: the quantity could not be read
    where: str
    note: str = ""  # why the line is unreadable
    read_as: str = ""  # an unreadable line: the one card its name names, when it names one
    candidates: tuple[str, ...] = ()  # a name that names no single card: the nearest cards


def read_as(texts: list[str], cards: CardDB, fmt: Format) -> dict[str, str]:
    """The card each text names, by its English name, for the texts that name one card."""
    if not texts:
        return {}
    resolved = resolve(entries_frame([{"name": t, "qty": 1} for t in texts]), cards, fmt) \
        .join(cards.by_card.select("card_id", "name_en"), on="card_id", how="left")
    return {str(name): str(card) for name, card in resolved.select("name", "name_en")
            .drop_nulls().iter_rows()}


def registered_lines(entries: pl.DataFrame, cards: CardDB, fmt: Format,
                     unreadable: list[Problem] | None = None) -> list[ListLine]:
    """A player's registered list grouped Monster/Spell/Trap/Extra/Side, by card; entries
    that name no single card (with the nearest cards) and rows that could not be read (with
    the card their name names) come last as "unreadable" lines, never counted as if they
    were read."""
    resolved = None if entries.is_empty() else _resolved(entries, cards, fmt)
    return _lines(resolved, cards, fmt, unreadable)


#: the most resolved entries given their cards' names from a dict (a page's, a check's)
_FEW = 2_000
#: the card data whose cards' English names and kinds are kept, and those, by card id
_NAMES_OF: list[tuple[pl.DataFrame, dict[int, tuple[str | None, str | None]]]] = []


def _names_and_kinds(by_card: pl.DataFrame) -> dict[int, tuple[str | None, str | None]]:
    """Each card's English name and kind, made once per card data."""
    if not _NAMES_OF or _NAMES_OF[0][0] is not by_card:
        _NAMES_OF[:] = [(by_card, {int(card): (name, kind) for card, name, kind in by_card.select(
            "card_id", "name_en", pl.col("kind").cast(pl.Utf8)).iter_rows()})]
    return _NAMES_OF[0][1]


def _resolved(entries: pl.DataFrame, cards: CardDB, fmt: Format) -> pl.DataFrame:
    """Entries resolved, with their card's English name and kind (for a few entries looked
    up in a dict made once per card data: a join would read every card on each page)."""
    by_card = cards.by_card
    if entries.height > _FEW:
        return resolve(entries, cards, fmt).join(
            by_card.select("card_id", "name_en", "kind"), on="card_id", how="left",
            maintain_order="left")
    resolved, card_ids = resolve_few(entries, cards, fmt)  # planned: one pass with the names
    of = _names_and_kinds(by_card)
    found = [of.get(card, (None, None)) if card is not None else (None, None)
             for card in card_ids]
    return resolved.with_columns(
        pl.Series("name_en", [name for name, _ in found], dtype=by_card.schema["name_en"]),
        pl.Series("kind", [kind for _, kind in found], dtype=pl.Utf8).cast(
            by_card.schema["kind"])).collect(engine="in-memory")


def _lines(resolved: pl.DataFrame | None, cards: CardDB, fmt: Format,
           unreadable: list[Problem] | None = None) -> list[ListLine]:
    """:func:`registered_lines` of entries already resolved (None: no entries)."""
    return lines_of(None if resolved is None else _grouped(resolved), cards, fmt, unreadable)


def _grouped(resolved: pl.DataFrame) -> pl.DataFrame:
    """Resolved entries as lines, one per deck, section and card, in their order."""
    return (
        resolved.with_columns(
            pl.when(pl.col("card_id").is_null()).then(pl.col("name")).alias("typed"),
            # each entry that names no card is a line of its own, at its own address
            pl.when(pl.col("card_id").is_null()).then(pl.int_range(pl.len()))
            .alias("alone"))
        .group_by("deck_id", "section", "card_id", "typed", "alone", maintain_order=True)
        .agg(pl.col("qty").sum(), pl.col("name_en").first(), pl.col("kind").first(),
             pl.col("cell").first(), pl.col("line").first(),
             pl.col("suggestions").first())
    )


#: the most entries resolved together when many decks' lines are made: a bound on the
#: memory the resolver's intermediate tables take at once
LINES_AT_ONCE = 40_000


def grouped_lines(entries: pl.DataFrame, cards: CardDB, fmt: Format) -> pl.DataFrame:
    """Many decks' entries resolved and grouped into lines at once (an event's lists or
    decks, made once): one row per deck, section and card; a deck's rows, given to
    :func:`lines_of`, are its :func:`registered_lines`. The decks are taken a part at a
    time (every entry of a deck in the same part; entries are resolved row by row), so the
    memory this takes stays small at any event's size."""
    if entries.height <= LINES_AT_ONCE:
        return _grouped(_resolved(entries, cards, fmt))
    decks = entries.get_column("deck_id").unique(maintain_order=True)
    per_part = max(1, decks.len() * LINES_AT_ONCE // entries.height)
    parts = (entries.filter(pl.col("deck_id").is_in(
        decks.slice(at, per_part).implode(), nulls_equal=True))
        for at in range(0, decks.len(), per_part))
    return pl.concat([_grouped(_resolved(part, cards, fmt)) for part in parts])


def lines_of(grouped: pl.DataFrame | None, cards: CardDB, fmt: Format,
             unreadable: list[Problem] | None = None) -> list[ListLine]:
    """A deck's lines from its rows of :func:`grouped_lines` (None or none: no entries) and
    the rows of its list that could not be read."""
    lines: list[ListLine] = []
    for row in () if grouped is None else grouped.iter_rows(named=True):
        section = str(row["section"])
        where = row["cell"] or (f"line {row['line']}" if row["line"] else "")
        if row["card_id"] is None:
            near = tuple(row["suggestions"] or [])
            lines.append(ListLine("unreadable", section, None, str(row["typed"] or "?"),
                                  row["qty"], where, "names no single card"
                                  + (f": {' / '.join(near)}?" if near else ""),
                                  candidates=near))
            continue
        group = section if section != "main" else str(row["kind"] or "monster")
        lines.append(ListLine(group if group in GROUPS else "monster", section,
                              int(row["card_id"]), str(row["name_en"]), row["qty"], where))
    rows = unreadable or []
    named = read_as([p.text for p in rows if p.text], cards, fmt)
    for problem in rows:
        lines.append(ListLine("unreadable", problem.section or "main", None, problem.text or "",
                              None, problem.column or f"line {problem.line}", problem.message,
                              read_as=named.get(problem.text or "", "")))
    order = {g: i for i, g in enumerate((*GROUPS, "unreadable"))}
    return sorted(lines, key=lambda line: (order[line.group], line.name))


@dataclass(frozen=True)
class SideBySide:
    """One line of a registered list beside the deck, for reading both at a glance."""

    group: str
    name: str
    listed: int | None
    deck: int | None  # None: no deck was submitted
    where: str
    differs: bool  # the engine found a difference for this card and section


def _resolved_both(registered: pl.DataFrame, deck: pl.DataFrame | None, cards: CardDB,
                   fmt: Format) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
    """A list's and a deck's entries resolved in one call (each None when it has none), as
    each is resolved alone: entries are resolved row by row."""
    parts = [frame for frame in (registered, deck) if frame is not None and
             not frame.is_empty()]
    if len(parts) < 2 or registered.schema != (deck.schema if deck is not None else None):
        return (None if registered.is_empty() else _resolved(registered, cards, fmt),
                None if deck is None or deck.is_empty() else _resolved(deck, cards, fmt))
    both = _resolved(pl.concat(parts), cards, fmt)
    return both.head(registered.height), both.slice(registered.height)


def side_by_side(registered: pl.DataFrame, deck: pl.DataFrame | None, violations: pl.DataFrame,
                 cards: CardDB, fmt: Format, unreadable: list[Problem] | None = None) -> (
        list[SideBySide]):
    """A player's list beside the deck they submitted. Which lines differ is what the engine's
    list comparison (LIST_MISMATCH) found, never decided here a second time."""
    listed_rows, deck_rows = _resolved_both(registered, deck, cards, fmt)
    return beside(_lines(listed_rows, cards, fmt, unreadable),
                  None if deck is None else _lines(deck_rows, cards, fmt), violations, cards)


def beside(listed: list[ListLine], deck: list[ListLine] | None, violations: pl.DataFrame,
           cards: CardDB) -> list[SideBySide]:
    """:func:`side_by_side` of a list's lines and a deck's (None: no deck was submitted)."""
    found: dict[tuple[str, int], int] = {}
    for line in deck or []:
        if line.key is not None:
            found[line.section, line.key] = found.get((line.section, line.key), 0) + (
                line.qty or 0)
    # a page's few violations read as lists: a filter would cost more than the page
    differs = {(str(section), int(card if card is not None else passcode))
               for code, section, card, passcode in zip(
                   *(violations.get_column(c).to_list()
                     for c in ("code", "section", "card_id", "passcode")), strict=True)
               if code in COMPARING_CODES and section is not None
               and (card is not None or passcode is not None)}
    rows = [SideBySide(line.group, line.name if line.key is not None else " — ".join(
                           t for t in (line.name, line.note) if t), line.qty,
                       None if deck is None or line.key is None
                       else found.pop((line.section, line.key), 0),
                       line.where, (line.section, line.key or 0) in differs)
            for line in listed]
    names = dict(cards.by_card.filter(pl.col("card_id").is_in([key for _, key in found]))
                 .select("card_id", "name_en").iter_rows()) if found else {}
    rows += [SideBySide(section, str(names.get(key, key)), 0, qty, "", (section, key) in differs)
             for (section, key), qty in found.items()]
    return rows


def found_deck(player_id: str, counts: dict[tuple[str, int], int],
               extra: list[tuple[str, str, int]], pasted: str = "") -> pl.DataFrame:
    """The deck as the judge found it: counted cards by key, added cards by name, or a
    pasted deck (which, when given, is the whole deck)."""
    text = pasted.strip()
    if text:  # read as a submitted deck is: YDK, a ydke link, a deck code or a text list
        read = parse_sources([Source("judge", player_id, text.encode())], [])
        if read.problems:
            raise InputError(read.problems)
        return read.entries
    rows: list[dict[str, object]] = [
        {"deck_id": player_id, "section": section, "passcode": key, "qty": qty, "file": "judge"}
        for (section, key), qty in counts.items() if qty > 0 and section in SECTIONS]
    rows += [{"deck_id": player_id, "section": section, "name": name, "qty": qty,
              "file": "judge"} for section, name, qty in extra
             if name.strip() and qty > 0 and section in SECTIONS]
    return entries_frame(rows)


def unknown_names(names: list[str], cards: CardDB, fmt: Format | None) -> dict[
        str, list[str]]:
    """Of the card names a judge typed, those that read as no single card, each with the
    nearest names: sent back to the judge to fix (a judge's typo is not a list's open
    line for the head judge)."""
    typed = sorted({name.strip() for name in names if name.strip()})
    if not typed:
        return {}
    read = resolve(entries_frame([{"deck_id": "judge", "section": "main", "name": name,
                                   "qty": 1, "file": "judge"} for name in typed]), cards, fmt)
    return {str(row["name"]): list(row["suggestions"] or [])
            for row in read.iter_rows(named=True) if row["status"] != "ok"}


def card_names(cards: CardDB, needle: str, langs: tuple[str, ...], limit: int = 20) -> list[
        str]:
    """Card names in ``langs`` that contain ``needle`` (case and width folded), those that
    start with it first: a judge's autocomplete."""
    folded = needle.strip().casefold()
    if not folded:
        return []
    found = (cards.names.filter(pl.col("lang").is_in(list(langs)))
             .select("name").unique()
             .filter(pl.col("name").str.to_lowercase().str.contains(folded, literal=True))
             .with_columns(pl.col("name").str.to_lowercase().str.starts_with(folded)
                           .alias("starts"), pl.col("name").str.len_chars().alias("length"))
             .sort(["starts", "length", "name"], descending=[True, False, False])
             .head(limit))
    return [str(name) for name in found["name"]]


def counts_changed(lines: list[ListLine], counts: dict[tuple[str, int], int],
                   extra: list[tuple[str, str, int]]) -> bool:
    """Whether the judge's counts say anything but the list as registered: a count changed
    from the list's, or a card added that is not on it."""
    listed = {(line.section, line.key): line.qty or 0 for line in lines if line.key is not None}
    given = {key: qty for key, qty in counts.items() if key in listed or qty > 0}
    return bool(extra) or any(given.get(key, qty) != qty for key, qty in listed.items()) \
        or any(key not in listed for key in given)


@dataclass
class JudgeCheck:
    """The found deck checked against the registered list (``report.model`` judges it)."""

    result: CheckResult
    duel: int | None
    siding: bool
    counted: bool = False  # the deck was counted line by line from the list, not pasted


def judge_check(player_id: str, deck: pl.DataFrame, registered: pl.DataFrame, *,
                cards: CardDB, fmt: Format, banlist: Banlist, stage: Stage,
                duel: int | None = None, unreadable: pl.DataFrame | None = None,
                attributes: CardTable | None = None, counted: bool = False,
                listed: ListedFew | None = None) -> JudgeCheck:
    """The found deck against the registered list, side deck exchanges allowed as
    :func:`~validator.judging.siding.exchanges_allowed` says. ``attributes``: the card table
    of the cards, list and format, when their loader made it (a judge checks deck after deck
    against the same three). ``counted``: the deck was counted from the list's lines, so
    the lines that wait for the head judge's decision were not counted and the deck's
    verdicts wait with them, as the player's do (a pasted deck is checked as it is).
    ``listed``: the player's list as made before for ``attributes`` (``ListedDecks``), not
    resolved and counted again."""
    siding = exchanges_allowed(duel, stage)
    result = check(deck, cards=cards, fmt=fmt, banlist=banlist, registered=registered,
                   deck_ids=[player_id], siding=siding, unreadable=unreadable,
                   attributes=attributes, counted_from_list=counted, listed=listed)
    return JudgeCheck(result, duel, siding, counted)


def decision(default: str | None, chosen: str, policy: Policy) -> str:
    """confirmed, downgraded or upgraded, by the regulation's order of severity; decided
    when the regulation prescribes no penalty and the head judge chose one."""
    if default is None:
        return "decided"
    a, b = policy.severity(default), policy.severity(chosen)
    return "confirmed" if a == b else ("upgraded" if b > a else "downgraded")
