"""The same rules as DuckDB SQL over the same Parquet: the benchmark's side-by-side anchor.

Sizes, copies per name, Forbidden/Limited, wrong section, unknown card, card pool and the
list differences, written as one query a data engineer would write. Card-level facts (the
list's limit bound to the name, the format's pool) come from ``bench.reference`` — the same
per-card data the reference checker uses —, so what is compared is the per-row work.
Verdicts are in the reference's terms: ``(deck, code, section, card or passcode)``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import duckdb
import polars as pl

from bench.reference import ReferenceChecker

__all__ = ["card_table", "sql_verdicts"]

_QUERY = """
WITH
deck_rows AS (
  SELECT d.deck_id, CAST(d.section AS VARCHAR) AS section, d.passcode, d.qty,
         c.card_id, c.name_id, c.kind, c.is_extra, c.lim, c.outside
  FROM read_parquet($decks) d LEFT JOIN cards c USING (passcode)),
sizes AS (
  SELECT deck_id,
    SUM(CASE WHEN section = 'main' AND kind IS DISTINCT FROM 'skill' THEN qty ELSE 0 END) AS main,
    SUM(CASE WHEN section = 'extra' THEN qty ELSE 0 END) AS extra,
    SUM(CASE WHEN section = 'side' THEN qty ELSE 0 END) AS side
  FROM deck_rows GROUP BY deck_id),
per_card AS (
  SELECT deck_id, card_id, section, SUM(qty) AS qty, ANY_VALUE(name_id) AS name_id,
         ANY_VALUE(lim) AS lim, ANY_VALUE(is_extra) AS is_extra,
         ANY_VALUE(outside) AS outside
  FROM deck_rows WHERE card_id IS NOT NULL GROUP BY deck_id, card_id, section),
per_name AS (
  SELECT deck_id, name_id, SUM(qty) AS total, COUNT(DISTINCT card_id) AS members,
         MIN(card_id) AS one, MIN(lim) AS lim
  FROM per_card GROUP BY deck_id, name_id),
mine AS (
  SELECT deck_id, COALESCE(card_id, passcode) AS k, section, SUM(qty) AS qty
  FROM deck_rows GROUP BY ALL),
theirs AS (
  SELECT r.deck_id, COALESCE(c.card_id, r.passcode) AS k, CAST(r.section AS VARCHAR) AS section,
         SUM(r.qty) AS qty
  FROM read_parquet($lists) r LEFT JOIN cards c USING (passcode) GROUP BY ALL)
SELECT deck_id, 'MAIN_TOO_SMALL' AS code, 'main' AS section, NULL AS k FROM sizes
  WHERE main < $main_min
UNION ALL SELECT deck_id, 'MAIN_TOO_LARGE', 'main', NULL FROM sizes WHERE main > $main_max
UNION ALL SELECT deck_id, 'EXTRA_TOO_LARGE', 'extra', NULL FROM sizes WHERE extra > $extra_max
UNION ALL SELECT deck_id, 'SIDE_TOO_LARGE', 'side', NULL FROM sizes WHERE side > $side_max
UNION ALL SELECT deck_id, 'TOO_MANY_COPIES', NULL,
  CASE WHEN members = 1 THEN one ELSE name_id END FROM per_name WHERE total > $copies
UNION ALL SELECT deck_id, 'LIMIT_EXCEEDED', NULL,
  CASE WHEN members = 1 THEN one ELSE name_id END FROM per_name
  WHERE lim > 0 AND lim < $copies AND total > lim
UNION ALL SELECT deck_id, 'FORBIDDEN_CARD', section, card_id FROM per_card WHERE lim = 0
UNION ALL SELECT deck_id, 'NOT_IN_CARD_POOL', section, card_id FROM per_card WHERE outside
UNION ALL SELECT deck_id, 'WRONG_SECTION', section, card_id FROM per_card
  WHERE (section = 'main' AND is_extra) OR (section = 'extra' AND NOT is_extra)
UNION ALL SELECT DISTINCT deck_id, 'UNKNOWN_CARD', section, passcode FROM deck_rows
  WHERE card_id IS NULL
UNION ALL SELECT COALESCE(m.deck_id, t.deck_id), 'LIST_MISMATCH', COALESCE(m.section, t.section),
  COALESCE(m.k, t.k)
  FROM mine m FULL JOIN theirs t ON m.deck_id = t.deck_id AND m.k = t.k AND m.section = t.section
  WHERE COALESCE(m.qty, 0) <> COALESCE(t.qty, 0)
"""


def card_table(checker: ReferenceChecker) -> pl.DataFrame:
    """One row per printing: what the query joins on (the reference's per-card facts)."""
    rows = []
    for passcode, card_id in checker.card_of.items():
        card = checker.cards[card_id]
        rows.append((passcode, card.card_id, card.name_id, card.kind, card.extra, card.limit,
                     checker._outside(card)))
    return pl.DataFrame(rows, orient="row", schema={
        "passcode": pl.Int64, "card_id": pl.Int64, "name_id": pl.Int64, "kind": pl.Utf8,
        "is_extra": pl.Boolean, "lim": pl.Int64, "outside": pl.Boolean})


def sql_verdicts(checker: ReferenceChecker, decks: Path, lists: Path,
                 threads: int | None = None) -> pl.DataFrame:
    """Every verdict of the query over the two Parquet files: deck_id, code, section, k."""
    fmt = checker.fmt
    if fmt.legend_limit is not None or fmt.points_cap is not None or fmt.skill_max is not None \
            or fmt.forbidden_types:
        raise ValueError(f"the SQL anchor covers formats without Legend/points/Skill/type "
                         f"rules, not {fmt.name}")
    connection = duckdb.connect()
    if threads is not None:
        connection.execute(f"SET threads = {int(threads)}")
    with tempfile.TemporaryDirectory() as folder:  # through Parquet: no pyarrow needed
        cards = Path(folder) / "cards.parquet"
        card_table(checker).write_parquet(cards)
        connection.execute(f"CREATE TABLE cards AS SELECT * FROM read_parquet('{cards}')")
    rows = connection.execute(_QUERY, {
        "decks": str(decks), "lists": str(lists), "main_min": fmt.main_min,
        "main_max": fmt.main_max, "extra_max": fmt.extra_max, "side_max": fmt.side_max,
        "copies": fmt.copy_limit}).fetchall()
    connection.close()
    return pl.DataFrame(rows, orient="row", schema={
        "deck_id": pl.Utf8, "code": pl.Utf8, "section": pl.Utf8, "k": pl.Int64})
