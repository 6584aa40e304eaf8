"""The rule registry: one module per rule, each with stable violation codes.

Every module declares ``CODES`` and ``check(ctx) -> list[LazyFrame]``; its docstring is the
user documentation (what it checks, the regulation it enforces, PASS and FAIL examples).
"""

from __future__ import annotations

from types import ModuleType

from ..errors import ImplementationError
from . import (
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
    unresolved,
    wrong_section,
)
from ._context import VIOLATION_SCHEMA, Context

__all__ = ["CODES", "MODULES", "RULES", "VIOLATION_SCHEMA", "Context", "rule_for"]

MODULES: tuple[ModuleType, ...] = (
    section_size, copies, forbidden, limit, legend, card_pool, card_type, wrong_section,
    unknown, points, skill, list_mismatch, unresolved,
)
RULES: dict[str, ModuleType] = {code: module for module in MODULES for code in module.CODES}
CODES: tuple[str, ...] = tuple(RULES)


def rule_for(code: str) -> ModuleType:
    try:
        return RULES[code]
    except KeyError:
        raise ImplementationError(f"no rule has code {code!r}") from None
