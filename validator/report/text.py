"""The terminal reports of ``deckcheck check`` and ``deckcheck event``, one layout for both.
Plain text built column-wise (user data is never markup): the header and the counts first,
then one block per deck or player that is not legal.
"""

from __future__ import annotations

import polars as pl
from rich.console import Console

from validator.errors import Problem
from validator.report.model import Report
from validator.vocab import Status

__all__ = ["header_lines", "print_text", "problem_line", "problem_lines", "text_lines"]


#: a listing of more decks than this ends with the counts again
_REPEAT_TOTALS_AFTER = 10
_STATUS_WORD: dict[Status, str] = {"legal": "legal", "illegal": "ILLEGAL",
                                   "needs_decision": "NEEDS A DECISION",
                                   "not_checked": "NOT CHECKED"}
#: said of a player whose deck was collected with the others but not checked
_NOT_CHECKED = ("deck not checked (none submitted, or its file could not be read: see the "
                "problems); check it by hand or submit a readable deck file")


def header_lines(report: Report) -> list[str]:
    """What the decks were judged by: format, list, regulation and how decks met their
    lists, then the card data (the same lines head a check and an event)."""
    header = report.header
    comparison = "" if header.comparison is None else " — compared with the registered lists" + (
        f" as in duel {header.duel} (side deck exchanges allowed)" if header.siding else "")
    return [f"{header.format_title} — list {header.banlist_line} — {header.regulation_title}"
            f"{comparison}", f"card data: {header.cards}"]


def _totals(report: Report) -> str:
    counted = report.statuses
    noun = "decks" if report.kind == "check" else "players"
    totals = (f"{report.items.height} {noun}: {counted['legal']} legal, "
              f"{counted['illegal']} illegal, "
              f"{counted['needs_decision']} need a head judge's decision")
    if report.kind == "event":
        totals += f", {counted['not_checked']} not checked"
    return totals


def _heads(report: Report, shown: pl.DataFrame) -> pl.DataFrame:
    """The first line of each item's block: who, which file, status, sizes."""
    status = pl.col("status").cast(pl.Utf8).replace_strict(_STATUS_WORD)
    if report.kind == "check":
        head = pl.format("\n{}  ({})  {}  main {} / extra {} / side {}", pl.col("deck_id"),
                         pl.col("source"), status, "main", "extra", "side")
    else:
        sizes = pl.when(pl.col("deck_main").is_not_null()).then(pl.format(
            "deck main {} / extra {} / side {}", "deck_main", "deck_extra", "deck_side")) \
            .otherwise(pl.format("list main {} / extra {} / side {}", "list_main",
                                 "list_extra", "list_side"))
        head = pl.format("\n{} {}  ({})  {}  {}", pl.col("player_id"), pl.col("player_name"),
                         pl.col("deck_source").fill_null("no deck file"), status, sizes)
    return shown.select("deck", "status", head.alias("head"))


def text_lines(report: Report, *, every_deck: bool = False) -> list[str]:
    """The terminal report of a check or an event: the header and the counts first, then
    one block per deck (player) that is not legal (every one with ``every_deck``) — its
    violations, penalty or the head judge's decision, remedies —, and the counts again
    under a long listing. Built column-wise, so 10,000 decks print in one write."""
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
    unchecked = pl.when(pl.col("status") == "not_checked").then(
        pl.lit(f"  → {_NOT_CHECKED}"))
    judged = report.verdicts.with_columns(pl.lit(True).alias("judged"))
    blocks = (
        _heads(report, decks)
        .join(lines, on="deck", how="left").join(judged, on="deck", how="left")
        .with_columns(
            pl.when((pl.col("status") != "legal") & (pl.col("judged").is_not_null()
                                                     | (pl.col("status") != "not_checked")))
            .then(verdict).alias("verdict"),
            extra.alias("extra_verdict"), unchecked.alias("unchecked"),
            pl.col("remedies").list.eval(pl.format("    • {}", pl.element())).alias("fixes"))
        .select(pl.concat_list(
            pl.col("head"), pl.col("text").fill_null(pl.lit([], pl.List(pl.Utf8))),
            pl.col("unchecked"), pl.col("verdict"), pl.col("extra_verdict"),
            pl.col("fixes").fill_null(pl.lit([], pl.List(pl.Utf8)))).list.drop_nulls()
            .alias("block"))
    )
    totals = _totals(report)
    out = [*header_lines(report), totals]
    out.extend(f"  {code}: {count}" for code, count in report.counts.items())
    if report.kind == "event":
        out.append(f"head judge's decisions applied: {len(report.decisions)}; problems "
                   f"(unreadable rows and files, unmatched decks): {len(report.problems)}")
    out.extend(line for block in blocks["block"].to_list() for line in block)
    if blocks.height > _REPEAT_TOTALS_AFTER:
        out.append(f"\n{totals}")
    return out


def print_text(report: Report, console: Console, *, every_deck: bool = False) -> None:
    """:func:`text_lines` to a console (plain text: user data is never markup)."""
    console.file.write("\n".join(text_lines(report, every_deck=every_deck)) + "\n")


def problem_line(problem: Problem) -> str:
    """One problem on one line: where, its code, what is wrong."""
    return f"{problem.place}: {problem.code} {problem.message}"


def problem_lines(problems: list[Problem]) -> list[str]:
    """The problems, one a line, by (file, line, column, code)."""
    return [problem_line(p) for p in sorted(problems)]
