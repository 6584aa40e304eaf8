"""The engine's long-lived worker threads, each a pool of one thread made on first use.

An idle pool keeps its thread alive until the pool is shut down, and the ``deckcheck``
program ends its process at once only when no other thread is alive: :func:`others_alive`
tells whether a thread other than the pools' is, and :func:`end` lets every pool finish
what it was given, then ends its thread (the pools take no work after it).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["end", "others_alive", "pool"]

_POOLS: list[tuple[str, ThreadPoolExecutor]] = []


def pool(name: str) -> ThreadPoolExecutor:
    """A pool of one thread named after ``name``, ended by :func:`end`."""
    made = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    _POOLS.append((name, made))
    return made


def _in_a_pool(thread: threading.Thread) -> bool:
    # a pool's threads are named "<name>_<number>" by the executor
    return any(thread.name.startswith(f"{name}_") for name, _ in _POOLS)


def others_alive() -> bool:
    """Whether a thread other than this one and the pools' is alive."""
    me = threading.current_thread()
    return any(t is not me and not _in_a_pool(t) for t in threading.enumerate())


def end() -> None:
    """Every pool's work finished and its thread ended."""
    for _, made in _POOLS:
        made.shutdown(wait=True)
