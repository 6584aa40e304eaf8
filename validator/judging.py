"""A judge's deck check: the deck as found against the player's registered list.

The found deck is given as counts per registered card (and extra cards by name), or as a
pasted deck (YDK, ydke link or text list). The engine checks it like any deck; the penalty
follows the regulation, with timing from the stage (in a duel, between duels).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from .banlist import Banlist
from .cards import CardDB
from .engine import CheckResult, check
from .entries import SECTIONS, entries_frame
from .formats import Format
from .penalties import SEVERITY, Policy, penalty_table
from .readers.textlist import parse_text_list
from .readers.ydk import is_ydke, parse_ydk, parse_ydke
from .resolve import resolve

__all__ = ["JudgeCheck", "ListLine", "decision", "found_deck", "judge_check",
           "registered_lines"]

GROUPS = ("monster", "spell", "trap", "extra", "side")


@dataclass(frozen=True)
class ListLine:
    """One line of a registered list, laid out for counting."""

    group: str  # monster, spell, trap, extra, side (or "unreadable")
    section: str
    key: int | None
    name: str
    qty: int
    where: str


def registered_lines(entries: pl.DataFrame, cards: CardDB, fmt: Format) -> list[ListLine]:
    """A player's registered list grouped Monster/Spell/Trap/Extra/Side, by card name."""
    if entries.is_empty():
        return []
    resolved = resolve(entries, cards, fmt).join(
        cards.by_card.select("card_id", "name_en", "kind"), on="card_id", how="left")
    lines: list[ListLine] = []
    grouped = (
        resolved.group_by("section", "card_id", "status", maintain_order=True)
        .agg(pl.col("qty").sum(), pl.col("name_en").first(), pl.col("kind").first(),
             pl.col("name").first(), pl.col("cell").first(), pl.col("line").first())
    )
    for row in grouped.iter_rows(named=True):
        section = str(row["section"])
        where = row["cell"] or (f"line {row['line']}" if row["line"] else "")
        if row["card_id"] is None:
            lines.append(ListLine("unreadable", section, None, str(row["name"] or "?"),
                                  row["qty"], where))
            continue
        group = section if section != "main" else str(row["kind"] or "monster")
        lines.append(ListLine(group if group in GROUPS else "monster", section,
                              int(row["card_id"]), str(row["name_en"]), row["qty"], where))
    order = {g: i for i, g in enumerate((*GROUPS, "unreadable"))}
    return sorted(lines, key=lambda line: (order[line.group], line.name))


def found_deck(player_id: str, counts: dict[tuple[str, int], int],
               extra: list[tuple[str, str, int]], pasted: str = "") -> pl.DataFrame:
    """The deck as the judge found it: counted cards by key, added cards by name, or a
    pasted deck (which, when given, is the whole deck)."""
    text = pasted.strip()
    if text:
        if is_ydke(text):
            return parse_ydke(text.splitlines()[0], "judge", player_id, line=1)
        if text.startswith(("#main", "#created", "#extra", "!side")):
            return parse_ydk(text, "judge", player_id)
        return parse_text_list(text, "judge", player_id)
    rows: list[dict[str, object]] = [
        {"deck_id": player_id, "section": section, "passcode": key, "qty": qty, "file": "judge"}
        for (section, key), qty in counts.items() if qty > 0 and section in SECTIONS]
    rows += [{"deck_id": player_id, "section": section, "name": name, "qty": qty,
              "file": "judge"} for section, name, qty in extra
             if name.strip() and qty > 0 and section in SECTIONS]
    return entries_frame(rows)


@dataclass
class JudgeCheck:
    result: CheckResult
    penalty: str | None
    label: str
    applies_to: str
    remedies: list[str]
    codes: list[str]


def judge_check(player_id: str, deck: pl.DataFrame, registered: pl.DataFrame, *,
                cards: CardDB, fmt: Format, banlist: Banlist, policy: Policy, stage: str,
                lang: str) -> JudgeCheck:
    result = check(deck, cards=cards, fmt=fmt, banlist=banlist, registered=registered,
                   deck_ids=[player_id])
    table = penalty_table(result.violations, policy, stage, lang)
    if table.is_empty():
        return JudgeCheck(result, None, "", "", [], [])
    row = table.row(0, named=True)
    codes = list(dict.fromkeys(result.violations["code"].to_list()))
    return JudgeCheck(result, row["penalty"], row["label"], row["applies_to"],
                      list(row["remedies"]), codes)


def decision(default: str, chosen: str) -> str:
    """confirmed, downgraded or upgraded, by the regulations' order of severity."""
    a, b = SEVERITY.index(default), SEVERITY.index(chosen)
    return "confirmed" if a == b else ("upgraded" if b > a else "downgraded")
