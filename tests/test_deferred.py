"""Modules polars imports but the program seldom uses, imported when first used: the
program defers them, a deferred module works as the real one, and nothing is deferred once
polars is loaded or outside the program."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from validator import deferred

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True,
                          capture_output=True, check=True)
    return done.stdout.split()


def _kinds(names: tuple[str, ...] = deferred.MODULES) -> str:
    return f"print(*(type(sys.modules.get(n)).__name__ for n in {names!r}))"


def test_the_program_defers_them_and_polars_loads_without_them() -> None:
    shown = _run("import sys; sys.argv[0] = 'deckcheck'\n"
                 "import validator.cli, polars\n" + _kinds())
    assert shown == ["_Deferred"] * len(deferred.MODULES)


def test_a_library_user_gets_every_module_as_it_is() -> None:
    shown = _run("import sys\nimport validator.cli, polars\n" + _kinds())
    assert "_Deferred" not in shown


def test_a_deferred_module_is_the_real_one_when_used() -> None:
    shown = _run(
        "import sys\nfrom validator import deferred\n"
        "print(*deferred.defer())\n"
        "import importlib.metadata, subprocess, polars\n"
        "from importlib.metadata import version\n"
        "print(version('polars') == polars.__version__)\n"
        "print(subprocess.run([sys.executable, '-c', 'print(7)'], capture_output=True,"
        " text=True).stdout.strip())\n"
        "print(importlib.metadata.version('polars') == polars.__version__)\n"
        + _kinds() + "\n"
        "print(sys.modules['importlib'].metadata is sys.modules['importlib.metadata'])")
    assert shown[:2] == list(deferred.MODULES)
    assert shown[2:5] == ["True", "7", "True"]
    assert shown[5:7] == ["module", "module"]  # the real ones took their places
    assert shown[7] == "True"


def test_nothing_is_deferred_once_polars_is_loaded() -> None:
    assert _run("import polars\nfrom validator import deferred\nprint(deferred.defer())") \
        == ["[]"]


def test_a_module_imported_already_is_left_as_it_is() -> None:
    shown = _run("import sys, subprocess\nfrom validator import deferred\n"
                 "print(*deferred.defer())\n" + _kinds(("subprocess",)))
    assert shown == ["importlib.metadata", "module"]


def test_the_program_still_tells_its_version() -> None:
    done = subprocess.run([str(Path(sys.executable).with_name("deckcheck")), "--version"],
                          cwd=ROOT, text=True, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "version" in done.stdout
