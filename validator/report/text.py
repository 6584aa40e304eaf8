"""The terminal reports: the check (``deckcheck check``) and the event summary
(``deckcheck event``). Plain text built column-wise (user data is never markup): the summary
first, then one block per deck or player that is not legal.
"""

from __future__ import annotations

import polars as pl
from rich.console import Console

from validator.errors import Problem
from validator.report.model import Report

__all__ = ["event_lines", "print_text", "problem_line", "problem_lines", "text_lines"]


#: a listing of more decks than this ends with the counts again
_REPEAT_TOTALS_AFTER = 10
_STATUS_WORD = {"legal": "legal", "illegal": "ILLEGAL", "needs_decision": "NEEDS A DECISION"}


def text_lines(report: Report, *, every_deck: bool = False) -> list[str]:
    """The terminal report: the summary first, then one block per deck that is not legal
    (every deck with ``every_deck``) — its violations, penalty or the head judge's
    decision, remedies —, and the counts again under a long listing. Built column-wise, so
    10,000 decks print in one write."""
    header, violations = report.header, report.violations
    decks = report.items if every_deck else report.items.filter(pl.col("status") != "legal")
    where = pl.when(pl.col("line").is_not_null()).then(
        pl.format("  ({}:{})", pl.col("file"), pl.coalesce(pl.col("cell"),
                                                           pl.col("line").cast(pl.Utf8))))
    wait = pl.when(pl.col("held")).then(pl.lit(" [waits for the head judge's decision]"))
    side = pl.when(pl.col("on") == "list").then(pl.lit("list: ")).otherwise(pl.lit(""))
    lines = (
        violations.filter(pl.col("deck").is_in(decks["deck"].implode()))
        .select("deck", pl.format("  {} {}{}{}{}", pl.col("code"), side, pl.col("message"),
                                  where.fill_null(""), wait.fill_null("")).alias("text"))
        .group_by("deck", maintain_order=True).agg(pl.col("text"))
    )
    no_clause, decide = header.no_clause, header.decide
    verdict = (
        pl.when(pl.col("penalty").is_not_null())
        .then(pl.format("  → {}, applied to {}", pl.col("label"), pl.col("applies_to")))
        .when(pl.col("head_judge").list.len() > 0)
        .then(pl.format("  → {}: {}", pl.col("head_judge").list.join(", "), pl.lit(no_clause)))
        .otherwise(pl.format("  → {}", pl.lit(decide)))
    )
    extra = pl.when(pl.col("penalty").is_not_null() & (pl.col("head_judge").list.len() > 0)) \
        .then(pl.format("  → also {}: {}", pl.col("head_judge").list.join(", "),
                        pl.lit(no_clause)))
    blocks = (
        decks.select("deck", "deck_id", "source", "status", "main", "extra", "side")
        .join(lines, on="deck", how="left").join(report.verdicts, on="deck", how="left")
        .with_columns(
            pl.format("\n{}  ({})  {}  main {} / extra {} / side {}", pl.col("deck_id"),
                      pl.col("source"), pl.col("status").cast(pl.Utf8)
                      .replace_strict(_STATUS_WORD), "main", "extra", "side").alias("head"),
            pl.when(pl.col("status") != "legal").then(verdict).alias("verdict"),
            extra.alias("extra_verdict"),
            pl.col("remedies").list.eval(pl.format("    • {}", pl.element())).alias("fixes"))
        .select(pl.concat_list(
            pl.col("head"), pl.col("text").fill_null(pl.lit([], pl.List(pl.Utf8))),
            pl.col("verdict"), pl.col("extra_verdict"),
            pl.col("fixes").fill_null(pl.lit([], pl.List(pl.Utf8)))).list.drop_nulls()
            .alias("block"))
    )
    counted = report.statuses
    comparison = "" if header.comparison is None else " — compared with the registered lists" + (
        f" as in duel {header.duel} (side deck exchanges allowed)" if header.siding else "")
    totals = (f"{report.items.height} decks: {counted['legal']} legal, "
              f"{counted['illegal']} illegal, "
              f"{counted['needs_decision']} need a head judge's decision")
    out = [f"{header.format_title} — list {header.banlist} — {header.regulation_title}"
           f"{comparison}", totals]
    out.extend(f"  {code}: {count}" for code, count in report.counts.items())
    out.extend(line for block in blocks["block"].to_list() for line in block)
    if blocks.height > _REPEAT_TOTALS_AFTER:
        out.append(f"\n{totals}")
    return out


def print_text(report: Report, console: Console, *, every_deck: bool = False) -> None:
    """:func:`text_lines` to a console (plain text: user data is never markup)."""
    console.file.write("\n".join(text_lines(report, every_deck=every_deck)) + "\n")


_PLAYER_WORD = {"illegal": "ILLEGAL", "needs_decision": "DECIDE"}


def problem_line(problem: Problem) -> str:
    """One problem on one line: where, its code, what is wrong."""
    return f"{problem.place}: {problem.code} {problem.message}"


def problem_lines(problems: list[Problem]) -> list[str]:
    """The problems, one a line, by (file, line, column, code)."""
    return [problem_line(p) for p in sorted(problems)]


def event_lines(report: Report, *, shown: int = 30) -> list[str]:
    """The event summary: counts (players by status, decisions applied, problems, each
    code), then the first ``shown`` players who are not legal."""
    counted, players = report.statuses, report.items
    rows = [("players", players.height), ("legal", counted["legal"]),
            ("illegal", counted["illegal"]),
            ("need a head judge's decision", counted["needs_decision"]),
            ("head judge's decisions applied", len(report.decisions)),
            ("problems (unreadable rows, unmatched decks)", len(report.problems)),
            *((f"  {code}", count) for code, count in report.counts.items())]
    width = max(len(label) for label, _ in rows)
    out = ["Event summary", *(f"{label:<{width}}  {value:>6}" for label, value in rows)]
    for player in players.filter(~pl.col("legal")).head(shown).iter_rows(named=True):
        count = player["violations"]
        out.append(f"  {_PLAYER_WORD[str(player['status'])]} {player['player_id']} "
                   f"{player['player_name']} ({count} violation{'s' if count != 1 else ''})")
    hidden = int((~players["legal"]).sum()) - shown
    if hidden > 0:
        out.append(f"  … and {hidden} more (see the report)")
    return out
