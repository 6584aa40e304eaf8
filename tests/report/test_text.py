"""The terminal reports, written from the report model."""

from __future__ import annotations

import dataclasses
import io
import re

import polars as pl
import pytest
from rich.console import Console

from tests.conftest import shared_path
from tests.deckbuild import FORBIDDEN, LEGAL, SHORT, SWAPPED, UNSETTLED
from tests.report.conftest import Checked
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.check import check
from validator.inputs.decks.batch import read_deck_paths
from validator.judging.penalties import Policy, load_policy
from validator.report.model import Report, judged_check
from validator.report.text import (
    header_lines,
    print_text,
    report_bytes,
    report_text,
    text_lines,
)
from validator.vocab import Lang


def _blocks(lines: list[str]) -> dict[str, list[str]]:
    """The lines of each deck's block, by deck id."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if line == "" or line.startswith("\n"):
            current = blocks.setdefault(line.split()[0], []) if line.strip() else None
        elif current is not None and line.startswith("  "):
            current.append(line)
    return blocks


def test_the_summary_comes_first(judged: Report, th: Policy) -> None:
    lines = text_lines(judged)
    assert lines[0] == ("Advanced Format (TCG) — list Demo 2026.05 TCG (effective 2026-05-01; "
                        f"the demo list: no card data imported) — {th.title} — "
                        "compared with the registered lists")
    assert lines[1] == f"card data: {judged.header.cards}"
    assert lines[2] == "7 decks: 3 legal, 3 illegal, 1 need a head judge's decision"
    assert lines[3:6] == ["  MAIN_TOO_SMALL: 1", "  FORBIDDEN_CARD: 1", "  LIST_MISMATCH: 10"]


def test_only_decks_that_are_not_legal_unless_every_deck(judged: Report) -> None:
    shown = _blocks(text_lines(judged))
    assert set(shown) == {SWAPPED, FORBIDDEN, UNSETTLED, SHORT}
    every = _blocks(text_lines(judged, every_deck=True))
    assert set(every) == set(judged.items["deck_id"].to_list())
    assert every[LEGAL] == []  # a legal deck: its head line only


def test_each_block_gives_violations_verdict_and_remedies(judged: Report, th: Policy) -> None:
    blocks = _blocks(text_lines(judged))
    short = blocks[SHORT]
    assert short[0].split()[0] == "MAIN_TOO_SMALL"
    assert short[-3] == (f"  → Duel Forfeiture, applied to "
                         f"{th.applies_to('DUEL_FORFEITURE', 'pre-event', 'en')}")
    assert short[-2:] == [f"    • {th.remedies['match_list'].en}",
                          "    • Add 1 Raigeki to the main deck, as registered."]
    forbidden = blocks[FORBIDDEN]
    assert forbidden[0].startswith("  FORBIDDEN_CARD list: ")
    unsettled = blocks[UNSETTLED]
    assert any(line.endswith("[waits for the head judge's decision]") for line in unsettled)
    assert f"  → {th.text('decision', 'en')}" in unsettled


def test_a_deck_of_no_known_file_keeps_its_head_line(judged: Report) -> None:
    """A deck given as a table (no file): its block still starts with its own line, not
    its violations under the deck before it."""
    nameless = dataclasses.replace(judged, items=judged.items.with_columns(
        pl.lit(None, pl.Utf8).alias("source")))
    lines = text_lines(nameless)
    [head] = [line for line in lines if line.startswith(f"\n{SHORT}  ")]
    assert head.startswith(f"\n{SHORT}  (no deck file)  ILLEGAL  main ")
    assert set(_blocks(lines)) == set(_blocks(text_lines(judged)))


def test_codes_the_regulation_has_no_clause_for(checked: Checked) -> None:
    ja = load_policy("ja")
    report = judged_check(checked(2), ja, "in-duel", "en")
    lines = text_lines(report)
    assert lines[0].endswith("as in duel 2 (side deck exchanges allowed)")
    blocks = _blocks(lines)
    assert SWAPPED not in blocks
    no_clause = ja.text("no_clause", "en")
    assert f"  → also MAIN_TOO_SMALL: {no_clause}" in blocks[SHORT]
    assert f"  → FORBIDDEN_CARD: {no_clause}" in blocks[FORBIDDEN]


def test_the_text_writes_what_the_model_says(judged: Report) -> None:
    changed = dataclasses.replace(
        judged, header=dataclasses.replace(judged.header, format_title="My Format",
                                           decide="Ask the head judge."),
        verdicts=judged.verdicts.with_columns(pl.lit("Stern talk").alias("label")))
    lines = text_lines(changed)
    assert lines[0].startswith("My Format — ")
    blocks = _blocks(lines)
    assert "  → Ask the head judge." in blocks[UNSETTLED]
    assert blocks[SHORT][-3].startswith("  → Stern talk, applied to ")


def test_a_long_listing_ends_with_the_counts_again(judged: Report) -> None:
    short = text_lines(judged, every_deck=True)
    assert short[-1] != short[2]  # 7 blocks: no repeat
    twice = dataclasses.replace(judged, items=pl.concat([judged.items, judged.items]))
    lines = text_lines(twice, every_deck=True)
    assert lines[-1] == f"\n{lines[2]}"
    assert lines[2].startswith("14 decks: ")


@pytest.mark.parametrize("every_deck", [False, True])
@pytest.mark.parametrize("copies", [1, 2])  # twice: the counts repeated under the listing
def test_the_report_text_is_the_lines_each_ended(judged: Report, every_deck: bool,
                                                 copies: int) -> None:
    report = dataclasses.replace(judged, items=pl.concat([judged.items] * copies))
    lines = text_lines(report, every_deck=every_deck)
    assert len(lines) > 10
    assert report_text(report, every_deck=every_deck) == "\n".join(lines) + "\n"
    assert report_bytes(report, every_deck=every_deck) == ("\n".join(lines) + "\n").encode()


def test_the_report_text_of_an_all_legal_check_has_no_blocks(judged: Report) -> None:
    legal = dataclasses.replace(judged, items=judged.items.filter(pl.col("status") == "legal"))
    assert report_text(legal) == "\n".join(text_lines(legal)) + "\n"
    assert report_text(legal).count("\n") == len(text_lines(legal))


def test_print_text_writes_the_lines(judged: Report) -> None:
    screen = io.StringIO()
    print_text(judged, Console(file=screen), every_deck=True)
    assert screen.getvalue() == "\n".join(text_lines(judged, every_deck=True)) + "\n"


def _player_blocks(lines: list[str]) -> dict[str, list[str]]:
    """The lines of each player's block (its head line first), by player id."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if line.startswith("\n"):
            current = blocks.setdefault(line.split()[0], [line])
        elif current is not None and line.startswith("  "):
            current.append(line)
    return blocks


