"""``make bench``: the engine beside the per-deck reference, end to end, and cold start.

Every figure comes from one run of this script; each measurement runs in its own process so
its peak memory is its own. Prints a table and writes ``bench/results.md`` with the machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1_000, 10_000, 100_000, 1_000_000)
TARGETS = {
    "ratio": "engine ≥ 10× faster than the reference at 100k decks, identical verdicts",
    "million": "1M decks through the engine in ≤ 10 s with peak RSS ≤ 3 GB",
    "e2e": "10k-player XLSX event end to end in ≤ 10 s",
    "cold": "`deckcheck check` of one YDK with the stored card data in ≤ 1 s wall, cold",
}


def _child(*args: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "bench.measure", *args], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench.measure {' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _machine() -> str:
    cpu = "unknown CPU"
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kb = int(meminfo.read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.1f} GiB memory"
    import polars

    return (f"{os.cpu_count()} cores ({cpu}){memory}; Python {platform.python_version()}, "
            f"polars {polars.__version__}; {platform.platform()}")


def _cold_start(cards: str) -> dict[str, float]:
    """Wall time of `deckcheck check one.ydk` in a new process, with a stored card DB."""
    store = Path(tempfile.mkdtemp(prefix="deckcheck-cold-"))
    env = {**os.environ, "DECKCHECK_DATA": str(store)}
    exe = Path(sys.executable).with_name("deckcheck")
    subprocess.run([str(exe), "data", "import", cards], env=env, check=True,
                   capture_output=True)
    deck = ROOT / "decks" / "tcg" / "0400001301.ydk"
    times = []
    for _ in range(5):
        began = time.perf_counter()
        subprocess.run([str(exe), "check", str(deck), "--json", os.devnull], env=env,
                       capture_output=True, check=False)
        times.append(time.perf_counter() - began)
    shutil.rmtree(store, ignore_errors=True)
    return {"first": times[0], "median": statistics.median(times), "max": max(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--reference-max", type=int, default=1_000_000,
                        help="largest event the reference checker also runs")
    parser.add_argument("--e2e", type=int, default=10_000)
    parser.add_argument("--cards", default="auto")
    args = parser.parse_args()

    rows = []
    for n in args.sizes:
        flags = ["--cards", args.cards] + (["--no-reference"] if n > args.reference_max else [])
        result = _child("engine", str(n), *flags)
        rows.append(result)
        ratio = (result["reference_s"] / result["lists_s"]) if "reference_s" in result else None
        print(f"{n:>9,} decks: engine {result['legality_s']:.2f} s legality, "
              f"{result['lists_s']:.2f} s with lists; reference "
              + (f"{result['reference_s']:.2f} s ({ratio:.1f}x), identical="
                 f"{result['identical']}" if ratio else "not run"), flush=True)
        if "identical" in result and not result["identical"]:
            raise SystemExit(f"engine and reference disagree at {n} decks: "
                             f"{result['differences']} differences")
    e2e = _child("e2e", str(args.e2e), "--cards", args.cards)
    print(f"end to end {args.e2e:,} players: {e2e['total_s']:.2f} s", flush=True)
    cards = rows[0]["cards"]
    cold = _cold_start(cards if cards != "demo" else str(ROOT / "validator/data/demo_cards.csv"))
    print(f"cold start: first {cold['first']:.2f} s, median {cold['median']:.2f} s")
    report = _markdown(rows, e2e, cold, cards)
    (ROOT / "bench" / "results.md").write_text(report)
    print(report)


def _gb(value: int) -> str:
    return f"{value / 1e9:.2f}"


def _markdown(rows: list[dict[str, Any]], e2e: dict[str, Any], cold: dict[str, float],
              cards: str) -> str:
    lines = [
        "# Benchmark results",
        "",
        f"Run {dt.date.today().isoformat()} with `make bench` on: {_machine()}.",
        f"Card pool: `{Path(cards).name}`; format advanced-tcg; synthetic events from "
        "`bench/synth.py` (seeded), ~2% of decks per violation kind and 2% with a list/deck "
        "difference.",
        "",
        "## Engine beside the per-deck reference (`bench/reference.py`)",
        "",
        "Engine times are for `validator.engine.check` on a ready entry table; *legality* "
        "checks the decks, *with lists* also compares each deck with its registered list. "
        "The reference does the same work (legality and list comparison), one deck at a time "
        "in Python; converting rows to Python objects for it is not timed. Peak RSS is the "
        "process's, input data included (the process holds the decks, and for *with lists* "
        "the lists too, read from Parquet; *input* is its RSS before the engine starts).",
        "",
        "| decks | rows | input (GB) | engine legality (s) | peak RSS (GB) | engine with lists "
        "(s) | peak RSS (GB) | decks/s (with lists) | reference (s) | reference / engine | "
        "identical verdicts |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        reference = r.get("reference_s")
        lines.append(
            f"| {r['players']:,} | {r['rows']:,} | {_gb(r['input_rss'])} | {r['legality_s']:.2f} | "
            f"{_gb(r['legality_peak'])} | {r['lists_s']:.2f} | {_gb(r['lists_peak'])} | "
            f"{r['players'] / r['lists_s']:,.0f} | "
            + (f"{reference:.2f} | {reference / r['lists_s']:.1f}× | "
               f"{'yes' if r['identical'] else 'NO'} |" if reference is not None
               else "not run | | |"))
    largest = rows[-1]
    if "legality_stages" in largest:
        lines += ["", f"Where the engine's time goes at {largest['players']:,} decks "
                  "(`CheckResult.timings`):", "",
                  "| stage | legality (s) | with lists (s) |", "|---|---:|---:|"]
        lines += [f"| {stage} | {largest['legality_stages'].get(stage, 0):.2f} | "
                  f"{largest['lists_stages'].get(stage, 0):.2f} |"
                  for stage in largest["lists_stages"]]
    stages = ", ".join(f"{k} {v:.2f} s" for k, v in e2e["stages"].items())
    lines += [
        "",
        f"## End to end: {e2e['players']:,}-player registration workbook",
        "",
        f"{e2e['rows']:,} rows of typed card names in one XLSX (long layout): {stages}; "
        f"total {e2e['total_s']:.2f} s, peak RSS {_gb(e2e['peak'])} GB.",
        "",
        "## Cold start",
        "",
        f"`deckcheck check` of one YDK with the stored card data, new process each time: "
        f"first {cold['first']:.2f} s, median {cold['median']:.2f} s, max {cold['max']:.2f} s.",
        "",
        "## Targets",
        "",
    ]
    lines += [f"- {text}" for text in TARGETS.values()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
