from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import shared_path
from tests.datafiles import refused_fields
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.resolve import nicknames, resolve
from validator.inputs.decks.textlist import parse_text_list
from validator.inputs.entries import entries_frame


def _names(*names: str) -> pl.DataFrame:
    return entries_frame([{"deck_id": "d", "section": "main", "name": n, "qty": 1,
                           "line": i + 1} for i, n in enumerate(names)])


def _resolved(cards: CardDB, *names: str) -> dict[str, dict[str, object]]:
    out = resolve(_names(*names), cards, load_format("advanced-tcg"))
    return {row["name"]: row for row in out.iter_rows(named=True)}


def test_typo_gets_a_suggestion_but_is_not_accepted(demo_db: CardDB) -> None:
    row = _resolved(demo_db, "Ash Blosom")["Ash Blosom"]
    assert row["status"] == "unresolved"
    assert row["card_id"] is None
    assert row["suggestions"][0] == "Ash Blossom & Joyous Spring"  # type: ignore[index]


def test_dark_magician_never_becomes_dark_magician_girl(demo_db: CardDB) -> None:
    rows = _resolved(demo_db, "Dark Magician", "dark magician", "Dark Magician Gir")
    dark_magician = demo_db.printings.filter(pl.col("passcode") == 46986414)["card_id"][0]
    girl = demo_db.printings.filter(pl.col("name_en") == "Dark Magician Girl")["card_id"][0]
    assert rows["Dark Magician"]["card_id"] == dark_magician
    assert rows["dark magician"]["card_id"] == dark_magician
    assert rows["Dark Magician Gir"]["card_id"] in (None, girl)
    assert rows["Dark Magician Gir"]["card_id"] != dark_magician


def test_japanese_and_korean_names_resolve_to_the_english_card(ygojson_db: CardDB) -> None:
    rows = _resolved(ygojson_db, "Ash Blossom & Joyous Spring", "灰流うらら", "하루 우라라",
                     "ブラック・マジシャン", "블랙 매지션", "Dark Magician")
    assert rows["灰流うらら"]["card_id"] == rows["Ash Blossom & Joyous Spring"]["card_id"]
    assert rows["하루 우라라"]["card_id"] == rows["Ash Blossom & Joyous Spring"]["card_id"]
    assert rows["ブラック・マジシャン"]["card_id"] == rows["Dark Magician"]["card_id"]
    assert rows["블랙 매지션"]["card_id"] == rows["Dark Magician"]["card_id"]
    assert all(r["status"] == "ok" for r in rows.values())


def test_near_identical_typo_is_accepted_and_marked_fuzzy(demo_db: CardDB) -> None:
    row = _resolved(demo_db, "Infinite Impermenance")["Infinite Impermenance"]
    assert (row["status"], row["how"], row["card_id"]) == ("ok", "fuzzy", 10045474)


def test_passcodes_known_and_unknown(demo_db: CardDB) -> None:
    entries = entries_frame([
        {"deck_id": "d", "section": "main", "passcode": 46986421, "qty": 1},
        {"deck_id": "d", "section": "main", "passcode": 12, "qty": 1}])
    out = resolve(entries, demo_db)
    assert out.select("card_id", "status").rows() == [(36996508, "ok"), (None, "unknown")]


def test_no_row_is_lost(demo_db: CardDB) -> None:
    names = ["Ash Blossom & Joyous Spring", "Ash Blosom", "Pot of Greed", "zzzz", "灰流うらら",
             "Nope Nope Nope"]
    out = resolve(_names(*names), demo_db)
    assert out.height == len(names)
    resolved = out.filter(pl.col("status") == "ok").height
    reported = out.filter(pl.col("status") != "ok").height
    assert resolved + reported == len(names)
    assert resolved == 3


def _typed(names: list[str], slot: str | None = None) -> pl.DataFrame:
    return entries_frame([{"deck_id": "d", "section": "main", "name": n, "qty": 1,
                           "line": i + 1, "slot": slot} for i, n in enumerate(names)])


