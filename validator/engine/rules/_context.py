"""What every rule sees: the event's rows as lazy frames, prepared once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import polars as pl

from validator.cards.formats import Format
from validator.text.i18n import LOCAL_LANGS, PARTICLES, PLACEHOLDER, catalog, terms
from validator.vocab import LANGS, SECTION_ENUM, SECTIONS, Lang

__all__ = [
    "LOCAL_CARD_COLUMNS",
    "LOCAL_LANGS",
    "SECTIONS",
    "VIOLATION_SCHEMA",
    "Card",
    "Context",
    "Found",
    "Said",
    "Term",
    "Value",
    "Wording",
    "by_section",
    "choose",
    "could_fail",
    "name_totals",
    "no_card_flags",
    "say",
    "violations",
    "word",
]


VIOLATION_SCHEMA: dict[str, pl.DataType] = {
    "deck": pl.UInt32(),
    "code": pl.Utf8(),
    "section": SECTION_ENUM,
    "card_id": pl.Int64(),
    "passcode": pl.Int64(),
    "count": pl.Int64(),
    "limit": pl.Int64(),
    "registered": pl.Int64(),
    "message": pl.Utf8(),
    **{f"message_{lang}": pl.Utf8() for lang in LOCAL_LANGS},  # the message in each language
    "file": pl.Utf8(),
    "line": pl.Int32(),
    "cell": pl.Utf8(),
    "read_from": pl.Utf8(),  # the text of an entry read fuzzily as the card
    "row": pl.UInt32(),  # the entry row it points at (engine fills file/line/cell from it)
    "on_list": pl.Boolean(),  # row numbers refer to the registered list, not the deck
}


@dataclass(frozen=True)
class Context:
    """Lazy frames shared by the rules.

    * ``attrs``: one row per card name (small): attributes, the list's ``limit``, and the
      card-level flags that rule modules declare in ``card_flags``;
    * ``deck_cards``: one row per (deck, card): copies in ``main``/``extra``/``side`` and
      ``total``, ``status`` (ok/unknown/unresolved), where the first copy is, and the card's
      ``limit``, ``kind``, ``is_extra``, ``is_legend``, ``points`` and flags — the one big
      table every rule filters;
    * ``rows``: one row per entry (for rules that need the typed text);
    * ``sizes``: one row per deck with main/extra/side card counts;
    * ``registered`` / ``registered_cards``: the registered lists' rows and deck-by-card table
      (the latter only of decks not flagged in ``same_as_list``);
    * ``same_as_list``: one flag per deck number, set where the deck holds exactly its
      list's cards section by section (``engine.same_as_listed``);
    * ``list_problems``: whether rules also report problems of the registered lists;
    * ``stale``: a note for messages about cards the data lacks, when the card data is older
      than the list ("; card data dated D is older than list L: run `deckcheck data update`");
    * ``siding``: compare decks with lists as in duel 2 and later of a match, where side
      deck cards may have been exchanged one for one (see ``list_mismatch``);
    * ``unreadable``: rows of the lists that could not be read (``deck``, ``section``,
      ``file``, ``line``, ``cell``, ``message``, ``on_list``).
    """

    fmt: Format
    whitelist: bool
    attrs: pl.LazyFrame
    deck_cards: pl.LazyFrame
    rows: pl.LazyFrame
    sizes: pl.LazyFrame
    registered: pl.LazyFrame | None = None
    registered_cards: pl.LazyFrame | None = None
    list_problems: bool = True
    stale: str = ""
    stale_dates: tuple[str, str] | None = None  # (the card data's date, the list) of ``stale``
    siding: bool = False
    unreadable: pl.LazyFrame | None = None
    same_as_list: pl.Series | None = None

    #: the rows of ``deck_cards`` of known cards that could fail a rule (:func:`could_fail`),
    #: picked out once by the engine: no other row breaks a rule over known cards
    candidates: pl.LazyFrame | None = None
    #: a check of a few decks: a rule keeps every step in its plan (nothing collected while
    #: planning), since the engine collects every rule's plan at once
    few: bool = False
    #: no row of ``known`` is of a card whose name is shared with others (``folded``): as
    #: known by the engine before planning the rules (False: not known)
    none_folded: bool = False

    @property
    def known(self) -> pl.LazyFrame:
        """Rows of ``deck_cards`` whose card the data knows (only the ``candidates`` among
        them when given: the rules over known cards find the same faults in these)."""
        if self.candidates is not None:
            return self.candidates
        return self.deck_cards.filter(pl.col("status") == "ok")

    def named(self, frame: pl.LazyFrame, *columns: str) -> pl.LazyFrame:
        """Add the card's name in each language (``card``, ``card_ja``, ...) and other
        card-table columns to failing rows."""
        return frame.join(self.attrs.select(_named_columns(columns)), on="card_id",
                          how="left")


@cache  # built once: the same expressions serve every check
def _named_columns(columns: tuple[str, ...]) -> list[pl.Expr]:
    """The card-table columns :meth:`Context.named` adds (with ``card_id``)."""
    return [pl.col(c) for c in ("card_id", "card", *LOCAL_CARD_COLUMNS, *columns)]


def could_fail(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows of known cards: some rule over known cards could find fault
    with the row — more copies than the format allows, a card on the list (any limit), a
    name shared with other cards, outside the pool, of a banned type, in a section it does
    not go in, a Legend, a Skill, or a card with points. The rules read only these rows
    (most rows of an event are none of these); ``test_check`` pins that the verdicts are
    those over every row."""
    return (
        (pl.col("total") > fmt.copy_limit) | pl.col("limit").is_not_null() | pl.col("folded")
        | pl.col("outside_pool") | pl.col("banned_type")
        | (pl.col("is_extra") & (pl.col("main") > 0))
        | (~pl.col("is_extra") & (pl.col("extra") > 0))
        | pl.col("is_legend") | (pl.col("kind") == "skill") | (pl.col("points") > 0)
    )


