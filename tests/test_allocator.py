"""Polars' allocator set up by the program before polars is loaded, a user's own settings
kept, and the settings read by the jemalloc polars is built with."""

from __future__ import annotations

import os
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


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="polars is built with jemalloc (this variable) on Linux")
def test_polars_jemalloc_reads_the_settings() -> None:
    # jemalloc prints its options at exit with stats_print: the arenas are those set
    shown = _run("import os\n"
                 "from validator import allocator\n"
                 "assert allocator.configure()\n"
                 "os.environ[allocator.VARIABLE] += ',stats_print:true'\n"
                 "import polars as pl\n"
                 "pl.DataFrame({'a': [1, 2]}).sum()\n", _without_variable())
    assert "opt.narenas: 1\n" in shown.stderr
    default = _run("import polars as pl\npl.DataFrame({'a': [1, 2]}).sum()\n",
                   {**_without_variable(), allocator.VARIABLE: "stats_print:true"})
    assert "opt.narenas: 1\n" not in default.stderr
