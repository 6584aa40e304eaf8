"""The shipped sample events: golden JSON, the XLSX report, and the problems placed on purpose."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from openpyxl import load_workbook

from bench.sample_event import ALT_ART, FUZZY, JAPANESE, KOREAN, NO_DECK, PROBLEMS, player_id
from validator.cards.load import load
from validator.cli import main
from validator.event.run import EventResult, run_event
from validator.judging.penalties import load_policy
from validator.report import json as json_report
from validator.report.json import report_bytes, report_dict
from validator.report.model import Report, judged_event
from validator.report.xlsx import write_event_xlsx

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = ROOT / "sample_decklists" / "expected"
EVENTS = {
    "regional-tcg": ("sample_decklists/regional-tcg.xlsx", "decks/tcg", "advanced-tcg"),
    "rush-cup": ("sample_decklists/rush-cup.csv", "decks/rush", "rush"),
}


@pytest.fixture(autouse=True)
def _at_root() -> Iterator[None]:
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


def _run(name: str) -> EventResult:
    registrations, decks, fmt_name = EVENTS[name]
    return run_event(Path(registrations), load(fmt_name, "demo"), decks=Path(decks))


def _judged(result: EventResult) -> Report:
    return judged_event(result, load_policy("th"), "pre-event", "en")


def _golden(name: str, got: bytes) -> None:
    """``got`` is byte for byte the golden file (``json.dumps(..., ensure_ascii=False,
    indent=2)`` plus a newline, as the contract has always been written)."""
    expected_file = EXPECTED / f"{name}.json"
    if os.environ.get("DECKCHECK_UPDATE_GOLDEN") == "1":
        expected_file.write_bytes(got)
    expected = expected_file.read_bytes()
    assert got == expected
    assert got.decode() == json.dumps(json.loads(expected), ensure_ascii=False, indent=2) + "\n"


#: players (decks) per piece of a report's array: as written, and small enough that the
#: sample events are written in many pieces (more than are built at once)
PIECES = [json_report._PIECE, 5]


@pytest.mark.parametrize("piece", PIECES)
@pytest.mark.parametrize("name", EVENTS)
def test_golden_json(name: str, piece: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("validator.report.json._PIECE", piece)
    _golden(name, report_bytes(_judged(_run(name))))


@pytest.mark.parametrize("piece", PIECES)
@pytest.mark.parametrize("duel", [1, 2])
def test_golden_check_json(duel: int, piece: int, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``deckcheck check`` of the sample decks against their lists: the report's bytes."""
    monkeypatch.setattr("validator.report.json._PIECE", piece)
    monkeypatch.chdir(ROOT)
    registrations, decks, fmt = EVENTS["regional-tcg"]
    out = tmp_path / "report.json"
    ran = CliRunner().invoke(main, [
        "check", decks, "--registrations", registrations, "--format", fmt, "--cards", "demo",
        "--duel", str(duel), "--date", "2026-12-05", "--json", str(out), "--quiet"])
    assert ran.exit_code == 2, ran.output  # the sample has rows and a deck it reports
    _golden(f"check-regional-tcg-duel{duel}", out.read_bytes())


def test_tcg_illegal_players_are_exactly_the_planted_problems() -> None:
    result = _run("regional-tcg")
    illegal = set(result.players.filter(~result.players["legal"])["player_id"].to_list())
    # the player without a deck is not legal: their deck was not checked
    assert illegal == {player_id(i) for i in (*PROBLEMS, NO_DECK)}
    unchecked = result.players.filter(pl.col("status") == "not_checked")["player_id"]
    assert unchecked.to_list() == [player_id(NO_DECK)]
    legal = set(result.players.filter(result.players["legal"])["player_id"].to_list())
    # an alternate artwork, Japanese and Korean names, and a near-identical typo are all fine
    assert {player_id(i) for i in (ALT_ART, JAPANESE, KOREAN, FUZZY)} <= legal
    assert result.players_without_deck == [player_id(NO_DECK)]
    assert result.unmatched_decks == ["0499999999"]


#: the sample players whose lists hold an entry only the head judge can settle
DECISIONS = {23: "Ash Blosom", 48: "three"}


def test_players_with_unsettled_entries_need_a_decision_and_get_no_penalty() -> None:
    result = _run("regional-tcg")
    report = report_dict(_judged(result))
    players = {p["player_id"]: p for p in report["players"]}
    for index in DECISIONS:
        player = players[player_id(index)]
        assert player["status"] == "needs_decision"
        assert player["legal"] is False
        assert player["penalty"] is None
        assert player["remedies"] == [load_policy("th").remedies["decide"].en]
        held = [v for v in player["violations"] if not v["decision"]]
        assert held
        assert all(v["held"] for v in held)  # the list-dependent verdicts wait
    assert report["statuses"] == {"legal": 52, "illegal": 9, "needs_decision": 2,
                                  "not_checked": 1}


