"""The model a format file is validated by (pydantic), imported only when a format is
validated: a user's format file, or a shipped one the first time it is read
(:func:`validator.cards.formats.load_format`)."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from validator.cards.db import KINDS, REGIONS, SUBTYPES, Kind, Region, Subtype
from validator.vocab import Lang

__all__ = ["FormatFile"]


#: the fields that name the card table's words, and those words
_WORDS: dict[str, tuple[str, ...]] = {
    "card_pool": REGIONS, "forbidden_types": SUBTYPES, "allowed_kinds": KINDS}


def _main_kinds() -> list[Kind]:
    return ["monster", "spell", "trap"]


class FormatFile(BaseModel):
    """A format file: deck-construction rules of one format."""

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
