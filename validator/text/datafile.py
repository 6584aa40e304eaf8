"""TOML data files read into pydantic models: the package's own (``validator/data/``) and an
organizer's (a format, a policy). Every loader reads through here, so a file of the wrong
shape is always one problem per field, naming the file and the field's path."""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from validator.errors import InputError, from_validation

__all__ = ["Refusal", "data_file", "read_model", "read_toml", "refused"]

M = TypeVar("M", bound=BaseModel)


def data_file(*parts: str) -> Traversable:
    """A file the package ships under ``validator/data/``."""
    return resources.files("validator").joinpath("data", *parts)


def read_toml(source: Traversable) -> dict[str, Any]:
    """A TOML file's tables, or an :class:`InputError` naming the file."""
    try:
        return tomllib.loads(source.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError.of(str(source), "not valid TOML: {reason}", code="BAD_TOML",
                            reason=exc) from exc
    except OSError as exc:
        raise InputError.of(str(source), "cannot be read ({reason})", code="FILE_UNREADABLE",
                            reason=exc.strerror or exc) from exc


def read_model(model: type[M], source: Traversable, context: dict[str, Any] | None = None) -> M:
    """A TOML file validated by ``model``: an :class:`InputError` names the file and every
    field refused. ``context`` is handed to the model's validators (what the file refers to)."""
    try:
        return model.model_validate(read_toml(source), context=context)
    except ValidationError as exc:
        raise from_validation(str(source), exc) from exc


#: where a model's own check found a field wrong: its path, what is wrong, the value found
Refusal = tuple[tuple[str | int, ...], str, object]


def refused(model: str, refusals: list[Refusal]) -> ValidationError:
    """What a model's own validator found wrong, each at its field: raised from the validator,
    pydantic reports each refusal under its path (prefixed by where the model sits)."""
    return ValidationError.from_exception_data(model, [
        InitErrorDetails(type=PydanticCustomError("refused", "{reason}", {"reason": reason}),
                         loc=loc, input=found)
        for loc, reason, found in refusals])
