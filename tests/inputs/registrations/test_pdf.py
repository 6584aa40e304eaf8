"""Konami's fillable PDF sheet: written, read back, checked like the workbook layout."""

from __future__ import annotations

import io
import resource
import time
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject
from reportlab.pdfgen.canvas import Canvas

from bench.sample_event import tcg_sheets
from tests.conftest import shared_path
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import load
from validator.cards.store import demo_cards
from validator.cli import main
from validator.engine.resolve import resolve
from validator.errors import InputError
from validator.event.run import EventResult, run_event
from validator.inputs.decks.batch import read_deck_paths
from validator.inputs.registrations.pdf import BLOCK_KEYS, MAX_PDF_BYTES, layouts, read_form
from validator.inputs.registrations.read import read_registrations
from validator.sheets.pdf import sheet_from_deck, write_form
from validator.sheets.workbook import KonamiSheet, write_konami_workbook
from validator.text.datafile import data_file

ROOT = Path(__file__).resolve().parent.parent.parent.parent


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


def _with_values(data: bytes, values: dict[str, str]) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for annotation in writer.pages[0].get("/Annots") or []:
        widget = annotation.get_object()
        if str(widget.get("/T")) in values:
            widget[NameObject("/V")] = TextStringObject(values[str(widget["/T"])])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_written_total_that_disagrees_is_a_problem_naming_its_field(tmp_path: Path) -> None:
    monsters = [(3, "Ash Blossom & Joyous Spring"), (3, "Maxx \"C\""), (2, "Effect Veiler"),
                (3, "Dark Magician"), (3, "Raigeki"), (3, "Pot of Greed")]
    sheet = KonamiSheet("Ana Lee", "0400123456", blocks={"monster": list(monsters)})
    assert sum(q for q, _ in monsters) == 17
    path = tmp_path / "ana.pdf"
    path.write_bytes(_with_values(write_form(sheet), {"Total Monster Cards": "18"}))
    read = read_registrations(path)
    assert [(p.column, p.code) for p in read.problems] == [
        ("Total Monster Cards", "TOTAL_MISMATCH")]
    assert read.entries.height == 6  # the rows are still read


def test_the_earlier_sheet_is_read_too(tmp_path: Path) -> None:
    """The 2012 edition's field names (``Number Monster 1``, ``KONAMI ID``, ...)."""
    old = layouts()[1]
    page = Canvas(str(tmp_path / "old.pdf"))
    values = {old.player_id: "0400123456", old.first_name: "Ana", old.last_name: "Lee",
              "Number Monster 1": "3", "Card Monster 1": "Dark Magician",
              "Number SD 1": "2", "Card SD 1": "Raigeki", "Total Monster Cards": "3"}
    for i, (name, value) in enumerate(values.items()):
        page.acroForm.textfield(name=name, value=value, x=40, y=800 - 24 * i, width=200,
                                height=18)
    page.showPage()
    page.save()
    read = read_registrations(tmp_path / "old.pdf")
    assert read.problems == []
    assert read.players.row(0)[:2] == ("0400123456", "Ana Lee")
    assert read.entries.select(pl.col("section").cast(pl.Utf8), "name", "qty", "cell").rows() \
        == [("main", "Dark Magician", 3, "Card Monster 1"), ("side", "Raigeki", 2, "Card SD 1")]


def _problem_of(path: Path) -> str:
    """The code of the one problem a PDF that holds no list is."""
    read = read_registrations(path)
    assert read.entries.is_empty()
    assert len(read.problems) == 1
    return read.problems[0].code


