"""EDOPro/YGOPro card databases (``.cdb``, SQLite with ``datas`` and ``texts`` tables).

* ``type`` bits: monster 0x1, spell 0x2, trap 0x4, fusion 0x40, ritual 0x80, synchro 0x2000,
  token 0x4000, xyz 0x800000, pendulum 0x1000000, link 0x4000000, skill 0x8000000;
  fusion/synchro/xyz/link monsters go to the Extra Deck.
* ``ot`` bits: OCG 0x1, TCG 0x2, Speed 0x40, prerelease 0x100, Rush 0x200, Legend 0x400.
* ``alias``: EDOPro counts copies by alias at any distance, so every alias is a name link.
  A row whose alias is within 10 of its id (an alternate artwork), or names a printing with
  the very same name (a reprint) or its name with a version suffix (a pre-errata entry such
  as "Sangan (GOAT)" → Sangan), is moreover the same card; other aliases ("always treated
  as" cards such as A Legendary Ocean → Umi, or a Rush card → the OCG card it is based on)
  give another card the same name (see :func:`validator.cards.finalize`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import polars as pl

from validator.cards.db import CARD_SCHEMA, LINK_SCHEMA, SUBTYPES, CardDB, finalize
from validator.errors import InputError

__all__ = ["OT_BITS", "TYPE_BITS", "read"]

TYPE_BITS: dict[str, int] = {
    "monster": 0x1,
    "spell": 0x2,
    "trap": 0x4,
    "normal": 0x10,
    "effect": 0x20,
    "fusion": 0x40,
    "ritual": 0x80,
    "tuner": 0x1000,
    "synchro": 0x2000,
    "token": 0x4000,
    "maximum": 0x8000,
    "xyz": 0x800000,
    "pendulum": 0x1000000,
    "link": 0x4000000,
    "skill": 0x8000000,
}
OT_BITS: dict[str, int] = {
    "ocg": 0x1,
    "tcg": 0x2,
    "speed": 0x40,
    "prerelease": 0x100,
    "rush": 0x200,
    "legend": 0x400,
}
_EXTRA = TYPE_BITS["fusion"] | TYPE_BITS["synchro"] | TYPE_BITS["xyz"] | TYPE_BITS["link"]


def _query(path: Path) -> list[tuple[int, int, int, int, str | None]]:
    if path.stat().st_size == 0:
        raise InputError.of(str(path), "empty file; expected an EDOPro SQLite card database",
                            code="EMPTY_FILE")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return list(
                conn.execute(
                    "SELECT d.id, d.ot, d.alias, d.type, t.name FROM datas d "
                    "LEFT JOIN texts t ON t.id = d.id ORDER BY d.id"
                )
            )
    except sqlite3.DatabaseError as exc:
        raise InputError.of(
            str(path), "not a readable EDOPro card database (datas/texts tables): {reason}",
            code="BAD_CARD_DATA", reason=exc
        ) from exc


def read(path: Path) -> CardDB:
    rows = _query(path)
    if not rows:
        raise InputError.of(str(path), "the datas table holds no cards", code="NO_CARDS")
    raw = pl.DataFrame(
        rows,
        schema={"passcode": pl.Int64, "ot": pl.Int64, "alias": pl.Int64, "type": pl.Int64,
                "name_en": pl.Utf8},
        orient="row",
    )
    links = raw.filter(pl.col("alias") > 0).select(
        pl.col("passcode").alias("source"), pl.col("alias").alias("target"),
        pl.lit(None, pl.Utf8).alias("target_name"),
        pl.lit("alias", LINK_SCHEMA["link"]).alias("link"))
    type_bit = {k: (pl.col("type") & v) != 0 for k, v in TYPE_BITS.items()}
    ot_bit = {k: (pl.col("ot") & v) != 0 for k, v in OT_BITS.items()}
    kind = (
        pl.when(type_bit["skill"]).then(pl.lit("skill"))
        .when(type_bit["token"]).then(pl.lit("token"))
        .when(type_bit["monster"]).then(pl.lit("monster"))
        .when(type_bit["spell"]).then(pl.lit("spell"))
        .when(type_bit["trap"]).then(pl.lit("trap"))
        .otherwise(pl.lit("monster"))
    )
    subtypes = pl.concat_list(
        [pl.when(type_bit[s]).then(pl.lit(s)).otherwise(pl.lit(None)) for s in SUBTYPES]
    ).list.drop_nulls()
    pools = pl.concat_list(
        [pl.when(ot_bit[p]).then(pl.lit(p)).otherwise(pl.lit(None))
         for p in ("ocg", "tcg", "speed", "rush", "prerelease")]
    ).list.drop_nulls()
    cards = raw.with_columns(
        pl.col("passcode").alias("card_id"),
        pl.col("passcode").alias("name_id"),
        kind.alias("kind"),
        ((pl.col("type") & _EXTRA) != 0).alias("extra"),
        ot_bit["rush"].alias("rush"),
        ot_bit["legend"].alias("legend"),
        subtypes.alias("subtypes"),
        pools.alias("pools"),
        pl.lit(None, pl.Float64).alias("points"),
        pl.lit([], pl.List(pl.Utf8)).alias("other_names"),
        pl.lit(str(path)).alias("source"),
    )
    # a reprint row of a cdb may lack its text row: it shows the name of what it aliases
    names = cards.select(pl.col("passcode").alias("alias"), pl.col("name_en").alias("named"))
    cards = cards.join(names, on="alias", how="left", maintain_order="left").with_columns(
        pl.coalesce("name_en", "named").alias("name_en"))
    frame = cards.select(
        [pl.col(c).cast(t) if c in cards.columns else pl.lit(None, t).alias(c)
         for c, t in CARD_SCHEMA.items()]
    )
    frame, problems = finalize(frame, links)
    return CardDB(frame, sources=[{"source": str(path), "kind": "cdb", "cards": frame.height}],
                  warnings=problems, links=links)
