"""A shipped data file edited into a malformed one, for the tests of each loader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from validator.errors import InputError
from validator.text.datafile import data_file


def refused_fields(name: str, edit: tuple[str, str], load: Callable[[Path], object],
                   folder: Path) -> set[str | None]:
    """The fields named when the shipped data file ``name`` with ``edit`` (old, new) made
    once is loaded by ``load``; the problems must all name the file."""
    text = data_file(name).read_text(encoding="utf-8")
    assert edit[0] in text  # the edit applies to the shipped file
    path = folder / name
    path.write_text(text.replace(*edit, 1), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load(path)
    assert {p.file for p in info.value.problems} == {str(path)}
    return {p.column for p in info.value.problems}
