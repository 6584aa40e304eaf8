"""Konami's fillable PDF deck registration sheet, written: a one-page sheet in the layout
of the printed one with the same field names (:func:`validator.inputs.registrations.pdf.layouts`),
drawn by this project (``reportlab`` AcroForm text fields), blank or filled from a
:class:`~validator.sheets.workbook.KonamiSheet`; a block with more cards than the printed
sheet's rows gets more rows.
"""

from __future__ import annotations

import io

import polars as pl

from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.inputs.entries import ENTRY_SCHEMA, conform
from validator.inputs.registrations.pdf import BlockKey, layouts
from validator.sheets.workbook import KonamiSheet

__all__ = ["PAGE", "sheet_from_deck", "write_form"]

PAGE = (644.21, 833.68)  # the printed sheet's page size, in points


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

    exact: dict[str, str] = {}  # values the standard fonts cannot draw, set afterwards

    def field(name: str, value: str | int | None, x: float, y: float, w: float, h: float,
              size: float = 8) -> None:
        text = "" if value is None else export_text(str(value))
        if not text.isascii():
            try:
                text.encode("latin-1")
            except UnicodeEncodeError:
                exact[name] = text
                text = text.encode("latin-1", "replace").decode("latin-1")
        form.textfield(name=name, value=text, x=x, y=y,
                       width=w, height=h, fontName="Helvetica", fontSize=size,
                       borderWidth=0.5, borderColor=black, fillColor=white,
                       textColor=black, forceBorder=True, maxlen=200)

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


def _set_values(data: bytes, values: dict[str, str]) -> bytes:
    """Field values beyond Latin-1 (``γ`` in a card name) set as text, for the PDF viewer
    to draw (``NeedAppearances``): the value a reader reads is the exact name."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for page in writer.pages:
        for annotation in page.get("/Annots") or []:
            widget = annotation.get_object()
            name = str(widget.get("/T", ""))
            if name in values:
                widget[NameObject("/V")] = TextStringObject(values[name])
                widget.pop(NameObject("/AP"), None)
    writer.set_need_appearances_writer(True)
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

    named = pl.coalesce(f"name_{lang}", "name_en") if lang != "en" else pl.col("name_en")
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
