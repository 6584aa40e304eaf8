"""The command line: help everywhere, exit codes, JSON on stdout, errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import polars as pl
import pytest
from click.testing import CliRunner
from openpyxl import load_workbook

from tests.conftest import shared_path
from tests.deckbuild import real_filler
from validator.cards.banlist import Banlist, read_list_file
from validator.cards.load import load
from validator.cards.store import load_store
from validator.cli import FAILED, main
from validator.engine.check import check
from validator.errors import SHOWN
from validator.inputs.decks.batch import read_deck_paths
from validator.vocab import Lang

ROOT = Path(__file__).resolve().parent.parent


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*prefix, name)))
    return found


def _options(words: tuple[str, ...]) -> list[click.Option]:
    """The options of the command ``deckcheck WORDS``."""
    command: click.Command = main
    for word in words:
        assert isinstance(command, click.Group)
        command = command.commands[word]
    return [p for p in command.params if isinstance(p, click.Option)]


@pytest.mark.parametrize("words", _commands(main), ids=" ".join)
def test_every_command_has_help_with_an_example(words: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*words, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output
    for option in _options(words):
        assert option.help, f"{' '.join(words)} {option.opts[0]} has no help text"


def test_an_option_of_several_commands_has_one_help_text() -> None:
    """--cards, --format, --banlist, --data-dir, --lang ... mean the same in every command."""
    helps: dict[str, set[str | None]] = {}
    for words in _commands(main):
        for option in _options(words):
            helps.setdefault(option.opts[0], set()).add(option.help)
    shared = {name for name in helps if name in ("--cards", "--format", "--banlist",
                                                 "--list", "--data-dir", "--lang", "--json")}
    assert len(shared) == 7
    assert {name: texts for name, texts in helps.items() if len(texts) > 1} == {}


def _ydk(path: Path, main_cards: Sequence[int], extra: Sequence[int] = (),
         side: Sequence[int] = ()) -> Path:
    path.write_text("#main\n" + "".join(f"{c}\n" for c in main_cards) + "#extra\n"
                    + "".join(f"{c}\n" for c in extra) + "!side\n"
                    + "".join(f"{c}\n" for c in side))
    return path


def _legal_main() -> list[int]:
    # 40 cards of the demo pool that the demo TCG list does not limit
    codes = [14558127, 97268402, 10045474, 12580477, 5318639, 40605147, 38033121, 46986414,
             89631139, 70781052, 44095762, 53129443, 14087893, 40044918]
    return [c for c in codes for _ in range(3)][:40]


def test_check_exit_codes_and_json(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "good.ydk", _legal_main())
    runner = CliRunner()
    ok = runner.invoke(main, ["check", str(decks), "--json", "-"])
    assert ok.exit_code == 0, ok.output
    payload = json.loads(ok.stdout)
    assert payload["summary"] == {"decks": 1, "legal": 1, "illegal": 0, "violations_by_code": {}}
    assert payload["decks"][0]["penalty"] is None
    _ydk(decks / "bad.ydk", _legal_main()[:39], side=[55144522])
    bad = runner.invoke(main, ["check", str(decks), "--json", str(tmp_path / "r.json")])
    assert bad.exit_code == 1
    report = json.loads((tmp_path / "r.json").read_text())
    verdicts = {d["deck_id"]: d for d in report["decks"]}
    assert [v["code"] for v in verdicts["bad"]["violations"]] == ["MAIN_TOO_SMALL",
                                                                   "FORBIDDEN_CARD"]
    penalty = verdicts["bad"]["penalty"]
    assert penalty["type"] == "DUEL_FORFEITURE"
    assert penalty["recorded"] is False  # only the ko regulation says penalties are recorded
    assert len(penalty["remedies"]) == 2
    assert "ILLEGAL" in bad.output


def test_a_report_written_again_is_exactly_the_new_one(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "good.ydk", _legal_main())
    target = tmp_path / "r.json"
    target.write_bytes(b"x" * 200_000)  # an older, longer report
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(decks), "--json", str(target)]).exit_code == 0
    first = target.read_bytes()
    assert json.loads(first)["summary"]["decks"] == 1  # nothing of the old one is left
    _ydk(decks / "bad.ydk", _legal_main()[:39], side=[55144522])
    assert runner.invoke(main, ["check", str(decks), "--json", str(target)]).exit_code == 1
    longer = target.read_bytes()
    assert len(longer) > len(first)
    assert json.loads(longer)["summary"]["decks"] == 2
    (decks / "bad.ydk").unlink()
    assert runner.invoke(main, ["check", str(decks), "--json", str(target)]).exit_code == 0
    assert target.read_bytes() == first  # the shorter one again, cut to its length


def test_a_report_is_written_over_the_old_file_not_emptied_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator import cli

    target = tmp_path / "r.json"
    target.write_bytes(b"old report " * 1000)
    inode = target.stat().st_ino
    flags: list[int] = []
    real_open = os.open

    def recording(path: Any, flag: int, *args: Any) -> int:
        flags.append(flag)
        return real_open(path, flag, *args)

    monkeypatch.setattr(os, "open", recording)
    cli._write_over(target, [b"new", b" one"])
    assert target.read_bytes() == b"new one"
    assert target.stat().st_ino == inode
    assert flags
    assert not flags[0] & os.O_TRUNC


def test_a_report_that_fails_midway_ends_where_its_new_content_does(tmp_path: Path) -> None:
    from validator import cli

    target = tmp_path / "r.json"
    target.write_bytes(b"o" * 100_000)

    def pieces() -> Any:
        yield b"{\n  \"a\": 1"
        raise OSError("no space left")

    with pytest.raises(OSError, match="no space"):
        cli._write_over(target, pieces())
    assert target.read_bytes() == b"{\n  \"a\": 1"  # as a truncating open would leave it


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_a_report_to_a_device_or_a_new_file(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "good.ydk", _legal_main())
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(decks), "--json", "/dev/null"]).exit_code == 0
    new = tmp_path / "out" / "new.json"
    assert runner.invoke(main, ["check", str(decks), "--json", str(new)]).exit_code == 0
    assert json.loads(new.read_bytes())["summary"]["legal"] == 1
    umask = os.umask(0)
    os.umask(umask)
    assert new.stat().st_mode & 0o777 == 0o666 & ~umask  # as a file Python opens for writing


def test_a_check_to_a_pipe_tells_its_problems_and_warnings_before_the_decks(
        tmp_path: Path) -> None:
    """Both streams to one pipe (``2>&1 | less``): the problems and warnings come first,
    then the decks, as ever, though the decks' text is written while the JSON is."""
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "short.ydk", _legal_main()[:39])
    (decks / "broken.ydk").write_text("#main\nnot a passcode\n")
    target = tmp_path / "r.json"
    program = str(Path(sys.executable).with_name("deckcheck"))
    done = subprocess.run([program, "check", str(decks), "--cards", "demo", "--json",
                           str(target)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    assert done.returncode == 2, done.stdout
    lines = done.stdout.splitlines()
    told = [at for at, line in enumerate(lines) if line.startswith(("error:", "warning:"))]
    heads = [at for at, line in enumerate(lines) if line.startswith(("short  (", "broken  ("))]
    assert told
    assert len(heads) == 2
    assert max(told) < min(heads)
    assert json.loads(target.read_text())["summary"]["decks"] == 2


def test_a_deck_file_without_a_card_read_keeps_its_file(tmp_path: Path) -> None:
    """An empty deck file and one of unreadable lines only: each deck names its file in the
    JSON report and heads its own block in the text."""
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "good.ydk", _legal_main())
    (decks / "empty.ydk").write_bytes(b"")
    (decks / "broken.ydk").write_text("#main\nnot a passcode\n")
    target = tmp_path / "r.json"
    ran = CliRunner().invoke(main, ["check", str(decks), "--cards", "demo", "--json",
                                    str(target)])
    assert ran.exit_code == 2, ran.output
    sources = {d["deck_id"]: d["source"] for d in json.loads(target.read_text())["decks"]}
    assert sources == {name: str(decks / f"{name}.ydk") for name in ("good", "empty", "broken")}
    heads = [line for line in ran.stdout.splitlines() if line.startswith(("empty", "broken"))]
    assert [line.split("  ")[:2] for line in heads] == [
        ["broken", f"({decks / 'broken.ydk'})"], ["empty", f"({decks / 'empty.ydk'})"]]


def test_check_stage_and_language(tmp_path: Path) -> None:
    deck = _ydk(tmp_path / "d.ydk", _legal_main()[:39])
    result = CliRunner().invoke(main, ["check", str(deck), "--json", "-", "--stage", "in-duel",
                                       "--lang", "ja", "--regulation", "th"])
    penalty = json.loads(result.stdout)["decks"][0]["penalty"]
    assert penalty["applies_to"] == "進行中のデュエル"
    assert penalty["label"] == "デュエルの敗北"
    assert penalty["remedies"] == ["デッキに適切なカードを加え、40枚にする。"]
    # the ja regulation's copy has no clause for a small deck: the head judge decides
    ja = CliRunner().invoke(main, ["check", str(deck), "--json", "-", "--lang", "ja",
                                   "--regulation", "ja"])
    verdict = json.loads(ja.stdout)["decks"][0]
    assert verdict["penalty"] is None
    assert verdict["status"] == "illegal"
    assert verdict["head_judge"] == ["MAIN_TOO_SMALL"]
    assert verdict["remedies"] == ["デッキに適切なカードを加え、40枚にする。"]


def test_the_language_does_not_choose_the_regulation(tmp_path: Path) -> None:
    deck = _ydk(tmp_path / "d.ydk", _legal_main()[:39])
    by_lang = {}
    for lang in ("en", "ja", "ko", "th"):
        ran = CliRunner().invoke(main, ["check", str(deck), "--json", "-", "--lang", lang])
        report = json.loads(ran.stdout)
        assert (report["regulation"], report["lang"]) == ("th", lang)
        (violation,) = report["decks"][0]["violations"]
        assert violation["message"] == "Main deck has 39 cards; at least 40 are required"
        by_lang[lang] = violation["localized_message"]
    assert by_lang == {"en": "Main deck has 39 cards; at least 40 are required",
                       "ja": "メインデッキが39枚です。40枚以上必要です",
                       "ko": "메인 덱이 39장입니다. 40장 이상이어야 합니다",
                       "th": "เมนเด็คมี 39 ใบ ต้องมีอย่างน้อย 40 ใบ"}
    text = CliRunner().invoke(main, ["check", str(deck), "--lang", "ja"])
    assert "  MAIN_TOO_SMALL メインデッキが39枚です。40枚以上必要です" in text.output
    assert "デッキ1個：適正0、不適正1、ヘッドジャッジの判断待ち0" in text.output


@pytest.mark.parametrize("with_lists", [False, True])
@pytest.mark.parametrize("lang", ["en", "ja", "ko", "th"])
def test_a_check_report_in_one_language_is_that_of_a_check_in_every_language(
        tmp_path: Path, lang: Lang, with_lists: bool) -> None:
    from validator.inputs.registrations.read import read_registrations
    from validator.judging.checking import check_decks
    from validator.judging.penalties import load_policy
    from validator.report.json import report_bytes
    from validator.report.model import judged_check

    decks, out = ROOT / "decks" / "tcg", tmp_path / "r.json"
    lists = ROOT / "sample_decklists" / "regional-tcg.xlsx"
    # with the lists: the decks of registered players compared with them, the others alone
    (tmp_path / "decks").mkdir()
    for deck in decks.glob("*.ydk"):
        (tmp_path / "decks" / deck.name).write_bytes(deck.read_bytes())
    (tmp_path / "decks" / "Nobody Registered.ydk").write_bytes(
        next(decks.glob("*.ydk")).read_bytes())
    folder = tmp_path / "decks" if with_lists else decks
    ran = CliRunner().invoke(main, ["check", str(folder), "--cards", "demo", "--lang", lang,
                                    "--json", str(out), "--quiet",
                                    *(["--registrations", str(lists)] if with_lists else [])])
    # with the lists: decks of no player and a row of the sample lists are problems (2)
    assert ran.exit_code == (2 if with_lists else 1), ran.output
    every = check_decks(read_deck_paths([folder]), load("advanced-tcg", "demo"),
                        registrations=read_registrations(lists) if with_lists else None)
    assert every.result.violations.height > 0
    assert (every.lists is not None) == with_lists
    assert out.read_bytes() == report_bytes(
        judged_check(every, load_policy("th"), "pre-event", lang))


def test_bad_deck_file_is_reported_and_others_checked(tmp_path: Path) -> None:
    _ydk(tmp_path / "good.ydk", _legal_main())
    (tmp_path / "broken.ydk").write_text("#main\nnot a passcode\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--json", "-"])
    assert result.exit_code == 2
    assert "broken.ydk:2" in result.stderr
    # the broken deck is still a deck: its unreadable line waits for the head judge
    decks = {d["deck_id"]: d for d in json.loads(result.stdout)["decks"]}
    assert decks["good"]["status"] == "legal"
    assert decks["broken"]["status"] == "needs_decision"
    assert [v["code"] for v in decks["broken"]["violations"] if not v["held"]] == [
        "UNREADABLE_ROW"]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["check", "/nonexistent"],
    ["check", ".", "--format", "no-such"],
    ["check", ".", "--banlist", "/nonexistent.conf"],
    ["data", "import", "/nonexistent.json"],
])
def test_bad_input_exits_2_with_a_message(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "error" in result.output.lower()
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_wrong_format_is_told_before_a_missing_deck_folder() -> None:
    """The format and card data are loaded while the decks are read: their error still
    comes first, as it did when they were loaded before."""
    result = CliRunner().invoke(main, ["check", "/nonexistent", "--format", "no-such"])
    assert result.exit_code == 2
    assert "no-such: UNKNOWN_FORMAT" in result.output
    assert "FILE_MISSING" not in result.output


def test_data_import_and_info(tmp_path: Path) -> None:
    runner = CliRunner()
    imported = runner.invoke(main, ["data", "import", str(shared_path("cdb", "cards-rush.cdb")),
                                    "--data-dir", str(tmp_path)])
    assert imported.exit_code == 0, imported.output
    info = runner.invoke(main, ["data", "info", "--data-dir", str(tmp_path)])
    assert "3,478" in info.output


def test_imports_accumulate_and_the_real_list_becomes_the_default(tmp_path: Path) -> None:
    runner = CliRunner()
    store_dir = ["--data-dir", str(tmp_path / "store")]
    for source in (shared_path("ygojson", "cards.json"), shared_path("cdb", "cards-rush.cdb"),
                   shared_path("lflist", "0TCG.lflist.conf")):
        done = runner.invoke(main, ["data", "import", str(source), *store_dir])
        assert done.exit_code == 0, done.output
    info = runner.invoke(main, ["data", "info", *store_dir], terminal_width=200)
    for shown in ("cards.json", "14,370", "2025-11-07", "cards-rush.cdb", "3,478",
                  "2026.05 TCG", "0TCG.lflist.conf", "2026-05"):
        assert shown in info.output, shown
    # AI_Albaz runs 3 Maxx "C", Forbidden on the 2026.05 TCG list
    albaz = str(shared_path("decks", "windbot", "AI_Albaz.ydk"))
    checked = runner.invoke(main, ["check", albaz, "--json", "-", *store_dir])
    assert checked.exit_code == 1, checked.output
    report = json.loads(checked.stdout)
    assert report["banlist"] == "2026.05 TCG"
    assert any(v["code"] == "FORBIDDEN_CARD" and v["card"] == 'Maxx "C"'
               for v in report["decks"][0]["violations"])
    # the card data is older than the list: unknown passcodes say so
    unknown = [v["message"] for v in report["decks"][0]["violations"]
               if v["code"] == "UNKNOWN_CARD"]
    assert unknown
    assert all("card data dated 2025-11-07 is older than list 2026.05 TCG" in m
               for m in unknown)
    # importing a source of the same name again replaces it; remove drops it
    again = runner.invoke(main, ["data", "import", str(shared_path("cdb", "cards-rush.cdb")),
                                 *store_dir], terminal_width=200)
    assert again.output.count("cards-rush.cdb") == 1
    removed = runner.invoke(main, ["data", "remove", "cards-rush.cdb", *store_dir],
                            terminal_width=200)
    assert removed.exit_code == 0
    assert "cards-rush.cdb" not in removed.output.split("Removed", 1)[1].split("\n", 1)[1]
    assert "cards.json" in removed.output


def test_real_cards_without_a_real_list_are_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    store_dir = ["--data-dir", str(tmp_path / "store")]
    runner.invoke(main, ["data", "import", str(shared_path("cdb", "cards-rush.cdb")),
                         *store_dir])
    deck = str(shared_path("decks", "windbot", "AI_Albaz.ydk"))
    result = runner.invoke(main, ["check", deck, "--format", "rush", *store_dir])
    assert result.exit_code == 2
    assert f"{tmp_path / 'store'}: NO_LIST" in result.output
    assert "deckcheck data import Rush.lflist.conf" in result.output  # the list to import
    demo_list = ROOT / "banlists" / "lists" / "demo-rush.lflist.conf"
    explicit = runner.invoke(main, ["check", deck, "--format", "rush", "--banlist",
                                    str(demo_list), *store_dir])
    assert explicit.exit_code == 2
    assert f"{demo_list}: DEMO_LIST" in explicit.output


def test_template_reads_back_empty(tmp_path: Path) -> None:
    target = tmp_path / "t.xlsx"
    result = CliRunner().invoke(main, ["template", str(target), "--players", "3"])
    assert result.exit_code == 0
    from validator.inputs.registrations.read import read_registrations

    reg = read_registrations(target)
    # a blank template is no player: each sheet is skipped and reported
    assert reg.players.height == 0
    assert reg.entries.is_empty()
    assert [p.code for p in reg.problems] == ["BLANK_LIST"] * 3


def test_template_keeps_the_id_cell_as_text(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    target = tmp_path / "t.xlsx"
    CliRunner().invoke(main, ["template", str(target)])
    sheet = load_workbook(target).active
    assert sheet is not None
    assert sheet["D3"].value == "KONAMI ID"
    assert sheet["E3"].number_format == "@"


def test_check_of_3000_files_on_a_terminal(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A long check on a terminal: progress bars on stderr, the summary first, then only
    the decks that are not legal; with --quiet, nothing but the exit status."""
    import io

    from rich.console import Console

    import validator.cli as cli

    decks = tmp_path / "decks"
    decks.mkdir()
    legal = _legal_main()
    illegal = {f"p{i:04d}" for i in range(0, 3000, 97)}
    for i in range(3000):
        name = f"p{i:04d}"
        _ydk(decks / f"{name}.ydk", legal[:30] if name in illegal else legal)
    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, width=100))
    ran = CliRunner().invoke(main, ["check", str(decks), "--cards", "demo"])
    assert ran.exit_code == 1, ran.output
    assert "Reading deck files" in screen.getvalue()
    assert "Checking decks" in screen.getvalue()
    lines = ran.output.splitlines()
    assert lines[2] == f"3000 decks: {3000 - len(illegal)} legal, {len(illegal)} illegal, " \
                      "0 need a head judge's decision"
    listed = {line.split()[0] for line in lines if line.startswith("p")}
    assert listed == illegal
    assert lines[-1] == lines[2]  # a long listing ends with the counts again
    screen.truncate(0)
    quiet = CliRunner().invoke(main, ["check", str(decks), "--cards", "demo", "--quiet"])
    assert (quiet.exit_code, quiet.output) == (1, "")
    # on stderr only the warning that the demo pool was used
    said = [line for line in screen.getvalue().replace("\x00", "").splitlines() if line]
    assert len(said) >= 1
    assert said[0].startswith("warning: card data: ")
    assert "demo card pool" in " ".join(said)


def test_check_and_event_refuse_a_folder_without_deck_files_alike(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("no decks here\n")
    workbook = str(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    runs = [CliRunner().invoke(main, ["check", str(tmp_path), "--cards", "demo"]),
            CliRunner().invoke(main, ["event", workbook, "--decks", str(tmp_path), "--cards",
                                      "demo", "--report", str(tmp_path / "r.xlsx")])]
    for run in runs:
        assert run.exit_code == 2
        assert f"{tmp_path}: NO_DECK_FILES no deck files found (.ydk, .ydke, .omega, .txt, " \
            ".zip)" in run.stderr


def test_problems_past_the_screen_are_counted(tmp_path: Path) -> None:
    for i in range(SHOWN + 5):  # none is UTF-8: one problem each
        (tmp_path / f"04000{i:05d}.ydk").write_bytes(b"#main\n\xff\xfe\xfa\n")
    run = CliRunner().invoke(main, ["check", str(tmp_path), "--cards", "demo", "--quiet"])
    assert run.exit_code == 2
    assert run.stderr.count("error:") == SHOWN
    assert "… and 5 more problems" in run.stderr


def test_convert_a_folder_to_omega_and_back(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    main_cards = [14558127] * 3 + [1225009] * 3 + [2511] * 34
    _ydk(decks / "1001.ydk", main_cards, [2857636], [14558127])
    _ydk(decks / "1002.ydk", main_cards[:-1], [2857636, 2857636])
    runner = CliRunner()
    result = runner.invoke(main, ["convert", str(decks), "--to", "omega", "--out",
                                  str(tmp_path / "omega"), "--cards", "demo"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "omega").iterdir()) == ["1001.omega",
                                                                      "1002.omega"]
    back = runner.invoke(main, ["convert", str(tmp_path / "omega" / "1001.omega"), "--to",
                                "ydk", "--cards", "demo"])
    assert back.exit_code == 0, back.output
    assert back.stdout == (decks / "1001.ydk").read_text().replace(
        "#main", "#created by deckcheck\n#main", 1)
    checked = runner.invoke(main, ["check", str(tmp_path / "omega"), "--cards", "demo",
                                   "--json", "-"])
    verdicts = {d["deck_id"]: tuple(d["counts"][s] for s in ("main", "extra", "side"))
                for d in json.loads(checked.stdout)["decks"]}
    assert verdicts == {"1001": (40, 1, 1), "1002": (39, 2, 0)}


def test_convert_writes_the_decks_it_can_and_names_the_one_it_cannot(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "ok.ydk", [14558127] * 40)
    _ydk(decks / "skill.ydk", [14558127] * 40 + [300000001])
    result = CliRunner().invoke(main, ["convert", str(decks), "--to", "mycard", "--out",
                                       str(tmp_path / "out"), "--cards", "demo"])
    assert result.exit_code == 2
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["ok.txt"]
    assert "skill.ydk" in result.stderr
    assert "Traceback" not in result.output


def test_convert_several_decks_needs_a_folder(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "a.ydk", [14558127] * 40)
    _ydk(decks / "b.ydk", [14558127] * 40)
    result = CliRunner().invoke(main, ["convert", str(decks), "--to", "text", "--cards",
                                       "demo"])
    assert result.exit_code == 2
    assert "--out" in result.stderr


def test_serving_beyond_loopback_needs_a_password(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                       "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "--host: BAD_OPTION" in result.output


def test_serving_beyond_loopback_needs_a_long_password(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                       "--host", "0.0.0.0"],
                                env={"DECKCHECK_PASSWORD": "short"})
    assert result.exit_code == 2
    assert "--password: BAD_OPTION" in result.output


def test_the_password_comes_from_a_file_and_on_the_command_line_with_a_warning(
        tmp_path: Path) -> None:
    import socket

    secret = tmp_path / "pw.txt"
    secret.write_text("a-long-venue-password\n")
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = str(busy.getsockname()[1])
        from_file = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                              "--port", port, "--password-file", str(secret)])
        typed = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                          "--port", port, "--password", "typed-password"])
        empty = tmp_path / "empty.txt"
        empty.write_text("")
        no_password = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                                "--port", port, "--password-file", str(empty)])
    # each stops at the busy port, after the password was read
    assert f"127.0.0.1:{port}: BAD_OPTION" in from_file.output
    assert "warning" not in from_file.stderr
    assert "warning" in typed.stderr
    assert f"{empty}: BAD_OPTION" in no_password.output


def test_serve_passes_its_reading_limits_to_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.event.bounded import Limits

    given: list[object] = []

    class Stop(Exception):
        """Raised instead of serving."""

    def create_app(*_: object, **options: object) -> None:
        given.append(options["limits"])
        raise Stop

    monkeypatch.setattr("validator.web.app.create_app", create_app)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the file of the stop's details
    db = ["serve", "--db", str(tmp_path / "e.sqlite"), "--port", "0"]
    defaults = CliRunner().invoke(main, db)
    chosen = CliRunner().invoke(main, [*db, "--read-seconds", "2.5", "--read-memory", "300"])
    assert defaults.exit_code == FAILED, defaults.output  # stopped where it would serve
    assert chosen.exit_code == FAILED, chosen.output  # stopped where it would serve
    assert given == [Limits(10.0, 1 << 30), Limits(2.5, 300 << 20)]


def test_serve_passes_the_judge_password_from_a_file_or_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[object] = []

    class Stop(Exception):
        """Raised instead of serving."""

    def create_app(*_: object, **options: object) -> None:
        given.append(options["judge_password"])
        raise Stop

    monkeypatch.setattr("validator.web.app.create_app", create_app)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the file of the stop's details
    shared = tmp_path / "judges.txt"
    shared.write_text("judges-of-the-day\n")
    db = ["serve", "--db", str(tmp_path / "e.sqlite"), "--port", "0"]
    env = {"DECKCHECK_PASSWORD": "organizer-password"}
    from_file = CliRunner().invoke(main, [*db, "--judge-password-file", str(shared)], env=env)
    from_env = CliRunner().invoke(main, db, env={**env, "DECKCHECK_JUDGE_PASSWORD": "from-env"})
    assert from_file.exit_code == FAILED, from_file.output  # stopped where it would serve
    assert from_env.exit_code == FAILED, from_env.output  # stopped where it would serve
    assert given == ["judges-of-the-day", "from-env"]
    alone = CliRunner().invoke(main, [*db, "--judge-password-file", str(shared)],
                               env={"DECKCHECK_PASSWORD": ""})
    assert alone.exit_code == 2  # a judge password needs the organizer's
    assert "--judge-password-file: BAD_OPTION" in alone.output
    same = tmp_path / "same.txt"
    same.write_text("organizer-password\n")
    twice = CliRunner().invoke(main, [*db, "--judge-password-file", str(same)], env=env)
    assert "--judge-password-file: BAD_OPTION" in twice.output
    short = CliRunner().invoke(main, [*db, "--host", "0.0.0.0"],
                               env={**env, "DECKCHECK_JUDGE_PASSWORD": "short"})
    assert short.exit_code == 2  # beyond loopback, as long as the organizer's must be
    assert "--judge-password-file: BAD_OPTION" in short.output



def test_serve_passes_the_registration_page_s_limits_to_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from validator.web.limits import PlayerLimits

    given: list[object] = []

    class Stop(Exception):
        """Raised instead of serving."""

    def create_app(*_: object, **options: object) -> None:
        given.append(options["player_limits"])
        raise Stop

    opened: list[socket.socket] = []
    real = socket.create_server

    def create_server(*args: Any, **kwargs: Any) -> socket.socket:
        opened.append(real(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr("validator.web.app.create_app", create_app)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the file of the stop's details
    monkeypatch.setattr("socket.create_server", create_server)
    db = ["serve", "--db", str(tmp_path / "e.sqlite"), "--port", "0"]
    CliRunner().invoke(main, db)
    CliRunner().invoke(main, [*db, "--submissions-per-id", "3", "--requests-per-address", "50"])
    for made in opened:  # the server never started: its sockets are closed here
        made.close()
    assert given == [PlayerLimits(), PlayerLimits(submissions=3, requests=50)]

def test_forwarded_headers_are_believed_only_from_named_proxies() -> None:
    from validator.cli import server_config

    default = server_config(object(), None)
    assert default.proxy_headers is False
    assert default.forwarded_allow_ips == ""
    named = server_config(object(), "10.0.0.2")
    assert named.proxy_headers is True
    assert named.forwarded_allow_ips == "10.0.0.2"


def test_the_server_parses_http_in_c_on_a_libuv_loop() -> None:
    """The installed server runs on httptools and uvloop, not h11 and asyncio's loop."""
    import sys

    from validator.cli import server_config

    config = server_config(object(), None)
    config.load()
    assert config.http_protocol_class.__name__ == "HttpToolsProtocol"
    if sys.platform != "win32":
        factory = config.get_loop_factory()
        assert factory is not None
        assert factory.__module__.startswith("uvloop")


def test_a_busy_port_is_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                           "--port", str(port)])
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}: BAD_OPTION" in result.output
    assert "deckcheck serving" not in result.output  # the address only once listening


