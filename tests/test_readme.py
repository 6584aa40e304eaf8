"""The README's command examples run, so they cannot rot."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import shared_path
from validator.cli import main

ROOT = Path(__file__).resolve().parent.parent
SKIP = ("deckcheck serve", "deckcheck data update")  # a server, and the network


def _examples() -> list[str]:
    text = (ROOT / "README.md").read_text()
    blocks = [body for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text,
                                                flags=re.S | re.M) if not lang]
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip().startswith("deckcheck ") and not line.strip().startswith(SKIP)]


def test_readme_has_examples() -> None:
    assert len(_examples()) >= 6


@pytest.mark.parametrize("command", _examples())
def test_readme_example_runs(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             ) -> None:
    words = shlex.split(command)[1:]
    for word in words:
        if word.startswith("../shared/"):
            shared_path(*Path(word).parts[3:])
    monkeypatch.chdir(ROOT)
    words = [str(tmp_path / w[4:]) if w.startswith("out/") else w for w in words]
    if words[0] == "template":
        words[1] = str(tmp_path / words[1])
    result = CliRunner().invoke(main, words, env={**os.environ})
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