def _raw_names() -> pl.DataFrame:
    """Every printed name of every YGOJSON card with a passcode, read from the file itself:
    (passcodes of the entry, lang, name, region the card fits)."""
    rows = []
    for card in json.loads(shared_path("ygojson", "cards.json").read_text()):
        codes = sorted({int(m.group()) for p in card.get("passwords") or []
                        if (m := re.match(r"\d+", p))})
        if not codes or card["cardType"] not in ("monster", "spell", "trap"):
            continue
        tcg = (card.get("legality") or {}).get("tcg") or {}
        region = "tcg" if tcg.get("current") not in (None, "unreleased") else "ocg"
        for lang, text in card["text"].items():
            if text.get("name"):
                rows.append((codes, lang, unicodedata.normalize("NFC", text["name"].strip()),
                             region))
    return pl.DataFrame(rows, schema={"codes": pl.List(pl.Int64), "lang": pl.Utf8,
                                      "name": pl.Utf8, "region": pl.Utf8}, orient="row")


#: Two different cards printing the same name in one language (Unicode NFC): no reading can
#: tell them apart, so each is ambiguous and the message names both cards.
TRUE_TIES = 8
#: A text that is one card's name in one language and another card's in another: the name
#: printed in the earlier language (en, ja, ko, zh, fr, de, it, es, pt) is read, so the text
#: names the other card only for its later language.
SHADOWED = [("Doppelganger", "it"), ("Melffys Alegres", "pt")]


def test_every_printed_name_in_every_language_resolves(real_db: CardDB) -> None:
    raw = _raw_names()
    ties = (raw.group_by("lang", "name").agg(pl.col("codes").unique())
            .filter(pl.col("codes").list.len() > 1).sort("lang", "name"))
    for lang, name, cards in ties.iter_rows():
        print(f"true tie ({lang}) {name!r}: {cards}")
    assert ties.height == TRUE_TIES
    tied = set(ties.select("lang", "name").iter_rows())
    card_of = dict(real_db.printings.select("passcode", "card_id").drop_nulls().iter_rows())
    failures = []
    for region, fmt_name in (("tcg", "advanced-tcg"), ("ocg", "advanced-ocg")):
        part = raw.filter(pl.col("region") == region)
        out = resolve(_typed(part["name"].to_list()), real_db, load_format(fmt_name))
        for (codes, lang, name, _), got in zip(part.iter_rows(), out["card_id"], strict=True):
            # an entry whose passcode YGOJSON also gives another card still owns the rest
            if got not in {card_of[c] for c in codes} and (lang, name) not in tied:
                failures.append((name, lang))
    print("shadowed:", sorted(set(failures)))
    assert sorted(set(failures)) == SHADOWED
    assert raw.height > 100_000  # every language of every card was typed


def test_a_true_tie_names_both_cards(real_db: CardDB) -> None:
    out = resolve(_typed(["펭귄 용자"]), real_db, load_format("advanced-tcg"))
    row = out.row(0, named=True)
    assert (row["status"], row["ambiguous"]) == ("unresolved", True)
    assert len(row["suggestions"]) == 2
    assert all("(" in s for s in row["suggestions"])  # each with its passcode


def test_every_rush_name_resolves_in_rush(rush_db: CardDB) -> None:
    names = rush_db.names.join(rush_db.by_card.select("card_id", "kind"), on="card_id")
    out = resolve(_typed(names["name"].to_list()), rush_db, load_format("rush"))
    assert out["card_id"].to_list() == names["card_id"].to_list()
    assert names.height > 3400


@pytest.mark.parametrize("name", ["Call of the Haunted", "Destiny Draw", "Double Evolution Pill",
                                  "Zombie Master", "Heavy Metal Raiders",
                                  "Cocoon of Ultra Evolution"])
def test_a_real_card_beats_a_skill_of_the_same_name(real_db: CardDB, name: str) -> None:
    out = resolve(_typed([name]), real_db, load_format("advanced-tcg"))
    row = out.join(real_db.by_card.select("card_id", "kind"), on="card_id").row(0, named=True)
    assert row["status"] == "ok"
    assert row["kind"] in ("monster", "spell", "trap")


def test_in_speed_a_name_in_the_skill_slot_is_the_skill(real_db: CardDB) -> None:
    deck = parse_text_list("Skill:\nCall of the Haunted\nTrap:\n3 Call of the Haunted\n",
                           "speed.txt", "d")
    out = resolve(deck, real_db, load_format("speed")).join(
        real_db.by_card.select("card_id", "kind"), on="card_id", how="left")
    assert out["kind"].cast(pl.Utf8).to_list() == ["skill", "trap"]


