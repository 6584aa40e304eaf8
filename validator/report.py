"""Output formatters for check results: pure functions chosen by name (``json``, ``text``).

The JSON shape is a public contract (see the README); it only ever gains fields.
"""

from __future__ import annotations

from typing import Any

import orjson
import polars as pl
from rich.console import Console

from .engine import CheckResult
from .errors import ImplementationError
from .penalties import Policy, Stage
from .verdicts import verdicts

__all__ = ["VIOLATION_FIELDS", "fuzzy_by_deck", "penalty_json", "print_text", "status_counts",
           "text_lines", "to_json_bytes", "to_json_dict", "verdict_json", "verdicts_by_deck",
           "violations_by_deck", "with_lists"]

#: the fields of one violation in the JSON contract (the event report adds "on")
VIOLATION_FIELDS = ("code", "section", "passcode", "card", "count", "limit", "registered",
                    "message", "file", "line", "cell", "counts_as", "held", "decision",
                    "read_from")


def json_bytes(payload: dict[str, Any]) -> bytes:
    """The report as UTF-8 JSON, two-space indented, with a final newline: the same bytes as
    ``json.dumps(payload, ensure_ascii=False, indent=2) + "\n"``, written in one pass."""
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS) + b"\n"


def fuzzy_by_deck(*results: CheckResult | None) -> dict[str, list[dict[str, Any]]]:
    """The entries read fuzzily, by deck id: what was typed and the card it was read as."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    frames = [r.resolved.filter(pl.col("how") == "fuzzy") for r in results if r is not None]
    fuzzy = pl.concat(frames) if frames else pl.DataFrame()
    if fuzzy.is_empty():
        return grouped
    rows = fuzzy.select(
        "deck_id", pl.col("name").alias("typed"), "card",
        pl.col("section").cast(pl.Utf8), "file", "line", "cell", pl.lit(True).alias("fuzzy"))
    for row in rows.iter_rows(named=True):
        grouped.setdefault(row.pop("deck_id"), []).append(row)
    return grouped


def with_lists(result: CheckResult, lists: CheckResult | None) -> pl.DataFrame:
    """The decks' violations (``on`` = deck) and, when the lists were checked too, their
    lists' violations (``on`` = list) under the decks' numbers."""
    frames = [result.violations.with_columns(pl.lit("deck").alias("on"))]
    if lists is not None:
        numbers = result.decks.select("deck_id", pl.col("deck").alias("number"))
        frames.append(lists.violations.join(numbers, on="deck_id", how="inner")
                      .with_columns(pl.col("number").alias("deck"), pl.lit("list").alias("on"))
                      .drop("number"))
    return pl.concat(frames).with_columns(pl.col("on").cast(pl.Enum(["list", "deck"]))).sort(
        "deck", "on", maintain_order=True)


def _compared(result: CheckResult) -> pl.Series:
    """The decks that were compared with a registered list."""
    return result.decks.filter(pl.col("compared"))["deck"]


def verdicts_by_deck(violations: pl.DataFrame, policy: Policy, stage: Stage, lang: str,
                     compared: bool | pl.Series) -> dict[int, Any]:
    """Verdict rows (penalty, remedies, ...) keyed by deck number."""
    table = verdicts(violations, policy, stage, lang, compared=compared)
    return {row["deck"]: row for row in table.iter_rows(named=True)}


def _json_text(column: str, dtype: pl.DataType) -> pl.Expr:
    """A column's values as JSON text, as ``json.dumps`` writes them."""
    value = pl.col(column)
    if dtype == pl.Boolean:
        return pl.when(value).then(pl.lit("true")).when(~value).then(pl.lit("false")) \
            .otherwise(pl.lit("null"))
    if dtype.is_integer():
        return value.cast(pl.Utf8).fill_null("null")
    if dtype in (pl.Utf8, pl.Categorical) or isinstance(dtype, pl.Enum):
        # polars escapes strings as json.dumps(ensure_ascii=False) does ({"v": ...})
        return pl.struct(value.cast(pl.Utf8).alias("v")).struct.json_encode() \
            .str.slice(5).str.head(-1)
    raise ImplementationError(f"no JSON text for column {column} of type {dtype}")


def violations_by_deck(violations: pl.DataFrame, fields: tuple[str, ...],
                       depth: int = 4) -> dict[int, orjson.Fragment]:
    """Each deck's violations as one JSON array, written from the table by polars (no
    Python object per violation) and indented for objects at ``depth`` of the report.

    The text is the same as ``json.dumps(..., indent=2)`` would write at that depth.
    """
    pad, inner = "  " * depth, "  " * (depth + 1)
    parts: list[pl.Expr] = []
    for i, field in enumerate(fields):
        parts += [pl.lit(("{" if i == 0 else ",") + f'\n{inner}"{field}": '),
                  _json_text(field, violations.schema[field])]
    text = pl.concat_str([pl.lit(pad), *parts, pl.lit(f"\n{pad}}}")])
    grouped = (violations.select("deck", text.alias("text"))
               .group_by("deck", maintain_order=True).agg(pl.col("text").str.join(",\n")))
    close = "\n" + "  " * (depth - 1) + "]"
    return {deck: orjson.Fragment(f"[\n{joined}{close}".encode())
            for deck, joined in grouped.iter_rows()}


