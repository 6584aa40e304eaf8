"""Filled PDF sheets through ``deckcheck event``, beside a plain pikepdf loop over the same files.

``python -m bench.pdf [--sheets N] [--national N] [--repeats R]`` builds, in a temporary
folder, from the 64 lists of the sample regional (demo card pool, no id on the sheet: the id
is the file name):

- ``small``: N small AcroForm sheets written with pikepdf (a few KB: one text field for the
  count and one for the name of each filled row, the 2022 sheet's field names);
- ``sample``: N copies of the 154 KiB sample sheets (``sample_decklists/pdf/``), each copy
  given its own id in place (the same bytes otherwise);
- ``national``: the national event, ``--national`` small sheets (7,443: YCS Japan 2024).

Then times, from process start and side by side (taken in turn, ``--repeats`` times):

- the tool: ``deckcheck event DIR --cards demo --report R.xlsx --json R.json --quiet``
  (every sheet read, checked, and the XLSX and JSON reports written);
- the plain loop: ``python -m bench.pdf loop DIR`` (one process: open each file with
  pikepdf and read every field's name and value).

With ``--baseline DIR`` (a checkout of another revision, e.g. ``git worktree add DIR main``)
the tool of that checkout is timed in the same turns (the same environment, ``PYTHONPATH=DIR``).

``python -m bench.pdf profile DIR`` prints where the tool's time goes over DIR (cProfile).
Prints one JSON line with the medians of wall-clock and CPU time (user + system, of the
process and the processes it started), ms per sheet and the ratios.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_decklists" / "pdf"
FIRST_ID = 4_100_000_000


def _small_sheets() -> list[bytes]:
    """The 64 sample lists as small AcroForm sheets (pikepdf, the fields only)."""
    import io

    import pikepdf

    from bench.sample_event import tcg_sheets
    from validator.cards.store import demo_cards
    from validator.inputs.registrations.pdf import layouts

    layout = layouts()[0]
    blocks = {block.key: block for block in layout.block}
    out = []
    for sheet in tcg_sheets(demo_cards()):
        year, month, day = [*sheet.date.split("-"), "", "", ""][:3]
        values = {layout.first_name: sheet.player_name, layout.player_id: "",
                  layout.event: sheet.event, layout.year: year, layout.month: month,
                  layout.day: day}
        for key, rows in sheet.blocks.items():
            block = blocks[key]  # type: ignore[index]
            for n, (count, name) in enumerate(rows, start=1):
                values[block.count.format(n=n)] = str(count)
                values[block.name.format(n=n)] = name
        pdf = pikepdf.new()
        pdf.add_blank_page()
        fields = [pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget, FT=pikepdf.Name.Tx,
            T=pikepdf.String(name), V=pikepdf.String(value),
            Rect=pikepdf.Array([40, 800 - 6 * i, 240, 806 - 6 * i])))
            for i, (name, value) in enumerate(values.items())]
        pdf.pages[0].Annots = pikepdf.Array(fields)
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array(fields))
        stream = io.BytesIO()
        pdf.save(stream, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        out.append(stream.getvalue())
    return out


def _sample_copy(data: bytes, new_id: int) -> bytes:
    """A sample sheet with another player id, written over its own (the same length)."""
    at = data.index(b"/T (CARD GAME ID)")
    start = data.index(b"/V (", at) + len(b"/V (")
    end = data.index(b")", start)
    if end - start != len(b"%010d" % new_id):
        raise SystemExit("the sample sheet's id is not 10 digits")
    return data[:start] + b"%010d" % new_id + data[end:]


def write_folder(folder: Path, kind: str, count: int) -> int:
    """``count`` sheets of ``kind`` in ``folder``; their size in bytes on average."""
    folder.mkdir(parents=True, exist_ok=True)
    sheets = _small_sheets() if kind == "small" else \
        [path.read_bytes() for path in sorted(SAMPLES.glob("*.pdf"))]
    size = 0
    for i in range(count):
        data = sheets[i % len(sheets)]
        if kind == "sample":
            data = _sample_copy(data, FIRST_ID + i)
        (folder / f"{FIRST_ID + i}.pdf").write_bytes(data)
        size += len(data)
    return size // max(count, 1)


def loop(folder: Path) -> dict[str, int]:
    """The plain loop: every field of every sheet, read with pikepdf, in one process."""
    import pikepdf

    fields = values = 0
    for path in sorted(folder.glob("*.pdf")):
        with pikepdf.open(path) as pdf:
            for field in pdf.Root.AcroForm.Fields:
                name, value = str(field.T), str(field.V) if "/V" in field else ""
                fields += 1
                values += bool(name) and bool(value)
    return {"fields": fields, "values": values}


def _cpu() -> float:
    """CPU time (user + system) of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``command``."""
    cpu = _cpu()
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True,
                          check=False)
    spent = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n"
                         f"{done.stderr[-3000:]}")
    return spent, _cpu() - cpu


def _tool(folder: Path, out: Path) -> list[str]:
    exe = str(Path(sys.executable).with_name("deckcheck"))
    return [exe, "event", str(folder), "--cards", "demo", "--report", str(out / "report.xlsx"),
            "--json", str(out / "report.json"), "--quiet"]


def _medians(runs: list[tuple[float, float]], count: int, label: str) -> dict[str, Any]:
    wall = statistics.median(r[0] for r in runs)
    return {f"{label}_s": wall, f"{label}_cpu_s": statistics.median(r[1] for r in runs),
            f"{label}_runs": [round(r[0], 3) for r in runs],
            f"{label}_ms_per_sheet": 1000 * wall / count}


def run(sheets: int, national: int, repeats: int,
        baseline: Path | None = None) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="deckcheck-pdfbench-"))
    try:
        env = {**os.environ, "DECKCHECK_DATA": str(work / "data")}
        base_env = {**env, "PYTHONPATH": str(baseline)} if baseline else None
        # both sides run from compiled bytecode, as an installed package does
        compiled = [ROOT / "validator", ROOT / "bench",
                    *([baseline / "validator"] if baseline else [])]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *map(str, compiled)],
                       check=True, capture_output=True)
        sets = {"small": ("small", sheets), "sample": ("sample", sheets)}
        if national:
            sets["national"] = ("small", national)
        figures: dict[str, Any] = {"cores": os.cpu_count(), "repeats": repeats,
                                   "load_before": os.getloadavg()[0],
                                   "baseline": str(baseline) if baseline else None}
        for label, (kind, count) in sets.items():
            folder, out = work / label, work / f"{label}-out"
            out.mkdir()
            size = write_folder(folder, kind, count)
            tool = _tool(folder, out)
            plain = [sys.executable, "-m", "bench.pdf", "loop", str(folder)]
            _timed(tool, env)  # the file cache warm for both
            report = json.loads((out / "report.json").read_text())
            runs: dict[str, list[tuple[float, float]]] = {"tool": [], "loop": [], "base": []}
            for _ in range(repeats):
                runs["tool"].append(_timed(tool, env))
                runs["loop"].append(_timed(plain, env))
                if base_env is not None:
                    runs["base"].append(_timed(tool, base_env))
            row: dict[str, Any] = {"sheets": count, "bytes": size,
                                   "players": len(report["players"])}
            for side, timed in runs.items():
                if timed:
                    row.update(_medians(timed, count, side))
            row["ratio"] = row["tool_s"] / row["loop_s"]
            row["cpu_ratio"] = row["tool_cpu_s"] / row["loop_cpu_s"]
            if base_env is not None:
                row["base_ratio"] = row["base_s"] / row["loop_s"]
                row["speedup"] = row["base_s"] / row["tool_s"]
                row["cpu_speedup"] = row["base_cpu_s"] / row["tool_cpu_s"]
            figures[label] = row
            shutil.rmtree(folder)
        figures["load_after"] = os.getloadavg()[0]
        return figures
    finally:
        shutil.rmtree(work, ignore_errors=True)


def profile(folder: Path) -> None:
    """Where ``deckcheck event`` spends its time over ``folder`` (in this process)."""
    from click.testing import CliRunner

    from validator.cli import main

    out = Path(tempfile.mkdtemp(prefix="deckcheck-pdfprofile-"))
    args = _tool(folder, out)[1:]
    profiler = cProfile.Profile()
    profiler.enable()
    CliRunner().invoke(main, args)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="run",
                        choices=["run", "loop", "profile", "write"])
    parser.add_argument("folder", nargs="?", type=Path)
    parser.add_argument("--sheets", type=int, default=1_000)
    parser.add_argument("--national", type=int, default=7_443)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kind", choices=["small", "sample"], default="small")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout of another revision, timed beside this one")
    args = parser.parse_args()
    if args.what == "loop":
        print(json.dumps(loop(args.folder)))
    elif args.what == "profile":
        profile(args.folder)
    elif args.what == "write":
        print(write_folder(args.folder, args.kind, args.sheets))
    else:
        print(json.dumps(run(args.sheets, args.national, args.repeats, args.baseline)))


if __name__ == "__main__":
    main()
