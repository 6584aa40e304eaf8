"""The words every module shares: each tuple is its Literal, each Enum its tuple."""

from __future__ import annotations

from importlib import resources
from typing import get_args

import polars as pl
import pytest

from validator import vocab
from validator.cards.db import CardDB

WORDS = {
    "SECTIONS": ("main", "extra", "side"),
    "SLOTS": ("monster", "spell", "trap", "extra", "skill", "main_or_extra"),
    "STAGES": ("pre-event", "in-duel", "between-duels", "between-matches"),
    "LANGS": ("en", "ja", "ko", "th"),
    "REGULATIONS": ("th", "ja", "ko"),
    "STATUSES": ("legal", "illegal", "needs_decision"),
}
LITERALS = {"SECTIONS": vocab.Section, "SLOTS": vocab.Slot, "STAGES": vocab.Stage,
            "LANGS": vocab.Lang, "REGULATIONS": vocab.Regulation, "STATUSES": vocab.Status}


@pytest.mark.parametrize("name", list(WORDS))
def test_each_tuple_is_read_off_its_literal(name: str) -> None:
    assert getattr(vocab, name) == get_args(LITERALS[name]) == WORDS[name]


@pytest.mark.parametrize(("enum", "words"), [
    (vocab.SECTION_ENUM, WORDS["SECTIONS"]),
    (vocab.SLOT_ENUM, WORDS["SLOTS"]),
    (vocab.STATUS_ENUM, WORDS["STATUSES"]),
    (vocab.ON_ENUM, ("list", "deck")),
])
def test_each_enum_holds_its_words_in_order(enum: pl.Enum, words: tuple[str, ...]) -> None:
    assert tuple(enum.categories.to_list()) == words
    # an Enum sorts in the order of its words (main, extra, side), not alphabetically
    assert pl.Series(list(reversed(words)), dtype=enum).sort().to_list() == list(words)


def test_the_regulations_are_the_shipped_penalty_policies() -> None:
    policies = resources.files("validator") / "data" / "policies"
    shipped = {p.name.removesuffix(".toml") for p in policies.iterdir()
               if p.name.endswith(".toml")} - {"common"}
    assert shipped == set(vocab.REGULATIONS)


def test_card_names_are_stored_in_every_name_language(demo_db: CardDB) -> None:
    stored = [c.removeprefix("name_") for c in demo_db.printings.columns
              if c.startswith("name_") and c != "name_id"]
    assert tuple(stored) == vocab.NAME_LANGS
    assert set(vocab.LANGS) - {"th"} <= set(vocab.NAME_LANGS)  # no card is named in Thai
