"""Konami's fillable PDF sheet, written: its fields, a deck as its blocks, and sheets that
read back as the lists they were written from."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from bench.sample_event import tcg_sheets
from tests.conftest import shared_path
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import load
from validator.cards.store import demo_cards
from validator.cli import main
from validator.engine.resolve import resolve
from validator.event.run import EventResult, run_event
from validator.inputs.decks.batch import read_deck_paths
from validator.inputs.entries import entries_frame
from validator.inputs.registrations.pdf import layouts, read_form
from validator.inputs.registrations.read import read_registrations
from validator.sheets.pdf import PAGE, sheet_from_deck, write_form
from validator.sheets.workbook import KonamiSheet, write_konami_workbook

ROOT = Path(__file__).resolve().parent.parent.parent
RAIGEKI = 12580477


def _fields(data: bytes) -> dict[str, str]:
    fields = PdfReader(io.BytesIO(data)).get_fields() or {}
    return {name: str(item.get("/V") or "") for name, item in fields.items()}


def _deck(*rows: tuple[str, int | str, int]) -> pl.DataFrame:
    return entries_frame([{"deck_id": "d", "section": section,
                           **({"passcode": card} if isinstance(card, int) else {"name": card}),
                           "qty": qty} for section, card, qty in rows])


def test_sheet_fields_are_the_published_ones() -> None:
    fields = set(PdfReader(io.BytesIO(write_form())).get_fields() or {})
    layout = layouts()[0]
    expected = {layout.first_name, layout.last_name, layout.initial, layout.player_id,
                layout.country, layout.event, layout.year, layout.month, layout.day,
                layout.main_total}
    for block in layout.block:
        expected |= {block.total, *(block.count.format(n=n) for n in range(1, block.rows + 1)),
                     *(block.name.format(n=n) for n in range(1, block.rows + 1))}
    assert fields == expected
    assert len(fields) == 183  # as on Konami's sheet
    assert "First  Middle Names" in fields
    assert "Monster Card 18 Count" in fields


def test_a_blank_sheet_has_every_field_empty_on_the_printed_page_size() -> None:
    data = write_form()
    assert set(_fields(data).values()) == {""}
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(PAGE)


def test_a_filled_sheet_splits_the_name_and_the_date_and_adds_up_the_totals() -> None:
    sheet = KonamiSheet("Ana María Lee", "0400123456", "Regional", "2026-12-05",
                        {"monster": [(3, "Dark Magician"), (2, "Effect Veiler")],
                         "spell": [(1, "Raigeki")], "extra": [(1, "Accesscode Talker")],
                         "side": [("", "Pot of Greed")]})
    fields = _fields(write_form(sheet))
    assert {k: v for k, v in fields.items() if v} == {
        "First  Middle Names": "Ana María", "Last Names": "Lee", "Last Name Initial": "L",
        "CARD GAME ID": "0400123456", "Event Name": "Regional", "Event Date - Year": "2026",
        "Event Date - Month": "12", "Event Date - Day": "05",
        "Monster Card 1 Count": "3", "Monster 1": "Dark Magician",
        "Monster Card 2 Count": "2", "Monster 2": "Effect Veiler",
        "Spell Card 1 Count": "1", "Spell 1": "Raigeki",
        "Extra Deck 1 Count": "1", "Extra Deck 1": "Accesscode Talker",
        "Side Deck 1": "Pot of Greed",
        "Total Monster Cards": "5", "Total Spell Cards": "1", "Total Extra Deck": "1",
        "Main Deck Total": "6"}


@pytest.mark.parametrize(("name", "date", "first", "last", "day"), [
    ("Cher", "5/12/2026", "Cher", "", ""),  # one word: all first names; a date not Y-M-D: none
    ("Kim Min Jun", "2026-1-2", "Kim Min", "Jun", "2"),
])
def test_names_and_dates_as_the_fields_hold_them(name: str, date: str, first: str, last: str,
                                                 day: str) -> None:
    fields = _fields(write_form(KonamiSheet(name, "1", date=date)))
    assert (fields["First  Middle Names"], fields["Last Names"], fields["Event Date - Day"]) \
        == (first, last, day)


def test_a_block_longer_than_the_printed_one_gets_more_rows() -> None:
    monsters: list[tuple[int | str, str]] = [(1, f"Card {n}") for n in range(1, 26)]
    form = read_form(write_form(KonamiSheet("Ana Lee", "1", blocks={"monster": monsters})),
                     "a.pdf")
    assert [(r.number, r.count_field, r.name) for r in form.rows][-1] == (
        25, "Monster Card 25 Count", "Card 25")
    assert len(form.rows) == 25
    assert {t.field: t.written for t in form.totals}["Total Monster Cards"] == "25"


@pytest.mark.parametrize("value", ["Ｍａｘｘ “Ｃ”", "Enneacraft - Astaγ.PIXIEA", "灰流うらら"])
def test_names_beyond_latin_1_are_kept_exactly(value: str) -> None:
    form = read_form(write_form(KonamiSheet("Ana Lee", "1", blocks={"monster": [(1, value)]})),
                     "sheet.pdf")
    assert [(r.count, r.name) for r in form.rows] == [("1", value)]


def test_a_deck_becomes_blocks_by_kind_in_deck_order(demo_db: CardDB) -> None:
    deck = _deck(("main", 46986421, 1), ("main", "Raigeki", 1), ("main", 36996508, 2),
                 ("main", 44095762, 1), ("extra", 86066372, 1), ("side", "Effect Veiler", 2))
    sheet, notes = sheet_from_deck(deck, demo_db, load_format("advanced-tcg"), player_id="7",
                                   player_name="Ana Lee", event="Regional", date="2026-12-05")
    assert (sheet.player_id, sheet.player_name, sheet.event, sheet.date) == (
        "7", "Ana Lee", "Regional", "2026-12-05")
    assert sheet.blocks == {  # an alternate artwork is the same card, in one row
        "monster": [(3, "Dark Magician")], "spell": [(1, "Raigeki")],
        "trap": [(1, "Mirror Force")], "extra": [(1, "Accesscode Talker")],
        "side": [(2, "Effect Veiler")]}
    assert notes == []


def test_what_is_no_card_is_written_as_typed(demo_db: CardDB) -> None:
    sheet, notes = sheet_from_deck(_deck(("main", 12, 1), ("side", "Nope card", 1)), demo_db,
                                   load_format("advanced-tcg"))
    assert sheet.blocks == {"monster": [(1, "12")], "side": [(1, "Nope card")]}
    assert notes == ["12: no card has this passcode or name; written as typed",
                     "Nope card: no card has this passcode or name; written as typed"]


def test_a_name_two_cards_share_is_written_as_the_passcode(demo_db: CardDB) -> None:
    twin = demo_db.printings.filter(pl.col("passcode") == RAIGEKI).with_columns(
        pl.lit(999000001, pl.Int64).alias(c) for c in ("passcode", "card_id", "name_id"))
    cards = CardDB(pl.concat([demo_db.printings, twin]), sources=demo_db.sources)
    sheet, notes = sheet_from_deck(_deck(("main", RAIGEKI, 1), ("main", 55144522, 1)), cards,
                                   load_format("advanced-tcg"))
    assert sheet.blocks == {"spell": [(1, str(RAIGEKI)), (1, "Pot of Greed")]}
    assert notes == [f"Raigeki: another card has this name; written as passcode {RAIGEKI}"]


def _cards_of(entries: pl.DataFrame, cards: CardDB) -> Counter[tuple[str, str, int]]:
    """Each deck's (section, card or unknown passcode) counts, as the checks see them."""
    resolved = resolve(entries, cards, load_format("advanced-tcg"))
    assert resolved.filter(pl.col("status") == "unresolved").is_empty()
    found: Counter[tuple[str, str, int]] = Counter()
    for deck, section, key, qty in resolved.select(
            pl.col("deck_id").cast(pl.Utf8), pl.col("section").cast(pl.Utf8),
            pl.coalesce("card_id", "passcode"), "qty").iter_rows():
        found[deck, section, key] += qty
    return found


