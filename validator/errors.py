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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["MORE", "PER_FILE", "PLAYER_ROWS", "PROBLEM_CODES", "SHOWN", "ImplementationError",
           "InputError", "Problem", "ProblemCollector", "capped", "from_validation", "is_failure"]

#: problems and warnings shown one by one on a screen (the terminal, a web page); the
#: reports hold them all
SHOWN = 50
#: problems reported one by one per file; the rest are counted by code
PER_FILE = 100
#: the code of a problem that counts a file's other problems
MORE = "MORE_PROBLEMS"
#: problems reported one by one over all files together
TOTAL = 1_000
#: rows of players' lists that could not be read, kept one by one per file (each is a
#: decision for the head judge)
PLAYER_ROWS = 10_000

#: a named placeholder of a catalog entry: ``{file}`` (the one form the catalogs use)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _written(msgid: str, values: dict[str, object]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A catalog entry's English sentence and its values, each written as text."""
    shown = {name: str(value) for name, value in values.items()}
    return _PLACEHOLDER.sub(lambda m: shown[m.group(1)], msgid), tuple(shown.items())


#: Every problem's code → what it means, in one line. A code is stable: reports, scripts and
#: tests rely on it, while a problem's wording may change.
PROBLEM_CODES: dict[str, str] = {
    # files and archives
    "FILE_MISSING": "no file or folder at the path given",
    "FILE_UNREADABLE": "the system could not read the file (permissions, a broken disk)",
    "FILE_TOO_LARGE": "a file larger than any file of its kind; skipped",
    "WRONG_FILE_TYPE": "a file of a type this input does not take (by its name or its "
                       "first bytes)",
    "NOT_TEXT": "bytes that are not text in any known encoding, or text with control "
                "characters",
    "NOT_UTF8": "a file that must be UTF-8 text and is not (a YDK file, YGOJSON card data)",
    "ZIP_DAMAGED": "a zip (an XLSX workbook is one) that cannot be opened, or a member of it "
                   "that cannot be unpacked",
    "ZIP_UNSAFE": "a zip that would unpack to too much: too many members, too many bytes, "
                  "or compressed beyond any real file",
    "SHEET_TOO_LARGE": "a sheet, row or cell far larger than any deck list needs",
    "BAD_CSV": "a CSV file the CSV reader cannot read",
    "BAD_WORKBOOK": "a workbook, or one of its sheets, that the XLSX reader cannot read",
    "HIDDEN_SHEET": "a hidden sheet of a workbook, not read",
    # PDF deck list forms
    "BAD_PDF": "not a PDF file, or a PDF the reader cannot read",
    "PDF_UNSAFE": "a PDF whose compressed streams unpack to far more than any form; not read",
    "PDF_ENCRYPTED": "a PDF that needs a password",
    "NOT_A_FORM": "a PDF that is not a fillable Konami deck registration form",
    # registrations
    "NO_REGISTRATIONS": "a folder or zip that holds no registration file",
    "NO_PLAYERS": "registrations from which no player could be read; the event is not checked",
    "NO_HEADER": "a sheet in no known layout: no header of player, quantity and card "
                 "columns, no Main/Extra/Side columns, no Monster/Spell/Trap blocks",
    "NO_PLAYER_COLUMN": "a header that names the cards but no player; the sheet is not read",
    "NO_PLAYER_NAMES": "player ids without a player name column: players are shown by their "
                       "id (a note; nothing is lost)",
    "NO_PLAYER": "a row that names no player",
    "PLAYER_ID": "a player id that lost digits (typed in scientific notation)",
    "BLANK_LIST": "a deck list sheet or form with no player and no cards; skipped",
    "REGISTERED_TWICE": "a player registered in two places; only the first is checked",
    "SUPERSEDED": "a forms submission replaced by the same player's later one",
    "BAD_QUANTITY": "a quantity that is not a number 1-99",
    "NO_CARD": "a row with no card name or passcode where one is needed",
    "BAD_SECTION": "a section that is not main, extra or side (or a part of the main deck)",
    "BAD_PASSCODE": "a passcode that is not a number, or larger than any card's",
    "NAME_TOO_LONG": "a card name longer than any card's",
    "LINE_TOO_LONG": "a line of a deck list far longer than any entry; not read",
    "TOTAL_MISMATCH": "a written total that is not the sum of its rows, or not a number",
    # submitted decks
    "NO_DECK_FILES": "no deck file where decks were given",
    "BAD_DECK_ID": "a deck file whose name gives no usable deck id",
    "DECK_TWICE": "a second deck for one deck id; not read",
    "BAD_YDKE": "a ydke:// link that cannot be decoded, or a pasted line that is not "
                "'PLAYER_ID ydke://...'",
    "UNMATCHED_DECK": "a submitted deck that pairs with no registered player",
    "NO_DECK": "a registered player whose deck is not checked: none submitted, or unreadable",
    # card data, lists and the data store
    "EMPTY_FILE": "a file with no rows where a header row was expected",
    "MISSING_COLUMN": "a header row that lacks a column the file needs",
    "BAD_VALUE": "a cell whose value its column does not take (a kind, yes/no, points, a "
                 "list status)",
    "PASSCODE_TWICE": "one passcode on more than one row of a card list",
    "BAD_CARD_DATA": "card data that is not what its format says (invalid JSON, not a "
                     "YGOJSON card, not an EDOPro database, an unexpected value)",
    "NO_CARDS": "card data that holds no cards",
    "UNKNOWN_TREATED_AS": "a card always treated as a name the card data does not hold; it "
                          "counts as its own name",
    "BAD_LFLIST_LINE": "a line of an lflist.conf that is not a list, directive or entry line",
    "UNKNOWN_LIST_ENTRY": "Forbidden/Limited list entries whose card the card data has "
                          "neither by passcode nor by name; kept unused (one warning per list, "
                          "counting them)",
    "LIST_ENTRY_BY_NAME": "Forbidden/Limited list entries whose passcode the card data lacks, "
                          "placed by the card name in their comment (one warning per list, "
                          "counting them)",
    "AMBIGUOUS_NAME": "a Forbidden/Limited list entry whose name names more than one card; "
                      "ignored",
    "NO_LIST": "no such Forbidden/Limited list (in the file, the data store or the card "
               "data's legality)",
    "NO_LIST_IN_FORCE": "an event date before every stored list of the format takes effect",
    "DEMO_LIST": "a demo list given to check real card data",
    "DEMO_POOL": "decks checked against the demo card pool: no card data imported",
    "CARD_DATA_MISSING": "a deck most of whose passcodes the card data does not know: the "
                         "card data may be missing or old",
    "NO_SUCH_CARD": "a card looked up (`deckcheck card`) that the card data does not hold",
    "NO_RELEASE_INFO": "cards of the decks about whose release in the format's region no "
                       "card source says anything (not a violation)",
    "NO_STORE": "no card data store in the data folder",
    "NOT_IN_STORE": "a name the data store does not hold",
    "STORE_DAMAGED": "a data store or event database that is damaged, or not one",
    "STORE_VERSION": "a data store written by another version of deckcheck",
    "UNKNOWN_SOURCE": "a card data source name the download list does not have",
    "DOWNLOAD_FAILED": "a download that failed (an HTTP error, no connection)",
    # deck codes
    "BAD_DECK_CODE": "a deck code (Omega, mycard, YGOMobile, ydke) that does not decode",
    "CANNOT_WRITE": "a deck the chosen format cannot hold (a passcode wider than its field, "
                    "more entries than it holds, a card without a passcode)",
    # the library's own inputs
    "BAD_ENTRIES": "an entry table given to the engine with a column missing or of another type",
    # formats, policies and decisions
    "UNKNOWN_FORMAT": "a format that is neither shipped nor a TOML file",
    "BAD_TOML": "a file that is not valid TOML",
    "BAD_SETTING": "a value of a data file (a format, a policy, the lexicon, ...) that its schema "
                   "does not take",
    "UNKNOWN_REGULATION": "a regulation that is neither shipped nor a policy TOML file",
    "UNKNOWN_INFRACTION": "an infraction code the regulation does not list",
    "BAD_DECISION": "a head judge's decision that lacks what it needs (who decided and why, "
                    "the card, or the qty and section of a row that could not be read)",
    "UNMATCHED_DECISION": "a head judge's decision that matches no open entry of the player",
    # the command line and the web app
    "BAD_OPTION": "a command-line option or web form field that is missing or holds a value "
                  "it does not take",
    "NOT_READY": "a web page asked for before the event has what it needs (registrations, "
                 "an uploaded policy)",
    "UNKNOWN_PLAYER": "no registered player has that id",
    # pairings
    "BAD_PAIRING": "a pairings row or line without what it needs (a round, a table number, a "
                   "player), or a pairings file without its heading row",
    "UNKNOWN_PAIRED_PLAYER": "a player the pairings name that is no registered player (the "
                             "closest players are named)",
    "AMBIGUOUS_PLAYER": "a player name in the pairings that more than one registered player "
                        "has (write the id)",
    "PAIRING_CONFLICT": "a player at two tables of one round, or a table of more than two "
                        "players",
    "UNKNOWN_CARD_NAME": "a card name a judge typed reads as no card (fix it; suggestions given)",
    "CHECK_FAILED": "the event check itself failed; the uploads are kept",
    "UPLOAD_TOO_SLOW": "an upload whose reading took longer than the server's limit per "
                       "file; it is not read (nor read again)",
    "UPLOAD_TOO_BIG_IN_MEMORY": "an upload whose reading needed more memory than the server's "
                                "limit per file; it is not read (nor read again)",
    "NOTHING_READ": "an upload from which no player's list or deck could be read; it "
                    "replaces nothing",
    # the registration page
    "LIST_CONFLICT": "a player with a list on the registration page and on an uploaded list "
                     "(the organizer chooses which one counts)",
    "LISTS_LOCKED": "a list submitted on the registration page after its deadline",
    "TOO_MANY_SUBMISSIONS": "more lists submitted for one KONAMI ID, or requests from one "
                            "address, than the server takes in its time window",
    "WRONG_PLAYER_CODE": "a receipt code or PIN that is not the player's",
    # the overflow summary
    MORE: "a count of a file's problems beyond those reported one by one, by code",
}


