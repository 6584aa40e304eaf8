"""Readers of uploads for tests of the limits per file: hostile files are given away by
their first bytes (``SLOW``, ``HUGE``, ``GROW``, ``KEEP``, ``KILLED``). Module-level
functions: the reading process is given them by name."""

from __future__ import annotations

import os
import signal
import time

from validator.event.bounded import Job, Read, read_upload

__all__ = ["hostile_read", "refusing_read"]


_KEPT: list[bytes] = []  # what a KEEP file leaves held after its reading


def hostile_read(job: Job) -> Read:
    """Reads as the server does, except files built to be slow or to need much memory."""
    if job.data.startswith(b"SLOW"):
        time.sleep(600)
    if job.data.startswith(b"HUGE"):
        held = bytearray(1 << 30)  # beyond the limit: the allocation fails
        held[-1] = 1
    if job.data.startswith(b"GROW"):
        held_too = b"x" * (400 << 20)  # within the address space allowed, beyond the limit
        time.sleep(600)
        del held_too
    if job.data.startswith(b"KEEP"):
        _KEPT.append(b"k" * (160 << 20))  # within the limit (over half of it), still held after
    if job.data.startswith(b"KILLED"):
        os.kill(os.getpid(), signal.SIGKILL)  # as the system ends a process out of memory
    if job.data.startswith(b"PANIC"):
        import polars as pl

        raise pl.exceptions.PanicException("assertion failed: i < self.len()")
    return read_upload(job)


def refusing_read(job: Job) -> Read:
    """Reads as the server does, and fails the check on a file built to be hostile."""
    if job.data.startswith((b"SLOW", b"HUGE", b"GROW", b"KILLED")):
        raise RuntimeError(f"{job.name} was read again")
    return read_upload(job)