def test_every_real_deck_reads_back_from_its_sheet(real_db: CardDB, tmp_path: Path) -> None:
    """All 69 windbot decks → a filled sheet each (English names) → read back: the same
    cards in the same sections, and no problem."""
    files = read_deck_paths([shared_path("decks", "windbot")])
    assert len(files.ids) == 69
    fmt = load_format("advanced-tcg")
    for deck_id in files.ids:
        entries = files.entries.filter(pl.col("deck_id") == deck_id)
        sheet, _ = sheet_from_deck(entries, real_db, fmt, player_id=deck_id,
                                   player_name="Ana María Lee", event="Regional",
                                   date="2026-12-05")
        (tmp_path / f"{deck_id}.pdf").write_bytes(write_form(sheet))
    read = read_registrations(tmp_path)
    assert read.problems == []
    assert set(read.players["player_id"].to_list()) == set(files.ids)
    assert _cards_of(read.entries, real_db) == _cards_of(files.entries, real_db)
    names = read.entries.filter(pl.col("passcode").is_null())
    assert names.height > 0.9 * read.entries.height  # written as names, not passcodes
    assert set(read.players["player_name"]) == {"Ana María Lee"}
    assert set(read.players["date"]) == {"2026-12-05"}


def _verdicts(result: EventResult) -> set[tuple[str, str, str, str | None, int | None]]:
    return set(result.players.select("player_id", pl.col("status").cast(pl.Utf8)).join(
        result.violations.select("player_id", "code", pl.col("section").cast(pl.Utf8),
                                 "card_id"), on="player_id", how="left").iter_rows())


