"""Pairing decks with players: by id as typed, else by the player's name."""

from __future__ import annotations

import polars as pl
import pytest

from validator.inputs.ids import find_player, pair_decks


def test_names_pair_whatever_their_script_and_punctuation() -> None:
    players = pl.DataFrame({"player_id": ["0400000001", "0400000002", "0400000003"],
                            "player_name": ["สุรเชษฐ์ ใจดี", "Jordan Lee", "สุรเชษฐ ใจดี"]})
    pairs, missing = pair_decks(["สุรเชษฐ์ใจดี", "jordan-lee", "401"], players)
    # the Thai names differ by one combining mark: each is its own player
    assert pairs == {"สุรเชษฐ์ใจดี": "0400000001", "jordan-lee": "0400000002"}
    assert list(missing) == ["401"]


PLAYERS = pl.DataFrame({"player_id": ["0400025058", "0400011111", "0400099999"],
                        "player_name": ["Ana Lima", "Ben Ito", "Cy Park"]})


@pytest.mark.parametrize(("typed", "found"), [
    ("0400025058", "0400025058"), ("0400-025-058", "0400025058"), ("400025058", "0400025058"),
    ("ben ito", "0400011111")])
def test_a_player_is_found_by_id_as_typed_or_by_name(typed: str, found: str) -> None:
    assert find_player(typed, PLAYERS) == (found, [])


def test_an_unknown_id_gets_the_closest_players_first() -> None:
    found, closest = find_player("0400025085", PLAYERS)  # two digits swapped
    assert found is None
    assert closest[0] == ("0400025058", "Ana Lima")
    assert len(closest) == 3
