"""The terminal reports of ``deckcheck check`` and ``deckcheck event``, one layout for both.
Plain text built column-wise (user data is never markup): the header and the counts first,
then one block per deck or player that is not legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from validator.engine.tables import ENGINE
from validator.errors import Problem
from validator.report.model import Report
from validator.text.i18n import PLACEHOLDER, catalog, problem_text, say, terms
from validator.vocab import Lang

if TYPE_CHECKING:  # a report printed to a pipe never imports rich
    from rich.console import Console

__all__ = ["header_lines", "print_text", "problem_line", "problem_lines", "report_bytes",
           "report_text", "text_lines"]


#: a listing of more decks than this ends with the counts again
_REPEAT_TOTALS_AFTER = 10
#: said of a player whose deck was collected with the others but not checked
_NOT_CHECKED = ("deck not checked (none submitted, or its file could not be read: see the "
                "problems); check it by hand or submit a readable deck file")


def header_lines(report: Report) -> list[str]:
    """What the decks were judged by: format, list, regulation and how decks met their
    lists, then the card data (the same lines head a check and an event)."""
    header = report.header
    lang = header.lang
    values = {"format": header.format_title_in or header.format_title,
              "banlist": header.banlist_line_in(lang),
              "regulation": header.regulation_title_in or header.regulation_title,
              "duel": header.duel}
    if header.comparison is None:
        first = say(lang, "{format} — list {banlist} — {regulation}", **values)
    elif header.siding:
        first = say(lang, "{format} — list {banlist} — {regulation} — compared with the "
                    "registered lists as in duel {duel} (side deck exchanges allowed)", **values)
    else:
        first = say(lang, "{format} — list {banlist} — {regulation} — compared with the "
                    "registered lists", **values)
    return [first, say(lang, "card data: {cards}", cards=header.cards)]


def _totals(report: Report) -> str:
    counted, lang = report.statuses, report.header.lang
    values = {"total": report.items.height, "legal": counted["legal"],
              "illegal": counted["illegal"], "decide": counted["needs_decision"],
              "unchecked": counted["not_checked"]}
    if report.kind == "check":
        return say(lang, "{total} decks: {legal} legal, {illegal} illegal, {decide} need a "
                   "head judge's decision", **values)
    return say(lang, "{total} players: {legal} legal, {illegal} illegal, {decide} need a "
               "head judge's decision, {unchecked} not checked", **values)


def _format(lang: Lang, msgid: str, **values: pl.Expr) -> pl.Expr:
    """A catalog sentence with its placeholders filled from columns."""
    text = catalog(lang).get(msgid)
    names = PLACEHOLDER.findall(text)
    return pl.format(PLACEHOLDER.sub("{}", text.replace("{}", "")), *[values[n] for n in names])


def _heads(report: Report, shown: pl.DataFrame) -> pl.DataFrame:
    """The first line of each item's block: who, which file, status, sizes."""
    lang = report.header.lang
    status = pl.col("status").cast(pl.Utf8).replace_strict(terms(lang, "status word"))
    if report.kind == "check":
        head = pl.concat_str(pl.lit("\n"), _format(
            lang, "{deck}  ({source})  {status}  main {main} / extra {extra} / side {side}",
            deck=pl.col("deck_id"),
            source=pl.col("source").fill_null(pl.lit(say(lang, "no deck file"))), status=status,
            main=pl.col("main"), extra=pl.col("extra"), side=pl.col("side")))
    else:
        sizes = pl.when(pl.col("deck_main").is_not_null()).then(_format(
            lang, "deck main {main} / extra {extra} / side {side}", main=pl.col("deck_main"),
            extra=pl.col("deck_extra"), side=pl.col("deck_side"))) \
            .otherwise(_format(lang, "list main {main} / extra {extra} / side {side}",
                               main=pl.col("list_main"), extra=pl.col("list_extra"),
                               side=pl.col("list_side")))
        head = pl.concat_str(pl.lit("\n"), _format(
            lang, "{player} {name}  ({source})  {status}  {sizes}", player=pl.col("player_id"),
            name=pl.col("player_name").fill_null(""),
            source=pl.col("deck_source").fill_null(pl.lit(say(lang, "no deck file"))),
            status=status, sizes=sizes))
    return shown.select("deck", "status", head.alias("head"))


