"""Formats as data: TOML files validated by pydantic.

The shipped formats live in ``banlists/formats/*.toml``; a user's own format is any TOML file
of the same shape, given to ``--format``. A format names its section sizes, copy limit, card
pool, Legend rule, forbidden card types, points cap and default list. The card types, regions
and kinds it names are the card table's own words (:mod:`validator.cards.db`), in any case
("Link", "link"); any other word is refused, naming the field.

A Genesys format's points are those of its list (a ``$genesys`` lflist, or YGOJSON's
``genesys`` legality), else the card data's: the list checked against is the points list.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from validator.cards.db import KINDS, REGIONS, SUBTYPES, Kind, Region, Subtype
from validator.errors import InputError
from validator.text.datafile import read_model
from validator.vocab import Lang

__all__ = ["Format", "banlists_dir", "format_names", "load_format"]


#: the fields that name the card table's words, and those words
_WORDS: dict[str, tuple[str, ...]] = {
    "card_pool": REGIONS, "forbidden_types": SUBTYPES, "allowed_kinds": KINDS}


def _main_kinds() -> list[Kind]:
    return ["monster", "spell", "trap"]


class Format(BaseModel):
    """Deck-construction rules of one format."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    titles: dict[Lang, str] = Field(
        default_factory=dict, description="the title in Japanese, Korean and Thai")
    main_min: int = Field(40, ge=0)
    main_max: int = Field(60, ge=0, validate_default=True)
    extra_max: int = Field(15, ge=0)
    side_max: int = Field(15, ge=0)
    copy_limit: int = Field(3, ge=1)
    card_pool: list[Region] = Field(
        default_factory=list,
        description="regions a card must be released in (any one); empty: any region",
    )
    rush: bool = Field(False, description="only Rush Duel cards are legal")
    legend_limit: int | None = Field(
        None, description="Rush: Legend cards allowed per card type in main+extra"
    )
    forbidden_types: list[Subtype] = Field(
        default_factory=list, description="monster types the format bans (link, pendulum, ...)")
    allowed_kinds: list[Kind] = Field(default_factory=_main_kinds)
    skill_max: int | None = None
    points_cap: float | None = None
    forbidden_as_limited: bool = False
    default_list: str = Field(
        description="the demo list under banlists/ used with the demo cards, or ygojson:REGION")
    public_list: str | None = Field(
        None, description="file name of the public list `deckcheck data update` downloads")
    list_pattern: str | None = Field(
        None, description="regular expression a list's own name (its `!name` line) matches "
                          "when the list is this format's list: the newest such list in the "
                          "data store is the default, and every card it names counts as "
                          "released in the format's card pool")
    default_list_name: str | None = None

    @field_validator(*_WORDS, mode="before")
    @classmethod
    def _any_case(cls, words: object, info: ValidationInfo) -> object:
        """The card table's words are lower case; a format may write them in any case (a
        word that is none of them is left as written, for the message)."""
        if not isinstance(words, list):
            return words
        known = _WORDS[str(info.field_name)]
        return [w.lower() if isinstance(w, str) and w.lower() in known else w for w in words]

    @field_validator("main_max")
    @classmethod
    def _sizes(cls, main_max: int, info: ValidationInfo) -> int:
        main_min = info.data.get("main_min")
        if isinstance(main_min, int) and main_min > main_max:
            raise ValueError(f"main_max is smaller than main_min ({main_min})")
        return main_max

    @field_validator("list_pattern")
    @classmethod
    def _pattern(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"not a regular expression ({exc})") from exc
        return pattern

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
    return read_model(Format, path)
