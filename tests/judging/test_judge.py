"""A judge's deck check: a pasted deck is read as a submitted deck file is."""

from __future__ import annotations

import polars as pl
import pytest

from validator.cards.db import CardDB
from validator.errors import InputError
from validator.judging.judge import card_names, found_deck, unknown_names


@pytest.mark.parametrize("head", ["", "\ufeff", "#created by a deck builder\n", "#MAIN\n"])
def test_a_pasted_ydk_keeps_its_sections(head: str) -> None:
    text = f"{head}#main\n89631139\n#extra\n1861629\n!side\n46986414\n"
    deck = found_deck("P1", {}, [], pasted=text)
    assert deck.select(pl.col("section").cast(pl.Utf8), "passcode").rows() == [
        ("main", 89631139), ("extra", 1861629), ("side", 46986414)]


def test_a_pasted_text_list_and_a_bad_line() -> None:
    deck = found_deck("P1", {}, [], pasted="Main\n3 Raigeki\nExtra\n1 Accesscode Talker\n")
    assert deck.select(pl.col("section").cast(pl.Utf8), "name", "qty").rows() == [
        ("main", "Raigeki", 3), ("extra", "Accesscode Talker", 1)]
    with pytest.raises(InputError):
        found_deck("P1", {}, [], pasted="#main\n89631139\nnot a passcode\n")


def test_a_pasted_deck_code_is_read_as_a_deck() -> None:
    from validator.inputs.decks.codes import to_mycard, to_omega

    omega = found_deck("P1", {}, [], pasted=to_omega([89631139] * 40, [1861629], []))
    assert omega.select(pl.col("section").cast(pl.Utf8), pl.col("slot").cast(pl.Utf8),
                        "passcode").unique().sort("passcode").rows() == [
        ("main", "main_or_extra", 1861629), ("main", "main_or_extra", 89631139)]
    mycard = found_deck("P1", {}, [], pasted=to_mycard([89631139] * 40, [1861629], []))
    assert mycard.group_by(pl.col("section").cast(pl.Utf8)).agg(pl.col("qty").sum()).sort(
        "section").rows() == [("extra", 1), ("main", 40)]
    with pytest.raises(InputError):
        found_deck("P1", {}, [], pasted="A" * 60)


def test_typed_names_that_read_as_no_card_are_found_with_the_nearest() -> None:
    from validator.cards.store import demo_cards

    unknown = unknown_names(["Ash Blosom", "Raigeki", " ", "raigeki"], demo_cards(), None)
    assert list(unknown) == ["Ash Blosom"]
    assert unknown["Ash Blosom"][0] == "Ash Blossom & Joyous Spring"
    assert unknown_names([], demo_cards(), None) == {}


def test_card_names_start_with_what_was_typed_first() -> None:
    from validator.cards.store import demo_cards

    found = card_names(demo_cards(), "ASH", ("en",), limit=5)
    assert found[0] == "Ash Blossom & Joyous Spring"
    assert len(found) == 5
    assert all("ash" in name.lower() for name in found)
    assert card_names(demo_cards(), "  ", ("en",)) == []


def test_a_list_and_a_deck_resolved_together_read_as_each_alone(demo_db: CardDB) -> None:
    """The side-by-side resolves a list and a deck in one call: each reads as it does on its
    own (names, a typo, an unknown passcode, a main-or-extra slot)."""
    from polars.testing import assert_frame_equal

    from validator.cards.formats import load_format
    from validator.inputs.entries import entries_frame
    from validator.judging.judge import _resolved, _resolved_both

    fmt = load_format("advanced-tcg")
    listed = entries_frame([
        {"deck_id": "P1", "section": "main", "name": "Raigeki", "qty": 3, "line": 2},
        {"deck_id": "P1", "section": "main", "name": "Ash Blosom", "qty": 1, "line": 3},
        {"deck_id": "P1", "section": "side", "passcode": 12, "qty": 1, "line": 4}])
    deck = entries_frame([
        {"deck_id": "P1", "section": "main", "passcode": code, "qty": 1, "slot": slot}
        for code, slot in ((12580477, None), (2857636, "main_or_extra"), (12, None))])
    found = _resolved_both(listed, deck, demo_db, fmt)
    alone = (_resolved(listed, demo_db, fmt), _resolved(deck, demo_db, fmt))
    for together, itself in zip(found, alone, strict=True):
        assert together is not None
        assert together.height > 0
        assert_frame_equal(together, itself)
    assert _resolved_both(listed, None, demo_db, fmt)[1] is None


