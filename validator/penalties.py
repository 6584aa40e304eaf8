"""Penalties as data: each regulation maps violation codes to a penalty, a remedy and its
basis; texts in en, ja, ko and th come from the regulations' own wording.

One penalty per checked deck, the most severe of its violations' penalties, carrying every
remedy. Timing follows section 1 of the regulations: a Duel Forfeiture found during a duel
applies to that duel; between duels, or before the event, to the next duel.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

import polars as pl
from pydantic import BaseModel, ConfigDict

from .errors import ImplementationError, InputError
from .rules import CODES

__all__ = [
    "LANGS",
    "REGULATIONS",
    "SEVERITY",
    "STAGES",
    "Policy",
    "load_policy",
    "penalty_table",
]

LANGS = ("en", "ja", "ko", "th")
REGULATIONS = ("th", "ja", "ko")
STAGES = ("pre-event", "between-duels", "in-duel")
SEVERITY = ("CAUTION", "WARNING", "DUEL_FORFEITURE", "MATCH_FORFEITURE", "DISQUALIFICATION",
            "DISQUALIFICATION_PRIZES_FORFEITED")
Lang = Literal["en", "ja", "ko", "th"]


class Texts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    en: str
    ja: str
    ko: str
    th: str

    def get(self, lang: str) -> str:
        return str(getattr(self, lang))


class CodePolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    penalty: Literal["CAUTION", "WARNING", "DUEL_FORFEITURE", "MATCH_FORFEITURE",
                     "DISQUALIFICATION", "DISQUALIFICATION_PRIZES_FORFEITED"]
    remedy: str
    basis: str
    recorded: bool = True


class Policy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    regulation: str
    title: str
    title_local: str
    codes: dict[str, CodePolicy]
    penalties: dict[str, Texts]
    timing: dict[str, Texts]
    remedies: dict[str, Texts]

    def remedy(self, code: str, lang: str) -> str:
        return self.remedies[self.codes[code].remedy].get(lang)

    def penalty_name(self, penalty: str, lang: str) -> str:
        return self.penalties[penalty].get(lang)


def _read(name: str) -> dict[str, object]:
    resource = resources.files("validator") / "data" / "policies" / f"{name}.toml"
    return tomllib.loads(resource.read_text(encoding="utf-8"))


@cache
def load_policy(regulation: str) -> Policy:
    if regulation not in REGULATIONS:
        raise InputError.at(regulation, f"unknown regulation; expected {', '.join(REGULATIONS)}")
    policy = Policy.model_validate(_read("common") | _read(regulation))
    missing = set(CODES) - set(policy.codes)
    unknown_remedy = {c.remedy for c in policy.codes.values()} - set(policy.remedies)
    if missing or unknown_remedy:
        raise ImplementationError(
            f"policy {regulation}: codes without penalty {sorted(missing)}, "
            f"remedies without text {sorted(unknown_remedy)}")
    return policy


def penalty_table(violations: pl.DataFrame, policy: Policy, stage: str, lang: str) -> (
        pl.DataFrame):
    """One row per deck with violations: penalty, applies_to, remedies, recorded, basis."""
    if stage not in STAGES:
        raise InputError.at(stage, f"unknown stage; expected {', '.join(STAGES)}")
    if lang not in LANGS:
        raise InputError.at(lang, f"unknown language; expected {', '.join(LANGS)}")
    codes = pl.DataFrame(
        {
            "code": list(policy.codes),
            "penalty": [c.penalty for c in policy.codes.values()],
            "severity": [SEVERITY.index(c.penalty) for c in policy.codes.values()],
            "remedy": [policy.remedy(code, lang) for code in policy.codes],
            "recorded": [c.recorded for c in policy.codes.values()],
            "basis": [c.basis for c in policy.codes.values()],
        }
    )
    applies_to = policy.timing[stage].get(lang)
    return (
        violations.select("deck", "code").join(codes, on="code", how="left")
        .group_by("deck", maintain_order=True)
        .agg(
            pl.col("penalty").sort_by("severity", descending=True).first(),
            pl.col("remedy").unique(maintain_order=True).alias("remedies"),
            pl.col("recorded").any(),
            pl.col("basis").unique(maintain_order=True).alias("basis"),
        )
        .with_columns(
            pl.col("penalty").replace_strict(
                {p: policy.penalty_name(p, lang) for p in policy.penalties}).alias("label"),
            pl.lit(applies_to).alias("applies_to"),
        )
    )
