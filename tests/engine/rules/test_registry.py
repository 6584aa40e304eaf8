"""Meta-tests: every rule code is documented, tested, in the README and has penalty texts, and
each rule's PASS and FAIL examples behave as its docstring says when checked by the engine."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import Run
from tests.deckbuild import Cards, build, codes, legal_filler
from validator.cards.banlist import parse_lflist
from validator.cards.db import CardDB
from validator.cards.load import load
from validator.engine.check import CheckResult, check
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
from validator.inputs.entries import entries_frame
from validator.judging.penalties import load_policy
from validator.vocab import LANGS, REGULATIONS, STAGES

ROOT = Path(__file__).resolve().parent.parent.parent.parent
DARK_MAGICIAN, ITS_ALTERNATE_ART = 46986414, 46986421
BLUE_EYES, DARK_MAGICIAN_RUSH, SALVAGE = 160001000, 160002000, 160015056  # Rush Legend cards
POINTS = parse_lflist("!G\n$genesys\n55144522 30 --Pot of Greed\n14558127 10 --Ash\n"
                      "97268402 20 --Effect Veiler\n", "g.conf")[0]

#: a rule's example: the demo cards and the engine in, the check's result out
Example = Callable[[CardDB, Run], CheckResult]


def _name(module: RuleModule) -> str:
    return module.__name__.rsplit(".", 1)[1]


def _filler(db: CardDB, n: int, avoid: Cards) -> Cards:
    """n TCG-legal main deck cards, none of them a card of ``avoid``."""
    passcodes = [c for c, _ in avoid if isinstance(c, int)]
    names = {c for c, _ in avoid if isinstance(c, str)} | set(
        db.printings.filter(pl.col("passcode").is_in(passcodes))["name_en"])
    out: Cards = []
    for name, qty in legal_filler(db, n + 3 * len(names)):
        if name not in names and sum(q for _, q in out) < n:
            out.append((name, min(qty, n - sum(q for _, q in out))))
    return out


def _deck(db: CardDB, main: Cards, extra: Cards | None = None,
          side: Cards | None = None) -> pl.DataFrame:
    """A deck of these cards and TCG-legal main deck cards up to 40."""
    size = sum(q for _, q in main)
    filler = _filler(db, 40 - size, [*main, *(extra or []), *(side or [])])
    return build(db, "d", [*main, *filler], extra, side)


def _rush(db: CardDB, run: Run, legends: Cards) -> CheckResult:
    """A Rush Duel deck of 40: these Legend cards and Rush cards that are not Legends."""
    pool = (db.by_card.filter(pl.col("rush") & ~pl.col("legend") & ~pl.col("extra")
                              & pl.col("kind").is_in(["monster", "spell", "trap"]))
            .sort("passcode")["passcode"].to_list())
    need = 40 - sum(q for _, q in legends)
    filler: Cards = [(code, 3) for code in pool[:need // 3]] + [(pool[need // 3], need % 3)]
    return run(build(db, "d", [*legends, *filler]), fmt="rush")


def _with_skills(db: CardDB) -> CardDB:
    skills = pl.DataFrame({"passcode": [900000001, 900000002],
                           "card_id": [900000001, 900000002],
                           "name_id": [900000001, 900000002],
                           "name_en": ["Skill A", "Skill B"]}).with_columns(
        pl.lit("skill").cast(db.printings.schema["kind"]).alias("kind"))
    return CardDB(pl.concat([db.printings, skills], how="diagonal").with_columns(
        pl.col("extra", "rush", "legend").fill_null(False),
        pl.when(pl.col("kind") == "skill").then(pl.lit(["speed"])).otherwise(pl.col("pools"))
        .alias("pools")), sources=db.sources)


def _skills(db: CardDB, run: Run, skills: Cards) -> CheckResult:
    cards = _with_skills(db)
    return run(build(cards, "d", legal_filler(cards, 20), side=skills), fmt="speed", cards=cards)


def _typed(db: CardDB, run: Run, name: str) -> CheckResult:
    rows = [{"deck_id": "d", "section": "main", "name": n, "qty": q}
            for n, q in [(name, 3), *_filler(db, 37, [("Ash Blossom & Joyous Spring", 3)])]]
    return run(entries_frame(rows))


def _with_unreadable(db: CardDB, unreadable: bool) -> CheckResult:
    rows = pl.DataFrame({"deck_id": ["d"], "section": ["main"], "file": ["lists.xlsx"],
                         "line": [17], "cell": ["A17"],
                         "message": ["quantity 'three' is not a number 1-99"],
                         "on_list": [False]})
    setup = load("advanced-tcg", db)
    return check(_deck(db, []), cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                 unreadable=rows if unreadable else None)


def _moved(db: CardDB, run: Run, moved: bool) -> CheckResult:
    """A deck and its list; with ``moved`` one Effect Veiler went from main to side."""
    listed = _deck(db, [("Effect Veiler", 3)])
    deck = _deck(db, [("Effect Veiler", 2 if moved else 3)],
                 side=[("Effect Veiler", 1)] if moved else None)
    return run(deck, registered=listed)


#: each code's FAIL example, as its rule's docstring gives it
FAIL: dict[str, Example] = {
    "MAIN_TOO_SMALL": lambda db, run: run(build(db, "d", legal_filler(db, 39))),
    "MAIN_TOO_LARGE": lambda db, run: run(build(db, "d", legal_filler(db, 61))),
    "EXTRA_TOO_LARGE": lambda db, run: run(_deck(db, [], extra=legal_filler(db, 16, extra=True))),
    "SIDE_TOO_LARGE": lambda db, run: run(_deck(db, [], side=legal_filler(db, 16, skip=14))),
    "TOO_MANY_COPIES": lambda db, run: run(_deck(db, [(DARK_MAGICIAN, 2),
                                                      (ITS_ALTERNATE_ART, 2)])),
    "FORBIDDEN_CARD": lambda db, run: run(_deck(db, [], side=[("Pot of Greed", 1)])),
    "LIMIT_EXCEEDED": lambda db, run: run(
        _deck(db, [(DARK_MAGICIAN, 1)], side=[(ITS_ALTERNATE_ART, 1)]),
        banlist=parse_lflist(f"!L\n{DARK_MAGICIAN} 1 --Dark Magician\n", "l.conf")[0]),
    "LEGEND_LIMIT_EXCEEDED": lambda db, run: _rush(db, run, [(BLUE_EYES, 1),
                                                             (DARK_MAGICIAN_RUSH, 1)]),
    "NOT_IN_CARD_POOL": lambda db, run: run(_deck(db, [], side=[(160001001, 1)])),
    "FORBIDDEN_CARD_TYPE": lambda db, run: run(_deck(db, [], extra=[("Linkuriboh", 1)]),
                                               fmt="genesys"),
    "WRONG_SECTION": lambda db, run: run(_deck(db, [("Accesscode Talker", 1)])),
    "UNKNOWN_CARD": lambda db, run: run(_deck(db, [(12, 1)])),
    "POINTS_EXCEEDED": lambda db, run: run(
        _deck(db, [("Pot of Greed", 3), ("Effect Veiler", 1)]), fmt="genesys", banlist=POINTS),
    "SKILL_COUNT": lambda db, run: _skills(db, run, [(900000001, 1), (900000002, 1)]),
    "LIST_MISMATCH": lambda db, run: _moved(db, run, moved=True),
    "UNRESOLVED_NAME": lambda db, run: _typed(db, run, "Ash Blosom"),
    "UNREADABLE_ROW": lambda db, run: _with_unreadable(db, unreadable=True),
}

#: each rule's PASS example, as its docstring gives it
PASS: dict[str, Example] = {
    "section_size": lambda db, run: run(build(db, "d", legal_filler(db, 40),
                                              extra=legal_filler(db, 15, extra=True),
                                              side=legal_filler(db, 15, skip=14))),
    "copies": lambda db, run: run(_deck(db, [("Ash Blossom & Joyous Spring", 3)])),
    "forbidden": lambda db, run: run(_deck(db, [])),
    "limit": lambda db, run: run(_deck(db, [("Called by the Grave", 1)])),
    "legend": lambda db, run: _rush(db, run, [(BLUE_EYES, 1), (SALVAGE, 1)]),
    "card_pool": lambda db, run: run(_deck(db, [])),
    "card_type": lambda db, run: run(_deck(db, [], extra=[("Blue-Eyes Ultimate Dragon", 1)]),
                                     fmt="goat"),
    "wrong_section": lambda db, run: run(_deck(db, [], extra=[("Accesscode Talker", 1)])),
    "unknown": lambda db, run: run(_deck(db, [])),
    "points": lambda db, run: run(
        _deck(db, [("Pot of Greed", 3), ("Ash Blossom & Joyous Spring", 1)]), fmt="genesys",
        banlist=POINTS),
    "skill": lambda db, run: _skills(db, run, [(900000001, 1)]),
    "list_mismatch": lambda db, run: _moved(db, run, moved=False),
    "unresolved": lambda db, run: _typed(db, run, "Ash Blossom & Joyous Spring"),
    "unreadable": lambda db, run: _with_unreadable(db, unreadable=False),
}


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


@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_rule_module_declares_its_flags(module: RuleModule) -> None:
    for flag in ("DECISION", "COUNTS", "COMPARES"):
        assert isinstance(getattr(module, flag), bool), flag


@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_rule_docstring_defines_its_codes_and_gives_its_examples_and_regulation(
        module: RuleModule) -> None:
    doc = module.__doc__ or ""
    for code in module.CODES:
        assert re.search(rf"^{code}: \S", doc, re.MULTILINE), f"no '{code}: ...' line"
    assert re.search(r"^PASS: \S.*?\bFAIL: \S", doc, re.MULTILINE | re.DOTALL), \
        "no 'PASS: ...  FAIL: ...' examples"
    assert re.search(r"Regulation: \S|\b(th|ja|ko) §\d", doc), "no regulation named"


def _functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)]


def _strings(tree: ast.AST) -> set[str]:
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_rule_has_its_own_test_file_with_pass_and_fail_tests_of_its_codes(
        module: RuleModule) -> None:
    path = ROOT / "tests" / "engine" / "rules" / f"test_{_name(module)}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    tests = [f.name for f in _functions(tree) if f.name.startswith("test_")]
    assert any(t.startswith("test_pass") for t in tests), "no test_pass... test"
    assert any(t.startswith("test_fail") for t in tests), "no test_fail... test"
    assert set(module.CODES) <= _strings(tree), "a code of the rule is not asserted"


def test_every_rule_has_a_pass_example_and_every_code_a_fail_example() -> None:
    assert set(FAIL) == set(CODES)
    assert set(PASS) == {_name(m) for m in MODULES}


@pytest.mark.parametrize("code", CODES)
def test_fail_example_gives_its_code(code: str, demo_db: CardDB, run: Run) -> None:
    found = {c for c in codes(FAIL[code](demo_db, run)) if c in rule_for(code).CODES}
    assert found == {code}


@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_pass_example_gives_none_of_its_codes(module: RuleModule, demo_db: CardDB,
                                              run: Run) -> None:
    result = PASS[_name(module)](demo_db, run)
    assert result.decks.height == 1  # the example was checked
    assert set(codes(result)).isdisjoint(module.CODES)


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
