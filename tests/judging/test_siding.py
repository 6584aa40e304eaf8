"""When side deck exchanges are allowed: one rule, asked by the command line and by the
judge's page alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from tests.web.helpers import LEGAL_PLAYER, csrf_token
from validator.cli import main
from validator.judging.siding import exchanges_allowed, stage_of
from validator.vocab import STAGES, Stage

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(("duel", "stage", "allowed"), [
    (None, "between-duels", False),
    (1, "between-duels", False),
    (1, "in-duel", False),
    (2, "between-duels", True),
    (2, "in-duel", True),
    (3, "in-duel", True),
    (2, "between-matches", False),  # the deck is restored for the next match's duel 1
    (2, "pre-event", True),
])
def test_exchanges_are_allowed_from_duel_two_while_the_match_is_on(
        duel: int | None, stage: Stage, allowed: bool) -> None:
    assert exchanges_allowed(duel, stage) is allowed


@pytest.mark.parametrize(("duel", "stage", "expected"), [
    (None, None, "pre-event"),
    (1, None, "pre-event"),
    (2, None, "between-duels"),  # duel 2 of a match is played after the players sided
    (3, None, "between-duels"),
    (2, "in-duel", "in-duel"),  # a stage given is kept
    (2, "pre-event", "pre-event"),
    (None, "between-matches", "between-matches"),
])
def test_a_duel_number_implies_between_duels_unless_a_stage_is_given(
        duel: int | None, stage: Stage | None, expected: Stage) -> None:
    assert stage_of(duel, stage) == expected


@pytest.mark.parametrize("command", ["check", "event"])
def test_duel_two_without_a_stage_is_checked_between_duels(command: str) -> None:
    registrations = str(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    decks = str(ROOT / "decks" / "tcg")
    words = (["check", decks, "--registrations", registrations] if command == "check"
             else ["event", registrations, "--decks", decks])
    result = CliRunner().invoke(main, [*words, "--cards", "demo", "--duel", "2", "--json", "-"])
    assert result.exit_code in (1, 2), result.output
    report = json.loads(result.stdout)
    assert report["stage"] == "between-duels"
    items = report["decks" if command == "check" else "players"]
    timings = {item["penalty"]["applies_to"] for item in items if item["penalty"]}
    assert timings
    assert not any("first duel" in timing for timing in timings)


def _swapped_deck() -> str:
    """The legal sample player's deck with one main deck card and one side deck card
    exchanged."""
    lines = (ROOT / "decks" / "tcg" / f"{LEGAL_PLAYER}.ydk").read_text().splitlines()
    side = lines.index("!side")
    first_main = next(i for i, line in enumerate(lines) if line.strip().isdigit())
    first_side = side + 1
    lines[first_main], lines[first_side] = lines[first_side], lines[first_main]
    assert lines[first_main] != lines[first_side]
    return "\n".join(lines) + "\n"


def _by_command_line(deck: Path, stage: Stage) -> tuple[bool, int]:
    """Whether the command line compared with exchanges allowed, and how many list
    mismatches it found."""
    result = CliRunner().invoke(main, [
        "check", str(deck), "--registrations", str(ROOT / "sample_decklists" / "regional-tcg.xlsx"),
        "--cards", "demo", "--duel", "2", "--stage", stage, "--json", "-"])
    # exit 2: the sample workbook holds unreadable rows of other players, on purpose
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    [found] = [d for d in report["decks"] if d["deck_id"] == LEGAL_PLAYER]
    mismatches = sum(v["code"] == "LIST_MISMATCH" for v in found["violations"])
    return report["comparison"] == "siding", mismatches


def _by_judge_page(client: TestClient, deck: str, stage: Stage) -> tuple[bool, int]:
    token = csrf_token(client, f"/judge/{LEGAL_PLAYER}")
    page = client.post(f"/judge/{LEGAL_PLAYER}/check", data={
        "csrf": token, "judge": "J", "round": "3", "duel": "2", "stage": stage,
        "deck_text": deck}).text
    mismatches = len(re.findall(r"<code>LIST_MISMATCH</code>", page))
    return "side deck exchanges allowed" in page, mismatches


@pytest.mark.parametrize("stage", [s for s in STAGES if s != "pre-event"])
def test_the_command_line_and_the_judge_page_compare_alike(
        sample: TestClient, tmp_path: Path, stage: Stage) -> None:
    deck = tmp_path / f"{LEGAL_PLAYER}.ydk"
    deck.write_text(_swapped_deck())
    by_cli = _by_command_line(deck, stage)
    by_page = _by_judge_page(sample, deck.read_text(), stage)
    assert by_cli == by_page
    allowed = exchanges_allowed(2, stage)
    assert by_cli[0] is allowed
    assert (by_cli[1] == 0) is allowed  # exchanged cards match only when exchanges count