def _parts(report: Report, every_deck: bool) -> tuple[list[str], pl.Series, str | None]:
    """The lines before the decks' blocks, the blocks' lines one after another, and the
    counts repeated after them (or None)."""
    header, violations = report.header, report.violations
    lang = header.lang
    decks = report.items if every_deck else report.items.filter(pl.col("status") != "legal")
    where = pl.when(pl.col("line").is_not_null()).then(
        pl.format("  ({}:{})", pl.col("file"), pl.coalesce(pl.col("cell"),
                                                           pl.col("line").cast(pl.Utf8))))
    wait = pl.when(pl.col("held")).then(
        pl.lit(" " + say(lang, "[waits for the head judge's decision]")))
    message = pl.col("localized_message") if "localized_message" in violations.columns \
        else pl.col("message")
    text = pl.when(pl.col("on") == "list").then(
        _format(lang, "list: {message}", message=message)).otherwise(message)
    # every line of every block as one row, in the order written: (deck's place, part of
    # its block, place in the part); joined once (no list per deck)
    placed = decks.with_columns(pl.int_range(pl.len(), dtype=pl.UInt32).alias("at"))
    # lazily: only the columns a line shows are joined (not every language's message)
    found = violations.lazy().join(placed.lazy().select("deck", "at"), on="deck",
                                   how="inner", maintain_order="left")
    lines = found.select("at", pl.lit(1, pl.UInt8).alias("part"),
                         pl.int_range(pl.len(), dtype=pl.UInt32).alias("seq"),
                         pl.format("  {} {}{}{}", pl.col("code"), text, where.fill_null(""),
                                   wait.fill_null("")).alias("text")).collect(engine=ENGINE)
    no_clause, decide = header.no_clause, header.decide
    codes = pl.col("head_judge").list.join(", ")
    verdict = (
        pl.when(pl.col("penalty").is_not_null())
        .then(pl.concat_str(pl.lit("  → "), _format(
            lang, "{penalty}, applied to {when}", penalty=pl.col("label"),
            when=pl.col("applies_to"))))
        .when(pl.col("head_judge").list.len() > 0)
        .then(pl.format("  → {}: {}", codes, pl.lit(no_clause)))
        .otherwise(pl.format("  → {}", pl.lit(decide)))
    )
    extra = pl.when(pl.col("penalty").is_not_null() & (pl.col("head_judge").list.len() > 0)) \
        .then(pl.concat_str(pl.lit("  → "), _format(lang, "also {codes}: {reason}",
                                                    codes=codes, reason=pl.lit(no_clause))))
    unchecked = pl.when(pl.col("status") == "not_checked").then(
        pl.lit(f"  → {say(lang, _NOT_CHECKED)}"))
    judged = report.verdicts.with_columns(pl.lit(True).alias("judged"))
    per_deck = (
        _heads(report, placed).with_columns(placed["at"])
        .join(judged, on="deck", how="left", maintain_order="left")
        .with_columns(
            pl.when((pl.col("status") != "legal") & (pl.col("judged").is_not_null()
                                                     | (pl.col("status") != "not_checked")))
            .then(verdict).alias("verdict"),
            extra.alias("extra_verdict"), unchecked.alias("unchecked"))
    )
    zero = pl.lit(0, pl.UInt32).alias("seq")
    parts = [per_deck.select("at", pl.lit(part, pl.UInt8).alias("part"), zero,
                             pl.col(column).alias("text"))
             for part, column in ((0, "head"), (2, "unchecked"), (3, "verdict"),
                                  (4, "extra_verdict"))]
    fixes = per_deck.select("at", pl.col("remedies").list.eval(
        pl.format("    • {}", pl.element())).alias("text")).explode("text")
    parts += [lines, fixes.select("at", pl.lit(5, pl.UInt8).alias("part"),
                                  pl.int_range(pl.len(), dtype=pl.UInt32).alias("seq"),
                                  "text")]
    # one number per line to order them by: (deck's place, part of its block, place in
    # the part) packed (a sort of one number column, not of three): the place in the part
    # is a UInt32, the part under 16, the deck's place under 2^28
    order = (pl.col("at").cast(pl.UInt64) * (1 << 36) + pl.col("part").cast(pl.UInt64)
             * (1 << 32) + pl.col("seq").cast(pl.UInt64))
    block = pl.concat(parts).drop_nulls("text").sort(order)["text"]
    totals = _totals(report)
    out = [*header_lines(report), totals]
    out.extend(f"  {code}: {count}" for code, count in report.counts.items())
    if report.kind == "event":
        out.append(say(lang, "head judge's decisions applied: {decisions}; problems "
                       "(unreadable rows and files, unmatched decks): {problems}",
                       decisions=len(report.decisions), problems=len(report.problems)))
    return out, block, f"\n{totals}" if decks.height > _REPEAT_TOTALS_AFTER else None


def text_lines(report: Report, *, every_deck: bool = False) -> list[str]:
    """The terminal report of a check or an event, in the report's language: the header and
    the counts first, then one block per deck (player) that is not legal (every one with
    ``every_deck``) — its violations, penalty or the head judge's decision, remedies —, and
    the counts again under a long listing. Built column-wise."""
    out, lines, again = _parts(report, every_deck)
    out.extend(lines.to_list())
    return out if again is None else [*out, again]


def report_bytes(report: Report, *, every_deck: bool = False) -> bytes:
    """:func:`report_text` as UTF-8: the decks' blocks joined by polars straight into bytes
    (10,000 decks are one buffer, never a Python string per line nor one for the whole)."""
    out, lines, again = _parts(report, every_deck)
    parts = ["\n".join(out).encode()]
    if lines.len():
        parts.append(lines.str.join("\n").cast(pl.Binary).item())
    if again is not None:
        parts.append(again.encode())
    return b"\n".join([*parts, b""])  # each line ended, in one copy


def report_text(report: Report, *, every_deck: bool = False) -> str:
    """:func:`text_lines` as the text written, each line ended."""
    return report_bytes(report, every_deck=every_deck).decode()


def print_text(report: Report, console: Console, *, every_deck: bool = False) -> None:
    """:func:`report_text` to a console (plain text: user data is never markup)."""
    console.file.write(report_text(report, every_deck=every_deck))


def problem_line(problem: Problem, lang: Lang = "en") -> str:
    """One problem on one line: where, its code, what is wrong (in the language)."""
    return f"{problem.place}: {problem.code} {problem_text(problem, lang)}"


def problem_lines(problems: list[Problem], lang: Lang = "en") -> list[str]:
    """The problems, one a line, by (file, line, column, code)."""
    return [problem_line(p, lang) for p in sorted(problems)]
