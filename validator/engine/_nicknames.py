"""The nickname table's model (``validator/data/nicknames.toml``), imported only by a check
that reads typed names: a check of passcodes never imports pydantic for it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from validator.text.datafile import Refusal, refused
from validator.text.normalize import name_key

__all__ = ["Nicknames"]


class Nicknames(BaseModel):
    """``validator/data/nicknames.toml``: what players write → the English card name."""

    # validators built at first use: a check that reads no such file never pays for them
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    nicknames: dict[str, str] = Field(min_length=1)

    @field_validator("nicknames")
    @classmethod
    def _distinct_keys(cls, table: dict[str, str]) -> dict[str, str]:
        wrong: list[Refusal] = []
        seen: dict[str, str] = {}
        for nickname, card in table.items():
            key = name_key(nickname)
            if not key:
                wrong.append(((nickname,), "a nickname of nothing but spaces or punctuation",
                              nickname))
            elif key in seen and seen[key] != nickname:
                wrong.append(((nickname,), f"reads as the nickname {seen[key]!r}", nickname))
            if not card.strip():
                wrong.append(((nickname,), "no card name", card))
            seen.setdefault(key, nickname)
        if wrong:
            raise refused("Nicknames", wrong)
        return table
