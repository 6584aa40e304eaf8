"""Konami's fillable PDF sheet, read: its fields, rows located by field name, written totals
checked, and PDFs that are not filled sheets as one problem each."""

from __future__ import annotations

import io
import resource
import time
from collections.abc import Callable
from pathlib import Path

import pikepdf
import polars as pl
import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject
from reportlab.pdfgen.canvas import Canvas

from tests.datafiles import refused_fields
from validator.errors import InputError
from validator.inputs.registrations._found import Found, Player
from validator.inputs.registrations.pdf import (
    BLOCK_KEYS,
    MAX_FIELDS,
    MAX_PDF_BYTES,
    BlockKey,
    FormRow,
    FormSheet,
    FormTotal,
    form_fields,
    form_problems,
    layouts,
    read_filled_form,
    read_form,
)
from validator.inputs.registrations.read import read_registrations
from validator.sheets.pdf import write_form
from validator.sheets.workbook import KonamiSheet

ROOT = Path(__file__).resolve().parent.parent.parent.parent


def _form(rows: list[FormRow], *, player_id: str = "0400123456", player_name: str = "Ana Lee",
          totals: list[FormTotal] | None = None) -> FormSheet:
    return FormSheet("0400999999.pdf", "KDE_DeckList (2022)", player_id, player_name, "", "",
                     rows, totals or [])


def _row(block: BlockKey, n: int, count: str, name: str) -> FormRow:
    title = block.title()
    return FormRow(block, n, f"{title} Card {n} Count", f"{title} {n}", count, name)


def test_a_filled_sheet_is_read_field_by_field() -> None:
    data = write_form(KonamiSheet("Ana Lee", "0400123456", "Regional", "2026-12-05",
                                  {"monster": [(3, "Dark Magician")], "side": [(2, "Raigeki")]}))
    form = read_form(data, "a.pdf")
    assert (form.file, form.layout, form.player_id, form.player_name, form.event, form.date) == (
        "a.pdf", "KDE_DeckList (2022)", "0400123456", "Ana Lee", "Regional", "2026-12-05")
    assert form.rows == [
        FormRow("monster", 1, "Monster Card 1 Count", "Monster 1", "3", "Dark Magician"),
        FormRow("side", 1, "Side Deck 1 Count", "Side Deck 1", "2", "Raigeki")]
    assert [(t.field, t.written, t.blocks) for t in form.totals] == [
        ("Total Monster Cards", "3", ("monster",)), ("Total Spell Cards", "", ("spell",)),
        ("Total Trap Cards", "", ("trap",)), ("Total Side Deck", "2", ("side",)),
        ("Total Extra Deck", "", ("extra",)),
        ("Main Deck Total", "3", ("monster", "spell", "trap"))]


@pytest.mark.parametrize(("values", "date"), [
    ({"Event Date - Year": "2026", "Event Date - Month": "1", "Event Date - Day": "5"},
     "2026-01-05"),
    ({"Event Date - Year": "2026", "Event Date - Month": "Dec"}, "2026 Dec"),  # as typed
])
def test_the_date_fields_make_one_date(values: dict[str, str], date: str) -> None:
    assert read_form(_with_values(write_form(), values), "a.pdf").date == date


def test_a_block_has_the_rows_its_fields_number() -> None:
    monster = layouts()[0].block[0]
    assert monster.numbers({"Monster Card 25 Count": "1", "Monster 19": "x", "Spell 30": ""}) \
        == [*range(1, 20), 25]


@pytest.mark.parametrize(("written", "messages"), [
    ("6", []),
    ("", []),
    ("7", ["written Monster Cards total 7 but its rows add up to 6"]),
    ("six", ["written Monster Cards total 'six' is not a number"]),
])
def test_written_totals_are_checked_against_their_rows(written: str,
                                                       messages: list[str]) -> None:
    form = _form([], totals=[FormTotal("Total Monster Cards", "Monster Cards", written,
                                       ("monster",)),
                             FormTotal("Main Deck Total", "Main Deck", "", ("monster", "spell"))])
    found = form_problems(form, {"monster": 6, "spell": 2})
    assert [(p.file, p.column, p.message) for p in found] == [
        ("0400999999.pdf", "Total Monster Cards", m) for m in messages]


def test_rows_become_entries_located_by_their_field_names() -> None:
    out = Found()
    read_filled_form(_form([_row("monster", 1, "3", "Dark Magician"),
                            _row("spell", 2, "three", "Raigeki"),
                            _row("trap", 1, "1", "")]), out)
    assert out.columns.frame().select(
        "deck_id", "section", "slot", "qty", "name", "cell", "file", "line", "origin").rows() == [
        ("0400123456", "main", "monster", 3, "Dark Magician", "Monster 1", "0400999999.pdf",
         None, 1)]
    assert [(p.column, p.deck_id, p.section) for p in out.problems] == [
        ("Spell Card 2 Count", "0400123456", "main"), ("Trap 1", "0400123456", "main")]
    assert out.players == [Player("0400123456", "Ana Lee", "0400999999.pdf", "",
                                  "0400999999.pdf", 1, 1)]
    assert (out.rows_read, out.rows_reported) == (3, 2)


