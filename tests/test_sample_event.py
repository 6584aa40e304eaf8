"""The shipped sample events: golden JSON, the XLSX report, and the problems placed on purpose."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bench.sample_event import ALT_ART, FUZZY, JAPANESE, KOREAN, NO_DECK, PROBLEMS, player_id
from validator.event import EventResult, run_event
from validator.formats import load_format
from validator.penalties import load_policy
from validator.report_event import event_json, write_event_xlsx
from validator.setup import load_banlist
from validator.store import demo_cards

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
    cards = demo_cards()
    fmt = load_format(fmt_name)
    return run_event(Path(registrations), cards=cards, fmt=fmt,
                     banlist=load_banlist(None, None, fmt, cards), decks=Path(decks))


@pytest.mark.parametrize("name", EVENTS)
def test_golden_json(name: str) -> None:
    got = event_json(_run(name), load_policy("th"), "pre-event", "en")
    expected_file = EXPECTED / f"{name}.json"
    if os.environ.get("DECKCHECK_UPDATE_GOLDEN") == "1":
        expected_file.write_text(json.dumps(got, ensure_ascii=False, indent=2) + "\n")
    expected = json.loads(expected_file.read_text())
    assert got == expected


def test_tcg_illegal_players_are_exactly_the_planted_problems() -> None:
    result = _run("regional-tcg")
    illegal = set(result.players.filter(~result.players["legal"])["player_id"].to_list())
    assert illegal == {player_id(i) for i in PROBLEMS}
    legal = set(result.players.filter(result.players["legal"])["player_id"].to_list())
    # an alternate artwork, Japanese and Korean names, and a near-identical typo are all fine
    assert {player_id(i) for i in (ALT_ART, JAPANESE, KOREAN, FUZZY, NO_DECK)} <= legal
    assert result.players_without_deck == [player_id(NO_DECK)]
    assert result.unmatched_decks == ["0499999999"]


def test_rush_legend_pairs() -> None:
    result = _run("rush-cup")
    illegal = result.players.filter(~result.players["legal"])["player_id"].to_list()
    assert illegal == ["R1003", "R1011"]
    codes = set(result.violations["code"].to_list())
    assert codes == {"LEGEND_LIMIT_EXCEEDED"}


def test_unreadable_registration_row_is_in_the_report(tmp_path: Path) -> None:
    result = _run("regional-tcg")
    target = tmp_path / "report.xlsx"
    write_event_xlsx(result, load_policy("th"), "pre-event", "en", target)
    workbook = load_workbook(target)
    problems = [[c.value for c in row] for row in workbook["Problems"].iter_rows(min_row=2)]
    unreadable = [p for p in problems if p[3] and "'three'" in str(p[3])]
    assert unreadable == [["sample_decklists/regional-tcg.xlsx", 17,
                           f"{player_id(48)}!A17", "quantity 'three' is not a number 1-99"]]


def test_xlsx_report_sheets_player_and_remedy(tmp_path: Path) -> None:
    target = tmp_path / "report.xlsx"
    write_event_xlsx(_run("regional-tcg"), load_policy("th"), "pre-event", "en", target)
    workbook = load_workbook(target)
    assert workbook.sheetnames == ["Summary", "Players", "Violations", "Penalties",
                                   "Unresolved", "Problems"]
    players = workbook["Players"]
    assert players.freeze_panes == "A2"
    assert players.auto_filter.ref
    rows = {r[0].value: r for r in players.iter_rows(min_row=2)}
    forbidden = rows[player_id(18)]  # the Pot of Greed in the side deck
    assert forbidden[2].value == "Illegal"
    assert forbidden[2].fill.fgColor.rgb.endswith("FFC7CE")
    assert "Remove the inappropriate cards" in forbidden[12].value
    assert rows[player_id(0)][2].value == "Legal"
    violations = [[c.value for c in r] for r in workbook["Violations"].iter_rows(min_row=2)]
    assert [player_id(18), "list", "FORBIDDEN_CARD"] in [[v[0], v[2], v[3]] for v in violations]
    unresolved = [[c.value for c in r] for r in workbook["Unresolved"].iter_rows(min_row=2)]
    assert unresolved[0][2] == "Ash Blosom"
    assert "Ash Blossom & Joyous Spring" in unresolved[0][6]
    slips = "\n".join(str(c.value) for r in workbook["Penalties"].iter_rows() for c in r
                      if c.value)
    assert slips.count("Penalty: Duel Forfeiture") == len(PROBLEMS)
    summary = {r[0].value: r[1].value for r in workbook["Summary"].iter_rows() if r[0].value}
    assert (summary["Players"], summary["Illegal"]) == (64, len(PROBLEMS))


def test_report_is_byte_stable(tmp_path: Path) -> None:
    result = _run("regional-tcg")
    when = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.UTC)
    first, second = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    write_event_xlsx(result, load_policy("th"), "pre-event", "en", first, when)
    write_event_xlsx(_run("regional-tcg"), load_policy("th"), "pre-event", "en", second, when)
    assert first.read_bytes() == second.read_bytes()


def test_formula_like_text_is_written_as_text(tmp_path: Path) -> None:
    from validator.template import KonamiSheet, write_konami_workbook

    registrations = tmp_path / "r.xlsx"
    write_konami_workbook(registrations, [KonamiSheet(
        "=cmd|' /C calc'!A0", "1", blocks={"monster": [(3, "=1+1"), (3, "@SUM(A1)")]})])
    cards = demo_cards()
    fmt = load_format("advanced-tcg")
    result = run_event(registrations, cards=cards, fmt=fmt,
                       banlist=load_banlist(None, None, fmt, cards))
    target = tmp_path / "report.xlsx"
    write_event_xlsx(result, load_policy("th"), "pre-event", "en", target)
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
