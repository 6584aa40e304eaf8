"""The project's exception types.

Three different things go wrong, and each has its own type:

* the input has the wrong shape → :class:`InputError` (a user-facing message naming the
  file, the line or cell, and what was expected);
* the data breaks a rule → a *violation*, which is a row in a result table, never an
  exception;
* the code itself is wrong → :class:`ImplementationError`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["PER_FILE", "PLAYER_ROWS", "ImplementationError", "InputError", "Problem",
           "ProblemCollector", "capped"]

#: problems reported one by one per file; the rest are counted by kind
PER_FILE = 100
#: the code of a problem that counts a file's other problems
MORE = "MORE_PROBLEMS"
#: problems reported one by one over all files together
TOTAL = 1_000
#: rows of players' lists that could not be read, kept one by one per file (each is a
#: decision for the head judge)
PLAYER_ROWS = 10_000


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


def _kind(message: str) -> str:
    """A problem's kind: its message with the quoted text and numbers taken out."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "…", message)


def _summary(file: str, kinds: Counter[str], limit: int) -> Problem:
    counted = "; ".join(f"{n} × {kind}" for kind, n in kinds.most_common(5))
    return Problem(file, None, None, f"… and {sum(kinds.values())} more problems, counted by "
                                     f"kind: {counted}", code=MORE)


def capped(problems: list[Problem], limit: int = PER_FILE,
           player_rows: int = PLAYER_ROWS) -> list[Problem]:
    """The first ``limit`` problems of each file (``player_rows`` of the rows of players'
    lists, each a decision for the head judge), at most ``TOTAL`` over all files, and one line
    per file counting the rest by kind: a file of a million bad lines is one screen, not a
    million. The order of the problems kept is theirs."""
    shown: dict[tuple[str, bool], int] = {}
    rest: dict[str, Counter[str]] = {}
    kept: list[Problem] = []
    plain = 0
    for problem in problems:
        if problem.code == MORE:  # already a count of a file's other problems
            kept.append(problem)
            continue
        key = (problem.file, problem.deck_id is not None)
        fits = shown.get(key, 0) < (player_rows if key[1] else limit)
        if fits and (key[1] or plain < TOTAL):
            shown[key] = shown.get(key, 0) + 1
            plain += not key[1]
            kept.append(problem)
        else:
            rest.setdefault(problem.file, Counter())[_kind(problem.message)] += 1
    return kept + [_summary(file, kinds, limit) for file, kinds in rest.items()][:TOTAL]


@dataclass
class ProblemCollector:
    """Collects the problems of one file, then raises them together: the first ``limit``
    one by one, the rest counted by kind."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    limit: int = PER_FILE
    more: Counter[str] = field(default_factory=Counter)

    def add(self, message: str, line: int | None = None, column: str | None = None) -> None:
        if len(self.problems) < self.limit:
            self.problems.append(Problem(self.file, line, column, message))
        else:
            self.more[_kind(message)] += 1

    def raise_if_any(self) -> None:
        if self.problems:
            extra = [_summary(self.file, self.more, self.limit)] if self.more else []
            raise InputError(self.problems + extra)


# Pydantic's errors become problems here and nowhere else: every loader of a data file (a
# format, a policy, the lexicon, ...) reports a file of the wrong shape the same way.
from pydantic import ValidationError  # noqa: E402 -- only this helper needs it

__all__ += ["from_validation"]


def from_validation(file: str, exc: ValidationError) -> InputError:
    """One problem per field pydantic refused: the file, the field's path (``column``, e.g.
    ``sections.main.words.0``) and what was expected, with the value found when it is short."""
    problems = []
    for error in exc.errors():
        message = str(error["msg"]).removeprefix("Value error, ")
        found = error.get("input")
        if isinstance(found, str | int | float | bool) and len(repr(found)) <= 80:
            message += f" (got {found!r})"
        path = ".".join(str(part) for part in error["loc"])
        problems.append(Problem(file, None, path or None, message))
    return InputError(problems)
