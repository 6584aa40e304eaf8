"""The JSON reports, written from the report model (``report.model``): the check report
(``deckcheck check``) and the event report (``deckcheck event``, the web app's report.json).

Both are public contracts (see the README): they only ever gain fields. Both share the
header (format, list, card data, regulation, stage, language), each deck's or player's
judgement (violations, penalty, status, remedies, head judge's codes, fuzzy readings), the
summary, the status counts and the warnings. Violations and verdicts are written from the
model's tables by polars (``violations_by_deck``), a few pieces of decks side by side, the
rest by ``orjson``: the bytes are those of ``json.dumps(..., ensure_ascii=False, indent=2)``.
What repeats is written once: each distinct verdict, each distinct combination of a run of
repeating violation fields (code, card, message, ...); a field that seldom repeats (a deck's
file, in a check) is written row by row.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import polars as pl

from validator.engine.tables import ENGINE
from validator.errors import ImplementationError
from validator.report.model import Report
from validator.text.i18n import problem_line, problem_text

__all__ = ["VIOLATION_FIELDS", "json_bytes", "report_bytes", "report_dict", "report_pieces",
           "violations_by_deck"]

#: the fields of one violation in the JSON contract (``on`` is added where decks are
#: compared with lists: which of the two the violation is on)
VIOLATION_FIELDS = ("code", "section", "passcode", "card", "count", "limit", "registered",
                    "message", "localized_message", "file", "line", "cell", "counts_as",
                    "held", "decision", "read_from")


def json_bytes(payload: dict[str, Any]) -> bytes:
    """The report as UTF-8 JSON, two-space indented, with a final newline: the same bytes as
    ``json.dumps(payload, ensure_ascii=False, indent=2) + "\n"``, written in one pass."""
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
                        | orjson.OPT_APPEND_NEWLINE)


def _pad(depth: int) -> str:
    return "  " * depth


def _escaped(value: pl.Expr) -> pl.Expr:
    """A string as JSON text (null: ``null``), escaped as ``json.dumps(ensure_ascii=False)``
    does: polars writes it inside an object (``{"v": ...}``), which is then cut away."""
    return pl.struct(value.cast(pl.Utf8).alias("v")).struct.json_encode() \
        .str.slice(5).str.head(-1)


#: a field of fewer distinct values than a tenth of the rows is written with its repeating
#: neighbours: once per distinct combination of their values, not once per row
_REPEATING = 10
#: how many rows (the first) tell whether a field repeats
_SAMPLE = 4096


def _field_runs(frame: pl.DataFrame, fields: tuple[str, ...]) -> list[tuple[
        tuple[str, ...], bool]]:
    """``fields`` in runs of neighbours, each with whether it repeats in the first rows
    (``_SAMPLE``): the repeating fields (``_REPEATING``) beside each other in one run, each
    other field alone. (Only the time taken depends on the runs, never the text.)"""
    runs: list[tuple[list[str], bool]] = []
    sample = frame.head(_SAMPLE)
    for field in fields:
        repeats = sample[field].n_unique() * _REPEATING <= sample.height
        if repeats and runs and runs[-1][1]:
            runs[-1][0].append(field)
        else:
            runs.append(([field], repeats))
    return [(tuple(run), repeats) for run, repeats in runs]


def _columns_object(frame: pl.DataFrame, fields: tuple[str, ...], depth: int) -> tuple[
        pl.DataFrame, pl.Expr]:
    """An object at ``depth`` per row of ``frame``, its ``fields`` as JSON text (as
    ``_object_text`` writes it). A run of repeating fields (``_field_runs``) is written once
    per distinct combination of its values, the row's text picked by a number added to
    ``frame`` (``json_run_N``); a field of its own is written row by row."""
    parts: list[pl.Expr] = []
    added: list[pl.Series] = []
    at = 0
    for number, (run, repeats) in enumerate(_field_runs(frame, fields)):
        keys = [pl.lit(_key_text(field, at + i == 0, depth)) for i, field in enumerate(run)]
        at += len(run)
        if not repeats:  # each row's value written (escaping a row's string costs less
            # than looking it up among the distinct ones escaped once, unless most repeat)
            parts += [keys[0], _json_text(run[0], frame.schema[run[0]], depth + 1)]
            continue
        distinct, which = _distinct(frame, list(run), f"json_run_{number}")
        texts = distinct.select(pl.concat_str([
            part for key, field in zip(keys, run, strict=True)
            for part in (key, _json_text(field, frame.schema[field], depth + 1))]))
        added.append(which)
        parts.append(pl.lit(texts.to_series()).gather(pl.col(f"json_run_{number}")))
    return frame.with_columns(added), pl.concat_str([*parts, pl.lit("\n" + _pad(depth) + "}")])


def _distinct(frame: pl.DataFrame, keys: list[str], name: str) -> tuple[
        pl.DataFrame, pl.Series]:
    """Each distinct combination of ``keys``' values in ``frame`` once, in the order first
    met, numbered in ``name``; and each row's number: one grouping, not a join back."""
    groups = frame.select(keys).with_row_index("json_row").group_by(
        keys, maintain_order=True).agg("json_row")
    numbered = groups.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias(name), "json_row")
    which = numbered.explode("json_row").sort("json_row").get_column(name)
    return groups.drop("json_row").with_row_index(name), which


