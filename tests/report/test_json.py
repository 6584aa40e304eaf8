"""The JSON reports written from the report model: the bytes json.dumps would write, each
field what the model holds (the encoder judges nothing)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import orjson
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.deckbuild import FORBIDDEN, FUZZY, LEGAL, NO_LIST, SHORT, UNSETTLED
from tests.report.conftest import deck_of
from validator.cards.db import CardDB
from validator.report import json as json_report
from validator.report.json import (
    VIOLATION_FIELDS,
    json_bytes,
    report_bytes,
    report_dict,
    report_pieces,
    violations_by_deck,
)
from validator.report.model import Report
from validator.text.i18n import problem_text

_TEXT = st.one_of(st.none(), st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
_INT = st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1))
_ROW = st.tuples(st.integers(min_value=0, max_value=3), _TEXT, _INT,
                 st.one_of(st.none(), st.booleans()), st.sampled_from([None, "main", "side"]))


@pytest.mark.parametrize("repeating", [1, 3, 10**9])  # every field, some, none in runs
@settings(max_examples=200, deadline=None)
@given(st.lists(_ROW, max_size=12))
def test_violation_text_is_what_json_dumps_writes(repeating: int,
                                                  rows: list[tuple[object, ...]]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json_report, "_REPEATING", repeating)
        _violation_text_is_what_json_dumps_writes(rows)


def _violation_text_is_what_json_dumps_writes(rows: list[tuple[object, ...]]) -> None:
    frame = pl.DataFrame(rows, schema={"deck": pl.UInt32, "message": pl.Utf8,
                                       "count": pl.Int64, "held": pl.Boolean,
                                       "section": pl.Enum(["main", "extra", "side"])},
                         orient="row")
    fields = ("message", "count", "held", "section")
    expected: dict[int, list[dict[str, object]]] = {}
    for deck, message, count, held, section in rows:
        expected.setdefault(int(str(deck)), []).append(
            {"message": message, "count": count, "held": held, "section": section})
    texts = violations_by_deck(frame, fields).iter_rows()
    payload = {"decks": [{"deck": deck, "violations": orjson.Fragment(text.encode())}
                         for deck, text in texts]}
    plain = {"decks": [{"deck": deck, "violations": found}
                       for deck, found in expected.items()]}
    assert json_bytes(payload) == (json.dumps(plain, ensure_ascii=False, indent=2)
                                   + "\n").encode()


#: every character below U+0020, the ones json.dumps leaves as they are, quotes, backslashes
_AWKWARD = ["".join(map(chr, range(32))), "\x7f\u2028\u2029\ufeff", '"\\"', "\\u0041",
            "é★☆β'\"", "", " "]


def test_each_string_is_escaped_as_json_dumps_does(real_db: CardDB) -> None:
    """Every name of every real card in every language, and awkward characters, beside
    nulls: each text what json.dumps writes."""
    names = real_db.names["name"].unique().to_list()
    values = [*names, *_AWKWARD, None, *names[:50], *_AWKWARD, None]
    texts = pl.Series("v", values, dtype=pl.Utf8).to_frame().select(
        json_report._escaped(pl.col("v"))).to_series().to_list()
    assert len(names) > 10_000
    assert texts == [json.dumps(v, ensure_ascii=False) for v in values]


def test_json_bytes_is_json_dumps_for_report_values() -> None:
    value = {"a": [], "b": {}, "c": [1, None, True, "é\u2028\"\\\n\x7f"], "d": {"e": 1.5}}
    assert json_bytes(value) == (json.dumps(value, ensure_ascii=False, indent=2)
                                 + "\n").encode()
    assert orjson.loads(json_bytes(value)) == value


_STRINGS = st.one_of(st.none(), st.lists(st.text(alphabet=st.characters(codec="utf-8"),
                                                   max_size=20), max_size=4))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_STRINGS, _TEXT, st.one_of(st.none(), st.booleans())), max_size=6),
       st.integers(min_value=0, max_value=3))
def test_objects_and_lists_of_strings_are_what_json_dumps_writes(
        rows: list[tuple[object, ...]], depth: int) -> None:
    """Objects with list-of-strings, string and boolean values, written for ``depth``."""
    from validator.report.json import _json_text, _object_text

    frame = pl.DataFrame(rows, schema={"items": pl.List(pl.Utf8), "name": pl.Utf8,
                                       "flag": pl.Boolean}, orient="row")
    obj = _object_text([(c, _json_text(c, frame.schema[c], depth + 1)) for c in frame.columns],
                       depth)
    for row, text in zip(rows, frame.select(obj).to_series().to_list(), strict=True):
        plain: Any = dict(zip(frame.columns, row, strict=True))
        built: Any = orjson.Fragment(text.encode())
        for _ in range(depth):  # the object as a value ``depth`` levels down
            plain, built = {"x": plain}, {"x": built}
        expected = (json.dumps(plain, ensure_ascii=False, indent=2) + "\n").encode()
        assert (json_bytes(built) if depth else text.encode() + b"\n") == expected


def _plain(report: Report) -> bytes:
    """What json.dumps writes for the report's data."""
    return (json.dumps(report_dict(report), ensure_ascii=False, indent=2) + "\n").encode()


