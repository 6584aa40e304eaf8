"""The infraction catalogue of each regulation (sections 4 onward): what a judge records by
hand, with the regulation's default penalty. Texts in en, ja, ko and th; data, not code.

``data/infractions/common.toml`` holds what each infraction and section is, in every
language; ``<regulation>.toml`` which of them the regulation lists, under which section, with
which default penalty. Both are validated when read: a text missing a language, a section or
an infraction the common file lacks, or a penalty that is not one of the regulations' is
refused, naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from validator.errors import InputError
from validator.judging.penalties import penalty_types
from validator.text.datafile import data_file, read_model, refused
from validator.vocab import LANGS, REGULATIONS, Lang, Regulation

__all__ = ["Infraction", "catalogue", "infraction"]


@dataclass(frozen=True)
class Infraction:
    code: str
    section: str
    section_title: dict[Lang, str]
    text: dict[Lang, str]
    penalty: str
    note: str = ""


def _every_language(texts: dict[Lang, str]) -> dict[Lang, str]:
    missing = [lang for lang in LANGS if not texts.get(lang, "").strip()]
    if missing:
        raise ValueError(f"no text in {', '.join(missing)}")
    return texts


#: one text in every language
Translated = Annotated[dict[Lang, str], AfterValidator(_every_language)]


class Common(BaseModel):
    """``common.toml``: each section's title and each infraction's text."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    sections: dict[str, Translated]
    infractions: dict[str, Translated]


class Listed(BaseModel):
    """One infraction as a regulation lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    section: str
    penalty: str
    note: str = ""

    @field_validator("section")
    @classmethod
    def _known_section(cls, section: str, info: ValidationInfo) -> str:
        known: dict[str, Any] = (info.context or {}).get("sections", {})
        if section not in known:
            raise ValueError(f"section {section!r} has no title in common.toml (expected one "
                             f"of {', '.join(known)})")
        return section

    @field_validator("penalty")
    @classmethod
    def _known_penalty(cls, penalty: str) -> str:
        if penalty not in penalty_types():
            raise ValueError(f"{penalty!r} is not a penalty (expected one of "
                             f"{', '.join(penalty_types())})")
        return penalty


class Listing(BaseModel):
    """``<regulation>.toml``: the infractions the regulation lists, in its order."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    regulation: Regulation
    infractions: dict[str, Listed] = Field(min_length=1)

    @field_validator("infractions")
    @classmethod
    def _known_codes(cls, listed: dict[str, Listed], info: ValidationInfo) -> dict[str, Listed]:
        known: dict[str, Any] = (info.context or {}).get("infractions", {})
        unknown = [code for code in listed if code not in known]
        if unknown:
            raise refused("Listing", [((code,), "no text for this infraction in common.toml",
                                       code) for code in unknown])
        return listed


@cache
def catalogue(regulation: str, folder: Traversable | None = None) -> tuple[Infraction, ...]:
    """Every infraction the regulation lists, in its order (read from ``folder``, by default
    the catalogue the package ships)."""
    if regulation not in REGULATIONS:
        raise InputError.at(regulation, f"unknown regulation; expected {', '.join(REGULATIONS)}",
                            code="UNKNOWN_REGULATION")
    where = folder or data_file("infractions")
    common = read_model(Common, where / "common.toml")
    listing = read_model(Listing, where / f"{regulation}.toml", context=dict(common))
    if listing.regulation != regulation:
        raise InputError.at(str(where / f"{regulation}.toml"),
                            f"the file is named {regulation} but is the {listing.regulation} "
                            "regulation's", column="regulation", code="BAD_SETTING")
    return tuple(
        Infraction(code, entry.section, dict(common.sections[entry.section]),
                   dict(common.infractions[code]), entry.penalty, entry.note)
        for code, entry in listing.infractions.items())


def infraction(regulation: str, code: str) -> Infraction:
    for item in catalogue(regulation):
        if item.code == code:
            return item
    raise InputError.at(code, f"not an infraction of the {regulation} regulation",
                        code="UNKNOWN_INFRACTION")
