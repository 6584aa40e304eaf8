"""Parsing every deck source in one batch.

YDK files — nearly every submitted deck — are parsed together: all their lines in one
column, sections filled down per file, passcodes cast at once (``readers.ydk.ydk_table``),
not one table per file. ydke links and deck codes (``codes.py``) are decoded with NumPy into
one table per kind; text lists line by line. A deck
with no cards is still a deck (checked: an empty main deck is too small). A line that cannot
be read is reported with its deck: the head judge decides what it says, and the deck's
counting verdicts wait for that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from validator.errors import InputError, Problem, capped
from validator.inputs.decks import prefetch
from validator.inputs.decks.sources import (
    DECK_SUFFIXES,
    Progress,
    Source,
    path_sources,
    upload_sources,
)
from validator.inputs.decks.ydk import YdkeDeck, YdkParts, ydk_table, ydke_codes, ydke_table
from validator.inputs.entries import conform, entries_frame

if TYPE_CHECKING:
    from validator.inputs.decks.codes import CodeDeck

__all__ = ["DeckFiles", "parse_sources", "read_deck_file", "read_deck_paths", "read_deck_uploads",
           "require_decks", "ydk_parts"]


@dataclass
class DeckFiles:
    entries: pl.DataFrame
    problems: list[Problem]
    ids: list[str]  # every deck read, in order, those without a single card included
    labels: dict[str, str]  # deck id → where it came from

    def unreadable(self) -> list[Problem]:
        """Lines of decks that could not be read (decisions for the head judge)."""
        return [p for p in self.problems if p.deck_id is not None]


def _kind(source: Source) -> str:
    if source.kind:
        return source.kind
    if source.data[:1] == b"#" and source.label[-4:].lower() == ".ydk":  # nearly every deck
        return "ydk"
    head = source.data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"ydke://"):
        return "ydke"
    if source.label.lower().endswith(".ydk") or head.startswith(
            (b"#created", b"#main", b"#extra", b"!side")):
        return "ydk"
    from validator.inputs.decks.codes import maybe_code  # deck codes and text lists only

    return "code" if maybe_code(source.data) else "text"  # read_code tells


def ydk_parts() -> tuple[YdkParts, Callable[[Source], None]]:
    """YDK files parsed as they are read: the parts, and what takes each source (its kind
    kept in ``parts.kinds``, in the order taken)."""
    parts = YdkParts()
    kinds = parts.kinds

    def take(source: Source) -> None:
        kind = _kind(source)
        kinds.append(kind)
        if kind == "ydk":
            parts.add(source.label, source.deck_id, source.data)

    return parts, take


def parse_sources(sources: list[Source], problems: list[Problem],
                  ydk: YdkParts | None = None) -> DeckFiles:
    """Every source parsed; the decks that could be read, and every problem. ``ydk`` holds
    the YDK sources already given to it (``ydk_parts``), else they are parsed here."""
    problems = list(problems)
    frames: list[pl.DataFrame] = []
    read: list[str] = []
    by_kind: dict[str, list[Source]] = {"ydk": [], "ydke": [], "code": [], "text": []}
    kinds = ydk.kinds if ydk is not None and len(ydk.kinds) == len(sources) else map(
        _kind, sources)
    for source, kind in zip(sources, kinds, strict=True):
        by_kind[kind].append(source)
    ydk_sources = by_kind["ydk"]
    if ydk_sources:
        entries, found = ydk.finish() if ydk is not None else ydk_table(
            [s.label for s in ydk_sources], [s.deck_id for s in ydk_sources],
            [s.data for s in ydk_sources])
        frames.append(entries)
        problems.extend(found)
        unreadable = {p.file for p in found if p.deck_id is None and p.line is None}
        read.extend(s.deck_id for s in ydk_sources if s.label not in unreadable)
    links: list[YdkeDeck] = []
    for source in by_kind["ydke"]:
        text = source.data.decode("utf-8-sig", errors="replace").strip()
        line = 1 if not source.kind else None
        codes, wrong = ydke_codes(text.splitlines()[0] if text else "")
        if wrong:
            problems.extend(Problem.of(source.label, line, None, msgid, code="BAD_YDKE",
                                       **values) for msgid, values in wrong)
            continue
        links.append((codes, source.label, source.deck_id, line, None))
        read.append(source.deck_id)
    if links:
        frames.append(ydke_table(links))
    decoded: list[CodeDeck] = []
    if by_kind["code"]:
        from validator.inputs.decks.codes import Code, code_problem, codes_table, read_code
    for source in by_kind["code"]:
        code = read_code(source.data.decode("utf-8", errors="replace"))
        if code is None:  # one word, no code: a text list of one card
            by_kind["text"].append(source)
            continue
        line = 1 if not source.kind else None
        if not isinstance(code, Code):
            problems.append(code_problem(source.label, code, line))
            continue
        decoded.append((code, source.label, source.deck_id, line, None))
        read.append(source.deck_id)
    if decoded:
        frames.append(codes_table(decoded))
    rows: list[dict[str, object]] = []
    if by_kind["text"]:
        from validator.inputs.decks.textlist import text_list_rows
    for source in by_kind["text"]:
        try:
            found_rows, found = text_list_rows(source.data, source.label, source.deck_id)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        rows += found_rows
        problems.extend(found)
        read.append(source.deck_id)
    if rows:
        frames.append(entries_frame(rows))
    if len(by_kind["ydk"]) == len(sources):  # YDK files only: read in their order
        ids = read
    else:
        order = {s.deck_id: i for i, s in enumerate(sources)}
        ids = sorted(read, key=order.__getitem__)
    entries = pl.concat([conform(f) for f in frames]) if frames else entries_frame()
    return DeckFiles(entries, capped(problems), ids, {s.deck_id: s.label for s in sources})


def read_deck_paths(paths: list[object], progress: Progress | None = None) -> DeckFiles:
    """Decks from files, folders (searched recursively) and zips; ``progress(done, total)``
    follows the files as they are read. Files read ahead (``prefetch``) are taken as read."""
    ahead = prefetch.taken([Path(str(p)) for p in paths])
    if ahead is not None:
        if progress is not None:
            progress(len(ahead[0]), len(ahead[0]))
        return parse_sources(*ahead)
    parts, take = ydk_parts()  # YDK files parsed while the next ones are read
    sources, problems = path_sources([Path(str(p)) for p in paths], progress, take)
    return parse_sources(sources, problems, parts)


def read_deck_uploads(files: list[tuple[str, bytes]], pasted: str = "") -> DeckFiles:
    """Decks from uploaded files (deck files or zips, by name) and pasted lines of
    ``PLAYER_ID ydke://...`` (or another deck code); nothing is written to disk."""
    sources, problems = upload_sources(files, pasted)
    return parse_sources(sources, problems)


def read_deck_file(path: Path, deck_id: str | None = None) -> pl.DataFrame:
    """A deck file by its content: YDK, a ydke link, a deck code, or a text list (resolved
    later); any unreadable line is raised."""
    read = parse_sources([Source(str(path), deck_id or path.stem, path.read_bytes())], [])
    if read.problems:
        raise InputError(read.problems)
    return read.entries


def require_decks(files: DeckFiles, label: str) -> None:
    """Raise when the paths named by ``label`` held no deck file at all (nor a file that
    could not be read): a folder of other files, an empty zip."""
    if not files.ids and not files.problems:
        kinds = ", ".join((*DECK_SUFFIXES, ".zip"))
        raise InputError.of(label, "no deck files found ({kinds})", code="NO_DECK_FILES",
                            kinds=kinds)