SAMPLE = ROOT / "sample_decklists" / "regional-tcg.xlsx"


def test_event_json_to_stdout_is_only_json_and_no_workbook_without_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks", str(ROOT / "decks" / "tcg"),
                                    "--cards", "demo", "--json", "-"])
    assert ran.exit_code == 1, ran.output
    report = json.loads(ran.stdout)
    assert len(report["players"]) == 64
    assert "NO_DECK" in ran.stderr  # the problems go to stderr
    assert list(tmp_path.iterdir()) == []  # no --report: no workbook written


def test_event_prints_the_check_header_and_each_player_not_legal(tmp_path: Path) -> None:
    ran = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks", str(ROOT / "decks" / "tcg"),
                                    "--cards", "demo"])
    assert ran.exit_code == 1, ran.output
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("Advanced Format (TCG) — list Demo 2026.05 TCG (effective "
                               "2026-05-01; the demo list: no card data imported) — ")
    assert lines[1] == "card data: demo"
    assert lines[2] == ("64 players: 52 legal, 9 illegal, 2 need a head judge's decision, "
                        "1 not checked")
    heads = [line for line in lines if line.startswith("0400")]
    assert len(heads) == 12  # the players who are not legal, one block each
    lucas = lines.index(next(h for h in heads if h.startswith("0400064653 ")))
    assert lines[lucas + 1].startswith("  LIST_MISMATCH ")
    assert lines[lucas + 2].startswith("  → Duel Forfeiture, applied to ")
    assert lines[lucas + 3].startswith("    • ")
    every = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks",
                                      str(ROOT / "decks" / "tcg"), "--cards", "demo", "--all"])
    assert sum(line.startswith("0400") for line in every.stdout.splitlines()) == 64
    quiet = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks",
                                      str(ROOT / "decks" / "tcg"), "--cards", "demo", "--quiet"])
    assert (quiet.exit_code, quiet.stdout) == (1, "")


