"""The organizer's path: a folder of YDK files through ``deckcheck check DIR --json``.

``python -m bench.files [--decks N]`` writes N YDK files from the real decks in
``../shared/data/decks/`` (shuffled, seeded; copies renamed), imports the real card data and
the TCG list into a fresh data store, then times, side by side in one run, interleaved, in
new processes:

- the tool: ``deckcheck check DIR --json OUT`` (process start to JSON written), the illegal
  decks printed to a pipe as an organizer runs it, and with ``--quiet``;
- the simplest plain per-deck Python loop (``python -m bench.files loop DIR OUT``): the same
  card data and list from the store as plain tuples per passcode, each file read, counted
  with dicts and checked rule by rule.

With ``--baseline REV`` the tool of that revision (a detached git worktree, its own data
store) is timed too, in the same rounds: ``before_s``, ``before_quiet_s``, their CPU times and
the speedups.

Both verdict sets are compared (every deck's violations by code, section and card); the
script exits non-zero if they differ. Prints one JSON line with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import checkout

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
DECKS = SHARED / "decks"
SOURCES = (SHARED / "ygojson" / "cards.json", SHARED / "lflist" / "0TCG.lflist.conf")
FORMAT = "advanced-tcg"
Key = tuple[str, str, str | None, int | None]
# codes whose verdict is about the card name (all printings of it together)
BY_NAME = ("TOO_MANY_COPIES", "LIMIT_EXCEEDED")
DECK_LEVEL = ("MAIN_TOO_SMALL", "MAIN_TOO_LARGE", "EXTRA_TOO_LARGE", "SIDE_TOO_LARGE",
              "LEGEND_LIMIT_EXCEEDED", "POINTS_EXCEEDED", "SKILL_COUNT")


def write_decks(folder: Path, count: int, seed: int = 13) -> int:
    """``count`` YDK files named 00000.ydk…, each a copy of a randomly chosen real deck."""
    texts = [path.read_bytes() for path in sorted(DECKS.rglob("*.ydk"))]
    chooser = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    width = len(str(count - 1))
    for index in range(count):
        (folder / f"{index:0{width}d}.ydk").write_bytes(texts[chooser.randrange(len(texts))])
    return len(texts)


def _card_facts(setup: Any) -> dict[int, tuple[int, int, bool, int | None, bool, bool]]:
    """Per passcode: (card, name, extra deck card, the list's limit, outside the format's
    pool, Skill) — plain tuples read from the card data's tables, no class per card."""
    import polars as pl

    cards, fmt, banlist = setup.cards, setup.fmt, setup.banlist
    limits = banlist.bind(cards).cards.select("card_id", "limit", "listed")
    unreleased = (cards.legality.filter(pl.col("status") == "unreleased")
                  .join(cards.printings.select("passcode", "card_id"), on="passcode")
                  .group_by("card_id").agg(pl.col("region").alias("unreleased")))
    table = (cards.printings.select("passcode", "card_id").drop_nulls()
             .join(cards.by_card.select("card_id", "name_id", "kind", "extra", "rush",
                                        "pools"), on="card_id")
             .join(limits, on="card_id", how="left")
             .join(unreleased, on="card_id", how="left"))
    pool = set(fmt.card_pool)
    own_list = bool(pool) and fmt.owns_list(banlist.name)
    facts = {}
    for passcode, card, name, kind, extra, rush, pools, limit, listed, said in \
            table.iter_rows():
        listed = bool(listed)
        outside = rush != fmt.rush or kind not in fmt.allowed_kinds or (
            banlist.whitelist and not listed)
        if pool and pools is not None and not (own_list and listed) \
                and not pool.intersection(pools):
            # unreleased in the pool only when a source says so
            outside = outside or bool(pools) or bool(pool.intersection(said or ()))
        facts[passcode] = (card, name, extra, limit, outside, kind == "skill")
    return facts


