"""The engine's long-lived worker threads, each a pool of one thread made on first use.

An idle pool keeps its thread alive until the pool is shut down, and the ``deckcheck``
program ends its process at once only when no other thread is alive: :func:`end` lets every
pool finish what it was given, then ends its thread.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

__all__ = ["end", "pool"]

_POOLS: list[ThreadPoolExecutor] = []


def pool(name: str) -> ThreadPoolExecutor:
    """A pool of one thread named after ``name``, ended by :func:`end`."""
    made = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    _POOLS.append(made)
    return made


def end() -> None:
    """Every pool's work finished and its thread ended (the pools take no more work)."""
    for made in _POOLS:
        made.shutdown(wait=True)
