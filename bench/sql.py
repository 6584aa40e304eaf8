"""The same rules as DuckDB SQL over the same Parquet: the benchmark's side-by-side anchor.

Sizes, copies per name, Forbidden/Limited, wrong section, unknown card, card pool and the
list differences, as one query that reads each file once: a single GROUP BY (deck,
passcode) with per-section conditional sums (the deck's and, with lists, its list's, over
both files at once), the card-level facts joined once to the grouped rows, the deck sizes
from the grouped rows, and every other rule a filter over the few rows a card-level flag
marks (a printing of a card or name with several printings, a listed or pool-less card);
only those rows are grouped again by card or name. Card-level facts come from
``bench.reference`` — the same per-card data the reference checker uses —, so what is
compared is the per-row work. Verdicts are in the reference's terms: ``(deck, code,
section, card or passcode)``.

Shapes measured and dropped (``SHAPES``, ``python -m bench.sql N``): the card table joined
to every entry row before grouping by (deck, card), and one grouping by (deck, card,
section) with the sizes and names grouped from it (the shape this module had before);
both slower.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from bench.reference import ReferenceChecker

__all__ = ["SHAPES", "card_table", "sql_verdicts"]

#: the per-deck rules over rows ``g``: (deck_id, passcode, m, e, s[, lm, le, ls]) joined
#: with the card facts; ``flagged`` rows are regrouped by card
_RULES = """
sizes AS (
  SELECT deck_id,
    SUM(CASE WHEN kind IS DISTINCT FROM 'skill' THEN m ELSE 0 END) AS main,
    SUM(e) AS extra, SUM(s) AS side
  FROM g GROUP BY deck_id),
flagged AS (
  SELECT deck_id, card_id, ANY_VALUE(name_id) AS name_id, ANY_VALUE(lim) AS lim,
    ANY_VALUE(is_extra) AS is_extra, ANY_VALUE(outside) AS outside,
    SUM(m) AS m, SUM(e) AS e, SUM(s) AS s
  FROM g WHERE card_id IS NOT NULL AND (shared OR lim IS NOT NULL OR outside
    OR m + e + s > $copies OR (m > 0 AND is_extra) OR (e > 0 AND NOT is_extra))
  GROUP BY deck_id, card_id),
per_name AS (
  SELECT deck_id, name_id, SUM(m + e + s) AS total, COUNT(*) AS members,
    MIN(card_id) AS one, MIN(lim) AS lim
  FROM flagged GROUP BY deck_id, name_id),
sections AS (
  SELECT deck_id, card_id, lim, is_extra, outside, 'main' AS section FROM flagged WHERE m > 0
  UNION ALL SELECT deck_id, card_id, lim, is_extra, outside, 'extra' FROM flagged WHERE e > 0
  UNION ALL SELECT deck_id, card_id, lim, is_extra, outside, 'side' FROM flagged WHERE s > 0)
SELECT deck_id, 'MAIN_TOO_SMALL' AS code, 'main' AS section, NULL::BIGINT AS k FROM sizes
  WHERE main < $main_min
UNION ALL SELECT deck_id, 'MAIN_TOO_LARGE', 'main', NULL FROM sizes WHERE main > $main_max
UNION ALL SELECT deck_id, 'EXTRA_TOO_LARGE', 'extra', NULL FROM sizes WHERE extra > $extra_max
UNION ALL SELECT deck_id, 'SIDE_TOO_LARGE', 'side', NULL FROM sizes WHERE side > $side_max
UNION ALL SELECT deck_id, 'TOO_MANY_COPIES', NULL,
  CASE WHEN members = 1 THEN one ELSE name_id END FROM per_name WHERE total > $copies
UNION ALL SELECT deck_id, 'LIMIT_EXCEEDED', NULL,
  CASE WHEN members = 1 THEN one ELSE name_id END FROM per_name
  WHERE lim > 0 AND lim < $copies AND total > lim
UNION ALL SELECT deck_id, 'FORBIDDEN_CARD', section, card_id FROM sections WHERE lim = 0
UNION ALL SELECT deck_id, 'NOT_IN_CARD_POOL', section, card_id FROM sections WHERE outside
UNION ALL SELECT deck_id, 'WRONG_SECTION', section, card_id FROM sections
  WHERE (section = 'main' AND is_extra) OR (section = 'extra' AND NOT is_extra)
UNION ALL SELECT deck_id, 'UNKNOWN_CARD', 'main', passcode FROM g
  WHERE card_id IS NULL AND m > 0
UNION ALL SELECT deck_id, 'UNKNOWN_CARD', 'extra', passcode FROM g
  WHERE card_id IS NULL AND e > 0
UNION ALL SELECT deck_id, 'UNKNOWN_CARD', 'side', passcode FROM g
  WHERE card_id IS NULL AND s > 0
"""

#: the list differences: per (deck, card or passcode), section by section
_MISMATCH = """
UNION ALL SELECT deck_id, 'LIST_MISMATCH', section, k FROM (
  SELECT deck_id, COALESCE(card_id, passcode) AS k, SUM(m) AS m, SUM(e) AS e, SUM(s) AS s,
    SUM(lm) AS lm, SUM(le) AS le, SUM(ls) AS ls
  FROM g WHERE m <> lm OR e <> le OR s <> ls GROUP BY ALL) d,
  LATERAL (SELECT 'main' AS section WHERE d.m <> d.lm
           UNION ALL SELECT 'extra' WHERE d.e <> d.le
           UNION ALL SELECT 'side' WHERE d.s <> d.ls)
