"""The web app at national size: a 7,443-player event from real decks and real card data.

``python -m bench.web_event [--players 7443] [--requests 300] [--clients 4] [--data-dir D]
[--baseline REV] [--settle 5] [--event DIR] [--spy PREFIX]``
imports the real card data of ``../shared/data`` into a data store (``deckcheck data import``
of YGOJSON, EDOPro's delta cdb and every TCG list; ``--data-dir`` keeps it for the next run),
makes an event of ``--players`` players from the real decks of ``../shared/data/decks``
(cycled, each player an id of their own): their lists as one long-layout CSV of card names
and their decks as one zip of YDK files named by player id. It starts ``deckcheck serve`` as a
real server process on a loopback port, uploads the lists, then the decks, each timed from
the upload until the event's check is finished, then times ``--requests`` player pages and as
many judge deck checks (players drawn at random, seeded), sent by ``--clients`` clients at
once, and reads the server's memory (RSS, its own and that of the processes it started) and
its CPU time per request (which a machine shared with other work changes less than the
times). Prints one JSON line.

``--baseline REV`` runs the same event first on a server of revision ``REV`` (a temporary git
worktree of it, its code served by this environment), then on this one, and prints both
side by side with this one's figures as ratios of the baseline's (a shared machine's load
changes both alike). ``--settle`` is how long the server is left between making the event
and the first upload (its checking process makes ready what the first check needs).

``--event DIR`` keeps the event made (its database once the uploads are checked) in ``DIR``;
a later run given the same ``DIR`` starts each server from that event instead of uploading
(it waits for the server's first check of it, then ``--settle``), and times only its
player pages and judge checks: a cheaper run while changing what a page or a check costs.
``--spy PREFIX`` writes where the server spends its time over the pages and the checks.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import polars as pl

from bench import checkout
from bench.log_load import cpu_seconds, sampler_of
from bench.synth import lists_csv, named_lists
from validator.cards.store import MANIFEST, load_cards
from validator.inputs.decks.batch import read_deck_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
EXE = Path(sys.executable).with_name("deckcheck")
#: the size of YCS Japan 2024
PLAYERS = 7_443
#: the longest an upload may take to read: the server's default of 10 s is too short for
#: 8 MB of lists on a machine busy with other work
READ_SECONDS = 120
#: how long the server is left after the event is made, before the first upload (an
#: organizer does not upload within a second of making the event; ``--settle``)
SETTLE_SECONDS = 5.0
#: an event kept by ``--event DIR``: its database and its sizes
KEPT_DB, KEPT_SIZES = "event.sqlite", "event.json"


def build_store(shared: Path, folder: Path) -> float:
    """Import the real card data into ``folder`` unless it holds a store; seconds taken."""
    if (folder / MANIFEST).exists():
        return 0.0
    began = time.perf_counter()
    subprocess.run([str(EXE), "data", "import", str(shared / "ygojson" / "cards.json"),
                    str(shared / "cdb" / "cards.delta.cdb"),
                    *sorted(str(p) for p in (shared / "lflist" / "history").glob("*.conf")),
                    "--data-dir", str(folder)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def player_id(n: int) -> str:
    return f"P{n + 1:05d}"


def event_files(shared: Path, folder: Path, players: int) -> tuple[bytes, bytes, int]:
    """The long-layout CSV of the players' lists (English names), the zip of their YDK
    files, and how many real decks were cycled."""
    paths = sorted((shared / "decks").rglob("*.ydk"))
    decks = read_deck_paths(list(paths))
    real = sorted(set(decks.entries["deck_id"].cast(pl.Utf8).to_list()))
    data = {p.stem: p.read_bytes() for p in paths}
    cycled = pl.DataFrame({"deck_id": [player_id(n) for n in range(players)],
                           "source": [real[n % len(real)] for n in range(players)]})
    everyone = cycled.join(
        decks.entries.with_columns(pl.col("deck_id").cast(pl.Utf8)).rename(
            {"deck_id": "source"}), on="source", how="inner", maintain_order="left",
    ).drop("source")
    csv = lists_csv(named_lists(everyone, load_cards(None, folder)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for n in range(players):
            archive.writestr(f"{player_id(n)}.ydk", data[real[n % len(real)]])
    return csv, buffer.getvalue(), len(real)


def _token(client: httpx.Client, path: str = "/") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    if not found:
        raise SystemExit(f"no form token on {path}")
    return found.group(1)


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50_ms": round(1000 * statistics.median(ordered), 1),
            "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max_ms": round(1000 * ordered[-1], 1), "n": len(ordered)}


def _rss_mb(pid: int) -> dict[str, float]:
    """A process's resident memory now and at its peak (MB)."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {"rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
            "peak_mb": round(int(fields["VmHWM"].split()[0]) / 1024, 1)}


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parts = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(parts[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _tree_cpu(pid: int) -> float:
    """The CPU time (user and system, seconds) of a process and the processes it started
    that still run."""
    try:
        return cpu_seconds(pid) + sum(_tree_cpu(child) for child in _children(pid))
    except OSError:
        return 0.0


def _checking(pid: int) -> int | None:
    """The server's checking process (the one of its processes that holds the most)."""
    sizes = {child: _rss_mb(child)["peak_mb"] for child in _children(pid)}
    return max(sizes, key=lambda child: sizes[child]) if sizes else None


class Serve:
    """``deckcheck serve`` on a free loopback port with a data store; ``code``: the
    checkout whose code is served (None: this one)."""

    def __init__(self, db: Path, data_dir: Path, port: int, code: Path | None = None) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = (db.parent / "serve.log").open("wb")
        command = [str(EXE)] if code is None else [
            sys.executable, "-c", "import sys; from validator.cli import main; sys.exit(main())"]
        env = None if code is None else {**os.environ, "PYTHONPATH": str(code)}
        self.process = subprocess.Popen(
            [*command, "serve", "--db", str(db), "--port", str(port), "--data-dir",
             str(data_dir), "--read-seconds", str(READ_SECONDS)], stdout=self.log,
            stderr=subprocess.STDOUT, env=env, cwd=code)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url + "/static/style.css", timeout=1)
                return
            except httpx.TransportError:
                if self.process.poll() is not None:
                    raise SystemExit((db.parent / "serve.log").read_text()) from None
                time.sleep(0.1)
        self.close()
        raise SystemExit("the server did not start within 60 s")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def _wait_checked(client: httpx.Client) -> None:
    while json.loads(client.get("/status.json").text)["checking"]:
        time.sleep(0.02)


def _upload(client: httpx.Client, token: str, path: str, name: str, data: bytes,
            kind: str) -> float:
    """Seconds from sending one file until the event's check of it is finished."""
    began = time.perf_counter()
    sent = client.post(path, data={"csrf": token}, files=[("files", (name, data, kind))])
    if sent.status_code != 303:
        raise SystemExit(f"{path}: {sent.status_code} {sent.text[:300]}")
    _wait_checked(client)
    return time.perf_counter() - began


def _judge_form(client: httpx.Client, player: str) -> dict[str, str]:
    page = client.get(f"/judge/{player}").text
    counts = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    if token is None or not counts:
        raise SystemExit(f"no judge form for {player}")
    return {"csrf": token.group(1), "judge": "J", "round": "1", "duel": "1",
            "stage": "in-duel", **counts}


def _timed(url: str, jobs: list[str], clients: int, one: Any) -> list[float]:
    """Each job sent by one of ``clients`` clients at once (each its own session)."""
    times: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def work(mine: list[str]) -> None:
        with httpx.Client(base_url=url, timeout=120) as client:
            client.get("/status.json")  # the session cookie
            ready = [(player, one(client, player, None)) for player in mine]
            start.wait()
            for player, prepared in ready:
                began = time.perf_counter()
                one(client, player, prepared)
                took = time.perf_counter() - began
                with lock:
                    times.append(took)

    threads = [threading.Thread(target=work, args=(jobs[n::clients],)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def _player_page(client: httpx.Client, player: str, prepared: object) -> object:
    if prepared is None:
        return True
    answer = client.get(f"/players/{player}")
    if answer.status_code != 200 or player not in answer.text:
        raise SystemExit(f"/players/{player}: {answer.status_code}")
    return None


def _judge_check(client: httpx.Client, player: str, prepared: object) -> object:
    if prepared is None:
        return _judge_form(client, player)
    answer = client.post(f"/judge/{player}/check", data=prepared)  # type: ignore[arg-type]
    if answer.status_code != 200:
        raise SystemExit(f"/judge/{player}/check: {answer.status_code} {answer.text[:300]}")
    return None


def run(players: int, requests: int, clients: int, data_dir: Path | None,
        shared: Path, baseline: str | None = None,
        settle: float = SETTLE_SECONDS, spy: Path | None = None,
        event: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as temp:
        folder = data_dir or Path(temp) / "data"
        import_s = build_store(shared, folder)
        made = Made.of(event)
        if made is not None:  # the event kept: its pages and judge checks only
            players, sizes = made.players, made.sizes | {"event": "kept", "import_s": 0.0}
            csv = archive = b""
        else:
            csv, archive, real = event_files(shared, folder, players)
            sizes = {"players": players, "real_decks": real,
                     "csv_mb": round(len(csv) / 1e6, 2),
                     "zip_mb": round(len(archive) / 1e6, 2), "import_s": round(import_s, 2)}
        event_of = Event(csv, archive, players, settle, made, event, sizes)
        if baseline is None:
            return sizes | _served(Path(temp), folder, event_of, requests, clients, spy=spy)
        code = Path(temp) / "baseline"
        checkout.add(code, baseline)
        try:
            (Path(temp) / "before").mkdir()
            before = _served(Path(temp) / "before", folder, event_of, requests, clients, code,
                             None if spy is None else spy.with_name(f"{spy.name}.before"))
        finally:
            checkout.remove(code)
        (Path(temp) / "after").mkdir()
        after = _served(Path(temp) / "after", folder, event_of, requests, clients, spy=spy)
    return sizes | {"baseline": baseline, "before": before, "after": after,
                    "after_over_before": _ratios(before, after)}


@dataclass(frozen=True)
class Made:
    """An event kept by an earlier run (``--event DIR``): its database after the uploads'
    check, and its sizes."""

    db: Path
    players: int
    sizes: dict[str, Any]

    @classmethod
    def of(cls, folder: Path | None) -> Made | None:
        """The event kept in ``folder``, None when it holds none."""
        if folder is None or not (folder / KEPT_DB).exists():
            return None
        sizes = json.loads((folder / KEPT_SIZES).read_text())
        return cls(folder / KEPT_DB, int(sizes["players"]), sizes)

    @staticmethod
    def keep(db: Path, folder: Path, sizes: dict[str, Any]) -> None:
        """A copy of a served event's database (consistent while the server runs) and its
        sizes, in ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(db) as source, sqlite3.connect(folder / KEPT_DB) as copy:
            source.backup(copy)
        (folder / KEPT_SIZES).write_text(json.dumps(sizes))


@dataclass(frozen=True)
class Event:
    """What a server is given: the uploads to time, or a kept event (``made``) to start
    from; ``keep``: where to keep the event made."""

    csv: bytes
    archive: bytes
    players: int
    settle: float
    made: Made | None
    keep: Path | None
    sizes: dict[str, Any]


def _ratios(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Each figure of ``after`` as a share of the same figure of ``before``."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        was = before.get(key)
        if isinstance(value, dict) and isinstance(was, dict):
            out[key] = _ratios(was, value)
        elif isinstance(value, int | float) and isinstance(was, int | float) and was \
                and key != "n":
            out[key] = round(value / was, 2)
    return out


@contextmanager
def _spying(pid: int, spy: Path | None, phase: str) -> Iterator[None]:
    """py-spy sampling the server's threads over one phase, idle ones included (where a
    request waits), as collapsed stacks in ``{spy}.{phase}.txt``; nothing without ``spy``."""
    if spy is None:
        yield
        return
    sampler = sampler_of(pid, spy.with_name(f"{spy.name}.{phase}.txt"), idle=True)
    try:
        yield
    finally:
        sampler.send_signal(signal.SIGINT)
        sampler.wait(timeout=60)


def _served(temp: Path, folder: Path, event: Event, requests: int, clients: int,
            code: Path | None = None, spy: Path | None = None) -> dict[str, Any]:
    """The event's figures on one server (``code``: the checkout served)."""
    from tests.web.server import free_port

    db = temp / "event.sqlite"
    if event.made is not None:
        shutil.copyfile(event.made.db, db)
    server = Serve(db, folder, free_port(), code)
    try:
        with httpx.Client(base_url=server.url, timeout=600) as client:
            if event.made is None:
                uploads = _uploads(client, server, event)
                if event.keep is not None:
                    Made.keep(db, event.keep, event.sizes)
            else:
                _token(client)
                _wait_checked(client)
                time.sleep(event.settle)  # as after uploads: the pages' tables made first
                uploads = {}
            status = json.loads(client.get("/status.json").text)
            began = time.perf_counter()
            home = client.get("/")
            home_s = time.perf_counter() - began
            if home.status_code != 200 or not status["ready"]:
                raise SystemExit(f"no results: {status}\n"
                                 + (temp / "serve.log").read_text()[-3000:])
        chosen = random.Random(7).choices(range(event.players), k=requests)
        jobs = [player_id(n) for n in chosen]
        pid = server.process.pid
        cpu = cpu_seconds(pid)
        with _spying(pid, spy, "pages"):
            pages = _timed(server.url, jobs, clients, _player_page)
        pages_cpu, cpu = cpu_seconds(pid) - cpu, cpu_seconds(pid)
        with _spying(pid, spy, "judge"):
            checks = _timed(server.url, jobs, clients, _judge_check)
        checks_cpu = cpu_seconds(pid) - cpu
        checking = _checking(server.process.pid)
        memory = {"server": _rss_mb(server.process.pid),
                  "checking": None if checking is None else _rss_mb(checking),
                  "started": [_rss_mb(p) for p in _children(server.process.pid)]}
    finally:
        server.close()
    return uploads | {
        "home_page_s": round(home_s, 3),
        "clients": clients, "player_page": _figures(pages),
        "judge_check": _figures(checks),
        # the server's CPU time per request, the judge's page that fetches the form included
        "server_cpu_ms": {"player_page": round(1000 * pages_cpu / len(jobs), 1),
                          "judge_page_and_check": round(1000 * checks_cpu / len(jobs), 1)},
        "memory": memory}


def _uploads(client: httpx.Client, server: Serve, event: Event) -> dict[str, Any]:
    """The event made on the server: its lists, then its decks, uploaded, each timed until
    the event's check of it is finished."""
    token = _token(client)
    client.post("/event", data={"csrf": token, "name": "National", "date": "2026-12-05",
                                "format": "advanced-tcg", "regulation": "th", "lang": "en"})
    _wait_checked(client)
    time.sleep(event.settle)
    upload_cpu = _tree_cpu(server.process.pid)
    lists_s = _upload(client, token, "/upload/registrations", "lists.csv", event.csv,
                      "text/csv")
    lists_cpu = _tree_cpu(server.process.pid) - upload_cpu
    decks_s = _upload(client, token, "/upload/decks", "decks.zip", event.archive,
                      "application/zip")
    decks_cpu = _tree_cpu(server.process.pid) - upload_cpu - lists_cpu
    return {"lists_to_results_s": round(lists_s, 2), "decks_to_results_s": round(decks_s, 2),
            "together_s": round(lists_s + decks_s, 2),
            # the CPU time of the server and the processes it runs, from upload to results
            "upload_cpu_s": {"lists": round(lists_cpu, 2), "decks": round(decks_cpu, 2),
                             "together": round(lists_cpu + decks_cpu, 2)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where the imported card data is kept between runs")
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--baseline", default=None, metavar="REV",
                        help="first run the event on a server of this git revision")
    parser.add_argument("--settle", type=float, default=SETTLE_SECONDS,
                        help="seconds between making the event and the first upload")
    parser.add_argument("--spy", type=Path, default=None, metavar="PREFIX",
                        help="write the server's sampled stacks (py-spy, collapsed, idle "
                        "threads too) over the pages to PREFIX.pages.txt and over the judge "
                        "checks to PREFIX.judge.txt (the baseline's: PREFIX.before.*)")
    parser.add_argument("--event", type=Path, default=None, metavar="DIR",
                        help="where the event is kept: made there (its uploads timed) when "
                        "DIR holds none, else started from (its pages and judge checks "
                        "timed only, --players ignored)")
    args = parser.parse_args()
    print(json.dumps(run(args.players, args.requests, args.clients, args.data_dir,
                         args.shared, args.baseline, args.settle, args.spy, args.event)))


if __name__ == "__main__":
    main()