def _strings_text(value: pl.Expr, depth: int) -> pl.Expr:
    """A list of strings as JSON text for a value at ``depth`` (its items one deeper)."""
    inner = "\n" + _pad(depth + 1)
    items = value.list.eval(_escaped(pl.element())).list.join("," + inner)
    return (pl.when(value.is_null()).then(pl.lit("null"))
            .when(value.list.len() == 0).then(pl.lit("[]"))
            .otherwise(pl.concat_str([pl.lit("[" + inner), items,
                                      pl.lit("\n" + _pad(depth) + "]")])))


def _json_text(column: str, dtype: pl.DataType, depth: int = 0) -> pl.Expr:
    """A column's values as JSON text, as ``json.dumps`` writes them at ``depth``."""
    value = pl.col(column)
    if dtype == pl.Boolean:
        return pl.when(value).then(pl.lit("true")).when(~value).then(pl.lit("false")) \
            .otherwise(pl.lit("null"))
    if dtype.is_integer():
        return value.cast(pl.Utf8).fill_null("null")
    if dtype in (pl.Utf8, pl.Categorical) or isinstance(dtype, pl.Enum):
        return _escaped(value)
    if dtype == pl.List(pl.Utf8):
        return _strings_text(value, depth)
    raise ImplementationError(f"no JSON text for column {column} of type {dtype}")


def _key_text(key: str, first: bool, depth: int) -> str:
    """What comes before a field's value in an object at ``depth``: the opening brace (the
    first field) or a comma, a new line, the key."""
    return ("{" if first else ",") + "\n" + _pad(depth + 1) + orjson.dumps(key).decode() + ": "


def _object_text(fields: list[tuple[str, pl.Expr]], depth: int) -> pl.Expr:
    """An object at ``depth`` whose values are JSON texts written for ``depth + 1``."""
    parts: list[pl.Expr] = []
    for i, (key, text) in enumerate(fields):
        parts += [pl.lit(_key_text(key, i == 0, depth)), text]
    return pl.concat_str([*parts, pl.lit("\n" + _pad(depth) + "}")])


def violations_by_deck(violations: pl.DataFrame, fields: tuple[str, ...],
                       depth: int = 4) -> pl.DataFrame:
    """``deck`` and ``violations``: each deck's violations as one JSON array, written from
    the table by polars (no Python object per violation), its objects at ``depth`` of the
    report: the text ``json.dumps(..., indent=2)`` would write there."""
    framed, written = _columns_object(violations, fields, depth)
    item = pl.concat_str([pl.lit(_pad(depth)), written])
    return framed.lazy().select("deck", item.alias("text")).group_by(
        "deck", maintain_order=True).agg(pl.col("text").str.join(",\n")).select(
        "deck", pl.concat_str([pl.lit("[\n"), pl.col("text"),
                               pl.lit("\n" + _pad(depth - 1) + "]")]).alias("violations")
    ).collect(engine=ENGINE)


