"""Formats as data: TOML files validated by pydantic (:mod:`validator.cards._format_file`).

The shipped formats live in ``banlists/formats/*.toml``; a user's own format is any TOML file
of the same shape, given to ``--format``. A format names its section sizes, copy limit, card
pool, Legend rule, forbidden card types, points cap and default list. The card types, regions
and kinds it names are the card table's own words (:mod:`validator.cards.db`), in any case
("Link", "link"); any other word is refused, naming the field.

A shipped format is validated once and then read from the cache (``validated_once``): a
check with a shipped format imports no pydantic.

A Genesys format's points are those of its list (a ``$genesys`` lflist, or YGOJSON's
``genesys`` legality), else the card data's: the list checked against is the points list.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from validator.errors import InputError
from validator.text.datafile import read_model, validated_once

if TYPE_CHECKING:
    from validator.cards.db import Kind, Region, Subtype
    from validator.vocab import Lang

__all__ = ["Format", "banlists_dir", "format_names", "load_format"]


class Format(NamedTuple):
    """Deck-construction rules of one format (the fields of a format file, validated by
    :class:`~validator.cards._format_file.FormatFile`, which documents each; made from the
    validated data only). A named tuple: made at every start, it costs a fraction of a
    dataclass's generated methods."""

    name: str
    title: str
    titles: dict[Lang, str]
    main_min: int
    main_max: int
    extra_max: int
    side_max: int
    copy_limit: int
    card_pool: list[Region]
    rush: bool
    legend_limit: int | None
    forbidden_types: list[Subtype]
    allowed_kinds: list[Kind]
    skill_max: int | None
    points_cap: float | None
    forbidden_as_limited: bool
    default_list: str
    public_list: str | None
    list_pattern: str | None
    default_list_name: str | None

    def owns_list(self, list_name: str) -> bool:
        """Whether a list of this name is this format's own list."""
        return self.list_pattern is not None and re.search(self.list_pattern, list_name) is \
            not None


def banlists_dir() -> Path:
    """The ``banlists/`` folder: inside the installed package, else beside it in a checkout."""
    package = Path(__file__).resolve().parent.parent  # validator/
    for candidate in (package / "banlists", package.parent / "banlists"):
        if (candidate / "formats").is_dir():
            return candidate
    raise InputError.at(str(package.parent / "banlists"), "the shipped formats are missing",
                        code="FILE_MISSING")


def format_names() -> list[str]:
    return sorted(p.stem for p in (banlists_dir() / "formats").glob("*.toml"))


def load_format(spec: str) -> Format:
    """A shipped format by name (``advanced-tcg``) or a user's TOML file."""
    path = Path(spec)
    if not (path.suffix == ".toml" and path.exists()):
        path = banlists_dir() / "formats" / f"{spec}.toml"
        if not path.exists():
            raise InputError.at(
                spec, f"unknown format; expected a TOML file or one of {', '.join(format_names())}",
                code="UNKNOWN_FORMAT"
            )
        return Format(**validated_once("format", [path.read_bytes(), *_code()],
                                       lambda: _validated(path)))
    return Format(**_validated(path))


def _code() -> list[bytes]:
    """The source of the code a format's validated data depends on."""
    here = Path(__file__)
    return [here.read_bytes(), here.with_name("_format_file.py").read_bytes()]


def _validated(path: Path) -> dict[str, Any]:
    """A format file validated by pydantic, as plain data (an ``InputError`` naming every
    field refused)."""
    from validator.cards._format_file import FormatFile

    return read_model(FormatFile, path).model_dump()