def name_totals(ctx: Context) -> pl.LazyFrame:
    """Copies per (deck, card *name*) across main, extra and side, with the name's limit.

    Most cards are their own name: their row of the deck-by-card table is used as it is.
    Cards whose name is always treated as another's ("folded") are added up per name; the
    row then stands for the name (``card_id`` = the name's card) and ``detail`` spells out
    the printed cards, e.g. " (3 Harpie Lady + 1 Harpie Lady 1, one name)".
    """
    known = ctx.known
    single_columns, folded_sums, folded_columns = _name_total_exprs()
    single = known.filter(~pl.col("folded")).select(*single_columns)
    if ctx.none_folded:
        return single
    folded = (
        ctx.named(known.filter(pl.col("folded"))).sort("card")
        .group_by("deck", "name_id").agg(*folded_sums).select(*folded_columns)
    )
    return pl.concat([single, folded])


@cache  # built once: the same expressions serve every check
def _name_total_exprs() -> tuple[list[pl.Expr | str], list[pl.Expr], list[pl.Expr | str]]:
    """The columns of ``name_totals``: of a card that is its own name, the sums of the cards
    of one name, and that name's row."""
    details = ("detail", *(f"detail_{lang}" for lang in LOCAL_LANGS))
    single: list[pl.Expr | str] = ["deck", "card_id", "total", "row", "limit",
                                   *(pl.lit("").alias(d) for d in details)]
    one_name = say(" ({parts}, one name)", parts=Card("parts"))
    sums = [pl.col("total").sum(), pl.col("row").min(), pl.col("limit").min(),
            pl.col("card_id").first().alias("only"), pl.len().alias("cards"),
            *[pl.format("{} {}", pl.col("total"), Card().expr(lang)).str.join(" + ")
              .alias("parts" if lang == "en" else f"parts_{lang}") for lang in LANGS]]
    named: list[pl.Expr | str] = [
        "deck",
        pl.when(pl.col("cards") == 1).then(pl.col("only")).otherwise(pl.col("name_id"))
        .alias("card_id"),
        "total", "row", "limit",
        *[pl.when(pl.col("cards") == 1).then(pl.lit("")).otherwise(one_name[lang])
          .alias("detail" if lang == "en" else f"detail_{lang}") for lang in LANGS]]
    return single, sums, named


