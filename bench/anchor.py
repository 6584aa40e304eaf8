"""The engine beside its anchors in one run: the DuckDB query and the polars floor.

``python -m bench.anchor [--sizes 100000 1000000] [--repeats 3] [--baseline REV]``: at each
size, legality only and with lists, the engine (read + check), the DuckDB query of
``bench.sql`` (read included) and the polars floor (``scan_parquet`` and one ``group_by``
over the same rows), each in a new process, the three interleaved run after run so that a
busy machine slows all of them alike; medians and ratios, CPU times and the engine's stages
(``CheckResult.timings``). Verdicts of the engine and DuckDB are compared in every run (and
with the reference checker at sizes up to ``--reference-max``); a difference stops the run.
With ``--baseline REV`` the engine of that revision (a detached git worktree in a temporary
folder, run with this interpreter and that tree first on the path) runs too, just before
this checkout's in every run, on the same files: its time, CPU and stages beside this
checkout's. Prints the Markdown section, then one JSON line.

Every process of a run has the run's own scratch folder as its temporary folder
(``TMPDIR``): the verdict files it writes and compares are its own, so two runs at once
cannot compare each other's; the card store and the synthetic events (made once, in the
usual temporary folder) are linked into it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import checkout
from bench.measure import SHARED_CARDS, _event_files, same_verdicts

ROOT = Path(__file__).resolve().parent.parent
MODES = ("legality", "lists")


#: the folder ``bench.measure`` keeps its card store in, and its events and verdicts
_STORE, _EVENTS = "deckcheck-bench-store", "deckcheck-bench-events"


def scratch(work: Path, players: int, cards: str) -> Path:
    """The temporary folder of a run's processes in its scratch folder ``work``: the card
    store and the synthetic event of ``players`` decks (made here when missing) linked in,
    verdict files written there by each process."""
    tmp = work / "tmp"
    (tmp / _EVENTS).mkdir(parents=True, exist_ok=True)
    store = Path(tempfile.gettempdir()) / _STORE
    store.mkdir(exist_ok=True)
    if not (tmp / _STORE).exists():
        (tmp / _STORE).symlink_to(store)
    for made in _event_files(players, cards):
        linked = tmp / _EVENTS / made.name
        if not linked.exists():
            linked.symlink_to(made)
    return tmp


def _verdicts(tmp: Path, kind: str, players: int) -> Path:
    """The verdict file ``bench.measure`` writes under the temporary folder ``tmp``."""
    return tmp / _EVENTS / f"{kind}-{players}.parquet"


def _child(*args: str, tmp: Path, tree: Path = ROOT) -> dict[str, Any]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run([sys.executable, "-m", "bench.measure", *args], cwd=tree,
                         capture_output=True, text=True, check=False, env=env)
    if out.returncode != 0:
        raise SystemExit(f"bench.measure {' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _cards_used(cards: str) -> str:
    """The card source ``bench.measure`` reads for ``--cards``, as its JSON names it."""
    if cards != "auto":
        return cards
    return str(SHARED_CARDS) if SHARED_CARDS.exists() else "demo"


def _stages(runs: list[dict[str, float]]) -> dict[str, float]:
    """The median of each stage of the engine's runs (wall seconds)."""
    return {stage: statistics.median(r.get(stage, 0.0) for r in runs) for stage in runs[0]}


