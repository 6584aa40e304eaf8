"""Deck files read ahead by a forked process: the same sources and problems as reading them
in the process, used only for the paths read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from validator.inputs.decks import prefetch
from validator.inputs.decks.sources import MAX_DECK_BYTES

ROOT = Path(__file__).resolve().parents[3]

#: run in a new interpreter (the read ahead forks only before polars is imported): starts a
#: read ahead of argv[1:], takes it for the paths in the environment's ASKED, and prints
#: what it gave beside what ``path_sources`` gives, as JSON
_PROBE = """
import json, os, sys
from pathlib import Path
from validator.errors import InputError
from validator.inputs.decks import prefetch
started = prefetch.start(sys.argv[1:])
asked = [Path(p) for p in json.loads(os.environ["ASKED"])]

def shown(read):
    try:
        found = read()
    except InputError as exc:
        return {"raised": [[p.file, p.code] for p in exc.problems]}
    if found is None:
        return None
    sources, problems = found
    return {"sources": [[s.label, s.deck_id, s.data.hex(), s.kind] for s in sources],
            "problems": [[p.file, p.line, p.code, p.message] for p in problems]}

ahead = shown(lambda: prefetch.taken(asked))
from validator.inputs.decks.sources import path_sources
print(json.dumps({"started": started, "polars": "polars" in sys.modules, "ahead": ahead,
                  "here": shown(lambda: path_sources(asked))}))
"""


def _probe(paths: list[Path], asked: list[Path] | None = None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *map(str, paths)], capture_output=True, text=True,
        cwd=ROOT, check=False, env={**os.environ, "ASKED": json.dumps(
            [str(p) for p in (paths if asked is None else asked)])})
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _folder(tmp_path: Path) -> Path:
    decks = tmp_path / "decks"
    (decks / "sub").mkdir(parents=True)
    (decks / "a.ydk").write_bytes(b"#main\n89631139\n")
    (decks / "sub" / "b.ydk").write_bytes(b"#main\r\nabc\r\n")
    (decks / "a.ydke").write_bytes(b"ydke://!!!")  # a second deck for "a"
    (decks / "big.ydk").write_bytes(b"#" * (MAX_DECK_BYTES + 1))
    (decks / "bad\x01name.ydk").write_bytes(b"#main\n")
    (decks / "notes.md").write_bytes(b"not a deck")
    with zipfile.ZipFile(decks / "more.zip", "w") as archive:
        archive.writestr("c.ydk", "#main\n89631139\n")
        archive.writestr("a.ydk", "#main\n")
    return decks


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_files_read_ahead_are_the_sources_and_problems_read_here(tmp_path: Path) -> None:
    decks = _folder(tmp_path)
    single = tmp_path / "single.ydk"
    single.write_bytes(b"#main\n14558127\n")
    found = _probe([decks, single])
    assert found["started"] is True
    assert found["polars"] is False  # reading deck files needs no polars
    assert found["ahead"] == found["here"]
    here = found["here"]
    assert isinstance(here, dict)
    assert {code for _, _, code, _ in here["problems"]} == {
        "DECK_TWICE", "FILE_TOO_LARGE", "BAD_DECK_ID"}
    assert [deck_id for _, deck_id, _, _ in here["sources"]] == ["a", "c", "b", "single"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_missing_path_read_ahead_is_raised_as_when_read_here(tmp_path: Path) -> None:
    decks = _folder(tmp_path)
    found = _probe([decks, tmp_path / "missing"])
    assert found["started"] is True
    assert found["ahead"] == found["here"] == {
        "raised": [[str(tmp_path / "missing"), "FILE_MISSING"]]}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_files_read_ahead_are_not_used_for_other_paths(tmp_path: Path) -> None:
    decks = _folder(tmp_path)
    found = _probe([decks], asked=[decks / "sub"])
    assert found["started"] is True
    assert found["ahead"] is None
    here = found["here"]
    assert isinstance(here, dict)
    assert [deck_id for _, deck_id, _, _ in here["sources"]] == ["b"]


def test_nothing_is_read_ahead_once_polars_is_imported(tmp_path: Path) -> None:
    import polars  # noqa: F401 (its threads may hold locks a fork would copy)

    assert prefetch.start([str(tmp_path)]) is False
    assert prefetch.taken([tmp_path]) is None


def test_a_read_ahead_pays_for_a_folder_a_zip_or_many_files(tmp_path: Path) -> None:
    files = [str(tmp_path / f"{n}.ydk") for n in range(prefetch.MANY_FILES)]
    assert prefetch.worth_it([str(tmp_path)])
    assert prefetch.worth_it([str(tmp_path / "decks.zip")])
    assert prefetch.worth_it(files)
    assert not prefetch.worth_it(files[:2])



@pytest.mark.parametrize(("cores", "load", "free"), [
    ({0, 1}, 0.4, True), ({0, 1}, 1.9, True), ({0, 1}, 2.0, False), ({0, 1}, 4.5, False),
    ({0}, 0.0, False), ({0, 1, 2, 3}, 3.5, True)])
def test_a_core_is_free_when_fewer_processes_ran_than_there_are_cores(
        monkeypatch: pytest.MonkeyPatch, cores: set[int], load: float, free: bool) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: cores, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert prefetch.core_free() is free


def test_no_core_is_free_where_the_system_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(os, "getloadavg", unknown)
    assert prefetch.core_free() is False