def test_a_sheet_without_an_id_is_the_player_its_file_names() -> None:
    out = Found()
    read_filled_form(_form([_row("monster", 1, "1", "Raigeki")], player_id="", player_name=""),
                     out)
    assert [(p.player_id, p.player_name) for p in out.players] == [("0400999999", "0400999999")]
    assert out.problems == []


def test_a_blank_form_is_skipped_and_reported() -> None:
    out = Found()
    read_filled_form(_form([], player_id="", player_name=""), out)
    assert [(p.file, p.column) for p in out.problems] == [("0400999999.pdf", None)]
    assert "blank deck list form" in out.problems[0].message
    assert (out.players, out.rows, len(out.columns), out.origins) == ([], [], 0, 0)


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
    read = read_registrations(path)
    assert read.entries.is_empty()
    assert len(read.problems) == 1
    """The code of the one problem a PDF that holds no list is."""
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
    assert refused_fields("pdf_forms.toml", edit, layouts, tmp_path) == fields


def _pypdf_fields(data: bytes) -> dict[str, str]:
    """The fields as pypdf's ``get_fields`` reads them (the reader before pikepdf)."""
    found = PdfReader(io.BytesIO(data), strict=False).get_fields() or {}
    return {str(name): "" if field.get("/V") is None else str(field.get("/V")).strip()
            for name, field in found.items()}


def _acroform(build: Callable[[pikepdf.Pdf], list[pikepdf.Object]]) -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array(build(pdf)))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _nested(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
    """A parent field with two named kids, a checkbox, a field with a mapping name, a list
    box with two choices, a number, and a widget without a name."""
    player = pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("player")))
    kids = [pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String(t), V=pikepdf.String(v),
                                                 Parent=player))
            for t, v in (("id", " 0400123456 "), ("name", "Ana Lee"))]
    player.Kids = pikepdf.Array(kids)
    return [player,
            pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("agree"), FT=pikepdf.Name.Btn,
                                                 V=pikepdf.Name.Yes)),
            pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("x"),
                                                 TM=pikepdf.String("Mapped"),
                                                 V=pikepdf.String("m"))),
            pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("pick"), FT=pikepdf.Name.Ch,
                                                 V=pikepdf.Array([pikepdf.String("a"),
                                                                  pikepdf.String("b")]))),
            pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("count"), V=3)),
            pdf.make_indirect(pikepdf.Dictionary(Subtype=pikepdf.Name.Widget))]


@pytest.mark.parametrize("make", ["written", "sample", "nested"])
def test_fields_are_read_as_pypdf_read_them(make: str) -> None:
    """Full dotted names, values as text (a checkbox's state as its name), the same as the
    pypdf reader this one replaced, on the writer's sheet, the shipped sheets and a form with
    nested fields."""
    if make == "written":
        data = write_form(KonamiSheet("Ana Lee", "0400123456", "Regional", "2026-12-05",
                                      {"monster": [(3, "Dark Magician")]}))
    elif make == "sample":
        data = (ROOT / "sample_decklists" / "pdf" / "0400001301.pdf").read_bytes()
    else:
        data = _acroform(_nested)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        fields = form_fields(pdf, "a.pdf")
    assert fields == _pypdf_fields(data)
    assert len(fields) >= (6 if make == "nested" else 183)
    if make == "nested":
        assert fields == {"player": "", "player.id": "0400123456", "player.name": "Ana Lee",
                          "agree": "/Yes", "Mapped": "m", "pick": "['a', 'b']", "count": "3"}


def test_a_form_whose_fields_are_their_own_kids_is_read_once() -> None:
    def cycle(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
        parent = pdf.make_indirect(pikepdf.Dictionary(T=pikepdf.String("a")))
        parent.Kids = pikepdf.Array([parent])
        return [parent]

    data = _acroform(cycle)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert form_fields(pdf, "a.pdf") == _pypdf_fields(data) == {"a": ""}


def test_a_form_with_too_many_fields_is_not_a_deck_list() -> None:
    def many(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
        return [pikepdf.Dictionary(T=pikepdf.String(f"f{n}")) for n in range(MAX_FIELDS + 2)]

    with pytest.raises(InputError) as raised:
        read_form(_acroform(many), "many.pdf")
    assert [(p.file, p.code) for p in raised.value.problems] == [("many.pdf", "NOT_A_FORM")]


def test_a_pdf_without_a_form_tree_has_no_fields() -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Name.Oops)
    out = io.BytesIO()
    pdf.save(out)
    with pytest.raises(InputError) as raised:
        read_form(out.getvalue(), "odd.pdf")
    assert [p.code for p in raised.value.problems] == ["NOT_A_FORM"]
