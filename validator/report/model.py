"""The judgement of a check or an event, made once: the report every formatter writes.

:func:`judged_check` (decks checked, alone or against their lists, or a judge's deck
check) and :func:`judged_event` (a whole event) call ``verdicts`` once for all decks
(players) and gather what a report says of each one — its status, violations, penalty, when
the penalty applies, the clauses it rests on, the remedies, the codes left to the head
judge, the head judge's decisions, the entries read fuzzily — beside the header facts
(format, list, card data, regulation, stage, duel, language), the problems, the warnings
and the counts. The JSON, terminal and workbook reports and the web pages only write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from validator.cards.banlist import list_line
from validator.engine.check import FEW_VIOLATIONS, CheckResult
from validator.errors import ImplementationError
from validator.judging.checking import DeckCheck
from validator.judging.penalties import Policy
from validator.judging.siding import exchanges_allowed
from validator.judging.verdicts import verdicts
from validator.text.i18n import say
from validator.vocab import ON_ENUM, STATUSES, Lang, Stage

if TYPE_CHECKING:
    from validator.errors import Problem
    from validator.event.run import EventResult
    from validator.judging.decisions import Decision
    from validator.judging.judge import JudgeCheck  # not imported by a check of deck files

__all__ = ["Comparison", "Header", "Report", "ReportKind", "Verdict", "compared_decks",
           "fuzzy_by_deck", "judged_check", "judged_event", "list_line_in", "localized",
           "status_counts", "with_lists"]

#: a check report (one item per deck) or an event report (one item per registered player)
ReportKind = Literal["check", "event"]
#: how decks met their lists: section by section, or allowing side deck exchanges
Comparison = Literal["sections", "siding"]


def list_line_in(name: str, effective: str | None, reason: str, lang: Lang) -> str:
    """A Forbidden/Limited list, its effective date and why it was chosen, in the language
    (the list's own name as it is)."""
    facts = [say(lang, "effective {date}", date=effective)] if effective else []
    if reason.startswith("in force on "):
        facts.append(say(lang, "in force on {day}", day=reason.removeprefix("in force on ")))
    elif reason in LIST_REASONS:
        facts.append(say(lang, reason))
    elif reason:
        facts.append(reason)
    return say(lang, "{name} ({facts})", name=name,
               facts=say(lang, "; ").join(facts)) if facts else name


def localized(violations: pl.DataFrame, lang: Lang) -> pl.DataFrame:
    """The violations with ``localized_message``: the message in the report's language (the
    English ``message`` stays, as the JSON contract has it)."""
    column = "message" if lang == "en" else f"message_{lang}"
    if column not in violations.columns:
        column = "message"
    if violations.height <= _LOCALIZED_IN_PYTHON and "localized_message" not in violations.columns:
        # a few (a judge's check, a page's): read in Python, without a polars pass
        english = violations.get_column("message").to_list()
        local = violations.get_column(column).to_list()
        return violations.hstack([pl.Series("localized_message", [
            text if text is not None else message for text, message in zip(
                local, english, strict=True)], dtype=violations.schema["message"])])
    return violations.with_columns(pl.coalesce(pl.col(column), pl.col("message"))
                                   .alias("localized_message"))


#: the most violations (or items) given their localized message, status or codes in Python
#: (a judge's check, a page's): as many as the engine reads in Python after a check
_LOCALIZED_IN_PYTHON = FEW_VIOLATIONS


#: why a list was chosen, as the card data loader says it (catalog entries)
LIST_REASONS = ("given by name", "the demo list: no card data imported")


@dataclass(frozen=True)
class Header:
    """What the decks were judged by, and the regulation's words a report repeats."""

    format: str  # the format's name
    format_title: str
    banlist: str
    cards: str
    regulation: str
    regulation_title: str
    regulation_title_local: str
    stage: Stage
    lang: Lang
    duel: int | None
    comparison: Comparison | None  # None: no deck was compared with a list
    no_clause: str  # said of codes the regulation prescribes no penalty for
    decide: str  # said where the head judge must decide first
    banlist_effective: str | None = None  # the day the list takes effect
    banlist_reason: str = ""  # why the list was chosen ("in force on 2025-06-15")
    format_title_in: str = ""  # the format's title in ``lang`` (when the data has one)
    regulation_title_in: str = ""  # the regulation's title in ``lang`` (not in English)

    @property
    def banlist_line(self) -> str:
        """The list, its effective date and why it was chosen, as reports name it."""
        return list_line(self.banlist, self.banlist_effective, self.banlist_reason)

    def banlist_line_in(self, lang: Lang) -> str:
        """``banlist_line`` in the language (the list's own name as it is)."""
        return list_line_in(self.banlist, self.banlist_effective, self.banlist_reason, lang)

    @property
    def siding(self) -> bool:
        """Side deck exchanges were allowed when decks met their lists."""
        return self.comparison == "siding"


@dataclass(frozen=True)
class Verdict:
    """What the regulation says of one deck (player) with violations."""

    penalty: str | None  # the penalty it prescribes (None: none prescribed)
    label: str | None  # the penalty's name in the report's language
    applies_to: str | None  # when the penalty applies, at the report's stage
    recorded: bool | None  # the penalty is officially recorded
    basis: list[str]  # the clauses it rests on
    remedies: list[str]
    head_judge: list[str]  # codes whose penalty the regulation leaves to the head judge


@dataclass(frozen=True)
class Report:
    """A judged check or event.

    ``items`` has one row per deck (``kind`` check: the engine's deck table) or per
    registered player (event: the event's player table), numbered by ``deck``; the other
    tables refer to that number.
    """

    kind: ReportKind
    header: Header
    items: pl.DataFrame
    violations: pl.DataFrame  # one row per violation, ``on`` the list or the deck
    verdicts: pl.DataFrame  # ``verdicts``' table: one row per item with violations
    fuzzy: dict[str, list[dict[str, Any]]]  # entries read fuzzily, by deck (player) id
    unresolved: pl.DataFrame  # entries of the lists that name no single card
    decisions: list[Decision]  # the head judge's decisions applied to the lists
    problems: list[Problem]  # what could not be read or matched
    warnings: list[Problem]
    unmatched_decks: list[str]  # decks that pair with no registered player
    players_without_deck: list[str]
    counts: dict[str, int]  # violations per code, in registry order
    statuses: dict[str, int]  # items per status

    @property
    def id_column(self) -> str:
        """The column of ``items`` that names each one: the deck's or the player's id."""
        return "deck_id" if self.kind == "check" else "player_id"

    @cached_property
    def _by_deck(self) -> dict[int, Verdict]:
        return {row.pop("deck"): Verdict(**row)
                for row in self.verdicts.iter_rows(named=True)}

    def verdict(self, deck: int) -> Verdict | None:
        """The verdict on item ``deck`` (None: it has no violations)."""
        return self._by_deck.get(deck)

    def status(self, deck: int) -> str:
        """legal, illegal, needs_decision or not_checked (a player whose deck, collected
        with the others, was not checked)."""
        if self.items.height <= _LOCALIZED_IN_PYTHON:  # a few: looked up in Python
            at = [n for n, number in enumerate(self.items.get_column("deck").to_list())
                  if number == deck]
            if len(at) == 1:
                return str(self.items.get_column("status")[at[0]])
        return str(self.items.filter(pl.col("deck") == deck)["status"].item())

    def codes(self, deck: int) -> list[str]:
        """The codes of item ``deck``'s violations, once each, in the order found."""
        if self.violations.height <= _LOCALIZED_IN_PYTHON:  # a few: read in Python
            found = [code for number, code in zip(
                self.violations.get_column("deck").to_list(),
                self.violations.get_column("code").to_list(), strict=True) if number == deck]
        else:
            found = self.violations.filter(pl.col("deck") == deck)["code"].to_list()
        return list(dict.fromkeys(found))

    def decided(self) -> dict[str, list[Decision]]:
        """The head judge's decisions by player id, in the order they were applied."""
        by_player: dict[str, list[Decision]] = {}
        for item in self.decisions:
            by_player.setdefault(item.player_id, []).append(item)
        return by_player


def status_counts(frame: pl.DataFrame) -> dict[str, int]:
    """How many decks (players) have each status: the one count every report's summary is
    derived from."""
    counted = dict(frame["status"].cast(pl.Utf8).value_counts().iter_rows())
    return {status: int(counted.get(status, 0)) for status in STATUSES}


def fuzzy_by_deck(*results: CheckResult | None, deck_id: str | None = None) -> dict[
        str, list[dict[str, Any]]]:
    """The entries read fuzzily, by deck id (only ``deck_id``'s when given): what was typed
    and the card it was read as."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    wanted = pl.col("how") == "fuzzy"
    if deck_id is not None:
        wanted &= pl.col("deck_id") == deck_id
    frames = [r.resolved.filter(wanted) for r in results
              if r is not None and not r.resolved.is_empty()]
    fuzzy = pl.concat(frames) if frames else pl.DataFrame()
    if fuzzy.is_empty():
        return grouped
    rows = fuzzy.select(
        "deck_id", pl.col("name").alias("typed"), "card",
        pl.col("section").cast(pl.Utf8), "file", "line", "cell", pl.lit(True).alias("fuzzy"))
    for row in rows.iter_rows(named=True):
        grouped.setdefault(row.pop("deck_id"), []).append(row)
    return grouped


def with_lists(result: CheckResult, lists: CheckResult | None) -> pl.DataFrame:
    """The decks' violations (``on`` = deck) and, when the lists were checked too, their
    lists' violations (``on`` = list) under the decks' numbers."""
    if lists is None and result.violations.get_column("deck").is_sorted():
        # the engine's violations are sorted by deck already: the column added, no pass
        return result.violations.hstack([pl.Series(
            "on", ["deck"] * result.violations.height, dtype=ON_ENUM)])
    frames = [result.violations.with_columns(pl.lit("deck").alias("on"))]
    if lists is not None:
        numbers = result.decks.select("deck_id", pl.col("deck").alias("number"))
        frames.append(lists.violations.join(numbers, on="deck_id", how="inner")
                      .with_columns(pl.col("number").alias("deck"), pl.lit("list").alias("on"))
                      .drop("number"))
    return pl.concat(frames).with_columns(pl.col("on").cast(ON_ENUM)).sort(
        "deck", "on", maintain_order=True)


def compared_decks(result: CheckResult) -> pl.Series:
    """The decks that were compared with a registered list."""
    return result.decks.filter(pl.col("compared"))["deck"]


def _header(result: CheckResult, policy: Policy, stage: Stage, lang: Lang, duel: int | None,
            comparison: Comparison | None) -> Header:
    return Header(result.format.name, result.format.title, result.banlist, result.cards,
                  policy.regulation, policy.title, policy.title_local, stage, lang, duel,
                  comparison, policy.text("no_clause", lang), policy.text("decision", lang),
                  result.banlist_effective, result.banlist_reason,
                  result.format.titles.get(lang, ""),
                  policy.title_in(lang) if lang != "en" else "")


def _unresolved(lists: CheckResult | None, like: CheckResult) -> pl.DataFrame:
    if lists is None:
        return like.resolved.clear()
    return lists.resolved.filter(pl.col("status") == "unresolved")


def _worded_in(lang: Lang, *results: CheckResult | None) -> None:
    """Refuse to judge in a language the violations' messages were not worded in (a check
    asked for other languages: ``engine.check.check(langs=...)``)."""
    for result in results:
        if result is not None and not result.worded_in(lang):
            raise ImplementationError(f"the messages were worded in English and "
                                      f"{', '.join(result.langs)}, not in {lang}")


def judged_check(checked: CheckResult | DeckCheck | JudgeCheck, policy: Policy, stage: Stage,
                 lang: Lang) -> Report:
    """The judgement of decks checked alone (a check result), against their players' lists
    (``check_decks``) or by a judge at the table (``judge_check``)."""
    lists: CheckResult | None = None
    problems: list[Problem] = []
    decisions: list[Decision] = []
    duel: int | None = None
    comparison: Comparison | None = None
    compared: bool | pl.Series = True  # a judge compares the one deck with its list
    if isinstance(checked, CheckResult):
        result = checked
        compared = compared_decks(result)
    elif isinstance(checked, DeckCheck):
        result, lists, duel = checked.result, checked.lists, checked.duel
        problems, decisions = checked.problems, checked.decisions
        if checked.compared:
            comparison = "siding" if exchanges_allowed(duel, stage) else "sections"
        compared = compared_decks(result)
    else:  # a judge's check
        result, duel = checked.result, checked.duel
        comparison = "siding" if checked.siding else "sections"
    _worded_in(lang, result, lists)
    violations = with_lists(result, lists)
    return Report(
        kind="check", header=_header(result, policy, stage, lang, duel, comparison),
        items=result.decks, violations=localized(violations, lang),
        verdicts=verdicts(violations, policy, stage, lang, compared=compared),
        fuzzy=fuzzy_by_deck(result, lists), unresolved=_unresolved(lists, result),
        decisions=decisions, problems=problems, warnings=list(result.warnings),
        unmatched_decks=[], players_without_deck=[], counts=result.counts(),
        statuses=status_counts(result.decks))


def judged_event(result: EventResult, policy: Policy, stage: Stage, lang: Lang) -> Report:
    """The judgement of a whole event: each registered player's list and deck together."""
    compared = result.deck_check is not None
    comparison: Comparison | None = None
    if compared:
        comparison = "siding" if result.siding else "sections"
    _worded_in(lang, result.list_check, result.deck_check)
    return Report(
        kind="event",
        header=_header(result.list_check, policy, stage, lang, result.duel, comparison),
        items=result.players, violations=localized(result.violations, lang),
        verdicts=verdicts(result.violations, policy, stage, lang, compared=compared),
        fuzzy=fuzzy_by_deck(result.list_check, result.deck_check),
        unresolved=_unresolved(result.list_check, result.list_check),
        decisions=result.decisions, problems=result.problems, warnings=result.warnings,
        unmatched_decks=result.unmatched_decks,
        players_without_deck=result.players_without_deck, counts=result.counts(),
        statuses=status_counts(result.players))
