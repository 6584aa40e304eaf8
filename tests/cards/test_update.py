"""``data update`` against a loopback HTTP server serving the real data."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import shared_path
from tests.datafiles import refused_fields
from validator.cards import store
from validator.cards.update import sources, update
from validator.errors import InputError


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "mirror"
    root.mkdir()
    with zipfile.ZipFile(root / "ygojson.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(shared_path("ygojson", "cards.json"), "aggregate/cards.json")
    shutil.copy(shared_path("cdb", "cards-rush.cdb"), root / "cards-rush.cdb")
    for source in sources():
        if source.kind == "list":
            shutil.copy(shared_path("lflist", source.file), root / source.file)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_update_downloads_and_imports(mirror: str, tmp_path: Path) -> None:
    seen: list[str] = []
    db = update(tmp_path / "data", mirror, progress=lambda name, done, total: seen.append(name))
    assert [s["cards"] for s in db.sources] == [14370, 3478]
    assert {"ygojson.zip", "cards-rush.cdb", "0TCG.lflist.conf"} <= set(seen)
    assert (tmp_path / "data" / "lists" / "0TCG.lflist.conf").exists()
    assert not list((tmp_path / "data").rglob("*.part"))
    loaded = store.load_store(tmp_path / "data")
    assert loaded is not None
    assert loaded.printings.height == db.printings.height


def test_missing_file_on_server_is_a_clear_error(mirror: str, tmp_path: Path) -> None:
    (tmp_path / "mirror" / "OCG.lflist.conf").unlink()
    with pytest.raises(InputError) as info:
        update(tmp_path / "data", mirror, only=["ocg"])
    assert info.value.codes == ["DOWNLOAD_FAILED"]


def test_offline_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        update(tmp_path / "data", "http://127.0.0.1:9", only=["tcg"], timeout=2)
    assert info.value.codes == ["DOWNLOAD_FAILED"]
    assert not list((tmp_path / "data").rglob("*.part"))


def test_unknown_source_name(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        update(tmp_path / "data", "http://127.0.0.1:9", only=["nope"])
    assert info.value.codes == ["UNKNOWN_SOURCE"]


def test_downloaded_public_list_becomes_the_default(mirror: str, tmp_path: Path) -> None:
    from validator.cards.formats import load_format
    from validator.cards.load import load_banlist
    from validator.cards.store import demo_cards

    folder = tmp_path / "data"
    db = update(folder, mirror, only=["rush", "tcg"])
    fmt = load_format("advanced-tcg")
    assert load_banlist(None, None, fmt, db, folder).name == "2026.05 TCG"
    # the demo pool keeps the demo list: the public list names cards it does not hold
    assert load_banlist(None, None, fmt, demo_cards(), folder).name == "Demo 2026.05 TCG"


def test_the_shipped_sources_load() -> None:
    shipped = sources()
    assert {"ygojson", "tcg", "genesys"} <= {s.name for s in shipped}
    assert all(s.url.startswith("https://") for s in shipped)


@pytest.mark.parametrize(("edit", "fields"), [
    (('kind = "cards"', 'kind = "card"'), {"source.0.kind"}),
    (('file = "ygojson.zip"', 'file = "../ygojson.zip"'), {"source.0.file"}),
    (('file = "cards-rush.cdb"', 'file = "ygojson.zip"'), {"source.1.file"}),
    (('name = "rush"', 'name = "ygojson"'), {"source.1.name"}),
    (('url = "https://github.com', 'url = "ftp://github.com'), {"source.0.url"}),
    (('name = "tcg"', 'name = "tcg"\nmirror = "x"'), {"source.2.mirror"}),
])
def test_a_malformed_sources_file_is_refused_naming_file_and_field(
        tmp_path: Path, edit: tuple[str, str], fields: set[str]) -> None:
    assert refused_fields("sources.toml", edit, sources, tmp_path) == fields
