"""One measurement in a fresh process (so its peak memory is its own); prints JSON.

``python -m bench.measure engine N [--mode legality|lists] [--cards demo|PATH]`` — the engine
(with lists: against the reference too)
``python -m bench.measure duckdb N [--mode legality|lists]`` — the same rules as DuckDB SQL,
verdicts compared with the engine's (run it first)
``python -m bench.measure floor N [--mode legality|lists]`` — the polars floor: read + one
group_by
``python -m bench.measure pdf N`` — N filled PDF sheets read as registrations
``python -m bench.measure typos N`` — N players' lists with every name misspelt: read+resolve
``python -m bench.measure e2e N`` — a registration workbook of N players, end to end
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl

from bench.reference import ReferenceChecker, Verdict, engine_verdicts
from bench.synth import LIST_HEADER, lists_csv, named_lists, synthesize
from validator.cards.db import CardDB
from validator.cards.load import Setup, is_demo, load
from validator.cards.store import load_cards
from validator.engine.check import check

SHARED_CARDS = Path(__file__).resolve().parent.parent.parent / "shared/data/ygojson/cards.json"
SHARED_LIST = SHARED_CARDS.parent.parent / "lflist" / "0TCG.lflist.conf"
REFERENCE_CHUNK = 50_000


def _memory() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("VmRSS", "VmHWM")):
            out[line.split(":")[0]] = int(line.split()[1]) * 1024
    return out


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def _cards(spec: str) -> CardDB:
    if spec == "auto":
        spec = str(SHARED_CARDS) if SHARED_CARDS.exists() else "demo"
    return load_cards(spec, Path(tempfile.gettempdir()) / "deckcheck-bench-store")


def _setup(spec: str) -> Setup:
    """The format with its card data and list: the real TCG list with real card data, the
    demo list with the demo pool."""
    cards = _cards(spec)
    return load("advanced-tcg", cards, None if is_demo(cards) else str(SHARED_LIST))


def _reference(checker: ReferenceChecker, decks: pl.DataFrame, listed: pl.DataFrame,
               players: int) -> tuple[Counter[Verdict], float]:
    """Reference verdicts, converting to Python objects chunk by chunk; only checking is
    timed (conversion is left out, which favours the reference)."""
    verdicts: Counter[Verdict] = Counter()
    spent = 0.0
    number = pl.col("deck_id").cast(pl.Utf8).str.slice(1).cast(pl.Int64)
    for start in range(0, players, REFERENCE_CHUNK):
        chunk = number.is_between(start, start + REFERENCE_CHUNK - 1)
        grouped: dict[str, tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]] = {}
        for which, frame in enumerate((decks, listed)):
            rows = frame.filter(chunk).select(pl.col("deck_id").cast(pl.Utf8),
                                              pl.col("section").cast(pl.Utf8),
                                              "passcode", "qty")
            for deck, section, passcode, qty in rows.iter_rows():
                grouped.setdefault(deck, ([], []))[which].append((section, passcode, qty))
        began = time.perf_counter()
        for deck, (rows_, registered) in grouped.items():
            verdicts.update(checker.check_deck(deck, rows_, registered))
        spent += time.perf_counter() - began
    return verdicts, spent


def _event_files(players: int, cards_spec: str) -> tuple[Path, Path]:
    """The synthetic event as Parquet, made by another process, so that the measuring
    process holds only its input and no leftovers of generating it."""
    folder = Path(tempfile.gettempdir()) / "deckcheck-bench-events"
    decks = folder / f"{players}-{cards_spec.replace('/', '_')}-decks.parquet"
    lists = decks.with_name(decks.name.replace("-decks", "-lists"))
    if not decks.exists() or not lists.exists():
        import subprocess
        import sys

        subprocess.run([sys.executable, "-m", "bench.measure", "synth", str(players),
                        "--cards", cards_spec], check=True)
    return decks, lists


def synth(players: int, cards_spec: str) -> dict[str, Any]:
    setup = _setup(cards_spec)
    event = synthesize(setup.cards, setup.banlist, setup.fmt, players)
    folder = Path(tempfile.gettempdir()) / "deckcheck-bench-events"
    folder.mkdir(exist_ok=True)
    decks = folder / f"{players}-{cards_spec.replace('/', '_')}-decks.parquet"
    event.decks.write_parquet(decks)
    event.registered.write_parquet(decks.with_name(decks.name.replace("-decks", "-lists")))
    return {"players": players, "rows": event.decks.height}


#: the columns a deck source gives (no names, files or cells in a synthetic event), with
#: deck ids as categoricals, as readers give them
INPUT_COLUMNS = ("deck_id", "section", "passcode", "qty")


def read_input(path: Path) -> pl.DataFrame:
    return pl.scan_parquet(path).select(
        pl.col("deck_id").cast(pl.Categorical), *INPUT_COLUMNS[1:]).collect()


def verdict_file(kind: str, players: int) -> Path:
    return Path(tempfile.gettempdir()) / "deckcheck-bench-events" / f"{kind}-{players}.parquet"


def _verdict_frame(verdicts: Counter[Verdict]) -> pl.DataFrame:
    return pl.DataFrame([(*key, count) for key, count in verdicts.items()], orient="row",
                        schema={"deck_id": pl.Utf8, "code": pl.Utf8, "section": pl.Utf8,
                                "k": pl.Int64, "n": pl.Int64})


def same_verdicts(first: Path, second: Path) -> int:
    """How many verdicts one file has that the other has not (0: identical)."""
    keys = ["deck_id", "code", "section", "k"]
    a, b = (pl.read_parquet(p).group_by(keys).agg(pl.col("n").sum()) for p in (first, second))
    both = a.join(b, on=keys, how="full", coalesce=True, nulls_equal=True)
    return int(both.select((pl.col("n").fill_null(0) - pl.col("n_right").fill_null(0))
                           .abs().sum()).item())


def engine(players: int, cards_spec: str, mode: str, with_reference: bool) -> dict[str, Any]:
    """The engine on decks read from Parquet (``mode`` legality), or on decks and their
    lists (``lists``); each mode in its own process, so peak RSS is the mode's own."""
    setup = _setup(cards_spec)
    cards, fmt, banlist = setup.cards, setup.fmt, setup.banlist
    decks_file, lists_file = _event_files(players, cards_spec)
    began, cpu = time.perf_counter(), time.process_time()
    decks = read_input(decks_file)
    listed = read_input(lists_file) if mode == "lists" else None
    read_s = time.perf_counter() - began
    base = _memory()["VmRSS"]
    _reset_peak()
    began = time.perf_counter()
    result = check(decks, cards=cards, fmt=fmt, banlist=banlist, registered=listed)
    spent = time.perf_counter() - began
    cpu = time.process_time() - cpu
    out: dict[str, Any] = {
        "players": players, "rows": decks.height, "mode": mode,
        "cards": cards.sources[0]["source"], "input_rss": base, "read_s": read_s,
        "check_s": spent, "cpu_s": cpu, "peak": _memory()["VmHWM"], "stages": result.timings,
        "violations": result.violations.height,
        "illegal": int((~result.decks["legal"]).sum()),
    }
    mine = engine_verdicts(result.violations)
    _verdict_frame(mine).write_parquet(verdict_file(f"engine-{mode}", players))
    if mode == "lists":
        assert listed is not None  # read above in this mode
        del result
        if with_reference:
            checker = ReferenceChecker(cards, banlist, fmt)
            theirs, reference_s = _reference(checker, decks, listed, players)
            out["reference_s"] = reference_s
            out["identical"] = mine == theirs
            out["differences"] = sum(((mine - theirs) + (theirs - mine)).values())
    return out