def _decided(tmp_path: Path, rows: str) -> Path:
    path = tmp_path / "decisions.csv"
    path.write_text("player_id,where,card,qty,decided_by,reason\n" + rows, encoding="utf-8")
    return path


def test_a_decision_settles_the_entry_and_the_report_shows_it(tmp_path: Path) -> None:
    from validator.judging.decisions import read_decisions

    ash, three = player_id(23), player_id(48)
    decisions = read_decisions(_decided(tmp_path, (
        f"{ash},{ash}!B9,Ash Blossom & Joyous Spring,,Head judge Mai,obvious typo\n"
        f"{three},{three}!A17,Infinite Impermanence,3,Head judge Mai,written 'three'\n")))
    registrations, decks, fmt_name = EVENTS["regional-tcg"]
    result = run_event(Path(registrations), load(fmt_name, "demo"), decks=Path(decks),
                       decisions=decisions)
    status = dict(result.players.select("player_id", pl.col("status").cast(pl.Utf8)).rows())
    assert (status[ash], status[three]) == ("legal", "legal")
    report = report_dict(_judged(result))
    assert [(d["player_id"], d["typed"], d["card"]) for d in report["decisions"]] == [
        (ash, "Ash Blosom", "Ash Blossom & Joyous Spring"),
        (three, "quantity 'three' is not a number 1-99", "Infinite Impermanence")]
    players = {p["player_id"]: p for p in report["players"]}
    assert players[ash]["decisions"][0]["decided_by"] == "Head judge Mai"
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_judged(result), target)
    rows = [[c.value for c in r] for r in load_workbook(target)["Decisions"].iter_rows(
        min_row=2)]
    assert [r[0] for r in rows] == [ash, three]
    assert rows[0][3:7] == ["Ash Blosom", "Ash Blossom & Joyous Spring", None, "Head judge Mai"]


def test_a_decision_that_matches_nothing_is_reported(tmp_path: Path) -> None:
    from validator.judging.decisions import read_decisions

    decisions = read_decisions(_decided(tmp_path, "0400000000,Z99,Raigeki,,Mai,typo\n"))
    registrations, _, fmt_name = EVENTS["regional-tcg"]
    result = run_event(Path(registrations), load(fmt_name, "demo"), decisions=decisions)
    assert [(p.file, p.line, p.column) for p in result.problems
            if p.code == "UNMATCHED_DECISION"] == [("decisions", 2, "where")]


def test_rush_legend_pairs() -> None:
    result = _run("rush-cup")
    illegal = result.players.filter(~result.players["legal"])["player_id"].to_list()
    assert illegal == ["R1003", "R1011"]
    codes = set(result.violations["code"].to_list())
    assert codes == {"LEGEND_LIMIT_EXCEEDED"}


def test_unreadable_registration_row_is_in_the_report(tmp_path: Path) -> None:
    result = _run("regional-tcg")
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_judged(result), target)
    workbook = load_workbook(target)
    problems = [[c.value for c in row] for row in workbook["Problems"].iter_rows()]
    assert problems[0][:4] == ["File", "Row/line", "Where", "Code"]
    unreadable = [p[:4] for p in problems if p[3] == "BAD_QUANTITY"]
    assert unreadable == [["sample_decklists/regional-tcg.xlsx", 17, f"{player_id(48)}!A17",
                           "BAD_QUANTITY"]]
    assert [p[3] for p in problems[1:]] == ["NO_DECK", "UNMATCHED_DECK", "BAD_QUANTITY"]


