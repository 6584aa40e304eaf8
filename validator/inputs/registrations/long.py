"""The long layout: a header row and one row per (player, section, quantity, card); a
passcode column is used when present."""

from __future__ import annotations

import polars as pl

from validator.errors import Problem
from validator.files.tabular import Sheet, cell_name
from validator.inputs.entries import ENTRY_SCHEMA
from validator.inputs.ids import LOST_DIGITS, player_id_of
from validator.inputs.registrations._found import PLAYER_COLUMNS, Found, Player, place
from validator.text.lexicon import MAX_QUANTITY, header_of, is_total_label, quantity_of, total_of

__all__ = ["read_long"]

#: the problem code of each column a row's problem is found in
_CODE_OF = {"player": "NO_PLAYER", "section": "BAD_SECTION", "qty": "BAD_QUANTITY",
            "card": "NO_CARD", "passcode": "BAD_PASSCODE"}

#: each kind of row problem's catalog entry (``{typed}``: the cell as typed)
_SAID = {"player": "no player on this row",
         "section": "section '{typed}' is not Main/Monster/Spell/Trap/Extra/Side",
         "qty": "quantity '{typed}' is not a number 1-{most}",
         "card": "no card name or passcode", "passcode": "passcode '{typed}' is not a number"}


def read_long(sheet: Sheet, header_row: int, cols: dict[str, int], out: Found) -> None:
    """The long layout, checked column-wise with polars (no Python work per row but for
    the rows that are reported)."""
    body = sheet.rows[header_row + 1:]
    first_line = header_row + 2
    frame = pl.DataFrame(
        {key: [row[i].strip() if i < len(row) else "" for row in body]
         for key, i in cols.items()} | {"line": list(range(first_line, first_line + len(body)))},
        schema={**dict.fromkeys(cols, pl.Utf8), "line": pl.Int32},
    )
    frame = frame.filter(pl.any_horizontal([pl.col(k) != "" for k in cols]))

    def column(key: str) -> pl.Expr:
        return pl.col(key) if key in cols else pl.lit("")

    full_name = pl.concat_str([column("first_name"), column("last_name")], separator=" ") \
        .str.strip_chars()
    name = pl.when(column("player_name") != "").then(column("player_name")).otherwise(full_name)
    player = pl.when(column("player_id") != "").then(column("player_id")).otherwise(name)
    # a total row: its card cell (or its player cell) is wholly a total word (and number)
    totals = {v: bool(total_of(v) is not None or is_total_label(v)) for v in
              frame.select(pl.concat([column("card"), column("player_id"),
                                      column("player_name")]).unique()).to_series()
              .to_list() if v}
    is_total = pl.any_horizontal(
        [column(k).replace_strict(totals, default=False, return_dtype=pl.Boolean)
         for k in ("card", "player_id", "player_name")])
    frame = frame.with_columns(player.alias("player"), name.alias("name_of_player")).filter(
        ~is_total)
    out.rows_read += frame.height
    named = {value: header_of(value) for value in frame.select(column("section"))
             .to_series().unique().to_list() if value}
    section = column("section").replace_strict(
        {k: v.section for k, v in named.items() if v}, default=None, return_dtype=pl.Utf8)
    slot = column("section").replace_strict(
        {k: v.slot for k, v in named.items() if v and v.slot}, default=None,
        return_dtype=pl.Utf8)
    quantities = {v: quantity_of(v) for v in frame.select(column("qty")).to_series().unique()
                  .to_list()}
    quantity = column("qty").replace_strict(quantities, default=None, return_dtype=pl.Int32)
    bad_section = (column("section") != "") & section.is_null()
    code = column("passcode")
    problem = (
        pl.when(pl.col("player") == "").then(pl.lit("player|no player on this row"))
        .when(bad_section).then(pl.format("section|section '{}' is not Main/Monster/Spell/"
                                          "Trap/Extra/Side", column("section")))
        .when(quantity.is_null() | (quantity < 1) | (quantity > MAX_QUANTITY)).then(
            pl.format(f"qty|quantity '{{}}' is not a number 1-{MAX_QUANTITY}", column("qty")))
        .when((column("card") == "") & (code == "")).then(pl.lit("card|no card name or passcode"))
        .when((code != "") & ~code.str.contains(r"^\d+$")).then(
            pl.format("passcode|passcode '{}' is not a number", code))
    )
    frame = frame.with_columns(problem.alias("problem"), quantity.alias("quantity"),
                               pl.when(bad_section).then(None).otherwise(section)
                               .alias("named"), slot.alias("slot"))
    # a row without a section of its own is in the section of the rows above it
    frame = frame.with_columns(pl.col("named").forward_fill().fill_null("main"))
    ids = {p: player_id_of(p) for p in frame["player"].unique().to_list() if p}
    frame = frame.with_columns(pl.col("player").replace_strict(
        {k: v[0] for k, v in ids.items()}, default=pl.col("player"), return_dtype=pl.Utf8))
    for raw, (_, message) in ids.items():
        if message:
            out.problems.append(Problem.of(sheet.file, None, sheet.name or None, LOST_DIGITS,
                                           code="PLAYER_ID", typed=repr(raw)))
    for line, message, player_of, section_of_row, card, *typed in frame.filter(
            pl.col("problem").is_not_null()).select(
                "line", "problem", "player", "named", column("card").alias("_card"),
                *(column(k).alias(f"_{k}") for k in ("section", "qty", "passcode"))).iter_rows():
        key, _ = message.split("|", 1)
        column_index = cols.get(key, cols.get("player_name", cols.get("player_id")))
        out.problem(sheet, line, column_index, _SAID[key], code=_CODE_OF[key],
                    deck_id=player_of or None, section=section_of_row, text=card,
                    typed=dict(zip(("section", "qty", "passcode"), typed, strict=True))
                    .get(key, ""), most=MAX_QUANTITY)
        out.rows_reported += 1
    good = frame.filter(pl.col("problem").is_null())
    by_code = code != ""
    letter = {k: cell_name(1, i)[:-1] for k, i in cols.items()}
    prefix = f"{sheet.name}!" if sheet.name else ""
    where = pl.format(prefix + "{}{}",
                      pl.when(by_code).then(pl.lit(letter.get("passcode", "A")))
                      .otherwise(pl.lit(letter.get("card", "A"))), pl.col("line"))
    players = good.group_by("player", maintain_order=True).agg(
        pl.col("name_of_player").filter(pl.col("name_of_player") != "").first().alias("name"),
        pl.len().alias("rows"))
    origins = {p: out.origin() for p in players["player"].to_list()}
    for player, name, rows in players.iter_rows():
        out.players.append(Player(player, name or player, sheet.file, sheet.name,
                                   place(sheet), origins[player], rows))
    out.frames.append(good.select(
        pl.col("player").alias("deck_id"),
        pl.col("named").cast(ENTRY_SCHEMA["section"]).alias("section"),
        pl.when(by_code).then(code.cast(pl.Int64, strict=False)).alias("passcode"),
        pl.when(by_code).then(None).otherwise(column("card")).alias("name"),
        pl.col("quantity").alias("qty"),
        pl.lit(sheet.file).alias("file"),
        pl.col("line"),
        where.alias("cell"),
        pl.col("slot").cast(ENTRY_SCHEMA["slot"]),
        pl.col("player").replace_strict(origins, return_dtype=pl.Int64).alias("origin"),
    ))
    if "player_id" in cols and not any(c in cols for c in PLAYER_COLUMNS[1:]):
        out.notes.append(Problem.of(sheet.file, header_row + 1, sheet.name or None,
                                    "player ids but no player name column: players are shown "
                                    "by their id", code="NO_PLAYER_NAMES"))