def sql(players: int, cards_spec: str, threads: int | None, mode: str) -> dict[str, Any]:
    """The DuckDB anchor over the same Parquet (reading included, as for the engine's
    read + check figure), legality only or with lists; verdicts compared with the engine's
    of the same mode (``engine`` runs first)."""
    from bench.sql import sql_verdicts

    setup = _setup(cards_spec)
    checker = ReferenceChecker(setup.cards, setup.banlist, setup.fmt)
    decks_file, lists_file = _event_files(players, cards_spec)
    _reset_peak()
    began, cpu = time.perf_counter(), time.process_time()
    found = sql_verdicts(checker, decks_file, lists_file if mode == "lists" else None, threads)
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu
    counted = found.group_by("deck_id", "code", "section", "k").len("n")
    counted.write_parquet(verdict_file(f"duckdb-{mode}", players))
    return {"players": players, "mode": mode, "duckdb_s": spent, "cpu_s": cpu,
            "peak": _memory()["VmHWM"], "verdicts": found.height,
            "differences": same_verdicts(verdict_file(f"engine-{mode}", players),
                                         verdict_file(f"duckdb-{mode}", players))}


def floor(players: int, cards_spec: str, mode: str) -> dict[str, Any]:
    """The polars floor: ``scan_parquet`` and one ``group_by`` (deck, passcode) summing the
    copies, over the same rows as the engine (with lists: the decks' and the lists')."""
    decks_file, lists_file = _event_files(players, cards_spec)
    files = [decks_file, lists_file] if mode == "lists" else [decks_file]
    began = time.perf_counter()
    grouped = pl.scan_parquet(files).group_by("deck_id", "passcode").agg(
        pl.col("qty").sum()).collect()
    spent = time.perf_counter() - began
    return {"players": players, "mode": mode, "floor_s": spent, "groups": grouped.height}


