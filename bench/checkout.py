"""Another revision of this repository checked out beside it, for a bench's before/after:
a detached git worktree in a folder of the bench's own, removed when the bench is done."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def add(folder: Path, revision: str) -> Path:
    """``revision`` checked out (detached) at ``folder``; ``folder``."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder),
                    revision], check=True, capture_output=True)
    return folder


def remove(folder: Path) -> None:
    """The checkout at ``folder`` removed, and git's record of it (nothing when none)."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                   check=False, capture_output=True)


def clear(work: Path) -> None:
    """A bench's scratch folder removed, with the checkout in it at ``work / "baseline"``."""
    if (work / "baseline").exists():
        remove(work / "baseline")
    shutil.rmtree(work, ignore_errors=True)