def test_an_event_of_pdf_sheets_has_the_verdicts_of_the_same_workbook(tmp_path: Path) -> None:
    """The sample regional's 64 lists as PDF sheets (a folder, and a zip of it) and as a
    Konami workbook: the same players, statuses and violations."""
    cards = demo_cards()
    sheets = tcg_sheets(cards)
    folder = tmp_path / "pdf"
    folder.mkdir()
    for sheet in sheets:
        (folder / f"{sheet.player_id}.pdf").write_bytes(write_form(sheet))
    workbook = tmp_path / "lists.xlsx"
    write_konami_workbook(workbook, sheets)
    setup = load("advanced-tcg", cards)

    def event(registrations: Path) -> EventResult:
        return run_event(registrations, setup, decks=ROOT / "decks" / "tcg")

    from_pdf, from_xlsx = event(folder), event(workbook)
    assert from_pdf.players.height == 64
    assert _verdicts(from_pdf) == _verdicts(from_xlsx)
    assert len(from_pdf.problems) == len(from_xlsx.problems)
    archive = tmp_path / "lists.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for pdf in sorted(folder.glob("*.pdf")):
            zipped.write(pdf, pdf.name)
    assert _verdicts(event(archive)) == _verdicts(from_xlsx)


def test_cli_writes_a_filled_sheet_and_a_blank_one(tmp_path: Path) -> None:
    deck = ROOT / "decks" / "tcg" / "0400001301.ydk"
    out = tmp_path / "sheet.pdf"
    ran = CliRunner().invoke(main, ["pdf", str(deck), "--player-id", "0400001301", "--name",
                                    "Ana Lee", "--event", "Regional", "--date", "2026-12-05",
                                    "--out", str(out), "--cards", "demo"])
    assert ran.exit_code == 0, ran.output
    form = read_form(out.read_bytes(), str(out))
    assert (form.player_id, form.player_name, form.event, form.date) == (
        "0400001301", "Ana Lee", "Regional", "2026-12-05")
    deck_rows = read_deck_paths([deck]).entries
    assert sum(int(r.count) for r in form.rows) == int(deck_rows["qty"].sum())
    bad = CliRunner().invoke(main, ["pdf", str(deck), "--date", "5/12/2026", "--cards", "demo",
                                    "--out", str(out)])
    assert bad.exit_code == 2
    assert "--date: BAD_OPTION" in bad.output
    blank = tmp_path / "blank.pdf"
    ran = CliRunner().invoke(main, ["template", "--pdf", str(blank)])
    assert ran.exit_code == 0, ran.output
    read = read_registrations(blank)
    assert read.entries.is_empty()
    assert len(read.problems) == 1
    assert read.problems[0].code == "BLANK_LIST"


