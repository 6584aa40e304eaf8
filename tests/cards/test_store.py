from __future__ import annotations

from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from tests.conftest import shared_path
from validator.cards import store
from validator.errors import InputError

DEMO_CARDS = Path(__file__).resolve().parents[2] / "validator" / "data" / "demo_cards.csv"


def test_import_then_load_round_trips(tmp_path: Path) -> None:
    db = store.import_into_store([shared_path("cdb", "cards-rush.cdb")], tmp_path)
    loaded = store.load_store(tmp_path)
    assert db is not None
    assert loaded is not None
    assert_frame_equal(loaded.printings, db.printings)
    assert loaded.sources[0]["cards"] == 3478
    assert "snapshot" in loaded.sources[0]


def test_no_store_means_demo_pool(tmp_path: Path) -> None:
    db = store.load_cards(None, tmp_path)
    assert db.sources[0]["source"] == store.DEMO
    with pytest.raises(InputError) as info:
        store.load_cards("store", tmp_path)
    assert info.value.codes == ["NO_STORE"]


def test_named_source_is_cached(tmp_path: Path) -> None:
    source = shared_path("cdb", "cards-rush.cdb")
    first = store.load_cards(str(source), tmp_path)
    assert list((tmp_path / "cache").iterdir())
    second = store.load_cards(str(source), tmp_path)
    assert_frame_equal(first.printings, second.printings)


def test_damaged_store_is_reported(tmp_path: Path) -> None:
    (tmp_path / "cards.parquet").write_bytes(b"not parquet")
    with pytest.raises(InputError) as info:  # cards without a manifest: an older store
        store.load_store(tmp_path)
    assert info.value.codes == ["STORE_VERSION"]
    (tmp_path / store.MANIFEST).write_text("{not json")
    with pytest.raises(InputError) as info:
        store.load_store(tmp_path)
    assert info.value.codes == ["STORE_DAMAGED"]
    (tmp_path / store.MANIFEST).write_bytes(b'{"version": "\xff"}')  # not UTF-8
    with pytest.raises(InputError) as info:
        store.load_store(tmp_path)
    assert info.value.codes == ["STORE_DAMAGED"]


def test_card_data_whose_sources_are_not_utf8_is_reported_damaged(tmp_path: Path) -> None:
    store.import_into_store([DEMO_CARDS], tmp_path)
    (tmp_path / "sources.json").write_bytes(b'[{"source": "\xff"}]')
    with pytest.raises(InputError) as info:
        store.load_store(tmp_path)
    assert info.value.codes == ["STORE_DAMAGED"]


def test_missing_source() -> None:
    with pytest.raises(InputError) as info:
        store.load_cards("/nonexistent/cards.json")
    assert info.value.codes == ["FILE_MISSING"]


def test_a_store_written_before_effective_dates_reads_them_from_the_names(
        tmp_path: Path) -> None:
    import json

    path = tmp_path / "TCG.lflist.conf"
    path.write_text("!2026.05 TCG\n55144522 0 --Pot of Greed\n!Store list\n")
    store.import_into_store([path], tmp_path / "s")
    manifest_file = tmp_path / "s" / store.MANIFEST
    manifest = json.loads(manifest_file.read_text())
    for entry in manifest["lists"]:
        entry["imported"] = "2026-06-02"
        for item in entry["lists"]:
            del item["effective"], item["effective_from"]
    manifest_file.write_text(json.dumps(manifest))
    assert [(s.name, s.effective, s.effective_from) for s in store.stored_lists(
        tmp_path / "s")] == [("Store list", "2026-06-02", "import day"),
                             ("2026.05 TCG", "2026-05-01", "its name")]