def test_stubs_sharing_a_passcode_are_one_card(real_db: CardDB) -> None:
    # YGOJSON lists 20726052 twice: "Maliss C GWC-06" (English only) and the full entry
    names = ["Maliss C GWC-06", "Maliss <C> GWC-06", "Ｍ∀ＬＩＣＥ＜Ｃ＞ＧＷＣ－０６"]
    out = resolve(_typed(names), real_db, load_format("advanced-tcg"))
    assert out["card_id"].to_list() == [20726052] * 3


@pytest.mark.parametrize(("typed", "card"), [
    ("Imperm", "Infinite Impermanence"), ("Called by", "Called by the Grave"),
    ("Nib", "Nibiru, the Primal Being"), ("TTT", "Triple Tactics Talent"),
    ("ash", "Ash Blossom & Joyous Spring")])
def test_nicknames_are_suggested_first_never_read(real_db: CardDB, typed: str,
                                                  card: str) -> None:
    row = resolve(_typed([typed]), real_db, load_format("advanced-tcg")).row(0, named=True)
    assert row["status"] == "unresolved"
    assert row["suggestions"][0] == card


def test_a_number_is_a_passcode_unless_no_card_has_it(real_db: CardDB) -> None:
    deck = parse_text_list("1 7\n3 14558127\n", "d.txt", "d")
    out = resolve(deck, real_db, load_format("advanced-tcg")).join(
        real_db.by_card.select("card_id", "name_en"), on="card_id", maintain_order="left")
    assert out["name_en"].to_list() == ["7", "Ash Blossom & Joyous Spring"]


def test_every_shipped_nickname_names_a_real_card(real_db: CardDB) -> None:
    table = nicknames()
    assert table["imperm"] == "Infinite Impermanence"
    names = set(real_db.printings["name_en"].drop_nulls().to_list())
    assert sorted(set(table.values()) - names) == []


@pytest.mark.parametrize(("edit", "fields"), [
    (('"imperm" = "Infinite Impermanence"', '"imperm" = 3'), {"nicknames.imperm"}),
    (('"imperm" = "Infinite Impermanence"', '"imperm" = "Infinite Impermanence"\n'
                                            '"IMPERM!" = "Imperial Order"'),
     {"nicknames.IMPERM!"}),
    (('"imperm" = "Infinite Impermanence"', '"imperm" = "Infinite Impermanence"\n'
                                            '"--" = "Imperial Order"\n"void" = " "'),
     {"nicknames.--", "nicknames.void"}),
    (("[nicknames]", "[nicknames.staples]"), {"nicknames.staples"}),
    (("[nicknames]", "[nick_names]"), {"nicknames", "nick_names"}),
])
def test_a_malformed_nicknames_file_is_refused_naming_file_and_field(
        tmp_path: Path, edit: tuple[str, str], fields: set[str]) -> None:
    assert refused_fields("nicknames.toml", edit, nicknames, tmp_path) == fields


def test_main_and_extra_given_as_one_are_split_by_the_cards_kind(demo_db: CardDB) -> None:
    """An Omega code's entries: Extra Deck monsters go to the extra deck, other cards and
    unknown passcodes stay in the main deck; entries of other slots are left alone."""
    entries = entries_frame([
        {"deck_id": "d", "section": "main", "passcode": 2857636, "qty": 1,  # Knightmare Phoenix
         "slot": "main_or_extra"},
        {"deck_id": "d", "section": "main", "passcode": 14558127, "qty": 3,
         "slot": "main_or_extra"},
        {"deck_id": "d", "section": "main", "passcode": 12, "qty": 1, "slot": "main_or_extra"},
        {"deck_id": "d", "section": "main", "passcode": 2857636, "qty": 1},  # as typed: kept
        {"deck_id": "d", "section": "side", "passcode": 2857636, "qty": 1}])
    out = resolve(entries, demo_db, load_format("advanced-tcg"))
    assert out.select(pl.col("section").cast(pl.Utf8), "passcode", "status").rows() == [
        ("extra", 2857636, "ok"), ("main", 14558127, "ok"), ("main", 12, "unknown"),
        ("main", 2857636, "ok"), ("side", 2857636, "ok")]


