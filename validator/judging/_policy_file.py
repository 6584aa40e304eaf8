"""The models a policy file is validated by (pydantic), imported only when a policy is
validated: an organizer's own policy, or a shipped one the first time it is read
(:func:`validator.judging.penalties.load_policy`). A validated policy is kept as the plain
classes of :mod:`validator.judging.penalties`, of the same names and fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from validator.engine.rules import CODES, DECISION_CODES
from validator.text.datafile import Refusal, refused
from validator.vocab import STAGES, Lang, Stage

__all__ = ["Common", "Policy"]


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


class Common(BaseModel):
    """``policies/common.toml``: the texts every regulation shares."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    penalties: dict[str, PenaltyType]
    applies: dict[str, Texts]
    remedies: dict[str, Texts]
    sections: dict[str, Texts]
    texts: dict[str, Texts]