@pytest.mark.parametrize(("name", "data"), [
    ("empty.csv", b""),
    ("binary.xlsx", bytes(range(256)) * 8),
])
def test_event_without_a_readable_player_exits_2_naming_the_file(
        name: str, data: bytes, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    ran = CliRunner().invoke(main, ["event", str(path), "--cards", "demo"])
    assert ran.exit_code == 2, ran.output
    assert f"{path}: NO_PLAYERS " in ran.stderr
    assert ran.stdout == ""


def test_an_empty_deck_file_keeps_its_file_in_every_output(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    decks = tmp_path / "decks"
    decks.mkdir()
    for deck in (ROOT / "decks" / "tcg").glob("*.ydk"):
        (decks / deck.name).write_bytes(deck.read_bytes())
    empty = decks / "0400001301.ydk"
    empty.write_bytes(b"")
    report, data = tmp_path / "report.xlsx", tmp_path / "report.json"
    ran = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks", str(decks), "--cards",
                                    "demo", "--report", str(report), "--json", str(data)])
    assert ran.exit_code == 1, ran.output
    [player] = [p for p in json.loads(data.read_text())["players"]
                if p["player_id"] == "0400001301"]
    assert (player["deck_source"], player["status"]) == (str(empty), "illegal")
    assert player["deck_counts"] == {"main": 0, "extra": 0, "side": 0}
    sheet = load_workbook(report)["Players"]
    titles = [cell.value for cell in sheet[1]]
    [row] = [r for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] == "0400001301"]
    assert row[titles.index("Deck file")] == str(empty)
    assert any(line.startswith("0400001301 ") and f"({empty})" in line
               for line in ran.stdout.splitlines())


