"""The README's generated parts (codes, regulations, commands) match the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator import docs
from validator.engine.rules import copies

ROOT = Path(__file__).resolve().parent.parent


def test_readme_is_up_to_date() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert docs.render(readme) == readme, "run `python -m validator.docs`"
    assert docs.main(["--check"]) == 0


def test_a_docstring_change_makes_the_readme_drift(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    changed = (copies.__doc__ or "").replace("TOO_MANY_COPIES: more than 3 copies",
                                             "TOO_MANY_COPIES: more than three copies")
    monkeypatch.setattr(copies, "__doc__", changed)
    assert docs.code_meaning("TOO_MANY_COPIES").startswith("more than three copies")
    assert docs.render(readme) != readme
    assert docs.main(["--check"]) == 1


def test_every_code_says_what_it_means() -> None:
    from validator.engine.rules import CODES

    for code in CODES:
        assert docs.code_meaning(code)


def test_a_help_change_makes_the_commands_drift(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.cli import main as cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    check = cli.commands["check"]
    monkeypatch.setattr(check, "help", "Check decks somehow.")
    assert "Check decks somehow." in docs.commands()
    assert docs.render(readme) != readme


def test_the_problem_codes_are_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.errors import PROBLEM_CODES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code, meaning in PROBLEM_CODES.items():
        assert f"| `{code}` | {meaning} |" in readme
    monkeypatch.setitem(PROBLEM_CODES, "NO_CARD", "a row that names no card at all")
    assert "| `NO_CARD` | a row that names no card at all |" in docs.problem_codes_table()
    assert docs.render(readme) != readme
