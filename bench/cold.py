"""Cold start as a user installs it: ``deckcheck check one.ydk`` with real card data stored.

``python -m bench.cold [--venv DIR] [--runs 7] [--baseline REV]``: the package installed (not
editable) with ``pip install .`` into a throwaway virtual environment (or ``DIR``, reused),
the real card data and the TCG list imported with ``deckcheck data import ... --data-dir D``,
then ``deckcheck check DECK.ydk --data-dir D`` timed from process start, each run a new
process: wall time, CPU time (user + system) and page faults; and the slowest imports of one
run (``python -X importtime``, cumulative). Prints one JSON line.

With ``--baseline REV`` that revision is installed too (a detached git worktree, its own
virtual environment and data store) and the two are timed alternately, run by run, so both
see the same load: ``before`` and ``after`` beside each other, with the ratios, and the
polars floor timed in the same rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import checkout
from bench.files import DECKS, ROOT, SOURCES

#: the floor of any check: the interpreter started and polars imported, nothing else
FLOOR = ["-c", "import polars, os; os._exit(0)"]


def _installed(venv: Path, root: Path = ROOT) -> Path:
    exe = venv / "bin" / "deckcheck"
    if not exe.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        str(root)], check=True, capture_output=True)
    return exe


def _run(command: list[str]) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.decode()[-2000:]}")
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime)
            + (after.ru_stime - before.ru_stime), "faults": after.ru_minflt - before.ru_minflt}


def _imports(python: Path, command: list[str]) -> list[tuple[str, float]]:
    done = subprocess.run([str(python), "-X", "importtime", *command], capture_output=True,
                          text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line.removeprefix("import time:").split("|")
        if cumulative.strip().isdigit() and not name[1:].startswith(" "):  # top level
            rows.append((name.strip(), int(cumulative) / 1e6))
    return sorted(rows, key=lambda row: -row[1])[:12]


def _floor(floors: list[dict[str, float]], timed: list[dict[str, float]]
           ) -> dict[str, float]:
    """The floor's medians (wall, CPU) and the tool's gap over it, from the same rounds."""
    wall = statistics.median(t["wall"] for t in floors)
    cpu = statistics.median(t["cpu"] for t in floors)
    return {"floor_wall_median": wall, "floor_cpu_median": cpu,
            "gap_wall": statistics.median(t["wall"] for t in timed) - wall,
            "gap_cpu": statistics.median(t["cpu"] for t in timed) - cpu}


def run(venv: Path | None, runs: int, root: Path = ROOT,
        deck: Path | None = None) -> dict[str, Any]:
    """The figures of the checkout at ``root`` (this one unless given), checking ``deck``
    (else the first real deck)."""
    work = Path(tempfile.mkdtemp(prefix="deckcheck-cold-"))
    try:
        exe = _installed(venv or work / "venv", root)
        data = work / "data"
        subprocess.run([str(exe), "data", "import", *map(str, SOURCES), "--data-dir",
                        str(data)], check=True, capture_output=True)
        deck = deck or sorted(DECKS.rglob("*.ydk"))[0]
        command = [str(exe), "check", str(deck), "--data-dir", str(data)]
        floor = [str(exe.with_name("python")), *FLOOR]
        _run(command)  # the file cache warm, as for a user's second run
        timed, floors = [], []
        for _ in range(runs):  # the floor in the same rounds: both see the same load
            timed.append(_run(command))
            floors.append(_run(floor))
        bare = [_run([str(exe.with_name("python")), "-c", "pass"]) for _ in range(3)]
        polars = [_run([str(exe.with_name("python")), "-c", "import polars"])
                  for _ in range(3)]
        return {
            "deck": deck.name, "runs": runs,
            **{f"{key}_median": statistics.median(t[key] for t in timed)
               for key in ("wall", "cpu", "faults")},
            "walls": [t["wall"] for t in timed],
            **_floor(floors, timed),
            "python_wall": statistics.median(t["wall"] for t in bare),
            "polars_wall": statistics.median(t["wall"] for t in polars),
            "polars_faults": statistics.median(t["faults"] for t in polars),
            "imports": _imports(exe.with_name("python"),
                                ["-c", "from validator.cli import main; main()", "check",
                                 str(deck), "--data-dir", str(data)]),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def side_by_side(baseline: str, runs: int, deck: Path | None = None) -> dict[str, Any]:
    """``baseline`` and this checkout, each installed with its own data store, timed
    alternately (one run of each in turn)."""
    work = Path(tempfile.mkdtemp(prefix="deckcheck-cold-"))
    base = work / "baseline"
    try:
        checkout.add(base, baseline)
        deck = deck or sorted(DECKS.rglob("*.ydk"))[0]
        commands = {}
        for name, root in (("before", base), ("after", ROOT)):
            exe = _installed(work / f"venv-{name}", root)
            data = work / f"data-{name}"
            subprocess.run([str(exe), "data", "import", *map(str, SOURCES), "--data-dir",
                            str(data)], check=True, capture_output=True)
            commands[name] = [str(exe), "check", str(deck), "--data-dir", str(data)]
            _run(commands[name])  # the file cache warm
        floor = [str(Path(commands["after"][0]).with_name("python")), *FLOOR]
        timed: dict[str, list[dict[str, float]]] = {name: [] for name in commands}
        floors = []
        load_before = os.getloadavg()
        for _ in range(runs):
            for name, command in commands.items():
                timed[name].append(_run(command))
            floors.append(_run(floor))
        medians = {name: {key: statistics.median(t[key] for t in times)
                          for key in ("wall", "cpu", "faults")}
                   for name, times in timed.items()}
        figures = {name: {**{f"{key}_median": value for key, value in medians[name].items()},
                          "walls": [t["wall"] for t in times],
                          "cpus": [t["cpu"] for t in times]}
                   for name, times in timed.items()}
        return {"deck": deck.name, "baseline": baseline, "runs": runs, **figures,
                "wall_ratio": medians["before"]["wall"] / medians["after"]["wall"],
                "cpu_ratio": medians["before"]["cpu"] / medians["after"]["cpu"],
                **_floor(floors, timed["after"]),
                "load_before": load_before, "load_after": os.getloadavg()}
    finally:
        checkout.clear(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=None,
                        help="install into (or reuse) this virtual environment")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", default=None,
                        help="a git revision timed alternately with this checkout")
    args = parser.parse_args()
    if not all(path.exists() for path in (DECKS, *SOURCES)):
        print(json.dumps({"skipped": "bench.cold needs the real data in ../shared/data"}))
        return
    os.environ.pop("DECKCHECK_DATA", None)
    if args.baseline:
        print(json.dumps(side_by_side(args.baseline, args.runs)))
        return
    print(json.dumps(run(args.venv, args.runs)))


if __name__ == "__main__":
    main()
