from __future__ import annotations

import json
import zipfile
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from validator.cards.db import CardDB
from validator.cards.importers import import_source, ygojson
from validator.errors import InputError


def test_real_cards_json_counts(ygojson_db: CardDB) -> None:
    assert ygojson_db.sources[0]["cards"] == 14370
    kinds = ygojson_db.by_card["kind"].value_counts()
    assert kinds.filter(pl.col("kind") == "skill")["count"][0] > 100


def test_alternate_artworks_share_one_card_id(ygojson_db: CardDB) -> None:
    dark_magician = ygojson_db.printings.filter(pl.col("passcode").is_in([46986414, 36996508,
                                                                      46986421]))
    assert dark_magician.height == 3
    assert dark_magician["card_id"].unique().to_list() == [36996508]
    girl = ygojson_db.printings.filter(pl.col("name_en") == "Dark Magician Girl")
    assert set(girl["card_id"]).isdisjoint(set(dark_magician["card_id"]))


def test_extra_deck_flag_and_languages(ygojson_db: CardDB) -> None:
    row = ygojson_db.printings.filter(pl.col("passcode") == 86066372).row(0, named=True)
    assert row["name_en"] == "Accesscode Talker"
    assert row["extra"] is True
    assert "link" in row["subtypes"]
    ash = ygojson_db.printings.filter(pl.col("passcode") == 14558127).row(0, named=True)
    assert (ash["extra"], ash["name_ja"], ash["name_ko"]) == (False, "灰流うらら", "하루 우라라")


def test_malformed_password_is_read_by_its_leading_digits(ygojson_db: CardDB) -> None:
    # one YGOJSON card lists "39399168<!-- ... -->" beside "39399168"
    chakra = ygojson_db.printings.filter(pl.col("name_en") == "Resurrection of Chakra")
    assert chakra["passcode"].to_list() == [39399168]


def _subset(path: Path) -> list[dict[str, object]]:
    cards = json.loads(path.read_text())
    return [c for c in cards if c["text"]["en"]["name"] in
            ("Dark Magician", "Pot of Greed", "Accesscode Talker", "Tribal Synergy")]


def test_folder_zip_and_aggregate_read_alike(tmp_path: Path) -> None:
    from tests.conftest import shared_path

    subset = _subset(shared_path("ygojson", "cards.json"))
    aggregate = tmp_path / "cards.json"
    aggregate.write_text(json.dumps(subset))
    folder = tmp_path / "cards"
    folder.mkdir()
    for card in subset:
        (folder / f"{card['id']}.json").write_text(json.dumps(card))
    archive = tmp_path / "release.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for card in subset:
            zf.writestr(f"cards/{card['id']}.json", json.dumps(card))
    frames = [import_source(p).printings.drop("source").sort("passcode", "card_id")
              for p in (aggregate, folder, archive)]
    assert frames[0].height == 6  # 3 Dark Magician printings, Pot, Accesscode, 1 skill
    assert_frame_equal(frames[0], frames[1])
    assert_frame_equal(frames[0], frames[2])


def test_truncated_json_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "cards.json"
    bad.write_text('[\n{"cardType": "monster",\n "text": {"en": {"name": "X"}')
    with pytest.raises(InputError) as info:
        ygojson.read(bad)
    assert info.value.file == str(bad)
    assert info.value.line == 3
    assert info.value.codes == ["BAD_CARD_DATA"]


def test_not_a_card_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "cards.json"
    bad.write_text('[{"cardType": "monster", "text": {}}, {"name": "nope"}]')
    with pytest.raises(InputError) as info:
        ygojson.read(bad)
    assert info.value.codes == ["BAD_CARD_DATA"]


def test_broken_zip_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "release.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(InputError) as info:
        ygojson.read(bad)
    assert info.value.codes == ["ZIP_DAMAGED"]