# -- the list in force on the event's date, over the nine dated TCG lists of the history

HISTORY = ("2024.01", "2024.04", "2024.09", "2024.12", "2025.04", "2025.09", "2025.10",
           "2026.02", "2026.05")
LACRIMA = 46640168  # Fiendsmith's Lacrima: unlisted on 2024.04 TCG, Forbidden on 2024.09 TCG


@pytest.fixture(scope="module")
def history_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """cards.json, the OCG/TCG cdb and the nine history lists, imported into one store."""
    folder = tmp_path_factory.mktemp("history")
    lists = [shared_path("lflist", "history", f"TCG-{name}.lflist.conf") for name in HISTORY]
    done = CliRunner().invoke(main, ["data", "import", str(shared_path("ygojson", "cards.json")),
                                     str(shared_path("cdb", "cards.delta.cdb")),
                                     *map(str, lists), "--data-dir", str(folder)])
    assert done.exit_code == 0, done.output
    return folder


def _history_deck(folder: Path) -> Path:
    """A TCG deck of 39 cards no history list names, and one Fiendsmith's Lacrima (Extra)."""
    db = load_store(folder)
    assert db is not None
    named = [b.entries for p in sorted(shared_path("lflist", "history").iterdir())
             for b in read_list_file(p)]
    every = Banlist("every history list", "history", pl.concat(named))
    cards = [code for code, qty in real_filler(db, every, 40) for _ in range(qty)]
    deck = folder.parent / f"{folder.name}-decks" / "lacrima.ydk"
    deck.parent.mkdir(exist_ok=True)
    return _ydk(deck, list(map(int, cards)), extra=[LACRIMA])


