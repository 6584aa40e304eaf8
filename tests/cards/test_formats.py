from __future__ import annotations

from pathlib import Path

import pytest

from validator.cards.formats import banlists_dir, format_names, load_format
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
