"""Output formatters for check results: pure functions chosen by name (``json``, ``text``).

The JSON shape is a public contract (see the README); it only ever gains fields.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .engine import CheckResult
from .penalties import Policy, penalty_table

__all__ = ["VIOLATION_FIELDS", "penalties_by_deck", "penalty_json", "print_text",
           "to_json_dict", "violations_by_deck"]

#: the fields of one violation in the JSON contract (the event report adds "on")
VIOLATION_FIELDS = ("code", "section", "passcode", "card", "count", "limit", "registered",
                    "message", "file", "line", "cell", "counts_as")


def penalties_by_deck(violations: pl.DataFrame, policy: Policy, stage: str,
                      lang: str) -> dict[int, Any]:
    """Penalty-table rows keyed by deck number."""
    table = penalty_table(violations, policy, stage, lang)
    return {row["deck"]: row for row in table.iter_rows(named=True)}


def violations_by_deck(violations: pl.DataFrame, fields: tuple[str, ...]) -> dict[
        int, list[dict[str, Any]]]:
    """Violation rows as JSON objects, grouped by deck number."""
    grouped: dict[int, list[dict[str, Any]]] = {}
    for row in violations.select("deck", *fields).iter_rows(named=True):
        grouped.setdefault(row.pop("deck"), []).append(row)
    return grouped


def penalty_json(penalty: dict[str, Any] | None) -> dict[str, Any] | None:
    """A penalty-table row as the JSON contract's ``penalty`` object."""
    if penalty is None:
        return None
    return {"type": penalty["penalty"], "applies_to": penalty["applies_to"],
            "remedies": penalty["remedies"], "recorded": penalty["recorded"],
            "label": penalty["label"], "basis": penalty["basis"]}


def to_json_dict(result: CheckResult, policy: Policy, stage: str, lang: str) -> dict[str, Any]:
    penalties = penalties_by_deck(result.violations, policy, stage, lang)
    by_deck = violations_by_deck(result.violations, VIOLATION_FIELDS)
    decks = []
    for row in result.decks.iter_rows(named=True):
        penalty = penalties.get(row["deck"])
        decks.append({
            "deck_id": row["deck_id"],
            "source": row["source"],
            "legal": row["legal"],
            "counts": {"main": row["main"], "extra": row["extra"], "side": row["side"]},
            "violations": by_deck.get(row["deck"], []),
            "penalty": penalty_json(penalty),
        })
    legal = int(result.decks["legal"].sum())
    return {
        "format": result.format.name,
        "banlist": result.banlist,
        "cards": result.cards,
        "regulation": policy.regulation,
        "stage": stage,
        "lang": lang,
        "decks": decks,
        "summary": {
            "decks": result.decks.height,
            "legal": legal,
            "illegal": result.decks.height - legal,
            "violations_by_code": result.counts(),
        },
        "warnings": [str(w) for w in result.warnings],
    }


def print_text(result: CheckResult, policy: Policy, stage: str, lang: str,
               console: Console) -> None:
    """A verdict table, then each illegal deck's violations, penalty and remedies."""
    penalties = penalties_by_deck(result.violations, policy, stage, lang)
    grouped = {d: frame for (d,), frame in
               result.violations.partition_by("deck", as_dict=True).items()}
    table = Table(title=f"{result.format.title} — list {result.banlist}")
    for column in ("deck", "main", "extra", "side", "verdict", "violations"):
        table.add_column(column, justify="right" if column in ("main", "extra", "side",
                                                              "violations") else "left")
    for row in result.decks.iter_rows(named=True):
        verdict = "[green]legal[/green]" if row["legal"] else "[bold red]ILLEGAL[/bold red]"
        found = grouped.get(row["deck"])
        table.add_row(escape(str(row["deck_id"])), str(row["main"]), str(row["extra"]),
                      str(row["side"]), verdict, str(0 if found is None else found.height))
    console.print(table)
    for row in result.decks.filter(~pl.col("legal")).iter_rows(named=True):
        console.print(f"\n[bold]{escape(str(row['deck_id']))}[/bold]  "
                      f"({escape(str(row['source']))})", highlight=False)
        for v in grouped[row["deck"]].iter_rows(named=True):
            where = f"  ({v['file']}:{v['line']})" if v["file"] and v["code"] in (
                "UNRESOLVED_NAME", "UNKNOWN_CARD") else ""
            console.print(f"  [red]{v['code']}[/red] {escape(v['message'] + where)}",
                          highlight=False)
        penalty = penalties[row["deck"]]
        console.print(f"  → [bold]{escape(penalty['label'])}[/bold], applied to "
                      f"{escape(penalty['applies_to'])}", highlight=False)
        for remedy in penalty["remedies"]:
            console.print(f"    • {escape(remedy)}", highlight=False)
    legal = int(result.decks["legal"].sum())
    console.print(f"\n{result.decks.height} decks: {legal} legal, "
                  f"{result.decks.height - legal} illegal")
    for code, count in result.counts().items():
        console.print(f"  {code}: {count}")
