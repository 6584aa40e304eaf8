"""The project's exception types.

Three different things go wrong, and each has its own type:

* the input has the wrong shape → :class:`InputError` (a user-facing message naming the
  file, the line or cell, and what was expected);
* the data breaks a rule → a *violation*, which is a row in a result table, never an
  exception;
* the code itself is wrong → :class:`ImplementationError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ImplementationError", "InputError", "Problem", "ProblemCollector"]


@dataclass(frozen=True, order=True)
class Problem:
    """One problem found in one input file, located as precisely as the format allows."""

    file: str
    line: int | None = None
    column: str | None = None
    message: str = ""
    code: str = "BAD_INPUT"
    #: the player (deck) a row belongs to, and its section, when the row could hold a card:
    #: such a row is a decision for the head judge (UNREADABLE_ROW), not only a problem
    deck_id: str | None = None
    section: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.column:
            where += f" ({self.column})"
        return f"{where}: {self.message}"


class InputError(Exception):
    """Input of the wrong shape; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(
        cls, file: str, message: str, line: int | None = None, column: str | None = None
    ) -> InputError:
        return cls(Problem(file=file, line=line, column=column, message=message))

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def line(self) -> int | None:
        return self.problems[0].line


class ImplementationError(Exception):
    """The code is wrong (a broken invariant), not the input."""


@dataclass
class ProblemCollector:
    """Collects every problem of one file, then raises them together."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, message: str, line: int | None = None, column: str | None = None) -> None:
        self.problems.append(Problem(self.file, line, column, message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)
