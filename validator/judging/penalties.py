"""Penalties as data: what each regulation prescribes for each violation code.

A policy (``validator/data/policies/<regulation>.toml``, or an organizer's own TOML file of the
same schema) maps each code to its penalty, a remedy, and the clause of the regulation that
prescribes it, quoted verbatim. A code the regulation says nothing about has no penalty: the
head judge decides, and the tool says so. Section 1 of the regulation says when each penalty
applies (by stage: before the event, during a duel, between duels, between matches) and
whether it is officially recorded. Texts in en, ja, ko and th come from the regulations' own
wording (``common.toml``); a custom policy may give English only.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from validator.engine.rules import CODES, DECISION_CODES
from validator.errors import InputError, from_validation
from validator.text.datafile import Refusal, data_file, read_model, read_toml, refused
from validator.vocab import LANGS, REGULATIONS, STAGES, Lang, Stage

__all__ = [
    "LANGS",
    "REGULATIONS",
    "STAGES",
    "Citation",
    "Lang",
    "Policy",
    "Stage",
    "default_regulation",
    "load_policy",
    "penalty_types",
]



class Texts(BaseModel):
    """One text in the four languages; a custom policy may give English only."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    en: str
    ja: str | None = None
    ko: str | None = None
    th: str | None = None

    def get(self, lang: Lang) -> str:
        text = getattr(self, lang, None)
        return str(text if text else self.en)


class PenaltyType(Texts):
    severity: int = Field(ge=0, description="order of severity: higher is more severe")


class Citation(BaseModel):
    """A clause of the regulation: its section as we number it, its heading and its words,
    both verbatim from the regulation's text."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    section: str
    heading: str
    quote: str | None = None

    def __str__(self) -> str:
        return f"{self.section} {self.heading}" + (f": “{self.quote}”" if self.quote else "")


class TypeRule(BaseModel):
    """Section 1 of a regulation for one penalty type: when it applies, and whether the
    regulation says it is officially recorded."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    clause: Citation | None = None
    recorded: Citation | None = None
    in_duel: str = Field("head_judge", alias="in-duel")
    between_duels: str = Field("head_judge", alias="between-duels")
    between_matches: str = Field("head_judge", alias="between-matches")
    pre_event: str = Field("head_judge", alias="pre-event")

    def applies(self, stage: Stage) -> str:
        return str(getattr(self, stage.replace("-", "_")))


class CodePolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    penalty: str | None = Field(
        None, description="the penalty the regulation prescribes; none: head judge's decision")
    remedy: str
    clause: Citation | None = None

    @model_validator(mode="after")
    def _cited(self) -> CodePolicy:
        if self.penalty is not None and self.clause is None:
            raise ValueError("a penalty needs the clause that prescribes it (clause = {...})")
        return self


