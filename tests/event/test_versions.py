"""Which version of each player's list and deck is checked (``event.versions``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.event.versions import Choice, Submission, assemble, in_effect
from validator.inputs.decks.batch import DeckFiles, read_deck_uploads
from validator.inputs.registrations.read import Registrations, read_registration_files

HEADER = "Player ID,Player Name,Section,Qty,Card Name\n"


def _sub(upload: int, kind: str = "registrations", *, batch: int | None = None,
         state: str = "active", replace_all: bool = False) -> Submission:
    return Submission(upload, upload if batch is None else batch, kind, f"u{upload}",
                      f"hash{upload}", f"2026-12-05T09:0{upload}:00+00:00", state, replace_all)


def _lists(text: str, name: str = "lists.csv") -> Registrations:
    return read_registration_files([Path(name)], [(HEADER + text).encode()])


def _decks(**decks: str) -> DeckFiles:
    return read_deck_uploads([(f"{player}.ydk", f"#main\n{body}\n".encode())
                              for player, body in decks.items()])


def _cards(reg: Registrations | None, player: str) -> list[str]:
    assert reg is not None
    return reg.entries.filter(deck_id=player)["name"].to_list()


def test_a_newer_list_for_one_player_replaces_only_that_players() -> None:
    subs = [_sub(1), _sub(2)]
    lists = {1: _lists("P1,Ana,Main,3,Raigeki\nP2,Ben,Main,3,Pot of Greed\n"),
             2: _lists("P2,Ben,Main,3,Dark Hole\n", "fix.csv")}
    made = assemble(subs, lists, {}, [])
    assert made.registrations is not None
    assert made.registrations.players["player_id"].to_list() == ["P1", "P2"]  # first order
    assert _cards(made.registrations, "P1") == ["Raigeki"]
    assert _cards(made.registrations, "P2") == ["Dark Hole"]
    assert [(v.upload, v.current) for v in made.versions.of("P2", "list")] == [
        (2, True), (1, False)]
    assert (made.versions.outcomes[1].read, made.versions.outcomes[1].current) == (2, 1)


def test_a_restored_version_holds_until_a_newer_upload() -> None:
    lists = {1: _lists("P1,Ana,Main,3,Raigeki\n"), 2: _lists("P1,Ana,Main,3,Dark Hole\n")}
    restored = [Choice("P1", "list", 1, after=2)]
    made = assemble([_sub(1), _sub(2)], lists, {}, restored)
    assert _cards(made.registrations, "P1") == ["Raigeki"]
    assert made.versions.of("P1", "list")[1].restored
    lists[3] = _lists("P1,Ana,Main,3,Monster Reborn\n")
    newer = assemble([_sub(1), _sub(2), _sub(3)], lists, {}, restored)
    assert _cards(newer.registrations, "P1") == ["Monster Reborn"]


def test_an_upload_nothing_was_read_from_replaces_nothing() -> None:
    lists = {1: _lists("P1,Ana,Main,3,Raigeki\n"),
             2: read_registration_files([Path("bad.csv")], [b"x,y\n1,2\n"])}
    made = assemble([_sub(1), _sub(2)], lists, {}, [])
    assert _cards(made.registrations, "P1") == ["Raigeki"]
    assert made.versions.outcomes[2].failed
    assert [p.code for p in made.versions.outcomes[2].problems] == ["NO_HEADER"]
    assert made.registrations is not None
    assert not made.registrations.problems  # its problems are the failure's, not the event's


def test_the_problems_of_a_replaced_version_are_dropped() -> None:
    lists = {1: _lists("P1,Ana,Main,three,Raigeki\n"), 2: _lists("P1,Ana,Main,3,Raigeki\n")}
    assert [p.code for p in lists[1].problems] == ["BAD_QUANTITY"]
    made = assemble([_sub(1), _sub(2)], lists, {}, [])
    assert made.registrations is not None
    assert made.registrations.problems == []


def test_decks_are_versions_too() -> None:
    subs = [_sub(1), _sub(2, "decks"), _sub(3, "decks")]
    lists = {1: _lists("P1,Ana,Main,3,Raigeki\nP2,Ben,Main,3,Raigeki\n")}
    decks = {2: _decks(P1="12580477", P2="12580477"), 3: _decks(P1="53129443")}
    made = assemble(subs, lists, decks, [])
    assert made.decks is not None
    assert sorted(made.decks.ids) == ["P1", "P2"]
    assert made.decks.entries.filter(deck_id="P1")["passcode"].to_list() == [53129443]
    assert made.decks.labels == {"P1": "P1.ydk", "P2": "P2.ydk"}


@pytest.mark.parametrize(("subs", "expected"), [
    ([_sub(1), _sub(2, replace_all=True)], [2]),
    ([_sub(1), _sub(2, replace_all=True, state="removed")], [1]),
    ([_sub(1), _sub(2, replace_all=True, state="pending")], [1]),
    ([_sub(1), _sub(2, "decks", replace_all=True)], [1, 2]),  # decks set aside decks only
    ([_sub(1, batch=1, replace_all=True), _sub(2, batch=1, replace_all=True)], [1, 2]),
    ([_sub(1), _sub(2, replace_all=True), _sub(3, replace_all=True, state="removed")], [2]),
])
def test_replace_all_sets_aside_every_earlier_upload_of_its_part_while_in_effect(
        subs: list[Submission], expected: list[int]) -> None:
    assert [s.id for s in in_effect(subs)] == expected
