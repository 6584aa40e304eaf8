"""The small event of ``tests.deckbuild`` checked and judged, for the report tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from validator.cards.load import Setup
from validator.event.run import EventResult, check_event
from validator.inputs.decks.batch import DeckFiles
from validator.inputs.registrations.read import Registrations
from validator.judging.checking import DeckCheck, check_decks
from validator.judging.penalties import Policy, load_policy
from validator.report.model import Report, judged_check, judged_event

#: the deck check of the small event in duel N (None: no duel given)
Checked = Callable[[int | None], DeckCheck]


@pytest.fixture
def th() -> Policy:
    return load_policy("th")


@pytest.fixture
def checked(setup: Setup, inputs: tuple[Registrations, DeckFiles]) -> Checked:
    def made(duel: int | None) -> DeckCheck:
        return check_decks(inputs[1], setup, registrations=inputs[0], duel=duel)
    return made


@pytest.fixture
def event(setup: Setup, inputs: tuple[Registrations, DeckFiles]) -> EventResult:
    return check_event(inputs[0], inputs[1], setup)


@pytest.fixture
def judged(checked: Checked, th: Policy) -> Report:
    """The small event's decks against their lists in duel 1, judged by th before the
    event, in English."""
    return judged_check(checked(1), th, "pre-event", "en")


@pytest.fixture
def judged_players(event: EventResult, th: Policy) -> Report:
    return judged_event(event, th, "pre-event", "en")


def deck_of(report: Report, item_id: str) -> int:
    """The number of the deck (player) of that id."""
    found = report.items.filter(report.items[report.id_column] == item_id)["deck"]
    return int(found.item())
