"""The card table: one row per printing (passcode), a ``card_id`` per card and a ``name_id``
per card *name*.

* ``card_id`` is the card: all printings of one card (alternate artworks, reprints under a new
  passcode) share it. It is the lowest passcode of the card, or for a card without a passcode
  (some tokens, anime cards) a stable negative number derived from the source's own id.
* ``name_id`` is the name the card counts as for deck construction: a card whose text says
  *"This card's name is always treated as "X""* has X's name, so copies and Forbidden/Limited
  limits count both cards together. For every other card ``name_id == card_id``.

Importers give each printing a provisional ``card_id`` and a table of *links* (same card,
an alias of unknown kind, or a name link); :func:`finalize` turns the links of all sources
together into ``card_id`` and ``name_id``, so that a link read from one source (a cdb alias)
joins cards read from another (YGOJSON).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, get_args

import polars as pl

from validator.errors import Problem
from validator.text.normalize import name_key_expr
from validator.vocab import NAME_LANGS

__all__ = [
    "CARD_SCHEMA",
    "KINDS",
    "LEGALITY_SCHEMA",
    "LINK_SCHEMA",
    "NAME_LANGS",
    "REGIONS",
    "SUBTYPES",
    "CardDB",
    "Kind",
    "Region",
    "Subtype",
    "components",
    "empty_cards",
    "empty_links",
    "finalize",
    "merged_list",
    "stable_negative_id",
]


#: the card's kind (``kind``)
Kind = Literal["monster", "spell", "trap", "token", "skill"]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: the monster types a card's ``subtypes`` holds (EDOPro's type bits, YGOJSON's monster types
#: and classifications): what a format may forbid
Subtype = Literal["normal", "effect", "fusion", "ritual", "tuner", "synchro", "maximum", "xyz",
                  "pendulum", "link"]
SUBTYPES: tuple[Subtype, ...] = get_args(Subtype)
#: the release regions a card's ``pools`` holds (EDOPro's ``ot`` bits, YGOJSON's legality
#: regions): what a format's card pool names
Region = Literal["tcg", "ocg", "ocg-kr", "ocg-sc", "genesys", "speed", "rush", "prerelease",
                 "masterduel", "duellinks"]
REGIONS: tuple[Region, ...] = get_args(Region)

CARD_SCHEMA: dict[str, pl.DataType] = {
    "passcode": pl.Int64(),
    "card_id": pl.Int64(),
    "name_id": pl.Int64(),
    **{f"name_{lang}": pl.Utf8() for lang in NAME_LANGS},
    "other_names": pl.List(pl.Utf8()),  # other spellings of the English name
    "kind": pl.Enum(list(KINDS)),
    "extra": pl.Boolean(),
    "rush": pl.Boolean(),
    "legend": pl.Boolean(),
    "subtypes": pl.List(pl.Utf8()),
    "pools": pl.List(pl.Utf8()),
    "points": pl.Float64(),
    "source": pl.Utf8(),
}

#: Legality that a card source states itself (YGOJSON's tcg/ocg/ocg-kr/genesys fields),
#: keyed by the card's lowest passcode.
LEGALITY_SCHEMA: dict[str, pl.DataType] = {
    "passcode": pl.Int64(),
    "region": pl.Utf8(),
    "status": pl.Utf8(),
    "points": pl.Float64(),
}

#: How two printings are linked:
#: ``card`` — the same card (YGOJSON passwords of one card);
#: ``alias`` — a cdb/CSV alias: the same card when the two share their name (up to a
#: version suffix such as " (GOAT)": a pre-errata entry) or lie within ``ALIAS_SAME_CARD`` of
#: each other (an alternate artwork), else a name link;
#: ``name`` — the source's name is always treated as the target's (``target_name`` when the
#: target is known only by its English name).
LINK_SCHEMA: dict[str, pl.DataType] = {
    "source": pl.Int64(),
    "target": pl.Int64(),
    "target_name": pl.Utf8(),
    "link": pl.Enum(["card", "alias", "name"]),
}
ALIAS_SAME_CARD = 10
#: a version suffix of a name ("Sangan (GOAT)": the pre-errata entry of Sangan); an alias
#: from such a name to the plain name is another printing of the same card
VERSION_SUFFIX = r" \([^()]+\)$"

_NODE = pl.coalesce("passcode", "card_id")


def merged_list(column: str) -> pl.Expr:
    """In an aggregation: the sorted union of a list column's items over the group."""
    return pl.col(column).list.explode(keep_nulls=False, empty_as_null=False).unique().sort()


def empty_cards() -> pl.DataFrame:
    return pl.DataFrame(schema=CARD_SCHEMA)


def empty_links() -> pl.DataFrame:
    return pl.DataFrame(schema=LINK_SCHEMA)


def stable_negative_id(source_id: str) -> int:
    """A stable card id for a card with no passcode: in [-2**31 + 1, -1], so it never
    collides with a passcode and packs into the engine's 64-bit (deck, card) key."""
    return -(int(hashlib.sha1(source_id.encode()).hexdigest()[:12], 16) % (2**31 - 1)) - 1


