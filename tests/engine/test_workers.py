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


def _more_than_a_few_decks(folder: Path) -> None:
    """The sample TCG decks twice over in ``folder``: a check of them uses the pools."""
    for copy in range(2):
        for deck in (ROOT / "decks" / "tcg").glob("*.ydk"):
            (folder / f"{copy}-{deck.name}").write_bytes(deck.read_bytes())
    assert len(list(folder.iterdir())) > FEW_DECKS


def _run(program: str, folder: Path) -> str:
    done = subprocess.run([sys.executable, "-c", program, str(folder)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_a_check_leaves_no_thread_once_its_workers_end(tmp_path: Path) -> None:
    """A check of more than a few decks uses the engine's pools; once they end, the process
    has one thread left (the program then ends without the interpreter's teardown)."""
    _more_than_a_few_decks(tmp_path)
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
        "alone = not workers.others_alive()",
        "workers.end()",
        "print(before, threading.active_count(), alone)",
    ])
    before, after, alone = _run(program, tmp_path).split()
    assert int(before) > 1
    assert alone == "True"  # the pools' threads are not others
    assert int(after) == 1


def test_the_program_keeps_its_pools_while_another_thread_is_alive(tmp_path: Path) -> None:
    """With a thread of its caller's alive, the program ends as Python does (no pool ended):
    called again in the same process, it checks again."""
    _more_than_a_few_decks(tmp_path)
    program = "\n".join([
        "import sys, threading, time",
        "from validator.cli import main",
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()",
        "statuses = []",
        "for _ in range(2):",
        "    try:",
        "        main(['check', sys.argv[1], '--cards', 'demo', '--quiet'])",
        "    except SystemExit as exc:",
        "        statuses.append(exc.code)",
        "print(statuses)",
    ])
    assert _run(program, tmp_path).split() == ["[1,", "1]"]