def _embedded_coverage(reader: PdfReader) -> set[str]:
    """The characters the embedded fonts of a PDF draw: in a font's ToUnicode map and a glyph
    with an outline in its embedded font file (read with fontTools)."""
    from fontTools.ttLib import TTFont

    covered: set[str] = set()
    fonts: dict[str, Any] = {}
    for page in reader.pages:
        resources: Any = page["/Resources"]
        for xobject in resources["/XObject"].values():
            for font in (xobject.get_object()["/Resources"].get("/Font") or {}).values():
                font = font.get_object()
                if "/FontDescriptor" in font and "/FontFile2" in font["/FontDescriptor"]:
                    fonts[str(font["/BaseFont"])] = font
    for font in fonts.values():
        embedded = TTFont(io.BytesIO(font["/FontDescriptor"]["/FontFile2"].get_data()))
        glyphs = embedded["glyf"]
        by_code: dict[int, str] = {}
        for table in embedded["cmap"].tables:  # the subset's codes → its glyphs
            by_code.update(table.cmap)
        cmap = font["/ToUnicode"].get_data().decode("latin-1")
        for code, text in re.findall(r"<([0-9A-F]{2})> <([0-9A-F]{4,})>", cmap):
            glyph = by_code.get(int(code, 16))
            if glyph is not None and glyphs[glyph].numberOfContours != 0:
                covered.add(chr(int(text, 16)))
    return covered


@pytest.mark.parametrize(("lang", "player", "event", "script"), [
    ("ja", "佐藤 花子", "地区大会", r"[\u3040-\u30ff\u4e00-\u9fff]"),
    ("ko", "김 민지", "지역 대회", r"[\uac00-\ud7af]"),
    ("th", "สมชาย ใจดี", "การแข่งขันประจำภูมิภาค", r"[\u0e00-\u0e7f]"),
])
def test_names_in_every_script_are_drawn_in_embedded_fonts(tmp_path: Path, lang: str,
                                                            player: str, event: str,
                                                            script: str) -> None:
    """`deckcheck pdf --lang`: the card names in the language (Thai: the player's and the
    event's names), every character drawn by an embedded font, and the page rendered without
    its form layer shows ink in every field holding such a name."""
    import pypdfium2 as pdfium

    deck = ROOT / "decks" / "tcg" / "0400001301.ydk"
    out = tmp_path / "sheet.pdf"
    ran = CliRunner().invoke(main, ["pdf", str(deck), "--lang", lang, "--name", player,
                                    "--event", event, "--out", str(out), "--cards", "demo"])
    assert ran.exit_code == 0, ran.output
    reader = PdfReader(out)
    values = {k: v for k, v in _fields(out.read_bytes()).items() if re.search(script, v)}
    assert event in values.values()
    if lang != "th":
        assert sum("Monster" in k or "Spell" in k or "Trap" in k for k in values) >= 10
    covered = _embedded_coverage(reader)
    missing = {c for v in values.values() for c in v if not c.isspace()} - covered
    assert not missing
    scale = 2.0
    image = pdfium.PdfDocument(out)[0].render(scale=scale, may_draw_forms=False,
                                              draw_annots=False).to_pil().convert("L")
    height = float(reader.pages[0].mediabox.height)
    annotations: Any = reader.pages[0]["/Annots"]
    rects = {str(a.get_object()["/T"]): [float(n) for n in a.get_object()["/Rect"]]
             for a in annotations}

    def ink(name: str) -> int:
        x0, y0, x1, y1 = rects[name]
        box = image.crop((int(x0 * scale) + 3, int((height - y1) * scale) + 3,
                          int(x1 * scale) - 3, int((height - y0) * scale) - 3))
        return sum(1 for p in box.tobytes() if p < 128)

    for name in values:
        assert ink(name) > 20, name
    empty = next(k for k, v in _fields(out.read_bytes()).items() if not v)
    assert ink(empty) == 0


def test_a_control_character_is_written_replaced() -> None:
    sheet = KonamiSheet("Ana Le\x01e", "04\x0b01", "Cup\x00", "2026-12-05",
                        {"monster": [(3, "Dark\x0bMagician")]})
    fields = _fields(write_form(sheet))
    assert (fields["Last Names"], fields["CARD GAME ID"], fields["Event Name"],
            fields["Monster 1"]) == ("Le\ufffde", "04\ufffd01", "Cup\ufffd", "Dark\ufffdMagician")