def components(nodes: pl.Series, a: pl.Series, b: pl.Series, rank: pl.Series) -> pl.Series:
    """Connected components of an undirected graph: per node, the member of its component
    with the lowest ``rank`` (``rank`` is aligned with ``nodes``; edges are ``a[i]—b[i]``).

    Labels are propagated along the edges until nothing changes (a few joins: link chains
    are short), never a Python loop over nodes.
    """
    labels = pl.DataFrame({"node": nodes, "rank": rank}).with_columns(
        pl.col("rank").alias("label"))
    edges = pl.concat([
        pl.DataFrame({"node": a, "other": b}),
        pl.DataFrame({"node": b, "other": a}),
    ]).drop_nulls().unique()
    for _ in range(64):
        step = (
            edges.join(labels.select(pl.col("node").alias("other"), "label"), on="other")
            .group_by("node").agg(pl.col("label").min().alias("seen"))
        )
        moved = labels.join(step, on="node", how="left", maintain_order="left").with_columns(
            pl.min_horizontal("label", "seen").alias("label")).drop("seen")
        if moved["label"].equals(labels["label"]):
            break
        labels = moved
    best = labels.group_by("label").agg(pl.col("node").sort_by("rank").first().alias("root"))
    return labels.join(best, on="label", how="left", maintain_order="left")["root"]


def _rank(node: pl.Expr, real: pl.Expr) -> pl.Expr:
    """Order of preference for a component's representative: real cards with a passcode
    (lowest first), then cards without one, then nodes no source holds (below 2**41)."""
    return (pl.when(real).then(0).otherwise(2**40) + pl.when(node >= 0).then(node)
            .otherwise(2**35 - node))


def finalize(cards: pl.DataFrame, links: pl.DataFrame) -> tuple[pl.DataFrame, list[Problem]]:
    """``card_id`` and ``name_id`` for every printing, from the links of all sources.

    Same card: linked as one card, an alias between printings of one name (or from the name
    with a version suffix, "Sangan (GOAT)", to the name) or within ``ALIAS_SAME_CARD``
    passcodes, or printings of one game with the same English name and kind. Same name:
    those, plus "always treated as" links and other aliases (EDOPro counts copies by alias
    at any distance), never across the two games (Rush and OCG/TCG share no deck). A
    printing's ``pools`` are the union over its card's printings.
    """
    problems: list[Problem] = []
    nodes = cards.select(_NODE.alias("node"), "name_en", "kind", "rush", "source")
    # a link by English name names a card of its source's own game
    by_name = nodes.filter(pl.col("node") >= 0).group_by("name_en", "rush").agg(
        pl.col("node").min().alias("named"))
    source_game = nodes.select(pl.col("node").alias("source"), pl.col("rush").alias("game"),
                               pl.col("source").alias("file"))
    by_text = (
        links.filter(pl.col("target").is_null())
        .join(source_game, on="source", how="left")
        .join(by_name.rename({"name_en": "target_name", "rush": "game"}),
              on=["target_name", "game"], how="left")
    )
    for row in by_text.filter(pl.col("named").is_null()).iter_rows(named=True):
        problems.append(Problem(str(row["file"]), None, None,
                                f"passcode {row['source']} is always treated as "
                                f"{row['target_name']!r}, which the card data does not hold; "
                                "it counts as its own name", code="UNKNOWN_TREATED_AS"))
    named = by_text.filter(pl.col("named").is_not_null()).with_columns(
        pl.col("named").alias("target")).select(list(LINK_SCHEMA))
    edges = pl.concat([links.filter(pl.col("target").is_not_null()), named])
    ends = nodes.select("node", "name_en", "kind", "rush")
    edges = (
        edges.join(ends.rename(lambda c: f"{c}_a").rename({"node_a": "source"}), on="source",
                   how="left")
        .join(ends.rename(lambda c: f"{c}_b").rename({"node_b": "target"}), on="target",
              how="left")
        .filter(pl.col("rush_b").is_null() | (pl.col("rush_a") == pl.col("rush_b")))
    )
    same_card = (pl.col("link") == "card") | (
        (pl.col("link") == "alias")
        & (((pl.col("source") - pl.col("target")).abs() <= ALIAS_SAME_CARD)
           | (pl.col("name_en_a").str.replace(VERSION_SUFFIX, "") == pl.col("name_en_b"))))
    card_edges = edges.filter(same_card)
    reprints = (
        nodes.filter((pl.col("node") >= 0) & pl.col("name_en").is_not_null())
        .group_by("name_en", "kind", "rush")
        .agg(pl.col("node").min().alias("target"), pl.col("node").alias("source"))
        .explode("source").filter(pl.col("source") != pl.col("target"))
    )
    card_a = pl.concat([card_edges["source"], reprints["source"]])
    card_b = pl.concat([card_edges["target"], reprints["target"]])
    real = nodes.select("node", pl.lit(True).alias("real"))
    all_nodes = pl.concat([
        real, edges.select(pl.col("target").alias("node"), pl.lit(False).alias("real"))
    ]).group_by("node", maintain_order=True).agg(pl.col("real").any())
    rank = all_nodes.select(_rank(pl.col("node"), pl.col("real"))).to_series()
    card_of = components(all_nodes["node"], card_a, card_b, rank)
    # a name is named after the card the others are treated as, not after one of them
    treated = edges.filter(~same_card)["source"].implode()
    name_rank = all_nodes.select(
        _rank(pl.col("node"), pl.col("real"))
        + pl.when(pl.col("node").is_in(treated)).then(2**38).otherwise(0)).to_series()
    name_of = components(all_nodes["node"], pl.concat([card_a, edges["source"]]),
                         pl.concat([card_b, edges["target"]]), name_rank)
    ids = all_nodes.select("node").with_columns(card_of.alias("card_id_new"),
                                                name_of.alias("name_root"))
    # a name is represented by its root's card
    roots = ids.select(pl.col("node").alias("name_root"), pl.col("card_id_new").alias("name_id"))
    ids = ids.join(roots, on="name_root", how="left").drop("name_root")
    out = (
        cards.with_columns(_NODE.alias("node")).drop("card_id", "name_id")
        .join(ids, on="node", how="left", maintain_order="left")
        .rename({"card_id_new": "card_id"})
    )
    pools = out.group_by("card_id").agg(
        merged_list("pools").alias("all_pools"))
    out = out.join(pools, on="card_id", how="left", maintain_order="left").with_columns(
        pl.col("all_pools").alias("pools"))
    return out.select(list(CARD_SCHEMA)), problems


