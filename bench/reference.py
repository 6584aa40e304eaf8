"""A straightforward per-deck checker: what a reasonable developer would write first.

Plain Python, one deck at a time, dictionaries for counting. It implements the same rules as
the engine (for decks given by passcode) and serves two purposes: the side-by-side baseline
of the benchmark, and a second opinion — the benchmark fails if the two disagree on any
violation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format

__all__ = ["Card", "ReferenceChecker", "Verdict"]

Verdict = tuple[str, str, str | None, int | None]  # deck, code, section, card or passcode
Row = tuple[str, int, int]  # section, passcode, quantity
SECTIONS = ("main", "extra", "side")


@dataclass(frozen=True)
class Card:
    card_id: int
    name_id: int
    kind: str
    extra: bool
    legend: bool
    rush: bool
    subtypes: frozenset[str]
    pools: frozenset[str] | None
    limit: int | None
    listed: bool
    points: float
    unreleased: frozenset[str] = frozenset()  # regions a source calls it unreleased in


class ReferenceChecker:
    def __init__(self, cards: CardDB, banlist: Banlist, fmt: Format) -> None:
        self.fmt = fmt
        self.whitelist = banlist.whitelist
        limits = {row["card_id"]: row
                  for row in banlist.bind(cards).cards.iter_rows(named=True)}
        own_list = bool(fmt.card_pool) and fmt.owns_list(banlist.name)
        self.card_of: dict[int, int] = dict(cards.printings.select("passcode", "card_id")
                                            .drop_nulls().iter_rows())
        said = (cards.legality.filter(pl.col("status") == "unreleased")
                .join(cards.printings.select("passcode", "card_id"), on="passcode")
                .select("card_id", "region"))
        unreleased: dict[int, set[str]] = {}
        for card_id, region in said.iter_rows():
            unreleased.setdefault(card_id, set()).add(region)
        self.cards: dict[int, Card] = {}
        for row in cards.by_card.iter_rows(named=True):
            entry = limits.get(row["card_id"], {})
            limit = entry.get("limit")
            if fmt.forbidden_as_limited and limit == 0:
                limit = 1
            points = entry.get("points") if banlist.genesys else row["points"]
            listed = bool(entry.get("listed", False))
            pools = None if row["pools"] is None else frozenset(row["pools"])
            if own_list and listed and pools is not None:
                pools = pools | frozenset(fmt.card_pool)  # named on the region's own list
            self.cards[row["card_id"]] = Card(
                row["card_id"], row["name_id"], row["kind"], row["extra"], row["legend"],
                row["rush"], frozenset(row["subtypes"] or ()), pools, limit, listed,
                float(points or 0.0), frozenset(unreleased.get(row["card_id"], ())))

    def _outside(self, card: Card) -> bool:
        f = self.fmt
        if card.rush != f.rush or card.kind not in f.allowed_kinds:
            return True
        if self.whitelist and not card.listed:
            return True
        if not f.card_pool or card.pools is None or card.pools & set(f.card_pool):
            return False
        # not released in the pool: outside only when a source says so (a release in other
        # regions, or "unreleased" here); no information at all is not a violation
        return bool(card.pools) or bool(card.unreleased & set(f.card_pool))

    def check_deck(self, deck: str, rows: Iterable[Row],
                   registered: Iterable[Row] | None = None) -> list[Verdict]:
        f = self.fmt
        out: list[Verdict] = []
        sizes = dict.fromkeys(SECTIONS, 0)
        per_section: dict[tuple[int, str], int] = {}
        unknown: dict[tuple[str, int], int] = {}
        for section, passcode, qty in rows:
            card_id = self.card_of.get(passcode)
            if card_id is None or self.cards[card_id].kind != "skill" or section != "main":
                sizes[section] += qty  # a Skill is not a card of the main deck
            if card_id is None:
                unknown[section, passcode] = unknown.get((section, passcode), 0) + qty
            else:
                per_section[card_id, section] = per_section.get((card_id, section), 0) + qty
        if sizes["main"] < f.main_min:
            out.append((deck, "MAIN_TOO_SMALL", "main", None))
        if sizes["main"] > f.main_max:
            out.append((deck, "MAIN_TOO_LARGE", "main", None))
        if sizes["extra"] > f.extra_max:
            out.append((deck, "EXTRA_TOO_LARGE", "extra", None))
        if sizes["side"] > f.side_max:
            out.append((deck, "SIDE_TOO_LARGE", "side", None))
        totals: dict[int, int] = {}
        names: dict[int, dict[int, int]] = {}
        for (card_id, _), qty in per_section.items():
            totals[card_id] = totals.get(card_id, 0) + qty
            per_name = names.setdefault(self.cards[card_id].name_id, {})
            per_name[card_id] = per_name.get(card_id, 0) + qty
        for name_id, members in names.items():
            total = sum(members.values())
            # the name's violation stands on its one card, or on the name when several
            key = next(iter(members)) if len(members) == 1 else name_id
            limit = self.cards[next(iter(members))].limit
            if total > f.copy_limit:
                out.append((deck, "TOO_MANY_COPIES", None, key))
            if limit is not None and 0 < limit < f.copy_limit and total > limit:
                out.append((deck, "LIMIT_EXCEEDED", None, key))
        legends: dict[str, int] = {}
        points = 0.0
        skills = 0
        for card_id, total in totals.items():
            card = self.cards[card_id]
            if card.legend:
                in_play = per_section.get((card_id, "main"), 0) + per_section.get(
                    (card_id, "extra"), 0)
                if in_play:
                    legends[card.kind] = legends.get(card.kind, 0) + in_play
            points += total * card.points
            if card.kind == "skill":
                skills += total
        for (card_id, section), _qty in per_section.items():
            card = self.cards[card_id]
            if card.limit == 0:
                out.append((deck, "FORBIDDEN_CARD", section, card_id))
            if self._outside(card):
                out.append((deck, "NOT_IN_CARD_POOL", section, card_id))
            if f.forbidden_types and card.subtypes & set(f.forbidden_types):
                out.append((deck, "FORBIDDEN_CARD_TYPE", section, card_id))
            if (section == "main" and card.extra) or (section == "extra" and not card.extra):
                out.append((deck, "WRONG_SECTION", section, card_id))
        if f.legend_limit is not None:
            out.extend((deck, "LEGEND_LIMIT_EXCEEDED", None, None)
                       for count in legends.values() if count > f.legend_limit)
        if f.points_cap is not None and points > f.points_cap:
            out.append((deck, "POINTS_EXCEEDED", None, None))
        if f.skill_max is not None and skills > f.skill_max:
            out.append((deck, "SKILL_COUNT", None, None))
        out.extend((deck, "UNKNOWN_CARD", section, passcode) for section, passcode in unknown)
        if registered is not None:
            mine = Counter[tuple[int, str]]()
            theirs = Counter[tuple[int, str]]()
            for target, source in ((mine, rows), (theirs, registered)):
                for section, passcode, qty in source:
                    target[self.card_of.get(passcode, passcode), section] += qty
            for key, section in set(mine) | set(theirs):
                if mine[key, section] != theirs[key, section]:
                    out.append((deck, "LIST_MISMATCH", section, key))
        return out


def engine_verdicts(violations: pl.DataFrame) -> Counter[Verdict]:
    """The engine's violations in the reference's terms."""
    key = (
        pl.when(pl.col("code").is_in(["UNKNOWN_CARD"])).then(pl.col("passcode"))
        .when(pl.col("code").is_in(["LEGEND_LIMIT_EXCEEDED", "POINTS_EXCEEDED", "SKILL_COUNT",
                                    "MAIN_TOO_SMALL", "MAIN_TOO_LARGE", "EXTRA_TOO_LARGE",
                                    "SIDE_TOO_LARGE"])).then(pl.lit(None, pl.Int64))
        .otherwise(pl.coalesce("card_id", "passcode"))
    )
    table = violations.select("deck_id", "code", pl.col("section").cast(pl.Utf8), key.alias("k"))
    return Counter(table.iter_rows())
