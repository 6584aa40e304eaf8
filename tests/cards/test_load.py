"""What every check loads: format, card data, and the Forbidden/Limited list chosen for them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from validator.cards.db import CardDB
from validator.cards.formats import banlists_dir, format_names, load_format
from validator.cards.load import Setup, is_demo, load, load_banlist, load_pool
from validator.cards.store import data_dir, demo_cards, import_into_store, stored_lists
from validator.errors import InputError

#: the demo list each shipped format checks the demo cards against
DEMO_LISTS = {
    "advanced-ocg": "Demo 2026.07 OCG", "advanced-tcg": "Demo 2026.05 TCG",
    "genesys": "Demo 2026.06.08 Genesys", "goat": "Demo 2005.4 GOAT",
    "rush": "Demo 2026.07.01 Rush Duel", "speed": "Demo 2025.07 Speed Duel",
    "traditional": "Demo 2026.05 TCG",
}
TCG = load_format("advanced-tcg")


@pytest.fixture
def real(demo_db: CardDB) -> CardDB:
    """The demo cards as if imported from a card source: not the demo pool."""
    return CardDB(demo_db.printings, sources=[{"source": "cards.csv", "kind": "csv"}])


def _lists(folder: Path, name: str, *lists: str) -> Path:
    """A list file of ``!name`` lists (each forbidding one card of the demo pool)."""
    path = folder / name
    path.write_text("".join(f"!{n}\n55144522 {i} --Pot of Greed\n" for i, n in enumerate(lists)))
    return path


def test_is_demo(demo_db: CardDB, real: CardDB) -> None:
    assert (is_demo(demo_db), is_demo(real)) == (True, False)


def test_every_shipped_format_checks_the_demo_cards_against_its_demo_list() -> None:
    assert sorted(DEMO_LISTS) == format_names()
    for name, listed in DEMO_LISTS.items():
        setup = load(name, "demo")
        assert (setup.fmt.name, setup.banlist.name) == (name, listed)
        assert is_demo(setup.cards)


def test_given_objects_are_used_as_they_are(demo_db: CardDB) -> None:
    setup = load(TCG, demo_db)
    assert isinstance(setup, Setup)
    assert setup.fmt is TCG
    assert setup.cards is demo_db
    assert load_pool(TCG, demo_db) == (demo_db, TCG)


def test_without_a_store_the_cards_are_the_demo_pool(tmp_path: Path) -> None:
    setup = load("advanced-tcg", folder=tmp_path)
    assert is_demo(setup.cards)
    assert setup.banlist.name == "Demo 2026.05 TCG"
    cards, fmt = load_pool("rush", folder=tmp_path)
    assert (is_demo(cards), fmt.name) == (True, "rush")


def test_a_list_file_and_a_list_of_it_by_name(tmp_path: Path, real: CardDB) -> None:
    path = _lists(tmp_path, "my.lflist.conf", "2026.01 TCG", "2026.05 TCG")
    assert load_banlist(str(path), None, TCG, real).name == "2026.01 TCG"
    chosen = load_banlist(str(path), "2026.05 TCG", TCG, real)
    assert chosen.name == "2026.05 TCG"
    assert chosen.entries.select("passcode", "limit").rows() == [(55144522, 1)]


def test_real_cards_without_a_stored_list_need_one(tmp_path: Path, real: CardDB) -> None:
    with pytest.raises(InputError) as raised:
        load_banlist(None, None, TCG, real, tmp_path)
    assert raised.value.file == str(data_dir(tmp_path))
    assert "0TCG.lflist.conf" in raised.value.problems[0].message  # what to import


def test_the_newest_stored_list_of_the_format_is_the_default(tmp_path: Path,
                                                             real: CardDB) -> None:
    store = tmp_path / "store"
    import_into_store([_lists(tmp_path, "old.lflist.conf", "2026.01 TCG"),
                       _lists(tmp_path, "new.lflist.conf", "2026.05 TCG", "2026.07 OCG"),
                       _lists(tmp_path, "rush.lflist.conf", "2026.09 Rush Duel")], store)
    assert load_banlist(None, None, TCG, real, store).name == "2026.05 TCG"
    assert load_banlist(None, None, load_format("advanced-ocg"), real, store).name == \
        "2026.07 OCG"
    # a stored list by its own name, or the newest list of a stored file by the file's name
    assert load_banlist("2026.01 TCG", None, TCG, real, store).name == "2026.01 TCG"
    assert load_banlist("new.lflist.conf", None, TCG, real, store).name == "2026.07 OCG"
    # the demo cards keep their demo list
    assert load("advanced-tcg", demo_cards(), folder=store).banlist.name == "Demo 2026.05 TCG"
    assert load("advanced-tcg", folder=store).banlist.name == "Demo 2026.05 TCG"  # no cards


def test_a_demo_list_cannot_check_real_cards(demo_db: CardDB, real: CardDB) -> None:
    demo_list = str(banlists_dir() / "lists" / "demo-tcg.lflist.conf")
    assert load_banlist(demo_list, None, TCG, demo_db).name == "Demo 2026.05 TCG"
    with pytest.raises(InputError) as raised:
        load_banlist(demo_list, None, TCG, real)
    assert raised.value.file == demo_list


def test_a_list_that_is_nowhere_is_an_input_error(tmp_path: Path, real: CardDB) -> None:
    with pytest.raises(InputError) as raised:
        load_banlist("2030.01 TCG", None, TCG, real, tmp_path)
    assert raised.value.file == "2030.01 TCG"


def test_the_list_a_ygojson_source_states(ygojson_db: CardDB) -> None:
    fmt = TCG._replace(default_list="ygojson:tcg")
    for banlist in (load_banlist("ygojson:tcg", None, TCG, ygojson_db),
                    load_banlist(None, None, fmt, ygojson_db)):  # the format's default
        assert banlist.name == "ygojson:tcg"
        listed = dict(banlist.entries.filter(pl.col("passcode").is_in([55144522, 12580477]))
                      .select("passcode", "limit").iter_rows())
        assert listed == {55144522: 0, 12580477: 3}  # Pot of Greed Forbidden, Raigeki free
    with pytest.raises(InputError) as raised:
        load_banlist("ygojson:tcg", None, TCG, demo_cards())
    assert raised.value.file == "ygojson:tcg"


def test_the_stored_list_in_force_on_the_date(tmp_path: Path, real: CardDB) -> None:
    path = _lists(tmp_path, "TCG.lflist.conf", "2026.01 TCG", "2026.05 TCG")
    import_into_store([path], tmp_path / "store")
    folder = tmp_path / "store"
    chosen = [load_banlist(None, None, TCG, real, folder, day)
              for day in ("2026-01-01", "2026-04-30", "2026-05-01")]
    assert [(b.name, b.effective, b.effective_from, b.reason) for b in chosen] == [
        ("2026.01 TCG", "2026-01-01", "its name", "in force on 2026-01-01"),
        ("2026.01 TCG", "2026-01-01", "its name", "in force on 2026-04-30"),
        ("2026.05 TCG", "2026-05-01", "its name", "in force on 2026-05-01")]
    # on the day before the first list there is no list in force
    with pytest.raises(InputError) as raised:
        load_banlist(None, None, TCG, real, folder, "2025-12-31")
    assert raised.value.codes == ["NO_LIST_IN_FORCE"]
    # a list given by name or as a file wins over the date
    named = load_banlist("2026.05 TCG", None, TCG, real, folder, "2026-01-15")
    assert (named.name, named.reason) == ("2026.05 TCG", "given by name")
    given = load_banlist(str(path), "2026.05 TCG", TCG, real, folder, "2026-01-15")
    assert (given.name, given.effective, given.reason) == (
        "2026.05 TCG", "2026-05-01", "given as a file")


def test_effective_dates_given_at_import(tmp_path: Path, real: CardDB) -> None:
    path = _lists(tmp_path, "TCG.lflist.conf", "2026.01 TCG", "2026.05 TCG", "Store list")
    folder = tmp_path / "store"
    import_into_store([path], folder, {"2026.05 TCG": "2026-05-10"})
    stored = {s.name: (s.effective, s.effective_from) for s in stored_lists(folder)}
    today = dt.date.today().isoformat()
    assert stored == {"2026.01 TCG": ("2026-01-01", "its name"),
                      "2026.05 TCG": ("2026-05-10", "import"),
                      "Store list": (today, "import day")}
    assert load_banlist(None, None, TCG, real, folder, "2026-05-09").name == "2026.01 TCG"
    assert load_banlist(None, None, TCG, real, folder, "2026-05-10").name == "2026.05 TCG"
    import_into_store([path], folder, {"": "2026-02-01"})  # one date for every list
    assert {s.effective for s in stored_lists(folder)} == {"2026-02-01"}
    with pytest.raises(InputError) as raised:
        import_into_store([path], folder, {"2027.01 TCG": "2027-01-01"})
    assert raised.value.codes == ["NO_LIST"]