"""

_SUMS = ("COALESCE(SUM(qty) FILTER (section = 'main'), 0) AS m, "
         "COALESCE(SUM(qty) FILTER (section = 'extra'), 0) AS e, "
         "COALESCE(SUM(qty) FILTER (section = 'side'), 0) AS s")
_LIST_SUMS = ("COALESCE(SUM(lq) FILTER (section = 'main'), 0) AS lm, "
              "COALESCE(SUM(lq) FILTER (section = 'extra'), 0) AS le, "
              "COALESCE(SUM(lq) FILTER (section = 'side'), 0) AS ls")


def _grouped(lists: bool) -> str:
    """Shape ``grouped``: one GROUP BY (deck, passcode) over every entry row (of the decks
    and the lists together), the card facts joined to the grouped rows."""
    if not lists:
        source = "SELECT deck_id, section, passcode, qty " \
                 "FROM read_parquet($decks)"
        sums = _SUMS
    else:
        source = ("SELECT deck_id, section, passcode, qty, 0 AS lq FROM read_parquet($decks) "
                  "UNION ALL SELECT deck_id, section, passcode, 0, qty FROM read_parquet($lists)")
        sums = f"{_SUMS}, {_LIST_SUMS}"
    return (f"WITH p AS (SELECT deck_id, passcode, {sums} FROM ({source}) GROUP BY ALL),\n"
            "g AS MATERIALIZED (SELECT p.*, c.* EXCLUDE (passcode) FROM p LEFT JOIN cards c "
            "USING (passcode)),\n" + _RULES + (_MISMATCH if lists else ""))


def _joined(lists: bool) -> str:
    """Shape ``joined``: the card facts joined to every entry row, then one GROUP BY
    (deck, card or passcode)."""
    def side(path: str, own: str, other: str) -> str:
        return (f"SELECT d.deck_id, d.section AS section, d.passcode AS "
                f"passcode, {own}, {other}, c.card_id AS cid FROM read_parquet({path}) d "
                "LEFT JOIN cards c USING (passcode)")
    source = side("$decks", "d.qty AS qty", "0 AS lq")
    sums = _SUMS
    if lists:
        source += " UNION ALL " + side("$lists", "0", "d.qty")
        sums = f"{_SUMS}, {_LIST_SUMS}"
    return (f"WITH p AS (SELECT deck_id, cid, CASE WHEN cid IS NULL THEN passcode END AS "
            f"passcode, {sums} FROM ({source}) GROUP BY ALL),\n"
            "g AS MATERIALIZED (SELECT p.* EXCLUDE (cid), c.* EXCLUDE (passcode) FROM p "
            "LEFT JOIN (SELECT * FROM cards QUALIFY ROW_NUMBER() OVER (PARTITION BY card_id "
            "ORDER BY passcode) = 1) c ON c.card_id = p.cid),\n"
            + _RULES + (_MISMATCH if lists else ""))


#: query shapes by name, the kept one first
SHAPES = {"grouped": _grouped, "joined": _joined}


def card_table(checker: ReferenceChecker) -> pl.DataFrame:
    """One row per printing: what the query joins on (the reference's per-card facts).
    ``shared``: the card has several printings, or its name several cards (a deck's copies
    of it may be spread over rows: they are grouped again)."""
    rows = []
    for passcode, card_id in checker.card_of.items():
        card = checker.cards[card_id]
        rows.append((passcode, card.card_id, card.name_id, card.kind, card.extra, card.limit,
                     checker._outside(card)))
    frame = pl.DataFrame(rows, orient="row", schema={
        "passcode": pl.Int64, "card_id": pl.Int64, "name_id": pl.Int64, "kind": pl.Utf8,
        "is_extra": pl.Boolean, "lim": pl.Int64, "outside": pl.Boolean})
    return frame.with_columns(
        ((pl.len().over("card_id") > 1)
         | (pl.col("card_id").n_unique().over("name_id") > 1)).alias("shared"))


def sql_verdicts(checker: ReferenceChecker, decks: Path, lists: Path | None,
                 threads: int | None = None, shape: str = "grouped") -> pl.DataFrame:
    """Every verdict of the query over the Parquet files (``lists`` None: legality only):
    deck_id, code, section, k."""
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
    values: dict[str, object] = {
        "decks": str(decks), "main_min": fmt.main_min, "main_max": fmt.main_max,
        "extra_max": fmt.extra_max, "side_max": fmt.side_max, "copies": fmt.copy_limit}
    if lists is not None:
        values["lists"] = str(lists)
    rows = connection.execute(SHAPES[shape](lists is not None), values).fetchall()
    connection.close()
    return pl.DataFrame(rows, orient="row", schema={
        "deck_id": pl.Utf8, "code": pl.Utf8, "section": pl.Utf8, "k": pl.Int64})


def main() -> None:
    """Time every shape over one synthetic event (``bench.measure``'s Parquet files)."""
    from bench.measure import _event_files, _setup

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("players", type=int)
    parser.add_argument("--cards", default="auto")
    args = parser.parse_args()
    setup = _setup(args.cards)
    checker = ReferenceChecker(setup.cards, setup.banlist, setup.fmt)
    decks, lists = _event_files(args.players, args.cards)
    out: dict[str, float] = {}
    for shape in SHAPES:
        for with_lists in (False, True):
            began = time.perf_counter()
            found = sql_verdicts(checker, decks, lists if with_lists else None, shape=shape)
            out[f"{shape} {'lists' if with_lists else 'legality'}"] = \
                time.perf_counter() - began
            out[f"{shape} {'lists' if with_lists else 'legality'} verdicts"] = found.height
    print(json.dumps(out))


if __name__ == "__main__":
    main()
