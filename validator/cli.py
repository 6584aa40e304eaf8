"""The ``deckcheck`` command: a thin layer over the library.

Exit codes: 0 all legal (or the command succeeded), 1 violations found, 2 bad input or usage.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from . import store
from .cards import CardDB
from .errors import InputError

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])
err = Console(stderr=True)
out = Console()


def user_errors(func: F) -> F:
    """Turn library input errors into one clear message and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            for problem in exc.problems[:50]:
                err.print(f"[red]error:[/red] {problem}", markup=True, highlight=False)
            if len(exc.problems) > 50:
                err.print(f"... and {len(exc.problems) - 50} more problems")
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


data_dir_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None,
    help="Card store folder (default: $DECKCHECK_DATA or ~/.local/share/deckcheck).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deckcheck")
def main() -> None:
    """Deck and deck-list legality validator for Yu-Gi-Oh! tournaments.

    Example: deckcheck check decks/ --format advanced-tcg --json -
    """


@main.group()
def data() -> None:
    """Card data: import sources into the local store, show it, update it.

    Example: deckcheck data import cards.json cards-rush.cdb
    """


@data.command("import")
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@data_dir_option
@user_errors
def data_import(sources: tuple[Path, ...], data_dir: Path | None) -> None:
    """Import card sources (YGOJSON json/folder/zip, EDOPro .cdb, card CSV/XLSX) into the store.

    Example: deckcheck data import ../shared/data/ygojson/cards.json
    """
    db = store.import_into_store(list(sources), data_dir)
    _print_info(db, store.data_dir(data_dir))


@data.command("info")
@data_dir_option
@user_errors
def data_info(data_dir: Path | None) -> None:
    """Show what the card store holds: counts, sources, snapshot dates.

    Example: deckcheck data info
    """
    folder = store.data_dir(data_dir)
    db = store.load_store(folder)
    if db is None:
        out.print(f"No card store in {folder}; checks use the embedded demo pool.")
        db = store.demo_cards()
    _print_info(db, folder)


def _print_info(db: CardDB, folder: Path) -> None:
    table = Table(title=f"Card data ({folder})")
    for column in ("source", "kind", "cards", "snapshot", "imported"):
        table.add_column(column)
    for source in db.sources:
        table.add_row(*(f"{source.get(c, ''):,}" if isinstance(source.get(c), int)
                        else str(source.get(c, "")) for c in
                        ("source", "kind", "cards", "snapshot", "imported")))
    out.print(table)
    out.print(f"{db.cards.height:,} printings, {db.card_count():,} card names, "
              f"{int(db.cards['rush'].sum()):,} Rush printings, "
              f"{int(db.cards['legend'].sum()):,} Legend printings")
    for warning in db.warnings[:20]:
        err.print(f"warning: {warning}", highlight=False)
