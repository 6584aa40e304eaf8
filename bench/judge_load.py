"""A judge's deck check on a live server, idle and while the event is checked again and again.

``python -m bench.judge_load [--players N] [--checks K]`` starts ``deckcheck serve`` on a
loopback port (demo card pool), creates an event of N synthetic players (a long-layout CSV
of typed card names), then times K judge deck checks (``POST /judge/ID/check`` with the
registered counts) with the server idle, and K more while another client keeps changing the
event (a pasted ydke link, alternately for two players: each change starts a check of the
whole event in the background, and the client waits for it before the next change, so event
checks run back to back). Prints one JSON line: p50/p95/max of both, and how many event
checks ran meanwhile.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.synth import lists_csv, named_lists, synthesize
from tests.web.server import Server
from validator.cards.load import load


def _registrations(players: int) -> bytes:
    """A long-layout CSV of the players' lists, cards by English name."""
    setup = load("advanced-tcg", "demo")
    event = synthesize(setup.cards, setup.banlist, setup.fmt, players, seed=11, rate=0.02)
    return lists_csv(named_lists(event.registered, setup.cards))


def _token(client: httpx.Client, path: str = "/") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    if not found:
        raise SystemExit(f"no form token on {path}")
    return found.group(1)


def _upload(client: httpx.Client, token: str, data: bytes) -> None:
    sent = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                       files=[("files", ("lists.csv", data, "text/csv"))])
    sent.raise_for_status()


def _judge(client: httpx.Client, player: str, checks: int) -> list[float]:
    page = client.get(f"/judge/{player}").text
    counts = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))
    token = _token(client, f"/judge/{player}")
    form = {"csrf": token, "judge": "J", "round": "1", "duel": "1", "stage": "in-duel",
            **counts}
    times = []
    for _ in range(checks):
        began = time.perf_counter()
        answer = client.post(f"/judge/{player}/check", data=form)
        times.append(time.perf_counter() - began)
        answer.raise_for_status()
    return times


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50_ms": 1000 * statistics.median(ordered),
            "p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
            "max_ms": 1000 * ordered[-1]}


def run(players: int, checks: int) -> dict[str, Any]:
    data = _registrations(players)
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder) / "e.sqlite") as server:
        client = httpx.Client(base_url=server.url, timeout=120, follow_redirects=True)
        token = _token(client)
        client.post("/event", data={"csrf": token, "name": "Load", "date": "2026-12-05",
                                    "format": "advanced-tcg", "regulation": "th",
                                    "lang": "en"}).raise_for_status()
        began = time.perf_counter()
        _upload(client, token, data)
        while json.loads(client.get("/status.json").text)["checking"]:
            time.sleep(0.05)
        event_check_s = time.perf_counter() - began
        player = "S0000001"
        idle = _judge(client, player, checks)
        stop = threading.Event()
        rechecks = 0

        def recheck() -> None:
            nonlocal rechecks
            other = httpx.Client(base_url=server.url, timeout=120, follow_redirects=True)
            mine = _token(other)
            while not stop.is_set():
                link = f"S{rechecks % 2:07d} ydke://!!!"  # an empty deck: a new version
                other.post("/upload/decks", data={"csrf": mine, "replace": "on",
                                                  "links": link}).raise_for_status()
                rechecks += 1
            other.close()

        loader = threading.Thread(target=recheck)
        loader.start()
        time.sleep(0.5)  # the first re-check is under way
        loaded = _judge(client, player, checks)
        stop.set()
        loader.join()
        client.close()
    return {"players": players, "checks": checks, "event_check_s": event_check_s,
            "idle": _figures(idle), "under_load": _figures(loaded),
            "event_checks_during": rechecks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--checks", type=int, default=60)
    args = parser.parse_args()
    print(json.dumps(run(args.players, args.checks)))


if __name__ == "__main__":
    main()
