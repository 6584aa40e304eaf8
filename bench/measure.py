"""One measurement in a fresh process (so its peak memory is its own); prints JSON.

``python -m bench.measure engine N [--cards demo|PATH]`` — the engine against the reference
``python -m bench.measure e2e N`` — a registration workbook of N players, end to end
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from bench.reference import ReferenceChecker, Verdict, engine_verdicts
from bench.synth import synthesize
from validator.cards import CardDB
from validator.engine import check
from validator.formats import load_format
from validator.setup import load_banlist
from validator.store import load_cards

SHARED_CARDS = Path(__file__).resolve().parent.parent.parent / "shared/data/ygojson/cards.json"
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


def _reference(checker: ReferenceChecker, decks: pl.DataFrame, listed: pl.DataFrame,
               players: int) -> tuple[Counter[Verdict], float]:
    """Reference verdicts, converting to Python objects chunk by chunk; only checking is
    timed (conversion is left out, which favours the reference)."""
    verdicts: Counter[Verdict] = Counter()
    spent = 0.0
    number = pl.col("deck_id").str.slice(1).cast(pl.Int64)
    for start in range(0, players, REFERENCE_CHUNK):
        chunk = number.is_between(start, start + REFERENCE_CHUNK - 1)
        grouped: dict[str, tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]] = {}
        for which, frame in enumerate((decks, listed)):
            rows = frame.filter(chunk).select("deck_id", pl.col("section").cast(pl.Utf8),
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
    cards = _cards(cards_spec)
    fmt = load_format("advanced-tcg")
    event = synthesize(cards, load_banlist(None, None, fmt, cards), fmt, players)
    folder = Path(tempfile.gettempdir()) / "deckcheck-bench-events"
    folder.mkdir(exist_ok=True)
    decks = folder / f"{players}-{cards_spec.replace('/', '_')}-decks.parquet"
    event.decks.write_parquet(decks)
    event.registered.write_parquet(decks.with_name(decks.name.replace("-decks", "-lists")))
    return {"players": players, "rows": event.decks.height}


@dataclass
class _Event:
    decks: pl.DataFrame
    registered: pl.DataFrame


def engine(players: int, cards_spec: str, with_reference: bool) -> dict[str, Any]:
    cards = _cards(cards_spec)
    fmt = load_format("advanced-tcg")
    banlist = load_banlist(None, None, fmt, cards)
    decks_file, lists_file = _event_files(players, cards_spec)
    decks = pl.read_parquet(decks_file)
    rows = decks.height
    base = _memory()["VmRSS"]
    _reset_peak()
    began = time.perf_counter()
    legality = check(decks, cards=cards, fmt=fmt, banlist=banlist)
    legality_s = time.perf_counter() - began
    legality_peak = _memory()["VmHWM"]
    legality_stages = legality.timings
    del legality
    event = _Event(decks, pl.read_parquet(lists_file))
    lists_base = _memory()["VmRSS"]
    _reset_peak()
    began = time.perf_counter()
    result = check(event.decks, cards=cards, fmt=fmt, banlist=banlist,
                   registered=event.registered)
    lists_s = time.perf_counter() - began
    lists_peak = _memory()["VmHWM"]
    out: dict[str, Any] = {
        "players": players, "rows": rows, "cards": cards.sources[0]["source"],
        "input_rss": base, "lists_input_rss": lists_base, "legality_s": legality_s,
        "legality_peak": legality_peak,
        "lists_s": lists_s, "lists_peak": lists_peak,
        "legality_stages": legality_stages, "lists_stages": result.timings,
        "violations": result.violations.height,
        "illegal": int((~result.decks["legal"]).sum()),
    }
    if with_reference:
        mine = engine_verdicts(result.violations)
        del result
        checker = ReferenceChecker(cards, banlist, fmt)
        theirs, spent = _reference(checker, event.decks, event.registered, players)
        out["reference_s"] = spent
        out["identical"] = mine == theirs
        out["differences"] = sum(((mine - theirs) + (theirs - mine)).values())
    return out


def end_to_end(players: int, cards_spec: str) -> dict[str, Any]:
    """Long-layout workbook of typed names: read, resolve, check, write the XLSX report."""
    from openpyxl import Workbook

    from validator.event import run_event
    from validator.penalties import load_policy
    from validator.report_event import write_event_xlsx

    cards = _cards(cards_spec)
    fmt = load_format("advanced-tcg")
    banlist = load_banlist(None, None, fmt, cards)
    event = synthesize(cards, banlist, fmt, players)
    names = cards.by_card.select("card_id", "name_en")
    table = (event.registered.join(cards.cards.select("passcode", "card_id"), on="passcode",
                                   how="left")
             .join(names, on="card_id", how="left")
             .select("deck_id", pl.col("section").cast(pl.Utf8), "qty",
                     pl.coalesce(pl.col("name_en"), pl.col("passcode").cast(pl.Utf8))))
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-e2e-"))
    workbook_path = folder / "registrations.xlsx"
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Registrations")
    sheet.append(["Player ID", "Section", "Qty", "Card Name"])
    for row in table.iter_rows():
        sheet.append(list(row))
    workbook.save(workbook_path)
    stages: dict[str, float] = {}
    _reset_peak()
    began = time.perf_counter()
    from validator.readers.registrations import read_registrations

    registrations = read_registrations(workbook_path)
    stages["read"] = time.perf_counter() - began
    began = time.perf_counter()
    result = run_event(workbook_path, cards=cards, fmt=fmt, banlist=banlist)
    stages["read+resolve+check"] = time.perf_counter() - began
    began = time.perf_counter()
    write_event_xlsx(result, load_policy("th"), "pre-event", "en", folder / "report.xlsx")
    stages["write report"] = time.perf_counter() - began
    return {"players": players, "rows": table.height, "stages": stages,
            "total_s": stages["read+resolve+check"] + stages["write report"],
            "peak": _memory()["VmHWM"], "entries": registrations.entries.height,
            "problems": len(registrations.problems)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["engine", "e2e", "synth"])
    parser.add_argument("players", type=int)
    parser.add_argument("--cards", default="auto")
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args()
    if args.what == "synth":
        print(json.dumps(synth(args.players, args.cards)))
    elif args.what == "engine":
        print(json.dumps(engine(args.players, args.cards, not args.no_reference)))
    else:
        print(json.dumps(end_to_end(args.players, args.cards)))


if __name__ == "__main__":
    main()
