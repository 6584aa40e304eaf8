"""Omega codes against YDK files: the same decks through ``deckcheck check DIR --json``.

``python -m bench.codes [--decks N] [--repeats R]`` writes N YDK files from the real decks in
``../shared/data/decks/windbot/`` (shuffled, seeded, as ``bench.files`` does) and the same N
decks as Omega codes (``.omega`` files), imports the real card data and the TCG list into a
fresh data store, then times both folders side by side in one run, in new processes,
alternating (process start to JSON written), and prints the medians and their ratio. Target:
the Omega folder within 1.5× the time of the YDK folder.

Both reports must give every deck the same status and the same violation codes (an Omega
code keeps an unknown passcode of the extra deck in the main deck: its ``UNKNOWN_CARD``
names another section, the same code); the script exits non-zero if they differ.
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

from bench.files import DECKS, FORMAT, ROOT, SHARED, SOURCES, _timed, write_decks

TARGET = 1.5


def write_omega(ydk: Path, omega: Path) -> None:
    """Each YDK file of ``ydk`` as an Omega code in ``omega`` (same name, ``.omega``)."""
    from validator.inputs.decks.codes import to_omega

    omega.mkdir(parents=True, exist_ok=True)
    for path in sorted(ydk.glob("*.ydk")):
        sections: dict[str, list[int]] = {"#main": [], "#extra": [], "!side": []}
        current = sections["#main"]
        for line in path.read_text().splitlines():
            line = line.strip()
            if line in sections:
                current = sections[line]
            elif line.isdigit():
                current.append(int(line))
        code = to_omega(sections["#main"], sections["#extra"], sections["!side"])
        (omega / f"{path.stem}.omega").write_text(code + "\n")


def _verdicts(report: Path) -> dict[str, tuple[str, list[str]]]:
    decks = json.loads(report.read_text())["decks"]
    return {d["deck_id"]: (d["status"], sorted(v["code"] for v in d["violations"]))
            for d in decks}


def run(count: int, repeats: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="deckcheck-codes-"))
    try:
        ydk, omega, store = work / "ydk", work / "omega", work / "data"
        write_decks(ydk, count)
        write_omega(ydk, omega)
        env = {**os.environ, "DECKCHECK_DATA": str(store)}
        exe = str(Path(sys.executable).with_name("deckcheck"))
        subprocess.run([exe, "data", "import", *map(str, SOURCES)], env=env, check=True,
                       capture_output=True)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "validator")],
                       check=True, capture_output=True)
        reports = {"ydk": work / "ydk.json", "omega": work / "omega.json"}

        def command(kind: str) -> list[str]:
            return [exe, "check", str(work / kind), "--format", FORMAT, "--json",
                    str(reports[kind]), "--quiet"]

        _timed(command("ydk"), env)  # warm the file cache and the store for both
        _timed(command("omega"), env)
        times: dict[str, list[float]] = {"ydk": [], "omega": []}
        for _ in range(repeats):
            for kind in times:
                times[kind].append(_timed(command(kind), env))
        mine, theirs = _verdicts(reports["omega"]), _verdicts(reports["ydk"])
        ydk_s, omega_s = statistics.median(times["ydk"]), statistics.median(times["omega"])
        return {"decks": count, "repeats": repeats, "ydk_s": ydk_s, "omega_s": omega_s,
                "ydk_runs": times["ydk"], "omega_runs": times["omega"],
                "ratio": omega_s / ydk_s, "target": TARGET,
                "identical": mine == theirs and len(mine) == count,
                "differences": sum(mine.get(k) != v for k, v in theirs.items())}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not all(path.exists() for path in (DECKS, *SOURCES)):  # skipped, not failed
        print(json.dumps({"skipped": f"bench.codes needs the real data in {SHARED}"}))
        return
    figures = run(args.decks, args.repeats)
    print(f"{figures['decks']} decks: YDK {figures['ydk_s']:.2f} s, Omega "
          f"{figures['omega_s']:.2f} s, ratio {figures['ratio']:.2f}× "
          f"(target ≤ {TARGET}×)", file=sys.stderr)
    print(json.dumps(figures))
    if not figures["identical"]:
        raise SystemExit(f"verdicts differ for {figures['differences']} decks")
    if figures["ratio"] > TARGET:
        raise SystemExit(f"Omega files took {figures['ratio']:.2f}× the YDK time")


if __name__ == "__main__":
    main()