@dataclass(frozen=True)
class Problem:
    """One problem found in one input file, located as precisely as the format allows.

    Its ``code`` (a key of :data:`PROBLEM_CODES`) says what kind of problem it is; problems
    sort by (file, line, column, code), an unknown line or column first, never by their
    wording."""

    file: str
    line: int | None
    column: str | None
    message: str
    code: str = field(kw_only=True)
    #: the player (deck) a row belongs to, and its section, when the row could hold a card:
    #: such a row is a decision for the head judge (UNREADABLE_ROW), not only a problem
    deck_id: str | None = field(default=None, kw_only=True)
    section: str | None = field(default=None, kw_only=True)
    #: what such a row says for its card, as written ("Infinite Impermanence" beside a
    #: quantity "three"), so the head judge sees the card without opening the file
    text: str | None = field(default=None, kw_only=True)
    #: the message as a catalog entry, its English msgid and the values of its placeholders,
    #: so each report writes it in its own language (``validator.text.i18n.problem_text``)
    msgid: str | None = field(default=None, kw_only=True, compare=False)
    values: tuple[tuple[str, str], ...] = field(default=(), kw_only=True, compare=False)

    def __post_init__(self) -> None:
        if self.code not in PROBLEM_CODES:
            raise ImplementationError(f"unknown problem code {self.code!r}; add it to "
                                      "PROBLEM_CODES")

    @classmethod
    def of(cls, file: str, line: int | None, column: str | None, msgid: str, /, *,
           code: str, deck_id: str | None = None, section: str | None = None,
           text: str | None = None, **values: object) -> Problem:
        """A problem whose message is the catalog entry ``msgid`` (English, with
        ``{placeholders}``) filled with ``values``; each report writes it in its language.
        A value is written as ``str`` gives it: quote typed text with ``repr`` first."""
        message, written = _written(msgid, values)
        return cls(file, line, column, message, code=code, deck_id=deck_id, section=section,
                   text=text, msgid=msgid, values=written)

    def _key(self) -> tuple[str, bool, int, bool, str, str]:
        return (self.file, self.line is not None, self.line or 0, self.column is not None,
                self.column or "", self.code)

    def __lt__(self, other: Problem) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Problem) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Problem) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Problem) -> bool:
        return self._key() >= other._key()

    @property
    def place(self) -> str:
        """Where: ``file:line (column)``, as much of it as is known."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.column:
            where += f" ({self.column})"
        return where

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


class InputError(Exception):
    """Input of the wrong shape; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, file: str, message: str, *, code: str, line: int | None = None,
           column: str | None = None) -> InputError:
        return cls(Problem(file, line, column, message, code=code))

    @classmethod
    def of(cls, file: str, msgid: str, /, *, code: str, line: int | None = None,
           column: str | None = None, **values: object) -> InputError:
        """One problem whose message is a catalog entry (see :meth:`Problem.of`)."""
        message, written = _written(msgid, values)
        return cls(Problem(file, line, column, message, code=code, msgid=msgid, values=written))

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def line(self) -> int | None:
        return self.problems[0].line

    @property
    def codes(self) -> list[str]:
        """The problems' codes, in their order."""
        return [p.code for p in self.problems]


