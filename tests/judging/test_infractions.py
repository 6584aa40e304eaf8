from __future__ import annotations

from pathlib import Path

import pytest

from validator.errors import InputError
from validator.judging.infractions import catalogue, infraction
from validator.judging.penalties import penalty_types
from validator.text.datafile import data_file
from validator.vocab import LANGS, REGULATIONS


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_catalogue_is_complete_in_four_languages(regulation: str) -> None:
    items = catalogue(regulation)
    assert len(items) >= 18
    for item in items:
        assert item.penalty in penalty_types()
        assert all(item.text[lang].strip() for lang in LANGS)
        assert all(item.section_title[lang].strip() for lang in LANGS)


@pytest.mark.parametrize(("regulation", "code", "penalty"), [
    ("th", "LATE_5", "DUEL_FORFEITURE"),  # th §5: 5 minutes late
    ("th", "STALLING", "MATCH_FORFEITURE"),  # th §7: deliberate stalling
    ("th", "BRIBERY", "DISQUALIFICATION_PRIZES_FORFEITED"),  # th §8: Total Disqualification
    ("ja", "DRAW_EXTRA", "WARNING"),  # ja §4: 過剰にカードを引いた → 警告
    ("ja", "RANDOM_RESULT", "DISQUALIFICATION"),  # ja §8: ジャンケン → 失格
    ("ko", "MARKED_PATTERN", "DUEL_FORFEITURE"),  # ko §6: 규칙성이 있는 경우 → 듀얼의 패배
    ("ko", "CONCESSION_MIDWAY", "MATCH_FORFEITURE"),  # ko §8: 고의로 도중에 기권
])
def test_default_penalties_follow_the_regulations(regulation: str, code: str,
                                                  penalty: str) -> None:
    assert infraction(regulation, code).penalty == penalty


def test_infraction_missing_from_a_regulation() -> None:
    with pytest.raises(InputError):
        infraction("ja", "ASSAULT")


def _catalogue_copy(tmp_path: Path, file: str, *edits: tuple[str, str]) -> Path:
    """The shipped catalogue copied to ``tmp_path``, with ``file`` edited."""
    shipped = data_file("infractions")
    for name in ("common", *REGULATIONS):
        text = (shipped / f"{name}.toml").read_text(encoding="utf-8")
        if f"{name}.toml" == file:
            for old, new in edits:
                assert old in text
                text = text.replace(old, new, 1)
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return tmp_path / file


def test_an_unedited_copy_of_the_catalogue_loads(tmp_path: Path) -> None:
    _catalogue_copy(tmp_path, "th.toml")
    assert catalogue("th", tmp_path) == catalogue("th")


@pytest.mark.parametrize(("file", "edits", "fields"), [
    ("ja.toml", [('LATE = { section = "5", penalty = "WARNING" }',
                  'LATE = { section = "55", penalty = "WARNIN", notes = "x" }')],
     {"infractions.LATE.section", "infractions.LATE.penalty", "infractions.LATE.notes"}),
    ("ja.toml", [('LATE = { section = "5"', 'LATE_99 = { section = "5"')],
     {"infractions.LATE_99"}),
    ("ja.toml", [('regulation = "ja"', 'regulation = "jp"')], {"regulation"}),
    ("common.toml", [('ko = "룰에 관한 위반"\n', "")], {"sections.4"}),
    ("common.toml", [('[infractions.DRAW_EXTRA]\nen = "Unintentionally',
                      '[infractions.DRAW_EXTRA]\nen = 3\nfr = "Unintentionally')],
     {"infractions.DRAW_EXTRA.en", "infractions.DRAW_EXTRA.fr.[key]"}),
])
def test_a_malformed_catalogue_is_refused_naming_file_and_field(
        tmp_path: Path, file: str, edits: list[tuple[str, str]], fields: set[str]) -> None:
    path = _catalogue_copy(tmp_path, file, *edits)
    with pytest.raises(InputError) as info:
        catalogue("ja", tmp_path)
    assert {p.file for p in info.value.problems} == {str(path)}
    assert {p.column for p in info.value.problems} == fields


def test_a_catalogue_under_another_regulations_name_is_refused(tmp_path: Path) -> None:
    path = _catalogue_copy(tmp_path, "ja.toml", ('regulation = "ja"', 'regulation = "ko"'))
    with pytest.raises(InputError) as info:
        catalogue("ja", tmp_path)
    assert [(p.file, p.column) for p in info.value.problems] == [(str(path), "regulation")]