#: where each deck's (player's) object sits in a report: in its array, at this depth
_ITEM_DEPTH = 2


def _verdict_texts(table: pl.LazyFrame) -> pl.LazyFrame:
    """Per deck: the JSON texts of ``penalty``, ``remedies`` and ``head_judge`` at their
    depth in the deck's object, from the verdict table."""
    depth = _ITEM_DEPTH + 1
    penalty = pl.when(pl.col("penalty").is_null()).then(pl.lit("null")).otherwise(_object_text(
        [("type", _escaped(pl.col("penalty"))), ("applies_to", _escaped(pl.col("applies_to"))),
         ("remedies", _strings_text(pl.col("remedies"), depth + 1)),
         ("recorded", _json_text("recorded", pl.Boolean())),
         ("label", _escaped(pl.col("label"))),
         ("basis", _strings_text(pl.col("basis"), depth + 1))], depth))
    return table.select("deck", penalty.alias("penalty"),
                        _strings_text(pl.col("remedies"), depth).alias("remedies"),
                        _strings_text(pl.col("head_judge"), depth).alias("head_judge"))


def _distinct_verdict_texts(verdicts: pl.DataFrame) -> pl.DataFrame:
    """``_verdict_texts`` of every deck, each distinct verdict written once (most decks
    share theirs with many others)."""
    keys = [c for c in verdicts.columns if c != "deck"]
    distinct, which = _distinct(verdicts, keys, "deck")  # a verdict's number as its deck
    texts = _verdict_texts(distinct.lazy()).collect(engine=ENGINE)
    return texts.select(pl.all().gather(which)).with_columns(verdicts["deck"])


def _python_texts(by_key: dict[str, list[dict[str, Any]]], column: str,
                  depth: int) -> pl.DataFrame:
    """Lists of Python objects (few: fuzzy readings, decisions) as JSON texts by key."""
    keys = list(by_key)
    texts = [orjson.dumps(by_key[k], option=orjson.OPT_INDENT_2).decode().replace(
        "\n", "\n" + _pad(depth)) for k in keys]
    return pl.DataFrame({"key": pl.Series(keys, dtype=pl.Utf8),
                         column: pl.Series(texts, dtype=pl.Utf8)})


#: stands for the array of decks (players) while the rest of a report is written: a NUL
#: byte never occurs in JSON text otherwise (orjson escapes it inside strings)
_ITEMS = orjson.Fragment(b"\x00")
#: decks (players) written as one piece of the report's array: a piece's buffers are
#: reused by the next, so the memory taken while writing stays that of a few pieces (those
#: of the batches being built and of the one being written)
_PIECE = 500
#: pieces built at once in a batch: one per core (a piece's text is built by one thread)
_AT_ONCE = max(1, min(4, pl.thread_pool_size()))
#: batches built side by side while the one before them is taken (written)
_BATCHES = 2


#: the order of a piece's rows of text: (deck's place, part of its object, place in the
#: part) packed in one number (a sort of one number column, not of three): the place in
#: the part is a UInt32, the part under 16, the deck's place under 2^28
_ORDER = (pl.col("json_pos").cast(pl.UInt64) * (1 << 36)
          + pl.col("part").cast(pl.UInt64) * (1 << 32) + pl.col("seq").cast(pl.UInt64))


def _by_position(frame: pl.DataFrame, position: pl.DataFrame) -> pl.DataFrame:
    """``frame``'s rows of the decks in ``position`` (deck → its place in the report's
    array, ``json_pos``), with that place, ordered by it (rows of one deck in their order)."""
    pos = frame.select("deck").join(position, on="deck", how="left",
                                    maintain_order="left")["json_pos"]
    placed = frame.with_columns(pos)
    if pos.null_count():
        placed = placed.filter(pl.col("json_pos").is_not_null())
    if not placed["json_pos"].is_sorted():
        placed = placed.sort("json_pos", maintain_order=True)
    return placed


