"""The check report's JSON text: built from the violation table, the same as json.dumps."""

from __future__ import annotations

import json
from typing import Any

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
    texts = violations_by_deck(frame, fields).iter_rows()
    payload = {"decks": [{"deck": deck, "violations": orjson.Fragment(text.encode())}
                         for deck, text in texts]}
    plain = {"decks": [{"deck": deck, "violations": found}
                       for deck, found in expected.items()]}
    assert json_bytes(payload) == (json.dumps(plain, ensure_ascii=False, indent=2)
                                   + "\n").encode()


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
