"""From violations to verdicts: the penalty, its timing and clauses, and the remedies, per
deck, from violation tables written here (and from a check of real decks)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.check import check
from validator.inputs.decks.batch import read_deck_file
from validator.judging.penalties import Policy, load_policy, policy_from_toml
from validator.judging.verdicts import VERDICT_SCHEMA, verdicts
from validator.vocab import STAGES

TH = load_policy("th")
JA = load_policy("ja")

#: the columns a violation table gives ``verdicts``
_SCHEMA: dict[str, Any] = {"deck": pl.UInt32, "code": pl.Utf8, "held": pl.Boolean,
                           "decision": pl.Boolean, "on": pl.Utf8, "section": pl.Utf8,
                           "card": pl.Utf8, "passcode": pl.Int64, "card_id": pl.Int64,
                           "count": pl.Int64, "registered": pl.Int64}


def _violations(*rows: dict[str, Any]) -> pl.DataFrame:
    """Violations, each row a deck and a code (not held, not a decision, on the deck)."""
    base = {"held": False, "decision": False, "on": "deck", "section": "main", "card": None,
            "passcode": None, "card_id": None, "count": None, "registered": None}
    return pl.DataFrame([{**base, **row} for row in rows], schema=_SCHEMA)


def _by_deck(table: pl.DataFrame) -> dict[int, dict[str, Any]]:
    return {row.pop("deck"): row for row in table.iter_rows(named=True)}


def test_no_violations_no_verdicts() -> None:
    table = verdicts(_violations().clear(), TH, "pre-event", "en")
    assert table.is_empty()
    assert dict(table.schema) == VERDICT_SCHEMA


def test_a_forbidden_card_gets_the_prescribed_penalty_its_clause_and_remedy() -> None:
    table = verdicts(_violations({"deck": 0, "code": "FORBIDDEN_CARD"}), TH, "pre-event", "en")
    assert dict(table.schema) == VERDICT_SCHEMA
    verdict = _by_deck(table)[0]
    assert verdict["penalty"] == "DUEL_FORFEITURE"
    assert verdict["label"] == TH.penalty_name("DUEL_FORFEITURE", "en")
    assert verdict["applies_to"] == TH.applies_to("DUEL_FORFEITURE", "pre-event", "en")
    assert verdict["recorded"] is False
    assert verdict["basis"] == [f"th {TH.codes['FORBIDDEN_CARD'].clause}"]
    assert verdict["remedies"] == [TH.remedy("FORBIDDEN_CARD", "en")]
    assert verdict["head_judge"] == []


@pytest.mark.parametrize(("stage", "when"), [("in-duel", "this_duel"),
                                             ("between-duels", "next_duel"),
                                             ("pre-event", "first_duel")])
def test_when_the_penalty_applies_follows_the_stage(stage: Any, when: str) -> None:
    table = verdicts(_violations({"deck": 0, "code": "MAIN_TOO_SMALL"}), TH, stage, "en")
    assert _by_deck(table)[0]["applies_to"] == TH.applies[when].en


def test_the_language_names_the_penalty_and_the_remedies() -> None:
    table = verdicts(_violations({"deck": 0, "code": "MAIN_TOO_SMALL"}), TH, "in-duel", "ja")
    verdict = _by_deck(table)[0]
    assert verdict["label"] == TH.penalties["DUEL_FORFEITURE"].ja
    assert verdict["remedies"] == [TH.remedy("MAIN_TOO_SMALL", "ja")]


def test_a_code_without_a_clause_is_the_head_judges_and_gets_no_penalty() -> None:
    """ja has no clause for a small deck; th none for a large extra deck (beside a penalty)."""
    alone = _by_deck(verdicts(_violations({"deck": 0, "code": "MAIN_TOO_SMALL"}), JA,
                              "pre-event", "en"))[0]
    assert (alone["penalty"], alone["label"], alone["applies_to"]) == (None, None, None)
    assert alone["head_judge"] == ["MAIN_TOO_SMALL"]
    assert alone["basis"] == []
    assert alone["remedies"] == [JA.remedy("MAIN_TOO_SMALL", "en")]
    both = _by_deck(verdicts(_violations({"deck": 1, "code": "EXTRA_TOO_LARGE"},
                                         {"deck": 1, "code": "MAIN_TOO_SMALL"}), TH,
                             "pre-event", "en"))[1]
    assert both["penalty"] == "DUEL_FORFEITURE"
    assert both["head_judge"] == ["EXTRA_TOO_LARGE"]


def _stricter() -> Policy:
    """th, with a Match Forfeiture for a large main deck."""
    text = resources.files("validator.data.policies").joinpath("th.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data["codes"]["MAIN_TOO_LARGE"]["penalty"] = "MATCH_FORFEITURE"
    return policy_from_toml(data, "stricter.toml")


def test_the_most_severe_penalty_of_a_decks_codes_is_the_verdict() -> None:
    policy = _stricter()
    table = verdicts(_violations({"deck": 0, "code": "FORBIDDEN_CARD"},
                                 {"deck": 0, "code": "MAIN_TOO_LARGE"},
                                 {"deck": 1, "code": "FORBIDDEN_CARD"}), policy, "in-duel", "en")
    by_deck = _by_deck(table)
    assert by_deck[0]["penalty"] == "MATCH_FORFEITURE"
    assert by_deck[0]["applies_to"] == policy.applies_to("MATCH_FORFEITURE", "in-duel", "en")
    assert by_deck[1]["penalty"] == "DUEL_FORFEITURE"
    # each distinct remedy once, in code order
    assert by_deck[0]["remedies"] == list(dict.fromkeys(
        [policy.remedy("MAIN_TOO_LARGE", "en"), policy.remedy("FORBIDDEN_CARD", "en")]))


def test_held_verdicts_and_decisions_wait_for_the_head_judge() -> None:
    table = verdicts(_violations(
        {"deck": 0, "code": "UNRESOLVED_NAME", "decision": True, "on": "list"},
        {"deck": 0, "code": "MAIN_TOO_SMALL", "held": True, "on": "list"},
        {"deck": 1, "code": "UNRESOLVED_NAME", "decision": True, "on": "list"},
        {"deck": 1, "code": "FORBIDDEN_CARD", "on": "list"}), TH, "pre-event", "en")
    by_deck = _by_deck(table)
    decide = TH.remedies["decide"].en
    # nothing but what waits: no penalty, the head judge decides
    assert (by_deck[0]["penalty"], by_deck[0]["head_judge"]) == (None, [])
    assert by_deck[0]["remedies"] == [decide]
    # a fact beside what waits: its penalty, and the decision still to make
    assert by_deck[1]["penalty"] == "DUEL_FORFEITURE"
    assert by_deck[1]["remedies"] == [TH.remedy("FORBIDDEN_CARD", "en"), decide]


def test_a_deck_compared_with_a_legal_list_is_fixed_card_by_card() -> None:
    rows = _violations(
        {"deck": 0, "code": "LIST_MISMATCH", "card": "Raigeki", "card_id": 12580477,
         "passcode": 12580477, "count": 1, "registered": 3},
        {"deck": 0, "code": "LIST_MISMATCH", "section": "side", "card": "Pot of Greed",
         "card_id": 55144522, "passcode": 55144522, "count": 2, "registered": None},
        {"deck": 0, "code": "LIST_MISMATCH", "section": "side", "count": 14,
         "registered": 15})
    verdict = _by_deck(verdicts(rows, TH, "in-duel", "en", compared=True))[0]
    assert verdict["penalty"] == "DUEL_FORFEITURE"
    assert verdict["remedies"] == [
        TH.remedies["match_list"].en,
        "Add 2 Raigeki to the main deck, as registered.",
        "Take 2 Pot of Greed out of the side deck: not registered there.",
        "Restore the side deck to its registered 15 cards."]


def test_an_illegal_list_is_the_head_judges_to_fix_with_its_deck() -> None:
    rows = _violations({"deck": 0, "code": "FORBIDDEN_CARD", "on": "list"},
                       {"deck": 0, "code": "FORBIDDEN_CARD"})
    compared = _by_deck(verdicts(rows, TH, "pre-event", "en", compared=True))[0]
    assert compared["remedies"] == [TH.remedies["list_illegal"].en]
    alone = _by_deck(verdicts(rows, TH, "pre-event", "en", compared=False))[0]
    assert alone["remedies"] == [TH.remedy("FORBIDDEN_CARD", "en")]


def test_only_the_decks_named_were_compared() -> None:
    rows = _violations({"deck": 0, "code": "FORBIDDEN_CARD", "on": "list"},
                       {"deck": 1, "code": "FORBIDDEN_CARD", "on": "list"})
    by_deck = _by_deck(verdicts(rows, TH, "pre-event", "en",
                                compared=pl.Series([1], dtype=pl.UInt32)))
    assert by_deck[0]["remedies"] == [TH.remedy("FORBIDDEN_CARD", "en")]
    assert by_deck[1]["remedies"] == [TH.remedies["list_illegal"].en]


def test_a_table_without_on_is_of_decks() -> None:
    rows = _violations({"deck": 0, "code": "FORBIDDEN_CARD"}).drop("on")
    verdict = _by_deck(verdicts(rows, TH, "pre-event", "en", compared=True))[0]
    assert verdict["remedies"] == [TH.remedies["match_list"].en]


def test_real_decks_on_the_real_list(ygojson_db: CardDB, tcg_list: Banlist) -> None:
    """AI_Albaz runs Maxx "C", Forbidden on the 2026.05 TCG list; the ko regulation records
    the Duel Forfeiture it prescribes."""
    deck = read_deck_file(shared_path("decks", "windbot", "AI_Albaz.ydk"), "albaz")
    result = check(deck, cards=ygojson_db, fmt=load_format("advanced-tcg"), banlist=tcg_list)
    assert "FORBIDDEN_CARD" in result.violations["code"].to_list()
    verdict = _by_deck(verdicts(result.violations, load_policy("ko"), "pre-event", "en"))[0]
    assert verdict["penalty"] == "DUEL_FORFEITURE"
    assert verdict["recorded"] is True
    assert any(b.startswith("ko ") for b in verdict["basis"])


# -- a handful of violations is judged in Python, the same as planned -------------------------


def _hand_made() -> list[tuple[pl.DataFrame, bool | pl.Series]]:
    """Violation tables of every kind the tests above make, each with what was compared."""
    cards = {"card": "Raigeki", "card_id": 12580477, "passcode": 12580477}
    return [
        (_violations({"deck": 0, "code": "FORBIDDEN_CARD"}, {"deck": 0, "code": "NO_SUCH"},
                     {"deck": 0, "code": "MAIN_TOO_LARGE"},
                     {"deck": 1, "code": "EXTRA_TOO_LARGE"},
                     {"deck": 1, "code": "FORBIDDEN_CARD"}), False),
        (_violations({"deck": 0, "code": "UNRESOLVED_NAME", "decision": True, "on": "list"},
                     {"deck": 0, "code": "MAIN_TOO_SMALL", "held": True, "on": "list"},
                     {"deck": 1, "code": "UNRESOLVED_NAME", "decision": True, "on": "list"},
                     {"deck": 1, "code": "FORBIDDEN_CARD", "on": "list"}), True),
        (_violations({"deck": 0, "code": "LIST_MISMATCH", **cards, "count": 1,
                      "registered": 3},
                     {"deck": 0, "code": "LIST_MISMATCH", "section": "side", **cards,
                      "count": 2, "registered": None},
                     {"deck": 0, "code": "LIST_MISMATCH", "section": "side", "count": 14,
                      "registered": 15},
                     {"deck": 0, "code": "LIST_MISMATCH", "section": "side", "count": 14,
                      "registered": None},
                     {"deck": 0, "code": "LIST_MISMATCH", "section": None, "card_id": 5,
                      "passcode": 5, "count": None, "registered": 1},
                     {"deck": 1, "code": "LIST_MISMATCH", "held": True, **cards, "count": 3,
                      "registered": 1},
                     {"deck": 1, "code": "FORBIDDEN_CARD", "on": "list"}),
         pl.Series([0], dtype=pl.UInt32)),
        (_violations({"deck": 0, "code": "FORBIDDEN_CARD"}).drop("on"), True),
    ]


def _checked(demo_db: CardDB) -> list[tuple[pl.DataFrame, bool | pl.Series]]:
    """Violation tables of real checks of decks failing each rule, against lists."""
    from tests.deckbuild import build, legal_filler

    filler = legal_filler(demo_db, 30)
    deck = build(demo_db, "d", [("Pot of Greed", 1), ("Called by the Grave", 2),
                                ("Accesscode Talker", 1), (12, 1),
                                ("Ash Blossom & Joyous Spring", 4), *filler])
    listed = build(demo_db, "d", [("Pot of Greed", 1), ("Raigeki", 2), *filler])
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    out: list[tuple[pl.DataFrame, bool | pl.Series]] = []
    for registered in (None, listed):
        result = check(deck, cards=demo_db, fmt=setup.fmt, banlist=setup.banlist,
                       registered=registered)
        out.append((result.violations, registered is not None))
    return out


@pytest.mark.parametrize("regulation", ["th", "ja", "ko"])
def test_a_handful_of_violations_judged_in_python_are_judged_as_planned(
        demo_db: CardDB, regulation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from polars.testing import assert_frame_equal

    from validator.judging import verdicts as module

    policy = load_policy(regulation)
    few, judged = module.FEW, 0
    for rows, compared in [*_hand_made(), *_checked(demo_db)]:
        assert 0 < rows.height <= few
        for lang in ("en", "ja", "ko", "th"):
            for stage in STAGES:
                monkeypatch.setattr(module, "FEW", few)
                python = verdicts(rows, policy, stage, lang, compared=compared)
                monkeypatch.setattr(module, "FEW", -1)
                planned = verdicts(rows, policy, stage, lang, compared=compared)
                assert python.height > 0
                assert_frame_equal(python, planned)
                judged += 1
    assert judged == 6 * 4 * len(STAGES)