def _split_object(fields: list[tuple[str, pl.Expr]], depth: int, at: str) -> tuple[
        pl.Expr, pl.Expr]:
    """An object at ``depth`` (as ``_object_text``) in two parts: up to and with the value
    of its field ``at``, and from after that value to the closing brace."""
    split = [key for key, _ in fields].index(at)
    opened: list[pl.Expr] = []
    for i, (key, text) in enumerate(fields[:split + 1]):
        opened += [pl.lit(_key_text(key, i == 0, depth)), text]
    head = pl.concat_str(opened)
    parts: list[pl.Expr] = []
    for key, text in fields[split + 1:]:
        parts += [pl.lit(_key_text(key, False, depth)), text]
    return head, pl.concat_str([*parts, pl.lit("\n" + _pad(depth) + "}")])


def _items(table: pl.DataFrame, fields: list[tuple[str, pl.Expr]], violations: pl.DataFrame,
           violation_fields: tuple[str, ...], verdict_table: pl.DataFrame) -> Iterator[bytes]:
    """The report's array of deck (player) objects, one per row of ``table``, as JSON in
    pieces, a piece of decks at a time, its bytes straight from polars (no Python object per
    deck). A piece is written as rows of text in the order they are written — each deck's
    object up to its violations, each violation, the rest of the object — joined once: no
    deck's violations are grouped into one string first."""
    if table.is_empty():
        yield b"[]"
        return
    position = table.select("deck", pl.int_range(pl.len(), dtype=pl.UInt32).alias("json_pos")) \
        .drop_nulls("deck")
    # the verdicts' texts are short: written for all decks at once
    verdict_texts = _by_position(_distinct_verdict_texts(verdict_table), position).select(
        "json_pos", pl.exclude("deck", "json_pos").name.prefix("json_"))
    inner = _ITEM_DEPTH + 2
    placed, written = _columns_object(_by_position(violations, position), violation_fields,
                                      inner)
    item = pl.concat_str([pl.lit(_pad(inner)), written])
    fields = [(key, pl.col("json_violations_open") if key == "violations" else text)
              for key, text in fields]
    head, tail = _split_object(fields, _ITEM_DEPTH, "violations")
    head = pl.concat_str([pl.lit(_pad(_ITEM_DEPTH)), head])
    close = "\n" + _pad(_ITEM_DEPTH + 1) + "]"
    edges = [*range(0, table.height, _PIECE), table.height]
    bounds = pl.Series(edges, dtype=pl.UInt32)
    violation_at = placed["json_pos"].search_sorted(bounds).to_list()
    placed_at = dict(zip(edges, violation_at, strict=True))
    verdict_at = dict(zip(edges, verdict_texts["json_pos"].search_sorted(bounds).to_list(),
                          strict=True))

    def ends(start: int, stop: int) -> pl.DataFrame:
        """The text of decks ``start`` to ``stop`` (edges of pieces) before their
        violations (``opened``) and after them (``closed``)."""
        at, to = placed_at[start], placed_at[stop]
        counted = placed.slice(at, to - at).lazy().group_by("json_pos").agg(
            pl.len().alias("json_violation_count"))
        at, to = verdict_at[start], verdict_at[stop]
        decks = (table.slice(start, stop - start).lazy()
                 .with_columns(pl.int_range(start, stop, dtype=pl.UInt32).alias("json_pos"))
                 .join(verdict_texts.slice(at, to - at).lazy(), on="json_pos", how="left",
                       maintain_order="left")
                 .join(counted, on="json_pos", how="left", maintain_order="left")
                 .with_columns(pl.when(pl.col("json_violation_count").is_null()).then(pl.lit("[]"))
                               .otherwise(pl.lit("[")).alias("json_violations_open")))
        return decks.select(
            # the first deck of a piece follows the piece before's ",\n"
            pl.concat_str([pl.when(pl.col("json_pos") % _PIECE == 0).then(pl.lit(""))
                           .otherwise(pl.lit(",\n")), head]).alias("opened"),
            pl.concat_str([pl.when(pl.col("json_violation_count").is_null()).then(pl.lit(""))
                           .otherwise(pl.lit(close)), tail]).alias("closed"),
        ).collect(engine=ENGINE)

    def piece_text(number: int, decks: pl.DataFrame, first_deck: int) -> pl.LazyFrame:
        start, stop = edges[number], edges[number + 1]
        mine = placed.slice(violation_at[number], violation_at[number + 1]
                            - violation_at[number]).lazy()
        first = pl.col("json_pos") != pl.col("json_pos").shift(1)
        texts = mine.select("json_pos", pl.int_range(pl.len(), dtype=pl.UInt32).alias("seq"),
                            pl.concat_str([pl.when(first.fill_null(True)).then(pl.lit("\n"))
                                           .otherwise(pl.lit(",\n")), item]).alias("text"))
        own = decks.slice(start - first_deck, stop - start).lazy().with_columns(
            pl.int_range(start, stop, dtype=pl.UInt32).alias("json_pos"),
            pl.lit(0, pl.UInt32).alias("seq"))
        return pl.concat([own.select("json_pos", "seq", pl.col("opened").alias("text"),
                                     pl.lit(0, pl.UInt8).alias("part")),
                          texts.with_columns(pl.lit(1, pl.UInt8).alias("part")),
                          own.select("json_pos", "seq", pl.col("closed").alias("text"),
                                     pl.lit(2, pl.UInt8).alias("part"))]) \
            .sort(_ORDER).select(pl.col("text").str.join("").cast(pl.Binary))

    def batch(pieces: list[int]) -> list[pl.DataFrame]:
        first_deck = edges[pieces[0]]
        decks = ends(first_deck, edges[pieces[-1] + 1])
        return pl.collect_all([piece_text(n, decks, first_deck) for n in pieces],
                              engine=ENGINE)

    yield b"[\n"
    # a few pieces at a time (``_AT_ONCE``), a few batches side by side (``_BATCHES``),
    # taken in order: the next are built while one is taken
    at_once, ahead = _AT_ONCE, _BATCHES
    every = list(range(len(edges) - 1))
    batches = [every[at:at + at_once] for at in range(0, len(every), at_once)]
    with ThreadPoolExecutor(ahead) as pool:
        coming = deque(pool.submit(batch, pieces) for pieces in batches[:ahead])
        for number in range(len(batches)):
            frames = coming.popleft().result()
            if number + ahead < len(batches):
                coming.append(pool.submit(batch, batches[number + ahead]))
            for i, frame in enumerate(frames):
                if number or i:
                    yield b",\n"
                yield frame.item()
    yield f"\n{_pad(_ITEM_DEPTH - 1)}]".encode()


