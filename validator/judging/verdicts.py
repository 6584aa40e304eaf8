"""From violations to what a judge reads aloud: per deck, the penalty the regulation
prescribes, when it applies, the clauses it rests on, and one coherent list of remedies.

* Only violations that are facts count: not the head judge's decisions (an unresolved name,
  an unreadable row), and not the verdicts that wait for one (``held``).
* The penalty is the most severe one the regulation prescribes for those codes; codes the
  regulation has no clause for are listed as the head judge's decision (``head_judge``) —
  never given a penalty the regulation does not prescribe.
* Remedies: a deck compared with a legal list is fixed to match it, card by card ("Add 1
  Raigeki to the main deck, as registered"); when the list itself is illegal, the head judge
  decides how list and deck are made legal; without a list, each violation's remedy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from validator.engine.rules import CODES, COMPARING_CODES
from validator.judging.penalties import Policy
from validator.text.i18n import say
from validator.vocab import Lang, Stage

__all__ = ["VERDICT_SCHEMA", "verdicts"]

VERDICT_SCHEMA: dict[str, pl.DataType] = {
    "deck": pl.UInt32(),
    "penalty": pl.Utf8(),
    "label": pl.Utf8(),
    "applies_to": pl.Utf8(),
    "recorded": pl.Boolean(),
    "basis": pl.List(pl.Utf8()),
    "remedies": pl.List(pl.Utf8()),
    "head_judge": pl.List(pl.Utf8()),
}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _template(text: str, values: dict[str, pl.Expr]) -> pl.Expr:
    """A remedy text with ``{n}``, ``{card}``, ``{section}`` filled from columns."""
    names = _PLACEHOLDER.findall(text)
    return pl.format(_PLACEHOLDER.sub("{}", text.replace("{}", "")),
                     *[values[n] for n in names])


def _card_line(policy: Policy, lang: Lang, named: str) -> pl.Expr:
    """The card-by-card remedy of one mismatch of a deck that must match its (legal) list
    (``named``: the column of the card's name in ``lang``)."""
    section = pl.coalesce(pl.col("section").cast(pl.Utf8), pl.lit("deck")).replace_strict(
        {s: policy.sections[s].get(lang) for s in policy.sections}, return_dtype=pl.Utf8)
    card = pl.coalesce(pl.col(named), pl.format(say(lang, "passcode {passcode}", passcode="{}"),
                                                pl.col("passcode")))
    found = pl.col("count").fill_null(0)
    listed = pl.col("registered")

    def text(key: str, n: pl.Expr) -> pl.Expr:
        return _template(policy.remedies[key].get(lang),
                         {"n": n.cast(pl.Utf8), "card": card, "section": section})

    return (
        pl.when(pl.col("card_id").is_null() & pl.col("passcode").is_null()
                & (pl.col("section") == "side"))
        .then(text("side_size", listed))
        .when(listed.is_null() | (found > listed)).then(
            text("take_out", found - listed.fill_null(0)))
        .otherwise(text("add_back", listed - found))
    ).alias("line")


@dataclass(frozen=True)
class _Parts:
    """What the verdicts of one regulation, stage and language are made of, whatever the
    violations: the regulation's codes as a table and the expressions over them."""

    codes: pl.LazyFrame
    per_deck: list[pl.Expr]
    lines: dict[str, pl.Expr]  # by the column of the card's name
    own: tuple[pl.Expr, pl.Expr, pl.Expr]  # the list illegal, matched to it, no list
    columns: list[pl.Expr]  # label, applies_to, recorded
    schema: list[pl.Expr]


#: the parts of the latest few (regulation, stage, language), by the policy's identity (the
#: policy is kept with them, so its identity is not another's while they are kept)
_MADE: dict[tuple[int, Stage, Lang], tuple[Policy, _Parts]] = {}
_MADE_AT_MOST = 16


def _parts(policy: Policy, stage: Stage, lang: Lang) -> _Parts:
    """The parts of ``policy``'s verdicts at ``stage`` in ``lang``, made once."""
    key = (id(policy), stage, lang)
    held = _MADE.get(key)
    if held is not None and held[0] is policy:
        return held[1]
    codes = pl.DataFrame({
        "code": list(policy.codes),
        "penalty": [c.penalty for c in policy.codes.values()],
        "severity": [policy.severity(c.penalty) if c.penalty else -1
                     for c in policy.codes.values()],
        "remedy": [policy.remedy(code, lang) for code in policy.codes],
        "basis": [f"{policy.regulation} {c.clause}" if c.clause else None
                  for c in policy.codes.values()],
        "order": [CODES.index(code) for code in policy.codes],
    })
    penalty = pl.col("fact") & pl.col("penalty").is_not_null()
    per_deck = [
        pl.col("penalty").filter(penalty)
        .sort_by(pl.col("severity").filter(penalty), descending=True).first(),
        pl.col("basis").filter(pl.col("fact")).drop_nulls().unique(maintain_order=True),
        pl.col("code").filter(pl.col("fact") & pl.col("penalty").is_null())
        .unique(maintain_order=True).alias("head_judge"),
        pl.col("remedy").filter(pl.col("fact")).unique(maintain_order=True)
        .alias("own_remedies"),
        pl.col("fact").any().alias("illegal"),
        (~pl.col("fact")).any().alias("pending"),
        (pl.col("fact") & (pl.col("on") == "list")).any().alias("list_illegal"),
    ]
    lines = {named: _card_line(policy, lang, named) for named in ("card", f"card_{lang}")}
    own = (pl.concat_list(pl.lit(policy.remedies["list_illegal"].get(lang))),
           pl.concat_list(pl.lit(policy.remedies["match_list"].get(lang)),
                          pl.col("line").fill_null(pl.lit([], pl.List(pl.Utf8)))),
           pl.col("own_remedies"))
    labels = {p: policy.penalty_name(p, lang) for p in policy.penalties}
    applies = {p: policy.applies_to(p, stage, lang) for p in policy.penalties}
    recorded = {p: policy.recorded(p) for p in policy.penalties}
    columns = [
        pl.col("penalty").replace_strict(labels, default=None).alias("label"),
        pl.col("penalty").replace_strict(applies, default=None).alias("applies_to"),
        pl.col("penalty").replace_strict(recorded, default=None, return_dtype=pl.Boolean)
        .alias("recorded"),
    ]
    parts = _Parts(codes.lazy(), per_deck, lines, own, columns,
                   [pl.col(c).cast(t) for c, t in VERDICT_SCHEMA.items()])
    if len(_MADE) >= _MADE_AT_MOST:
        _MADE.clear()
    _MADE[key] = (policy, parts)
    return parts


def verdicts(violations: pl.DataFrame, policy: Policy, stage: Stage, lang: Lang, *,
             compared: bool | pl.Series = False) -> pl.DataFrame:
    """One row per deck with violations (``VERDICT_SCHEMA``).

    ``violations`` carries ``deck``, ``code``, ``held``, ``decision`` and, for decks that
    were compared with their registered lists, ``on`` (list or deck). ``compared`` says
    which decks were: all, none, or the deck numbers given. Planned whole and collected in
    one pass (a judge's check has a handful of violations).
    """
    if violations.is_empty():
        return pl.DataFrame(schema=VERDICT_SCHEMA)
    if violations.height <= FEW:
        return _verdicts_few(violations, policy, stage, lang, compared)
    parts = _parts(policy, stage, lang)
    rows = violations.lazy() if "on" in violations.columns else violations.lazy().with_columns(
        pl.lit("deck").alias("on"))
    joined = (rows.with_columns(pl.col("on").cast(pl.Utf8))
              .join(parts.codes, on="code", how="left", maintain_order="left")
              .with_columns((~pl.col("held") & ~pl.col("decision")).alias("fact")))
    per_deck = joined.sort("order").group_by("deck", maintain_order=True).agg(parts.per_deck)
    named = f"card_{lang}" if f"card_{lang}" in violations.columns else "card"
    lines = (joined.filter(pl.col("fact") & pl.col("code").is_in(list(COMPARING_CODES)))
             .select("deck", parts.lines[named])
             .group_by("deck", maintain_order=True).agg(pl.col("line")))
    decide = policy.remedies["decide"].get(lang)
    with_list = (pl.col("deck").is_in(compared.implode()) if isinstance(compared, pl.Series)
                 else pl.lit(compared))
    list_illegal, match_list, own_remedies = parts.own
    own = (
        pl.when(with_list & pl.col("list_illegal")).then(list_illegal)
        .when(with_list).then(match_list)
        .otherwise(own_remedies)
    )
    remedies = (
        pl.when(pl.col("illegal") & pl.col("pending"))
        .then(pl.concat_list(own, pl.lit([decide], pl.List(pl.Utf8))))
        .when(pl.col("illegal")).then(own)
        .otherwise(pl.lit([decide], pl.List(pl.Utf8)))
    )
    return (
        per_deck.join(lines, on="deck", how="left", maintain_order="left")
        .with_columns(remedies.alias("remedies"), *parts.columns)
        .select(parts.schema)
        .collect(engine="in-memory")
    )


#: at most this many violations (a judge's check, a player's page) are judged in Python
#: (``_verdicts_few``) rather than in a polars pass
FEW = 16


def _filled(text: str, values: dict[str, str | None]) -> str | None:
    """:func:`_template`'s text of one row (None when a value it reads is None)."""
    names = _PLACEHOLDER.findall(text)
    if any(values[n] is None for n in names):
        return None
    return _PLACEHOLDER.sub(lambda found: str(values[found.group(1)]), text.replace("{}", ""))


def _verdicts_few(violations: pl.DataFrame, policy: Policy, stage: Stage, lang: Lang,
                  compared: bool | pl.Series) -> pl.DataFrame:
    """:func:`verdicts` of a handful of violations, read in Python: the same rows."""
    columns = ["deck", "code", "held", "decision", "section", "card_id", "passcode", "count",
               "registered"]
    named = f"card_{lang}" if f"card_{lang}" in violations.columns else "card"
    values = {c: violations.get_column(c).to_list() for c in columns}
    values["card"] = violations.get_column(named).to_list()
    values["on"] = (violations.get_column("on").cast(pl.Utf8).to_list()
                    if "on" in violations.columns else ["deck"] * violations.height)
    rows = [dict(zip(values, row, strict=True)) for row in zip(*values.values(), strict=True)]
    order = {code: CODES.index(code) for code in policy.codes}
    # nulls first, as polars sorts; Python's sort keeps ties in order, as polars' does here
    ranked = sorted(rows, key=lambda row: (row["code"] in order, order.get(row["code"], 0)))
    decks: dict[int, list[dict[str, object]]] = {}
    for row in ranked:
        row["fact"] = not row["held"] and not row["decision"]
        decks.setdefault(row["deck"], []).append(row)
    lines: dict[int, list[str | None]] = {}
    for row in rows:  # the violations' own order
        if row["fact"] and row["code"] in COMPARING_CODES:
            lines.setdefault(row["deck"], []).append(_line(row, policy, lang))
    listed = (set(compared.to_list()) if isinstance(compared, pl.Series) else None)
    decide = policy.remedies["decide"].get(lang)
    out: dict[str, list[object]] = {c: [] for c in VERDICT_SCHEMA}
    for deck, held in decks.items():
        facts = [row for row in held if row["fact"]]
        coded = [policy.codes.get(str(row["code"])) for row in facts]
        penalties = [(policy.severity(c.penalty) if c.penalty else -1, c.penalty)
                     for c in coded if c is not None and c.penalty is not None]
        penalty = max(penalties, key=lambda p: p[0])[1] if penalties else None
        basis = [f"{policy.regulation} {c.clause}" for c in coded if c is not None and c.clause]
        judge = [str(row["code"]) for row, c in zip(facts, coded, strict=True)
                 if c is None or c.penalty is None]
        own = [policy.remedy(str(row["code"]), lang) if c is not None else None
               for row, c in zip(facts, coded, strict=True)]
        with_list = deck in listed if listed is not None else bool(compared)
        if with_list and any(row["on"] == "list" for row in facts):
            remedies: list[str | None] = [policy.remedies["list_illegal"].get(lang)]
        elif with_list:
            remedies = [policy.remedies["match_list"].get(lang), *lines.get(deck, [])]
        else:
            remedies = list(dict.fromkeys(own))
        if not facts:
            remedies = [decide]
        elif len(facts) < len(held):
            remedies = [*remedies, decide]
        out["deck"].append(deck)
        out["penalty"].append(penalty)
        out["label"].append(policy.penalty_name(penalty, lang) if penalty in policy.penalties
                            else None)
        out["applies_to"].append(policy.applies_to(penalty, stage, lang)
                                 if penalty in policy.penalties else None)
        out["recorded"].append(policy.recorded(penalty) if penalty in policy.penalties
                               else None)
        out["basis"].append(list(dict.fromkeys(basis)))
        out["remedies"].append(remedies)
        out["head_judge"].append(list(dict.fromkeys(judge)))
    return pl.DataFrame([pl.Series(c, out[c], dtype=t) for c, t in VERDICT_SCHEMA.items()])


def _line(row: dict[str, object], policy: Policy, lang: Lang) -> str | None:
    """:func:`_card_line` of one violation row."""
    section = policy.sections[str(row["section"] if row["section"] is not None
                                  else "deck")].get(lang)
    card = row["card"]
    if card is None and row["passcode"] is not None:
        before, after = say(lang, "passcode {passcode}", passcode="{}").split("{}", 1)
        card = f"{before}{row['passcode']}{after}"
    found = row["count"] if row["count"] is not None else 0
    listed = row["registered"]
    if row["card_id"] is None and row["passcode"] is None and row["section"] == "side":
        key, n = "side_size", listed
    elif listed is None or found > listed:  # type: ignore[operator]
        key, n = "take_out", found - (listed or 0)  # type: ignore[operator]
    else:
        key, n = "add_back", listed - found  # type: ignore[operator]
    return _filled(policy.remedies[key].get(lang), {
        "n": None if n is None else str(n), "card": None if card is None else str(card),
        "section": section})
