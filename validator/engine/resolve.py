"""Resolving entries to cards: passcodes by join, typed names as a judge reads them.

A typed name is matched against every printed name of every card, in every language, and
the candidates are ranked, most important first:

1. cards the event's format admits (its game — OCG/TCG or Rush —, and its kinds: Skills only
   where the format has Skills, Tokens nowhere) before any other card;
2. the exact string (Unicode NFC, trimmed) before the normalised key (case, width, quotes,
   ``&``/and, spacing and punctuation folded);
3. a card with a passcode before an entry without one (anime cards, video-game variants);
4. a card of the kind the entry's block names (a Spell block, a "Skill" header) first;
5. a card released in the format's card pool first;
6. a name printed in English, then Japanese, Korean, Chinese, French, German, Italian,
   Spanish, Portuguese (the same text can be one card's name in one language and another
   card's in another).

The best-ranked card is the reading. Only a true tie — two cards equal on every step, such as
two cards printing the same name in one language — is ambiguous, and then the entry names
both. A name that matches nothing gets fuzzy suggestions (rapidfuzz, all distinct names in one
batch); a suggestion is taken as the reading only when it is near-identical to one card's
name and clearly better than every other card's (``ACCEPT_SCORE``, ``ACCEPT_MARGIN``), and
the entry records that it was read fuzzily. Anything else stays unresolved, with its
suggestions — never silently another card. Work is done once per distinct name.

Entries of the main and extra deck given as one (the slot ``main_or_extra``, as an Omega
code gives them) are in the main deck; the resolver moves each Extra Deck monster among them
to the extra deck (:func:`split_main_extra`). An unknown passcode stays in the main deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

import polars as pl

from validator.cards.db import NAME_LANGS, CardDB
from validator.cards.formats import Format
from validator.inputs.entries import ENTRY_SCHEMA
from validator.text.datafile import data_file, read_model
from validator.text.normalize import name_key, name_key_expr

__all__ = ["ACCEPT_MARGIN", "ACCEPT_SCORE", "RESOLVED_SCHEMA", "Admits", "Readings",
           "keep_readings", "prepare", "prepare_codes", "readings", "resolve", "resolve_few",
           "split_main_extra"]

ACCEPT_SCORE = 90.0
ACCEPT_MARGIN = 8.0
MIN_FUZZY_LENGTH = 8
SUGGESTIONS = 3
_SHORTLIST = 20

RESOLVED_SCHEMA: dict[str, pl.DataType] = {
    "card_id": pl.Int64(),
    "status": pl.Enum(["ok", "unknown", "unresolved"]),
    "how": pl.Enum(["passcode", "name", "fuzzy"]),
    "suggestions": pl.List(pl.Utf8()),
    "ambiguous": pl.Boolean(),
}


@dataclass(frozen=True)
class Admits:
    """The cards a format admits, for ranking readings of a typed name."""

    rush: bool | None = None  # None: either game
    kinds: tuple[str, ...] = ("monster", "spell", "trap")
    pool: tuple[str, ...] = ()  # regions; empty: any

    @classmethod
    def of(cls, fmt: Format | None) -> Admits:
        if fmt is None:
            return cls(None, ("monster", "spell", "trap", "skill"), ())
        return cls(fmt.rush, tuple(fmt.allowed_kinds), tuple(fmt.card_pool))


def _card_table(cards: CardDB, admits: Admits) -> pl.DataFrame:
    """Per card: whether the format admits it, has a passcode, is released, and its slot."""
    game = pl.lit(True) if admits.rush is None else pl.col("rush") == admits.rush
    released = (pl.lit(True) if not admits.pool else
                pl.col("pools").list.set_intersection(pl.lit(list(admits.pool))).list.len() > 0)
    slot = (pl.when(pl.col("kind") == "monster")
            .then(pl.when(pl.col("extra")).then(pl.lit("extra")).otherwise(pl.lit("monster")))
            .otherwise(pl.col("kind").cast(pl.Utf8)))
    return cards.by_card.select(
        "card_id", "name_en", "passcode",
        (game & pl.col("kind").cast(pl.Utf8).is_in(list(admits.kinds))).alias("admitted"),
        pl.col("passcode").is_not_null().alias("has_code"),
        released.fill_null(False).alias("released"),
        slot.alias("card_slot"),
    )


_NAME_SCHEMA: dict[str, pl.DataType] = {
    "name": pl.Utf8(), "slot": pl.Utf8(), "name_id": pl.Int64(),
    "ambiguous": pl.List(pl.Utf8()), "fuzzy_id": pl.Int64(),
    "suggestions": pl.List(pl.Utf8())}
_LANG_ORDER = {lang: i for i, lang in enumerate(NAME_LANGS)}


def _candidates(typed: pl.DataFrame, names: pl.DataFrame) -> pl.DataFrame:
    """Every (typed name, card) pair that matches exactly or by key, with its rank."""
    exact = typed.join(names.select("exact", "card_id", "lang_rank"), on="exact").with_columns(
        pl.lit(0).alias("match"))
    keyed = typed.join(names.select("key", "card_id", "lang_rank"), on="key").with_columns(
        pl.lit(1).alias("match"))
    return pl.concat([exact, keyed], how="diagonal_relaxed")


@dataclass
class _Lookup:
    """One card data's names made ready for lookups (made once: a judge's check or a
    player's page resolves a few dozen entries against the same cards again and again),
    and per format, the fuzzy readings already made, by key."""

    source: pl.DataFrame  # the ``CardDB.names`` it was made from
    names: pl.DataFrame  # with the ``exact`` string and the language's rank
    tables: dict[Admits, pl.DataFrame] = field(default_factory=dict)
    fuzzy: dict[Admits, dict[str, tuple[int | None, list[str]]]] = field(default_factory=dict)
    # per format, the reading of each (typed name, slot): name_id, ambiguous, fuzzy_id,
    # suggestions
    readings: dict[Admits, dict[tuple[str, str | None], tuple[Any, ...]]] = field(
        default_factory=dict)


#: the lookups of the card data resolved against most recently (a server holds one)
_LOOKUPS: list[_Lookup] = []
_KEEP_LOOKUPS = 4
#: the most fuzzy readings kept per card data and format
_KEEP_FUZZY = 100_000
#: the most readings of typed names kept per card data and format
_KEEP_READINGS = 200_000


def _lookup(cards: CardDB) -> _Lookup:
    source = cards.names
    held = next((held for held in _LOOKUPS if held.source is source), None)
    if held is None:
        held = _Lookup(source, source.with_columns(
            pl.col("name").str.normalize("NFC").str.strip_chars().alias("exact"),
            pl.col("lang").replace_strict(_LANG_ORDER, default=len(NAME_LANGS))
            .alias("lang_rank")))
        _LOOKUPS[:] = [held, *_LOOKUPS[:_KEEP_LOOKUPS - 1]]
    return held


def _table(cards: CardDB, admits: Admits) -> pl.DataFrame:
    """The card table of ``admits`` (made once per card data)."""
    lookup = _lookup(cards)
    table = lookup.tables.get(admits)
    if table is None:
        table = lookup.tables[admits] = _card_table(cards, admits)
    return table


def prepare(cards: CardDB, fmt: Format | Admits | None = None) -> None:
    """Make what resolving against ``cards`` under ``fmt`` needs (the names, the card table,
    the fuzzy choices) before the first entries come."""
    admits = fmt if isinstance(fmt, Admits) else Admits.of(fmt)
    _choices(_lookup(cards).names, _table(cards, admits))


#: the readings of typed names made under one format, by (name, slot), and the fuzzy
#: readings, by key: what one process hands another that resolves against the same cards
Readings = tuple[dict[tuple[str, str | None], tuple[Any, ...]],
                 dict[str, tuple[int | None, list[str]]]]


def readings(cards: CardDB, fmt: Format | Admits | None = None) -> Readings:
    """The readings made so far against ``cards`` under ``fmt``."""
    admits = fmt if isinstance(fmt, Admits) else Admits.of(fmt)
    lookup = _lookup(cards)
    return (dict(lookup.readings.get(admits, {})), dict(lookup.fuzzy.get(admits, {})))


def keep_readings(cards: CardDB, fmt: Format | Admits | None, made: Readings) -> None:
    """Keep readings another process made against the same card data and format (from
    :func:`readings`): these names are not read again here."""
    admits = fmt if isinstance(fmt, Admits) else Admits.of(fmt)
    lookup = _lookup(cards)
    names, fuzzy = lookup.readings.setdefault(admits, {}), lookup.fuzzy.setdefault(admits, {})
    if len(names) + len(made[0]) > _KEEP_READINGS:
        names.clear()
    names.update(made[0])
    if len(fuzzy) + len(made[1]) > _KEEP_FUZZY:
        fuzzy.clear()
    fuzzy.update(made[1])


def _names(typed: pl.DataFrame, cards: CardDB, admits: Admits) -> pl.DataFrame:
    """Per distinct (typed name, slot): the card read, or the tie, or fuzzy suggestions;
    each reading made once per card data and format (a page reads a player's names again)."""
    distinct = typed.drop_nulls("name").unique().sort("name", "slot", nulls_last=True)
    if distinct.is_empty():
        return pl.DataFrame(schema=_NAME_SCHEMA)
    pairs = list(zip(distinct["name"].to_list(), distinct["slot"].to_list(), strict=True))
    made = _made(pairs, cards, admits)
    columns = list(zip(*(made[pair] for pair in pairs), strict=True))
    return pl.DataFrame({"name": [name for name, _ in pairs],
                         "slot": [slot for _, slot in pairs],
                         **{column: list(values) for column, values in
                            zip(list(_NAME_SCHEMA)[2:], columns, strict=True)}},
                        schema=_NAME_SCHEMA)


def _made(pairs: list[tuple[str, str | None]], cards: CardDB, admits: Admits) -> dict[
        tuple[str, str | None], tuple[Any, ...]]:
    """The readings of the card data and format, those of ``pairs`` (distinct) among them."""
    made = _lookup(cards).readings.setdefault(admits, {})
    new = [pair for pair in pairs if pair not in made]
    if len(made) + len(new) > _KEEP_READINGS:
        made.clear()
        new = pairs
    if new:
        read = _read_names(pl.DataFrame(new, schema={"name": pl.Utf8(), "slot": pl.Utf8()},
                                        orient="row"), cards, admits)
        for name, slot, *reading in read.iter_rows():
            made[name, slot] = tuple(reading)
    return made


def _names_of_rows(keys: pl.DataFrame, cards: CardDB, admits: Admits) -> pl.DataFrame:
    """:func:`_names`' readings beside each of a few entries (``keys``: their name and
    slot), as the join of :func:`resolve` puts them: without a frame of distinct names."""
    rows = list(zip(keys["name"].to_list(), keys["slot"].to_list(), strict=True))
    pairs = sorted({row for row in rows if row[0] is not None},
                   key=lambda pair: (pair[0], pair[1] is None, pair[1] or ""))
    made = _made(pairs, cards, admits) if pairs else {}
    empty = (None,) * (len(_NAME_SCHEMA) - 2)
    columns: list[tuple[Any, ...]] = list(zip(
        *(made[row] if row[0] is not None else empty for row in rows), strict=True)) or [
        () for _ in empty]
    return pl.DataFrame({column: list(values) for column, values in
                         zip(list(_NAME_SCHEMA)[2:], columns, strict=True)},
                        schema={k: v for k, v in _NAME_SCHEMA.items()
                                if k not in ("name", "slot")})


def _read_names(distinct: pl.DataFrame, cards: CardDB, admits: Admits) -> pl.DataFrame:
    """:func:`_names` of distinct (typed name, slot) pairs, none read before."""
    distinct = distinct.with_columns(
        pl.col("name").str.normalize("NFC").str.strip_chars().alias("exact"),
        name_key_expr(pl.col("name")).alias("key"))
    lookup = _lookup(cards)
    table = _table(cards, admits)
    names = lookup.names
    found = _candidates(distinct.select("name", "slot", "exact", "key"), names).join(
        table, on="card_id", how="left")
    rank = (
        (~pl.col("admitted")).cast(pl.Int64) * 2**9
        + pl.col("match").cast(pl.Int64) * 2**8
        + (~pl.col("has_code")).cast(pl.Int64) * 2**7
        + (pl.col("slot").is_not_null() & (pl.col("card_slot") != pl.col("slot")))
        .cast(pl.Int64) * 2**6
        + (~pl.col("released")).cast(pl.Int64) * 2**5
        + pl.col("lang_rank")
    )
    best = (
        found.with_columns(rank.alias("rank"))
        .group_by("name", "slot", "card_id").agg(pl.col("rank").min(),
                                                 pl.col("name_en").first(),
                                                 pl.col("passcode").first())
        .filter(pl.col("rank") == pl.col("rank").min().over("name", "slot"))
        .group_by("name", "slot").agg(
            pl.col("card_id").sort().first().alias("first_id"), pl.len().alias("n"),
            pl.format("{} ({})", pl.col("name_en"), pl.col("passcode")).sort()
            .alias("tie"))
    )
    out = distinct.select("name", "slot", "key").join(best, on=["name", "slot"], how="left",
                                                      nulls_equal=True)
    out = out.with_columns(
        pl.when(pl.col("n") == 1).then(pl.col("first_id")).alias("name_id"),
        pl.when(pl.col("n") > 1).then(pl.col("tie")).alias("ambiguous"))
    missing = out.filter(pl.col("n").is_null())["key"].unique().sort().to_list()
    fuzzy = _fuzzy_once(missing, names, table, lookup.fuzzy.setdefault(admits, {}))
    return out.join(fuzzy, on="key", how="left").select(list(_NAME_SCHEMA))


def _fuzzy_once(missing: list[str], names: pl.DataFrame, table: pl.DataFrame,
                made: dict[str, tuple[int | None, list[str]]]) -> pl.DataFrame:
    """:func:`_fuzzy` of the keys not read before (``made``: each key's reading, kept)."""
    new = [key for key in missing if key not in made]
    if len(made) + len(new) > _KEEP_FUZZY:
        made.clear()
    if new:
        found = _fuzzy(new, names, table)
        made.update(zip(found["key"].to_list(), zip(found["fuzzy_id"].to_list(),
                                                     found["suggestions"].to_list(),
                                                     strict=True), strict=True))
    return pl.DataFrame({"key": missing, "fuzzy_id": [made[key][0] for key in missing],
                         "suggestions": [made[key][1] for key in missing]},
                        schema={"key": pl.Utf8(), "fuzzy_id": pl.Int64(),
                                "suggestions": pl.List(pl.Utf8())})


@cache
def nicknames(source: Traversable | None = None) -> dict[str, str]:
    """What players write for some staples (name key → English card name), for suggestions
    (the package's own table, or the one in ``source``)."""
    from validator.engine._nicknames import Nicknames  # pydantic, only where names are read

    table = read_model(Nicknames, source or data_file("nicknames.toml")).nicknames
    return {name_key(k): v for k, v in table.items()}


class _Cards:
    """The cards of each choice key (``ids[index]``), read from one flat array."""

    def __init__(self, flat: Any, starts: Any) -> None:
        self.flat, self.starts = flat, starts

    def __getitem__(self, index: int) -> list[int]:
        cards: list[int] = self.flat[self.starts[index]:self.starts[index + 1]].tolist()
        return cards


_Choices = tuple[list[str], Any, Any, dict[int, str], set[str]]
#: the choices of the card tables fuzzy readings were made against most recently
_CHOICES: list[tuple[pl.DataFrame, pl.DataFrame, _Choices]] = []


def _choices(names: pl.DataFrame, table: pl.DataFrame) -> _Choices:
    """The distinct keys of the admitted cards with a passcode, sorted (each key's cards in
    one flat array, from ``starts[i]`` to ``starts[i + 1]``), every card's English name,
    and the admitted names; made once per card table."""
    held = next((c for n, t, c in _CHOICES if n is names and t is table), None)
    if held is not None:
        return held
    import numpy as np

    choices = (
        names.join(table.filter(pl.col("admitted") & pl.col("has_code")), on="card_id")
        .filter(pl.col("key") != "")
        .group_by("key").agg(pl.col("card_id").unique(), pl.col("name_en").first())
        .sort("key")
    )
    shown = dict(zip(table["card_id"].to_list(), table["name_en"].to_list(), strict=True))
    sizes = choices["card_id"].list.len().cast(pl.Int64).to_numpy()
    starts = np.concatenate([np.zeros(1, np.int64), np.cumsum(sizes)])
    made: _Choices = (choices["key"].to_list(), choices["card_id"].explode().to_numpy(),
                      starts, shown, set(choices["name_en"].to_list()) | set(shown.values()))
    _CHOICES[:] = [(names, table, made), *_CHOICES[:_KEEP_LOOKUPS - 1]]
    return made


def _fuzzy(missing: list[str], names: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """Per missing key: the accepted card (or null) and suggestion names, all keys in one
    batch: one similarity matrix against the distinct keys of the admitted cards. A nickname
    players use ("Imperm") is suggested first, never read silently."""
    schema: dict[str, pl.DataType] = {"key": pl.Utf8(), "fuzzy_id": pl.Int64(),
                                      "suggestions": pl.List(pl.Utf8())}
    if not missing:
        return pl.DataFrame(schema=schema)
    import numpy as np  # only when some name needs a fuzzy reading
    from rapidfuzz import fuzz, process

    keys, flat, starts, shown, admitted_names = _choices(names, table)
    ids_out: list[int | None] = []
    suggestions: list[list[str]] = []
    if not keys:
        return pl.DataFrame({"key": missing, "fuzzy_id": [None] * len(missing),
                             "suggestions": [[] for _ in missing]}, schema=schema)
    ids = _Cards(flat, starts)
    # the strict similarity (Indel ratio, bit-parallel) of every missing key to every key
    # decides what is read; the costlier loose one (WRatio: partial and token matches) only
    # ranks suggestions, for the keys that are not read
    strict = process.cdist(missing, keys, scorer=fuzz.ratio, dtype=np.uint8, workers=-1)
    near = [_highest(row, _SHORTLIST) for row in strict]
    decided: list[tuple[int | None, dict[int, float]]] = []
    for row, key in enumerate(missing):
        strict_by: dict[int, float] = {}
        for index in near[row]:
            score = float(strict[row, index])
            for card in ids[index]:
                strict_by[card] = max(strict_by.get(card, 0.0), score)
        by_strict = [*sorted(strict_by.values(), reverse=True), 0.0, 0.0]
        best = max(strict_by, key=lambda c: (strict_by[c], -c)) if strict_by else None
        accepted = best if (
            best is not None and len(key) >= MIN_FUZZY_LENGTH
            and by_strict[0] >= ACCEPT_SCORE and by_strict[0] - by_strict[1] >= ACCEPT_MARGIN
        ) else None
        decided.append((accepted, strict_by))
    unread = [row for row, (accepted, _) in enumerate(decided) if accepted is None]
    loose = _loose([missing[row] for row in unread], keys) if unread else None
    loose_rows = dict(zip(unread, range(len(unread)), strict=True))
    for row, key in enumerate(missing):
        accepted, strict_by = decided[row]
        loose_by: dict[int, float] = {}
        if loose is not None and row in loose_rows:
            scores = loose[loose_rows[row]]
            for index in _highest(scores, _SHORTLIST):
                if scores[index] > 0:
                    for card in ids[index]:
                        loose_by[card] = max(loose_by.get(card, 0.0), float(scores[index]))
        else:  # read: the nearest by the strict similarity are the suggestions
            loose_by = {card: score for card, score in strict_by.items() if score > 0}
        ranked = sorted(loose_by, key=lambda c: (-loose_by[c], -strict_by.get(c, 0.0), c))
        nickname = nicknames().get(key)
        if nickname is not None and nickname in admitted_names:
            accepted = None
            ranked_names = [nickname, *(shown[c] for c in ranked)]
        else:
            ranked_names = [shown[c] for c in ranked]
        ids_out.append(accepted)
        suggestions.append(list(dict.fromkeys(ranked_names))[:SUGGESTIONS])
    return pl.DataFrame({"key": missing, "fuzzy_id": ids_out, "suggestions": suggestions},
                        schema=schema)


def _highest(scores: Any, most: int) -> Any:
    """The indices of the ``most`` highest scores of a row, highest first, ties in index
    order: the first ``most`` of a stable sort of the row, without sorting all of it."""
    import numpy as np

    if len(scores) <= most:
        return np.argsort(-scores.astype(np.int16), kind="stable")
    least = np.partition(scores, len(scores) - most)[len(scores) - most]
    kept = np.flatnonzero(scores >= least)
    return kept[np.argsort(-scores[kept].astype(np.int16), kind="stable")][:most]


def _loose(queries: list[str], keys: list[str]) -> Any:
    """The loose similarity (WRatio) of each query to every key, as ``process.cdist`` gives
    it, computed only for the keys that share a character with the query: every part of
    WRatio (ratio, partial ratio, token ratios) compares characters, so a key with none of
    the query's scores 0 (keys hold no whitespace, so no token joined by a space matches
    either; a query with whitespace is compared with every key)."""
    import numpy as np
    from rapidfuzz import fuzz, process

    wanted = set().union(*map(set, queries))
    sharing = [(index, frozenset(found)) for index, key in enumerate(keys)
               if (found := wanted.intersection(key))]
    out = np.zeros((len(queries), len(keys)), np.uint8)
    wide: list[int] = []  # the queries that share a character with most keys: in one batch
    for row, query in enumerate(queries):
        near = None if any(c.isspace() for c in query) else [
            index for index, found in sharing if not found.isdisjoint(query)]
        if near is None or 2 * len(near) > len(keys):
            wide.append(row)
        elif near:
            out[row, near] = process.cdist([query], [keys[i] for i in near],
                                           scorer=fuzz.WRatio, dtype=np.uint8,
                                           workers=-1)[0]
    if wide:
        out[wide] = process.cdist([queries[row] for row in wide], keys, scorer=fuzz.WRatio,
                                  dtype=np.uint8, workers=-1)
    return out


#: the most entries whose passcodes are looked up one by one (a page's, a judge's check)
_FEW = 2_000
#: per card data's printings (most recent first): their passcodes with their cards and
#: the cards' rows in ``by_card``, and whether no passcode names two printings
_CODES: list[tuple[pl.DataFrame, pl.DataFrame, bool]] = []
#: per card data's printings (most recent first): the card of each passcode as a dict
#: (None when a passcode names two printings)
_CODE_DICTS: list[tuple[pl.DataFrame, dict[int, int] | None]] = []


def _code_ids(entries: pl.DataFrame, cards: CardDB) -> pl.DataFrame:
    """The card of each entry's passcode (``code_id``; null: none, or no passcode), in the
    entries' order: a join with the printings' passcodes, made once per card data (a
    lookup in place when a passcode names two printings; a dict for a few entries)."""
    code_of = _code_dict(cards) if entries.height <= _FEW else None
    if code_of is not None:
        return pl.DataFrame({"code_id": [None if code is None else code_of.get(code)
                                         for code in entries["passcode"].to_list()]},
                            schema={"code_id": pl.Int64()})
    _, codes, unique = _codes(cards)
    if not unique:
        return entries.select(pl.col("passcode").replace_strict(
            codes["passcode"], codes["code_id"], default=None, return_dtype=pl.Int64)
            .alias("code_id"), pl.col("passcode").replace_strict(
            codes["passcode"], codes["code_at"], default=None, return_dtype=pl.UInt32)
            .alias("code_at"))
    return entries.select(pl.col("passcode").cast(codes.schema["passcode"])).join(
        codes, on="passcode", how="left", maintain_order="left").select(
        pl.col("code_id").cast(pl.Int64), "code_at")


def _code_pairs(cards: CardDB) -> pl.DataFrame:
    """Each printing's passcode and card (``code_id``), printings without either left out."""
    return cards.printings.select("passcode", pl.col("card_id").alias("code_id")).drop_nulls()


def _codes(cards: CardDB) -> tuple[pl.DataFrame, pl.DataFrame, bool]:
    """The passcodes of ``cards``' printings with their card and its row in ``by_card``
    (``code_at``), and whether each passcode names one printing, made once per card data
    (a bulk check's lookup)."""
    held = next((held for held in _CODES if held[0] is cards.printings), None)
    if held is None:  # apart from the names: a deck of passcodes needs no names read
        at = cards.by_card.select("card_id").with_row_index("code_at")
        codes = _code_pairs(cards).join(at, left_on="code_id", right_on="card_id",
                                        how="left", maintain_order="left")
        held = (cards.printings, codes, bool(codes["passcode"].is_unique().all()))
        _CODES[:] = [held, *_CODES[:_KEEP_LOOKUPS - 1]]
    return held


def _code_dict(cards: CardDB) -> dict[int, int] | None:
    """The card of each passcode of ``cards`` as a dict (None when a passcode names two
    printings), made once per card data from the printings alone (a few entries'
    lookups: a bulk check never builds it, and it needs no ``by_card``)."""
    held = next((held for held in _CODE_DICTS if held[0] is cards.printings), None)
    if held is None:
        pairs = _code_pairs(cards)
        code_of = dict(zip(pairs["passcode"].to_list(), pairs["code_id"].to_list(),
                           strict=True)) if pairs["passcode"].is_unique().all() else None
        held = (cards.printings, code_of)
        _CODE_DICTS[:] = [held, *_CODE_DICTS[:_KEEP_LOOKUPS - 1]]
    return held[1]


def _status(value: str) -> pl.Expr:
    return pl.lit(value, RESOLVED_SCHEMA["status"])


def _how(value: str) -> pl.Expr:
    return pl.lit(value, RESOLVED_SCHEMA["how"])


def resolve(entries: pl.DataFrame, cards: CardDB, fmt: Format | Admits | None = None, *,
            positions: bool = False) -> pl.DataFrame:
    """Entries plus ``card_id``, ``status``, ``how``, ``suggestions`` and ``ambiguous``.

    ``fmt`` ranks the readings of typed names (see the module); passcodes are always looked
    up whole. Names are resolved once per distinct (text, slot), then joined back to every row.
    With ``positions``, also ``card_at``: the row of the card in ``cards.by_card`` (null
    without a card), carried from the lookups themselves, so no second lookup is needed.
    """
    admits = fmt if isinstance(fmt, Admits) else Admits.of(fmt)
    if set(ENTRY_SCHEMA) - set(entries.columns):  # other columns (a deck number) stay
        entries = entries.with_columns(pl.lit(None, dtype).alias(column)
                                       for column, dtype in ENTRY_SCHEMA.items()
                                       if column not in entries.columns)
    # lookups join only the key columns and add the results beside the entries, so the
    # entries' other (string) columns are never copied
    looked_up = [_code_ids(entries, cards)]
    if entries.height > _FEW and entries["name"].null_count() == entries.height:
        # the general case's conditions over null name columns take most of its time (28
        # of 37 ms at 2.5M rows; skipping only the name lookups gains nothing)
        return split_main_extra(_by_passcodes(entries, looked_up[0], positions), cards)
    keys = entries.select("name", pl.col("slot").cast(pl.Utf8))
    if entries.height <= _FEW:  # a page's or a judge's few entries: no join to build
        looked_up.append(_names_of_rows(keys, cards, admits))
    else:  # some entry gives a name (else ``_by_passcodes`` above)
        typed = _names(keys, cards, admits)
        if positions:  # each distinct name's card's row
            at = _positions(cards)
            typed = typed.join(at.rename({"card_id": "name_id", "at": "name_at"}),
                               on="name_id", how="left", maintain_order="left").join(
                at.rename({"card_id": "fuzzy_id", "at": "fuzzy_at"}), on="fuzzy_id",
                how="left", maintain_order="left")
        looked_up.append(keys.join(typed, on=["name", "slot"], how="left",
                                   nulls_equal=True, maintain_order="left")
                         .drop("name", "slot"))
    keyed = pl.concat([entries, *looked_up], how="horizontal")
    # a number typed where a name goes is a passcode, unless no card has it and it is a
    # card's name ("7")
    by_passcode = pl.col("passcode").is_not_null() & (
        pl.col("code_id").is_not_null() | pl.col("name").is_null()
        | (pl.col("name_id").is_null() & pl.col("ambiguous").is_null()))
    card_id = (
        pl.when(by_passcode).then(pl.col("code_id"))
        .otherwise(pl.coalesce("name_id", "fuzzy_id"))
    )
    resolved = keyed.with_columns(
        card_id.alias("card_id"),
        # literals typed as the Enum: no string is built per row
        pl.when(by_passcode & pl.col("code_id").is_null()).then(_status("unknown"))
        .when(card_id.is_null()).then(_status("unresolved"))
        .otherwise(_status("ok")).alias("status"),
        pl.when(by_passcode).then(_how("passcode"))
        .when(pl.col("name_id").is_not_null()).then(_how("name"))
        .when(pl.col("fuzzy_id").is_not_null()).then(_how("fuzzy"))
        .otherwise(pl.lit(None, RESOLVED_SCHEMA["how"])).alias("how"),
        pl.coalesce("ambiguous", "suggestions").alias("suggestions"),
        (~by_passcode & pl.col("ambiguous").is_not_null()).alias("ambiguous"),
        *([pl.when(by_passcode).then(pl.col("code_at"))
           .otherwise(pl.coalesce("name_at", "fuzzy_at")).alias("card_at")]
          if positions and "name_at" in keyed.columns and "code_at" in keyed.columns
          else []),
    ).drop("code_id", "name_id", "fuzzy_id", "code_at", "name_at", "fuzzy_at", strict=False)
    if positions and "card_at" not in resolved.columns:  # a few entries: looked up apart
        resolved = resolved.join(_positions(cards).rename({"at": "card_at"}), on="card_id",
                                 how="left", maintain_order="left")
    return split_main_extra(resolved, cards)


def _by_passcodes(entries: pl.DataFrame, codes: pl.DataFrame, positions: bool) -> pl.DataFrame:
    """:func:`resolve` of many entries that give no card's name (a YDK event): each entry is
    its passcode's card (``codes``: ``code_id``, ``code_at``), unknown when no printing has
    the passcode, unresolved without one; the columns of the general case, in its order."""
    code = pl.col("code_id")
    given = pl.col("passcode").is_not_null()
    return pl.concat([entries, codes], how="horizontal").with_columns(
        pl.lit(False).alias("ambiguous"),
        pl.lit(None, RESOLVED_SCHEMA["suggestions"]).alias("suggestions"),
        code.alias("card_id"),
        pl.when(given & code.is_null()).then(_status("unknown"))
        .when(code.is_null()).then(_status("unresolved"))
        .otherwise(_status("ok")).alias("status"),
        pl.when(given).then(_how("passcode")).otherwise(pl.lit(None, RESOLVED_SCHEMA["how"]))
        .alias("how"),
        *([pl.col("code_at").alias("card_at")] if positions else []),
    ).drop("code_id", "code_at")


def _positions(cards: CardDB) -> pl.DataFrame:
    """Each card's row in ``cards.by_card`` (``card_id``, ``at``)."""
    return cards.by_card.select("card_id").with_row_index("at")


def split_main_extra(resolved: pl.DataFrame, cards: CardDB) -> pl.DataFrame:
    """Entries of the main and extra deck given as one (slot ``main_or_extra``) moved to the
    extra deck when their card is an Extra Deck monster; every other entry as it is."""
    hinted = pl.col("slot") == "main_or_extra"
    if not resolved.select(hinted.any()).item():
        return resolved
    extra = cards.by_card.filter(pl.col("extra"))["card_id"]
    return resolved.with_columns(
        pl.when(hinted & pl.col("card_id").is_in(extra.implode()))
        .then(pl.lit("extra", ENTRY_SCHEMA["section"])).otherwise(pl.col("section"))
        .alias("section"))


def resolve_few(entries: pl.DataFrame, cards: CardDB, fmt: Format | Admits | None = None
                ) -> tuple[pl.LazyFrame, list[int | None]]:
    """:func:`resolve` of a few entries (a deck, a page's or a judge's check) as a plan, and
    each entry's card id: each entry's passcode and name looked up in the readings kept per
    card data and format, the results put beside the entries in one frame, with no polars
    pass over the rows before the plan is collected (more entries than ``_FEW``, or
    passcodes naming two printings: :func:`resolve` itself)."""
    admits = fmt if isinstance(fmt, Admits) else Admits.of(fmt)
    code_of = _code_dict(cards)
    if code_of is None or entries.height > _FEW:
        whole = resolve(entries, cards, admits)
        return whole.lazy(), whole["card_id"].to_list()
    if set(ENTRY_SCHEMA) - set(entries.columns):
        entries = entries.with_columns(pl.lit(None, dtype).alias(column)
                                       for column, dtype in ENTRY_SCHEMA.items()
                                       if column not in entries.columns)
    codes = entries["passcode"].to_list()
    typed = entries["name"].to_list()
    slots = entries["slot"].cast(pl.Utf8).to_list()
    rows = list(zip(typed, slots, strict=True))
    pairs = sorted({row for row in rows if row[0] is not None},
                   key=lambda pair: (pair[0], pair[1] is None, pair[1] or ""))
    made = _made(pairs, cards, admits) if pairs else {}
    none = (None, None, None, None)
    columns: dict[str, list[Any]] = {"ambiguous": [], "suggestions": [], "card_id": [],
                                     "status": [], "how": []}
    for code, row in zip(codes, rows, strict=True):
        name_id, tie, fuzzy_id, suggested = made[row] if row[0] is not None else none
        code_id = None if code is None else code_of.get(code)
        # the expressions of ``resolve``, read entry by entry
        by_passcode = code is not None and (
            code_id is not None or row[0] is None or (name_id is None and tie is None))
        card = code_id if by_passcode else (name_id if name_id is not None else fuzzy_id)
        columns["card_id"].append(card)
        columns["status"].append("unknown" if by_passcode and code_id is None
                                 else "unresolved" if card is None else "ok")
        columns["how"].append("passcode" if by_passcode else "name" if name_id is not None
                              else "fuzzy" if fuzzy_id is not None else None)
        columns["suggestions"].append(tie if tie is not None else suggested)
        columns["ambiguous"].append(not by_passcode and tie is not None)
    looked_up = pl.DataFrame(columns, schema={
        "ambiguous": RESOLVED_SCHEMA["ambiguous"], "suggestions": RESOLVED_SCHEMA["suggestions"],
        "card_id": RESOLVED_SCHEMA["card_id"], "status": RESOLVED_SCHEMA["status"],
        "how": RESOLVED_SCHEMA["how"]})
    resolved = pl.concat([entries.lazy(), looked_up.lazy()], how="horizontal")
    if "main_or_extra" not in slots:
        return resolved, columns["card_id"]
    extra = [card for card in columns["card_id"] if card is not None
             and _is_extra(cards).get(card, False)]
    return resolved.with_columns(
        pl.when((pl.col("slot") == "main_or_extra")
                & pl.col("card_id").is_in(pl.Series(extra, dtype=pl.Int64).implode()))
        .then(pl.lit("extra", ENTRY_SCHEMA["section"])).otherwise(pl.col("section"))
        .alias("section")), columns["card_id"]


def prepare_codes(cards: CardDB, *, few: bool) -> None:
    """Make the passcode lookup of ``cards`` before the first entries come: the dict that a
    few entries' lookups read when ``few``, else the table that many entries are joined
    with."""
    if few:
        _code_dict(cards)
    else:
        _codes(cards)


#: per card data (most recent first): whether each card is an Extra Deck monster
_EXTRA: list[tuple[pl.DataFrame, dict[int, bool]]] = []


def _is_extra(cards: CardDB) -> dict[int, bool]:
    held = next((extra for by_card, extra in _EXTRA if by_card is cards.by_card), None)
    if held is None:
        held = dict(zip(cards.by_card["card_id"].to_list(),
                        cards.by_card["extra"].to_list(), strict=True))
        _EXTRA[:] = [(cards.by_card, held), *_EXTRA[:_KEEP_LOOKUPS - 1]]
    return held
