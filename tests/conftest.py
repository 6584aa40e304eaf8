"""Shared fixtures: the real data in ../shared/data (skipped when absent, failed on CI)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pytest
from fastapi.testclient import TestClient
from hypothesis import settings

from tests.deckbuild import small_event
from tests.web.helpers import client_for, upload_sample
from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.importers import cdb, ygojson
from validator.cards.load import Setup, load
from validator.cards.store import demo_cards, merge
from validator.engine.check import CheckResult, check
from validator.inputs.decks.batch import DeckFiles, read_deck_uploads
from validator.inputs.registrations.read import Registrations, read_registration_files

# Property tests are bounded by their example counts, never by a per-example time: a busy
# machine must not turn a slow example into a failure.
settings.register_profile("deckcheck", deadline=None)
settings.load_profile("deckcheck")

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

#: the ``run`` fixture: decks (entry frames) in, a check result out
Run = Callable[..., CheckResult]


def shared_path(*parts: str) -> Path:
    """A file under ../shared/data; skips the test when absent, fails it when CI=true."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing on CI: the real data must be beside the checkout")
        pytest.skip(f"{path} is absent (real data beside the checkout)")
    return path


@pytest.fixture(scope="session")
def ygojson_db() -> CardDB:
    return ygojson.read(shared_path("ygojson", "cards.json"))


@pytest.fixture(scope="session")
def rush_db() -> CardDB:
    return cdb.read(shared_path("cdb", "cards-rush.cdb"))


@pytest.fixture(scope="session")
def real_db(ygojson_db: CardDB, rush_db: CardDB) -> CardDB:
    """All the real card data together: YGOJSON, EDOPro's delta cdb and the Rush cdb."""
    return merge([ygojson_db, cdb.read(shared_path("cdb", "cards.delta.cdb")), rush_db])


@pytest.fixture(scope="session")
def goat_db(ygojson_db: CardDB) -> CardDB:
    """YGOJSON with EDOPro's GOAT entries (pre-errata versions, aliases of the modern cards)."""
    return merge([ygojson_db, cdb.read(shared_path("cdb", "goat-entries.cdb"))])


@pytest.fixture(scope="session")
def tcg_list() -> Banlist:
    return read_banlist(shared_path("lflist", "0TCG.lflist.conf"))


@pytest.fixture(scope="session")
def demo_db() -> CardDB:
    return demo_cards()


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's real card store."""
    monkeypatch.setenv("DECKCHECK_DATA", str(tmp_path_factory.mktemp("store")))


@pytest.fixture
def run(demo_db: CardDB) -> Run:
    def _run(*decks: pl.DataFrame, fmt: str = "advanced-tcg", banlist: Banlist | None = None,
             registered: pl.DataFrame | None = None, cards: CardDB | None = None) -> CheckResult:
        db = cards or demo_db
        setup = load(fmt, db) if banlist is None else Setup(load_format(fmt), db, banlist)
        return check(pl.concat(decks), cards=setup.cards, fmt=setup.fmt,
                     banlist=setup.banlist, registered=registered)
    return _run


# -- the sample event and the small demo event, shared by the stages' tests

@pytest.fixture
def setup(demo_db: CardDB) -> Setup:
    return load("advanced-tcg", demo_db)


@pytest.fixture
def inputs(demo_db: CardDB) -> tuple[Registrations, DeckFiles]:
    lists, decks = small_event(demo_db)
    return read_registration_files([Path("lists.csv")], [lists]), read_deck_uploads(decks)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The sample event uploaded, shared by a module's tests: a test that uses it changes
    nothing the module's other tests read."""
    with pytest.MonkeyPatch.context() as patch:  # no real card store, as in every test
        patch.setenv("DECKCHECK_DATA", str(tmp_path_factory.mktemp("store")))
        with client_for(tmp_path_factory.mktemp("event") / "event.sqlite") as c:
            upload_sample(c)
            yield c