def _checked(folder: Path, deck: Path, *args: str) -> tuple[int, dict[str, object]]:
    done = CliRunner().invoke(main, ["check", str(deck.parent), "--json", "-", "--data-dir",
                                     str(folder), *args])
    assert done.exit_code in (0, 1), done.output
    return done.exit_code, json.loads(done.stdout)


def _codes_of(report: dict[str, object]) -> list[str]:
    decks = report["decks"]
    assert isinstance(decks, list)
    return [v["code"] for v in decks[0]["violations"]]


@pytest.mark.parametrize("name", HISTORY)
def test_check_uses_the_list_in_force_on_the_date(history_store: Path, name: str) -> None:
    year, month = name.split(".")
    day = f"{year}-{month}-15"
    deck = _history_deck(history_store)
    status, report = _checked(history_store, deck, "--date", day)
    assert (report["banlist"], report["banlist_effective"], report["banlist_reason"]) == (
        f"{name} TCG", f"{year}-{month}-01", f"in force on {day}")
    # the list's own verdict on Fiendsmith's Lacrima: Forbidden from 2024.09 to 2025.04
    forbidden = name in ("2024.09", "2024.12", "2025.04")
    assert _codes_of(report) == (["FORBIDDEN_CARD"] if forbidden else [])
    assert status == (1 if forbidden else 0)