def end_to_end(players: int, cards_spec: str) -> dict[str, Any]:
    """Long-layout workbook of typed names: read, resolve, check, write the XLSX report."""
    from openpyxl import Workbook

    from validator.event.run import check_event
    from validator.judging.penalties import load_policy
    from validator.report.model import judged_event
    from validator.report.xlsx import write_event_xlsx

    setup = _setup(cards_spec)
    cards, fmt, banlist = setup.cards, setup.fmt, setup.banlist
    event = synthesize(cards, banlist, fmt, players)
    table = named_lists(event.registered, setup.cards).drop("card_id")
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-e2e-"))
    workbook_path = folder / "registrations.xlsx"
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Registrations")
    sheet.append(list(LIST_HEADER))
    for row in table.iter_rows():
        sheet.append(list(row))
    workbook.save(workbook_path)
    stages: dict[str, float] = {}
    _reset_peak()
    began = time.perf_counter()
    from validator.inputs.registrations.read import read_registrations

    registrations = read_registrations(workbook_path)
    stages["read"] = time.perf_counter() - began
    began = time.perf_counter()
    result = check_event(registrations, None, setup)
    stages["resolve+check"] = time.perf_counter() - began
    began = time.perf_counter()
    write_event_xlsx(judged_event(result, load_policy("th"), "pre-event", "en"),
                     folder / "report.xlsx")
    stages["write report"] = time.perf_counter() - began
    return {"players": players, "rows": table.height, "stages": stages,
            "total_s": sum(stages.values()),
            "peak": _memory()["VmHWM"], "entries": registrations.entries.height,
            "problems": len(registrations.problems)}


def pdf_sheets(count: int) -> dict[str, Any]:
    """``count`` filled PDF sheets read as an event's registrations: time per sheet. The 64
    lists of the sample regional are written once each without an id and copied under
    ``count`` file names (the id is the file name)."""
    import dataclasses
    import shutil

    from bench.sample_event import tcg_sheets
    from validator.cards.store import demo_cards
    from validator.inputs.registrations.read import read_registrations
    from validator.sheets.pdf import write_form

    folder = Path(tempfile.mkdtemp(prefix="deckcheck-pdf-"))
    try:
        began = time.perf_counter()
        sheets = [write_form(dataclasses.replace(sheet, player_id=""))
                  for sheet in tcg_sheets(demo_cards())]
        write_s = (time.perf_counter() - began) / len(sheets)
        for i in range(count):
            (folder / f"{4_000_000_000 + i}.pdf").write_bytes(sheets[i % len(sheets)])
        began = time.perf_counter()
        read = read_registrations(folder)
        read_s = time.perf_counter() - began
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"sheets": count, "read_s": read_s, "per_sheet_ms": 1000 * read_s / count,
            "write_ms": 1000 * write_s, "players": read.players.height,
            "rows": read.entries.height, "problems": len(read.problems),
            "bytes": len(sheets[0])}


