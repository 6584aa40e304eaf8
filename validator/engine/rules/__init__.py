"""The rule registry: one module per rule, each with stable violation codes.

Every module follows :class:`RuleModule`: it declares ``CODES``, whether its items are the
head judge's decisions rather than violations (``DECISION``), whether its verdict counts the
whole deck or list and so waits while a decision is open (``COUNTS``), whether it compares a
deck with its list card by card (``COMPARES``), the card-level
conditions it needs (``card_flags``, evaluated once per card) and ``check(ctx)``: its failing
rows and how to word them (``Found``, worded only when rows are found). A module may also
give ``could_find(fmt)``: a condition over deck-by-card rows that every row it could fail
holds (a check of a few decks does not plan the rule when no row holds it). Its docstring is the
user documentation (what it checks, the regulation it enforces, PASS and FAIL examples).
"""

from __future__ import annotations

from typing import Protocol

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules import (
    card_pool,
    card_type,
    copies,
    forbidden,
    legend,
    limit,
    list_mismatch,
    points,
    section_size,
    skill,
    unknown,
    unreadable,
    unresolved,
    wrong_section,
)
from validator.engine.rules._context import VIOLATION_SCHEMA, Context, Found
from validator.errors import ImplementationError

__all__ = ["CODES", "COMPARING_CODES", "COUNTING_CODES", "DECISION_CODES", "MODULES", "RULES",
           "VIOLATION_SCHEMA", "Context", "Found", "RuleModule", "rule_for"]


class RuleModule(Protocol):
    """A rule module: its codes (with ``CODE:`` lines in its docstring), whether they are the
    head judge's decisions or count the whole deck, its card-level flags and its check."""

    __name__: str

    @property
    def CODES(self) -> tuple[str, ...]: ...
    @property
    def DECISION(self) -> bool: ...
    @property
    def COUNTS(self) -> bool: ...
    @property
    def COMPARES(self) -> bool: ...

    def card_flags(self, fmt: Format, whitelist: bool) -> dict[str, pl.Expr]: ...

    def check(self, ctx: Context) -> list[Found]: ...


MODULES: tuple[RuleModule, ...] = (
    section_size, copies, forbidden, limit, legend, card_pool, card_type, wrong_section,
    unknown, points, skill, list_mismatch, unresolved, unreadable,
)
RULES: dict[str, RuleModule] = {code: module for module in MODULES for code in module.CODES}
CODES: tuple[str, ...] = tuple(RULES)
#: codes whose items are the head judge's decisions: no penalty is proposed for them
DECISION_CODES: frozenset[str] = frozenset(c for m in MODULES if m.DECISION for c in m.CODES)
#: codes whose verdict counts a whole deck or list: held while a decision on it is open
COUNTING_CODES: frozenset[str] = frozenset(c for m in MODULES if m.COUNTS for c in m.CODES)
#: codes that compare a deck with its list, card by card: held while either side has an
#: open decision, and fixed by matching the list card by card
COMPARING_CODES: frozenset[str] = frozenset(c for m in MODULES if m.COMPARES for c in m.CODES)


def rule_for(code: str) -> RuleModule:
    try:
        return RULES[code]
    except KeyError:
        raise ImplementationError(f"no rule has code {code!r}") from None
