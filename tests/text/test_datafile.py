"""TOML data files read into pydantic models (``validator/text/datafile.py``): the file and
every field refused named, one problem each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationInfo, field_validator, model_validator

from validator.errors import InputError
from validator.text.datafile import (
    Refusal,
    cache_dir,
    data_file,
    read_model,
    read_toml,
    refused,
    validated_once,
)


class Section(BaseModel):
    words: list[str]
    most: int = 10


class Lexicon(BaseModel):
    """A small model of the shape the package's data files have."""

    title: str
    sections: dict[str, Section]

    @field_validator("title")
    @classmethod
    def _known(cls, title: str, info: ValidationInfo) -> str:
        known = (info.context or {}).get("titles")
        if known is not None and title not in known:
            raise ValueError(f"not one of {sorted(known)}")
        return title

    @model_validator(mode="after")
    def _words_once(self) -> Lexicon:
        twice: list[Refusal] = [(("sections", name, "words"), "a word twice", section.words)
                                for name, section in self.sections.items()
                                if len(set(section.words)) != len(section.words)]
        if twice:
            raise refused("Lexicon", twice)
        return self


def _write(tmp_path: Path, text: str | bytes, name: str = "lexicon.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _problems(exc: pytest.ExceptionInfo[InputError]) -> list[tuple[str, str | None, str]]:
    return [(p.file, p.column, p.code) for p in exc.value.problems]


GOOD = 'title = "Totals"\n[sections.main]\nwords = ["total", "sum"]\n'


# --- data_file

@pytest.mark.parametrize("parts", [("lexicon.toml",), ("policies", "th.toml"),
                                   ("infractions", "common.toml")])
def test_a_data_file_is_one_the_package_ships(parts: tuple[str, ...]) -> None:
    source = data_file(*parts)
    assert source.is_file()
    assert read_toml(source)  # a table with something in it


def test_a_data_file_path_is_under_the_package_s_data_folder() -> None:
    assert Path(str(data_file("policies", "th.toml"))).parts[-3:] == ("data", "policies",
                                                                      "th.toml")
    assert not data_file("no-such-file.toml").is_file()


# --- read_toml

def test_a_toml_file_is_read_into_its_tables(tmp_path: Path) -> None:
    assert read_toml(_write(tmp_path, GOOD)) == {
        "title": "Totals", "sections": {"main": {"words": ["total", "sum"]}}}


@pytest.mark.parametrize(("content", "code"), [
    ("title = \n", "BAD_TOML"),
    ("[sections\n", "BAD_TOML"),
    (b'title = "\xff"\n', "BAD_TOML"),  # not UTF-8
])
def test_a_file_that_is_not_toml_is_one_problem_naming_it(tmp_path: Path, content: str | bytes,
                                                          code: str) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(InputError) as refusal:
        read_toml(path)
    assert _problems(refusal) == [(str(path), None, code)]


def test_a_file_that_cannot_be_read_is_one_problem_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError) as missing:
        read_toml(tmp_path / "absent.toml")
    assert _problems(missing) == [(str(tmp_path / "absent.toml"), None, "FILE_UNREADABLE")]
    with pytest.raises(InputError) as folder:
        read_toml(tmp_path)
    assert _problems(folder) == [(str(tmp_path), None, "FILE_UNREADABLE")]


# --- read_model

def test_a_file_of_the_model_s_shape_is_the_model(tmp_path: Path) -> None:
    lexicon = read_model(Lexicon, _write(tmp_path, GOOD))
    assert lexicon == Lexicon(title="Totals", sections={"main": Section(words=["total", "sum"])})
    assert lexicon.sections["main"].most == 10


