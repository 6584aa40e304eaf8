"""Pairing decks with players: by id as typed, else by the player's name."""

from __future__ import annotations

import polars as pl

from validator.inputs.ids import pair_decks


def test_names_pair_whatever_their_script_and_punctuation() -> None:
    players = pl.DataFrame({"player_id": ["0400000001", "0400000002", "0400000003"],
                            "player_name": ["สุรเชษฐ์ ใจดี", "Jordan Lee", "สุรเชษฐ ใจดี"]})
    pairs, missing = pair_decks(["สุรเชษฐ์ใจดี", "jordan-lee", "401"], players)
    # the Thai names differ by one combining mark: each is its own player
    assert pairs == {"สุรเชษฐ์ใจดี": "0400000001", "jordan-lee": "0400000002"}
    assert list(missing) == ["401"]
