"""Whole events: decks paired with players as organizers name them, empty decks checked."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from click.testing import CliRunner

from validator.cards.load import load
from validator.cli import main
from validator.event.run import EventResult, run_event

LIST = "3 Raigeki\n"


def _event(tmp_path: Path, rows: list[str], decks: dict[str, str]) -> Path:
    (tmp_path / "lists.csv").write_text(
        "KONAMI ID,Full name,Section,Qty,Card Name\n" + "".join(f"{r}\n" for r in rows),
        encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    for name, text in decks.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _run(tmp_path: Path, folder: Path) -> EventResult:
    setup = load("advanced-tcg", "demo")
    return run_event(tmp_path / "lists.csv", setup, decks=folder)


def test_decks_pair_by_id_as_typed_and_by_player_name(tmp_path: Path) -> None:
    folder = _event(tmp_path, ["401357911,Ana Sato,Main,3,Raigeki",
                               "0400000002,Jordan Lee,Main,3,Raigeki",
                               "0400000003,Kim Min,Main,3,Raigeki"],
                    {"0401357911.ydk": "#main\n12580477\n12580477\n12580477\n",
                     "Jordan Lee.YDK": "#main\n12580477\n12580477\n12580477\n",
                     "Somebody Else.ydk": "#main\n12580477\n"})
    result = _run(tmp_path, folder)
    players = result.players.select(
        "player_id", "deck_source").rows()
    assert players == [("0401357911", str(folder / "0401357911.ydk")),
                       ("0400000002", str(folder / "Jordan Lee.YDK")),
                       ("0400000003", None)]
    stray = [p for p in result.problems if p.code == "UNMATCHED_DECK"]
    assert [p.file for p in stray] == [str(folder / "Somebody Else.ydk")]
    assert "closest:" in stray[0].message  # the closest players are suggested


def test_an_empty_deck_in_a_folder_is_in_the_report(tmp_path: Path) -> None:
    folder = _event(tmp_path, ["0400000001,Ana Sato,Main,3,Raigeki"],
                    {"0400000001.ydk": ""})
    result = _run(tmp_path, folder)
    violations = result.violations.filter(pl.col("on") == "deck")
    assert "MAIN_TOO_SMALL" in violations["code"].to_list()
    small = violations.filter(pl.col("code") == "MAIN_TOO_SMALL").row(0, named=True)
    assert small["count"] == 0


def test_an_empty_deck_alone_is_checked(tmp_path: Path) -> None:
    empty = tmp_path / "0400000001.ydk"
    empty.write_text("#created by nobody\n#main\n#extra\n!side\n")
    result = CliRunner().invoke(main, ["check", str(empty), "--cards", "demo", "--json", "-"])
    assert result.exit_code == 1
    assert '"MAIN_TOO_SMALL"' in result.output
    link = tmp_path / "0400000002.ydke"
    link.write_text("ydke://!!!\n")
    linked = CliRunner().invoke(main, ["check", str(link), "--cards", "demo", "--json", "-"])
    assert '"MAIN_TOO_SMALL"' in linked.output


def test_an_empty_deck_folder_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "lists.csv").write_text("KONAMI ID,Qty,Card Name\n1,3,Raigeki\n")
    (tmp_path / "decks").mkdir()
    result = CliRunner().invoke(main, ["event", str(tmp_path / "lists.csv"), "--decks",
                                       str(tmp_path / "decks"), "--cards", "demo", "--report",
                                       str(tmp_path / "r.xlsx")])
    assert result.exit_code == 2
    assert "NO_DECK_FILES" in result.output



def test_a_player_whose_deck_was_not_checked_is_not_checked_unless_illegal(
        tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent.parent
    lists = root / "sample_decklists" / "regional-tcg.xlsx"
    folder = tmp_path / "decks"
    folder.mkdir()
    legal = "0400009220"  # a legal list, its deck submitted
    (folder / f"{legal}.ydk").write_bytes((root / "decks" / "tcg" / f"{legal}.ydk").read_bytes())
    (folder / "0400001301.ydk").write_bytes(b"\x00\xff not text")  # a legal list
    setup = load("advanced-tcg", "demo")
    result = run_event(lists, setup, decks=folder)
    status = dict(result.players.select("player_id", pl.col("status").cast(pl.Utf8)).rows())
    source = dict(result.players.select("player_id", "deck_source").rows())
    assert status[legal] == "legal"
    assert status["0400001301"] == "not_checked"  # its file could not be read
    assert source["0400001301"] == str(folder / "0400001301.ydk")
    assert status["0400262628"] == "not_checked"  # no deck submitted
    assert source["0400262628"] is None
    assert status["0400025058"] == "illegal"  # a Limited card over its limit on the list
    assert not result.players.filter(pl.col("status") != "legal")["legal"].any()
    no_deck = {p.file for p in result.problems if p.code == "NO_DECK"}
    assert str(folder / "0400001301.ydk") in no_deck
    # without decks collected, the lists alone are judged: nobody is "not checked"
    alone = run_event(lists, setup)
    assert "not_checked" not in alone.players["status"].cast(pl.Utf8).to_list()
