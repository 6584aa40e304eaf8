"""Penalty policies: every citation is the regulation's own words, defaults by format and
language, and an organizer's own policy file validated field by field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import shared_path
from validator.cli import main
from validator.engine.rules import CODES
from validator.errors import InputError
from validator.judging.penalties import (
    Citation,
    default_regulation,
    load_policy,
    penalty_types,
    policy_from_toml,
)
from validator.text.datafile import data_file, read_toml
from validator.vocab import REGULATIONS

ROOT = Path(__file__).resolve().parent.parent.parent


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_every_citation_is_found_verbatim_in_its_regulation(regulation: str) -> None:
    policy = load_policy(regulation)
    assert policy.source is not None
    text = _flat(shared_path("..", "regulations", policy.source).read_text(encoding="utf-8"))
    citations = policy.citations()
    assert citations
    for citation in citations:
        assert _flat(citation.heading) in text, citation
        if citation.quote:
            assert _flat(citation.quote) in text, citation


def test_the_ja_copy_prescribes_only_the_deck_list_penalty() -> None:
    ja = load_policy("ja")
    assert [code for code, rule in ja.codes.items() if rule.penalty] == ["LIST_MISMATCH"]
    assert not ja.recorded("DUEL_FORFEITURE")
    assert ja.applies_to("DUEL_FORFEITURE", "in-duel", "en").startswith("when the head judge")


def test_only_ko_says_penalties_are_officially_recorded() -> None:
    assert load_policy("ko").recorded("DUEL_FORFEITURE")
    assert not load_policy("th").recorded("DUEL_FORFEITURE")


def test_a_match_forfeiture_between_matches_applies_to_the_next_match() -> None:
    for regulation in ("ja", "ko"):
        assert load_policy(regulation).applies_to(
            "MATCH_FORFEITURE", "between-matches", "en") == \
            "the next match, at the judge's discretion"
    assert load_policy("ko").applies_to("MATCH_FORFEITURE", "in-duel", "en") == \
        "the match in progress"


def test_default_regulation_by_format_only() -> None:
    assert default_regulation(rush=True) == "ko"
    assert default_regulation(rush=False) == "th"


def test_rush_without_regulation_cites_the_ko_regulation(tmp_path: Path) -> None:
    # R1003 registers two Legend Monsters: LEGEND_LIMIT_EXCEEDED, a ko §3A clause
    deck = ROOT / "decks" / "rush" / "R1003.ydk"
    result = CliRunner().invoke(main, ["check", str(deck), "--format", "rush", "--cards",
                                       "demo", "--json", "-"])
    report = json.loads(result.stdout)
    assert report["regulation"] == "ko"
    basis = report["decks"][0]["penalty"]["basis"]
    assert basis
    assert all(b.startswith("ko 3A A : 덱에 관한 위반") for b in basis)
    assert "레전드 카드" in basis[0]


CUSTOM = """
regulation = "my-store"
title = "Store championship policy (example)"

[penalties.GAME_LOSS]
severity = 2
en = "Game Loss"

