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
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

from validator.errors import InputError, from_validation
from validator.text.datafile import data_file, read_model, read_toml, validated_once
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


# the validated policy's classes are named tuples: made at every start, a named tuple costs
# a fraction of a dataclass's generated methods
class Texts(NamedTuple):
    """One text in the four languages; a custom policy may give English only."""

    en: str
    ja: str | None
    ko: str | None
    th: str | None

    def get(self, lang: Lang) -> str:
        text = getattr(self, lang, None)
        return str(text if text else self.en)


class PenaltyType(NamedTuple):
    """A penalty type's name in the four languages, and its severity."""

    en: str
    ja: str | None
    ko: str | None
    th: str | None
    severity: int  # order of severity: higher is more severe

    def get(self, lang: Lang) -> str:
        text = getattr(self, lang, None)
        return str(text if text else self.en)


class Citation(NamedTuple):
    """A clause of the regulation: its section as we number it, its heading and its words,
    both verbatim from the regulation's text."""

    section: str
    heading: str
    quote: str | None

    def __str__(self) -> str:
        return f"{self.section} {self.heading}" + (f": “{self.quote}”" if self.quote else "")


def _cited(data: dict[str, Any] | None) -> Citation | None:
    return None if data is None else Citation(**data)


class TypeRule(NamedTuple):
    """Section 1 of a regulation for one penalty type: when it applies, and whether the
    regulation says it is officially recorded."""

    clause: Citation | None
    recorded: Citation | None
    in_duel: str
    between_duels: str
    between_matches: str
    pre_event: str

    def applies(self, stage: Stage) -> str:
        return str(getattr(self, stage.replace("-", "_")))


class CodePolicy(NamedTuple):
    penalty: str | None  # none: the head judge's decision
    remedy: str
    clause: Citation | None


class Policy(NamedTuple):
    """A regulation's penalties, remedies and texts (the fields of a policy file, validated
    by :class:`validator.judging._policy_file.Policy`)."""

    regulation: str
    title: str
    title_local: str
    #: the title in Japanese, Korean and Thai (``title_local`` is the one in its own language)
    titles: dict[Lang, str]
    source: str | None  # the regulation's text file, for citations
    types: dict[str, TypeRule]
    codes: dict[str, CodePolicy]
    penalties: dict[str, PenaltyType]
    applies: dict[str, Texts]
    remedies: dict[str, Texts]
    sections: dict[str, Texts]
    texts: dict[str, Texts]

    @classmethod
    def of(cls, data: dict[str, Any]) -> Policy:
        """The policy of a validated policy file's data (its model's ``model_dump()``)."""
        def texts(key: str) -> dict[str, Texts]:
            return {name: Texts(**value) for name, value in data[key].items()}

        return cls(
            regulation=data["regulation"], title=data["title"],
            title_local=data["title_local"], titles=data["titles"], source=data["source"],
            types={name: TypeRule(**{**rule, "clause": _cited(rule["clause"]),
                                     "recorded": _cited(rule["recorded"])})
                   for name, rule in data["types"].items()},
            codes={code: CodePolicy(**{**rule, "clause": _cited(rule["clause"])})
                   for code, rule in data["codes"].items()},
            penalties={name: PenaltyType(**value) for name, value in data["penalties"].items()},
            applies=texts("applies"), remedies=texts("remedies"), sections=texts("sections"),
            texts=texts("texts"))

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


def _code() -> list[bytes]:
    """The source of the code a policy's validated data depends on."""
    here = Path(__file__)
    return [here.read_bytes(), here.with_name("_policy_file.py").read_bytes()]


def _shipped(name: str) -> Traversable:
    return data_file("policies", name)


@cache
def _common() -> dict[str, Any]:
    """``policies/common.toml`` validated, as the data it sets (``exclude_unset``)."""
    def validate() -> dict[str, Any]:
        from validator.judging._policy_file import Common

        return read_model(Common, _shipped("common.toml")).model_dump(exclude_unset=True)

    source = _shipped("common.toml").read_bytes()
    data: dict[str, Any] = validated_once("policy-common", [source, *_code()], validate)
    return data


@cache
def penalty_types() -> tuple[str, ...]:
    """The penalty types of the regulations (section 1 of each), least severe first."""
    penalties = _common()["penalties"]
    return tuple(sorted(penalties, key=lambda p: penalties[p]["severity"]))


def _merged(own: dict[str, object]) -> dict[str, object]:
    """The common texts with a policy's own tables laid over them (a custom policy may add
    penalties, timings, remedies and texts)."""
    merged: dict[str, object] = dict(_common())
    for key, value in own.items():
        base = merged.get(key)
        merged[key] = {**base, **value} if isinstance(base, dict) and isinstance(
            value, dict) else value
    return merged


@cache
def load_policy(regulation: str) -> Policy:
    """A shipped regulation (th, ja, ko) or an organizer's own policy TOML file. A shipped
    one is validated once and then read from the cache (``validated_once``)."""
    if regulation in REGULATIONS:
        source = _shipped(f"{regulation}.toml")
        sources = [source.read_bytes(), _shipped("common.toml").read_bytes(), *_code()]
        return Policy.of(validated_once(f"policy-{regulation}", sources, lambda: _validated(
            read_toml(source), str(source))))
    path = Path(regulation)
    if path.suffix.lower() != ".toml" or not path.is_file():
        raise InputError.at(regulation, f"unknown regulation; expected {', '.join(REGULATIONS)} "
                                        "or a policy .toml file", code="UNKNOWN_REGULATION")
    return policy_from_toml(read_toml(path), str(path))


def policy_from_toml(data: dict[str, object], label: str) -> Policy:
    """A policy from parsed TOML (a shipped one, a file, or an upload in the web app)."""
    return Policy.of(_validated(data, label))


def _validated(data: dict[str, object], label: str) -> dict[str, Any]:
    """A policy's tables laid over the common ones and validated by pydantic, as plain data
    (an ``InputError`` naming every field refused)."""
    from pydantic import ValidationError

    from validator.judging._policy_file import Policy as PolicyFile

    try:
        return PolicyFile.model_validate(_merged(data)).model_dump()
    except ValidationError as exc:
        raise from_validation(label, exc) from exc


def default_regulation(rush: bool) -> str:
    """Rush Duel events follow the ko regulation (a Rush Duel regulation); the others the th
    one. The language a report is written in never chooses the rules (``--regulation``
    does)."""
    return "ko" if rush else "th"