def by_section(frame: pl.LazyFrame) -> pl.LazyFrame:
    """Failing deck-by-card rows as one row per section holding copies (``qty``), pointing
    at that section's first entry row."""
    # the other columns by exclusion: no resolving of the plan's schema while building it
    keep = pl.exclude(*SECTIONS, *(f"row_{s}" for s in SECTIONS), "row")
    parts = [frame.select(keep, pl.lit(s).alias("section"), pl.col(s).alias("qty"),
                          pl.col(f"row_{s}").alias("row")) for s in SECTIONS]
    return (
        pl.concat(parts).filter(pl.col("qty") > 0)
        .with_columns(pl.col("section").cast(pl.Enum(list(SECTIONS))))
    )


#: the columns of the card's name in each language besides English
LOCAL_CARD_COLUMNS: tuple[str, ...] = tuple(f"card_{lang}" for lang in LOCAL_LANGS)


@dataclass(frozen=True)
class Card:
    """A placeholder filled with a card's name in the message's language: ``column`` holds
    the English name, ``<column>_<lang>`` the name in that language (see ``tables``)."""

    column: str = "card"

    def expr(self, lang: Lang) -> pl.Expr:
        return pl.col(self.column if lang == "en" else f"{self.column}_{lang}")


@dataclass(frozen=True)
class Term:
    """A placeholder filled with a word of a kind (a catalog context, e.g. ``section``):
    ``expr`` gives the English word, the catalog its translation."""

    expr: pl.Expr
    context: str

    def local(self, lang: Lang) -> pl.Expr:
        if lang == "en":
            return self.expr
        return self.expr.replace(_terms(lang, self.context))


@cache
def _terms(lang: Lang, context: str) -> dict[str, str]:
    """The words of a kind in a language, looked up once (the catalogs are read once)."""
    return terms(lang, context)


#: one message in every language: lang → a string expression
Said = dict[Lang, pl.Expr]


def word(context: str, english: str) -> Said:
    """A word of a kind known when the rule is written (a literal in every language)."""
    return {lang: pl.lit(english if lang == "en" else _terms(lang, context).get(english, english))
            for lang in LANGS}
Value = pl.Expr | Card | Term | dict[Lang, pl.Expr]


def _filled(lang: Lang, value: Value) -> pl.Expr:
    if isinstance(value, Card):
        return value.expr(lang)
    if isinstance(value, Term):
        return value.local(lang)
    if isinstance(value, dict):
        return value[lang]
    return value


def say(msgid: str, **values: Value) -> Said:
    """One catalog sentence with its placeholders filled from columns, in every language."""
    out: Said = {}
    for lang in LANGS:
        text = catalog(lang).get(msgid)
        names = PLACEHOLDER.findall(text)
        out[lang] = pl.format(PLACEHOLDER.sub("{}", text.replace("{}", "")),
                              *[_filled(lang, values[n]) for n in names]) if names \
            else pl.lit(text)
    return out


def choose(*cases: tuple[pl.Expr, Said], otherwise: Said) -> Said:
    """The message of the first case whose condition holds, in every language."""
    out: Said = {}
    for lang in LANGS:
        chain: Any = None  # polars' When/Then chain types
        for condition, said in cases:
            chain = pl.when(condition).then(said[lang]) if chain is None \
                else chain.when(condition).then(said[lang])
        out[lang] = chain.otherwise(otherwise[lang]) if chain is not None else otherwise[lang]
    return out


#: a rule's message: one expression for every language (a reader's), or one per language
Wording = pl.Expr | Said