def test_pdfs_that_are_not_filled_sheets_are_one_clear_problem_each(tmp_path: Path) -> None:
    printed = tmp_path / "scan.pdf"
    page = Canvas(str(printed))
    page.drawString(72, 720, "Monster Cards  3 Dark Magician")
    page.save()
    assert _problem_of(printed) == "NOT_A_FORM"

    locked = tmp_path / "locked.pdf"
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(write_form(KonamiSheet(
        "Ana Lee", "0400123456", blocks={"monster": [(3, "Dark Magician")]})))))
    writer.encrypt(user_password="secret", owner_password="owner")
    with locked.open("wb") as stream:
        writer.write(stream)
    assert _problem_of(locked) == "PDF_ENCRYPTED"

    huge = tmp_path / "huge.pdf"
    with huge.open("wb") as stream:
        stream.write(b"%PDF-1.7\n")
        stream.truncate(20 << 20)
    assert huge.stat().st_size > MAX_PDF_BYTES
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.perf_counter()
    assert _problem_of(huge) == "FILE_TOO_LARGE"
    assert time.perf_counter() - began < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20 << 10  # KiB

    other = tmp_path / "other.pdf"
    page = Canvas(str(other))
    page.acroForm.textfield(name="Invoice number", value="12", x=40, y=700)
    page.showPage()
    page.save()
    assert _problem_of(other) == "NOT_A_FORM"
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    assert _problem_of(garbage) == "BAD_PDF"


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
    import zipfile

    with zipfile.ZipFile(archive, "w") as zipped:
        for pdf in sorted(folder.glob("*.pdf")):
            zipped.write(pdf, pdf.name)
    assert _verdicts(event(archive)) == _verdicts(from_xlsx)


def test_shipped_pdf_sheets_say_what_the_workbook_says() -> None:
    """The sample regional's PDF sheets are its workbook's lists for those players."""
    pdfs = read_registrations(ROOT / "sample_decklists" / "pdf")
    workbook = read_registrations(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    players = pdfs.players["player_id"].to_list()
    assert len(players) == 4

    def rows(read: pl.DataFrame) -> list[tuple[object, ...]]:
        return sorted(read.filter(pl.col("deck_id").is_in(players)).select(
            "deck_id", pl.col("section").cast(pl.Utf8), "name", "qty").rows())

    assert rows(pdfs.entries) == rows(workbook.entries)


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
    assert _problem_of(blank) == "BLANK_LIST"


@pytest.mark.parametrize("value", ["Ｍａｘｘ “Ｃ”", "Enneacraft - Astaγ.PIXIEA", "灰流うらら"])
def test_names_beyond_latin_1_are_kept_exactly(value: str) -> None:
    form = read_form(write_form(KonamiSheet("Ana Lee", "1", blocks={"monster": [(1, value)]})),
                     "sheet.pdf")
    assert [(r.count, r.name) for r in form.rows] == [("1", value)]


def test_the_shipped_layouts_load_each_with_every_block() -> None:
    shipped = layouts()
    assert [lay.name for lay in shipped] == ["KDE_DeckList (2022)", "KDE_DeckList (2012)"]
    for layout in shipped:
        assert sorted(b.key for b in layout.block) == sorted(BLOCK_KEYS)


@pytest.mark.parametrize(("edit", "fields"), [
    (('key = "side"', 'key = "sidedeck"'), {"layout.0.block.3.key"}),
    (('key = "side"', 'key = "monster"'), {"layout.0.block"}),
    (('count = "Monster Card {n} Count"', 'count = "Monster Card Count"'),
     {"layout.0.block.0.count"}),
    (("rows = 18", "rows = 0"), {"layout.0.block.0.rows"}),
    (('main_total = "Main Deck Total"', 'main_total = 7'), {"layout.0.main_total"}),
    (('player_id = "CARD GAME ID"\n', ""), {"layout.0.player_id"}),
    (("[[layout]]\n", "surprise = 1\n\n[[layout]]\n"), {"surprise"}),
])
def test_a_malformed_forms_file_is_refused_naming_file_and_field(
        tmp_path: Path, edit: tuple[str, str], fields: set[str]) -> None:
    text = data_file("pdf_forms.toml").read_text(encoding="utf-8")
    assert edit[0] in text
    path = tmp_path / "pdf_forms.toml"
    path.write_text(text.replace(*edit, 1), encoding="utf-8")
    with pytest.raises(InputError) as info:
        layouts(path)
    assert {p.file for p in info.value.problems} == {str(path)}
    assert {p.column for p in info.value.problems} == fields
