from __future__ import annotations

import pytest

from validator.errors import InputError
from validator.judging.infractions import catalogue, infraction
from validator.judging.penalties import penalty_types
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