class ImplementationError(Exception):
    """The code is wrong (a broken invariant), not the input."""


def is_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is an error (an ``Exception``, or a panic of polars' Rust code),
    not an interrupt or the process ending. A panic (``PanicException``) is a fault of the
    code, never of the input, and a ``BaseException``, which ``except Exception`` lets
    through (and which cannot be pickled to another process)."""
    kind = type(exc)
    return isinstance(exc, Exception) or (
        kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime")


def _summary(file: str, codes: Counter[str]) -> Problem:
    counted = ", ".join(f"{n} × {code}" for code, n in sorted(
        codes.items(), key=lambda item: (-item[1], item[0])))
    return Problem.of(file, None, None, "… and {n} more problems: {counted}", code=MORE,
                      n=sum(codes.values()), counted=counted)


def capped(problems: list[Problem], limit: int = PER_FILE,
           player_rows: int = PLAYER_ROWS) -> list[Problem]:
    """The first ``limit`` problems of each file (``player_rows`` of the rows of players'
    lists, each a decision for the head judge), at most ``TOTAL`` over all files, and one line
    per file counting the rest by code: a file of a million bad lines is one screen, not a
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
            rest.setdefault(problem.file, Counter())[problem.code] += 1
    return kept + [_summary(file, codes) for file, codes in rest.items()][:TOTAL]


@dataclass
class ProblemCollector:
    """Collects the problems of one file, then raises them together: the first ``limit``
    one by one, the rest counted by code."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    limit: int = PER_FILE
    more: Counter[str] = field(default_factory=Counter)

    def add(self, message: str, line: int | None = None, column: str | None = None, *,
            code: str) -> None:
        if len(self.problems) < self.limit:
            self.problems.append(Problem(self.file, line, column, message, code=code))
        else:
            if code not in PROBLEM_CODES:
                raise ImplementationError(f"unknown problem code {code!r}")
            self.more[code] += 1

    def say(self, msgid: str, line: int | None = None, column: str | None = None, *,
            code: str, **values: object) -> None:
        """:meth:`add` a problem whose message is a catalog entry (see :meth:`Problem.of`)."""
        if len(self.problems) < self.limit:
            message, written = _written(msgid, values)
            self.problems.append(Problem(self.file, line, column, message, code=code,
                                         msgid=msgid, values=written))
        else:
            self.add("", line, column, code=code)

    def raise_if_any(self) -> None:
        if self.problems:
            extra = [_summary(self.file, self.more)] if self.more else []
            raise InputError(self.problems + extra)


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
        problems.append(Problem(file, None, path or None, message, code="BAD_SETTING"))
    return InputError(problems)
