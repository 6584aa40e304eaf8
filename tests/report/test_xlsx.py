"""The event workbook written from the report model, and the penalty log workbook."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import zipfile
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from openpyxl import load_workbook
from openpyxl.workbook.workbook import Workbook

from tests.deckbuild import FORBIDDEN, FUZZY, LEGAL, SHORT, UNSETTLED
from tests.report.test_penalty_log import entry
from validator.cards.load import Setup
from validator.errors import ImplementationError
from validator.event.run import EventResult, check_event
from validator.inputs.registrations.read import read_registration_files
from validator.judging.penalties import Policy
from validator.report.model import Report, judged_event
from validator.report.penalty_log import HEADER
from validator.report.style import FILLS, STATUS_FILLS
from validator.report.xlsx import event_xlsx, log_xlsx, write_event_xlsx
from validator.text.i18n import problem_text, say, term
from validator.vocab import Lang

WHEN = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)


def _book(report: Report) -> Workbook:
    return load_workbook(io.BytesIO(event_xlsx(report, WHEN)))


def _rows(book: Workbook, sheet: str) -> list[list[Any]]:
    return [[c.value for c in row] for row in book[sheet].iter_rows()]


def _players(book: Workbook) -> dict[str, dict[str, Any]]:
    header, *rows = _rows(book, "Players")
    return {row[0]: dict(zip(header, row, strict=True)) for row in rows}


def test_the_summary_gives_the_header_facts_and_counts(judged_players: Report,
                                                       th: Policy) -> None:
    book = _book(judged_players)
    assert book.sheetnames == ["Summary", "Players", "Violations", "Penalties", "Unresolved",
                               "Decisions", "Problems"]
    facts = {row[0]: row[1] for row in _rows(book, "Summary") if row[0]}
    assert facts["Format"] == "Advanced Format (TCG)"
    assert facts["Forbidden/Limited list"] == (
        "Demo 2026.05 TCG (effective 2026-05-01; the demo list: no card data imported)")
    assert facts["Regulation"] == f"{th.title} ({th.title_local})"
    assert (facts["Players"], facts["Legal"], facts["Illegal"]) == (6, 2, 3)
    assert facts["Needs a head judge's decision"] == 1
    assert facts["Problems (unreadable rows, unmatched decks)"] == 1
    assert facts["Generated at"] == WHEN.isoformat()
    assert facts["LIST_MISMATCH"] == 10


def test_a_row_per_player_with_the_models_verdict(judged_players: Report, th: Policy) -> None:
    players = _players(_book(judged_players))
    assert list(players) == judged_players.items["player_id"].to_list()
    short = players[SHORT]
    assert (short["Status"], short["List legal"], short["Deck legal"]) == (
        "Illegal", "yes", "no")
    assert short["Penalty"] == "Duel Forfeiture"
    assert short["Applies to"] == th.applies_to("DUEL_FORFEITURE", "pre-event", "en")
    assert short["Remedies"] == "\n".join([th.remedies["match_list"].en,
                                           "Add 1 Raigeki to the main deck, as registered."])
    assert (players[LEGAL]["Penalty"], players[LEGAL]["Remedies"]) == (None, None)
    assert players[UNSETTLED]["Status"] == "Needs a decision"
    assert players[UNSETTLED]["Penalty"] == th.text("decision", "en")
    fuzzy = players[FUZZY]["Read fuzzily"]
    assert isinstance(fuzzy, str)
    assert fuzzy.startswith("Infinite Impermenance → Infinite Impermanence (")


def test_violations_unresolved_names_and_problems(judged_players: Report) -> None:
    book = _book(judged_players)
    violations = _rows(book, "Violations")[1:]
    assert len(violations) == judged_players.violations.height
    assert [FORBIDDEN, "list", "FORBIDDEN_CARD"] in [v[0:1] + v[2:4] for v in violations]
    [unresolved] = _rows(book, "Unresolved")[1:]
    assert unresolved[:4] == [UNSETTLED, "Eve Kim", "Ash Blosom", 1]
    assert "Ash Blossom & Joyous Spring" in str(unresolved[6])
    problems = _rows(book, "Problems")[1:]
    assert [(p[0], p[3]) for p in problems] == [(p.file, p.code)
                                                for p in sorted(judged_players.problems)]


def test_a_penalty_slip_per_illegal_player(judged_players: Report) -> None:
    slips = [str(v) for row in _rows(_book(judged_players), "Penalties") for v in row if v]
    titles = [s for s in slips if s.startswith("Penalty: ")]
    assert titles == ["Penalty: Duel Forfeiture"] * 3


def test_the_workbook_writes_what_the_model_says(judged_players: Report) -> None:
    changed = dataclasses.replace(
        judged_players,
        verdicts=judged_players.verdicts.with_columns(
            pl.when(pl.col("penalty").is_not_null()).then(pl.lit("Stern talk")).alias("label")),
        header=dataclasses.replace(judged_players.header, decide="Ask the head judge."))
    players = _players(_book(changed))
    assert players[SHORT]["Penalty"] == "Stern talk"
    assert players[UNSETTLED]["Penalty"] == "Ask the head judge."


def test_the_workbook_is_byte_stable_and_written_whole(judged_players: Report,
                                                       tmp_path: Path) -> None:
    assert event_xlsx(judged_players, WHEN) == event_xlsx(judged_players, WHEN)
    target = tmp_path / "out" / "report.xlsx"
    write_event_xlsx(judged_players, target, WHEN)
    assert target.read_bytes() == event_xlsx(judged_players, WHEN)
    assert not (tmp_path / "out" / "report.xlsx.part").exists()
    with zipfile.ZipFile(target) as archive:
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_a_check_is_not_an_event_workbook(judged: Report) -> None:
    with pytest.raises(ImplementationError):
        event_xlsx(judged)


def test_the_penalty_log_workbook() -> None:
    entries = [entry(1, "P1", ["LIST_MISMATCH"], "2026-12-05T10:00:00+00:00"),
               entry(2, "P1", ["LIST_MISMATCH"], "2026-12-05T11:30:00+00:00")]
    content = log_xlsx(entries)
    assert content == log_xlsx(entries)
    rows = _rows(load_workbook(io.BytesIO(content)), "Penalty log")
    assert rows[0] == HEADER
    assert [r[0] for r in rows[1:]] == [1, 2]
    assert rows[2][HEADER.index("Repeat of")] == "LIST_MISMATCH"  # the second repeats the first
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        core = archive.read("docProps/core.xml").decode()
    assert "2026-12-05T11:30:00Z" in core


@pytest.mark.parametrize("lang", ["ja", "ko", "th"])
def test_the_workbook_is_written_in_the_event_s_language(event: EventResult, th: Policy,
                                                         lang: Lang) -> None:
    book = _book(judged_event(event, th, "pre-event", lang))
    assert book.sheetnames == [term(lang, "sheet", s) for s in (
        "Summary", "Players", "Violations", "Penalties", "Unresolved", "Decisions",
        "Problems")]
    header, *rows = _rows(book, term(lang, "sheet", "Violations"))
    assert header[10:12] == [say(lang, "Message"), say(lang, "Message in the report's language")]
    forbidden = [row for row in rows if row[3] == "FORBIDDEN_CARD"]
    assert forbidden
    for row in forbidden:
        assert row[11] != row[10]  # the English message, then the message in the language
    slips = [str(v) for row in _rows(book, term(lang, "sheet", "Penalties")) for v in row if v]
    assert any(s.startswith(term(lang, "slip", "Penalty") + ": ") for s in slips)
    assert term(lang, "slip", "Judge signature") in slips
    violations = next(s for s in slips if "FORBIDDEN_CARD" in s)
    assert "is Forbidden" not in violations


def test_the_problems_sheet_is_written_in_the_report_s_language(setup: Setup,
                                                                th: Policy) -> None:
    lists = read_registration_files([Path("lists.csv")], [
        b"Player ID,Player Name,Section,Qty,Card Name\n"
        b"P1,Ana,Main,three,Raigeki\nP1,Ana,Main,3,Pot of Greed\n,,Main,1,Raigeki\n"])
    report = judged_event(check_event(lists, None, setup), th, "pre-event", "ja")
    problems = _rows(_book(report), term("ja", "sheet", "Problems"))[1:]
    ordered = sorted(report.problems)
    assert [p[4] for p in problems] == [problem_text(p, "ja") for p in ordered]
    said = [(row[4], p.message) for row, p in zip(problems, ordered, strict=True) if p.msgid]
    assert said
    assert all(written != message for written, message in said)


def test_the_sheets_keep_their_styles_widths_and_layout(judged_players: Report) -> None:
    book = _book(judged_players)
    players = book["Players"]
    rows = judged_players.items.height
    header = players["A1"]
    assert (header.font.b, header.fill.fgColor.rgb, header.alignment.wrap_text,
            header.alignment.vertical) == (True, FILLS["header"].fgColor.rgb, True, "center")
    fills = [players.cell(row=r, column=3).fill.fgColor.rgb for r in range(2, rows + 2)]
    assert fills == [STATUS_FILLS[s].fgColor.rgb for s in judged_players.items["status"]]
    remedies = players.cell(row=2 + judged_players.items["status"].to_list().index("illegal"),
                            column=13)
    assert (remedies.alignment.wrap_text, remedies.alignment.vertical) == (True, "top")
    assert (players.freeze_panes, players.auto_filter.ref) == ("A2", f"A1:N{rows + 1}")
    assert players.column_dimensions["M"].width == 60  # asked for 70, at most 60
    assert players.column_dimensions["A"].width == max(
        len(str(v)) for v in ["Player ID", *judged_players.items["player_id"]]) + 2
    summary = book["Summary"]
    assert (summary["A1"].font.b, summary["A1"].font.sz) == (True, 14)
    assert (summary["A3"].font.b, summary["B3"].font.b) == (True, False)
    assert summary.column_dimensions["A"].width == 46
    slips = book["Penalties"]
    illegal = judged_players.statuses["illegal"]
    assert len(slips.row_breaks.brk) == illegal
    assert (slips.column_dimensions["A"].width, slips.column_dimensions["B"].width) == (18, 90)
    assert (slips["A1"].font.b, slips["A1"].font.sz) == (True, 13)
    assert (slips["A2"].font.b, slips["B2"].border.bottom.style,
            slips["B2"].alignment.wrap_text) == (True, "thin", True)
    fit = slips.sheet_properties.pageSetUpPr
    assert fit is not None
    assert (slips.page_setup.orientation, fit.fitToPage) == ("portrait", True)


def test_user_text_that_looks_like_a_formula_stays_text(judged_players: Report) -> None:
    named = dataclasses.replace(judged_players, items=judged_players.items.with_columns(
        pl.lit("=HYPERLINK(\"x\")").alias("player_name")))
    cell = _book(named)["Players"]["B2"]
    assert (cell.value, cell.data_type) == ("=HYPERLINK(\"x\")", "s")
