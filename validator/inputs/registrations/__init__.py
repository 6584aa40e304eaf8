"""Registered deck lists from spreadsheets and CSV exports, in any of four layouts.

* **long**: a header row and one row per (player, section, quantity, card); a passcode
  column is used when present;
* **Konami sheet**: player name, KONAMI ID / CARD GAME ID, event and date labels, then
  Monster/Spell/Trap/Side/Extra blocks of quantity + name with their written totals (a
  written total that disagrees with its rows is reported at the number's cell);
* **one worksheet per player**: each sheet in the Konami layout (the sheet name is the
  player id when the sheet has none); a blank sheet (a template left empty) is skipped and
  reported;
* **forms export**: one row per submission with Main/Extra/Side columns holding multi-line
  text lists, or a column of ydke:// links.

Headers are matched loosely through the lexicon ("KONAMI ID (Card Game ID)", "Konami ID #",
"Full name", "First (Given) Name" + "Last (Family) Name"); when a header names the cards
but not the players, one problem lists the headers seen and the words expected.

Players: a KONAMI id is read as typed by a person or a spreadsheet: digits only ("0401-999-
888"), zero-padded to 10 digits when the event's other ids have 10 (Excel drops the leading
zero); an id shown in scientific notation has lost digits and is a problem. A player who
submitted a forms export twice keeps the latest submission (by its timestamp, else the later
row); the earlier one is reported as superseded. The same player registered in two places of
other layouts is a problem naming both, never a merge: the first place is read.

Every row is either used or reported: a row that cannot be read becomes a problem with its
file, sheet and cell (and its player, when known: the head judge decides what it says).
Hidden sheets are not read and are reported. ``rows_read == rows_used + rows_reported``.
"""
