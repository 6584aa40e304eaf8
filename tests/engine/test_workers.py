"""The engine's worker pools: ended together, each after finishing what it was given."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from validator.engine import workers
from validator.engine.check import FEW_DECKS

ROOT = Path(__file__).resolve().parents[2]


def test_end_finishes_the_work_given_then_ends_the_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "_POOLS", [])  # the engine's own pools stay open
    done: list[str] = []

    def slow() -> None:
        time.sleep(0.1)
        done.append("done")

    pool = workers.pool("test-slow")
    pool.submit(slow)
    named = [t for t in threading.enumerate() if t.name.startswith("test-slow")]
    assert named
    assert named[0].is_alive()
    workers.end()
    assert done == ["done"]
    assert not named[0].is_alive()


def test_a_check_leaves_no_thread_once_its_workers_end(tmp_path: Path) -> None:
    """A check of more than a few decks uses the engine's pools; once they end, the process
    has one thread left (the program then ends without the interpreter's teardown)."""
    for copy in range(2):
        for deck in (ROOT / "decks" / "tcg").glob("*.ydk"):
            (tmp_path / f"{copy}-{deck.name}").write_bytes(deck.read_bytes())
    assert len(list(tmp_path.iterdir())) > FEW_DECKS
    program = "\n".join([
        "import sys, threading",
        "from pathlib import Path",
        "from validator.cards.load import load",
        "from validator.engine import workers",
        "from validator.inputs.decks.batch import read_deck_paths",
        "from validator.judging.checking import check_decks",
        "setup = load('advanced-tcg', 'demo')",
        "files = read_deck_paths([Path(sys.argv[1])])",
        "check_decks(files, setup, registrations=None, decisions=[], duel=None)",
        "before = threading.active_count()",
        "workers.end()",
        "print(before, threading.active_count())",
    ])
    done = subprocess.run([sys.executable, "-c", program, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    before, after = map(int, done.stdout.split())
    assert before > 1
    assert after == 1
