"""TOML data files read into pydantic models: the package's own (``validator/data/``) and an
organizer's (a format, a policy). Every loader reads through here, so a file of the wrong
shape is always one problem per field, naming the file and the field's path.

A file the package ships is validated once: its validated data is kept as JSON in the user's
cache folder (``$XDG_CACHE_HOME/deckcheck``, else ``~/.cache/deckcheck``), under a digest of
the file's bytes and of the code that validates it (:func:`validated_once`), so a command
that reads only shipped files imports neither pydantic nor a TOML parser. Pydantic is
imported by the first validation.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from validator.errors import InputError, from_validation

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

__all__ = ["Refusal", "cache_dir", "data_file", "read_model", "read_toml", "refused",
           "validated_once"]

M = TypeVar("M", bound="BaseModel")


def data_file(*parts: str) -> Traversable:
    """A file the package ships under ``validator/data/``."""
    return resources.files("validator").joinpath("data", *parts)


def read_toml(source: Traversable) -> dict[str, Any]:
    """A TOML file's tables, or an :class:`InputError` naming the file."""
    import tomllib

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
    from pydantic import ValidationError

    try:
        return model.model_validate(read_toml(source), context=context)
    except ValidationError as exc:
        raise from_validation(str(source), exc) from exc


#: where a model's own check found a field wrong: its path, what is wrong, the value found
Refusal = tuple[tuple[str | int, ...], str, object]


def refused(model: str, refusals: list[Refusal]) -> ValidationError:
    """What a model's own validator found wrong, each at its field: raised from the validator,
    pydantic reports each refusal under its path (prefixed by where the model sits)."""
    from pydantic import ValidationError
    from pydantic_core import InitErrorDetails, PydanticCustomError

    return ValidationError.from_exception_data(model, [
        InitErrorDetails(type=PydanticCustomError("refused", "{reason}", {"reason": reason}),
                         loc=loc, input=found)
        for loc, reason, found in refusals])


def cache_dir() -> Path:
    """The user's cache folder of the package (``$XDG_CACHE_HOME/deckcheck``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "deckcheck"


def validated_once(kind: str, sources: Sequence[bytes], validate: Callable[[], Any]) -> Any:
    """``validate()``'s result (plain JSON data) for ``sources``, the bytes of what it reads
    and of the code that validates it: kept in the cache folder the first time, read from it
    afterwards. A cache that cannot be written or read is validated again (never an error)."""
    import orjson

    digest = hashlib.blake2b(digest_size=16)
    for source in sources:
        digest.update(len(source).to_bytes(8, "little"))
        digest.update(source)
    path = cache_dir() / "validated" / f"{kind}-{digest.hexdigest()}.json"
    try:
        return orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        pass
    data = validate()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")
        partial.write_bytes(orjson.dumps(data))
        os.replace(partial, path)  # whole or not at all, when two processes write it
    except OSError:
        pass
    return data