def penalty_json(verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """A verdict as the JSON contract's ``penalty`` object (null: no penalty prescribed)."""
    if verdict is None or verdict["penalty"] is None:
        return None
    return {"type": verdict["penalty"], "applies_to": verdict["applies_to"],
            "remedies": verdict["remedies"], "recorded": verdict["recorded"],
            "label": verdict["label"], "basis": verdict["basis"]}


def verdict_json(status: str, verdict: dict[str, Any] | None) -> dict[str, Any]:
    """Fields added beside ``penalty``: the status, the remedies (also when no penalty is
    prescribed) and the codes whose penalty is the head judge's decision."""
    return {"status": status,
            "remedies": [] if verdict is None else verdict["remedies"],
            "head_judge": [] if verdict is None else verdict["head_judge"]}


def status_counts(frame: pl.DataFrame) -> dict[str, int]:
    """How many decks (players) are legal, illegal, or wait for a decision."""
    counted = dict(frame["status"].cast(pl.Utf8).value_counts().iter_rows())
    return {status: int(counted.get(status, 0)) for status in
            ("legal", "illegal", "needs_decision")}


def to_json_dict(result: CheckResult, policy: Policy, stage: Stage, lang: str, *,
                 lists: CheckResult | None = None, compared: bool = False,
                 duel: int | None = None) -> dict[str, Any]:
    """The check report (the public JSON contract) as Python data."""
    return dict(orjson.loads(to_json_bytes(result, policy, stage, lang, lists=lists,
                                           compared=compared, duel=duel)))


def to_json_bytes(result: CheckResult, policy: Policy, stage: Stage, lang: str, *,
                  lists: CheckResult | None = None, compared: bool = False,
                  duel: int | None = None) -> bytes:
    """The check report as JSON text: ``json_bytes`` of the contract's data."""
    return json_bytes(_payload(result, policy, stage, lang, lists=lists, compared=compared,
                               duel=duel))


def _payload(result: CheckResult, policy: Policy, stage: Stage, lang: str, *,
             lists: CheckResult | None, compared: bool, duel: int | None) -> dict[str, Any]:
    violations = with_lists(result, lists)
    by_verdict = verdicts_by_deck(violations, policy, stage, lang, _compared(result))
    fields = (*VIOLATION_FIELDS, "on") if compared else VIOLATION_FIELDS
    by_deck = violations_by_deck(violations, fields)
    fuzzy = fuzzy_by_deck(result, lists)
    decks = []
    for row in result.decks.iter_rows(named=True):
        verdict = by_verdict.get(row["deck"])
        decks.append({
            "deck_id": row["deck_id"],
            "source": row["source"],
            "legal": row["legal"],
            "counts": {"main": row["main"], "extra": row["extra"], "side": row["side"]},
            "violations": by_deck.get(row["deck"], []),
            "penalty": penalty_json(verdict),
            **verdict_json(str(row["status"]), verdict),
            "fuzzy": fuzzy.get(row["deck_id"], []),
        })
    legal = int(result.decks["legal"].sum())
    return {
        "format": result.format.name,
        "banlist": result.banlist,
        "cards": result.cards,
        "regulation": policy.regulation,
        "stage": stage,
        "lang": lang,
        "duel": duel,
        "comparison": None if not compared else ("siding" if duel and duel > 1 else "sections"),
        "decks": decks,
        "summary": {
            "decks": result.decks.height,
            "legal": legal,
            "illegal": result.decks.height - legal,
            "violations_by_code": result.counts(),
        },
        "statuses": status_counts(result.decks),
        "warnings": [str(w) for w in result.warnings],
    }


#: a listing of more decks than this ends with the counts again
_REPEAT_TOTALS_AFTER = 10
_STATUS_WORD = {"legal": "legal", "illegal": "ILLEGAL", "needs_decision": "NEEDS A DECISION"}


def text_lines(result: CheckResult, policy: Policy, stage: Stage, lang: str, *,
               lists: CheckResult | None = None, compared: bool = False,
               duel: int | None = None, every_deck: bool = False) -> list[str]:
    """The terminal report: the summary first, then one block per deck that is not legal
    (every deck with ``every_deck``) — its violations, penalty or the head judge's
    decision, remedies —, and the counts again under a long listing. Built column-wise, so
    10,000 decks print in one write."""
    violations = with_lists(result, lists)
    by_verdict = verdicts(violations, policy, stage, lang, compared=_compared(result))
    decks = result.decks if every_deck else result.decks.filter(pl.col("status") != "legal")
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
    no_clause = policy.text("no_clause", lang)
    decide = policy.text("decision", lang)
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
        .join(lines, on="deck", how="left").join(by_verdict, on="deck", how="left")
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
    counted = status_counts(result.decks)
    comparison = "" if not compared else " — compared with the registered lists" + (
        f" as in duel {duel} (side deck exchanges allowed)" if duel and duel > 1 else "")
    totals = (f"{result.decks.height} decks: {counted['legal']} legal, "
              f"{counted['illegal']} illegal, "
              f"{counted['needs_decision']} need a head judge's decision")
    out = [f"{result.format.title} — list {result.banlist} — {policy.title}{comparison}",
           totals]
    out.extend(f"  {code}: {count}" for code, count in result.counts().items())
    out.extend(line for block in blocks["block"].to_list() for line in block)
    if blocks.height > _REPEAT_TOTALS_AFTER:
        out.append(f"\n{totals}")
    return out


def print_text(result: CheckResult, policy: Policy, stage: Stage, lang: str,
               console: Console, **options: Any) -> None:
    """:func:`text_lines` to a console (plain text: user data is never markup)."""
    console.file.write("\n".join(text_lines(result, policy, stage, lang, **options)) + "\n")
