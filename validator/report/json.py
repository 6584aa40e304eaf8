"""The JSON reports: one builder for the check report (``deckcheck check``) and the event
report (``deckcheck event``, the web app's report.json).

Both are public contracts (see the README): they only ever gain fields. Both share the
header (format, list, card data, regulation, stage, language), each deck's or player's
judgement (violations, penalty, status, remedies, head judge's codes, fuzzy readings), the
summary, the status counts and the warnings. Violations are written from the violation
table by polars (``violations_by_deck``), the rest by ``orjson``: the bytes are those of
``json.dumps(..., ensure_ascii=False, indent=2)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
import polars as pl

from ..engine import CheckResult
from ..errors import ImplementationError
from ..penalties import Policy
from ..verdicts import verdicts
from ..vocab import ON_ENUM, STATUSES, Lang, Stage

if TYPE_CHECKING:
    from ..event import EventResult

__all__ = ["VIOLATION_FIELDS", "compared_decks", "event_json", "event_json_bytes", "fuzzy_by_deck",
           "json_bytes", "status_counts", "to_json_bytes", "to_json_dict", "verdicts_by_deck",
           "violations_by_deck", "with_lists"]

#: the fields of one violation in the JSON contract (``on`` is added where decks are
#: compared with lists: which of the two the violation is on)
VIOLATION_FIELDS = ("code", "section", "passcode", "card", "count", "limit", "registered",
                    "message", "file", "line", "cell", "counts_as", "held", "decision",
                    "read_from")


def json_bytes(payload: dict[str, Any]) -> bytes:
    """The report as UTF-8 JSON, two-space indented, with a final newline: the same bytes as
    ``json.dumps(payload, ensure_ascii=False, indent=2) + "\n"``, written in one pass."""
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS) + b"\n"


def fuzzy_by_deck(*results: CheckResult | None, deck_id: str | None = None) -> dict[
        str, list[dict[str, Any]]]:
    """The entries read fuzzily, by deck id (only ``deck_id``'s when given): what was typed
    and the card it was read as."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    wanted = pl.col("how") == "fuzzy"
    if deck_id is not None:
        wanted &= pl.col("deck_id") == deck_id
    frames = [r.resolved.filter(wanted) for r in results if r is not None]
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
    return pl.concat(frames).with_columns(pl.col("on").cast(ON_ENUM)).sort(
        "deck", "on", maintain_order=True)


def compared_decks(result: CheckResult) -> pl.Series:
    """The decks that were compared with a registered list."""
    return result.decks.filter(pl.col("compared"))["deck"]


def verdicts_by_deck(violations: pl.DataFrame, policy: Policy, stage: Stage, lang: Lang,
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
    return {status: int(counted.get(status, 0)) for status in STATUSES}


def _header(format_name: str, banlist: str, cards: str, policy: Policy, stage: Stage,
            lang: Lang) -> dict[str, Any]:
    return {"format": format_name, "banlist": banlist, "cards": cards,
            "regulation": policy.regulation, "stage": stage, "lang": lang}


def _judged(status: object, fragment: orjson.Fragment | None, verdict: dict[str, Any] | None,
            fuzzy: list[dict[str, Any]],
            decisions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One deck's or player's judgement, as both reports write it."""
    return {"violations": [] if fragment is None else fragment,
            "penalty": penalty_json(verdict),
            **verdict_json(str(status), verdict),
            **({} if decisions is None else {"decisions": decisions}),
            "fuzzy": fuzzy}


def _summary(noun: str, table: pl.DataFrame, by_code: dict[str, int]) -> dict[str, Any]:
    legal = int(table["legal"].sum())
    return {noun: table.height, "legal": legal, "illegal": table.height - legal,
            "violations_by_code": by_code}


def to_json_dict(result: CheckResult, policy: Policy, stage: Stage, lang: Lang, *,
                 lists: CheckResult | None = None, compared: bool = False,
                 duel: int | None = None) -> dict[str, Any]:
    """The check report as Python data."""
    return dict(orjson.loads(to_json_bytes(result, policy, stage, lang, lists=lists,
                                           compared=compared, duel=duel)))


def to_json_bytes(result: CheckResult, policy: Policy, stage: Stage, lang: Lang, *,
                  lists: CheckResult | None = None, compared: bool = False,
                  duel: int | None = None) -> bytes:
    """The check report: one object per deck."""
    violations = with_lists(result, lists)
    by_verdict = verdicts_by_deck(violations, policy, stage, lang, compared_decks(result))
    by_deck = violations_by_deck(violations,
                                 (*VIOLATION_FIELDS, "on") if compared else VIOLATION_FIELDS)
    fuzzy = fuzzy_by_deck(result, lists)
    decks = [{"deck_id": row["deck_id"], "source": row["source"], "legal": row["legal"],
              "counts": {"main": row["main"], "extra": row["extra"], "side": row["side"]},
              **_judged(row["status"], by_deck.get(row["deck"]), by_verdict.get(row["deck"]),
                        fuzzy.get(row["deck_id"], []))}
             for row in result.decks.iter_rows(named=True)]
    return json_bytes({
        **_header(result.format.name, result.banlist, result.cards, policy, stage, lang),
        "duel": duel,
        "comparison": None if not compared else ("siding" if duel and duel > 1 else "sections"),
        "decks": decks,
        "summary": _summary("decks", result.decks, result.counts()),
        "statuses": status_counts(result.decks),
        "warnings": [str(w) for w in result.warnings],
    })


def event_json(result: EventResult, policy: Policy, stage: Stage, lang: Lang) -> dict[str, Any]:
    """The event report as Python data (no timestamps: stable for diffs and golden tests)."""
    return dict(orjson.loads(event_json_bytes(result, policy, stage, lang)))


def event_json_bytes(result: EventResult, policy: Policy, stage: Stage, lang: Lang) -> bytes:
    """The event report: one object per registered player, their list's and deck's
    violations together (``on``), the problems met reading the inputs, the decisions."""
    by_verdict = verdicts_by_deck(result.violations, policy, stage, lang,
                                  compared=result.deck_check is not None)
    by_player = violations_by_deck(result.violations, ("on", *VIOLATION_FIELDS))
    fuzzy = fuzzy_by_deck(result.list_check, result.deck_check)
    decided: dict[str, list[dict[str, Any]]] = {}
    for item in result.decisions:
        decided.setdefault(item.player_id, []).append(item.json())
    players = [{"player_id": row["player_id"], "player_name": row["player_name"],
                "legal": row["legal"], "list_legal": row["list_legal"],
                "deck_legal": row["deck_legal"],
                "list_counts": {"main": row["list_main"], "extra": row["list_extra"],
                                "side": row["list_side"]},
                "deck_counts": None if row["deck_main"] is None else {
                    "main": row["deck_main"], "extra": row["deck_extra"],
                    "side": row["deck_side"]},
                "deck_source": row["deck_source"],
                **_judged(row["status"], by_player.get(row["deck"]),
                          by_verdict.get(row["deck"]), fuzzy.get(row["player_id"], []),
                          decided.get(row["player_id"], []))}
               for row in result.players.iter_rows(named=True)]
    return json_bytes({
        **_header(result.format.name, result.list_check.banlist, result.list_check.cards,
                  policy, stage, lang),
        "players": players,
        "problems": [{"file": p.file, "line": p.line, "where": p.column, "message": p.message}
                     for p in result.problems],
        "unmatched_decks": result.unmatched_decks,
        "players_without_deck": result.players_without_deck,
        "decisions": [d.json() for d in result.decisions],
        "summary": {**_summary("players", result.players, result.counts()),
                    "problems": len(result.problems)},
        "statuses": status_counts(result.players),
        "warnings": [str(w) for w in result.warnings],
    })