def loop(folder: Path, out: Path) -> None:
    """The plain per-deck loop: each file read and counted with dicts, the rules of the
    format (advanced-tcg: sizes, copies, Forbidden/Limited, card pool, wrong section,
    unknown cards) checked deck by deck; writes its verdicts as JSON
    ``[deck, code, section, key]``."""
    from validator.cards.load import load

    setup = load(FORMAT)
    fmt = setup.fmt
    facts = _card_facts(setup)
    verdicts: list[Any] = []
    decks = 0
    for file_name in sorted(os.listdir(folder)):
        if not file_name.endswith(".ydk"):
            continue
        decks += 1
        deck = file_name[:-4]
        with open(folder / file_name, encoding="utf-8-sig") as stream:
            text = stream.read()
        section = "main"
        counts: dict[tuple[str, int], int] = {}
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("#main"):
                section = "main"
            elif line.startswith("#extra"):
                section = "extra"
            elif line.startswith("!side"):
                section = "side"
            elif line.isdigit():
                key = (section, int(line))
                counts[key] = counts.get(key, 0) + 1
        sizes = {"main": 0, "extra": 0, "side": 0}
        per_card: dict[tuple[int, str], int] = {}
        per_name: dict[int, int] = {}
        limits: dict[int, int | None] = {}
        for (section, passcode), qty in counts.items():
            fact = facts.get(passcode)
            if fact is None:
                sizes[section] += qty
                verdicts.append((deck, "UNKNOWN_CARD", section, passcode))
                continue
            card, name, extra, limit, outside, skill = fact
            if not (skill and section == "main"):
                sizes[section] += qty
            per_card[card, section] = per_card.get((card, section), 0) + qty
            per_name[name] = per_name.get(name, 0) + qty
            limits[name] = limit
        if sizes["main"] < fmt.main_min:
            verdicts.append((deck, "MAIN_TOO_SMALL", "main", None))
        if sizes["main"] > fmt.main_max:
            verdicts.append((deck, "MAIN_TOO_LARGE", "main", None))
        if sizes["extra"] > fmt.extra_max:
            verdicts.append((deck, "EXTRA_TOO_LARGE", "extra", None))
        if sizes["side"] > fmt.side_max:
            verdicts.append((deck, "SIDE_TOO_LARGE", "side", None))
        for name, total in per_name.items():
            limit = limits[name]
            if total > fmt.copy_limit:
                verdicts.append((deck, "TOO_MANY_COPIES", None, name))
            if limit is not None and 0 < limit < fmt.copy_limit and total > limit:
                verdicts.append((deck, "LIMIT_EXCEEDED", None, name))
        seen: set[tuple[int, str]] = set()
        for (section, passcode), _qty in counts.items():
            fact = facts.get(passcode)
            if fact is None or (fact[0], section) in seen:
                continue
            seen.add((fact[0], section))
            card, _name, extra, limit, outside, _skill = fact
            if limit == 0:
                verdicts.append((deck, "FORBIDDEN_CARD", section, card))
            if outside:
                verdicts.append((deck, "NOT_IN_CARD_POOL", section, card))
            if (section == "main" and extra) or (section == "extra" and not extra):
                verdicts.append((deck, "WRONG_SECTION", section, card))
    out.write_text(json.dumps({"decks": decks, "verdicts": verdicts}))


def phases(folder: Path, out: Path) -> None:
    """Where the tool's time goes, in a new process: each step of ``deckcheck check`` timed,
    wall and CPU time (imports counted from the process's start; the CPU time is this
    process's, not that of the process reading the files ahead). Writes JSON."""
    import gc

    began, began_cpu = time.perf_counter(), time.process_time()
    from validator import allocator

    allocator.configure()  # as the command does, before polars is loaded
    from validator.inputs.decks import prefetch

    if prefetch.core_free():  # as the command does: the files read while it imports
        prefetch.start([str(folder)])
    from validator.cards.load import load
    from validator.engine.kept import kept_card_attributes
    from validator.engine.resolve import prepare_codes
    from validator.inputs.decks.batch import read_deck_paths
    from validator.judging.checking import check_decks
    from validator.judging.penalties import load_policy
    from validator.report.json import report_pieces
    from validator.report.model import judged_check

    gc.freeze()
    gc.set_threshold(100_000, 50, 100)  # as the command does
    laps = {"imports": time.perf_counter() - began}
    cpu = {"imports": time.process_time() - began_cpu}  # every thread's

    def lap(name: str) -> None:
        laps[name] = time.perf_counter() - began - sum(laps.values())
        cpu[name] = time.process_time() - began_cpu - sum(cpu.values())

    setup = load(FORMAT)
    # as the command does: the card table kept in the data store, the passcodes' lookup
    table = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, None)
    prepare_codes(setup.cards, few=False)
    policy = load_policy("th")
    lap("card data, list, card table, policy")
    files = read_deck_paths([folder])
    lap("read and parse the files")
    checked = check_decks(files, setup, registrations=None, decisions=[], duel=None,
                          attributes=table, langs=("en",))
    lap("check")
    with open(out.parent / "phases-report.json", "wb") as stream:
        for piece in report_pieces(judged_check(checked, policy, "pre-event", "en")):
            stream.write(piece)
    lap("build and write the JSON report")
    size = (out.parent / "phases-report.json").stat().st_size
    out.write_text(json.dumps({"laps": laps, "cpu": cpu, "report_bytes": size}))