[types.GAME_LOSS]
in-duel = "this_duel"
between-duels = "next_duel"
between-matches = "next_duel"
pre-event = "first_duel"
"""


def _custom(tmp_path: Path, codes: str) -> Path:
    from validator.engine.rules import CODES

    body = "".join(f'\n[codes.{code}]\nremedy = "make_legal"\n' for code in CODES
                   if code != "MAIN_TOO_SMALL")
    path = tmp_path / "policy.toml"
    path.write_text(CUSTOM + body + codes, encoding="utf-8")
    return path


def test_a_custom_policy_gives_its_own_penalty(tmp_path: Path) -> None:
    path = _custom(tmp_path, '\n[codes.MAIN_TOO_SMALL]\npenalty = "GAME_LOSS"\nremedy = '
                             '"add_to_minimum"\nclause = { section = "4", heading = "Decks", '
                             'quote = "At least 40 cards." }\n')
    policy = load_policy(str(path))
    assert policy.codes["MAIN_TOO_SMALL"].penalty == "GAME_LOSS"
    assert policy.penalty_name("GAME_LOSS", "ja") == "Game Loss"  # English when no other
    assert policy.applies_to("GAME_LOSS", "in-duel", "en") == "the duel in progress"


def test_a_custom_policy_with_a_wrong_field_names_file_field_and_expectation(
        tmp_path: Path) -> None:
    path = _custom(tmp_path, '\n[codes.MAIN_TOO_SMALL]\npenalty = "GAME_LOST"\nremedy = '
                             '"add_to_minimum"\nclause = { section = "4", heading = "Decks" }\n')
    with pytest.raises(InputError) as info:
        load_policy(str(path))
    problem = info.value.problems[0]
    assert (problem.file, problem.code) == (str(path), "BAD_SETTING")
    assert "GAME_LOST" in problem.message
    assert "GAME_LOSS" in problem.message
    path.write_text(CUSTOM + '\n[codes.MAIN_TOO_SMALL]\nremedy = 7\n', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_policy(str(path))
    assert {(p.column, p.code) for p in info.value.problems} == {
        ("codes.MAIN_TOO_SMALL.remedy", "BAD_SETTING")}
    assert "7" in info.value.problems[0].message
    path.write_text(CUSTOM + '\n[codes.MAIN_TOO_SMALL]\nremedy = "make_legal"\n',
                    encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_policy(str(path))
    assert info.value.codes == ["BAD_SETTING"]
    assert "MAIN_TOO_LARGE" in info.value.problems[0].message  # the code without a rule


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_every_shipped_policy_loads_complete(regulation: str) -> None:
    policy = load_policy(regulation)
    assert policy.regulation == regulation
    assert set(policy.codes) == set(CODES)
    assert policy.by_severity() == list(penalty_types())


def test_a_custom_policy_naming_what_it_lacks_is_refused_at_each_field(
        tmp_path: Path) -> None:
    path = _custom(tmp_path, '\n[codes.MAIN_TOO_SMALL]\npenalty = "GAME_LOSS"\nremedy = '
                             '"add_back_later"\nclause = { section = "4", heading = "Decks" }\n'
                             '\n[codes.NO_SUCH_CODE]\nremedy = "make_legal"\n'
                             '\n[types.WARNING]\nin-duel = "whenever"\n'
                             '\n[types.PENALTY_GAME]\nin-duel = "this_duel"\n')
    with pytest.raises(InputError) as info:
        load_policy(str(path))
    assert {p.file for p in info.value.problems} == {str(path)}
    assert {p.column for p in info.value.problems} == {
        "codes.MAIN_TOO_SMALL.remedy", "codes.NO_SUCH_CODE", "types.WARNING.in-duel",
        "types.PENALTY_GAME"}


def test_a_custom_policy_with_a_field_of_the_wrong_type_names_it(tmp_path: Path) -> None:
    path = _custom(tmp_path, '\n[codes.MAIN_TOO_SMALL]\nremedy = "add_to_minimum"\n'
                             '\n[remedies.start_again]\nen = 5\n')
    with pytest.raises(InputError) as info:
        load_policy(str(path))
    assert [(p.file, p.column) for p in info.value.problems] == [
        (str(path), "remedies.start_again.en")]


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_a_shipped_policy_from_the_cache_is_the_one_validated(
        regulation: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = data_file("policies", f"{regulation}.toml")
    validated = policy_from_toml(read_toml(source), str(source))
    load_policy.cache_clear()
    first = load_policy(regulation)  # validated, kept
    load_policy.cache_clear()
    assert load_policy(regulation) == first == validated  # from the cache
    assert len(list((tmp_path / "cache").rglob(f"policy-{regulation}-*.json"))) == 1
    cited = first.citations()
    assert cited
    assert all(isinstance(c, Citation) for c in cited)
    assert list(map(str, cited)) == list(map(str, validated.citations()))
    load_policy.cache_clear()


@pytest.mark.parametrize("name", ["Texts", "PenaltyType", "Citation", "TypeRule",
                                  "CodePolicy", "Policy"])
def test_each_policy_class_has_the_fields_of_the_model_that_validates_it(name: str) -> None:
    """A validated policy is kept as plain classes: each has its model's fields, in order, so
    no field a policy file gives is dropped or left unvalidated."""
    from validator.judging import _policy_file, penalties

    model = getattr(_policy_file, name)
    assert getattr(penalties, name)._fields == tuple(model.model_fields)