def _with_items(payload: dict[str, Any], items: Iterator[bytes]) -> Iterator[bytes]:
    """``json_bytes(payload)`` in pieces, with the array ``items`` where ``_ITEMS`` stands
    (each piece is made when the one before has been taken)."""
    head, tail = json_bytes(payload).split(b"\x00")
    yield head
    yield from items
    yield tail


def _judged_fields(with_decisions: bool) -> list[tuple[str, pl.Expr]]:
    """The fields both reports give each deck (player) after its own: the judgement."""
    fields = [("violations", pl.col("json_violations").fill_null("[]")),
              ("penalty", pl.col("json_penalty").fill_null("null")),
              ("status", _escaped(pl.col("status"))),
              ("remedies", pl.col("json_remedies").fill_null("[]")),
              ("head_judge", pl.col("json_head_judge").fill_null("[]"))]
    if with_decisions:
        fields.append(("decisions", pl.col("json_decisions").fill_null("[]")))
    return [*fields, ("fuzzy", pl.col("json_fuzzy").fill_null("[]"))]


def _counts_text(prefix: str) -> pl.Expr:
    return _object_text([(s, _json_text(f"{prefix}{s}", pl.Int64())) for s in
                         ("main", "extra", "side")], _ITEM_DEPTH + 1)


def _header(report: Report) -> dict[str, Any]:
    h = report.header
    return {"format": h.format, "banlist": h.banlist, "banlist_effective": h.banlist_effective,
            "banlist_reason": h.banlist_reason, "cards": h.cards,
            "regulation": h.regulation, "stage": h.stage, "lang": h.lang}


