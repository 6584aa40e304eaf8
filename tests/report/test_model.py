"""The report model: a check or an event judged once — statuses, penalties, timing,
remedies, the head judge's codes, fuzzy readings, header facts and problems."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from tests.conftest import shared_path
from tests.deckbuild import (
    FORBIDDEN,
    FUZZY,
    LEGAL,
    NO_LIST,
    SHORT,
    SWAPPED,
    UNSETTLED,
)
from tests.report.conftest import Checked, deck_of
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import Setup
from validator.engine.check import check
from validator.event.run import EventResult, check_event
from validator.inputs.decks.batch import DeckFiles, read_deck_paths
from validator.inputs.registrations.read import Registrations
from validator.judging.decisions import Decision
from validator.judging.judge import found_deck, judge_check, registered_lines
from validator.judging.penalties import Policy, load_policy
from validator.judging.verdicts import verdicts
from validator.report import model
from validator.report.model import Report, Verdict, judged_check, judged_event
from validator.vocab import Lang


def _verdict(report: Report, item_id: str) -> Verdict | None:
    return report.verdict(deck_of(report, item_id))


def _status(report: Report, item_id: str) -> str:
    return report.status(deck_of(report, item_id))


def test_the_header_says_what_the_decks_were_judged_by(judged: Report, th: Policy) -> None:
    header = judged.header
    assert judged.kind == "check"
    assert (header.format, header.format_title) == ("advanced-tcg", "Advanced Format (TCG)")
    assert (header.banlist, header.cards) == ("Demo 2026.05 TCG", "demo")
    assert (header.regulation, header.regulation_title) == ("th", th.title)
    assert header.regulation_title_local == th.title_local
    assert (header.stage, header.lang, header.duel) == ("pre-event", "en", 1)
    assert (header.comparison, header.siding) == ("sections", False)
    assert header.no_clause == th.text("no_clause", "en")
    assert header.decide == th.text("decision", "en")


def test_each_deck_gets_its_status_penalty_timing_clauses_and_remedies(
        judged: Report, th: Policy) -> None:
    assert judged.statuses == {"legal": 3, "illegal": 3, "needs_decision": 1, "not_checked": 0}
    assert [_status(judged, p) for p in (LEGAL, FUZZY, NO_LIST)] == ["legal"] * 3
    assert _verdict(judged, LEGAL) is None
    assert judged.codes(deck_of(judged, LEGAL)) == []
    short = _verdict(judged, SHORT)
    assert short is not None
    assert _status(judged, SHORT) == "illegal"
    assert (short.penalty, short.label) == ("DUEL_FORFEITURE", "Duel Forfeiture")
    assert short.applies_to == th.applies_to("DUEL_FORFEITURE", "pre-event", "en")
    assert short.recorded is False
    assert short.basis == [f"th {th.codes[code].clause}"
                           for code in ("MAIN_TOO_SMALL", "LIST_MISMATCH")]
    assert short.remedies == [th.remedies["match_list"].en,
                              "Add 1 Raigeki to the main deck, as registered."]
    assert short.head_judge == []
    assert judged.codes(deck_of(judged, SHORT)) == ["MAIN_TOO_SMALL", "LIST_MISMATCH"]


def test_a_list_that_is_itself_illegal_is_the_head_judges_to_fix(judged: Report,
                                                                  th: Policy) -> None:
    verdict = _verdict(judged, FORBIDDEN)
    assert verdict is not None
    assert verdict.penalty == "DUEL_FORFEITURE"
    assert verdict.remedies == [th.remedies["list_illegal"].en]
    mine = judged.violations.filter(pl.col("deck") == deck_of(judged, FORBIDDEN))
    assert mine.select(pl.col("on").cast(pl.Utf8), "code").rows() == [
        ("list", "FORBIDDEN_CARD"), ("deck", "FORBIDDEN_CARD")]


def test_an_entry_only_the_head_judge_can_settle(judged: Report, th: Policy) -> None:
    assert _status(judged, UNSETTLED) == "needs_decision"
    verdict = _verdict(judged, UNSETTLED)
    assert verdict is not None
    assert (verdict.penalty, verdict.head_judge) == (None, [])
    assert verdict.remedies == [th.remedies["decide"].en]
    assert judged.unresolved.select("deck_id", "name").rows() == [(UNSETTLED, "Ash Blosom")]


def test_fuzzy_readings_and_problems(judged: Report) -> None:
    assert list(judged.fuzzy) == [FUZZY]
    [reading] = judged.fuzzy[FUZZY]
    assert (reading["typed"], reading["card"], reading["section"]) == (
        "Infinite Impermenance", "Infinite Impermanence", "main")
    assert [(p.file, p.code) for p in judged.problems] == [(f"{NO_LIST}.ydk", "UNMATCHED_DECK")]
    assert judged.counts == {"MAIN_TOO_SMALL": 1, "FORBIDDEN_CARD": 1, "LIST_MISMATCH": 10}


def test_from_duel_two_the_comparison_allows_siding(checked: Checked, th: Policy) -> None:
    report = judged_check(checked(2), th, "between-duels", "en")
    assert (report.header.duel, report.header.comparison, report.header.siding) == (
        2, "siding", True)
    assert _status(report, SWAPPED) == "legal"
    assert _verdict(report, SWAPPED) is None
    short = _verdict(report, SHORT)
    assert short is not None
    assert short.applies_to == th.applies_to("DUEL_FORFEITURE", "between-duels", "en")


def test_a_check_is_judged_only_in_the_languages_its_messages_were_worded_in(
        setup: Setup, inputs: tuple[Registrations, DeckFiles], th: Policy) -> None:
    from validator.errors import ImplementationError
    from validator.judging.checking import check_decks

    korean = check_decks(inputs[1], setup, registrations=inputs[0], langs=("ko",))
    assert korean.result.violations.height > 0
    worded: tuple[Lang, ...] = ("en", "ko")  # English is always worded
    for lang in worded:
        assert judged_check(korean, th, "pre-event", lang).header.lang == lang
    others: tuple[Lang, ...] = ("ja", "th")
    for lang in others:
        with pytest.raises(ImplementationError, match=f"not in {lang}"):
            judged_check(korean, th, "pre-event", lang)
    assert korean.lists is not None
    assert korean.lists.langs == ("ko",)  # the lists too


def test_decks_alone(setup: Setup, inputs: tuple[Registrations, DeckFiles],
                     th: Policy) -> None:
    result = check(inputs[1].entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                   deck_ids=inputs[1].ids)
    report = judged_check(result, th, "pre-event", "en")
    assert (report.header.duel, report.header.comparison) == (None, None)
    assert set(report.violations["on"].cast(pl.Utf8).to_list()) == {"deck"}
    assert report.unresolved.is_empty()
    assert (report.problems, report.decisions) == ([], [])
    forbidden = _verdict(report, FORBIDDEN)
    assert forbidden is not None
    assert forbidden.remedies == [th.remedy("FORBIDDEN_CARD", "en")]


@pytest.mark.parametrize(("stage", "duel", "siding"), [
    ("in-duel", 2, True), ("between-duels", 2, True), ("between-matches", 2, False),
    ("in-duel", 1, False)])
def test_a_judges_deck_check(setup: Setup, event: EventResult, th: Policy, stage: Any,
                             duel: int, siding: bool) -> None:
    """A deck found one Raigeki short of the list, judged at the table."""
    registered = event.entries.filter(pl.col("deck_id") == SHORT)
    counts = {(line.section, line.key): line.qty or 0
              for line in registered_lines(registered, setup.cards, setup.fmt)
              if line.key is not None}
    counts["main", 12580477] -= 1  # Raigeki
    checked = judge_check(SHORT, found_deck(SHORT, counts, []), registered, cards=setup.cards,
                          fmt=setup.fmt, banlist=setup.banlist, stage=stage, duel=duel)
    report = judged_check(checked, th, stage, "en")
    assert report.header.siding is siding
    assert report.header.duel == duel
    deck = int(report.items["deck"].item())
    verdict = report.verdict(deck)
    assert verdict is not None
    assert report.status(deck) == "illegal"
    assert verdict.penalty == "DUEL_FORFEITURE"
    assert verdict.applies_to == th.applies_to("DUEL_FORFEITURE", stage, "en")
    assert "LIST_MISMATCH" in report.codes(deck)
    assert verdict.remedies[0] == th.remedies["match_list"].en


def test_an_event_is_judged_player_by_player(judged_players: Report, th: Policy) -> None:
    report = judged_players
    assert report.kind == "event"
    assert report.id_column == "player_id"
    assert (report.header.duel, report.header.comparison) == (None, "sections")
    assert report.items.height == 6
    assert report.statuses == {"legal": 2, "illegal": 3, "needs_decision": 1, "not_checked": 0}
    assert report.unmatched_decks == [NO_LIST]
    assert report.players_without_deck == []
    swapped = _verdict(report, SWAPPED)  # no duel: sided cards are a mismatch
    assert swapped is not None
    assert swapped.penalty == "DUEL_FORFEITURE"
    forbidden = _verdict(report, FORBIDDEN)
    assert forbidden is not None
    assert forbidden.remedies == [th.remedies["list_illegal"].en]
    assert list(report.fuzzy) == [FUZZY]


def test_an_event_without_decks_and_with_a_decision(setup: Setup,
                                                    inputs: tuple[Registrations, DeckFiles],
                                                    th: Policy) -> None:
    where = judged_event(check_event(inputs[0], None, setup), th, "pre-event", "en") \
        .unresolved.row(0, named=True)
    decided = Decision(UNSETTLED, where["cell"] or str(where["line"]),
                       "Ash Blossom & Joyous Spring", "Mai", "typo")
    report = judged_event(check_event(inputs[0], None, setup, decisions=[decided]), th,
                          "pre-event", "en")
    assert report.header.comparison is None
    assert report.unresolved.is_empty()
    assert _status(report, UNSETTLED) == "legal"
    assert [d.card for d in report.decided()[UNSETTLED]] == ["Ash Blossom & Joyous Spring"]
    forbidden = _verdict(report, FORBIDDEN)  # no deck: the list's own remedy
    assert forbidden is not None
    assert forbidden.remedies == [th.remedy("FORBIDDEN_CARD", "en")]


def test_the_verdicts_are_made_once(monkeypatch: pytest.MonkeyPatch, checked: Checked,
                                    event: EventResult, th: Policy) -> None:
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> pl.DataFrame:
        calls.append(1)
        return verdicts(*args, **kwargs)

    monkeypatch.setattr(model, "verdicts", counted)
    report = judged_check(checked(1), th, "pre-event", "en")
    assert len(calls) == 1
    judged_event(event, th, "pre-event", "en")
    assert len(calls) == 2
    # asking the model again judges nothing again
    for _ in range(2):
        assert report.verdict(deck_of(report, SHORT)) is not None
    assert len(calls) == 2


def test_the_language_and_regulation_of_the_judgement(checked: Checked) -> None:
    ja = load_policy("ja")
    report = judged_check(checked(1), ja, "in-duel", "ja")
    short = _verdict(report, SHORT)
    assert short is not None
    # the ja regulation has no clause for a small deck, one for a mismatch
    assert short.head_judge == ["MAIN_TOO_SMALL"]
    assert short.label == ja.penalty_name("DUEL_FORFEITURE", "ja")
    assert report.header.no_clause == ja.text("no_clause", "ja")


def test_real_decks_with_the_real_data(real_db: CardDB, tcg_list: Banlist) -> None:
    """Every windbot deck against the real TCG list: a deck has a verdict exactly when it
    is not legal, and every verdict has a remedy."""
    files = read_deck_paths([shared_path("decks", "windbot")])
    result = check(files.entries, cards=real_db, fmt=load_format("advanced-tcg"),
                   banlist=tcg_list, deck_ids=files.ids)
    report = judged_check(result, load_policy("th"), "pre-event", "en")
    assert report.items.height == len(list(Path(shared_path("decks", "windbot")).glob(
        "*.ydk")))
    judged = 0
    for deck, status in report.items.select("deck", pl.col("status").cast(pl.Utf8)).rows():
        verdict = report.verdict(deck)
        assert (verdict is None) == (status == "legal")
        if verdict is not None:
            judged += 1
            assert verdict.remedies
    assert judged == report.statuses["illegal"] + report.statuses["needs_decision"] > 0
    albaz = _verdict(report, "AI_Albaz")
    assert albaz is not None
    assert albaz.penalty == "DUEL_FORFEITURE"


def test_the_reports_judge_nothing_again(monkeypatch: pytest.MonkeyPatch, judged: Report,
                                         judged_players: Report) -> None:
    """Once judged, the JSON, terminal and workbook reports only write the model."""
    from validator.judging import verdicts as judging
    from validator.report.json import report_bytes
    from validator.report.text import text_lines
    from validator.report.xlsx import event_xlsx

    def written() -> tuple[object, ...]:
        return (report_bytes(judged), report_bytes(judged_players),
                text_lines(judged, every_deck=True), text_lines(judged_players, every_deck=True),
                event_xlsx(judged_players, dt.datetime(2026, 12, 5, tzinfo=dt.UTC)))

    def refused(*args: Any, **kwargs: Any) -> pl.DataFrame:
        raise AssertionError("judged again")

    before = written()
    monkeypatch.setattr(model, "verdicts", refused)
    monkeypatch.setattr(judging, "verdicts", refused)
    assert written() == before


def test_a_few_items_read_in_python_get_the_statuses_codes_and_messages_of_polars(
        judged: Report, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report's status, codes and localized messages of a few items, looked up in Python,
    are those polars finds."""
    def read(limit: int) -> tuple[list[str], list[list[str]], list[pl.DataFrame]]:
        monkeypatch.setattr(model, "_LOCALIZED_IN_PYTHON", limit)
        decks = judged.items["deck"].drop_nulls().to_list()
        return ([judged.status(d) for d in decks], [judged.codes(d) for d in decks],
                [model.localized(judged.violations.drop("localized_message", strict=False),
                                 lang) for lang in ("en", "ja", "ko", "th")])

    python, planned = read(10_000), read(-1)
    assert python[0] == planned[0]
    assert "illegal" in python[0]
    assert python[1] == planned[1]
    assert any(python[1])
    for found, expected in zip(python[2], planned[2], strict=True):
        assert found.height > 0
        assert found.equals(expected)