def _tool_verdicts(report: dict[str, Any], card_of: dict[int, int],
                   name_of: dict[int, int]) -> tuple[int, Counter[Key]]:
    found: Counter[Key] = Counter()
    for deck in report["decks"]:
        for item in deck["violations"]:
            code, passcode = item["code"], item["passcode"]
            key: int | None
            if code == "UNKNOWN_CARD":
                key = passcode
            elif code in DECK_LEVEL:
                key = None
            elif code in BY_NAME:
                key = name_of[card_of[passcode]]
            else:
                key = card_of[passcode]
            found[deck["deck_id"], code, item["section"], key] += 1
    return len(report["decks"]), found


def _loop_verdicts(payload: dict[str, Any], name_of: dict[int, int],
                   names: set[int]) -> tuple[int, Counter[Key]]:
    found: Counter[Key] = Counter()
    for deck, code, section, key in payload["verdicts"]:
        if code in BY_NAME and key not in names:
            key = name_of[key]  # the reference names one card when the name has one
        found[deck, code, section, key] += 1
    return int(payload["decks"]), found


#: page faults of the last command timed (memory touched for the first time)
FAULTS: list[int] = []
#: CPU time (user + system, every thread) of the last command timed
CPU: list[float] = []


def _timed(command: list[str], env: dict[str, str], cwd: Path = ROOT) -> float:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    # read as bytes: the time is the command's, not that of decoding what it printed
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=False)
    spent = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    FAULTS[:] = [after.ru_minflt - before.ru_minflt]
    CPU[:] = [after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime]
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n"
                         f"{done.stderr[-3000:].decode(errors='replace')}")
    return spent


#: the ``deckcheck`` program run from the tree first on ``PYTHONPATH`` (a baseline's)
PROGRAM = "import sys; sys.argv[0] = 'deckcheck'; from validator.cli import main; main()"


def _baseline(work: Path, revision: str, decks: Path) -> dict[str, tuple[
        list[str], dict[str, str], Path]]:
    """The tool's two commands at ``revision`` (a detached worktree with its own store)."""
    base = work / "baseline"
    checkout.add(base, revision)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(base / "validator")],
                   check=True, capture_output=True)
    env = {**os.environ, "DECKCHECK_DATA": str(work / "data-before"),
           "PYTHONPATH": str(base)}
    program = [sys.executable, "-c", PROGRAM]
    subprocess.run([*program, "data", "import", *map(str, SOURCES)], env=env, cwd=base,
                   check=True, capture_output=True)
    tool = [*program, "check", str(decks), "--format", FORMAT, "--json",
            str(work / "before.json")]
    _timed(tool, env, base)  # its store and files warm
    return {"before": (tool, env, base), "before_quiet": ([*tool, "--quiet"], env, base)}