def test_the_event_has_the_check_header_and_a_block_per_player_not_legal(
        judged_players: Report, judged: Report) -> None:
    lines = text_lines(judged_players)
    assert lines[:2] == header_lines(judged_players) == header_lines(judged)
    assert lines[2] == ("6 players: 2 legal, 3 illegal, 1 need a head judge's decision, "
                        "0 not checked")
    blocks = _player_blocks(lines)
    players = judged_players.items
    assert set(blocks) == set(players.filter(~pl.col("legal"))["player_id"].to_list())
    ben = blocks["0400000002"]
    assert "ILLEGAL" in ben[0].split()
    assert sum(line.startswith("  LIST_MISMATCH ") for line in ben) >= 1
    assert any(line.startswith("  → ") for line in ben)
    assert any(line.startswith("    • ") for line in ben)
    every = _player_blocks(text_lines(judged_players, every_deck=True))
    assert set(every) == set(players["player_id"].to_list())


def test_a_player_whose_deck_was_not_checked(judged_players: Report) -> None:
    first = judged_players.items["player_id"][0]
    items = judged_players.items.with_columns(
        pl.when(pl.col("player_id") == first).then(pl.lit("not_checked"))
        .otherwise(pl.col("status").cast(pl.Utf8)).alias("status"))
    report = dataclasses.replace(judged_players, items=items)
    block = _player_blocks(text_lines(report))[first]
    assert "NOT CHECKED" in block[0]
    assert block[1].startswith("  → deck not checked")


#: words the regulations themselves use untranslated (the th regulation names its penalties
#: and Deck List in English), and names: a region, the list, the commands to run
_KEPT_WORDS = re.compile(r"Duel Forfeiture|Match Forfeiture|Deck List|Judge|Match|Forbidden|"
                         r"Semi-Limited|Limited|Legend|Rush Duel|Total Disqualification|"
                         r"Caution|Warning|Disqualification|2026\.05 TCG|`[^`]*`|[\w.-]+\.(?:"
                         r"json|cdb|ydk)\b|\bTCG\b|\bOCG\b")
_ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}")


@pytest.mark.parametrize("lang", ["ja", "ko", "th"])
def test_the_real_decks_are_reported_in_the_language(real_db: CardDB, tcg_list: Banlist,
                                                     lang: Lang) -> None:
    """The 69 WindBot decks: each violation names its card by its name in the language (the
    card data's; English in Thai, which the data has no names in), and no English phrase
    remains in a violation, verdict or remedy line."""
    files = read_deck_paths([shared_path("decks", "windbot")])
    result = check(files.entries, cards=real_db, fmt=load_format("advanced-tcg"),
                   banlist=tcg_list)
    report = judged_check(result, load_policy("th"), "pre-event", lang)
    rows = report.violations
    assert rows.height >= 250  # NOT_IN_CARD_POOL only where a source says unreleased
    names = real_db.by_card.select("card_id", pl.col(f"name_{lang}" if lang != "th"
                                                     else "name_en").alias("own"))
    named = rows.join(names, on="card_id", how="inner").filter(
        pl.col("own").is_not_null() & (pl.col("own") != ""))
    assert named.height >= 200
    for own, english, text in named.select("own", "card", "localized_message").rows():
        assert own in text
        if lang != "th" and english not in own:
            assert english not in text
    for row in rows.iter_rows(named=True):
        text = row["localized_message"]
        for name in (row[f"card_{lang}"], row.get(f"counts_as_{lang}")):
            text = text.replace(name, "") if name else text
        text = _KEPT_WORDS.sub("", text)
        assert not _ENGLISH_PHRASE.search(text), row["localized_message"]
    judged = [line for line in text_lines(report)
              if line.startswith(("  → ", "    • "))]
    assert len(judged) >= 55
    for line in judged:
        assert not _ENGLISH_PHRASE.search(_KEPT_WORDS.sub("", line)), line
