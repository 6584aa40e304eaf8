"""``deckcheck convert``'s writers: every real deck through every format and back."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.check import check
from validator.engine.resolve import resolve
from validator.errors import InputError
from validator.inputs.decks.batch import DeckFiles, read_deck_paths
from validator.inputs.entries import entries_frame
from validator.inputs.registrations.read import read_registrations
from validator.sheets.convert import FORMATS, SUFFIXES, convert, text_list

FMT = load_format("advanced-tcg")


@pytest.fixture(scope="module")
def windbot() -> DeckFiles:
    files = read_deck_paths([shared_path("decks", "windbot")])
    assert len(files.ids) == 69
    assert files.problems == []
    return files


def _cards(entries: pl.DataFrame, cards: CardDB) -> Counter[tuple[str, str, int]]:
    """Each deck's (section, card or unknown passcode) copies, as the checks see them."""
    resolved = resolve(entries, cards, FMT)
    assert resolved.filter(pl.col("status") == "unresolved").is_empty()
    found: Counter[tuple[str, str, int]] = Counter()
    for deck, section, key, qty in resolved.select(
            pl.col("deck_id"), pl.col("section").cast(pl.Utf8),
            pl.coalesce("card_id", "passcode"), "qty").iter_rows():
        found[deck, section, key] += qty
    return found


def _verdicts(entries: pl.DataFrame, cards: CardDB, banlist: Banlist) -> tuple[
        list[tuple[str, str]], set[tuple[object, ...]]]:
    result = check(entries, cards=cards, fmt=FMT, banlist=banlist)
    decks = sorted(result.decks.select("deck_id", pl.col("status").cast(pl.Utf8)).iter_rows())
    found = set(result.violations.select(
        "deck_id", "code", pl.col("section").cast(pl.Utf8), pl.coalesce("card_id", "passcode"),
        "count").iter_rows())
    return decks, found


def _written(files: DeckFiles, to: str, cards: CardDB, folder: Path) -> Path:
    done, problems = convert(files.entries, files.ids, files.labels, to, cards, FMT)
    assert problems == []
    assert [d.deck_id for d in done] == files.ids
    folder.mkdir()
    for deck in done:
        (folder / f"{deck.deck_id}{SUFFIXES[to]}").write_bytes(deck.data)
    return folder


def _as_omega_says(entries: pl.DataFrame, cards: CardDB) -> pl.DataFrame:
    """The decks as an Omega code can hold them: a passcode the card data does not know
    cannot be told to be an Extra Deck monster, so it is in the main deck."""
    known = cards.printings["passcode"].implode()
    unknown_extra = (pl.col("section") == "extra") & ~pl.col("passcode").is_in(known)
    return entries.with_columns(pl.when(unknown_extra).then(pl.lit("main", pl.Enum(
        ["main", "extra", "side"]))).otherwise(pl.col("section")).alias("section"))


@pytest.mark.parametrize("to", FORMATS)
def test_every_real_deck_round_trips_through_every_format(
        to: str, windbot: DeckFiles, real_db: CardDB, tcg_list: Banlist, tmp_path: Path) -> None:
    """All 69 windbot decks → ``to`` → read back: the same cards in the same sections, and
    the same verdicts as their YDK in ``check`` (of an Omega code: with the 8 unknown
    passcodes of the extra decks in the main deck, where an Omega code reads them)."""
    folder = _written(windbot, to, real_db, tmp_path / to)
    expected = _as_omega_says(windbot.entries, real_db) if to == "omega" else windbot.entries
    if to == "pdf":
        read = read_registrations(folder)
        assert read.problems == []
        entries = read.entries
    else:
        back = read_deck_paths([folder])
        assert back.problems == []
        assert sorted(back.ids) == sorted(windbot.ids)
        entries = back.entries
    assert _cards(entries, real_db) == _cards(expected, real_db)
    assert _verdicts(entries, real_db, tcg_list) == _verdicts(expected, real_db, tcg_list)


