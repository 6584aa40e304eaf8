"""The README's command examples run and print what the README says they print.

In a README code block, a ``deckcheck ...`` line is an example; the ``#> ...`` lines right
under it are fragments of its output, each of which must appear in what it prints. A file an
example writes (``--report``, ``--json``) must exist afterwards; a JSON one must parse.
"""

from __future__ import annotations

import itertools
import json
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
Example = tuple[str, tuple[str, ...]]


def _examples() -> list[Example]:
    text = (ROOT / "README.md").read_text()
    blocks = [body for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text,
                                                flags=re.S | re.M) if not lang]
    found: list[tuple[str, list[str]]] = []
    for block in blocks:
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("deckcheck "):
                found.append((line, []))
            elif line.startswith("#> ") and found:
                found[-1][1].append(line[3:])
    return [(command, tuple(expected)) for command, expected in found
            if not command.startswith(SKIP)]


def test_readme_has_examples_with_their_output() -> None:
    examples = _examples()
    assert len(examples) >= 6
    assert sum(1 for _, expected in examples if expected) >= 4


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e[0][:60])
def test_readme_example_runs(example: Example, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    command, expected = example
    words = shlex.split(command)[1:]
    for word in words:
        if word.startswith("../shared/"):
            shared_path(*Path(word).parts[3:])
    monkeypatch.chdir(ROOT)
    words = [str(tmp_path / w[4:]) if w.startswith("out/") else w for w in words]
    if words[0] == "template":  # the file it writes goes to the test's folder
        words = [str(tmp_path / w) if w.endswith((".xlsx", ".pdf")) else w for w in words]
    if words[0] == "pdf":
        words += ["--out", str(tmp_path / "sheet.pdf")]
    result = CliRunner().invoke(main, words, env={**os.environ})
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for fragment in expected:
        assert fragment in result.output, f"{command!r} did not print {fragment!r}"
    for flag, value in itertools.pairwise(words):
        if flag in ("--report", "--json", "--out") and value != "-":
            assert Path(value).exists(), f"{command!r} did not write {value}"
            if value.endswith(".json"):
                assert json.loads(Path(value).read_text())["format"]
    if "--json" in words and words[words.index("--json") + 1] == "-":
        assert json.loads(result.stdout)["decks" if words[0] == "check" else "players"]