def _typo(name: str) -> str:
    """A misspelling a person makes: the middle letter of the longest word dropped."""
    words = name.split(" ")
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    if len(word) < 5:
        return name + "e"
    middle = len(word) // 2
    words[longest] = word[:middle] + word[middle + 1:]
    return " ".join(words)


def typos(players: int, cards_spec: str, count: int = 450) -> dict[str, Any]:
    """A long-layout CSV of ``players`` lists in which ``count`` distinct card names are
    misspelt wherever they appear: read + resolve time, how the misspellings were read, and
    the verdicts compared with the same lists spelt right (for the players whose every
    misspelling was read as the card meant)."""
    from validator.engine.resolve import resolve
    from validator.inputs.registrations.read import read_registrations

    setup = _setup(cards_spec)
    cards = setup.cards
    event = synthesize(cards, setup.banlist, setup.fmt, players, seed=7, rate=0.05)
    lists = named_lists(event.registered, cards).filter(pl.col("card_id").is_not_null())
    known = set(cards.by_card["name_en"].to_list())
    spelt = {n: _typo(n) for n in lists["name"].unique().sort().to_list()}
    spelt = dict(list({n: t for n, t in spelt.items() if t not in known}.items())[:count])
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-typos-"))
    files = {}
    for label, spelling in (("right", {}), ("typos", spelt)):
        files[label] = folder / f"{label}.csv"
        files[label].write_bytes(lists_csv(lists.with_columns(
            pl.col("name").replace(spelling))))
    began = time.perf_counter()
    read = read_registrations(files["typos"])
    resolved = resolve(read.entries, cards, setup.fmt)
    spent = time.perf_counter() - began
    meant = dict(lists.select("name", "card_id").unique().iter_rows())  # the card listed
    typed = {t: meant[n] for n, t in spelt.items()}
    read_as = resolved.filter(pl.col("name").is_in(list(typed))).select(
        "deck_id", "name", "card_id").unique()
    wrong = read_as.filter(pl.col("card_id").is_null()
                           | (pl.col("card_id") != pl.col("name").replace_strict(typed)))
    settled = set(read_as["deck_id"].to_list()) - set(wrong["deck_id"].to_list())
    verdicts = {}
    for label, entries in (("typos", read.entries),
                           ("right", read_registrations(files["right"]).entries)):
        result = check(entries, cards=cards, fmt=setup.fmt, banlist=setup.banlist)
        verdicts[label] = Counter(result.violations.filter(
            pl.col("deck_id").is_in(list(settled))).select(
            "deck_id", "code", pl.col("card_id")).iter_rows())
    read_right = read_as.filter(pl.col("card_id") == pl.col("name").replace_strict(typed))
    return {"players": players, "rows": read.entries.height, "distinct_typos": len(spelt),
            "read_resolve_s": spent, "typos_read_right": read_right["name"].n_unique(),
            "typos_left_to_judge": wrong.filter(pl.col("card_id").is_null())["name"].n_unique(),
            "typos_read_wrong": wrong.filter(pl.col("card_id").is_not_null())["name"]
            .n_unique(), "players_compared": len(settled),
            "same_verdicts": verdicts["right"] == verdicts["typos"],
            "cards": cards.sources[0]["source"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["engine", "e2e", "synth", "duckdb", "floor", "pdf",
                                            "typos"])
    parser.add_argument("players", type=int)
    parser.add_argument("--cards", default="auto")
    parser.add_argument("--mode", choices=["legality", "lists"], default="lists")
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.what == "synth":
        print(json.dumps(synth(args.players, args.cards)))
    elif args.what == "engine":
        print(json.dumps(engine(args.players, args.cards, args.mode, not args.no_reference)))
    elif args.what == "typos":
        print(json.dumps(typos(args.players, args.cards)))
    elif args.what == "pdf":
        print(json.dumps(pdf_sheets(args.players)))
    elif args.what == "duckdb":
        print(json.dumps(sql(args.players, args.cards, args.threads, args.mode)))
    elif args.what == "floor":
        print(json.dumps(floor(args.players, args.cards, args.mode)))
    else:
        print(json.dumps(end_to_end(args.players, args.cards)))


if __name__ == "__main__":
    main()