def test_a_date_before_every_list_is_an_error_naming_the_earliest(history_store: Path) -> None:
    deck = _history_deck(history_store)
    done = CliRunner().invoke(main, ["check", str(deck.parent), "--date", "2023-01-01",
                                     "--data-dir", str(history_store)], terminal_width=200)
    assert done.exit_code == 2
    assert "NO_LIST_IN_FORCE" in done.output
    assert "2024-01-01" in done.output
    assert "Traceback" not in done.output


def test_a_bad_date_is_a_usage_error() -> None:
    done = CliRunner().invoke(main, ["check", ".", "--date", "2024-13-01"])
    assert done.exit_code == 2
    assert "BAD_OPTION" in done.output


def test_a_list_given_by_name_wins_over_the_date(history_store: Path) -> None:
    deck = _history_deck(history_store)
    _, report = _checked(history_store, deck, "--date", "2024-05-15", "--banlist",
                         "2024.09 TCG")
    assert (report["banlist"], report["banlist_reason"]) == ("2024.09 TCG", "given by name")
    assert "FORBIDDEN_CARD" in _codes_of(report)


def test_effective_at_import_moves_the_boundary_by_days(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "store"
    april = shared_path("lflist", "history", "TCG-2024.04.lflist.conf")
    september = shared_path("lflist", "history", "TCG-2024.09.lflist.conf")
    for path, given in ((shared_path("ygojson", "cards.json"), []), (april, []),
                        (september, ["--effective", "2024.09 TCG=2024-09-10"])):
        done = runner.invoke(main, ["data", "import", str(path), *given, "--data-dir",
                                    str(folder)])
        assert done.exit_code == 0, done.output
    info = runner.invoke(main, ["data", "info", "--data-dir", str(folder)], terminal_width=200)
    assert "2024-09-10" in info.output
    assert "import" in info.output
    assert "2024-04-01" in info.output
    assert "its name" in info.output
    deck = _history_deck(folder)
    _, before = _checked(folder, deck, "--date", "2024-09-09")
    _, after = _checked(folder, deck, "--date", "2024-09-10")
    assert (before["banlist"], after["banlist"]) == ("2024.04 TCG", "2024.09 TCG")
    assert after["banlist_effective"] == "2024-09-10"
    assert ("FORBIDDEN_CARD" in _codes_of(before), "FORBIDDEN_CARD" in _codes_of(after)) == (
        False, True)
    # one date for every list of the files imported; a name that is not there is an error
    again = runner.invoke(main, ["data", "import", str(april), "--effective", "2024-04-20",
                                 "--data-dir", str(folder)], terminal_width=200)
    assert "2024-04-20" in again.output
    wrong = runner.invoke(main, ["data", "import", str(april), "--effective",
                                 "2099.01 TCG=2024-04-20", "--data-dir", str(folder)])
    assert wrong.exit_code == 2
    assert "NO_LIST" in wrong.output


def test_every_header_names_the_list_its_date_and_why(history_store: Path,
                                                      tmp_path: Path) -> None:
    deck = _history_deck(history_store)
    shown = CliRunner().invoke(main, ["check", str(deck.parent), "--date", "2025-06-15",
                                      "--data-dir", str(history_store)], terminal_width=200)
    assert "2025.04 TCG (effective 2025-04-01; in force on 2025-06-15)" in shown.output


# -- deckcheck card


def test_card_shows_its_status_on_the_list_in_force(history_store: Path) -> None:
    done = CliRunner().invoke(main, ["card", 'Maxx "C"', "--date", "2024-10-20", "--json", "-",
                                     "--data-dir", str(history_store)])
    assert done.exit_code == 0, done.output
    facts = json.loads(done.stdout)
    assert (facts["banlist"], facts["banlist_effective"], facts["banlist_reason"]) == (
        "2024.09 TCG", "2024-09-01", "in force on 2024-10-20")
    [card] = facts["cards"]
    assert (card["passcodes"], card["status"]["word"]) == ([23434538], "Forbidden")
    shown = CliRunner().invoke(main, ["card", 'Maxx "C"', "--date", "2024-10-20",
                                      "--data-dir", str(history_store)], terminal_width=200)
    assert "2024.09 TCG (effective 2024-09-01; in force on 2024-10-20)" in shown.output


def test_card_by_passcode_shows_printings_and_names(history_store: Path) -> None:
    runner = CliRunner()
    args = ["card", "14558127", "--json", "-", "--data-dir", str(history_store)]
    first, again = runner.invoke(main, args), runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout  # stable
    [card] = json.loads(first.stdout)["cards"]
    assert card["name"] == "Ash Blossom & Joyous Spring"
    assert 14558127 in card["passcodes"]
    assert (card["names"]["ja"], card["names"]["ko"]) == ("灰流うらら", "하루 우라라")
    shown = runner.invoke(main, ["card", "14558127", "--lang", "ja", "--data-dir",
                                 str(history_store)], terminal_width=200)
    assert "灰流うらら" in shown.output


def test_card_unknown_exits_2() -> None:
    done = CliRunner().invoke(main, ["card", "No Such Card Anywhere", "--cards", "demo"])
    assert done.exit_code == 2
    assert "NO_SUCH_CARD" in done.output


# -- no silent demo pool


def test_an_empty_store_says_the_demo_pool_is_used_in_every_output(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "p1.ydk", _legal_main())
    empty = ["--data-dir", str(tmp_path / "empty")]
    setup = load("advanced-tcg", None, folder=tmp_path / "empty")
    files = read_deck_paths([decks])
    [warning] = [w for w in check(files.entries, cards=setup.cards, fmt=setup.fmt,
                                  banlist=setup.banlist).warnings if w.code == "DEMO_POOL"]
    runner = CliRunner()
    as_json = runner.invoke(main, ["check", str(decks), "--json", "-", *empty])
    assert as_json.exit_code == 0, as_json.output
    assert str(warning) in json.loads(as_json.stdout)["warnings"]
    terminal = runner.invoke(main, ["check", str(decks), *empty], terminal_width=300)
    assert str(warning) in " ".join(terminal.output.split())
    # the event's XLSX Summary
    registrations = tmp_path / "lists.csv"
    registrations.write_text("Player ID,Player Name,Section,Qty,Card Name\n"
                             "p1,Ana,Main,3,Raigeki\n")
    report = tmp_path / "report.xlsx"
    event = runner.invoke(main, ["event", str(registrations), "--decks", str(decks),
                                 "--report", str(report), "--quiet", *empty])
    assert event.exit_code == 1, event.output
    summary = load_workbook(report)["Summary"]
    cells = [str(c) for row in summary.iter_rows(values_only=True) for c in row if c]
    assert any(str(warning) in c for c in cells)


def test_a_deck_of_mostly_unknown_passcodes_says_the_data_may_be_missing(
        tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    _ydk(decks / "p1.ydk", [90000000 + i for i in range(40)])
    done = CliRunner().invoke(main, ["check", str(decks), "--cards", "demo", "--json", "-"])
    assert done.exit_code == 1
    warnings = json.loads(done.stdout)["warnings"]
    assert any(w.startswith("p1: ") and "40" in w for w in warnings)


def test_goat_list_gives_one_warning_in_the_terminal_and_the_json() -> None:
    args = ["check", str(ROOT / "decks" / "goat" / "classic.txt"), "--format", "goat",
            "--cards", str(shared_path("ygojson", "cards.json")),
            "--banlist", str(shared_path("lflist", "GOAT.lflist.conf"))]
    runner = CliRunner()
    shown = runner.invoke(main, args, terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("warning:") == 1
    assert "214 entries" in shown.output
    report = json.loads(runner.invoke(main, [*args, "--json", "-"]).stdout)
    assert report["summary"]["legal"] == 1
    assert len(report["warnings"]) == 1
    assert "list 2005.4 GOAT: 214 entries" in report["warnings"][0]


@pytest.mark.parametrize(("command", "line", "code"), [
    ("check", " " * (1 << 20), "FILE_TOO_LARGE"),  # a 1 MiB line: a file over the deck cap
    ("check", "a" + " " * 1_000_000 + "b", "LINE_TOO_LONG"),  # under the cap, over a line's
    ("check", "3 Pot of Greed" + "\t" * 1_000_000 + "x", "LINE_TOO_LONG"),
    ("event", "a" + " " * 1_000_000 + "b", "LINE_TOO_LONG"),
])
def test_a_text_deck_with_a_huge_line_is_refused_fast_with_its_place(
        tmp_path: Path, command: str, line: str, code: str) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    deck = decks / "0400001301.txt"
    args = (["check", str(decks)] if command == "check" else
            ["event", str(ROOT / "sample_decklists" / "regional-tcg.xlsx"), "--decks",
             str(decks)])

    def timed(text: str) -> tuple[float, Any]:
        deck.write_text(f"3 Pot of Greed\n{text}\n", encoding="utf-8")
        started = time.perf_counter()
        result = CliRunner().invoke(main, [*args, "--cards", "demo", "--json", "-"])
        return time.perf_counter() - started, result

    usual, _ = timed("")  # the same run without the line (the event's own work)
    took, result = timed(line)
    assert took - usual < 2.0
    if command == "event":
        found = [(Path(p["file"]).name, p["line"], p["code"])
                 for p in json.loads(result.stdout)["problems"] if p["code"] == code]
        assert found == [("0400001301.txt", 2, code)]
    else:
        assert code in result.stderr
        assert ("0400001301.txt" if code == "FILE_TOO_LARGE" else "0400001301.txt:2") \
            in result.stderr
    assert "Traceback" not in result.output


#: modules a plain check of one deck never needs: each would cost its import at every start
HEAVY = ("babel", "openpyxl", "rich", "numpy", "jinja2", "fastapi", "starlette", "uvicorn",
         "pikepdf", "sqlite3", "validator.text._lexicon_tables", "validator.inputs.decks.codes",
         "validator.inputs.decks.textlist", "validator.cards.importers", "validator.web",
         "validator.sheets", "validator.report.xlsx", "validator.event",
         # the shipped format and policy come validated from the cache: no validation
         "pydantic", "pydantic_core", "tomllib", "validator.cards._format_file",
         "validator.judging._policy_file", "validator.engine._nicknames",
         # the list file is an lflist.conf, no table: neither the sheet reader nor the lexicon
         "validator.files.tabular", "validator.text.lexicon", "validator.judging.decisions",
         # the names of a workbook's sheets
         "html")
_PROBE = """
import json, sys
from validator.cli import main
try:
    main.main(sys.argv[1:])
except SystemExit as exc:
    print(json.dumps({"status": exc.code, "modules": sorted(sys.modules)}))
"""


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("options", [[], ["--quiet"], ["--json", "report.json"]])
def test_a_plain_check_of_one_deck_imports_no_heavy_module(tmp_path: Path,
                                                           options: list[str]) -> None:
    data = tmp_path / "data"
    imported = CliRunner().invoke(main, [
        "data", "import", str(ROOT / "validator" / "data" / "demo_cards.csv"),
        str(ROOT / "banlists" / "lists" / "demo-tcg.lflist.conf"), "--data-dir", str(data)])
    assert imported.exit_code == 0, imported.output
    deck = sorted((ROOT / "decks" / "tcg").glob("*.ydk"))[0]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", _PROBE, "check", str(deck), "--data-dir",
                            str(data), *options], capture_output=True, text=True, cwd=tmp_path,
                           env=env, check=False) for _ in range(2)]
    first, found = (json.loads(done.stdout.splitlines()[-1]) for done in runs)
    done = runs[1]
    # the first run validates the shipped format and policy (pydantic), the next do not
    assert "pydantic" in first["modules"]
    assert found["status"] in (0, 1), done.stderr
    assert "validator.engine.check" in found["modules"]  # the deck was checked
    assert _heavy(found["modules"]) == []
    if options[:1] == ["--json"]:
        assert json.loads((tmp_path / "report.json").read_text())["decks"][0]["deck_id"] == \
            deck.stem


