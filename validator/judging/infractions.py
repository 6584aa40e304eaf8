"""The infraction catalogue of each regulation (sections 4 onward): what a judge records by
hand, with the regulation's default penalty. Texts in en, ja, ko and th; data, not code."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from validator.errors import ImplementationError, InputError
from validator.judging.penalties import penalty_types
from validator.vocab import LANGS, REGULATIONS

__all__ = ["Infraction", "catalogue", "infraction"]


@dataclass(frozen=True)
class Infraction:
    code: str
    section: str
    section_title: dict[str, str]
    text: dict[str, str]
    penalty: str
    note: str = ""


def _read(name: str) -> dict[str, Any]:
    resource = resources.files("validator") / "data" / "infractions" / f"{name}.toml"
    return tomllib.loads(resource.read_text(encoding="utf-8"))


@cache
def catalogue(regulation: str) -> tuple[Infraction, ...]:
    """Every infraction the regulation lists, in its order."""
    if regulation not in REGULATIONS:
        raise InputError.at(regulation, f"unknown regulation; expected {', '.join(REGULATIONS)}",
                            code="UNKNOWN_REGULATION")
    common = _read("common")
    out = []
    for code, entry in _read(regulation)["infractions"].items():
        texts = common["infractions"].get(code)
        section = common["sections"].get(entry["section"])
        if texts is None or section is None or entry["penalty"] not in penalty_types():
            raise ImplementationError(f"infraction {code} of {regulation} is incomplete")
        if set(texts) != set(LANGS) or set(section) != set(LANGS):
            raise ImplementationError(f"infraction {code} lacks a language")
        out.append(Infraction(code, entry["section"], section, texts, entry["penalty"],
                              entry.get("note", "")))
    return tuple(out)


def infraction(regulation: str, code: str) -> Infraction:
    for item in catalogue(regulation):
        if item.code == code:
            return item
    raise InputError.at(code, f"not an infraction of the {regulation} regulation",
                        code="UNKNOWN_INFRACTION")
