"""Deck codes that simulators hand players, read by their content and written back out.

* **Omega code** (YGO Omega; as ``man-netcat/yugitoolbox`` reads and writes it): base64 of
  raw DEFLATE of one byte for the main + extra deck's card count, one byte for the side's,
  then little-endian uint32 passcodes of the main and extra deck together (the card's kind
  decides which deck it is in), then the side, then optionally a uint32 cover card;
* **mycard / ygopro deck code** (npm ``ygopro-deck-encode``): base64url of little-endian
  uint32 values, each 28 bits of passcode, 2 bits of section (0 main, 1 extra, 2 side) and
  2 bits of count − 1;
* **YGOMobile deck link** (the same package): ``http://deck.ourygo.top?ygotype=deck&v=1&d=…``,
  ``d`` the base64url of a big-endian bit stream: 8 bits for the number of entries of the
  main deck, 4 for the extra, 4 for the side, then per entry (1 to 3 copies of a card) 2
  bits of count and 27 bits of passcode;
* **ydke links inside other text**: a message or a deck builder's share address holding
  ``ydke://MAIN!EXTRA!SIDE!`` (percent-encoded or not), or the three parts as a query value.

A source is a deck code when it holds a YGOMobile link or a ydke link, or when it is one
token of base64 (or base64url) characters that is no card's name: 40 characters or more
(the longest one-word card name in one of the alphabets has 37), or shorter with a digit or
``+/_=`` and decoding as a code; a token of 48 characters or more with other characters is
a code with a character wrong (the longest one-word name has 40). A
code that decodes as no format is one problem naming every format tried and why it failed.

The main and extra deck of an Omega code come as one: its entries are in the main deck with
the slot ``main_or_extra``, and the resolver (``engine.resolve``) moves Extra Deck monsters
to the extra deck, where the cards are known.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, unquote, urlsplit

import polars as pl

from validator.errors import InputError, Problem
from validator.inputs.decks.ydk import where_read, ydke_codes
from validator.inputs.entries import ENTRY_SCHEMA, conform
from validator.vocab import SECTIONS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CODE_FORMATS", "MAIN_OR_EXTRA", "Code", "CodeDeck", "code_problem", "codes_table",
           "decode_mycard", "decode_omega", "decode_ygomobile", "is_code", "maybe_code",
           "parse_code", "read_code", "to_mycard", "to_omega", "to_ygomobile",
           "ygomobile_link"]

#: the slot of entries whose section (main or extra deck) the card's kind decides
MAIN_OR_EXTRA = "main_or_extra"
#: the deck codes read here, by the names ``deckcheck convert --to`` gives them
CODE_FORMATS = ("omega", "mycard", "ygomobile", "ydke")
_NAMES = {"omega": "Omega code", "mycard": "mycard deck code", "ygomobile": "YGOMobile link",
          "ydke": "ydke link"}
#: a section number of the decoded arrays beyond main (0), extra (1) and side (2)
_EITHER = 3
#: shorter tokens of base64 characters may be one-word card names ("Naturkatastrophe")
_ALWAYS_A_CODE = 40
_SHORTEST = 16
#: a token with characters of neither alphabet is still a (broken) code from this length on
_BROKEN_CODE = 48
_MAX_CODE = 1 << 16  # characters: a deck code of any real deck is far shorter
_OMEGA_BYTES = 2 + 4 * (255 + 255 + 1)
MYCARD_BITS = 28
YGOMOBILE_BITS = 27
YGOMOBILE_HOST = "deck.ourygo.top"

_STD = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_URL_ONLY = re.compile(r"[A-Za-z0-9_\-]+={0,2}")
#: what ``ygopro-deck-encode`` decodes as base64url: either alphabet
_URLSAFE = re.compile(r"[A-Za-z0-9_\-+/]+={0,2}")
_TELLS = re.compile(r"[0-9+/_=]")
_YDKE = re.compile(r"ydke://([A-Za-z0-9+/=]*+![A-Za-z0-9+/=]*+![A-Za-z0-9+/=]*+!?)",
                   re.IGNORECASE)
_YDKE_VALUE = re.compile(r"[?&#](?:[^=&#?\s]*+=)?"
                         r"([A-Za-z0-9+/=]++![A-Za-z0-9+/=]*+![A-Za-z0-9+/=]*+!?)")
_LINK = re.compile(r"ygotype=deck", re.IGNORECASE)


@dataclass(frozen=True)
class Code:
    """One decoded deck code: per entry a passcode, its section (0 main, 1 extra, 2 side,
    3 main or extra by the card's kind) and its copies; the cover card of an Omega code."""

    format: str
    passcodes: np.ndarray
    sections: np.ndarray
    counts: np.ndarray
    cover: int | None = None

    def cards(self) -> dict[str, list[int]]:
        """Every copy by section (``main_or_extra`` for an Omega code's first part)."""
        named = (*SECTIONS, MAIN_OR_EXTRA)
        out: dict[str, list[int]] = {}
        for code, section, count in zip(self.passcodes.tolist(), self.sections.tolist(),
                                        self.counts.tolist(), strict=True):
            out.setdefault(named[section], []).extend([int(code)] * int(count))
        return out


def _arrays(passcodes: Sequence[int] | np.ndarray, sections: np.ndarray | int,
            counts: np.ndarray | int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    import numpy as np

    codes = np.asarray(passcodes, dtype=np.int64)
    return (codes, np.broadcast_to(np.asarray(sections, np.uint8), codes.shape).copy(),
            np.broadcast_to(np.asarray(counts, np.int32), codes.shape).copy())


def _base64(text: str, urlsafe: bool) -> bytes | str:
    """The bytes of base64 (or base64url, unpadded) text, or why it is not."""
    pattern = _URLSAFE if urlsafe else _STD
    if not pattern.fullmatch(text):
        bad = next((c for c in text if not pattern.fullmatch(c) and c != "="), "=")
        return f"{bad!r} is not a base64{'url' if urlsafe else ''} character"
    body = text.rstrip("=")
    if urlsafe:
        body = body.replace("-", "+").replace("_", "/")
    if len(body) % 4 == 1:
        return "its length is not that of any base64 text (one character too many or few)"
    if not urlsafe and len(text) % 4:
        return "not padded to whole base64 groups of 4 characters"
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        return f"not base64 ({exc})"


def decode_omega(text: str) -> Code | str:
    """An Omega code, or why it is not one."""
    import numpy as np

    raw = _base64(text, urlsafe=False)
    if isinstance(raw, str):
        return raw
    inflate = zlib.decompressobj(-15)
    try:
        data = inflate.decompress(raw, _OMEGA_BYTES + 1)
    except zlib.error as exc:
        return f"not DEFLATE data ({exc})"
    if len(data) > _OMEGA_BYTES or inflate.unconsumed_tail:
        return "inflates to more data than any deck"
    if not inflate.eof:
        return "the DEFLATE data is truncated"
    if inflate.unused_data:
        return f"{len(inflate.unused_data)} bytes after the end of the DEFLATE data"
    if len(data) < 2:
        return "shorter than its two card counts"
    both, side = data[0], data[1]
    need = 2 + 4 * (both + side)
    if len(data) < need:
        return (f"counts past the end of the data ({both} main and extra and {side} side "
                f"cards need {need} bytes, it holds {len(data)})")
    rest = len(data) - need
    if rest not in (0, 4):
        return f"{rest} bytes after the cards (expected none, or a 4-byte cover card)"
    cards = np.frombuffer(data, dtype="<u4", count=both + side, offset=2).astype(np.int64)
    cover = struct.unpack_from("<I", data, need)[0] if rest else None
    sections = np.repeat(np.array([_EITHER, 2], np.uint8), [both, side])
    return Code("omega", *_arrays(cards, sections), cover=cover or None)


def decode_mycard(text: str) -> Code | str:
    """A mycard / ygopro deck code, or why it is not one."""
    import numpy as np

    raw = _base64(text, urlsafe=True)
    if isinstance(raw, str):
        return raw
    if not raw or len(raw) % 4:
        return f"{len(raw)} bytes: not whole 4-byte cards"
    values = np.frombuffer(raw, dtype="<u4").astype(np.int64)
    sections = (values >> MYCARD_BITS) & 3
    wrong = np.flatnonzero(sections == _EITHER)
    if wrong.size:
        return (f"card {int(wrong[0]) + 1} has the section value 3, which no deck section "
                "uses")
    return Code("mycard", values & ((1 << MYCARD_BITS) - 1), sections.astype(np.uint8),
                ((values >> 30) + 1).astype(np.int32))


def decode_ygomobile(link: str) -> Code | str:
    """A YGOMobile deck link, or why it is not one."""
    import numpy as np

    query = parse_qs(urlsplit(link.strip()).query)
    if query.get("ygotype", [""])[0].lower() != "deck":
        return "no ygotype=deck in the link"
    if query.get("v", ["1"])[0] != "1":
        return f"version {query['v'][0]!r} of the link is not known (expected 1)"
    if not query.get("d"):
        return "no deck data (d=) in the link"
    raw = _base64(query["d"][0], urlsafe=True)
    if isinstance(raw, str):
        return raw
    bits = np.unpackbits(np.frombuffer(raw, np.uint8)).astype(np.int64)
    if bits.size < 16:
        return "shorter than its three entry counts"
    weights = 1 << np.arange(7, -1, -1, dtype=np.int64)
    main, extra, side = int(bits[:8] @ weights), int(bits[8:12] @ weights[4:]), \
        int(bits[12:16] @ weights[4:])
    total = main + extra + side
    need = 16 + 29 * total
    if bits.size < need:
        return (f"counts past the end of the data ({main} main, {extra} extra and {side} "
                f"side entries need {need} bits, it holds {bits.size})")
    entries = bits[16:need].reshape(total, 29)
    prefix = entries[:, :2] @ np.array([2, 1], np.int64)
    codes = entries[:, 2:] @ (1 << np.arange(26, -1, -1, dtype=np.int64))
    counts = np.where(prefix >= 2, prefix, 1).astype(np.int32)  # 0 and 1: one copy
    sections = np.repeat(np.array([0, 1, 2], np.uint8), [main, extra, side])
    return Code("ygomobile", codes, sections, counts)


def _ydke(text: str) -> Code | str | None:
    """The ydke link in a text (a message, a share address), or None when it holds none."""
    import numpy as np

    plain = unquote(text) if "%" in text else text
    found = _YDKE.search(plain) or _YDKE_VALUE.search(plain)
    if found is None:
        return None
    parts, wrong = ydke_codes("ydke://" + found.group(1))
    if wrong:
        return "; ".join(msgid.format(**values) for msgid, values in wrong)
    codes = [part for _, part in parts]
    sections = np.repeat(np.array([0, 1, 2], np.uint8), [len(c) for c in codes])
    return Code("ydke", *_arrays(np.concatenate(codes), sections))


def _token(text: str) -> tuple[str, bool] | None:
    """The text as one token long enough to be a code, and whether it is one whatever it
    decodes to; None when it is no token of a code."""
    token = text.strip()
    if len(token) < _SHORTEST or len(token) > _MAX_CODE or not token.isascii() or len(
            token.split()) != 1:
        return None
    if _STD.fullmatch(token) or _URL_ONLY.fullmatch(token):
        return token, len(token) >= _ALWAYS_A_CODE
    # both alphabets at once, or other characters ("Drache-X/Angriffsmodus"): a word, or a
    # code with a character wrong when it is longer than any one-word name (40)
    return (token, True) if len(token) >= _BROKEN_CODE else None


def _word_around(text: str, found: re.Match[str] | None) -> str:
    """The whitespace-delimited word of ``text`` that holds ``found`` (all of it without)."""
    if found is None:
        return text
    start, end = found.start(), found.end()
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def read_code(text: str) -> Code | list[str] | None:
    """The deck code a text holds; the formats tried and why each failed (``"Omega code:
    …"``) when it holds one that does not decode; None when it is no deck code at all."""
    if len(text) > _MAX_CODE:
        return None
    if "ygotype=deck" in text.lower():
        decoded = decode_ygomobile(_word_around(text, _LINK.search(text)))
        return decoded if isinstance(decoded, Code) else [f"{_NAMES['ygomobile']}: {decoded}"]
    if "!" in text:
        linked = _ydke(text)
        if linked is not None:
            return linked if isinstance(linked, Code) else [f"{_NAMES['ydke']}: {linked}"]
    candidate = _token(text)
    if candidate is None:
        return None
    token, strong = candidate
    tried: list[str] = []
    for name, decode in (("omega", decode_omega), ("mycard", decode_mycard)):
        decoded = decode(token)
        if isinstance(decoded, Code):
            if not strong and not _TELLS.search(token):
                return None  # a word that happens to decode: a one-word card name
            return decoded
        tried.append(f"{_NAMES[name]}: {decoded}")
    return tried if strong else None


def maybe_code(data: bytes) -> bool:
    """Whether a source's bytes may hold a deck code (``read_code`` tells): a ydke or
    YGOMobile link anywhere, or one token."""
    if len(data) > _MAX_CODE:
        return False
    lower = data.lower()
    return b"ydke" in lower or b"ygotype=deck" in lower or len(data.split()) == 1


def is_code(data: bytes | str) -> bool:
    """Whether a source's content is a deck code (read or not), by its content alone."""
    if isinstance(data, bytes):
        if not maybe_code(data):
            return False
        data = data.decode("utf-8", errors="replace")
    return read_code(data) is not None


#: one decoded code with its place: the code, file, deck id, line and cell
CodeDeck = tuple[Code, str, str, "int | None", "str | None"]


def codes_table(decks: Sequence[CodeDeck]) -> pl.DataFrame:
    """Many decoded codes as one entry table: the arrays concatenated, each row's deck
    gathered by number (no frame per deck). Entries of the main and extra deck together
    are in the main deck with the slot ``main_or_extra``."""
    import numpy as np

    codes = [np.zeros(0, np.int64), *(d[0].passcodes for d in decks)]
    sections = [np.zeros(0, np.uint8), *(d[0].sections for d in decks)]
    counts = [np.zeros(0, np.int32), *(d[0].counts for d in decks)]
    owner = pl.Series(np.repeat(np.arange(len(decks), dtype=np.int64),
                                [len(d[0].passcodes) for d in decks]))
    section = pl.Series(np.concatenate(sections))
    decks_of = where_read(decks)
    names = pl.Series([*SECTIONS, "main"], dtype=ENTRY_SCHEMA["section"])
    slots = pl.Series([None, None, None, MAIN_OR_EXTRA], dtype=pl.Utf8).cast(
        ENTRY_SCHEMA["slot"])
    return conform(pl.DataFrame({
        "section": names.gather(section),
        "passcode": pl.Series(np.concatenate(codes), dtype=pl.Int64),
        "qty": pl.Series(np.concatenate(counts), dtype=pl.Int32),
        "slot": slots.gather(section)}).with_columns(
        decks_of.select(pl.all().gather(owner)).get_columns()))


def code_problem(file: str, tried: list[str], line: int | None = None,
                 cell: str | None = None) -> Problem:
    """The one problem of a deck code that does not decode."""
    return Problem.of(file, line, cell, "a deck code that does not decode; tried {tried}",
                      code="BAD_DECK_CODE", tried="; ".join(tried))


def parse_code(text: str, file: str, deck_id: str, line: int | None = None,
               cell: str | None = None) -> pl.DataFrame:
    """One deck code as entries (a form's cell); one problem raised when it does not
    decode."""
    found = read_code(text)
    if found is None:
        raise InputError(Problem.of(file, line, cell, "not a deck code", code="BAD_DECK_CODE"))
    if isinstance(found, list):
        raise InputError(code_problem(file, found, line, cell))
    return codes_table([(found, file, deck_id, line, cell)])


# writers ------------------------------------------------------------------------------


def _too_wide(codes: Sequence[int], bits: int, name: str, label: str) -> None:
    wide = [code for code in codes if not 0 <= code < 1 << bits]
    if wide:
        raise InputError.at(label, f"passcode {wide[0]} does not fit the {bits} bits of a "
                                   f"{name} (Skills and GOAT entries have wider passcodes)",
                            code="CANNOT_WRITE")


def _grouped(cards: Sequence[int]) -> list[tuple[int, int]]:
    """Each card of a section with its copies, in order of first appearance."""
    counts: dict[int, int] = {}
    for code in cards:
        counts[code] = counts.get(code, 0) + 1
    return list(counts.items())


def to_omega(main: Sequence[int], extra: Sequence[int], side: Sequence[int],
             cover: int | None = None, label: str = "deck") -> str:
    """An Omega code (raw DEFLATE, as YGO Omega and yugitoolbox write it)."""
    both = [*main, *extra]
    for count, part in ((len(both), "main and extra deck"), (len(side), "side deck")):
        if count > 255:
            raise InputError.at(label, f"{count} cards in the {part}: an Omega code holds "
                                       "at most 255", code="CANNOT_WRITE")
    _too_wide([*both, *side, *([cover] if cover else [])], 32, "Omega code", label)
    payload = bytes([len(both), len(side)]) + struct.pack(
        f"<{len(both) + len(side)}I", *both, *side) + (
        struct.pack("<I", cover) if cover else b"")
    deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return base64.b64encode(deflate.compress(payload) + deflate.flush()).decode()


def to_mycard(main: Sequence[int], extra: Sequence[int], side: Sequence[int],
              label: str = "deck") -> str:
    """A mycard / ygopro deck code (as ``ygopro-deck-encode`` writes it)."""
    _too_wide([*main, *extra, *side], MYCARD_BITS, "mycard deck code", label)
    values: list[int] = []
    for section, cards in enumerate((main, extra, side)):
        for code, copies in _grouped(cards):
            while copies:
                take = min(copies, 4)
                values.append(code | section << MYCARD_BITS | (take - 1) << 30)
                copies -= take
    raw = struct.pack(f"<{len(values)}I", *values)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def to_ygomobile(main: Sequence[int], extra: Sequence[int], side: Sequence[int],
                 label: str = "deck") -> str:
    """A YGOMobile deck link's data (``d=``), as ``ygopro-deck-encode`` writes it."""
    _too_wide([*main, *extra, *side], YGOMOBILE_BITS, "YGOMobile link", label)
    sections: list[list[tuple[int, int]]] = []
    for cards, name, most in ((main, "main", 255), (extra, "extra", 15),
                              (side, "side", 15)):
        entries = [(code, min(3, copies - start)) for code, copies in _grouped(cards)
                   for start in range(0, copies, 3)]
        if len(entries) > most:
            raise InputError.at(label, f"{len(entries)} different entries in the {name} "
                                       f"deck: a YGOMobile link holds at most {most}",
                                code="CANNOT_WRITE")
        sections.append(entries)
    stream, size = 0, 0

    def put(value: int, bits: int) -> None:
        nonlocal stream, size
        stream, size = stream << bits | value, size + bits

    for entries, bits in zip(sections, (8, 4, 4), strict=True):
        put(len(entries), bits)
    for entries in sections:
        for code, copies in entries:
            put(copies, 2)
            put(code, YGOMOBILE_BITS)
    pad = -size % 8
    raw = (stream << pad).to_bytes((size + pad) // 8, "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def ygomobile_link(main: Sequence[int], extra: Sequence[int], side: Sequence[int],
                   label: str = "deck") -> str:
    """A whole YGOMobile deck link."""
    return (f"http://{YGOMOBILE_HOST}?ygotype=deck&v=1&d="
            f"{to_ygomobile(main, extra, side, label)}")