def test_the_report_printed_to_a_pipe_is_the_text_in_the_streams_encoding(
        tmp_path: Path) -> None:
    # UTF-8 goes out as polars joined it; another encoding is written by the stream
    decks = sorted((ROOT / "decks" / "tcg").glob("*.ydk"))[:3]

    def printed(encoding: str) -> list[str]:
        env = {**os.environ, "PYTHONIOENCODING": encoding}
        done = subprocess.run([sys.executable, "-c", _PROBE, "check", *map(str, decks),
                               "--cards", "demo", "--all", "--lang", "ja"], capture_output=True,
                              cwd=tmp_path, env=env, check=False)
        lines = done.stdout.decode(encoding).splitlines()
        assert json.loads(lines[-1])["status"] in (0, 1), done.stderr
        assert "rich" not in json.loads(lines[-1])["modules"]  # a pipe: plain text
        return lines[:-1]

    plain = printed("utf-8")
    assert [line.split()[0] for line in plain[4:] if line and not line[0].isspace()] == \
        [deck.stem for deck in decks]
    assert not plain[2].isascii()  # in Japanese
    assert printed("utf-16") == plain


def test_the_program_ends_with_its_output_flushed_and_its_exit_status(tmp_path: Path) -> None:
    # the program ends without the interpreter's teardown: what it wrote to a buffered
    # pipe, and the exit functions, must not be lost on the way
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: sys.stderr.write('exit functions ran\\n'))\n"
             "sys.argv[0] = 'deckcheck'\n"
             "from validator.cli import main\n"
             "main()\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    deck = sorted((ROOT / "decks" / "tcg").glob("*.ydk"))[0]
    done = subprocess.run([sys.executable, "-c", probe, "check", str(deck), "--cards", "demo",
                           "--all"], capture_output=True, text=True, cwd=tmp_path, env=env,
                          check=False)
    lines = done.stdout.splitlines()
    assert lines[2] == "1 decks: 1 legal, 0 illegal, 0 need a head judge's decision"
    assert lines[-1].split()[0] == deck.stem  # the last line, the deck's own, written
    assert done.returncode == 0
    assert "exit functions ran" in done.stderr
    missing = subprocess.run([sys.executable, "-c", probe, "check", str(tmp_path / "none.ydk"),
                              "--cards", "demo"], capture_output=True, text=True, cwd=tmp_path,
                             env=env, check=False)
    assert missing.returncode == 2
    assert "FILE_MISSING" in missing.stderr


