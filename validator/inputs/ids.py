"""Player ids as people and spreadsheets type them, and pairing deck files with players.

A KONAMI id (CARD GAME ID) is ten digits. People type it with spaces or dashes
("0401-999-888"); a spreadsheet stores it as a number and drops the leading zero
("401357911", or "401357911.0"), or shows it in scientific notation ("4.01235E+09"), which
has lost digits for good. Ids are read as digits only, padded back to ten digits when the
event's other ids have ten, and an id in scientific notation is reported. Ids that are not
numbers (a store's own "R1003", or a name) are kept as typed.

Deck files are named by player id; some deck builders name them after the player instead
("Jordan Lee.ydk"). A deck file pairs with a player by id, else by the player's name when
exactly one player has it; the others are reported with the closest player ids and names.
"""

from __future__ import annotations

import re
import unicodedata

import polars as pl

from validator.errors import Problem
from validator.text.lexicon import fold

__all__ = ["KONAMI_DIGITS", "LOST_DIGITS", "find_player", "normalise_ids", "pad_ids",
           "pair_decks", "player_id_of"]

KONAMI_DIGITS = 10
_SCIENTIFIC = re.compile(r"^\d+(?:[.,]\d+)?[eE][+\-]?\d+$")
_NUMBER = re.compile(r"^[\d\s\-.]+$")
_FLOAT = re.compile(r"^(\d+)\.0+$")


#: the problem of an id that lost digits, as a catalog entry (``{typed}``: the id, quoted)
LOST_DIGITS = ("player id {typed} is in scientific notation and has lost digits: type the id "
               "as text (format the cell as text, or start it with an apostrophe)")


def player_id_of(text: str) -> tuple[str, str | None]:
    """An id as typed → the id, and what went wrong when it lost digits."""
    typed = unicodedata.normalize("NFKC", text).strip()
    if _SCIENTIFIC.match(typed):
        return typed, ("is in scientific notation and has lost digits: type the id as text "
                       "(format the cell as text, or start it with an apostrophe)")
    if _FLOAT.match(typed):
        return _FLOAT.sub(r"\1", typed), None
    if _NUMBER.match(typed) and any(c.isdigit() for c in typed):
        return re.sub(r"\D", "", typed), None
    return typed, None


def pad_ids(ids: list[str]) -> dict[str, str]:
    """Short all-digit ids → the id padded to ten digits, when the other all-digit ids of the
    event have ten (and none more): the spreadsheet dropped their leading zeros."""
    numeric = [i for i in ids if i.isdigit()]
    longest = {len(i) for i in numeric if len(i) >= KONAMI_DIGITS}
    if longest != {KONAMI_DIGITS}:
        return {}
    return {i: i.zfill(KONAMI_DIGITS) for i in numeric if len(i) < KONAMI_DIGITS}


def normalise_ids(entries: pl.DataFrame, players: pl.DataFrame) -> tuple[
        pl.DataFrame, pl.DataFrame, list[Problem]]:
    """Entries and players with short ids padded (see :func:`pad_ids`)."""
    padded = pad_ids(players["player_id"].to_list())
    if not padded:
        return entries, players, []
    def fix(column: str) -> pl.Expr:
        return pl.col(column).replace(padded)
    return (entries.with_columns(fix("deck_id")), players.with_columns(fix("player_id")), [])


def pair_decks(deck_ids: list[str], players: pl.DataFrame) -> tuple[dict[str, str],
                                                                      dict[str, list[str]]]:
    """Deck ids → player ids: by id (digits as typed, padded like the players'), else by the
    player's name when exactly one player has it. Returns the pairs, and for the decks that
    pair with no player, the closest player ids/names as suggestions."""
    registered = players["player_id"].to_list()
    known = set(registered)
    padded = pad_ids(registered + [player_id_of(d)[0] for d in deck_ids])
    by_name: dict[str, list[str]] = {}
    for pid, name in players.select("player_id", "player_name").iter_rows():
        by_name.setdefault(fold(str(name or "")), []).append(pid)
    pairs: dict[str, str] = {}
    unpaired: list[str] = []
    for deck in deck_ids:
        typed = player_id_of(deck)[0]
        as_id = padded.get(typed, typed)
        named = by_name.get(fold(deck), [])
        if as_id in known:
            pairs[deck] = as_id
        elif len(named) == 1:
            pairs[deck] = named[0]
        else:
            unpaired.append(deck)
    # suggestions: the closest of the players who have no deck yet
    from rapidfuzz import fuzz, process

    taken = set(pairs.values())
    labels = [f"{pid} {name}" for pid, name in players.select("player_id", "player_name")
              .iter_rows() if pid not in taken]
    missing = {deck: [label for label, _, _ in process.extract(
        deck, labels, scorer=fuzz.WRatio, limit=3)] for deck in unpaired}
    return pairs, missing


def find_player(typed: str, players: pl.DataFrame, limit: int = 5) -> tuple[
        str | None, list[tuple[str, str]]]:
    """The player a judge typed (an id as people type it: ``0400-025-058``, or a name only
    one player has), else None and the closest players as ``(id, name)``, closest first."""
    registered = players["player_id"].to_list()
    known = set(registered)
    if typed in known:  # as the players' table has it: no padding to work out
        return typed, []
    digits = player_id_of(typed)[0]
    as_id = pad_ids([*registered, digits]).get(digits, digits)
    if as_id in known:
        return as_id, []
    named = [pid for pid, name in players.select("player_id", "player_name").iter_rows()
             if fold(str(name or "")) == fold(typed)]
    if len(named) == 1:
        return named[0], []
    from rapidfuzz import fuzz, process

    rows = list(players.select("player_id", "player_name").iter_rows())
    labels = [f"{pid} {name}" for pid, name in rows]
    # an id typed with two digits swapped is close by its digits, a name by its words
    found = process.extract(typed, labels, scorer=fuzz.WRatio, limit=limit)
    return None, [(str(rows[i][0]), str(rows[i][1] or "")) for _, _, i in found]
