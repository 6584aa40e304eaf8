"""``deckcheck data update``: download the public card data and lists, then import them.

Files are streamed to a temporary name and moved into place only when complete, so an
interrupted download never leaves a half file; lists go to ``<data dir>/lists/``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from validator.cards.db import CardDB
from validator.cards.store import data_dir, demo_cards, import_into_store, load_store
from validator.errors import InputError

__all__ = ["Source", "sources", "update"]

Progress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class Source:
    name: str
    kind: str
    file: str
    url: str


def sources() -> list[Source]:
    text = (resources.files("validator") / "data" / "sources.toml").read_text("utf-8")
    return [Source(**entry) for entry in tomllib.loads(text)["source"]]


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