@pytest.mark.parametrize("piece", [json_report._PIECE, 1, 2])
def test_the_check_report_is_json_dumps_in_any_pieces(judged: Report, piece: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    whole = report_bytes(judged)
    monkeypatch.setattr(json_report, "_PIECE", piece)
    pieces = list(report_pieces(judged))
    assert b"".join(pieces) == whole == _plain(judged)
    assert len(pieces) >= 3 + (judged.items.height // piece)


@pytest.mark.parametrize(("at_once", "batches"), [(1, 1), (1, 3), (2, 2), (3, 2)])
def test_pieces_built_side_by_side_come_in_the_decks_order(
        judged: Report, at_once: int, batches: int, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = report_bytes(judged)
    monkeypatch.setattr(json_report, "_PIECE", 1)
    monkeypatch.setattr(json_report, "_AT_ONCE", at_once)
    monkeypatch.setattr(json_report, "_BATCHES", batches)
    assert judged.items.height > at_once * batches  # more batches than are built at once
    assert report_bytes(judged) == whole
    assert [d["deck_id"] for d in report_dict(judged)["decks"]] == \
        judged.items["deck_id"].to_list()


def test_the_check_report_writes_the_models_header_and_verdicts(judged: Report) -> None:
    data = report_dict(judged)
    header = judged.header
    assert {k: data[k] for k in ("format", "banlist", "cards", "regulation", "stage", "lang",
                                 "duel", "comparison")} == {
        "format": header.format, "banlist": header.banlist, "cards": header.cards,
        "regulation": header.regulation, "stage": header.stage, "lang": header.lang,
        "duel": header.duel, "comparison": header.comparison}
    assert data["statuses"] == judged.statuses
    assert data["summary"] == {"decks": 7, "legal": 3, "illegal": 4,
                               "violations_by_code": judged.counts}
    decks = {d["deck_id"]: d for d in data["decks"]}
    assert list(decks) == judged.items["deck_id"].to_list()
    for deck_id, deck in decks.items():
        verdict = judged.verdict(deck_of(judged, deck_id))
        assert deck["status"] == judged.status(deck_of(judged, deck_id))
        if verdict is None:
            assert (deck["penalty"], deck["remedies"], deck["head_judge"]) == (None, [], [])
            continue
        assert deck["remedies"] == verdict.remedies
        assert deck["head_judge"] == verdict.head_judge
        if verdict.penalty is None:
            assert deck["penalty"] is None
        else:
            assert deck["penalty"] == {
                "type": verdict.penalty, "applies_to": verdict.applies_to,
                "remedies": verdict.remedies, "recorded": verdict.recorded,
                "label": verdict.label, "basis": verdict.basis}
    assert decks[LEGAL]["penalty"] is None
    assert decks[SHORT]["penalty"]["type"] == "DUEL_FORFEITURE"
    assert [(v["on"], v["code"]) for v in decks[FORBIDDEN]["violations"]] == [
        ("list", "FORBIDDEN_CARD"), ("deck", "FORBIDDEN_CARD")]
    assert list(decks[SHORT]["violations"][0]) == [*VIOLATION_FIELDS, "on"]
    assert decks[FUZZY]["fuzzy"] == judged.fuzzy[FUZZY]
    assert decks[UNSETTLED]["status"] == "needs_decision"


def test_decks_compared_with_nothing_have_no_on(judged: Report) -> None:
    alone = dataclasses.replace(judged, header=dataclasses.replace(judged.header,
                                                                   comparison=None))
    data = report_dict(alone)
    assert data["comparison"] is None
    violations = [v for d in data["decks"] for v in d["violations"]]
    assert violations
    assert all(list(v) == list(VIOLATION_FIELDS) for v in violations)


def test_the_encoder_writes_what_the_model_says(judged: Report) -> None:
    """A model changed by hand is written as it is: the encoder decides nothing."""
    changed = dataclasses.replace(
        judged, verdicts=judged.verdicts.with_columns(
            pl.lit("Stern talk").alias("label"),
            pl.lit(["Say sorry."], pl.List(pl.Utf8)).alias("remedies")),
        header=dataclasses.replace(judged.header, regulation="custom"),
        statuses={"legal": 1, "illegal": 2, "needs_decision": 3, "not_checked": 1})
    data = report_dict(changed)
    assert data["regulation"] == "custom"
    assert data["statuses"] == {"legal": 1, "illegal": 2, "needs_decision": 3, "not_checked": 1}
    # the summary is derived from the statuses: every deck not legal is counted illegal
    assert (data["summary"]["legal"], data["summary"]["illegal"]) == (1, len(data["decks"]) - 1)
    short = next(d for d in data["decks"] if d["deck_id"] == SHORT)
    assert short["penalty"]["label"] == "Stern talk"
    assert short["remedies"] == short["penalty"]["remedies"] == ["Say sorry."]


@pytest.mark.parametrize("piece", [json_report._PIECE, 2])
def test_the_event_report_writes_players_problems_and_decisions(
        judged_players: Report, piece: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_report, "_PIECE", piece)
    report = judged_players
    assert report_bytes(report) == _plain(report)
    data = report_dict(report)
    assert "duel" not in data
    assert [p["player_id"] for p in data["players"]] == report.items["player_id"].to_list()
    assert data["unmatched_decks"] == [NO_LIST]
    assert data["problems"] == [{"file": p.file, "line": p.line, "where": p.column,
                                 "code": p.code, "message": p.message,
                                 "localized_message": problem_text(p, report.header.lang)}
                                for p in sorted(report.problems)]
    assert data["summary"]["problems"] == len(report.problems)
    players = {p["player_id"]: p for p in data["players"]}
    assert players[FORBIDDEN]["remedies"] == report.verdicts.filter(
        pl.col("deck") == deck_of(report, FORBIDDEN))["remedies"].item().to_list()
    assert players[LEGAL]["deck_counts"] == {"main": 40, "extra": 6, "side": 3}
    assert all(p["decisions"] == [] for p in data["players"])
    assert list(players[SHORT]["violations"][0]) == ["on", *VIOLATION_FIELDS]


def test_a_check_report_of_no_decks(judged: Report) -> None:
    empty = dataclasses.replace(judged, items=judged.items.clear(),
                                violations=judged.violations.clear(),
                                verdicts=judged.verdicts.clear(), fuzzy={})
    data = report_dict(empty)
    assert data["decks"] == []
    assert report_bytes(empty) == _plain(empty)
