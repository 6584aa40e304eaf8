"""Polars' allocator set up by the program before polars is loaded, a user's own settings
kept, and the settings read by the jemalloc polars is built with."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from validator import allocator

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                          capture_output=True, check=True)


def _without_variable() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != allocator.VARIABLE}


def test_the_program_sets_the_allocator_before_polars_is_loaded() -> None:
    shown = _run("import os, sys, validator.cli\n"
                 f"print(os.environ.get({allocator.VARIABLE!r}), 'polars' in sys.modules)",
                 _without_variable())
    settings, loaded = shown.stdout.split()
    assert loaded == "True"
    # polars' own settings first, ours after them (the last of a setting counts)
    assert settings.split(",")[-1] == allocator.SETTINGS


def test_a_users_own_settings_are_kept() -> None:
    env = {**_without_variable(), allocator.VARIABLE: "narenas:3"}
    shown = _run("import os, validator.cli\n"
                 f"print(os.environ[{allocator.VARIABLE!r}])", env)
    assert shown.stdout.strip().split(",")[-1] == "narenas:3"
    assert allocator.SETTINGS not in shown.stdout


def test_settings_a_process_inherits_from_one_that_loaded_polars_are_added_to() -> None:
    env = {**_without_variable(), allocator.VARIABLE: "dirty_decay_ms:500,muzzy_decay_ms:1000"}
    shown = _run("import os, validator.cli\n"
                 f"print(os.environ[{allocator.VARIABLE!r}])", env)
    assert shown.stdout.strip().endswith(
        f"dirty_decay_ms:500,muzzy_decay_ms:1000,{allocator.SETTINGS}")


def test_nothing_is_set_once_polars_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    import polars  # noqa: F401 (loaded, as in this process)

    monkeypatch.delenv(allocator.VARIABLE, raising=False)
    assert allocator.configure() is False
    assert allocator.VARIABLE not in os.environ


@pytest.mark.parametrize("given", ["", "background_thread:true,", " dirty_decay_ms:500 ,"])
def test_empty_items_and_spaces_of_the_given_settings_are_dropped(
        monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    monkeypatch.delitem(sys.modules, "polars", raising=False)  # as if not loaded yet
    monkeypatch.setenv(allocator.VARIABLE, given)
    assert allocator.configure() is True
    items = os.environ[allocator.VARIABLE].split(",")
    assert items[-1] == allocator.SETTINGS
    assert all(item and item == item.strip() for item in items)


def _arenas(settings: str, configured: bool) -> int | None:
    """The arenas polars' jemalloc reports at exit (``stats_print``) for the settings given,
    with ``configure()`` called first or not; None when it printed none (not jemalloc)."""
    shown = _run(("from validator import allocator\nallocator.configure()\n" if configured
                  else "") +
                 "import polars as pl\n"
                 "pl.DataFrame({'a': [1, 2]}).sum()\n",
                 {**_without_variable(), allocator.VARIABLE: settings})
    found = re.search(r"opt\.narenas: (\d+)", shown.stderr)
    return int(found.group(1)) if found else None


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="measured and tested where polars' wheels are built with jemalloc: "
                           "Linux")
def test_polars_jemalloc_reads_the_settings() -> None:
    # jemalloc prints its options at exit with stats_print: printed at all, the variable is
    # the one it reads; its arenas are those set
    assert _arenas("stats_print:true", configured=True) == 1
    assert _arenas("stats_print:true,narenas:3", configured=True) == 3  # the user's kept
    # jemalloc's default is four arenas per CPU this process may run on, one on a single CPU
    if len(os.sched_getaffinity(0)) > 1:
        assert _arenas("stats_print:true", configured=False) != 1
