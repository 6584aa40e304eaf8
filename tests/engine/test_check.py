"""The engine as a whole: many problems in one deck, many decks at once, real decks, the
entry frames it takes, chunks, and the card table given to it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pytest

from tests.conftest import Run, shared_path
from tests.deckbuild import build, codes, legal_filler
from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine import check as engine_check
from validator.engine.check import CheckResult, check, evidence_warnings, held_cards
from validator.engine.rules import CODES
from validator.engine.tables import card_attributes
from validator.errors import ImplementationError, InputError
from validator.inputs.decks.batch import read_deck_paths
from validator.vocab import Lang

if TYPE_CHECKING:
    from bench.synth import SyntheticEvent
    from validator.cards.load import Setup


def test_five_problems_are_all_reported(run: Run, demo_db: CardDB) -> None:
    deck = build(
        demo_db, "five",
        [("Pot of Greed", 1), ("Called by the Grave", 2), ("Accesscode Talker", 1),
         (12, 1), *legal_filler(demo_db, 30)],
    )
    result = run(deck)
    assert sorted(codes(result)) == ["FORBIDDEN_CARD", "LIMIT_EXCEEDED", "MAIN_TOO_SMALL",
                                     "UNKNOWN_CARD", "WRONG_SECTION"]
    assert result.decks["legal"].to_list() == [False]


def test_violations_sort_by_deck_then_code_order(run: Run, demo_db: CardDB) -> None:
    a = build(demo_db, "a", [("Pot of Greed", 1), *legal_filler(demo_db, 30)])
    b = build(demo_db, "b", legal_filler(demo_db, 40))
    result = run(a, b)
    assert result.violations["deck_id"].to_list() == ["a", "a"]
    assert codes(result) == ["MAIN_TOO_SMALL", "FORBIDDEN_CARD"]
    assert result.decks.select("deck_id", "legal").rows() == [("a", False), ("b", True)]


@pytest.fixture(scope="module")
def windbot(ygojson_db: CardDB) -> dict[str, list[str]]:
    files = read_deck_paths([shared_path("decks", "windbot")])
    assert files.problems == []
    entries = files.entries
    result = check(entries, cards=ygojson_db, fmt=load_format("advanced-tcg"),
                   banlist=read_banlist(Path(shared_path("lflist", "0TCG.lflist.conf"))))
    assert result.decks.height == 69
    verdicts: dict[str, list[str]] = {row[0]: [] for row in result.decks.select("deck_id").rows()}
    for deck_id, code, card in result.violations.select("deck_id", "code", "card").rows():
        verdicts[deck_id].append(f"{code}:{card}")
    return verdicts


# Each verdict is justified by the deck's cards and the 2026.05 TCG list (0TCG.lflist.conf):
WINDBOT_FACTS = [
    # Maxx "C" (23434538) is listed 0 on 0TCG; AI_Albaz runs 3 of it
    ("AI_Albaz", "FORBIDDEN_CARD:Maxx \"C\""),
    # Called by the Grave (24224830) is listed 1; AI_Albaz runs 2
    ("AI_Albaz", "LIMIT_EXCEEDED:Called by the Grave"),
    # Baronne de Fleur (84815190) is listed 0; AI_Apophis has 2 in the extra deck
    ("AI_Apophis", "FORBIDDEN_CARD:Baronne de Fleur"),
    # Crystron Halqifibrax (50588353) is listed 0; AI_Altergeist has it in the extra deck
    ("AI_Altergeist", "FORBIDDEN_CARD:Crystron Halqifibrax"),
    # Linkuriboh (41999284) is listed 1; AI_Altergeist runs 3
    ("AI_Altergeist", "LIMIT_EXCEEDED:Linkuriboh"),
    # Soul Charge (54447022) is listed 0; AI_BlueEyes runs 1
    ("AI_BlueEyes", "FORBIDDEN_CARD:Soul Charge"),
    # Linkuriboh again: AI_ChainBurn runs 3 against a limit of 1
    ("AI_ChainBurn", "LIMIT_EXCEEDED:Linkuriboh"),
    # Confiscation (17375316) is listed 0; AI_Chaos408 (a CRLF file) runs 1
    ("AI_Chaos408", "FORBIDDEN_CARD:Confiscation"),
    # Vanity's Emptiness (5851097) is listed 0; AI_Evilswarm runs 1
    ("AI_Evilswarm", "FORBIDDEN_CARD:Vanity's Emptiness"),
    # Ronintoadin (1357146; YGOJSON writes its password "01357146") is listed 0; AI_Frog runs 2
    ("AI_Frog", "FORBIDDEN_CARD:Ronintoadin"),
    # Borreload Savage Dragon (27548199) is listed 0; AI_Level8 has it in the extra deck
    ("AI_Level8", "FORBIDDEN_CARD:Borreload Savage Dragon"),
]


@pytest.mark.parametrize(("deck", "fact"), WINDBOT_FACTS)
def test_windbot_violations(windbot: dict[str, list[str]], deck: str, fact: str) -> None:
    assert fact in windbot[deck]


# Decks whose every card is in the snapshot, released in the TCG and within the 0TCG limits
LEGAL_WINDBOT = ["AI_Blackwing", "AI_Burn"]


@pytest.mark.parametrize("deck", LEGAL_WINDBOT)
def test_windbot_legal_decks(windbot: dict[str, list[str]], deck: str) -> None:
    assert windbot[deck] == []
    # independently of the engine: none of the deck's passcodes is on the 0TCG list at all
    listed = {line.split()[0] for line in shared_path("lflist", "0TCG.lflist.conf")
              .read_text().splitlines() if line[:1].isdigit()}
    codes = {line.strip() for line in shared_path("decks", "windbot", f"{deck}.ydk")
             .read_text().splitlines() if line.strip().isdigit()}
    assert codes
    assert not codes & listed


def test_windbot_unknown_passcodes_are_caught(windbot: dict[str, list[str]]) -> None:
    # 55273561 is in AI_Albaz's side deck and is not a password of any YGOJSON card
    assert "UNKNOWN_CARD:None" in windbot["AI_Albaz"]


def test_every_deck_gets_a_verdict(windbot: dict[str, list[str]]) -> None:
    assert len(windbot) == 69
    assert sum(1 for v in windbot.values() if v) >= 10
    assert pl.Series([len(v) for v in windbot.values()]).min() == 0


def test_rows_of_one_deck_need_not_be_contiguous(run: Run, demo_db: CardDB) -> None:
    a = build(demo_db, "a", legal_filler(demo_db, 40))
    b = build(demo_db, "b", [("Pot of Greed", 1), *legal_filler(demo_db, 39)])
    interleaved = pl.concat([a[:20], b[:10], a[20:], b[10:]])
    result = run(interleaved)
    assert result.decks.select("deck_id", "main", "legal").rows() == [
        ("a", 40, True), ("b", 40, False)]
    assert codes(result) == ["FORBIDDEN_CARD"]


@pytest.mark.parametrize("with_lists", [False, True])
def test_chunked_check_equals_whole_check(demo_db: CardDB, with_lists: bool) -> None:
    from polars.testing import assert_frame_equal

    from bench.synth import synthesize
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    fmt, banlist = setup.fmt, setup.banlist
    event = synthesize(demo_db, banlist, fmt, 400, seed=5, rate=0.05)
    registered = event.registered if with_lists else None
    whole = check(event.decks, cards=demo_db, fmt=fmt, banlist=banlist, registered=registered)
    chunked = check(event.decks, cards=demo_db, fmt=fmt, banlist=banlist,
                    registered=registered, chunk_rows=1500, chunk_above=0)
    assert whole.violations.height > 20
    assert whole.resolved.height > 0
    assert_frame_equal(chunked.decks, whole.decks)
    assert_frame_equal(chunked.violations, whole.violations)
    assert_frame_equal(chunked.resolved, whole.resolved)


@pytest.mark.parametrize("with_lists", [False, True])
def test_check_in_chunks_on_threads_equals_whole_check(
        demo_db: CardDB, with_lists: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from polars.testing import assert_frame_equal

    from bench.synth import synthesize
    from validator.cards.load import load

    engine = engine_check
    setup = load("advanced-tcg", demo_db)
    fmt, banlist = setup.fmt, setup.banlist
    event = synthesize(demo_db, banlist, fmt, 400, seed=7, rate=0.05)
    assert event.decks["name"].null_count() == event.decks.height  # passcodes only
    registered = event.registered if with_lists else None
    whole = check(event.decks, cards=demo_db, fmt=fmt, banlist=banlist, registered=registered)
    monkeypatch.setattr(engine, "_WORKERS", 3)
    threads: set[str] = set()
    checked = engine._check

    def on_thread(*args: Any, **kwargs: Any) -> CheckResult:
        threads.add(threading.current_thread().name)
        return checked(*args, **kwargs)

    monkeypatch.setattr(engine, "_check", on_thread)
    parallel = check(event.decks, cards=demo_db, fmt=fmt, banlist=banlist,
                     registered=registered, parallel_above=0)
    assert len(threads) == 3
    assert all(t.startswith("deckcheck-chunk") for t in threads)
    assert whole.violations.height > 20
    assert whole.resolved.height > 0
    assert_frame_equal(parallel.decks, whole.decks)
    assert_frame_equal(parallel.violations, whole.violations)
    assert_frame_equal(parallel.resolved, whole.resolved)
    # a check of named cards reads names once per check: on one thread, as one chunk
    threads.clear()
    named = event.decks.with_columns(pl.lit("Pot of Greed").alias("name"))
    check(named, cards=demo_db, fmt=fmt, banlist=banlist, parallel_above=0)
    assert threads == {threading.current_thread().name}


# -- the entry frames it takes ---------------------------------------------------------------


# plain strings: a section Enum and a 32-bit quantity are expected
@pytest.mark.parametrize("column", ["section", "qty"])
@pytest.mark.parametrize("which", ["entries", "registered lists"])
def test_a_column_of_strings_is_an_input_error(demo_db: CardDB, column: str,
                                               which: str) -> None:
    from validator.cards.load import load
    from validator.inputs.entries import ENTRY_SCHEMA

    setup = load("advanced-tcg", demo_db)
    deck = build(demo_db, "d", legal_filler(demo_db, 40))
    bad = deck.with_columns(pl.col(column).cast(pl.Utf8))
    entries, registered = (bad, deck) if which == "entries" else (deck, bad)
    with pytest.raises(InputError) as raised:
        check(entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
              registered=registered)
    problem, = raised.value.problems
    assert (problem.file, problem.column) == (which, column)
    assert str(ENTRY_SCHEMA[column]) in problem.message


def test_a_missing_column_is_an_input_error(demo_db: CardDB) -> None:
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    deck = build(demo_db, "d", legal_filler(demo_db, 40)).drop("qty")
    with pytest.raises(InputError) as raised:
        check(deck, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist)
    assert [(p.file, p.column) for p in raised.value.problems] == [("entries", "qty")]


def test_only_the_required_columns_are_needed(demo_db: CardDB, run: Run) -> None:
    deck = build(demo_db, "d", [("Pot of Greed", 1), *legal_filler(demo_db, 39)])
    bare = deck.select(pl.col("deck_id").cast(pl.Categorical), "section", "passcode", "qty")
    assert codes(run(bare)) == codes(run(deck)) == ["FORBIDDEN_CARD"]


# -- the card table given to it ---------------------------------------------------------------


def test_a_card_table_given_gives_the_same_result(demo_db: CardDB) -> None:
    from polars.testing import assert_frame_equal

    from validator.cards.load import load
    from validator.engine.tables import card_attributes

    setup = load("traditional", demo_db)
    deck = build(demo_db, "d", [("Pot of Greed", 2), *legal_filler(demo_db, 38)])
    kwargs = {"cards": setup.cards, "fmt": setup.fmt, "banlist": setup.banlist}
    table = card_attributes(setup.cards, setup.banlist, setup.fmt)
    given = check(deck, attributes=table, **kwargs)  # type: ignore[arg-type]
    made = check(deck, **kwargs)  # type: ignore[arg-type]
    assert codes(given) == ["LIMIT_EXCEEDED"]  # Forbidden counts as Limited here
    assert_frame_equal(given.violations, made.violations)
    assert_frame_equal(given.decks, made.decks)


@pytest.mark.parametrize("decks", [400, 20])  # many decks, and a few of many rows
def test_a_card_table_made_on_another_thread_gives_the_same_result(
        demo_db: CardDB, decks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from polars.testing import assert_frame_equal

    from bench.synth import synthesize
    from validator.cards.load import load
    from validator.engine.tables import card_attributes

    setup = load("advanced-tcg", demo_db)
    fmt, banlist = setup.fmt, setup.banlist
    event = synthesize(demo_db, banlist, fmt, decks, seed=3, rate=0.05)
    entries = pl.concat([event.decks] * (1 + engine_check.FEW_ROWS // event.decks.height))
    assert entries.height > engine_check.FEW_ROWS  # the entries of a check of many rows
    table = card_attributes(demo_db, banlist, fmt)
    given = check(entries, cards=demo_db, fmt=fmt, banlist=banlist, attributes=table)
    threads: list[str] = []
    made = engine_check._table_prepared

    def on_thread(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return made(*args)

    monkeypatch.setattr(engine_check, "_table_prepared", on_thread)
    result = check(entries, cards=demo_db, fmt=fmt, banlist=banlist)
    assert threads == ["deckcheck-cards_0"]
    assert given.violations.height > 0
    assert_frame_equal(result.violations, given.violations)
    assert_frame_equal(result.decks, given.decks)
    assert_frame_equal(result.resolved, given.resolved)


def test_a_card_table_of_other_cards_list_or_format_is_refused(demo_db: CardDB) -> None:
    from validator.cards.load import load
    from validator.engine.tables import card_attributes

    tcg, ocg = load("advanced-tcg", demo_db), load("advanced-ocg", demo_db)
    deck = build(demo_db, "d", legal_filler(demo_db, 40))
    table = card_attributes(ocg.cards, ocg.banlist, ocg.fmt)
    with pytest.raises(ImplementationError):
        check(deck, cards=tcg.cards, fmt=tcg.fmt, banlist=tcg.banlist, attributes=table)


@pytest.mark.parametrize(("fmt", "sources", "advice"), [
    ("advanced-tcg", "cards.json", "import the OCG/TCG cdb"),
    ("advanced-tcg", "cards.json, data/cards.delta.cdb", "import a newer OCG/TCG cdb"),
    ("advanced-tcg", "cards.json, data/cards-rush.cdb", "import the OCG/TCG cdb"),
    ("rush", "data/cards-rush.cdb", "import a newer Rush cdb"),
])
def test_cards_without_release_information_say_what_to_import(fmt: str, sources: str,
                                                              advice: str) -> None:
    [warning] = evidence_warnings([], load_format(fmt), ["Card A", "Card B"], sources)
    assert warning.code == "NO_RELEASE_INFO"
    assert advice in warning.message
    assert evidence_warnings([], load_format(fmt), [], sources) == []


def test_a_long_list_of_cards_without_release_information_ends_in_no_words() -> None:
    from validator.text.i18n import say

    names = [f"Card {n}" for n in range(40)]
    [warning] = evidence_warnings([], load_format("advanced-tcg"), names, "cards.json")
    assert warning.msgid is not None
    for lang in ("en", "ja", "ko", "th"):
        text = say(lang, warning.msgid, **dict(warning.values))
        assert "Card 29, …" in text  # the count says how many
        assert "Card 30" not in text
        assert " more" not in text
        assert "40" in text


# -- a check of few decks looks only at the cards they hold -----------------------------------


def _both_ways(monkeypatch: pytest.MonkeyPatch, limit: str = "FEW_DECKS",
               **arguments: object) -> tuple[CheckResult, CheckResult]:
    """The check of a few decks, and the same check with the engine's ``limit`` of a few
    decks (``FEW_DECKS``: over the held cards only; ``FEW_ROWS``: planned whole) off."""
    few = check(**arguments)  # type: ignore[arg-type]
    monkeypatch.setattr(engine_check, limit, -1)
    every = check(**arguments)  # type: ignore[arg-type]
    return few, every


def _assert_same(few: CheckResult, every: CheckResult) -> None:
    from polars.testing import assert_frame_equal

    assert_frame_equal(few.decks, every.decks)
    assert_frame_equal(few.violations, every.violations)
    assert_frame_equal(few.resolved, every.resolved)
    assert [(w.code, w.values) for w in few.warnings] == [
        (w.code, w.values) for w in every.warnings]
    assert few.release_unknown == every.release_unknown


@pytest.mark.parametrize("with_lists", [False, True])
def test_few_decks_get_the_verdicts_of_a_check_over_every_card(
        demo_db: CardDB, with_lists: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.synth import synthesize
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, 30, seed=7, rate=0.2)
    check_module_few = engine_check.FEW_DECKS
    few, every = _both_ways(monkeypatch, entries=event.decks, cards=demo_db, fmt=setup.fmt,
                            banlist=setup.banlist,
                            registered=event.registered if with_lists else None)
    assert few.decks.height <= check_module_few
    assert few.violations.height > 5
    _assert_same(few, every)


def test_few_real_decks_get_the_verdicts_of_a_check_over_every_card(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    paths: list[object] = [*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:12]]
    files = read_deck_paths(paths)
    few, every = _both_ways(monkeypatch, entries=files.entries, cards=ygojson_db,
                            fmt=load_format("advanced-tcg"),
                            banlist=read_banlist(shared_path("lflist", "0TCG.lflist.conf")))
    assert few.violations.height > 3
    _assert_same(few, every)


def test_a_name_treated_as_another_is_counted_with_it_in_a_small_check(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    # neither card is "Harpie Lady" itself: the name's own row must still be looked up
    deck = build(ygojson_db, "harpies",
                 [("Harpie Lady 1", 3), ("Harpie Lady 2", 2), *legal_filler(ygojson_db, 12)])
    few, every = _both_ways(monkeypatch, entries=deck, cards=ygojson_db,
                            fmt=load_format("advanced-tcg"),
                            banlist=read_banlist(shared_path("lflist", "0TCG.lflist.conf")))
    over = few.violations.filter(pl.col("code") == "TOO_MANY_COPIES")
    assert over["card"].to_list() == ["Harpie Lady"]
    assert over["count"].to_list() == [5]
    _assert_same(few, every)


def test_a_card_table_s_first_check_and_later_ones_give_the_same_verdicts(
        ygojson_db: CardDB) -> None:
    """The first check of a card table (a command's only one) evaluates the card flags over
    the cards the decks hold; the second prepares the whole table, kept for the next."""
    from validator.engine.tables import card_attributes

    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    fmt = load_format("advanced-tcg")
    table = card_attributes(ygojson_db, banlist, fmt)
    files = read_deck_paths([*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:3]])
    arguments = {"entries": files.entries, "cards": ygojson_db, "fmt": fmt,
                 "banlist": banlist, "deck_ids": files.ids, "attributes": table}
    first = check(**arguments)  # type: ignore[arg-type]
    assert table not in engine_check._PREPARED
    second = check(**arguments)  # type: ignore[arg-type]
    assert table in engine_check._PREPARED
    assert first.violations.height > 0
    _assert_same(first, second)


def test_held_cards_keeps_the_cards_held_and_the_names_they_are_treated_as() -> None:
    attrs = pl.DataFrame({"card_id": [1, 2, 3, 4, 5], "name_id": [1, 1, 3, 4, 4]})
    rows = pl.DataFrame({"card_id": [2, None, 2]}, schema={"card_id": pl.Int64})
    listed = pl.DataFrame({"card_id": [5]})
    assert held_cards(attrs, rows, None)["card_id"].to_list() == [1, 2]
    assert held_cards(attrs, rows, listed)["card_id"].to_list() == [1, 2, 4, 5]


def test_prepared_held_rows_are_those_of_held_cards(ygojson_db: CardDB) -> None:
    from validator.engine.tables import card_attributes

    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    table = card_attributes(ygojson_db, banlist, load_format("advanced-tcg"))
    prepared = engine_check._prepared(table)
    assert engine_check._prepared(table) is prepared  # made once per card table
    treated = table.frame.filter(pl.col("name_id") != pl.col("card_id"))["card_id"][:5]
    rows = pl.DataFrame({"card_id": [*table.frame["card_id"][100:110], None, *treated]},
                        schema={"card_id": pl.Int64})
    listed = pl.DataFrame({"card_id": table.frame["card_id"][200:203]})
    for frames in ((rows, None), (rows, listed), (rows.clear(), None)):
        expected = held_cards(prepared.flagged, *frames)
        assert prepared.held(*frames).equals(expected)
    assert held_cards(prepared.flagged, rows, listed).height > 13  # names were added


# -- the rules over known cards read only the rows that could fail them ------------------------


def _as_run_and_with(monkeypatch: pytest.MonkeyPatch, checking: Callable[[], CheckResult],
                     setting: str, value: object) -> tuple[CheckResult, CheckResult]:
    """A check as the engine runs it, and the same with the engine's ``setting`` at ``value``."""
    as_run, kept = checking(), getattr(engine_check, setting)
    monkeypatch.setattr(engine_check, setting, value)
    changed = checking()
    monkeypatch.setattr(engine_check, setting, kept)  # only this setting put back
    return as_run, changed


def _picked_and_every(monkeypatch: pytest.MonkeyPatch, checking: Callable[[], CheckResult],
                      ) -> tuple[CheckResult, CheckResult]:
    """A check as the engine runs it, and the same with every rule reading every row."""
    return _as_run_and_with(monkeypatch, checking, "_CANDIDATES", False)


@pytest.mark.parametrize("code", CODES)
def test_each_rule_finds_its_fault_in_the_rows_picked_out(
        code: str, demo_db: CardDB, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.engine.rules.test_registry import FAIL

    picked, every = _picked_and_every(monkeypatch, lambda: FAIL[code](demo_db, run))
    assert code in codes(picked)
    _assert_same(picked, every)


@pytest.mark.parametrize("siding", [False, True])
def test_many_decks_get_the_verdicts_of_rules_over_every_row(
        demo_db: CardDB, siding: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.synth import synthesize
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, 300, seed=11, rate=0.2)
    picked, every = _picked_and_every(monkeypatch, lambda: check(
        event.decks, cards=demo_db, fmt=setup.fmt, banlist=setup.banlist,
        registered=event.registered, siding=siding))
    assert picked.decks.height > engine_check.FEW_DECKS
    assert set(codes(picked)) >= {"FORBIDDEN_CARD", "LIMIT_EXCEEDED", "TOO_MANY_COPIES",
                                  "WRONG_SECTION", "MAIN_TOO_SMALL"}
    _assert_same(picked, every)


def _real_decks_check(cards: CardDB) -> Callable[[], CheckResult]:
    """A check of every real deck against the TCG list, run each time it is called."""
    paths: list[object] = [*sorted(shared_path("decks").rglob("*.ydk"))]
    files = read_deck_paths(paths)
    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    return lambda: check(files.entries, cards=cards, fmt=load_format("advanced-tcg"),
                         banlist=banlist, deck_ids=files.ids)


def test_real_decks_get_the_verdicts_of_rules_over_every_row(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    picked, every = _picked_and_every(monkeypatch, _real_decks_check(ygojson_db))
    assert picked.violations.height > 20
    _assert_same(picked, every)


def test_messages_worded_once_per_distinct_row_are_those_worded_row_by_row(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.engine.rules import _context

    checking = _real_decks_check(ygojson_db)
    monkeypatch.setattr(_context, "DISTINCT_ABOVE", 0)  # every rule's rows worded once
    once = checking()
    monkeypatch.setattr(_context, "DISTINCT_ABOVE", 10**9)
    each = checking()
    forbidden = once.violations.filter(pl.col("code") == "FORBIDDEN_CARD")
    assert forbidden["message_ko"].n_unique() < forbidden.height  # shared messages
    _assert_same(once, each)


@pytest.mark.parametrize(("few", "distinct_above"), [(False, None), (False, 0), (True, None)])
@pytest.mark.parametrize("lang", ["en", "ja", "ko", "th"])
def test_messages_worded_in_one_language_are_those_of_a_check_in_every_language(
        ygojson_db: CardDB, lang: Lang, few: bool, distinct_above: int | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from polars.testing import assert_frame_equal

    from validator.engine.rules import _context

    if distinct_above is not None:  # every rule's messages worded once per distinct row
        monkeypatch.setattr(_context, "DISTINCT_ABOVE", distinct_above)
    paths: list[object] = [*sorted(shared_path("decks").rglob("*.ydk"))]
    files = read_deck_paths(paths[:1] if few else paths)
    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    checking = partial(check, files.entries, cards=ygojson_db, fmt=load_format("advanced-tcg"),
                       banlist=banlist, deck_ids=files.ids)
    every, asked = checking(), checking(langs=(lang,))
    kept = ["message"] + ([f"message_{lang}"] if lang != "en" else [])
    dropped = [c for c in every.violations.columns if c.startswith("message_") and c not in kept]
    assert every.violations.height > 0
    assert len(dropped) == (3 if lang == "en" else 2)
    assert all(asked.violations[c].null_count() == asked.violations.height for c in dropped)
    assert every.violations.select(kept).null_count().sum_horizontal().item() == 0
    assert_frame_equal(asked.violations.drop(dropped), every.violations.drop(dropped))
    assert_frame_equal(asked.decks, every.decks)
    assert asked.langs == (lang,)
    assert asked.worded_in("en")
    assert asked.worded_in(lang)
    assert not any(asked.worded_in(other) for other in ("ja", "ko", "th") if other != lang)


@pytest.mark.parametrize("langs", ["ja", ("xx",), ["ja"]])
def test_languages_asked_that_are_not_a_tuple_of_languages_are_refused(
        demo_db: CardDB, langs: Any) -> None:
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    deck = build(demo_db, "a", legal_filler(demo_db, 40))
    with pytest.raises(ImplementationError, match="langs"):
        check(deck, cards=demo_db, fmt=setup.fmt, banlist=setup.banlist, langs=langs)


# -- a check of a few decks is planned whole and collected in a few passes ---------------------


def _passes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every polars pass from now on: each collect, each ``collect_all`` and each eager
    frame operation (polars runs those as a plan collected at once, ``_collect_eager``)."""
    passes: list[str] = []
    for name in ("collect", "_collect_eager"):
        method = getattr(pl.LazyFrame, name)

        def counted(self: pl.LazyFrame, *args: object, _method: object = method,
                    _name: str = name, **kwargs: object) -> pl.DataFrame:
            passes.append(_name)
            return _method(self, *args, **kwargs)  # type: ignore[operator, no-any-return]

        monkeypatch.setattr(pl.LazyFrame, name, counted)
    collect_all = pl.collect_all

    def counted_all(*args: object, **kwargs: object) -> list[pl.DataFrame]:
        passes.append("collect_all")
        return collect_all(*args, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(pl, "collect_all", counted_all)
    return passes


def _one_real_deck(cards: CardDB, *, with_list: bool, siding: bool,
                   differs: bool, made: bool = False) -> dict[str, object]:
    """The arguments of a check of one real deck (its first count one more when
    ``differs``; its list made before when ``made``), its card table checked twice
    already: what no deck changes is kept."""
    from validator.engine.check import ListedDecks
    from validator.engine.tables import card_attributes

    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    fmt = load_format("advanced-tcg")
    table = card_attributes(cards, banlist, fmt)
    files = read_deck_paths([shared_path("decks", "windbot", "AI_Zoodiac.ydk")])
    deck = files.entries.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(pl.col("qty") + 1)
        .otherwise(pl.col("qty")).alias("qty")) if differs else files.entries
    arguments: dict[str, object] = {
        "entries": deck, "cards": cards, "fmt": fmt, "banlist": banlist,
        "deck_ids": files.ids, "attributes": table, "siding": siding,
        "registered": files.entries if with_list else None}
    if made:
        arguments["listed"] = ListedDecks(files.entries, table).of(files.ids[0])
    for _ in range(2):  # a card table's first checks prepare what later ones take from it
        check(**arguments)  # type: ignore[arg-type]
    return arguments


#: the most polars passes of a check of one deck (alone, or against its list)
FEW_PASSES = 4
FEW_PASSES_WITH_LIST = 4


@pytest.mark.parametrize(("with_list", "siding", "differs", "made"), [
    (False, False, False, False), (True, False, False, False), (True, False, True, False),
    (True, True, True, False), (True, False, False, True), (True, True, True, True)])
def test_a_check_of_one_real_deck_takes_a_few_polars_passes(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch, with_list: bool, siding: bool,
        differs: bool, made: bool) -> None:
    arguments = _one_real_deck(ygojson_db, with_list=with_list, siding=siding,
                               differs=differs, made=made)
    passes = _passes(monkeypatch)
    result = check(**arguments)  # type: ignore[arg-type]
    assert "FORBIDDEN_CARD" in codes(result)
    assert ("LIST_MISMATCH" in codes(result)) == differs
    assert 0 < len(passes) <= (FEW_PASSES_WITH_LIST if with_list else FEW_PASSES), passes


def _expressions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every polars column and literal expression built from now on (``pl.col``, ``pl.lit``
    and the column names polars reads as ``pl.col``)."""
    import sys

    built: list[str] = []
    module = sys.modules["polars.functions.col"]  # ``polars.functions.col`` is also ``col``
    create_col, lit = module._create_col, pl.lit

    def counted_col(*args: object, **kwargs: object) -> pl.Expr:
        built.append("col")
        return create_col(*args, **kwargs)  # type: ignore[no-any-return]

    def counted_lit(*args: object, **kwargs: object) -> pl.Expr:
        built.append("lit")
        return lit(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_create_col", counted_col)
    monkeypatch.setattr(pl, "lit", counted_lit)
    return built


#: the most column and literal expressions a check of one deck builds once its card table
#: was checked before (what no deck changes is built once and kept), alone, against its
#: list, and against its list made before
FEW_EXPRESSIONS = 55
FEW_EXPRESSIONS_WITH_LIST = 165
FEW_EXPRESSIONS_WITH_MADE_LIST = 145


@pytest.mark.parametrize(("with_list", "siding", "made"), [
    (False, False, False), (True, False, False), (True, True, False), (True, False, True),
    (True, True, True)])
def test_a_check_of_one_real_deck_builds_few_expressions(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch, with_list: bool,
        siding: bool, made: bool) -> None:
    arguments = _one_real_deck(ygojson_db, with_list=with_list, siding=siding,
                               differs=True, made=made)
    built = _expressions(monkeypatch)
    result = check(**arguments)  # type: ignore[arg-type]
    assert ("LIST_MISMATCH" in codes(result)) == with_list
    bound = FEW_EXPRESSIONS_WITH_MADE_LIST if made else \
        FEW_EXPRESSIONS_WITH_LIST if with_list else FEW_EXPRESSIONS
    assert "col" in built
    assert len(built) <= bound, len(built)


def _typed_names_event(demo_db: CardDB, players: int) -> tuple[
        Setup, SyntheticEvent, pl.DataFrame, pl.DataFrame, str]:
    """A synthetic event whose first two decks hold a misspelt name and a name of no card,
    and a row of the second's list that could not be read: the setup, the event, its decks
    with the names, the unread row, and the first deck's id."""
    from bench.synth import synthesize
    from validator.cards.load import load
    from validator.engine.status import unreadable_rows
    from validator.errors import Problem

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, players, seed=5, rate=0.3)
    first, second = event.decks["deck_id"].unique(maintain_order=True).to_list()[:2]
    typed = pl.DataFrame({"deck_id": [first, second], "section": ["main", "side"],
                          "name": ["Ash Blosom", "no such card at all"], "qty": [1, 2]},
                         schema_overrides={"section": event.decks.schema["section"],
                                           "qty": pl.Int32})
    unread = unreadable_rows([Problem("list.csv", 4, "B4", "quantity 'x' is not a number",
                                      code="BAD_QUANTITY", deck_id=second, section="main",
                                      text="Pot of Greed")], True)
    return setup, event, pl.concat([event.decks, typed], how="diagonal_relaxed"), unread, first


@pytest.mark.parametrize(("siding", "counted"), [(False, False), (True, False), (False, True)])
def test_a_few_decks_planned_whole_get_the_verdicts_of_a_check_step_by_step(
        demo_db: CardDB, monkeypatch: pytest.MonkeyPatch, siding: bool, counted: bool) -> None:
    setup, event, decks, unread, first = _typed_names_event(demo_db, 12)
    few, many = _both_ways(
        monkeypatch, "FEW_ROWS", entries=decks, cards=demo_db, fmt=setup.fmt,
        banlist=setup.banlist,
        registered=event.registered.filter(pl.int_range(pl.len()) % 9 != 4),  # a little off
        siding=siding, unreadable=unread, counted_from_list=counted,
        deck_ids=["nobody", first])
    assert few.violations.height > 5
    assert {"LIST_MISMATCH", "UNRESOLVED_NAME", "UNREADABLE_ROW"} <= set(codes(few))
    assert "needs_decision" in few.decks["status"].cast(pl.Utf8).to_list()
    _assert_same(few, many)


def test_real_decks_planned_whole_get_the_verdicts_of_a_check_step_by_step(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    paths: list[object] = [*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:20]]
    files = read_deck_paths(paths)
    listed = files.entries.filter(pl.int_range(pl.len()) % 7 != 3)  # lists a little off
    few_rows = engine_check.FEW_ROWS
    for registered in (None, listed):
        monkeypatch.setattr(engine_check, "FEW_ROWS", few_rows)
        few, many = _both_ways(
            monkeypatch, "FEW_ROWS", entries=files.entries, cards=ygojson_db,
            fmt=load_format("advanced-tcg"),
            banlist=read_banlist(shared_path("lflist", "0TCG.lflist.conf")),
            registered=registered, deck_ids=files.ids)
        assert few.violations.height > 10
        _assert_same(few, many)


def test_rules_not_planned_in_a_check_of_a_few_decks_find_nothing(
        demo_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule whose ``could_find`` holds on no deck-by-card row is not planned: the same
    verdicts as with every rule planned."""
    from bench.synth import synthesize
    from validator.cards.load import load

    setup = load("advanced-tcg", demo_db)
    event = synthesize(demo_db, setup.banlist, setup.fmt, 12, seed=11, rate=0.5)
    five = build(demo_db, "five", [("Pot of Greed", 1), ("Called by the Grave", 2),
                                   ("Accesscode Talker", 1), (12, 1), ("Ash Blossom & Joy"
                                   "ous Spring", 4), *legal_filler(demo_db, 30)])
    arguments = {"entries": pl.concat([event.decks, five], how="diagonal_relaxed"),
                 "cards": demo_db, "fmt": setup.fmt, "banlist": setup.banlist,
                 "registered": event.registered}
    gated = check(**arguments)  # type: ignore[arg-type]
    assert {"FORBIDDEN_CARD", "LIMIT_EXCEEDED", "UNKNOWN_CARD", "WRONG_SECTION",
            "TOO_MANY_COPIES"} <= set(codes(gated))
    monkeypatch.setattr(engine_check, "_gates", lambda table: {})
    _assert_same(gated, check(**arguments))  # type: ignore[arg-type]


# -- a handful of violations is located, marked and sorted in Python --------------------------


def _python_and_planned(monkeypatch: pytest.MonkeyPatch, checking: Callable[[], CheckResult],
                        ) -> tuple[CheckResult, CheckResult]:
    """A check as the engine runs it (its report rows read in Python), and the same with
    the report rows planned and collected by polars."""
    return _as_run_and_with(monkeypatch, checking, "FEW_VIOLATIONS", -1)


@pytest.mark.parametrize("code", CODES)
def test_each_rule_s_report_rows_read_in_python_are_those_planned(
        code: str, demo_db: CardDB, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.engine.rules.test_registry import FAIL

    python, planned = _python_and_planned(monkeypatch, lambda: FAIL[code](demo_db, run))
    assert code in codes(python)
    assert 0 < python.violations.height <= engine_check.FEW_VIOLATIONS
    _assert_same(python, planned)


@pytest.mark.parametrize(("listed", "siding", "counted"), [
    (False, False, False), (True, False, False), (True, True, False), (True, False, True)])
def test_real_decks_report_rows_read_in_python_are_those_planned(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch, listed: bool, siding: bool,
        counted: bool) -> None:
    from validator.engine.status import unreadable_rows
    from validator.errors import Problem

    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    fmt = load_format("advanced-tcg")
    found: set[str] = set()
    for at, path in enumerate(sorted(shared_path("decks", "windbot").glob("*.ydk"))[:24]):
        files = read_deck_paths([path])
        deck_id = files.ids[0]
        # the list a little off the deck, one of its rows unreadable
        listing = files.entries.filter(pl.int_range(pl.len()) % 7 != 3) if listed else None
        unread = unreadable_rows([Problem("list.csv", 4, "B4", "quantity 'x' is not a number",
                                          code="BAD_QUANTITY", deck_id=deck_id,
                                          section="main", text="Pot of Greed")], True) \
            if listed and at % 2 else None
        checking = partial(check, files.entries, cards=ygojson_db, fmt=fmt, banlist=banlist,
                           registered=listing, deck_ids=files.ids, siding=siding,
                           unreadable=unread, counted_from_list=counted)
        python, planned = _python_and_planned(monkeypatch, checking)
        if python.violations.height <= engine_check.FEW_VIOLATIONS:
            found |= set(codes(python))
        _assert_same(python, planned)
    assert len(found) >= (6 if listed else 4), found


@pytest.mark.parametrize(("siding", "counted"), [(False, False), (True, False), (False, True)])
def test_typed_names_and_unreadable_rows_read_in_python_are_those_planned(
        demo_db: CardDB, monkeypatch: pytest.MonkeyPatch, siding: bool, counted: bool) -> None:
    """Names that name no single card and a row of the list that could not be read, in a
    check of two decks against their lists: the same rows either way."""
    setup, event, decks, unread, _ = _typed_names_event(demo_db, 2)
    checking = partial(check, decks,
                       cards=demo_db, fmt=setup.fmt, banlist=setup.banlist,
                       registered=event.registered.filter(pl.int_range(pl.len()) % 9 != 4),
                       siding=siding, unreadable=unread, counted_from_list=counted)
    python, planned = _python_and_planned(monkeypatch, checking)
    assert 5 < python.violations.height <= engine_check.FEW_VIOLATIONS
    assert {"UNRESOLVED_NAME", "UNREADABLE_ROW", "LIST_MISMATCH"} <= set(codes(python))
    assert python.resolved.height == 2  # the two names typed: neither plainly a card
    _assert_same(python, planned)


# -- a check of one deck against its list made before (``ListedDecks``) -----------------------


def _against_made_lists(registered: pl.DataFrame, decks: pl.DataFrame, *, cards: CardDB,
                        setup_fmt: object, banlist: object, siding: bool, counted: bool,
                        unread: pl.DataFrame | None = None) -> int:
    """Each deck of ``decks`` checked against its list, once as given and once with its
    list made before for every deck at once: the same results; how many differ from
    their lists."""
    from validator.engine.check import ListedDecks
    from validator.engine.tables import card_attributes

    table = card_attributes(cards, banlist, setup_fmt)  # type: ignore[arg-type]
    made = ListedDecks(registered, table)
    differing = 0
    for player in registered["deck_id"].cast(pl.Utf8).unique(maintain_order=True).to_list():
        listed = made.of(player)
        assert listed is not None
        arguments: dict[str, Any] = {
            "entries": decks.filter(pl.col("deck_id").cast(pl.Utf8) == player),
            "registered": registered.filter(pl.col("deck_id").cast(pl.Utf8) == player),
            "cards": cards, "fmt": setup_fmt, "banlist": banlist, "deck_ids": [player],
            "siding": siding, "counted_from_list": counted, "attributes": table,
            "unreadable": None if unread is None else unread.filter(
                pl.col("deck_id").cast(pl.Utf8) == player)}
        given = check(**arguments)
        again = check(**arguments, listed=listed)
        _assert_same(again, given)
        differing += "LIST_MISMATCH" in codes(given)
    assert made.of("no such player") is None
    return differing


@pytest.mark.parametrize(("siding", "counted"), [(False, True), (True, False)])
def test_real_decks_against_their_lists_made_before_get_the_same_verdicts(
        ygojson_db: CardDB, siding: bool, counted: bool) -> None:
    files = read_deck_paths([*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:12]])
    lists = files.entries.filter(pl.int_range(pl.len()) % 7 != 3)  # lists a little off
    differing = _against_made_lists(
        lists, files.entries, cards=ygojson_db, setup_fmt=load_format("advanced-tcg"),
        banlist=read_banlist(shared_path("lflist", "0TCG.lflist.conf")), siding=siding,
        counted=counted)
    assert differing > 3


def test_typed_names_against_their_lists_made_before_get_the_same_verdicts(
        demo_db: CardDB) -> None:
    setup, event, decks, unread, _ = _typed_names_event(demo_db, 8)
    # the lists hold the typed names (a misspelt one, one of no card) and skip some rows
    lists = pl.concat([event.registered, decks.filter(pl.col("name").is_not_null())],
                      how="diagonal_relaxed").filter(pl.int_range(pl.len()) % 9 != 4)
    differing = _against_made_lists(lists, event.decks, cards=demo_db, setup_fmt=setup.fmt,
                                    banlist=setup.banlist, siding=False, counted=True,
                                    unread=unread)
    assert differing > 2


def test_a_real_deck_against_its_list_of_names_with_rows_missing_is_checked(
        ygojson_db: CardDB, tcg_list: Banlist, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first windbot deck against its list written as English names, every seventh row
    dropped, counted from the list: the few-deck check words its violations (the rows of deck
    and list come in chunks that differ per column, on which polars 2.1's ``pl.format``
    panicked) and gives what the check over every card gives."""
    from bench.synth import named_lists

    files = read_deck_paths([*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:12]])
    lists = named_lists(files.entries, ygojson_db).drop("card_id").with_columns(
        pl.col("section").cast(files.entries.schema["section"]),
        pl.lit("lists.csv").alias("file"),
        pl.int_range(pl.len(), dtype=pl.Int32).alias("line"),
    ).filter(pl.int_range(pl.len()) % 7 != 3)
    fmt = load_format("advanced-tcg")
    player = files.ids[0]
    few, every = _both_ways(
        monkeypatch, entries=files.entries.filter(pl.col("deck_id") == player),
        cards=ygojson_db, fmt=fmt, banlist=tcg_list, deck_ids=[player],
        registered=lists.filter(pl.col("deck_id") == player),
        attributes=card_attributes(ygojson_db, tcg_list, fmt), counted_from_list=True)
    assert {"LIST_MISMATCH", "UNRESOLVED_NAME"} <= set(few.violations["code"].to_list())
    assert few.violations["message"].null_count() == 0
    _assert_same(few, every)


def test_spans_say_where_each_deck_s_rows_are_and_none_for_a_deck_without_rows() -> None:
    decks = pl.Series([0, 0, 2, 2, 2, 3], dtype=pl.UInt32)
    assert engine_check._spans(decks, 5) == [(0, 2), (0, 0), (2, 3), (5, 1), (0, 0)]
    assert engine_check._spans(pl.Series([], dtype=pl.UInt32), 2) == [(0, 0), (0, 0)]