def test_the_deck_paths_of_a_check_are_read_from_its_arguments_before_parsing() -> None:
    from validator.cli import CHECK_FLAGS, _check_paths

    flags = {name for param in main.commands["check"].params
             if isinstance(param, click.Option) and param.is_flag for name in param.opts}
    assert flags | {"-h", "--help"} == CHECK_FLAGS  # every other option takes a value
    argv = ["/usr/bin/deckcheck", "check", "decks/", "--json", "out.json", "--quiet",
            "--format=advanced-tcg", "one.ydk", "--lang", "ja", "--", "--odd-name.ydk"]
    assert _check_paths(argv) == ["decks/", "one.ydk", "--odd-name.ydk"]
    assert _check_paths(["deckcheck", "event", "decks/"]) is None
    assert _check_paths(["pytest", "check", "decks/"]) is None  # not the program


def test_a_folder_read_ahead_by_the_program_is_checked_as_one_read_in_process(
        tmp_path: Path) -> None:
    # run as the deckcheck program, the deck files are read by a forked process while the
    # program starts (where a core is free); the report, the problems and the exit status
    # are those of a check that reads them itself
    decks = tmp_path / "decks"
    decks.mkdir()
    for deck in sorted((ROOT / "decks" / "tcg").glob("*.ydk"))[:3]:
        (decks / deck.name).write_bytes(deck.read_bytes())
    (decks / "bad.ydk").write_bytes(b"#main\nnot a passcode\n")
    (decks / "bad.ydke").write_bytes(b"ydke://!!!")
    args = ["check", str(decks), "--cards", "demo", "--all", "--json"]
    probe = ("import sys\nsys.argv[0] = 'deckcheck'\n"
             "from validator.cli import main\n"
             "from validator.inputs.decks import prefetch\n"
             "print(bool(prefetch._reader) == prefetch.core_free(), file=sys.stderr)\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", probe, *args, str(tmp_path / "ahead.json")],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    here = CliRunner().invoke(main, [*args, str(tmp_path / "here.json")])
    assert done.stderr.splitlines()[0] == "True"  # read ahead where a core was free
    assert done.returncode == here.exit_code == 2  # the unreadable line and the second deck
    assert done.stdout == here.stdout
    assert done.stderr.splitlines()[1:] == here.stderr.splitlines()
    assert {"BAD_PASSCODE", "DECK_TWICE"} <= {line.split()[2] for line in here.stderr.splitlines()
                                               if line.startswith("error:")}
    assert (tmp_path / "ahead.json").read_bytes() == (tmp_path / "here.json").read_bytes()


@pytest.mark.parametrize(("raised", "lang", "said"), [
    (pl.exceptions.PanicException("assertion failed: i < self.len()"), "en",
     "deckcheck stopped on an error it did not expect (PanicException: assertion failed"),
    (RuntimeError("a bug"), "en", "deckcheck stopped on an error it did not expect "
                                  "(RuntimeError: a bug)"),
    (RuntimeError("a bug"), "ja",
     "deckcheck は想定外のエラーで停止しました（RuntimeError: a bug）"),
])
def test_an_error_the_command_did_not_expect_is_one_line_naming_its_details_and_status_3(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raised: BaseException, lang: str,
        said: str) -> None:
    """Never a traceback on the screen, and never status 1 (violations found), which a
    script would read as a verdict; the traceback is in the file the line names."""
    def failing(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr("validator.judging.checking.check_decks", failing)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["check", str(ROOT / "decks" / "tcg" / "0400001301.ydk"),
                                       "--cards", "demo", "--lang", lang])
    assert result.exit_code == FAILED == 3, result.output
    assert said in result.output
    assert "Traceback" not in result.output
    details = list(tmp_path.glob("deckcheck-failure-*.txt"))
    assert len(details) == 1
    assert str(details[0]) in result.output
    text = details[0].read_text(encoding="utf-8")
    assert "Traceback" in text
    assert type(raised).__name__ in text
    assert "command:" in text