def test_fuzzy_readings_are_made_once_per_card_data(demo_db: CardDB,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A page or a judge's check resolves the same misspelt names again: the reading is
    kept, the same as the first, and other card data gets readings of its own."""
    import validator.engine.resolve as module

    first = _resolved(demo_db, "Ash Blosom", "Pot of Greed")
    calls: list[list[str]] = []
    made = module._fuzzy

    def counted(missing: list[str], names: pl.DataFrame, table: pl.DataFrame) -> (
            pl.DataFrame):
        calls.append(missing)
        return made(missing, names, table)

    monkeypatch.setattr(module, "_fuzzy", counted)
    again = _resolved(demo_db, "Ash Blosom", "Pot of Greed")
    assert again == first
    assert calls == []
    other = CardDB(demo_db.printings.clone())
    assert _resolved(other, "Ash Blosom")["Ash Blosom"]["suggestions"] == \
        first["Ash Blosom"]["suggestions"]
    assert len(calls) == 1


def _names_read(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The distinct names the resolver reads from now on, call by call."""
    import validator.engine.resolve as module

    asked: list[list[str]] = []
    read = module._read_names

    def counted(distinct: pl.DataFrame, cards: CardDB, admits: module.Admits) -> (
            pl.DataFrame):
        asked.append(distinct["name"].to_list())
        return read(distinct, cards, admits)

    monkeypatch.setattr(module, "_read_names", counted)
    return asked


def test_each_typed_name_is_read_once_per_card_data(demo_db: CardDB,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Only names not read before are looked up; the rest read as they did the first time."""

    first = _resolved(demo_db, "Raigeki", "pot of greed", "Ash Blosom")
    asked = _names_read(monkeypatch)
    new = "raigeki (once per card data)"  # a name no other test reads
    again = _resolved(demo_db, "Raigeki", "pot of greed", "Ash Blosom", new)
    assert {name: again[name] for name in first} == first
    assert asked == [[new]]
    assert again[new]["status"] == "unresolved"


@pytest.mark.parametrize("queries", [["13243124", "89631139"],  # unknown passcodes' digits
                                     ["ashblosom", "potofgreedd", "金満で謙虚な壺x"],
                                     ["pot of greed", "raigeki"]])  # whitespace: every key
def test_the_loose_similarity_is_that_of_every_key(real_db: CardDB,
                                                  queries: list[str]) -> None:
    """Comparing a name only with the keys that share a character with it scores every key
    as comparing it with all of them does."""
    import numpy as np
    from rapidfuzz import fuzz, process

    import validator.engine.resolve as module

    lookup = module._lookup(real_db)
    keys = module._choices(lookup.names, module._table(real_db, module.Admits.of(
        load_format("advanced-tcg"))))[0]
    found = module._loose(queries, keys)
    every = process.cdist(queries, keys, scorer=fuzz.WRatio, dtype=np.uint8, workers=-1)
    assert (every > 0).sum() > 0
    assert np.array_equal(found, every)


@pytest.mark.parametrize("most", [1, 3, 20])
def test_the_highest_scores_are_the_first_of_a_stable_sort(most: int) -> None:
    import numpy as np

    import validator.engine.resolve as module

    rng = np.random.default_rng(7)
    for size in (1, 5, 40, 3000):
        for top in (2, 30, 101):  # many ties, few ties
            row = rng.integers(0, top, size).astype(np.uint8)
            expected = np.argsort(-row.astype(np.int16), kind="stable")[:most]
            assert len(expected) == min(size, most)
            assert np.array_equal(module._highest(row, most), expected)


def test_readings_kept_from_another_process_are_not_read_again(
        demo_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    """The readings one process made, kept by another resolving against the same card
    data: the names are not read again, and read the same."""
    from validator.engine.resolve import keep_readings, readings

    fmt = load_format("advanced-tcg")
    typed = ("Raigeki", "Ash Blosom", "pot of greed")
    first = _resolved(demo_db, *typed)
    made = readings(demo_db, fmt)
    assert {name for name, _ in made[0]} >= set(typed)
    other = CardDB(demo_db.printings.clone())  # card data of its own, as in another process
    keep_readings(other, fmt, made)
    asked = _names_read(monkeypatch)
    assert _resolved(other, *typed) == first
    assert asked == []


@pytest.mark.parametrize("few", [0, 2_000])  # by a join, by a dict
def test_passcodes_are_looked_up_in_the_entries_order(demo_db: CardDB, few: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry's passcode names its card (none for an unknown or missing passcode), row
    for row, whatever the order and however the entries are split into chunks."""
    import validator.engine.resolve as module

    monkeypatch.setattr(module, "_FEW", few)

    known = demo_db.printings["passcode"].drop_nulls().head(3).to_list()
    codes = [known[2], None, 12, known[0], known[2], known[1], None]
    entries = pl.concat([entries_frame([{"deck_id": "d", "section": "main", "passcode": code,
                                         "qty": 1}]) for code in codes], rechunk=False)
    by_code = dict(demo_db.printings.select("passcode", "card_id").drop_nulls().iter_rows())
    found = module._code_ids(entries, demo_db)["code_id"].to_list()
    assert found == [by_code.get(code) for code in codes]
    assert found[1] is None
    assert found[2] is None
    assert found[0] is not None


@pytest.mark.parametrize("typed", [True, False])  # names and passcodes; passcodes only
def test_a_few_entries_read_as_many_do(real_db: CardDB, typed: bool,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's few entries, their readings put beside them row by row, read as the same
    entries do among many (joined by distinct name)."""
    from polars.testing import assert_frame_equal

    import validator.engine.resolve as module

    rows: list[dict[str, object]] = [
        {"deck_id": "d", "section": "main", "passcode": 89631139, "qty": 3, "line": 1},
        {"deck_id": "d", "section": "main", "passcode": 12, "qty": 1, "line": 2},
        {"deck_id": "d", "section": "extra", "passcode": 1861629, "qty": 1, "line": 3,
         "slot": "main_or_extra"}]
    if typed:
        rows += [{"deck_id": "d", "section": "main", "name": name, "qty": 1, "line": 4 + i,
                  "slot": slot} for i, (name, slot) in enumerate(
                      [("Raigeki", None), ("Ash Blosom", None), ("Raigeki", "spell"),
                       ("13243124", None), ("Dark Magician", "monster"), ("Raigeki", None),
                       ("no such card at all", None)])]
    entries = entries_frame(rows)
    fmt = load_format("advanced-tcg")
    monkeypatch.setattr(module, "_FEW", 0)
    many = resolve(entries, real_db, fmt)
    monkeypatch.setattr(module, "_FEW", 2_000)
    few = resolve(entries, real_db, fmt)
    assert few.height == entries.height
    assert few["status"].cast(pl.Utf8).to_list().count("ok") >= 2
    assert_frame_equal(few, many)


def _varied_entries() -> pl.DataFrame:
    """Entries of every kind a reader gives: passcodes known and not, names read exactly,
    by key, fuzzily, as a tie or not at all, a number typed as a name, slots given."""
    rows: list[dict[str, object]] = [
        {"deck_id": "d", "section": "main", "passcode": 89631139, "qty": 3, "line": 1},
        {"deck_id": "d", "section": "main", "passcode": 12, "qty": 1, "line": 2},
        {"deck_id": "d", "section": "main", "passcode": 1861629, "qty": 1, "line": 3,
         "slot": "main_or_extra"},
        {"deck_id": "d", "section": "main", "passcode": 14558127, "qty": 1, "line": 4,
         "slot": "main_or_extra"},
        {"deck_id": "e", "section": "side", "passcode": 13243124, "name": "13243124",
         "qty": 1, "line": 5}]
    rows += [{"deck_id": "e", "section": "main", "name": name, "qty": 2, "line": 6 + i,
              "slot": slot} for i, (name, slot) in enumerate(
                  [("Raigeki", None), ("Ash Blosom", None), ("raigeki", "spell"),
                   ("Ash Blossom & Joyous Sprng", None), ("Dark Magician", "monster"),
                   ("no such card at all", None), ("Call of the Haunted", "skill"),
                   ("", None), ("7", None)])]
    return entries_frame(rows)


def test_a_few_entries_planned_read_as_resolve_reads_them(real_db: CardDB) -> None:
    """``resolve_few``'s plan holds the very frame ``resolve`` gives, and each entry's card."""
    from polars.testing import assert_frame_equal

    from validator.engine.resolve import resolve_few

    entries = _varied_entries()
    for fmt in (load_format("advanced-tcg"), load_format("speed"), None):
        plan, card_ids = resolve_few(entries, real_db, fmt)
        expected = resolve(entries, real_db, fmt)
        assert_frame_equal(plan.collect(), expected)
        assert card_ids == expected["card_id"].to_list()
    statuses = set(expected["status"].cast(pl.Utf8).to_list())
    assert statuses == {"ok", "unknown", "unresolved"}
    assert "fuzzy" in expected["how"].cast(pl.Utf8).to_list()
    assert expected["section"].cast(pl.Utf8).to_list()[2] == "extra"  # split by its kind


def test_a_few_entries_without_names_or_slots_are_planned_as_resolved(demo_db: CardDB) -> None:
    from polars.testing import assert_frame_equal

    from validator.engine.resolve import resolve_few

    entries = pl.DataFrame({"deck_id": ["d", "d"], "section": ["main", "side"],
                            "passcode": [14558127, 12], "qty": [3, 1]},
                           schema_overrides={"section": entries_frame([]).schema["section"],
                                             "qty": pl.Int32})
    plan, card_ids = resolve_few(entries, demo_db, load_format("advanced-tcg"))
    assert_frame_equal(plan.collect(), resolve(entries, demo_db, load_format("advanced-tcg")))
    assert card_ids[0] is not None
    assert card_ids[1] is None


@pytest.mark.parametrize("few", [0, 2_000])  # by the joins, by a dict and a join
def test_positions_are_the_cards_rows_and_change_no_reading(
        real_db: CardDB, few: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``positions``, each entry's ``card_at`` is its card's row in ``by_card`` (null
    without a card), and every other column is what ``resolve`` gives without it."""
    from polars.testing import assert_frame_equal

    import validator.engine.resolve as module

    monkeypatch.setattr(module, "_FEW", few)
    entries = _varied_entries()
    for fmt in (load_format("advanced-tcg"), load_format("speed"), None):
        placed = resolve(entries, real_db, fmt, positions=True)
        assert_frame_equal(placed.drop("card_at"), resolve(entries, real_db, fmt))
        at = placed["card_at"]
        assert at.dtype == pl.UInt32
        assert at.is_null().to_list() == placed["card_id"].is_null().to_list()
        ids = real_db.by_card["card_id"]
        assert [None if i is None else ids[i] for i in at.to_list()] \
            == placed["card_id"].to_list()
    how = placed["how"].cast(pl.Utf8).to_list()
    assert {"passcode", "name", "fuzzy"} <= set(how)


def test_positions_of_entries_given_by_passcode_only(demo_db: CardDB) -> None:
    known = demo_db.printings["passcode"].drop_nulls().head(2).to_list()
    entries = entries_frame([{"deck_id": "d", "section": "main", "passcode": code, "qty": 1}
                             for code in [known[1], 12, known[0]]])
    placed = resolve(entries, demo_db, positions=True)
    ids = demo_db.by_card["card_id"]
    at = placed["card_at"].to_list()
    assert at[1] is None
    assert [ids[at[0]], ids[at[2]]] == [placed["card_id"][0], placed["card_id"][2]]
    assert placed["card_id"][0] is not None


@pytest.mark.parametrize("positions", [False, True])
def test_many_entries_by_passcode_only_resolve_as_beside_a_typed_name(
        real_db: CardDB, positions: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries that give no name (a YDK event) are read apart from the name lookups: the
    same rows, columns and types as when one entry beside them gives a name."""
    from polars.testing import assert_frame_equal

    import validator.engine.resolve as module

    monkeypatch.setattr(module, "_FEW", 0)  # many entries, whatever their number
    stubs = real_db.printings.group_by("passcode").len().filter(pl.col("len") > 1)
    shared = stubs["passcode"].drop_nulls().head(1).to_list()  # two printings, one passcode
    codes = [89631139, 12, None, 1861629, 14558127, 13243124, *shared]
    entries = entries_frame([
        {"deck_id": "d", "section": "side" if i == 1 else "main", "passcode": code,
         "qty": 1, "line": i + 1, "slot": "main_or_extra" if code in (1861629, 14558127)
         else None} for i, code in enumerate(codes)])
    named = pl.concat([entries, entries_frame([{"deck_id": "d", "section": "main",
                                                 "name": "Raigeki", "qty": 1}])])
    for fmt in (load_format("advanced-tcg"), None):
        alone = resolve(entries, real_db, fmt, positions=positions)
        assert_frame_equal(alone, resolve(named, real_db, fmt, positions=positions)
                           .head(entries.height))
    statuses = alone["status"].cast(pl.Utf8).to_list()
    assert {"ok", "unknown", "unresolved"} <= set(statuses)
    # main and extra given as one: an Extra Deck monster goes to the extra deck
    assert alone["section"].cast(pl.Utf8).to_list()[3:5] == ["extra", "main"]