def _summary(noun: str, report: Report) -> dict[str, Any]:
    total, legal = report.items.height, report.statuses["legal"]
    return {noun: total, "legal": legal, "illegal": total - legal,
            "violations_by_code": report.counts}


def report_dict(report: Report) -> dict[str, Any]:
    """The report as Python data (no timestamps: stable for diffs and golden tests)."""
    return dict(orjson.loads(report_bytes(report)))


def report_bytes(report: Report) -> bytes:
    """The report's bytes: one object per deck (check) or registered player (event)."""
    return b"".join(report_pieces(report))


def report_pieces(report: Report) -> Iterator[bytes]:
    """The report in pieces of bytes, made a few at a time as they are taken (to be written
    one after another: the memory taken is that of a few pieces)."""
    return _check_pieces(report) if report.kind == "check" else _event_pieces(report)


def _check_pieces(report: Report) -> Iterator[bytes]:
    """The check report: one object per deck."""
    fuzzy = _python_texts(report.fuzzy, "json_fuzzy", _ITEM_DEPTH + 1)
    table = report.items.join(fuzzy, left_on="deck_id", right_on="key", how="left",
                              maintain_order="left")
    compared = report.header.comparison is not None
    decks = _items(table, [
        ("deck_id", _escaped(pl.col("deck_id"))), ("source", _escaped(pl.col("source"))),
        ("legal", _json_text("legal", pl.Boolean())), ("counts", _counts_text("")),
        *_judged_fields(with_decisions=False)], report.violations,
        (*VIOLATION_FIELDS, "on") if compared else VIOLATION_FIELDS, report.verdicts)
    return _with_items({
        **_header(report),
        "duel": report.header.duel,
        "comparison": report.header.comparison,
        "decks": _ITEMS,
        "summary": _summary("decks", report),
        "statuses": report.statuses,
        "warnings": [str(w) for w in report.warnings],
        "localized_warnings": [problem_line(w, report.header.lang) for w in report.warnings],
    }, decks)


def _event_pieces(report: Report) -> Iterator[bytes]:
    """The event report: one object per registered player, their list's and deck's
    violations together (``on``), the problems met reading the inputs, the decisions."""
    fuzzy = _python_texts(report.fuzzy, "json_fuzzy", _ITEM_DEPTH + 1)
    decided = {player: [d.json() for d in made] for player, made in report.decided().items()}
    decisions = _python_texts(decided, "json_decisions", _ITEM_DEPTH + 1)
    table = (report.items.join(fuzzy, left_on="player_id", right_on="key", how="left",
                               maintain_order="left")
             .join(decisions, left_on="player_id", right_on="key", how="left",
                   maintain_order="left"))
    deck_counts = pl.when(pl.col("deck_main").is_null()).then(pl.lit("null")).otherwise(
        _counts_text("deck_"))
    players = _items(table, [
        ("player_id", _escaped(pl.col("player_id"))),
        ("player_name", _escaped(pl.col("player_name"))),
        *[(c, _json_text(c, pl.Boolean())) for c in ("legal", "list_legal", "deck_legal")],
        ("list_counts", _counts_text("list_")), ("deck_counts", deck_counts),
        ("deck_source", _escaped(pl.col("deck_source"))),
        *_judged_fields(with_decisions=True)], report.violations, ("on", *VIOLATION_FIELDS),
        report.verdicts)
    return _with_items({
        **_header(report),
        "players": _ITEMS,
        "problems": [{"file": p.file, "line": p.line, "where": p.column, "code": p.code,
                      "message": p.message,
                      "localized_message": problem_text(p, report.header.lang)}
                     for p in sorted(report.problems)],
        "unmatched_decks": report.unmatched_decks,
        "players_without_deck": report.players_without_deck,
        "decisions": [d.json() for d in report.decisions],
        "summary": {**_summary("players", report), "problems": len(report.problems)},
        "statuses": report.statuses,
        "warnings": [str(w) for w in report.warnings],
        "localized_warnings": [problem_line(w, report.header.lang) for w in report.warnings],
    }, players)
