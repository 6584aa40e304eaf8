"""``deckcheck data update``: download the public card data and lists, then import them.

Files are streamed to a temporary name and moved into place only when complete, so an
interrupted download never leaves a half file; lists go to ``<data dir>/lists/``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, field_validator

from validator.cards.db import CardDB
from validator.cards.store import data_dir, demo_cards, import_into_store, load_store
from validator.errors import InputError
from validator.text.datafile import Refusal, data_file, read_model, refused

__all__ = ["Source", "Sources", "sources", "update"]

Progress = Callable[[str, int, int | None], None]


class Source(BaseModel):
    """One file to download: card data (``cards``, imported) or a list (``list``, kept)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["cards", "list"]
    file: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
                      description="the file's name in the data store (no folder)")
    url: str = Field(pattern=r"^https?://[^/\s]+/\S*$")


class Sources(BaseModel):
    """``validator/data/sources.toml``: what ``deckcheck data update`` downloads."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: list[Source] = Field(min_length=1)

    @field_validator("source")
    @classmethod
    def _distinct(cls, found: list[Source]) -> list[Source]:
        seen: dict[str, set[str]] = {"name": set(), "file": set()}
        twice: list[Refusal] = []
        for index, item in enumerate(found):
            for key in seen:
                value = getattr(item, key)
                if value in seen[key]:
                    twice.append(((index, key), "a second source of this " + key, value))
                seen[key].add(value)
        if twice:
            raise refused("Sources", twice)
        return found


def sources(source: Traversable | None = None) -> list[Source]:
    """The sources the package ships (or those in ``source``)."""
    return list(read_model(Sources, source or data_file("sources.toml")).source)


def _download(client: httpx.Client, url: str, target: Path, progress: Progress | None) -> None:
    partial = target.with_name(target.name + ".part")
    try:
        with client.stream("GET", url) as response:
            if response.status_code != 200:
                raise InputError.at(url, f"the server answered HTTP {response.status_code}",
                                    code="DOWNLOAD_FAILED")
            total = int(response.headers.get("content-length", 0)) or None
            done = 0
            with partial.open("wb") as out:
                for chunk in response.iter_bytes(65536):
                    out.write(chunk)
                    done += len(chunk)
                    if progress:
                        progress(target.name, done, total)
    except httpx.TransportError as exc:
        partial.unlink(missing_ok=True)
        host = urlsplit(url).netloc
        raise InputError.at(url, f"cannot download from {host} ({type(exc).__name__}: {exc}); "
                                 "check the connection, or use --mirror",
                            code="DOWNLOAD_FAILED") from exc
    partial.replace(target)


def update(folder: Path | None = None, mirror: str | None = None, only: list[str] | None = None,
           progress: Progress | None = None, timeout: float = 60.0) -> CardDB:
    """Download every source (or ``only`` these names), import the cards, keep the lists."""
    root = data_dir(folder)
    downloads = root / "downloads"
    lists = root / "lists"
    downloads.mkdir(parents=True, exist_ok=True)
    lists.mkdir(parents=True, exist_ok=True)
    chosen = [s for s in sources() if only is None or s.name in only]
    if only and len(chosen) != len(set(only)):
        known = ", ".join(s.name for s in sources())
        raise InputError.at(",".join(only), f"unknown source; expected some of {known}",
                            code="UNKNOWN_SOURCE")
    files: list[Path] = []
    with httpx.Client(follow_redirects=True, timeout=timeout) as client:
        for source in chosen:
            url = f"{mirror.rstrip('/')}/{source.file}" if mirror else source.url
            target = (lists if source.kind == "list" else downloads) / source.file
            _download(client, url, target, progress)
            files.append(target)
    return import_into_store(files, root) or load_store(root) or demo_cards()