def test_a_few_entries_get_the_names_and_kinds_a_join_gives(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards' English names and kinds of a few resolved entries, looked up in a dict,
    are those of a join with every card (real decks, and a passcode no card has)."""
    from polars.testing import assert_frame_equal

    from tests.conftest import shared_path
    from validator.cards.formats import load_format
    from validator.inputs.decks.batch import read_deck_paths
    from validator.judging import judge

    fmt = load_format("advanced-tcg")
    paths: list[object] = [*sorted(shared_path("decks", "windbot").glob("*.ydk"))[:3]]
    entries = read_deck_paths(paths).entries
    entries = pl.concat([entries, entries.head(1).with_columns(pl.lit(1).cast(
        entries.schema["passcode"]).alias("passcode"))])
    few = judge._resolved(entries, ygojson_db, fmt)
    monkeypatch.setattr(judge, "_FEW", -1)
    joined = judge._resolved(entries, ygojson_db, fmt)
    assert few["name_en"].null_count() == few["card_id"].null_count() >= 1
    assert set(few["kind"].drop_nulls().cast(pl.Utf8)) >= {"monster", "spell"}
    assert_frame_equal(few, joined)


@pytest.mark.parametrize("at_once", [None, 300])
def test_every_decks_lines_made_at_once_are_each_decks_own(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch, at_once: int | None) -> None:
    """The lines of an event's lists made at once (resolved by a join, grouped in one pass)
    are, deck by deck, those of each list alone: every real deck, a name that names no
    single card and a passcode no card has among them; also when the decks are taken a
    few at a time and their rows are interleaved (each deck whole in one part)."""
    import validator.judging.judge as judge
    from tests.conftest import shared_path
    from validator.cards.formats import load_format
    from validator.inputs.decks.batch import read_deck_paths
    from validator.inputs.entries import entries_frame
    from validator.judging.judge import (
        _FEW,
        beside,
        grouped_lines,
        lines_of,
        registered_lines,
        side_by_side,
    )

    fmt = load_format("advanced-tcg")
    paths: list[object] = [*sorted(shared_path("decks").rglob("*.ydk"))]
    decks = read_deck_paths(paths).entries.with_columns(pl.col("deck_id").cast(pl.Utf8))
    odd = entries_frame([
        {"deck_id": "odd", "section": "main", "name": "Ash Blosom", "qty": 1, "line": 1},
        {"deck_id": "odd", "section": "main", "name": "Raigeki", "qty": 2, "line": 2},
        {"deck_id": "odd", "section": "side", "passcode": 1, "qty": 1, "line": 3},
        {"deck_id": "odd", "section": "main", "name": "Raigeki", "qty": 1, "line": 4}])
    entries = pl.concat([decks, odd.select(decks.columns).cast(decks.schema)])
    assert entries.height > _FEW  # the join's way, not the few entries' dict
    resolved = judge._resolved
    parts: list[int] = []

    def counted(part: pl.DataFrame, *args: object) -> pl.DataFrame:
        parts.append(part.height)
        return resolved(part, *args)  # type: ignore[arg-type]

    if at_once is not None:
        monkeypatch.setattr(judge, "LINES_AT_ONCE", at_once)
        entries = entries.sample(fraction=1.0, shuffle=True, seed=7)
    monkeypatch.setattr(judge, "_resolved", counted)
    grouped = grouped_lines(entries, ygojson_db, fmt)
    assert sum(parts) == entries.height
    assert (len(parts) > 5) == (at_once is not None)
    monkeypatch.setattr(judge, "_resolved", resolved)
    ids = entries["deck_id"].unique(maintain_order=True).to_list()
    assert len(ids) > 20
    for deck_id in ids:
        mine = entries.filter(pl.col("deck_id") == deck_id)
        alone = registered_lines(mine, ygojson_db, fmt)
        assert alone
        assert lines_of(grouped.filter(pl.col("deck_id") == deck_id), ygojson_db, fmt) == alone
    assert [line.qty for line in lines_of(grouped.filter(pl.col("deck_id") == "odd"),
                                          ygojson_db, fmt) if line.name == "Raigeki"] == [3]
    assert lines_of(None, ygojson_db, fmt) == lines_of(grouped.clear(), ygojson_db, fmt) == []
    listed = entries.filter(pl.col("deck_id") == ids[0])
    deck = listed.head(listed.height - 1)
    last = [line for line in registered_lines(listed, ygojson_db, fmt) if line.key][-1]
    violations = pl.DataFrame({"code": ["LIST_MISMATCH"], "section": [last.section],
                               "card_id": [last.key], "passcode": [None]},
                              schema_overrides={"card_id": pl.Int64, "passcode": pl.Int64})
    made = beside(registered_lines(listed, ygojson_db, fmt),
                  registered_lines(deck, ygojson_db, fmt), violations, ygojson_db)
    assert made == side_by_side(listed, deck, violations, ygojson_db, fmt)
    assert any(row.differs for row in made)
    assert all(row.deck is None for row in beside(registered_lines(listed, ygojson_db, fmt),
                                                  None, violations.clear(), ygojson_db))


#: the most column and literal expressions a judge's check of one real deck counted against
#: its list builds, engine and judgement together, once its card table and regulation were
#: used before (what no count changes is built once and kept), and the most polars passes
JUDGE_EXPRESSIONS = 240
JUDGE_PASSES = 4


@pytest.mark.parametrize("differs", [False, True])
def test_a_judge_s_check_on_a_warm_server_rebuilds_little(
        ygojson_db: CardDB, monkeypatch: pytest.MonkeyPatch, differs: bool) -> None:
    from tests.conftest import shared_path
    from tests.engine.test_check import _expressions, _passes
    from validator.cards.banlist import read_banlist
    from validator.cards.formats import load_format
    from validator.engine.tables import card_attributes
    from validator.inputs.decks.batch import read_deck_paths
    from validator.judging.judge import judge_check
    from validator.judging.penalties import load_policy
    from validator.report.model import judged_check

    banlist = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    fmt = load_format("advanced-tcg")
    table = card_attributes(ygojson_db, banlist, fmt)
    listed = read_deck_paths([shared_path("decks", "windbot", "AI_Zoodiac.ydk")])
    player = listed.ids[0]
    counts: dict[tuple[str, int], int] = {}
    for section, passcode, qty in listed.entries.select("section", "passcode", "qty").rows():
        counts[str(section), int(passcode)] = counts.get((str(section), int(passcode)), 0) + qty
    if differs:
        first = next(iter(counts))
        counts[first] += 1
    policy = load_policy("th")

    def judged() -> object:
        checked = judge_check(player, found_deck(player, counts, []), listed.entries,
                              cards=ygojson_db, fmt=fmt, banlist=banlist, stage="in-duel",
                              duel=1, attributes=table, counted=True)
        return judged_check(checked, policy, "in-duel", "en")

    for _ in range(2):  # the card table's and the regulation's first checks keep their parts
        judged()
    built, passes = _expressions(monkeypatch), _passes(monkeypatch)
    report = judged()
    codes = report.violations["code"].to_list()  # type: ignore[attr-defined]
    assert "FORBIDDEN_CARD" in codes
    assert ("LIST_MISMATCH" in codes) == differs
    assert report.verdicts.height == 1  # type: ignore[attr-defined]
    assert "col" in built
    assert len(built) <= JUDGE_EXPRESSIONS, len(built)
    assert 0 < len(passes) <= JUDGE_PASSES, passes