@dataclass
class CardDB:
    """Cards (one row per printing), the links they were built from, and the legality their
    sources state."""

    printings: pl.DataFrame  # one row per printing (passcode): the card data
    legality: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=LEGALITY_SCHEMA))
    sources: list[dict[str, object]] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    links: pl.DataFrame = field(default_factory=empty_links)
    #: the files the data was read from, as a fingerprint (their sizes and modification
    #: times): the same fingerprint, the same data; empty for card data made in memory
    stored_as: str = ""

    @cached_property
    def names(self) -> pl.DataFrame:
        """Long table of (card_id, lang, name, key) over every language, one row per name."""
        long = (
            self.printings.select("card_id", *[f"name_{lang}" for lang in NAME_LANGS])
            .unpivot(index="card_id", variable_name="lang", value_name="name")
            .drop_nulls("name")
            .filter(pl.col("name") != "")
            .with_columns(pl.col("lang").str.strip_prefix("name_"))
            .unique(["card_id", "lang", "name"], maintain_order=True)
        )
        other = (
            self.printings.select("card_id", pl.col("other_names").alias("name"))
            .explode("name").drop_nulls("name")
            .select("card_id", pl.lit("en").alias("lang"), "name")
        )
        long = pl.concat([long, other]).unique(["card_id", "lang", "name"], maintain_order=True)
        # Rush cards are printed without the "(Rush)" that databases add to tell them apart
        plain = long.filter(pl.col("name").str.ends_with(" (Rush)")).with_columns(
            pl.col("name").str.strip_suffix(" (Rush)"))
        return pl.concat([long, plain]).with_columns(name_key_expr(pl.col("name")).alias("key"))

    @cached_property
    def by_card(self) -> pl.DataFrame:
        """One row per card: the first printing's attributes (the rows found on the two
        key columns, then gathered once: sorting every column costs twice as much)."""
        first = self.printings.select(
            pl.int_range(pl.len(), dtype=pl.UInt32).alias("at"), "passcode", "card_id",
        ).sort("passcode", nulls_last=True).unique("card_id", keep="first", maintain_order=True)
        return self.printings[first["at"]]

    @property
    def data_date(self) -> str | None:
        """The data's date: the newest date inside any source (YGOJSON's legality history),
        else, when no source carries a date of its own, the newest file date."""
        inner = [str(s["data_date"]) for s in self.sources if s.get("data_date")]
        files = [str(s["snapshot"]) for s in self.sources if s.get("snapshot")]
        return max(inner or files, default=None)

    def without_release(self) -> dict[str, int]:
        """Per region (tcg and ocg for OCG/TCG cards, rush for Rush cards): how many cards
        with a passcode no source says anything about their release in it (no release
        region at all, and not called unreleased there)."""
        cards = self.by_card.filter(pl.col("passcode").is_not_null()
                                    & (pl.col("pools").list.len().fill_null(0) == 0)
                                    & pl.col("kind").cast(pl.Utf8).is_in(
                                        ["monster", "spell", "trap"]))
        said = self.legality.filter(pl.col("status") == "unreleased").join(
            self.printings.select("passcode", "card_id"), on="passcode")
        out = {}
        for region, rush in (("tcg", False), ("ocg", False), ("rush", True)):
            stated = said.filter(pl.col("region") == region)["card_id"].implode()
            out[region] = cards.filter((pl.col("rush") == rush)
                                       & ~pl.col("card_id").is_in(stated)).height
        return out

    def card_count(self) -> int:
        return self.printings["card_id"].n_unique()

    def name_count(self) -> int:
        return self.printings["name_id"].n_unique()
