"""Polars' memory allocator (jemalloc) set up for the ``deckcheck`` program.

jemalloc reads its settings once, when polars is loaded, from ``_RJEM_MALLOC_CONF``: polars
puts its own first and what the variable held after them (its ``__init__``). By
default it gives each thread one of four arenas per core, so memory freed by one of
polars' threads is rarely reused by the next: a 10,000-deck check touches about 64,000
pages for the first time, and each such page fault costs a few microseconds. One arena for
every thread makes it about 54,000, 20 ms less from start to report on a 2-core machine
(``bench/results.md``), and a smaller server (its peak RSS at national size 568 → 526 MB).
"""

from __future__ import annotations

import os
import sys

__all__ = ["SETTINGS", "VARIABLE", "configure"]

#: the environment variable polars' jemalloc reads its settings from
VARIABLE = "_RJEM_MALLOC_CONF"
#: one arena for every thread
SETTINGS = "narenas:1"


def configure() -> bool:
    """Add ``SETTINGS`` to polars' jemalloc settings, unless polars is loaded already (its
    allocator is set up then) or the variable sets the arenas already (a user's setting is
    kept); whether they were added. (A process started by one that loaded polars holds
    polars' own settings in the variable: those are kept, ours added after them.)"""
    # jemalloc stops reading at an empty item ("a,,b"): the given ones are kept without any
    given = [item.strip() for item in os.environ.get(VARIABLE, "").split(",") if item.strip()]
    if "polars" in sys.modules or "narenas" in {item.split(":")[0] for item in given}:
        return False
    os.environ[VARIABLE] = ",".join([*given, SETTINGS])
    return True
