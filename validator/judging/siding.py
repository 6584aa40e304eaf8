"""When a deck may differ from its registered list by side deck exchanges.

Between the duels of a match a player may exchange cards between their main or extra deck
and their side deck; the first duel of every match is played with the deck as registered,
so between matches the deck is restored to its list. Every regulation here compares "the
deck (main, extra and side together)" with the list (section 2 of the Thai, Japanese and
Korean regulations): with exchanges allowed, a card may sit in another section than
registered as long as the three sections together hold what the list holds
(:mod:`validator.engine.rules.list_mismatch` compares that way).

This is the one place that decides it, and the stage a duel number implies when none is
given (:func:`stage_of`): ``deckcheck check --duel``, ``deckcheck event --duel``, the event
report, the judge's check at the table and every report's "comparison" field ask here.
"""

from __future__ import annotations

from validator.vocab import Stage

__all__ = ["exchanges_allowed", "stage_of"]


def stage_of(duel: int | None, stage: Stage | None) -> Stage:
    """When a check happens: as given, else between duels for duel 2 on of a match (the
    deck as the player sided it), else before the event."""
    if stage is not None:
        return stage
    return "between-duels" if duel is not None and duel > 1 else "pre-event"


def exchanges_allowed(duel: int | None, stage: Stage) -> bool:
    """Whether side deck exchanges are allowed: from duel 2 of a match on, while the match
    is on (not between matches, when the deck is restored for the next match's duel 1)."""
    return duel is not None and duel > 1 and stage != "between-matches"
