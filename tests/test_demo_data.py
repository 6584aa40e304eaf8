"""The demo card pool and demo lists we ship, checked against the real data."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import NotRequired, TypedDict

import polars as pl

from tests.conftest import shared_path
from validator.cards.banlist import read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import banlists_dir

_EXTRA = {"fusion", "synchro", "xyz", "link"}


class _YgojsonText(TypedDict):
    name: str


class _YgojsonCard(TypedDict):
    """The fields of a YGOJSON card that these tests read."""

    passwords: list[str]
    cardType: str
    text: dict[str, _YgojsonText]
    monsterCardTypes: NotRequired[list[str]]


def _real_ygojson() -> dict[int, _YgojsonCard]:
    cards: list[_YgojsonCard] = json.loads(shared_path("ygojson", "cards.json").read_text())
    out: dict[int, _YgojsonCard] = {}
    for card in cards:
        for password in card["passwords"]:
            digits = re.match(r"\d+", password)
            if digits:
                out[int(digits.group())] = card
    return out


def _leading_number(password: str) -> int:
    digits = re.match(r"\d+", password)
    assert digits, password
    return int(digits.group())


def test_every_demo_card_matches_ygojson(demo_db: CardDB) -> None:
    real = _real_ygojson()
    ocg_tcg = demo_db.printings.filter(~pl.col("rush"))
    assert ocg_tcg.height > 250
    for row in ocg_tcg.iter_rows(named=True):
        card = real[row["passcode"]]
        assert row["name_en"] == card["text"]["en"]["name"]
        assert row["kind"] == card["cardType"]
        assert row["extra"] == bool(_EXTRA & set(card.get("monsterCardTypes", [])))
        # every printing of the same YGOJSON card is one card_id
        codes = {_leading_number(p) for p in card["passwords"]}
        assert row["card_id"] == min(codes)


def test_every_demo_rush_card_matches_the_rush_database(demo_db: CardDB) -> None:
    rows = demo_db.printings.filter(pl.col("rush"))
    assert rows.height >= 100
    with sqlite3.connect(shared_path("cdb", "cards-rush.cdb")) as conn:
        real = {code: (ot, kind, name) for code, ot, kind, name in conn.execute(
            "SELECT d.id, d.ot, d.type, t.name FROM datas d JOIN texts t ON t.id = d.id")}
    for row in rows.iter_rows(named=True):
        ot, kind, name = real[row["passcode"]]
        assert row["name_en"] == name
        assert row["legend"] == bool(ot & 0x400)
        expected_kind = "spell" if kind & 2 else "trap" if kind & 4 else "monster"
        assert row["kind"] == expected_kind
        assert row["extra"] == bool(kind & (0x40 | 0x2000 | 0x800000 | 0x4000000))


DEMO_LISTS = {
    "demo-tcg.lflist.conf": "0TCG.lflist.conf",
    "demo-ocg.lflist.conf": "OCG.lflist.conf",
    "demo-rush.lflist.conf": "Rush.lflist.conf",
    "demo-speed.lflist.conf": "Speed.lflist.conf",
    "demo-goat.lflist.conf": "GOAT.lflist.conf",
    "demo-genesys.lflist.conf": "Genesys.lflist.conf",
}


def test_demo_lists_agree_with_the_real_lists(demo_db: CardDB) -> None:
    demo_codes = set(demo_db.printings["passcode"].to_list())
    for demo_name, real_name in DEMO_LISTS.items():
        demo = read_banlist(banlists_dir() / "lists" / demo_name)
        real = read_banlist(shared_path("lflist", real_name))
        assert (demo.whitelist, demo.genesys) == (real.whitelist, real.genesys)
        assert demo.entries.height > 0
        expected = real.entries.filter(pl.col("passcode").is_in(demo_codes))
        got = demo.entries.select("passcode", "limit", "points").sort("passcode")
        assert got.rows() == expected.select("passcode", "limit", "points").sort(
            "passcode").rows(), demo_name


def test_demo_lists_name_only_demo_cards(demo_db: CardDB) -> None:
    for demo_name in DEMO_LISTS:
        demo = read_banlist(banlists_dir() / "lists" / demo_name)
        assert demo.bind(demo_db).warnings == [], demo_name


def test_no_shipped_file_is_a_copy_of_real_data() -> None:
    shipped = {p.read_bytes() for p in (banlists_dir()).rglob("*") if p.is_file()}
    real = {p.read_bytes() for p in shared_path().rglob("*") if p.is_file()}
    assert not shipped & real
    assert Path(banlists_dir()).is_dir()
