"""Where one person waits for one deck, before and after, side by side in one run.

``python -m bench.onedeck [--baseline REV] [--runs 30] [--rounds 2] [--cold-runs 5] [--no-cold]``:

* (a) ``check()`` of one real deck in-process (real card data imported into a data store,
  the TCG list in force), median wall and CPU time of ``--runs`` checks and of each stage
  (``CheckResult.timings``), after a first check timed apart (the first check of a card
  table also prepares what every later check of it takes from it), and the polars passes
  of one check (``collects``); the same of the deck, one count off, against its list
  (``check_against_list``), and against its list made before as the server makes every
  list after an event's check (``check_against_made_list``: ``engine.check.ListedDecks``;
  null for a revision without it);
* (b) a judge's check of one player's deck on the judge page (``POST /judge/ID/check``
  with the test client, the sample event and demo cards), p50/p95;
* (c) the registration page's live check (``POST /r/CODE/check.json``, a 40/15/5 list of
  demo cards), median;
* (d) ``deckcheck check one.ydk`` from process start, installed (not editable) into a
  throwaway virtual environment (``bench.cold``).

With ``--baseline REV`` the same figures are taken of that revision too (a detached git
worktree in a temporary folder, run with this interpreter and that tree first on the
path), alternately with this checkout's, ``--rounds`` times each, every round a new process
per side, so both see the same load (more rounds: a slow minute weighs less on one side).
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
DECK = SHARED / "decks" / "windbot" / "AI_Zoodiac.ydk"
#: what ``deckcheck data import`` is given: every card source and the TCG lists
IMPORTS = (SHARED / "ygojson" / "cards.json", SHARED / "cdb" / "cards.delta.cdb",
           SHARED / "cdb" / "cards-rush.cdb")


def _lists() -> list[Path]:
    return sorted((SHARED / "lflist" / "history").glob("*.conf"))


def _median_ms(values: list[float]) -> float:
    return round(1000 * statistics.median(values), 1)


def _p95_ms(values: list[float]) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1)


def _engine(data: Path, runs: int, against_list: bool = False,
            made: bool = False) -> dict[str, Any] | None:
    """(a): one deck's check; ``against_list``: the deck, one count off, against its list
    (as a judge's check is); ``made``: that list made before (None: this code has no
    ``ListedDecks``)."""
    import polars as pl

    from validator.cards.load import load
    from validator.engine import check as engine_check
    from validator.engine.check import check
    from validator.engine.tables import card_attributes
    from validator.inputs.decks.batch import read_deck_paths

    setup = load("advanced-tcg", "store", folder=data)
    files = read_deck_paths([DECK])
    table = card_attributes(setup.cards, setup.banlist, setup.fmt)
    deck, listed = files.entries, None
    if against_list:
        listed = files.entries
        deck = deck.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.col("qty") + 1)
                                 .otherwise(pl.col("qty")).alias("qty"))
    made_list: dict[str, Any] = {}
    if made:
        if not hasattr(engine_check, "ListedDecks"):
            return None
        made_list["listed"] = engine_check.ListedDecks(files.entries, table).of(files.ids[0])
    walls, cpus, codes, stages = [], [], [], []

    def checked() -> Any:
        return check(deck, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                     deck_ids=files.ids, attributes=table, registered=listed, **made_list)

    for _ in range(runs + 1):  # the first apart: what a card table's first check adds
        began, cpu = time.perf_counter(), time.process_time()
        result = checked()
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - cpu)
        stages.append(result.timings)
        codes = result.violations["code"].to_list()
    return {"wall_ms": _median_ms(walls[1:]), "cpu_ms": _median_ms(cpus[1:]),
            "first_wall_ms": round(1000 * walls[0], 1), "first_cpu_ms": round(1000 * cpus[0], 1),
            "stages_ms": {stage: _median_ms([s[stage] for s in stages[1:]])
                          for stage in stages[-1]},
            "collects": _collects(checked), "violations": codes}


def _collects(run: Any) -> int:
    """The polars passes of one call of ``run``: each collect, each ``collect_all`` and
    each eager frame operation (polars runs one as a plan collected at once)."""
    import polars as pl

    count = [0]
    saved = {name: getattr(pl.LazyFrame, name) for name in ("collect", "_collect_eager")}
    collect_all = pl.collect_all

    def counting(method: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            count[0] += 1
            return method(*args, **kwargs)
        return counted

    for name, method in saved.items():
        setattr(pl.LazyFrame, name, counting(method))
    pl.collect_all = counting(collect_all)
    try:
        run()
    finally:
        for name, method in saved.items():
            setattr(pl.LazyFrame, name, method)
        pl.collect_all = collect_all
    return count[0]


def _judge(runs: int, folder: Path) -> dict[str, Any]:
    from tests.web.helpers import LEGAL_PLAYER, client_for, csrf_token, upload_sample

    with client_for(folder / "judge.sqlite") as client:
        upload_sample(client)
        while json.loads(client.get("/status.json").text)["checking"]:
            time.sleep(0.05)
        page = client.get(f"/judge/{LEGAL_PLAYER}").text
        counts = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))
        form = {"csrf": csrf_token(client, f"/judge/{LEGAL_PLAYER}"), "judge": "J",
                "round": "1", "duel": "1", "stage": "in-duel", **counts}
        times, _ = _timed_posts(client, f"/judge/{LEGAL_PLAYER}/check", form, runs)
    return {"p50_ms": _median_ms(times), "p95_ms": _p95_ms(times), "fields": len(counts)}


def _timed_posts(client: Any, path: str, form: dict[str, str], runs: int
                 ) -> tuple[list[float], Any]:
    """The times of ``runs`` posts of ``form`` (after 3 that warm), and the last answer."""
    times = []
    for at in range(runs + 3):
        began = time.perf_counter()
        answer = client.post(path, data=form)
        if at >= 3:
            times.append(time.perf_counter() - began)
        answer.raise_for_status()
    return times, answer


def _register(runs: int, folder: Path) -> dict[str, Any]:
    from tests.web.routes.test_register import (
        CODE,
        app_client,
        form_of,
        legal_list,
        open_page,
        token,
    )

    with app_client(folder / "register.sqlite") as client:
        open_page(client)
        form = form_of(legal_list(), csrf=token(client))
        times, answer = _timed_posts(client, f"/r/{CODE}/check.json", form, runs)
        status = answer.json()["status"]
    return {"median_ms": _median_ms(times), "p95_ms": _p95_ms(times), "status": status}


def probe(data: Path, runs: int) -> dict[str, Any]:
    """Figures (a) to (c) of the code this interpreter imports."""
    os.environ.pop("DECKCHECK_DATA", None)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DECKCHECK_DATA"] = str(Path(folder) / "store")  # the web app's: demo
        engine = _engine(data, runs)
        against = _engine(data, runs, against_list=True)
        made = _engine(data, runs, against_list=True, made=True)
        judge = _judge(runs, Path(folder))
        register = _register(runs, Path(folder))
    return {"check": engine, "check_against_list": against, "check_against_made_list": made,
            "judge": judge, "register": register}


def _probe_of(tree: Path, data: Path, runs: int) -> dict[str, Any]:
    """``probe`` run in a new process with ``tree`` first on the path."""
    done = subprocess.run(
        [sys.executable, "-c", "import runpy, sys; sys.argv[0] = 'onedeck'; "
         f"runpy.run_path({str(Path(__file__).resolve())!r}, run_name='__main__')",
         "--probe", "--data", str(data), "--runs", str(runs)],
        cwd=tree, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": str(tree)})
    if done.returncode != 0:
        raise SystemExit(f"the probe of {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _import_data(data: Path) -> None:
    exe = Path(sys.executable).with_name("deckcheck")
    subprocess.run([str(exe), "data", "import", *map(str, IMPORTS), *map(str, _lists()),
                    "--data-dir", str(data)], check=True, capture_output=True)


def run(baseline: str | None, runs: int, cold_runs: int, cold: bool,
        rounds: int = 2) -> dict[str, Any]:

    from bench import checkout  # this process only: the baseline tree has none
    from bench import cold as cold_start

    work = Path(tempfile.mkdtemp(prefix="deckcheck-onedeck-"))
    trees = {"after": ROOT}
    try:
        data = work / "data"
        _import_data(data)
        if baseline:
            base = work / "baseline"
            checkout.add(base, baseline)
            trees = {"before": base, "after": ROOT}
        load_before = os.getloadavg()
        figures: dict[str, Any] = {name: [] for name in trees}
        for _ in range(rounds):  # alternately, so both see the same load
            for name, tree in trees.items():
                figures[name].append(_probe_of(tree, data, runs))
        if cold:
            for name, tree in trees.items():
                figures[f"{name}_cold"] = cold_start.run(None, cold_runs, root=tree,
                                                         deck=DECK)
        return {"baseline": baseline, "runs": runs, "load_before": load_before,
                "load_after": os.getloadavg(), "cpus": os.cpu_count(), **figures}
    finally:
        checkout.clear(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=None, help="a git revision to compare with")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2,
                        help="new processes per side, alternately")
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--no-cold", action="store_true", help="leave out (d)")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not all(path.exists() for path in (DECK, *IMPORTS)):
        print(json.dumps({"skipped": "bench.onedeck needs the real data in ../shared/data"}))
        return
    if args.probe:
        print(json.dumps(probe(args.data, args.runs)))
        return
    print(json.dumps(run(args.baseline, args.runs, args.cold_runs, not args.no_cold,
                         args.rounds)))


if __name__ == "__main__":
    main()