def test_an_omega_code_of_a_real_deck_is_written_back_in_its_sections(
        windbot: DeckFiles, real_db: CardDB, tmp_path: Path) -> None:
    """Omega keeps no extra deck of its own: the split comes back from the card data."""
    folder = _written(windbot, "omega", real_db, tmp_path / "omega")
    again = read_deck_paths([folder])
    assert set(again.entries["slot"].drop_nulls().unique()) == {"main_or_extra"}
    assert set(again.entries["section"].unique()) == {"main", "side"}
    extra = resolve(again.entries, real_db, FMT).filter(pl.col("section") == "extra")
    known = resolve(windbot.entries, real_db, FMT).filter(
        (pl.col("section") == "extra") & (pl.col("status") == "ok"))
    assert extra["qty"].sum() == known["qty"].sum() > 800


def _deck(*rows: tuple[str, int, int]) -> pl.DataFrame:
    return entries_frame([{"deck_id": "p1", "section": s, "passcode": c, "qty": q}
                          for s, c, q in rows])


@pytest.mark.parametrize(("to", "passcode"), [("mycard", 300000001), ("mycard", 1 << 28),
                                              ("ygomobile", 504700001), ("ygomobile", 1 << 27)])
def test_a_passcode_wider_than_the_field_is_an_error(to: str, passcode: int,
                                                     demo_db: CardDB) -> None:
    done, problems = convert(_deck(("main", 14558127, 3), ("main", passcode, 1)), ["p1"],
                             {"p1": "p1.ydk"}, to, demo_db, FMT)
    assert done == []
    assert [(p.file, p.code) for p in problems] == [("p1.ydk", "CANNOT_WRITE")]
    assert str(passcode) in problems[0].message


def test_widest_passcodes_that_fit_are_written(demo_db: CardDB) -> None:
    for to, bits in (("mycard", 28), ("ygomobile", 27)):
        done, problems = convert(_deck(("main", (1 << bits) - 1, 1)), ["p1"], {}, to,
                                 demo_db, FMT)
        assert problems == []
        assert len(done) == 1


@pytest.mark.parametrize("section", ["extra", "side"])
def test_a_ygomobile_link_holds_at_most_15_entries_in_the_extra_and_side(
        section: str, demo_db: CardDB) -> None:
    fifteen = [(section, 10_000_000 + n, 1) for n in range(15)]
    done, problems = convert(_deck(*fifteen), ["p1"], {}, "ygomobile", demo_db, FMT)
    assert problems == []
    assert len(done) == 1
    done, problems = convert(_deck(*fifteen, (section, 20_000_000, 1)), ["p1"], {},
                             "ygomobile", demo_db, FMT)
    assert done == []
    assert len(problems) == 1
    assert "16" in problems[0].message


def test_a_name_that_names_no_card_cannot_be_written_as_passcodes(demo_db: CardDB) -> None:
    deck = entries_frame([{"deck_id": "p1", "section": "main", "name": "No Such Card",
                           "qty": 1}])
    for to in ("ydk", "ydke", "omega", "mycard", "ygomobile"):
        done, problems = convert(deck, ["p1"], {}, to, demo_db, FMT)
        assert done == []
        assert [p.code for p in problems] == ["CANNOT_WRITE"]
    done, problems = convert(deck, ["p1"], {}, "text", demo_db, FMT)
    assert problems == []
    assert b"No Such Card" in done[0].data


def test_an_unknown_format_is_an_input_error(demo_db: CardDB) -> None:
    with pytest.raises(InputError):
        convert(_deck(("main", 1, 1)), ["p1"], {}, "png", demo_db, FMT)


def test_text_list_names_in_another_language_read_back(windbot: DeckFiles,
                                                       real_db: CardDB) -> None:
    deck = windbot.entries.filter(pl.col("deck_id") == windbot.ids[0])
    text, _ = text_list(deck, real_db, FMT, lang="ja")
    assert any(ord(c) > 0x3000 for c in text)  # Japanese names written
    from validator.inputs.decks.textlist import read_text_list

    again, problems = read_text_list(text, "ja.txt", windbot.ids[0])
    assert problems == []
    assert _cards(again, real_db) == _cards(deck, real_db)