def test_every_field_refused_is_a_problem_at_its_path(tmp_path: Path) -> None:
    path = _write(tmp_path, 'title = 3\n[sections.main]\nwords = ["total", 7]\nmost = "x"\n'
                            "[sections.side]\n")
    with pytest.raises(InputError) as refusal:
        read_model(Lexicon, path)
    assert sorted(_problems(refusal)) == sorted([
        (str(path), "title", "BAD_SETTING"),
        (str(path), "sections.main.words.1", "BAD_SETTING"),
        (str(path), "sections.main.most", "BAD_SETTING"),
        (str(path), "sections.side.words", "BAD_SETTING"),
    ])


def test_a_file_that_is_not_toml_is_refused_before_the_model(tmp_path: Path) -> None:
    path = _write(tmp_path, "title = \n")
    with pytest.raises(InputError) as refusal:
        read_model(Lexicon, path)
    assert _problems(refusal) == [(str(path), None, "BAD_TOML")]


def test_the_context_reaches_the_model_s_validators(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    assert read_model(Lexicon, path, context={"titles": {"Totals"}}).title == "Totals"
    with pytest.raises(InputError) as refusal:
        read_model(Lexicon, path, context={"titles": {"Sums"}})
    assert _problems(refusal) == [(str(path), "title", "BAD_SETTING")]
    assert "'Sums'" in refusal.value.problems[0].message  # what the context allowed


# --- refused

def test_a_model_s_own_refusals_are_problems_at_their_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, 'title = "Totals"\n[sections.main]\nwords = ["a", "a"]\n'
                            '[sections.side]\nwords = ["b", "b"]\n[sections.extra]\n'
                            'words = ["c"]\n')
    with pytest.raises(InputError) as refusal:
        read_model(Lexicon, path)
    assert _problems(refusal) == [(str(path), "sections.main.words", "BAD_SETTING"),
                                  (str(path), "sections.side.words", "BAD_SETTING")]


def test_a_refusal_carries_its_reason_and_the_value_found() -> None:
    error = refused("Lexicon", [(("sections", 0, "words"), "a word twice", "a"),
                                (("title",), "too long", None)])
    found: list[dict[str, Any]] = [
        {"loc": e["loc"], "msg": e["msg"], "input": e["input"]} for e in error.errors()]
    assert found == [{"loc": ("sections", 0, "words"), "msg": "a word twice", "input": "a"},
                     {"loc": ("title",), "msg": "too long", "input": None}]
    assert error.title == "Lexicon"


# --- validated_once

def test_data_validated_once_is_read_from_the_cache_afterwards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls: list[bytes] = []

    def validate(source: bytes) -> Any:
        calls.append(source)
        return {"source": source.decode(), "sizes": [1, 2]}

    first = validated_once("thing", [b"a", b"code"], lambda: validate(b"a"))
    again = validated_once("thing", [b"a", b"code"], lambda: validate(b"a"))
    assert first == again == {"source": "a", "sizes": [1, 2]}
    assert calls == [b"a"]  # the second came from the cache
    assert len(list((cache_dir() / "validated").glob("thing-*.json"))) == 1
    # other bytes (the file edited, the code changed) are validated again
    assert validated_once("thing", [b"b", b"code"], lambda: validate(b"b"))["source"] == "b"
    validated_once("thing", [b"a", b"code 2"], lambda: validate(b"a"))
    assert calls == [b"a", b"b", b"a"]


def test_a_cache_that_cannot_be_written_validates_every_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    calls: list[int] = []

    def validate() -> list[int]:
        calls.append(1)
        return [3]

    for _ in range(2):
        assert validated_once("thing", [b"a"], validate) == [3]
    assert calls == [1, 1]


def test_a_damaged_cache_entry_is_validated_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    validated_once("thing", [b"a"], lambda: {"n": 1})
    (entry,) = (cache_dir() / "validated").glob("thing-*.json")
    entry.write_bytes(b"{ not json")
    assert validated_once("thing", [b"a"], lambda: {"n": 2}) == {"n": 2}
    assert validated_once("thing", [b"a"], lambda: {"n": 3}) == {"n": 2}  # rewritten
