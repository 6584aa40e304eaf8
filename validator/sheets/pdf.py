"""Konami's fillable PDF deck registration sheet, written: a one-page sheet in the layout
of the printed one with the same field names (:func:`validator.inputs.registrations.pdf.layouts`),
drawn by this project (``reportlab`` AcroForm text fields), blank or filled from a
:class:`~validator.sheets.workbook.KonamiSheet`; a block with more cards than the printed
sheet's rows gets more rows.

Every filled value is also drawn on the page itself, so it shows in a viewer without forms
and on paper. A value beyond Latin-1 (a Japanese, Korean or Thai name) is drawn in a font
that covers it, embedded in the file (a subset of the glyphs used), and that drawing is the
field's appearance; the field's value is the exact text. The fonts are the
system's (:data:`FONT_FILES`; Debian: fonts-ipafont-gothic, fonts-nanum,
fonts-tlwg-loma-ttf, fonts-dejavu-core; Latin-1 text in Helvetica); a character no font
covers is drawn as ``?``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl

from validator.cards.db import NAME_LANGS, CardDB
from validator.cards.formats import Format
from validator.inputs.entries import ENTRY_SCHEMA, conform
from validator.inputs.registrations.pdf import BlockKey, layouts
from validator.sheets.workbook import KonamiSheet

__all__ = ["FONT_FILES", "PAGE", "sheet_from_deck", "write_form"]

PAGE = (644.21, 833.68)  # the printed sheet's page size, in points
#: the fonts a value beyond Latin-1 is drawn in, the first that covers a character taken
FONT_FILES: tuple[str, ...] = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
    "/usr/share/fonts/truetype/tlwg/Loma.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)


@cache
def _fonts() -> tuple[tuple[str, frozenset[int]], ...]:
    """The fonts present (a registered reportlab name each) and the characters each covers."""
    from fontTools.ttLib import TTFont as Reader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    found = []
    for i, path in enumerate(FONT_FILES):
        if not Path(path).is_file():
            continue
        with Reader(path, lazy=True) as font:
            covered = frozenset(font.getBestCmap() or {})
        name = f"SheetFont{i}"
        pdfmetrics.registerFont(TTFont(name, path))
        found.append((name, covered))
    return tuple(found)


def _runs(text: str) -> list[tuple[str, str]]:
    """The text cut into runs of one font each: Helvetica for Latin-1, else the first font
    of :data:`FONT_FILES` that covers the character (``?`` where none does)."""
    runs: list[tuple[str, str]] = []
    for char in text:
        if ord(char) < 256:  # Latin-1: a standard font every viewer has
            font: str | None = "Helvetica"
        else:
            fonts = _fonts()
            font = next((name for name, covered in fonts if ord(char) in covered), None)
        if font is None:
            font, char = "Helvetica", "?"
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + char)
        else:
            runs.append((font, char))
    return runs


def _split_name(full: str) -> tuple[str, str]:
    parts = full.split()
    if len(parts) < 2:
        return full, ""
    return " ".join(parts[:-1]), parts[-1]


def write_form(sheet: KonamiSheet | None = None) -> bytes:
    """A one-page sheet with the form fields of the published layout, filled from ``sheet``
    (blank without one); totals are filled from the rows."""
    from reportlab.lib.colors import black, white
    from reportlab.pdfgen.canvas import Canvas

    from validator.report.style import export_text

    layout = layouts()[0]
    sheet = sheet or KonamiSheet()
    buffer = io.BytesIO()
    page = Canvas(buffer, pagesize=PAGE, pageCompression=1)
    page.setTitle("Yu-Gi-Oh! deck registration sheet")
    form = page.acroForm
    width, height = PAGE
    margin = 24.0

    # every filled value is drawn on the page; those beyond Latin-1 are also made their
    # fields' appearance (reportlab's own draws the others): field → (value, its drawing)
    exact: dict[str, tuple[str, str]] = {}
    drawn = 0

    def draw_value(form_name: str, text: str, x: float, y: float, w: float, h: float,
                   size: float) -> None:
        """The field's box and its text in embedded fonts, as a form XObject drawn on the
        page (and made the field's appearance afterwards)."""
        page.beginForm(form_name, 0, 0, w, h)
        page.setFillColor(white)
        page.setStrokeColor(black)
        page.setLineWidth(0.5)
        page.rect(0.25, 0.25, w - 0.5, h - 0.5, stroke=1, fill=1)
        page.setFillColor(black)
        line = page.beginText(2, max(1.0, (h - size) / 2 + size * 0.22))
        for font, run in _runs(text):
            line.setFont(font, size)
            line.textOut(run)
        page.drawText(line)
        page.endForm()
        page.saveState()
        page.translate(x, y)
        page.doForm(form_name)
        page.restoreState()

    def field(name: str, value: str | int | None, x: float, y: float, w: float, h: float,
              size: float = 8) -> None:
        nonlocal drawn
        text = "" if value is None else export_text(str(value))
        try:
            text.encode("latin-1")
            plain = text
        except UnicodeEncodeError:
            plain = ""  # the standard fonts cannot draw it: the appearance drawn below does
        form.textfield(name=name, value=plain, x=x, y=y,
                       width=w, height=h, fontName="Helvetica", fontSize=size,
                       borderWidth=0.5, borderColor=black, fillColor=white,
                       textColor=black, forceBorder=True, maxlen=200)
        if text:
            drawn += 1
            draw_value(f"value{drawn}", text, x, y, w, h, size)
            if not plain:
                exact[name] = (text, f"/FormXob.value{drawn}")

    def label(text: str, x: float, y: float, size: float = 7, bold: bool = False) -> None:
        page.setFont("Helvetica-Bold" if bold else "Helvetica", size)
        page.drawString(x, y, export_text(text))

    label("Yu-Gi-Oh! TRADING CARD GAME — Deck Registration Sheet", margin, height - 34, 13,
          bold=True)
    first, last = _split_name(sheet.player_name)
    date = sheet.date.split("-") if sheet.date.count("-") == 2 else ["", "", ""]
    top = height - 60
    header = [(layout.first_name, "First & Middle Name(s)", first, 150),
              (layout.last_name, "Last Name(s)", last, 120),
              (layout.initial, "Last Initial", last[:1], 50),
              (layout.player_id, "CARD GAME ID", sheet.player_id, 90),
              (layout.country, "Country of Residency", "", 110)]
    x = margin
    for name, text, value, w in header:
        label(text, x, top + 2)
        field(name, value, x, top - 16, w, 14)
        x += w + 6
    top -= 40
    label("Event Name", margin, top + 2)
    field(layout.event, sheet.event, margin, top - 16, 330, 14)
    x = margin + 340
    for name, text, value, w in ((layout.month, "Month", date[1], 30),
                                 (layout.day, "Day", date[2], 30),
                                 (layout.year, "Year", date[0], 45)):
        label(text, x, top + 2)
        field(name, value, x, top - 16, w, 14)
        x += w + 6
    blocks = {b.key: b for b in layout.block}
    column = (width - 2 * margin - 2 * 8) / 3

    def draw_block(key: BlockKey, x: float, top: float, bottom: float) -> None:
        block = blocks[key]
        entries = sheet.blocks.get(key, [])
        rows = max(block.rows, len(entries))
        label(block.title, x, top, 9, bold=True)
        label("Qty", x, top - 11)
        label("Card Name", x + 26, top - 11)
        step = (top - 16 - bottom - 18) / rows
        size = min(8.0, max(4.5, step - 4))
        for n in range(1, rows + 1):
            qty, name = entries[n - 1] if n <= len(entries) else ("", "")
            y = top - 14 - n * step
            field(block.count.format(n=n), qty, x, y, 22, step - 1, size)
            field(block.name.format(n=n), name, x + 24, y, column - 24, step - 1, size)
        counted = [q for q, _ in entries if isinstance(q, int)]
        label("Total", x, bottom + 4, 8, bold=True)
        field(block.total, sum(counted) if counted else "", x + 40, bottom, 40, 14)

    mid = 300.0
    in_main: tuple[BlockKey, ...] = ("monster", "spell", "trap")
    for i, key in enumerate(in_main):
        draw_block(key, margin + i * (column + 8), top - 34, mid)
    main = [q for key in in_main for q, _ in sheet.blocks.get(key, []) if isinstance(q, int)]
    label("Main Deck Total", margin + 2 * (column + 8) + 90, mid + 4, 8, bold=True)
    field(layout.main_total, sum(main) if main else "", margin + 2 * (column + 8) + 160, mid,
          40, 14)
    below: tuple[BlockKey, ...] = ("side", "extra")
    for i, key in enumerate(below):
        draw_block(key, margin + i * (column + 8), mid - 24, margin)
    page.showPage()
    page.save()
    return _set_values(buffer.getvalue(), exact) if exact else buffer.getvalue()


def _set_values(data: bytes, values: dict[str, tuple[str, str]]) -> bytes:
    """Field values beyond Latin-1 (``γ`` in a card name, a Japanese name) set as the exact
    text, each field's appearance the form XObject its value was drawn as on the page: the
    value shows the same with or without the form layer."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    writer = PdfWriter(PdfReader(io.BytesIO(data)), incremental=True)  # no copy of the rest
    for page in writer.pages:
        resources: Any = page["/Resources"]
        xobjects = resources["/XObject"].get_object()
        drawn = {str(key): xobjects.raw_get(key) for key in xobjects}
        for annotation in page.get("/Annots") or []:
            widget = annotation.get_object()
            name = str(widget.get("/T", ""))
            if name in values:
                text, form = values[name]
                widget[NameObject("/V")] = TextStringObject(text)
                widget[NameObject("/AP")] = DictionaryObject({NameObject("/N"): drawn[form]})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def sheet_from_deck(entries: pl.DataFrame, cards: CardDB, fmt: Format, *, player_id: str = "",
                    player_name: str = "", event: str = "", date: str = "",
                    lang: str = "en") -> tuple[KonamiSheet, list[str]]:
    """A deck as the sheet's blocks: cards by their name in ``lang`` (English where the card
    has none), main deck cards under Monster, Spell or Trap, in deck order. A card whose
    name would not read back as that card (two cards share it), or a passcode no card has,
    is written as its passcode; the notes say which."""
    from validator.engine.resolve import resolve

    named = pl.coalesce(f"name_{lang}", "name_en") if lang in NAME_LANGS and lang != "en" \
        else pl.col("name_en")
    resolved = resolve(entries, cards, fmt).join(
        cards.by_card.select("card_id", named.alias("name_en"), pl.col("kind").cast(pl.Utf8)),
        on="card_id", how="left", maintain_order="left")
    block = (pl.when(pl.col("section") != "main").then(pl.col("section").cast(pl.Utf8))
             .when(pl.col("kind").is_in(["spell", "trap"])).then(pl.col("kind"))
             .otherwise(pl.lit("monster")))
    rows = (resolved.with_columns(block.alias("block"))
            .group_by("block", "card_id", pl.coalesce("card_id", "passcode").alias("key"),
                      maintain_order=True)
            .agg(pl.col("qty").sum(), pl.col("name_en").first(), pl.col("passcode").first(),
                 pl.col("name").first()))
    # the names as a reader would read them back: each must give the same card
    typed = rows.select(
        pl.lit("check").alias("deck_id"),
        pl.when(pl.col("block").is_in(["side", "extra"])).then(pl.col("block"))
        .otherwise(pl.lit("main")).cast(ENTRY_SCHEMA["section"]).alias("section"),
        pl.col("name_en").alias("name"), pl.lit(1, pl.Int32).alias("qty"),
        pl.when(pl.col("block").is_in(["monster", "spell", "trap", "extra"]))
        .then(pl.col("block")).cast(ENTRY_SCHEMA["slot"]).alias("slot"))
    back = resolve(conform(typed), cards, fmt)["card_id"]
    notes: list[str] = []
    sheet = KonamiSheet(player_name, player_id, event, date, {})
    for (key, card_id, _, qty, name_en, passcode, typed_name), read_back in zip(
            rows.iter_rows(), back, strict=True):
        shown = name_en
        if card_id is None:
            shown = str(passcode) if passcode is not None else str(typed_name)
            notes.append(f"{shown}: no card has this passcode or name; written as typed")
        elif read_back != card_id:
            shown = str(passcode)
            notes.append(f"{name_en}: another card has this name; written as passcode {shown}")
        sheet.blocks.setdefault(str(key), []).append((int(qty), shown))
    return sheet, notes
