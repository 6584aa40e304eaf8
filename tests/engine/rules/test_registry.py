"""Meta-tests: every rule code is documented, tested, in the README and has penalty texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.engine.rules import (
    CODES,
    COMPARING_CODES,
    DECISION_CODES,
    MODULES,
    RULES,
    RuleModule,
    rule_for,
)
from validator.errors import ImplementationError
from validator.judging.penalties import load_policy
from validator.vocab import LANGS, REGULATIONS, STAGES

ROOT = Path(__file__).resolve().parent.parent.parent.parent


def test_codes_are_unique_and_match_the_issue_table() -> None:
    assert len(CODES) == len(set(CODES)) == 17
    assert set(CODES) == {
        "MAIN_TOO_SMALL", "MAIN_TOO_LARGE", "EXTRA_TOO_LARGE", "SIDE_TOO_LARGE",
        "TOO_MANY_COPIES", "FORBIDDEN_CARD", "LIMIT_EXCEEDED", "LEGEND_LIMIT_EXCEEDED",
        "NOT_IN_CARD_POOL", "FORBIDDEN_CARD_TYPE", "WRONG_SECTION", "UNKNOWN_CARD",
        "POINTS_EXCEEDED", "SKILL_COUNT", "LIST_MISMATCH", "UNRESOLVED_NAME",
        "UNREADABLE_ROW"}
    assert {"UNRESOLVED_NAME", "UNREADABLE_ROW"} == DECISION_CODES
    assert {"LIST_MISMATCH"} == COMPARING_CODES


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_rule_module_declares_its_flags(module: RuleModule) -> None:
    for flag in ("DECISION", "COUNTS", "COMPARES"):
        assert isinstance(getattr(module, flag), bool), flag


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_rule_module_is_documented_and_tested(module: RuleModule) -> None:
    doc = module.__doc__ or ""
    for code in module.CODES:
        assert code in doc
    assert "PASS" in doc
    assert "FAIL" in doc
    assert "§" in doc or "Regulation" in doc
    name = module.__name__.rsplit(".", 1)[1]
    test_file = ROOT / "tests" / "engine" / "rules" / f"test_{name}.py"
    assert test_file.exists()
    text = test_file.read_text()
    assert "def test_pass" in text
    assert "def test_fail" in text or "illegal" in text


@pytest.mark.parametrize("code", CODES)
def test_code_is_in_the_readme(code: str) -> None:
    assert f"`{code}`" in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_every_code_has_penalty_texts_in_four_languages(regulation: str) -> None:
    policy = load_policy(regulation)
    for code in CODES:
        rule = policy.codes[code]
        for lang in LANGS:
            assert policy.remedy(code, lang).strip()
            if rule.penalty is not None:
                assert policy.penalty_name(rule.penalty, lang).strip()
                for stage in STAGES:
                    assert policy.applies_to(rule.penalty, stage, lang).strip()
        # a penalty always rests on a clause; a decision never carries one
        assert (rule.penalty is None) == (rule.clause is None)
        if code in DECISION_CODES:
            assert rule.penalty is None


def test_unknown_code_is_an_implementation_error() -> None:
    assert rule_for("TOO_MANY_COPIES") is RULES["TOO_MANY_COPIES"]
    with pytest.raises(ImplementationError):
        rule_for("NOPE")