def measure(players: int, cards: str, repeats: int, reference_max: int, work: Path,
            baseline: Path | None = None) -> dict[str, Any]:
    """Medians (and every run) of engine, DuckDB and floor in both modes at one size (and of
    the ``baseline`` tree's engine), each process with the temporary folder of ``work``."""
    out: dict[str, Any] = {"players": players}
    tmp = scratch(work, players, cards)
    for mode in MODES:
        runs: dict[str, list[float]] = {"engine": [], "duckdb": [], "floor": []}
        cpu: dict[str, list[float]] = {"engine": [], "duckdb": []}
        stages: dict[str, list[dict[str, float]]] = {"engine": []}
        if baseline is not None:
            runs["baseline"], cpu["baseline"], stages["baseline"] = [], [], []
        for at in range(repeats):
            flags = ["--no-reference"] if (at or mode == "legality"
                                           or players > reference_max) else []
            if baseline is not None:  # first: its verdicts file is then the engine's own
                before = _child("engine", str(players), "--mode", mode, "--cards", cards,
                                "--no-reference", tmp=tmp, tree=baseline)
                if Path(before["cards"]).resolve() != Path(_cards_used(cards)).resolve():
                    raise SystemExit(f"the baseline checked other card data: {before['cards']}")
                runs["baseline"].append(before["read_s"] + before["check_s"])
                cpu["baseline"].append(before["cpu_s"])
                stages["baseline"].append(before["stages"])
                shutil.copyfile(_verdicts(tmp, f"engine-{mode}", players),
                                _verdicts(tmp, f"baseline-{mode}", players))
            engine = _child("engine", str(players), "--mode", mode, "--cards", cards, *flags,
                            tmp=tmp)
            if baseline is not None:  # the same verdicts before and after
                differ = same_verdicts(_verdicts(tmp, f"engine-{mode}", players),
                                       _verdicts(tmp, f"baseline-{mode}", players))
                out[f"{mode}_baseline_differences"] = max(
                    differ, out.get(f"{mode}_baseline_differences", 0))
            if "identical" in engine and not engine["identical"]:
                raise SystemExit(f"engine and reference disagree at {players} decks: "
                                 f"{engine['differences']} differences")
            out.setdefault(f"{mode}_reference", engine.get("identical"))
            duckdb = _child("duckdb", str(players), "--mode", mode, "--cards", cards, tmp=tmp)
            if duckdb["differences"]:
                raise SystemExit(f"engine and DuckDB disagree at {players} decks ({mode}): "
                                 f"{duckdb['differences']} differences")
            floor = _child("floor", str(players), "--mode", mode, "--cards", cards, tmp=tmp)
            runs["engine"].append(engine["read_s"] + engine["check_s"])
            runs["duckdb"].append(duckdb["duckdb_s"])
            runs["floor"].append(floor["floor_s"])
            cpu["engine"].append(engine["cpu_s"])
            cpu["duckdb"].append(duckdb["cpu_s"])
            stages["engine"].append(engine["stages"])
            out["rows"] = engine["rows"]
            out[f"{mode}_verdicts"] = duckdb["verdicts"]
        out[mode] = {name: statistics.median(times) for name, times in runs.items()}
        out[f"{mode}_cpu"] = {name: statistics.median(times) for name, times in cpu.items()}
        out[f"{mode}_runs"] = runs
        out[f"{mode}_stages"] = {name: _stages(s) for name, s in stages.items()}
    return out


