"""Many judges recording in the penalty log at once, on a live server.

``python -m bench.log_load [--judges 50] [--records 20] [--players 200] [--spy F]`` starts
``deckcheck serve`` on a loopback port (demo card pool), creates an event of synthetic
players, then lets each judge (its own client: its own session, its judge name given once)
record ``--records`` infractions as fast as the server answers, each form sent twice (a
double click: the same one-time key). Every record is for the judge's own player in a round
of its own, so none is the same incident as another. Afterwards the event file must hold
exactly one entry per form (no duplicate, none lost), each resend answered with the entry
its form made. Prints one JSON line: p50/p95/max of a record (the first send), of a resend,
the counts, and the CPU time of the server (also per request: a figure that a machine shared
with other work changes less than the times) and of the judges' clients over the records.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

from bench.judge_load import _registrations, _token, _upload
from tests.web.server import Server
from validator.event.store import EventDB


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50_ms": 1000 * statistics.median(ordered),
            "p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
            "max_ms": 1000 * ordered[-1]}


class _Device:
    """One judge's device on the standard library's HTTP client: one kept-alive connection
    and its session cookie. The 50 clients share the machine's cores with the server, and
    httpx spends about 3 ms of CPU per request, as much as the server; this client about a
    tenth of that (``--httpx`` measures with httpx instead)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname or "", parts.port,
                                                     timeout=60)
        self.cookie = ""

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[
            int, str, str]:
        """The answer's status, Location and body."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        answer = self.connection.getresponse()
        text = answer.read().decode()
        for value in answer.headers.get_all("set-cookie") or []:
            if value.startswith("dc_session="):
                self.cookie = value.split(";")[0]
        return answer.status, answer.headers.get("location", ""), text

    def close(self) -> None:
        self.connection.close()


class _Httpx:
    """The same device on httpx."""

    def __init__(self, url: str) -> None:
        self.client = httpx.Client(base_url=url, timeout=60)

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[
            int, str, str]:
        answer = self.client.request(method, path, data=form)
        return answer.status_code, answer.headers.get("location", ""), answer.text

    def close(self) -> None:
        self.client.close()


def _judge(url: str, number: int, player: str, records: int, start: threading.Barrier,
           out: dict[str, Any], lean: bool) -> None:
    """One judge's device: name given once, then ``records`` forms, each sent twice."""
    device = _Device(url) if lean else _Httpx(url)
    try:
        found = re.search(r'name="csrf" value="([^"]+)"', device.send("GET", "/judges/me")[2])
        if not found:
            raise SystemExit("no form token on /judges/me")
        token = found.group(1)
        device.send("POST", "/judges/me", {"csrf": token, "name": f"Judge {number:02d}"})
        firsts, resends, made, again = [], [], [], []
        start.wait()
        for n in range(records):
            form = {"csrf": token, "form_key": f"bench-{number}-{n}", "player_id": player,
                    "code": "LATE", "round": str(n + 1), "table": str(number + 1)}
            began = time.perf_counter()
            status, _, _ = device.send("POST", "/log", form)
            firsts.append(time.perf_counter() - began)
            began = time.perf_counter()
            _, location, _ = device.send("POST", "/log", form)
            resends.append(time.perf_counter() - began)
            made.append(status)
            again.append(location)
        out[player] = {"firsts": firsts, "resends": resends, "made": made, "again": again}
    finally:
        device.close()


def run(judges: int, records: int, players: int, spy: Path | None = None,
        lean: bool = True) -> dict[str, Any]:
    data = _registrations(max(players, judges))
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "e.sqlite") as server:
        with httpx.Client(base_url=server.url, timeout=120, follow_redirects=True) as client:
            token = _token(client)
            client.post("/event", data={"csrf": token, "name": "Log load",
                                        "date": "2026-12-05", "format": "advanced-tcg",
                                        "regulation": "th", "lang": "en"}).raise_for_status()
            _upload(client, token, data)
            while json.loads(client.get("/status.json").text)["checking"]:
                time.sleep(0.05)
            ids = re.findall(r'<option value="(S\d+)">', client.get("/log").text)[:judges]
        if len(ids) < judges:
            raise SystemExit(f"the event has {len(ids)} players, fewer than {judges} judges")
        out: dict[str, Any] = {}
        start = threading.Barrier(judges)
        threads = [threading.Thread(target=_judge, args=(server.url, n, player, records,
                                                         start, out, lean))
                   for n, player in enumerate(ids)]
        began, cpu = time.perf_counter(), cpu_seconds(server.process.pid)
        mine = time.process_time()
        sampler = sampler_of(server.process.pid, spy) if spy else None
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if sampler is not None:
            sampler.send_signal(signal.SIGINT)
            sampler.wait(timeout=60)
        wall = time.perf_counter() - began
        cpu = cpu_seconds(server.process.pid) - cpu
        mine = time.process_time() - mine
        entries = EventDB(server.db).log()
    keys = [e.form_key for e in entries]
    by_key = {e.form_key: e.id for e in entries}
    expected = {f"bench-{n}-{r}" for n in range(judges) for r in range(records)}
    resent_right = sum(1 for player, got in out.items() for n, where in enumerate(got["again"])
                       if where == f"/log/{by_key.get(_key(ids, player, n))}?again=1")
    firsts = [t for got in out.values() for t in got["firsts"]]
    resends = [t for got in out.values() for t in got["resends"]]
    return {"judges": judges, "records_each": records, "client": "stdlib" if lean else "httpx",
            "wall_s": round(wall, 2),
            "entries": len(entries), "expected": len(expected),
            "duplicates": len(keys) - len(set(keys)),
            "records_not_redirected": sum(1 for got in out.values() for status in got["made"]
                                          if status != 303),
            "lost": len(expected - set(by_key)),
            "resends_answered_with_their_entry": resent_right,
            "record": _figures(firsts), "resend": _figures(resends),
            "server_cpu_s": round(cpu, 2), "clients_cpu_s": round(mine, 2),
            "server_cpu_ms_per_request": round(1000 * cpu / max(len(firsts) + len(resends), 1),
                                               2)}


def sampler_of(pid: int, out: Path, *, idle: bool = False) -> subprocess.Popen[bytes]:
    """py-spy sampling a server's stacks until it is sent SIGINT (collapsed stacks in
    ``out``); ``idle``: waiting threads too, each thread apart (where requests queue)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        raise SystemExit("--spy needs py-spy: pip install -e '.[bench]'")
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--rate", "250", "--format",
                             "raw", "--output", str(out), "--nonblocking",
                             *(("--idle", "--threads") if idle else ())],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _key(ids: list[str], player: str, n: int) -> str:
    return f"bench-{ids.index(player)}-{n}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judges", type=int, default=50)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--spy", type=Path, help="write the server's sampled stacks (py-spy, "
                        "collapsed) over the records to this file")
    parser.add_argument("--httpx", action="store_true",
                        help="the judges' devices on httpx instead of the standard library")
    args = parser.parse_args()
    print(json.dumps(run(args.judges, args.records, args.players, args.spy, not args.httpx)))


if __name__ == "__main__":
    main()