def run(count: int, repeats: int, baseline: str | None = None) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="deckcheck-files-"))
    try:
        decks, store = work / "decks", work / "data"
        real = write_decks(decks, count)
        env = {**os.environ, "DECKCHECK_DATA": str(store)}
        exe = str(Path(sys.executable).with_name("deckcheck"))
        subprocess.run([exe, "data", "import", *map(str, SOURCES)], env=env, check=True,
                       capture_output=True)
        tool_out, loop_out = work / "tool.json", work / "loop.json"
        tool = [exe, "check", str(decks), "--format", FORMAT, "--json", str(tool_out)]
        quiet = [*tool, "--quiet"]
        plain = [sys.executable, "-m", "bench.files", "loop", str(decks), str(loop_out)]
        # both sides run from compiled bytecode, as an installed package does (this
        # environment may forbid writing it on import: PYTHONDONTWRITEBYTECODE)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "validator"),
                        str(ROOT / "bench")], check=True, capture_output=True)
        _timed(tool, env)  # warm the file cache and the store for both
        before = _baseline(work, baseline, decks) if baseline else {}
        tool_s, quiet_s, loop_s, tool_faults, loop_faults = [], [], [], [], []
        cpu: dict[str, list[float]] = {"tool": [], "quiet": [], "loop": []}
        walls: dict[str, list[float]] = {name: [] for name in before}
        cpu.update({name: [] for name in before})
        for _ in range(repeats):  # interleaved: a busy machine slows all three alike
            for name, (command, its_env, cwd) in before.items():
                walls[name].append(_timed(command, its_env, cwd))
                cpu[name] += CPU
            quiet_s.append(_timed(quiet, env))
            cpu["quiet"] += CPU
            tool_s.append(_timed(tool, env))  # the illegal decks printed to a pipe
            tool_faults += FAULTS
            cpu["tool"] += CPU
            loop_s.append(_timed(plain, env))
            loop_faults += FAULTS
            cpu["loop"] += CPU
        os.environ["DECKCHECK_DATA"] = str(store)
        from validator.cards.store import load_cards

        cards = load_cards(None)
        card_of = dict(cards.printings.select("passcode", "card_id").iter_rows())
        name_of = dict(cards.by_card.select("card_id", "name_id").iter_rows())
        tool_decks, mine = _tool_verdicts(json.loads(tool_out.read_text()), card_of, name_of)
        loop_decks, theirs = _loop_verdicts(json.loads(loop_out.read_text()), name_of,
                                            set(name_of.values()))
        split = work / "phases.json"
        _timed([sys.executable, "-m", "bench.files", "phases", str(decks), str(split)], env)
        tool_median, loop_median = statistics.median(tool_s), statistics.median(loop_s)
        quiet_median = statistics.median(quiet_s)
        return {
            "files": count, "real_decks": real, "repeats": repeats,
            "tool_s": tool_median, "loop_s": loop_median, "tool_runs": tool_s,
            "quiet_s": quiet_median, "quiet_runs": quiet_s,
            "quiet_ratio": loop_median / quiet_median,
            "loop_runs": loop_s, "ratio": loop_median / tool_median,
            **{f"{name}_cpu_s": statistics.median(times) for name, times in cpu.items()},
            **{f"{name}_s": statistics.median(times) for name, times in walls.items()},
            **({"baseline": baseline,
                "speedup": statistics.median(walls["before"]) / tool_median,
                "quiet_speedup": statistics.median(walls["before_quiet"]) / quiet_median,
                "cpu_speedup": statistics.median(cpu["before"])
                / statistics.median(cpu["tool"])} if before else {}),
            "cpu_ratio": statistics.median(cpu["loop"]) / statistics.median(cpu["tool"]),
            "load": os.getloadavg(),
            "tool_faults": statistics.median(tool_faults),
            "loop_faults": statistics.median(loop_faults),
            "decks_checked": [tool_decks, loop_decks],
            "violations": sum(mine.values()),
            "identical": mine == theirs and tool_decks == loop_decks == count,
            "differences": sum(((mine - theirs) + (theirs - mine)).values()),
            "phases": json.loads(split.read_text()),
        }
    finally:
        checkout.clear(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="run", choices=["run", "loop", "phases"])
    parser.add_argument("folder", nargs="?", type=Path)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", default=None,
                        help="a git revision whose tool is timed alternately with this one")
    args = parser.parse_args()
    if args.what in ("loop", "phases"):
        (loop if args.what == "loop" else phases)(args.folder, args.out)
        return
    if not all(path.exists() for path in (DECKS, *SOURCES)):  # skipped, not failed
        print(json.dumps({"skipped": f"bench.files needs the real data in {SHARED}"}))
        return
    figures = run(args.decks, args.repeats, args.baseline)
    print(json.dumps(figures))
    if not figures["identical"]:
        raise SystemExit(f"verdicts differ: {figures['differences']} violations")


if __name__ == "__main__":
    main()
