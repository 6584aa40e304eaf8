from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import Run
from tests.deckbuild import build, legal_filler
from validator.cards import formats
from validator.cards.db import CardDB
from validator.cards.formats import Format, banlists_dir, format_names, load_format
from validator.errors import InputError


def test_every_shipped_format_loads_and_names_an_existing_list() -> None:
    names = format_names()
    assert {"advanced-tcg", "advanced-ocg", "traditional", "rush", "speed", "goat",
            "genesys"} <= set(names)
    for name in names:
        fmt = load_format(name)
        assert fmt.name == name
        assert (banlists_dir() / fmt.default_list).exists()


def test_format_facts() -> None:
    assert load_format("speed").main_min == 20
    assert load_format("speed").extra_max == 5
    assert load_format("genesys").points_cap == 100
    assert set(load_format("genesys").forbidden_types) == {"link", "pendulum"}
    assert load_format("traditional").forbidden_as_limited
    assert load_format("rush").legend_limit == 1


def test_custom_format_file(tmp_path: Path) -> None:
    custom = tmp_path / "mine.toml"
    custom.write_text('name = "mine"\ntitle = "Mine"\nmain_min = 30\n'
                      'default_list = "lists/demo-tcg.lflist.conf"\n')
    assert load_format(str(custom)).main_min == 30


def test_bad_format_file_names_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ntitle = "X"\nmain_min = "forty"\nsurprise = 1\n'
                   'default_list = "a"\n')
    with pytest.raises(InputError) as info:
        load_format(str(bad))
    assert {p.column for p in info.value.problems} == {"main_min", "surprise"}


def test_unknown_format() -> None:
    with pytest.raises(InputError) as info:
        load_format("no-such-format")
    assert info.value.codes == ["UNKNOWN_FORMAT"]


def _format_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ntitle = "Mine"\ndefault_list = "lists/demo-tcg.lflist.conf"\n'
                    + body, encoding="utf-8")
    return path


def test_forbidden_types_in_any_case_ban_those_monsters(run: Run, demo_db: CardDB,
                                                         tmp_path: Path) -> None:
    path = _format_file(tmp_path, 'forbidden_types = ["Link", "PENDULUM"]\n')
    assert load_format(str(path)).forbidden_types == ["link", "pendulum"]
    deck = build(demo_db, "d", [("Odd-Eyes Pendulum Dragon", 1), *legal_filler(demo_db, 39)],
                 extra=[("Linkuriboh", 1), ("Stardust Dragon", 1)])
    result = run(deck, fmt=str(path))
    found = result.violations.filter(pl.col("code") == "FORBIDDEN_CARD_TYPE")
    assert sorted(found["card"].to_list()) == ["Linkuriboh", "Odd-Eyes Pendulum Dragon"]


def test_card_pool_and_kinds_in_any_case(tmp_path: Path) -> None:
    path = _format_file(tmp_path, 'card_pool = ["TCG", "Ocg-Kr"]\n'
                                  'allowed_kinds = ["Monster", "SPELL", "trap"]\n')
    fmt = load_format(str(path))
    assert fmt.card_pool == ["tcg", "ocg-kr"]
    assert fmt.allowed_kinds == ["monster", "spell", "trap"]


@pytest.mark.parametrize(("body", "fields"), [
    ('forbidden_types = ["Linc"]\n', {"forbidden_types.0"}),
    ('forbidden_types = ["link", 3]\n', {"forbidden_types.1"}),
    ('forbidden_types = "link"\n', {"forbidden_types"}),
    ('card_pool = ["tgc"]\n', {"card_pool.0"}),
    ('allowed_kinds = ["monster", "ritual"]\n', {"allowed_kinds.1"}),
    ('points_list = "lists/demo-genesys.lflist.conf"\n', {"points_list"}),
    ("main_min = 61\n", {"main_max"}),
    ("list_pattern = '(TCG'\n", {"list_pattern"}),
])
def test_a_format_naming_what_the_engine_does_not_know_is_refused(
        tmp_path: Path, body: str, fields: set[str]) -> None:
    path = _format_file(tmp_path, body)
    with pytest.raises(InputError) as info:
        load_format(str(path))
    assert {p.file for p in info.value.problems} == {str(path)}
    assert {p.column for p in info.value.problems} == fields


def test_a_format_that_is_not_toml_names_the_file(tmp_path: Path) -> None:
    path = _format_file(tmp_path, "forbidden_types = [\n")
    with pytest.raises(InputError) as info:
        load_format(str(path))
    assert [p.file for p in info.value.problems] == [str(path)]


def test_a_shipped_format_from_the_cache_is_the_one_validated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = {name: load_format(name) for name in format_names()}  # validated, kept
    assert len(list((tmp_path / "cache").rglob("format-*.json"))) == len(first)
    for name, fmt in first.items():
        path = banlists_dir() / "formats" / f"{name}.toml"
        assert load_format(name) == fmt == load_format(str(path))  # cache, file validated
        assert isinstance(fmt, Format)


def test_an_edited_shipped_format_is_validated_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "banlists"
    shutil.copytree(banlists_dir() / "formats", shipped / "formats")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(formats, "banlists_dir", lambda: shipped)
    assert load_format("speed").main_min == 20
    path = shipped / "formats" / "speed.toml"
    path.write_text(path.read_text().replace("main_min = 20", "main_min = 25"))
    assert load_format("speed").main_min == 25
    path.write_text(path.read_text().replace("main_min = 25", 'main_min = "x"'))
    with pytest.raises(InputError) as info:
        load_format("speed")
    assert [(p.file, p.column) for p in info.value.problems] == [(str(path), "main_min")]


def test_a_format_has_the_fields_of_the_model_that_validates_it() -> None:
    """A validated format is kept as a plain class with its file model's fields, in order,
    so no field a format file gives is dropped or left unvalidated."""
    from validator.cards._format_file import FormatFile

    assert Format._fields == tuple(FormatFile.model_fields)