class Policy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    regulation: str
    title: str
    title_local: str = ""
    #: the title in Japanese, Korean and Thai (``title_local`` is the one in its own language)
    titles: dict[Lang, str] = Field(default_factory=dict)
    source: str | None = Field(None, description="the regulation's text file, for citations")
    types: dict[str, TypeRule] = Field(default_factory=dict)
    codes: dict[str, CodePolicy]
    penalties: dict[str, PenaltyType]
    applies: dict[str, Texts]
    remedies: dict[str, Texts]
    sections: dict[str, Texts]
    texts: dict[str, Texts]

    @model_validator(mode="after")
    def _complete(self) -> Policy:
        wrong: list[Refusal] = []
        missing = [c for c in CODES if c not in self.codes]
        if missing:
            wrong.append((("codes",), f"codes without a rule: {', '.join(missing)}",
                          ", ".join(missing)))
        for code in sorted(set(self.codes) - set(CODES)):
            wrong.append((("codes", code), f"unknown code (expected {', '.join(CODES)})", code))
        for code, rule in self.codes.items():
            if rule.penalty is not None and rule.penalty not in self.penalties:
                wrong.append((("codes", code, "penalty"), f"{rule.penalty!r} is not one of "
                              f"{', '.join(self.penalties)}", rule.penalty))
            if rule.penalty is not None and code in DECISION_CODES:
                wrong.append((("codes", code, "penalty"), f"{code} is the head judge's "
                              "decision; it takes no penalty", rule.penalty))
            if rule.remedy not in self.remedies:
                wrong.append((("codes", code, "remedy"), f"{rule.remedy!r} is not one of "
                              f"{', '.join(self.remedies)}", rule.remedy))
        for name, timing in self.types.items():
            if name not in self.penalties:
                wrong.append((("types", name), f"not a penalty ({', '.join(self.penalties)})",
                              name))
            for stage in STAGES:
                if timing.applies(stage) not in self.applies:
                    wrong.append((("types", name, stage), f"{timing.applies(stage)!r} is not "
                                  f"one of {', '.join(self.applies)}", timing.applies(stage)))
        if wrong:
            raise refused("Policy", wrong)
        return self

    def title_in(self, lang: Lang) -> str:
        """The regulation's title in the language (English: ``title``)."""
        return self.titles.get(lang) or (self.title_local if lang == self.regulation
                                          and self.title_local else self.title)

    def remedy(self, code: str, lang: Lang) -> str:
        return self.remedies[self.codes[code].remedy].get(lang)

    def penalty_name(self, penalty: str, lang: Lang) -> str:
        return self.penalties[penalty].get(lang)

    def severity(self, penalty: str) -> int:
        return self.penalties[penalty].severity

    def by_severity(self) -> list[str]:
        return sorted(self.penalties, key=lambda p: self.penalties[p].severity)

    def applies_to(self, penalty: str, stage: Stage, lang: Lang) -> str:
        """When a penalty applies at this stage (section 1 of the regulation)."""
        rule = self.types.get(penalty)
        key = rule.applies(stage) if rule is not None else "head_judge"
        return self.applies[key].get(lang)

    def recorded(self, penalty: str) -> bool:
        """Whether the regulation says this penalty is officially recorded."""
        rule = self.types.get(penalty)
        return rule is not None and rule.recorded is not None

    def text(self, key: str, lang: Lang) -> str:
        return self.texts[key].get(lang)

    def citations(self) -> list[Citation]:
        """Every clause this policy cites."""
        found = [c.clause for c in self.codes.values() if c.clause is not None]
        for rule in self.types.values():
            found.extend(c for c in (rule.clause, rule.recorded) if c is not None)
        return found


class Common(BaseModel):
    """``policies/common.toml``: the texts every regulation shares."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    penalties: dict[str, PenaltyType]
    applies: dict[str, Texts]
    remedies: dict[str, Texts]
    sections: dict[str, Texts]
    texts: dict[str, Texts]


@cache
def _common() -> Common:
    return read_model(Common, data_file("policies", "common.toml"))


@cache
def penalty_types() -> tuple[str, ...]:
    """The penalty types of the regulations (section 1 of each), least severe first."""
    penalties = _common().penalties
    return tuple(sorted(penalties, key=lambda p: penalties[p].severity))


def _merged(own: dict[str, object]) -> dict[str, object]:
    """The common texts with a policy's own tables laid over them (a custom policy may add
    penalties, timings, remedies and texts)."""
    merged: dict[str, object] = _common().model_dump(exclude_unset=True)
    for key, value in own.items():
        base = merged.get(key)
        merged[key] = {**base, **value} if isinstance(base, dict) and isinstance(
            value, dict) else value
    return merged


@cache
def load_policy(regulation: str) -> Policy:
    """A shipped regulation (th, ja, ko) or an organizer's own policy TOML file."""
    if regulation in REGULATIONS:
        source = data_file("policies", f"{regulation}.toml")
        return policy_from_toml(read_toml(source), str(source))
    path = Path(regulation)
    if path.suffix.lower() != ".toml" or not path.is_file():
        raise InputError.at(regulation, f"unknown regulation; expected {', '.join(REGULATIONS)} "
                                        "or a policy .toml file", code="UNKNOWN_REGULATION")
    return policy_from_toml(read_toml(path), str(path))


def policy_from_toml(data: dict[str, object], label: str) -> Policy:
    """A policy from parsed TOML (a shipped one, a file, or an upload in the web app)."""
    try:
        return Policy.model_validate(_merged(data))
    except ValidationError as exc:
        raise from_validation(label, exc) from exc


def default_regulation(rush: bool) -> str:
    """Rush Duel events follow the ko regulation (a Rush Duel regulation); the others the th
    one. The language a report is written in never chooses the rules (``--regulation``
    does)."""
    return "ko" if rush else "th"
