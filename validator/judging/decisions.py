"""The head judge's decisions on entries the tool could not settle alone.

An entry whose name names no single card (UNRESOLVED_NAME) or a row that could not be read
(UNREADABLE_ROW) waits for the head judge: the tool proposes no penalty for it. A decision
says what the entry is — a card (by its exact name or passcode) and, for an unreadable row,
its quantity — with who decided and why. Decisions are applied to the registered lists
before the check runs again, so the check sees the list as the head judge reads it, and the
reports list every decision beside the verdicts.

Decisions come from a CSV (``deckcheck event ... --decisions decisions.csv``; columns
``player_id``, ``where`` — the cell or line the report shows —, ``card``, ``qty``,
``decided_by``, ``reason``, and optionally ``section``) or from the web app.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import polars as pl

from validator.errors import InputError, Problem, ProblemCollector
from validator.files.tabular import read_sheets
from validator.inputs.entries import ENTRY_SCHEMA, conform, typed_card
from validator.text.lexicon import MAX_QUANTITY, quantity_in_range, whole_number
from validator.vocab import SECTIONS

__all__ = ["DECISION_COLUMNS", "Applied", "Decision", "address_forms", "apply_decisions",
           "read_decisions"]

DECISION_COLUMNS = ("player_id", "where", "card", "qty", "decided_by", "reason", "section")


@dataclass(frozen=True)
class Decision:
    player_id: str
    where: str  # the cell ("Player 3!B12", "A17") or the line number, as reports show it
    card: str  # the card the entry is: its exact name (any language) or its passcode
    decided_by: str
    reason: str
    qty: int | None = None  # the quantity, when the row's own could not be read
    section: str | None = None  # main/extra/side, when the row's own is not known
    typed: str = ""  # what the entry said (filled when applied)

    def json(self) -> dict[str, Any]:
        return asdict(self)


def _place(text: str | None) -> str:
    """An address as written, compared without case, commas or runs of spaces
    (``Form responses!D4, line 2`` is ``form responses!d4 line 2``)."""
    return " ".join(re.sub(r"[\s,]+", " ", (text or "").lower()).split())


def address_forms(file: str | None, line: int | None, cell: str | None) -> set[str]:
    """Every way a report writes one entry's or row's address, as compared: its cell with
    and without the sheet (``Registrations!E10``, ``E10``), or its line when it has no
    cell (``12``, ``line 12``), each also after its file, as given or by its name alone
    (``/event/list.csv:E10``, ``list.csv:E10``)."""
    if cell:
        bare = cell.rsplit("!", 1)[-1]
        forms = {cell, bare}
    elif line is not None:
        forms = {str(line), f"line {line}"}
    else:
        return set()
    files = {file, file.replace("\\", "/").rsplit("/", 1)[-1]} if file else set()
    return {_place(f) for f in forms} | {_place(f"{name}:{f}") for f in forms for name in files}


def _full(file: str | None, line: int | None, cell: str | None) -> str:
    return f"{file}:{cell}" if cell else f"{file}:{line}"


def read_decisions(path: Path) -> list[Decision]:
    """Decisions from a CSV/XLSX with a header row; every bad row is reported."""
    problems = ProblemCollector(str(path))
    sheets = [s for s in read_sheets(path) if s.rows]
    if not sheets:
        raise InputError.at(str(path), "no rows; expected a header with "
                                       + ", ".join(DECISION_COLUMNS), code="EMPTY_FILE")
    header = [h.strip().lower().replace(" ", "_") for h in sheets[0].rows[0]]
    for needed in ("player_id", "where", "card", "decided_by", "reason"):
        if needed not in header:
            problems.add(f"the header lacks a {needed} column (found: {', '.join(header)})", 1,
                         code="MISSING_COLUMN")
    problems.raise_if_any()
    out: list[Decision] = []
    for number, row in enumerate(sheets[0].rows[1:], start=2):
        cells = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)}
        if not any(cells.values()):
            continue
        missing = [c for c in ("player_id", "where", "card", "decided_by", "reason")
                   if not cells.get(c)]
        if missing:
            problems.add(f"{', '.join(missing)} empty: a decision says who decided and why",
                         number, code="BAD_DECISION")
            continue
        qty = cells.get("qty", "")
        if qty and not quantity_in_range(whole_number(qty)):
            problems.add(f"qty {qty!r} is not a number 1-{MAX_QUANTITY}", number, "qty",
                         code="BAD_QUANTITY")
            continue
        section = cells.get("section", "").lower()
        if section and section not in SECTIONS:
            problems.add(f"section {section!r} is not main, extra or side", number, "section",
                         code="BAD_SECTION")
            continue
        out.append(Decision(cells["player_id"], cells["where"], cells["card"],
                            cells["decided_by"], cells["reason"], int(qty) if qty else None,
                            section or None))
    problems.raise_if_any()
    return out


@dataclass
class Applied:
    """Lists with the decisions applied, the problems still open, the decisions that took
    effect (with what the entry said) and those that matched nothing."""

    entries: pl.DataFrame
    problems: list[Problem]
    decisions: list[Decision]
    unmatched: list[Problem]


def apply_decisions(entries: pl.DataFrame, problems: list[Problem],
                    decisions: list[Decision], label: str = "decisions") -> Applied:
    """Settle entries and unreadable rows by the head judge's decisions.

    A decision at an entry's place replaces what the entry names (and its quantity when
    given); a decision at an unreadable row's place adds the entry the row should have been.
    """
    entries = conform(entries)
    keyed = entries.with_columns(pl.int_range(pl.len()).alias("at"))
    by_player: dict[str, list[dict[str, Any]]] = {}
    for row in keyed.filter(pl.col("deck_id").is_in([d.player_id for d in decisions])) \
            .iter_rows(named=True):
        by_player.setdefault(str(row["deck_id"]), []).append(row)
    updates: dict[int, tuple[Decision, str]] = {}
    added: list[dict[str, Any]] = []
    still_open = list(problems)
    applied: list[Decision] = []
    unmatched: list[Problem] = []
    for number, decision in enumerate(decisions, start=2):
        place = _place(decision.where)
        hits = [row for row in by_player.get(decision.player_id, [])
                if place in address_forms(row["file"], row["line"], row["cell"])]
        rows_at = [p for p in still_open if p.deck_id == decision.player_id
                   and place in address_forms(p.file, p.line, p.column)]
        places = sorted({_full(r["file"], r["line"], r["cell"]) for r in hits}
                        | {_full(p.file, p.line, p.column) for p in rows_at})
        if len(places) > 1:
            unmatched.append(Problem(label, number, "where",
                                     f"{decision.where!r} is more than one place of player "
                                     f"{decision.player_id}'s list ({'; '.join(places[:5])}): "
                                     "give the sheet or the file", code="UNMATCHED_DECISION"))
            continue
        if hits:
            row = hits[0]
            typed = str(row["name"] if row["name"] is not None else row["passcode"])
            updates[int(row["at"])] = (decision, typed)
            applied.append(Decision(**{**asdict(decision), "typed": typed}))
            continue
        row_problem = rows_at[0] if rows_at else None
        if row_problem is None:
            unmatched.append(Problem(label, number, "where",
                                     f"no open entry of player {decision.player_id} at "
                                     f"{decision.where!r}", code="UNMATCHED_DECISION"))
            continue
        section = decision.section or row_problem.section
        if decision.qty is None or section is None:
            unmatched.append(Problem(label, number, "qty" if decision.qty is None else "section",
                                     f"the row at {decision.where!r} could not be read: the "
                                     "decision must give its qty"
                                     + ("" if section else " and section"), code="BAD_DECISION"))
            continue
        still_open.remove(row_problem)
        added.append({"deck_id": decision.player_id, "section": section,
                      **typed_card(decision.card), "qty": decision.qty,
                      "file": row_problem.file, "line": row_problem.line,
                      "cell": row_problem.column})
        applied.append(Decision(**{**asdict(decision), "typed": row_problem.message}))
    if updates:
        at = pl.Series("at", list(updates), dtype=pl.Int64)
        changes = pl.DataFrame({
            "at": at,
            "new_passcode": [typed_card(d.card)["passcode"] for d, _ in updates.values()],
            "new_name": [typed_card(d.card)["name"] for d, _ in updates.values()],
            "new_qty": [d.qty for d, _ in updates.values()],
        }, schema={"at": pl.Int64, "new_passcode": pl.Int64, "new_name": pl.Utf8,
                   "new_qty": pl.Int32})
        keyed = keyed.join(changes, on="at", how="left", maintain_order="left").with_columns(
            pl.when(pl.col("at").is_in(at.implode())).then(pl.col("new_passcode"))
            .otherwise(pl.col("passcode")).alias("passcode"),
            pl.when(pl.col("at").is_in(at.implode())).then(pl.col("new_name"))
            .otherwise(pl.col("name")).alias("name"),
            pl.coalesce("new_qty", "qty").alias("qty"),
            pl.when(pl.col("at").is_in(at.implode())).then(None).otherwise(pl.col("slot"))
            .alias("slot"),
        )
    out = keyed.select(list(ENTRY_SCHEMA))
    if added:
        out = pl.concat([out, conform(pl.DataFrame(added, schema_overrides={
            k: v for k, v in ENTRY_SCHEMA.items() if k in added[0]}))])
    return Applied(out, still_open, applied, unmatched)
