"""The web app's event state: the setup and its card table, made once per setting."""

from __future__ import annotations

from pathlib import Path

from validator.cards.store import demo_cards
from validator.event.store import EventDB, EventSettings
from validator.web.state import EventState


def test_the_card_table_is_made_once_per_setup(tmp_path: Path) -> None:
    state = EventState(EventDB(tmp_path / "event.sqlite"), demo_cards())
    setup = state.setup()
    table = state.card_table(setup)
    assert table.is_for(setup.cards, setup.banlist, setup.fmt)
    assert state.card_table(state.setup()) is table  # the same settings: the same setup
    state.db.save_settings(EventSettings("Locals", "2026-12-05", "advanced-ocg", "ja", "ja"))
    other = state.setup()
    assert other is not setup
    changed = state.card_table(other)
    assert changed is not table
    assert changed.is_for(other.cards, other.banlist, other.fmt)