@dataclass(frozen=True)
class Found:
    """A rule's failing rows (``frame``, lazy) and how to word them as violation rows.

    The engine collects every rule's failing rows at once, then words only the rules that
    found rows: a message is built (``message`` may be a function that builds it) and
    evaluated over the few failing rows, not planned for every row of the event.
    """

    frame: pl.LazyFrame
    code: str | pl.Expr
    message: Wording | Callable[[], Wording]
    columns: dict[str, pl.Expr]

    def rows(self, failing: pl.DataFrame, *, langs: tuple[Lang, ...] = LANGS) -> pl.DataFrame:
        """The collected failing rows of ``frame`` as violation rows (``VIOLATION_SCHEMA``),
        the messages worded in English and ``langs`` (those of other languages null)."""
        failing, exprs = self._shaped(failing, langs=langs)
        return failing.select(exprs)

    def plan(self, failing: pl.DataFrame, *, particles: bool = True,
             langs: tuple[Lang, ...] = LANGS) -> pl.LazyFrame:
        """:meth:`rows` as a plan, to be collected with others at once; without
        ``particles``, the Korean messages keep their doubled particles, for the caller to
        resolve (``korean_particles``, the same text) over the few rows collected."""
        failing, exprs = self._shaped(failing, particles=particles, langs=langs)
        return failing.lazy().select(exprs)

    def _shaped(self, failing: pl.DataFrame, *, particles: bool = True,
                langs: tuple[Lang, ...] = LANGS) -> tuple[pl.DataFrame, list[pl.Expr]]:
        """The failing rows (joined to their messages when worded once per distinct row) and
        the expressions of the violation rows' columns."""
        message = self.message if isinstance(self.message, pl.Expr | dict) \
            else self.message()
        said = message if isinstance(message, dict) else dict.fromkeys(LANGS, message)
        if particles and "ko" in langs:
            korean = said["ko"]
            for pattern, replacement in PARTICLES:
                korean = korean.str.replace_all(pattern, replacement)
            said = {**said, "ko": korean}
        messages = {"message": said["en"],
                    **{f"message_{lang}": said[lang] for lang in LOCAL_LANGS if lang in langs}}
        # one chunk per column: polars 2.1's ``pl.format`` panics on columns whose chunks
        # differ ("assertion failed: i < self.len()"), as rows concatenated from a deck and
        # its list have
        failing, messages = _worded_once(failing.rechunk(), messages)
        exprs = {"code": self.code if isinstance(self.code, pl.Expr) else pl.lit(self.code),
                 **messages, **self.columns}
        present = set(failing.columns)
        return failing, [exprs[c].cast(t).alias(c) if c in exprs else _AS_IS[c]
                         if c in present else _NULL[c] for c, t in VIOLATION_SCHEMA.items()]


#: each violation column of the failing rows as it is, of its type
_AS_IS: dict[str, pl.Expr] = {c: pl.col(c).cast(t) for c, t in VIOLATION_SCHEMA.items()}
#: each violation column as a constant null, for rows that do not have it
_NULL: dict[str, pl.Expr] = {c: pl.lit(None, t).alias(c) for c, t in VIOLATION_SCHEMA.items()}


#: failing rows of one rule above which each distinct message is worded once (many
#: decks of an event share their violations: the same card, copies and section)
DISTINCT_ABOVE = 256


def _worded_once(failing: pl.DataFrame, messages: dict[str, pl.Expr]) -> tuple[
        pl.DataFrame, dict[str, pl.Expr]]:
    """Many failing rows: the messages worded once per distinct value of the columns they
    read, joined back to every row in order (the same texts as worded row by row)."""
    if failing.height <= DISTINCT_ABOVE:
        return failing, messages
    read = sorted({name for expr in messages.values() for name in expr.meta.root_names()})
    if not read or any(failing.schema[name].is_nested() for name in read):
        return failing, messages
    worded = failing.select(read).unique().rechunk().with_columns(
        **{f"__{name}": expr for name, expr in messages.items()})
    joined = failing.join(worded, on=read, how="left", nulls_equal=True,
                          maintain_order="left")
    return joined, {name: pl.col(f"__{name}") for name in messages}


def violations(frame: pl.LazyFrame, code: str | pl.Expr,
               message: Wording | Callable[[], Wording], **columns: pl.Expr) -> Found:
    """A rule's failing rows, to be shaped as violation rows with ``message`` (a plain
    expression: a message that is the same in every language, such as a reader's; a
    function: the message built only when the rule found rows)."""
    return Found(frame, code, message, columns)


def no_card_flags(fmt: Format, whitelist: bool) -> dict[str, pl.Expr]:
    """The ``card_flags`` of a rule that needs no card-level condition."""
    return {}
