"""The check report's JSON text: built from the violation table, the same as json.dumps."""

from __future__ import annotations

import json

import orjson
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.report.json import json_bytes, violations_by_deck

_TEXT = st.one_of(st.none(), st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
_INT = st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1))
_ROW = st.tuples(st.integers(min_value=0, max_value=3), _TEXT, _INT,
                 st.one_of(st.none(), st.booleans()), st.sampled_from([None, "main", "side"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_ROW, max_size=12))
def test_violation_text_is_what_json_dumps_writes(rows: list[tuple[object, ...]]) -> None:
    frame = pl.DataFrame(rows, schema={"deck": pl.UInt32, "message": pl.Utf8,
                                       "count": pl.Int64, "held": pl.Boolean,
                                       "section": pl.Enum(["main", "extra", "side"])},
                         orient="row")
    fields = ("message", "count", "held", "section")
    expected: dict[int, list[dict[str, object]]] = {}
    for deck, message, count, held, section in rows:
        expected.setdefault(int(str(deck)), []).append(
            {"message": message, "count": count, "held": held, "section": section})
    payload = {"decks": [{"deck": deck, "violations": fragment}
                         for deck, fragment in violations_by_deck(frame, fields).items()]}
    plain = {"decks": [{"deck": deck, "violations": found}
                       for deck, found in expected.items()]}
    assert json_bytes(payload) == (json.dumps(plain, ensure_ascii=False, indent=2)
                                   + "\n").encode()


def test_json_bytes_is_json_dumps_for_report_values() -> None:
    value = {"a": [], "b": {}, "c": [1, None, True, "é\u2028\"\\\n\x7f"], "d": {"e": 1.5}}
    assert json_bytes(value) == (json.dumps(value, ensure_ascii=False, indent=2)
                                 + "\n").encode()
    assert orjson.loads(json_bytes(value)) == value