def markdown(results: list[dict[str, Any]], repeats: int) -> list[str]:
    """The section of ``bench/results.md``."""
    lines = [
        "## The engine beside the best DuckDB query and the polars floor",
        "",
        "Same Parquet files, same run, each measurement a new process, the three interleaved "
        f"(median of {repeats} runs; `python -m bench.anchor`). *Engine*: read (deck ids as "
        "categoricals) + `validator.engine.check`; *DuckDB*: the query of `bench/sql.py`, "
        "reading included; *floor*: `pl.scan_parquet(...).group_by('deck_id', "
        "'passcode').agg(pl.col('qty').sum())` over the same rows (decks, and lists in "
        "*with lists*). Verdicts of engine and DuckDB identical in every run (and with the "
        "reference checker where it ran). CPU: user + system time of the process, all "
        "threads.",
        "",
        "| decks | mode | engine (s) | DuckDB (s) | floor (s) | engine / DuckDB | "
        "engine / floor | engine CPU (s) | DuckDB CPU (s) | verdicts |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        for mode in MODES:
            t, c = r[mode], r[f"{mode}_cpu"]
            lines.append(
                f"| {r['players']:,} | {'legality' if mode == 'legality' else 'with lists'} | "
                f"{t['engine']:.2f} | {t['duckdb']:.2f} | {t['floor']:.2f} | "
                f"{t['engine'] / t['duckdb']:.2f} | {t['engine'] / t['floor']:.2f} | "
                f"{c['engine']:.2f} | {c['duckdb']:.2f} | {r[f'{mode}_verdicts']:,} |")
    if any("baseline" in r[mode] for r in results for mode in MODES):
        lines += ["", "The engine before (the baseline revision) and after, same files, same "
                  "runs (read + check, and CPU: user + system):", "",
                  "| decks | mode | before (s) | after (s) | after / before | before CPU (s) | "
                  "after CPU (s) |", "|---:|---|---:|---:|---:|---:|---:|"]
        for r in results:
            for mode in MODES:
                t, c = r[mode], r[f"{mode}_cpu"]
                lines.append(f"| {r['players']:,} | {mode} | {t['baseline']:.2f} | "
                             f"{t['engine']:.2f} | {t['engine'] / t['baseline']:.2f} | "
                             f"{c['baseline']:.2f} | {c['engine']:.2f} |")
        lines += ["", "Verdicts before and after: " + ", ".join(
            f"{r['players']:,} {mode} {r.get(f'{mode}_baseline_differences', '?')} differences"
            for r in results for mode in MODES) + "."]
    lines += ["", "Engine stages (median wall s of `CheckResult.timings`):", ""]
    for r in results:
        for mode in MODES:
            for name, stages in r[f"{mode}_stages"].items():
                lines.append(f"- {r['players']:,} decks, {mode}, {name}: " + ", ".join(
                    f"{stage} {seconds:.2f}" for stage, seconds in stages.items()))
    lines += ["", "Every run (s), engine / DuckDB / floor:", ""]
    for r in results:
        for mode in MODES:
            runs = r[f"{mode}_runs"]
            lines.append(f"- {r['players']:,} decks, {mode}: " + "; ".join(
                f"{e:.2f} / {d:.2f} / {f:.2f}"
                for e, d, f in zip(runs["engine"], runs["duckdb"], runs["floor"], strict=True)))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference-max", type=int, default=100_000)
    parser.add_argument("--cards", default="auto")
    parser.add_argument("--baseline", default=None,
                        help="a git revision whose engine runs beside this checkout's")
    args = parser.parse_args()
    results = []
    work = Path(tempfile.mkdtemp(prefix="deckcheck-anchor-"))
    baseline = work / "baseline" if args.baseline else None
    if baseline is not None:
        checkout.add(baseline, args.baseline)
        # the baseline's bench reads ../shared beside its tree, as this checkout's does
        (work / "shared").symlink_to(ROOT.parent / "shared")
    try:
        for players in args.sizes:
            results.append(measure(players, args.cards, args.repeats, args.reference_max,
                                   work, baseline))
            _progress(results[-1])
    finally:
        checkout.clear(work)
    print("\n".join(markdown(results, args.repeats)))
    print(json.dumps({"repeats": args.repeats, "baseline": args.baseline,
                      "load": os.getloadavg(), "results": results}))


def _progress(r: dict[str, Any]) -> None:
    """One line on stderr per size, as it is measured."""
    print(f"{r['players']:,} decks: " + "; ".join(
        f"{mode} engine {r[mode]['engine']:.2f} s, DuckDB {r[mode]['duckdb']:.2f} s, "
        f"floor {r[mode]['floor']:.2f} s ({r[mode]['engine'] / r[mode]['duckdb']:.2f}x "
        f"DuckDB, {r[mode]['engine'] / r[mode]['floor']:.2f}x floor)"
        + (f", before {r[mode]['baseline']:.2f} s" if "baseline" in r[mode] else "")
        for mode in MODES), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