def test_xlsx_report_sheets_player_and_remedy(tmp_path: Path) -> None:
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_judged(_run("regional-tcg")), target)
    workbook = load_workbook(target)
    assert workbook.sheetnames == ["Summary", "Players", "Violations", "Penalties",
                                   "Unresolved", "Decisions", "Problems"]
    players = workbook["Players"]
    assert players.freeze_panes == "A2"
    assert players.auto_filter.ref
    rows = {r[0].value: r for r in players.iter_rows(min_row=2)}
    forbidden = rows[player_id(18)]  # the Pot of Greed in the side deck
    assert forbidden[2].value == "Illegal"
    assert forbidden[2].fill.fgColor.rgb.endswith("FFC7CE")
    # a Forbidden card on the list itself: the head judge decides how list and deck are fixed
    note = forbidden[12].value
    assert isinstance(note, str)
    assert "the head judge decides how the deck list and the deck" in note
    assert rows[player_id(0)][2].value == "Legal"
    violations = [[c.value for c in r] for r in workbook["Violations"].iter_rows(min_row=2)]
    assert [player_id(18), "list", "FORBIDDEN_CARD"] in [[v[0], v[2], v[3]] for v in violations]
    unresolved = [[c.value for c in r] for r in workbook["Unresolved"].iter_rows(min_row=2)]
    assert unresolved[0][2] == "Ash Blosom"
    candidates = unresolved[0][6]
    assert isinstance(candidates, str)
    assert "Ash Blossom & Joyous Spring" in candidates
    slips = "\n".join(str(c.value) for r in workbook["Penalties"].iter_rows() for c in r
                      if c.value)
    # the two players waiting for the head judge's decision get no penalty slip
    assert slips.count("Penalty: Duel Forfeiture") == len(PROBLEMS) - len(DECISIONS)
    summary = {r[0].value: r[1].value for r in workbook["Summary"].iter_rows() if r[0].value}
    assert (summary["Players"], summary["Illegal"]) == (64, len(PROBLEMS) - len(DECISIONS))
    assert summary["Needs a head judge's decision"] == len(DECISIONS)


def test_report_is_byte_stable(tmp_path: Path) -> None:
    result = _run("regional-tcg")
    when = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)
    first, second = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    write_event_xlsx(_judged(result), first, when)
    write_event_xlsx(_judged(_run("regional-tcg")), second, when)
    assert first.read_bytes() == second.read_bytes()


def test_formula_like_text_is_written_as_text(tmp_path: Path) -> None:
    from validator.sheets.workbook import KonamiSheet, write_konami_workbook

    registrations = tmp_path / "r.xlsx"
    write_konami_workbook(registrations, [KonamiSheet(
        "=cmd|' /C calc'!A0", "1", blocks={"monster": [(3, "=1+1"), (3, "@SUM(A1)")]})])
    result = run_event(registrations, load("advanced-tcg", "demo"))
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_judged(result), target)
    workbook = load_workbook(target)
    cells = [c for ws in workbook for row in ws.iter_rows() for c in row
             if isinstance(c.value, str) and c.value.startswith(("=", "@"))]
    assert cells
    assert all(c.data_type == "s" for c in cells)


def test_readme_explains_every_illegal_player() -> None:
    readme = (ROOT / "README.md").read_text()
    for index in PROBLEMS:
        assert f"| {player_id(index)} " in readme
    for index in (ALT_ART, JAPANESE, KOREAN, FUZZY, NO_DECK):
        assert player_id(index) in readme
    assert "| R1003 " in readme
    assert "| R1011 " in readme


def test_a_fuzzy_reading_is_marked_in_json_and_workbook(tmp_path: Path) -> None:
    result = _run("regional-tcg")
    report = report_dict(_judged(result))
    player = next(p for p in report["players"] if p["player_id"] == player_id(FUZZY))
    assert player["fuzzy"] == [{"typed": "Infinite Impermenance",
                                "card": "Infinite Impermanence", "section": "main",
                                "file": "sample_decklists/regional-tcg.xlsx", "line": 8,
                                "cell": f"{player_id(FUZZY)}!F8", "fuzzy": True}]
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_judged(result), target)
    sheet = load_workbook(target)["Players"]
    header = [c.value for c in sheet[1]]
    column = header.index("Read fuzzily")
    rows = {r[0].value: r[column].value for r in sheet.iter_rows(min_row=2)}
    fuzzy = rows[player_id(FUZZY)]
    assert isinstance(fuzzy, str)
    assert fuzzy.startswith("Infinite Impermenance → Infinite Impermanence")


def test_the_event_report_carries_the_lists_warnings(tmp_path: Path) -> None:
    """A list entry no card matches is a warning of the check report and of the event report
    (JSON and the workbook's summary) alike."""
    registrations, decks, fmt_name = EVENTS["regional-tcg"]
    listing = tmp_path / "list.lflist.conf"
    listing.write_text("#[Demo list with a stray entry]\n!Demo list\n$whitelist\n"
                       "999999991 0 --no such card\n")

    result = run_event(Path(registrations), load(fmt_name, "demo", str(listing)),
                       decks=Path(decks))
    warnings = report_dict(_judged(result))["warnings"]
    assert any("999999991" in w for w in warnings)
    assert warnings == [str(w) for w in result.list_check.warnings]
    write_event_xlsx(_judged(result), tmp_path / "r.xlsx")
    summary = load_workbook(tmp_path / "r.xlsx")["Summary"]
    assert [c.value for c in summary["A"] if c.value in warnings] == warnings
