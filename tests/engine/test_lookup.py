"""``card_facts``: what the card data knows of one card, on the list in force."""

from __future__ import annotations

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.banlist import read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import Setup, load
from validator.engine.lookup import card_facts
from validator.errors import InputError

#: the keys of one card in ``deckcheck card --json`` (a documented, stable contract)
CARD_KEYS = {"card_id", "name", "names", "other_names", "treated_as", "kind", "extra_deck",
             "rush", "passcodes", "status", "legal_in_format", "outside_pool", "release",
             "points"}


def _setup(db: CardDB, list_file: str = "TCG-2024.09.lflist.conf") -> Setup:
    banlist = read_banlist(shared_path("lflist", "history", list_file))
    banlist.reason = "given as a file"
    return Setup(load_format("advanced-tcg"), db, banlist)


def test_a_forbidden_card_on_the_list_given(real_db: CardDB) -> None:
    facts = card_facts('Maxx "C"', _setup(real_db))
    assert (facts["banlist"], facts["banlist_reason"]) == ("2024.09 TCG", "given as a file")
    [card] = facts["cards"]
    assert set(card) == CARD_KEYS
    assert card["passcodes"] == [23434538]
    assert card["status"] == {"limit": 0, "word": "Forbidden", "listed": True}
    assert card["legal_in_format"] is False
    assert "tcg" in card["release"]["regions"]


def test_a_passcode_gives_printings_and_names_in_every_language(real_db: CardDB) -> None:
    [card] = card_facts("14558127", _setup(real_db))["cards"]
    assert card["name"] == "Ash Blossom & Joyous Spring"
    assert 14558127 in card["passcodes"]
    assert card["names"]["ja"] == "灰流うらら"
    assert card["names"]["ko"] == "하루 우라라"
    assert card["kind"] == "monster"
    assert card["extra_deck"] is False


def test_a_card_treated_as_another_names_it(real_db: CardDB) -> None:
    # the reading first (the OCG/TCG card), then other cards printing the name (Rush)
    cards = card_facts("Harpie Lady 1", _setup(real_db))["cards"]
    assert (cards[0]["rush"], cards[0]["treated_as"]) == (False, "Harpie Lady")
    assert all(c["rush"] for c in cards[1:])


def test_a_name_of_several_cards_gives_all_of_them(real_db: CardDB) -> None:
    # two cards print this Korean name (a true tie of the card data)
    cards = card_facts("펭귄 용자", _setup(real_db))["cards"]
    assert len(cards) == 2
    assert len({c["card_id"] for c in cards}) == 2


def test_release_unknown_and_its_sources(ygojson_db: CardDB) -> None:
    # Mulcharmy Fuwalos: YGOJSON has no legality for it at all
    [card] = card_facts("Mulcharmy Fuwalos", _setup(ygojson_db))["cards"]
    assert card["release"]["unknown"] is True
    assert card["release"]["regions"] == []
    assert card["outside_pool"] is None
    assert any("cards.json" in s for s in card["release"]["sources"])


def test_genesys_points(real_db: CardDB) -> None:
    setup = load("genesys", real_db, "ygojson:genesys")
    [card] = card_facts('Maxx "C"', setup)["cards"]
    assert card["points"] is not None
    assert card["points"] > 0


def test_an_unknown_name_is_an_error_with_suggestions(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    with pytest.raises(InputError) as raised:
        card_facts("No Such Card Anywhere", setup)
    assert raised.value.codes == ["NO_SUCH_CARD"]


def test_the_demo_pool(demo_db: CardDB) -> None:
    facts = card_facts("Raigeki", load("advanced-tcg", demo_db))
    assert facts["banlist_reason"] == "the demo list: no card data imported"
    [card] = facts["cards"]
    assert card["card_id"] == int(demo_db.by_card.filter(
        pl.col("name_en") == "Raigeki")["card_id"][0])
