"""The command line: help everywhere, exit codes, JSON on stdout, errors without tracebacks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tests.conftest import shared_path
from validator.cli import main
from validator.errors import SHOWN

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
    payload = json.loads(ok.output)
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


def test_check_stage_and_language(tmp_path: Path) -> None:
    deck = _ydk(tmp_path / "d.ydk", _legal_main()[:39])
    result = CliRunner().invoke(main, ["check", str(deck), "--json", "-", "--stage", "in-duel",
                                       "--lang", "ja", "--regulation", "th"])
    penalty = json.loads(result.output)["decks"][0]["penalty"]
    assert penalty["applies_to"] == "進行中のデュエル"
    assert penalty["label"] == "デュエルの敗北"
    assert penalty["remedies"] == ["デッキに適切なカードを加え、40枚にする。"]
    # the ja regulation's copy has no clause for a small deck: the head judge decides
    ja = CliRunner().invoke(main, ["check", str(deck), "--json", "-", "--lang", "ja",
                                   "--regulation", "ja"])
    verdict = json.loads(ja.output)["decks"][0]
    assert verdict["penalty"] is None
    assert verdict["status"] == "illegal"
    assert verdict["head_judge"] == ["MAIN_TOO_SMALL"]
    assert verdict["remedies"] == ["デッキに適切なカードを加え、40枚にする。"]


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
    report = json.loads(checked.output)
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
    assert (quiet.exit_code, quiet.output, screen.getvalue()) == (1, "", "")


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


def test_forwarded_headers_are_believed_only_from_named_proxies() -> None:
    from validator.cli import server_config

    default = server_config(object(), None)
    assert default.proxy_headers is False
    assert default.forwarded_allow_ips == ""
    named = server_config(object(), "10.0.0.2")
    assert named.proxy_headers is True
    assert named.forwarded_allow_ips == "10.0.0.2"


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
    assert lines[0].startswith("Advanced Format (TCG) — list Demo 2026.05 TCG — ")
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
