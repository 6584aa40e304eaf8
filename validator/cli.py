"""The ``deckcheck`` command: a thin layer over the library.

Exit codes: 0 all legal (or the command succeeded), 1 violations found, 2 bad input or usage.
"""

from __future__ import annotations

import gc

# a command imports a few hundred modules, builds large reports of short-lived objects and
# then exits: the cyclic collector would walk them again and again (a tenth of a 10,000-deck
# check, and of the imports), so it runs rarely from the first import on
gc.set_threshold(100_000, 50, 100)

from validator import allocator, deferred

allocator.configure()  # before polars is loaded

import codecs
import functools
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

if Path(sys.argv[0]).name == "deckcheck":  # the program, not a library user nor a test
    deferred.defer()  # before polars is loaded

from validator.inputs.decks import prefetch

#: the options of ``check`` that take no value (every other one takes the next argument)
CHECK_FLAGS = frozenset({"--all", "--quiet", "--help", "-h"})


def _check_paths(argv: list[str]) -> list[str] | None:
    """The deck paths of ``deckcheck check ...`` as its arguments will give them, read from
    ``argv`` before the options are parsed (None for another command). Only a guess: what
    was read ahead is used for exactly the paths the command is given."""
    if len(argv) < 2 or argv[1] != "check" or Path(argv[0]).name != "deckcheck":
        return None
    paths: list[str] = []
    args = iter(argv[2:])
    for arg in args:
        if arg == "--":
            paths.extend(args)
        elif arg.startswith("-") and arg != "-":
            if "=" not in arg and arg not in CHECK_FLAGS:
                next(args, None)  # the option's value
        else:
            paths.append(arg)
    return paths


# the deck files of a check are read by another process, on a free core, while this one
# imports polars and the rest (a fifth of a second)
if (_paths := _check_paths(sys.argv)) and prefetch.worth_it(_paths) and prefetch.core_free():
    prefetch.start(_paths)

import click

from validator.errors import SHOWN, InputError, Problem, is_failure
from validator.files.safety import MAX_UPLOAD, READ_MEMORY, READ_SECONDS
from validator.vocab import LANGS, NAME_LANGS, STAGES

if TYPE_CHECKING:
    from rich.console import Console

    from validator.cards.load import Setup
    from validator.engine.tables import CardTable
    from validator.judging.decisions import Decision
    from validator.judging.penalties import Policy
    from validator.vocab import Lang, Stage

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])


class _Console:
    """A rich console made when first used: a quiet run never imports rich."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def made(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)


err = cast("Console", _Console(stderr=True, soft_wrap=True))  # an error is one line
out = cast("Console", _Console())


#: rich markup of a fixed prefix ("[red]error:[/red]")
_MARKUP = re.compile(r"\[/?[a-z ]+\]")


def _plain(console: Console, stream: Any) -> bool:
    """Whether text goes to ``stream`` as it is: its rich console not made yet and the
    stream not a terminal (a pipe, a file), where rich would add nothing; rich stays
    unimported."""
    return isinstance(console, _Console) and console._console is None \
        and not stream.isatty() and not os.environ.get("FORCE_COLOR")


def _is_terminal(console: Console, stream: Any) -> bool:
    return not _plain(console, stream) and console.is_terminal


def _made(console: Console) -> Console:
    """The rich console itself (made now if it was not yet)."""
    return console.made() if isinstance(console, _Console) else console


def escape(text: str) -> str:
    """Text shown as it is (no rich markup)."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def _table(title: str) -> Any:
    from rich.table import Table

    return Table(title=title)


def _shown(lines: Sequence[str], prefix: str, noun: str) -> None:
    """The first :data:`~validator.errors.SHOWN` lines on stderr, then how many more."""
    if _plain(err, sys.stderr):
        label = _MARKUP.sub("", prefix)
        sys.stderr.writelines(f"{label} {line}\n" for line in lines[:SHOWN])
        if len(lines) > SHOWN:
            sys.stderr.write(f"… and {len(lines) - SHOWN} more {noun}\n")
        return
    for line in lines[:SHOWN]:
        err.print(f"{prefix} {escape(line)}", highlight=False)
    if len(lines) > SHOWN:
        err.print(f"… and {len(lines) - SHOWN} more {noun}", highlight=False)


def _lang_of(value: object) -> Lang:
    """A command's ``--lang`` when it is a language of the catalogs, else English."""
    return value if value in LANGS else "en"


#: the exit status of a command that failed on an error it did not expect
FAILED = 3


def user_errors(func: F) -> F:
    """Turn library input errors into one clear message and exit status 2, and any error
    the command did not expect (a fault of the code, a panic of polars) into one line
    naming it and the file holding its details, and exit status :data:`FAILED`: never a
    traceback, and never the status of a check that found violations."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            from validator.report.text import problem_line

            lang = _lang_of(kwargs.get("lang"))
            _shown([problem_line(p, lang) for p in exc.problems], "[red]error:[/red]",
                   "problems")
            sys.exit(2)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise  # click's own: usage, an exit asked for
        except BaseException as exc:
            if not is_failure(exc):
                raise  # an interrupt, an exit
            _failed(exc, _lang_of(kwargs.get("lang")))
            sys.exit(FAILED)

    return wrapper  # type: ignore[return-value]


def _failed(exc: BaseException, lang: Lang) -> None:
    """The one line of an error a command did not expect; its traceback, the command line
    and the version in a file of the temporary folder that the line names."""
    import tempfile
    import traceback
    from importlib.metadata import PackageNotFoundError, version

    from validator.text.i18n import say

    try:
        release = version("deckcheck")
    except PackageNotFoundError:
        release = "unknown"
    error = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    try:
        handle, name = tempfile.mkstemp(prefix="deckcheck-failure-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as details:
            details.write(f"deckcheck {release}\ncommand: {sys.argv!r}\n\n")
            details.write("".join(traceback.format_exception(exc)))
    except OSError:  # no temporary folder to write to: the traceback on stderr instead
        traceback.print_exception(exc)
        name = "the error output above"
    _shown([say(lang, "deckcheck stopped on an error it did not expect ({error}); the "
                "details are in {path}. Unless the error names a cause of its own (a full "
                "disk, a file that cannot be opened), it is a fault of deckcheck, not of the "
                "input: please report it with those details.", error=error, path=name)],
           "[red]error:[/red]", "problems")


# The options several commands take, each declared once with its one help text.
data_dir_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None,
    help="Card store folder (default: $DECKCHECK_DATA or ~/.local/share/deckcheck).",
)
cards_option = click.option(
    "--cards", "cards_spec", default=None,
    help="Card data: a source file/folder, 'store' or 'demo' (default: the store, else the "
         "embedded demo pool).")
format_option = click.option(
    "--format", "format_spec", default="advanced-tcg", show_default=True,
    help="A format name (see banlists/formats) or a TOML file.")
banlist_option = click.option(
    "--banlist", "banlist_spec", default=None,
    help="Forbidden/Limited list: lflist.conf, CSV/XLSX, ygojson:REGION or a list of the "
         "data store by name (default: the format's list in force on --date).")
list_option = click.option("--list", "list_name", default=None,
                           help="Which !name list of an lflist.conf.")
json_option = click.option("--json", "json_target", default=None, metavar="FILE",
                           help="Write the JSON report to FILE ('-': stdout).")
regulation_option = click.option(
    "--regulation", default=None,
    help="Penalty regulation: th, ja, ko, or a policy TOML file of the same schema (default: "
         "ko for Rush Duel, else th; --lang does not change it).")
#: the one help text of --lang (convert takes every language card names come in)
LANG_HELP = ("Language of what is written: messages, penalties, remedies, card names (the "
             "regulation is --regulation's).")
lang_option = click.option("--lang", type=click.Choice(LANGS), default="en",
                           show_default=True, help=LANG_HELP)
out_option = click.option(
    "--out", "target", type=click.Path(path_type=Path), default=None,
    help="Where to write: a file for one deck (default: a PDF beside the deck, other formats "
         "to stdout), a folder for several (one file per deck, named by its id).")
duel_option = click.option(
    "--duel", type=click.IntRange(min=1), default=None,
    help="The duel of the match the decks are for: from 2 on, side deck exchanges are "
         "allowed when comparing with the registered lists, and the check is between duels "
         "unless --stage says otherwise.")
stage_option = click.option(
    "--stage", type=click.Choice(STAGES), default=None,
    help="When the check happens (decides when a penalty applies; default: between-duels "
         "with --duel 2 or later, else pre-event).")
all_option = click.option("--all", "every_deck", is_flag=True,
                          help="List every deck (player), legal ones too.")
quiet_option = click.option("--quiet", is_flag=True,
                            help="Print nothing per deck or player (only problems and the "
                                 "exit status).")
date_option = click.option(
    "--date", default="", metavar="YYYY-MM-DD",
    help="The event's date: it picks the Forbidden/Limited list in force (default: today) "
         "and is printed on a deck sheet.")


def _day(text: str, option: str = "--date") -> str:
    """A YYYY-MM-DD date as given (an error naming the option otherwise)."""
    import datetime as dt

    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise InputError.at(option, f"expected a date YYYY-MM-DD, got {text!r}", code="BAD_OPTION")


decisions_option = click.option(
    "--decisions", type=click.Path(path_type=Path), default=None,
    help="The head judge's decisions (CSV: player_id, where, card, qty, decided_by, reason) "
         "on names and rows of the lists the tool could not settle.")


def _exit_status(code: object) -> int:
    """The process's exit status for ``sys.exit(code)``, as Python gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


class _Program(click.Group):
    """The command group. Run as the ``deckcheck`` program it ends the process as soon as
    its output is written: the interpreter's teardown (freeing every module and table one
    by one) would add a tenth of a second to every run. Called in-process (``main.main()``,
    a test's runner) it is a plain group."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import atexit

        from validator.engine import workers

        try:
            self.main(*args, **kwargs)
            status = 0
        except SystemExit as exc:
            status = _exit_status(exc.code)
        if workers.others_alive():  # a thread still at work ends as it would
            sys.exit(status)
        workers.end()  # the engine's idle threads (their work finished first)
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe: as Python says it
                status = status or 120
        os._exit(status)


@click.group(cls=_Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deckcheck")
def main() -> None:
    """Deck and deck-list legality validator for Yu-Gi-Oh! tournaments.

    Example: deckcheck check decks/ --format advanced-tcg --json -
    """
    gc.freeze()  # what the imports made is never collected
    gc.set_threshold(100_000, 50, 100)


@main.group()
def data() -> None:
    """Card data: import sources into the local store, show it, update it.

    Example: deckcheck data import cards.json cards-rush.cdb
    """


@data.command("import")
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--effective", "effective", multiple=True, metavar="[NAME=]YYYY-MM-DD",
              help="The day the imported lists take effect: a date for every list, or "
                   "NAME=DATE for one list of a file with several (repeatable; default: "
                   "the date in the list's name, else today).")
@data_dir_option
@user_errors
def data_import(sources: tuple[Path, ...], effective: tuple[str, ...],
                data_dir: Path | None) -> None:
    """Add card sources (YGOJSON json/folder/zip, EDOPro .cdb, card CSV/XLSX) and
    Forbidden/Limited lists (lflist.conf, CSV/XLSX) to the data store.

    Imports accumulate; a source of the same file name replaces the earlier one.

    Example: deckcheck data import ../shared/data/ygojson/cards.json 0TCG.lflist.conf
    """
    for source in sources:
        if not source.exists():
            raise InputError.at(str(source), "no such file or folder", code="FILE_MISSING")
    from validator.cards import store

    given: dict[str, str] = {}
    for item in effective:
        name, _, day = item.rpartition("=")
        given[name.strip()] = _day(day.strip(), "--effective")
    store.import_into_store(list(sources), data_dir, given)
    _print_info(store.data_dir(data_dir))


@data.command("remove")
@click.argument("name")
@data_dir_option
@user_errors
def data_remove(name: str, data_dir: Path | None) -> None:
    """Remove one imported card source or list from the data store, by its file name.

    Example: deckcheck data remove cards.delta.cdb
    """
    from validator.cards import store

    store.remove_from_store(name, data_dir)
    out.print(f"Removed {escape(name)}.")
    _print_info(store.data_dir(data_dir))


@data.command("info")
@data_dir_option
@user_errors
def data_info(data_dir: Path | None) -> None:
    """Show what the data store holds: card sources and lists, counts and dates.

    Example: deckcheck data info
    """
    from validator.cards import store

    _print_info(store.data_dir(data_dir))


def _print_info(folder: Path) -> None:
    from validator.cards import store

    db = store.load_store(folder)
    if db is None:
        out.print(f"No card data in {folder}; checks use the embedded demo pool.")
    else:
        table = _table(f"Card data ({folder})")
        for column in ("source", "kind", "cards", "data date", "file date", "imported"):
            table.add_column(column)
        for source in db.sources:
            table.add_row(escape(str(source.get("name", source.get("source", "")))),
                          str(source.get("kind", "")), f"{source.get('cards', 0):,}",
                          str(source.get("data_date") or "—"), str(source.get("snapshot", "")),
                          str(source.get("imported", "")))
        out.print(table)
        out.print(f"{db.printings.height:,} printings, {db.card_count():,} cards, "
                  f"{db.name_count():,} card names, "
                  f"{int(db.printings['rush'].sum()):,} Rush printings, "
                  f"{int(db.printings['legend'].sum()):,} Legend printings")
        silent = db.without_release()
        if any(silent.values()):
            out.print("Cards without release information (no source says whether they are "
                      "released; not called unreleased): " + ", ".join(
                          f"{region.upper()} {count:,}" for region, count in silent.items())
                      + "; the OCG/TCG cdb (cards.delta.cdb) says it for most", highlight=False)
        _shown([str(w) for w in db.warnings], "warning:", "warnings")
    lists = store.stored_lists(folder)
    if not lists:
        out.print("No Forbidden/Limited list imported; checks of real card data need one "
                  "(`deckcheck data import LIST.lflist.conf` or `deckcheck data update`).")
        return
    table = _table("Forbidden/Limited lists (newest first)")
    for column in ("list", "file", "effective", "from", "file date"):
        table.add_column(column)
    for item in lists:
        table.add_row(escape(item.name), escape(item.source), item.effective,
                      item.effective_from, str(item.snapshot))
    out.print(table)


Step = Callable[[str, int, int | None], None]


@contextmanager
def _progress(enabled: bool = True, downloads: bool = False) -> Iterator[Step]:
    """``step(stage, done, total)`` drawn as progress bars on stderr (nothing when
    ``enabled`` is false); the bars of a finished check are cleared."""
    if not enabled:
        yield lambda stage, done, total: None
        return
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    amount = DownloadColumn() if downloads else MofNCompleteColumn()
    with Progress(TextColumn("{task.description}"), BarColumn(), amount, TimeElapsedColumn(),
                  console=_made(err), transient=not downloads) as bar:
        tasks: dict[str, TaskID] = {}

        def step(stage: str, done: int, total: int | None) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield step


def _write_json(pieces: Iterable[bytes], target: str) -> None:
    """A report written piece by piece (never joined into one buffer)."""
    if target == "-":
        sys.stdout.flush()
        for piece in pieces:
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
    else:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        _write_over(Path(target), pieces)


def _write_over(target: Path, pieces: Iterable[bytes]) -> None:
    """``pieces`` as the content of the file ``target``, written over what it held and then
    cut to their length. A report written again copies into the pages the file already
    has; a truncating open first frees them all, and every byte then needs a new page
    (``bench/results.md``). Where writing fails, the file ends where the new content does,
    as a truncating open would have left it."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    with open(fd, "wb") as stream:
        try:
            stream.writelines(pieces)
            stream.flush()
        finally:
            if stat.S_ISREG(os.fstat(fd).st_mode):  # not a pipe nor a device
                os.ftruncate(fd, os.lseek(fd, 0, os.SEEK_CUR))


def _write_utf8(text: bytes) -> None:
    """UTF-8 text to standard output: its bytes as they are where the stream writes UTF-8
    (no Python string of them), else decoded and written by the stream."""
    encoding = getattr(sys.stdout, "encoding", None) or ""
    if encoding and hasattr(sys.stdout, "buffer") and codecs.lookup(encoding).name == "utf-8":
        sys.stdout.flush()
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(text.decode())


def _policy(regulation: str | None, rush: bool) -> Policy:
    from validator.judging.penalties import default_regulation, load_policy

    return load_policy(regulation or default_regulation(rush))


def _decisions(path: Path | None) -> list[Decision]:
    if path is None:
        return []
    from validator.judging.decisions import read_decisions

    return read_decisions(path)


@main.command("check")
@click.argument("decks", nargs=-1, required=True, type=click.Path(path_type=Path))
@cards_option
@banlist_option
@list_option
@format_option
@click.option("--registrations", type=click.Path(path_type=Path), default=None,
              help="Registered deck lists to compare the decks with (deck file name = player id).")
@duel_option
@decisions_option
@regulation_option
@lang_option
@stage_option
@date_option
@json_option
@all_option
@quiet_option
@data_dir_option
@user_errors
def check_command(decks: tuple[Path, ...], cards_spec: str | None, banlist_spec: str | None,
                  list_name: str | None, format_spec: str, registrations: Path | None,
                  duel: int | None, decisions: Path | None, regulation: str | None, lang: Lang,
                  stage: Stage | None, date: str, json_target: str | None, every_deck: bool,
                  quiet: bool, data_dir: Path | None) -> None:
    """Check decks (YDK, ydke, deck codes, text lists; files or folders) and print every
    violation.

    Exit status: 0 all legal, 1 violations found (or a decision is needed), 2 bad input,
    3 an error deckcheck did not expect (the message names the file of its details).

    Example: deckcheck check decks/ --registrations lists.xlsx --duel 2 --json report.json
    """
    from concurrent.futures import Future, ThreadPoolExecutor

    from validator.inputs.decks.batch import read_deck_paths, require_decks
    from validator.inputs.decks.prefetch import worth_it
    from validator.judging.siding import stage_of

    stage = stage_of(duel, stage)
    day = _day(date) if date else None
    few = not worth_it([str(path) for path in decks])  # a few deck files, no folder

    def prepared() -> tuple[Setup, CardTable, Policy]:
        from validator.cards.load import load
        from validator.engine.kept import kept_card_attributes
        from validator.engine.resolve import prepare_codes

        setup = load(format_spec, cards_spec, banlist_spec, list_name, data_dir, day)
        table = kept_card_attributes(setup.cards, setup.banlist, setup.fmt, data_dir)
        prepare_codes(setup.cards, few=few)  # the passcode lookup the check reads first
        return setup, table, _policy(regulation, setup.fmt.rush)

    # the card data, list and card table are made while the deck files are read
    with ThreadPoolExecutor(1) as pool, \
            _progress(not quiet and _is_terminal(err, sys.stderr)) as step:
        ready = pool.submit(prepared)
        try:
            files = read_deck_paths(list(decks), lambda done, total: step(
                "Reading deck files", done, total))
        except InputError:
            ready.result()  # what is wrong with the format or the data is told first
            raise
        # the report's modules are imported while the card table is made (polars works
        # without the interpreter's lock, importing holds it)
        import validator.report.json  # noqa: F401

        setup, table, policy = ready.result()
        reg = None
        if registrations is not None:
            from validator.inputs.registrations.read import read_registrations

            reg = read_registrations(registrations)
        require_decks(files, " ".join(map(str, decks)))
        from validator.judging.checking import check_decks
        from validator.report.json import report_pieces
        from validator.report.model import judged_check

        step("Checking decks", 0, 1)
        checked = check_decks(files, setup, registrations=reg,
                              decisions=_decisions(decisions), duel=duel, stage=stage,
                              attributes=table, langs=(lang,))
        step("Checking decks", 1, 1)
        shown = json_target != "-" and not quiet
        # judged once for the JSON and the terminal; not at all when only the exit status
        # is asked for
        report = judged_check(checked, policy, stage, lang) \
            if json_target is not None or shown else None
        text: Future[None] | None = None
        told = False
        if report is not None and shown and _plain(out, sys.stdout):
            from validator.report.text import report_bytes

            if _plain(err, sys.stderr):  # no progress shown: the problems first, as ever
                _tell(files.problems + checked.problems, checked.result.warnings, lang)
                told = True

            def written() -> None:
                _write_utf8(report_bytes(report, every_deck=every_deck))

            # the text is made and written on another core while the JSON is written: a
            # pipe's reader takes it meanwhile
            text = pool.submit(written)
        if report is not None and json_target is not None:
            step("Writing the report", 0, 1)
            _write_json(report_pieces(report), json_target)
            step("Writing the report", 1, 1)
    problems = files.problems + checked.problems
    result = checked.result
    if not told:
        _tell(problems, result.warnings, lang)
    if report is not None and shown:
        if text is not None:
            text.result()
        else:
            from validator.report.text import print_text

            print_text(report, _made(out), every_deck=every_deck)
    if problems:
        sys.exit(2)
    sys.exit(0 if bool(result.decks["legal"].all()) else 1)


def _tell(problems: list[Problem], warnings: Sequence[Problem], lang: Lang) -> None:
    """A check's problems and warnings on stderr (the first of each, then how many more)."""
    from validator.report.text import problem_lines
    from validator.text.i18n import problem_line

    _shown(problem_lines(problems, lang), "[red]error:[/red]",
           "problems (see the JSON report)")
    _shown([problem_line(w, lang) for w in warnings], "warning:",
           "warnings (see the JSON report)")


@data.command("update")
@click.option("--mirror", default=None,
              help="Fetch every file as MIRROR/<file> instead of from its public source.")
@click.option("--only", multiple=True, help="Only these sources (repeatable): "
              "ygojson, rush, tcg, ocg, traditional, rush-list, speed, goat, genesys.")
@data_dir_option
@user_errors
def data_update(mirror: str | None, only: tuple[str, ...], data_dir: Path | None) -> None:
    """Download the current public card data and Forbidden/Limited lists, then import them.

    Example: deckcheck data update --only ygojson --only tcg
    """
    from validator.cards import store
    from validator.cards.update import update

    with _progress(downloads=True) as progress:
        update(data_dir, mirror, list(only) or None, progress)
    _print_info(store.data_dir(data_dir))


@main.command("template")
@click.argument("target", type=click.Path(path_type=Path), default=None, required=False)
@click.option("--players", type=int, default=1, show_default=True,
              help="How many blank player sheets (workbook only).")
@click.option("--pdf", "as_pdf", is_flag=True,
              help="Write a blank fillable PDF deck registration sheet (the Konami sheet's "
                   "layout and field names) instead of a workbook.")
@user_errors
def template_command(target: Path | None, players: int, as_pdf: bool) -> None:
    """Write a blank deck-list workbook in the Konami sheet layout, or a fillable PDF sheet.

    Example: deckcheck template decklists.xlsx --players 8
    """
    from validator.sheets.workbook import KonamiSheet, write_konami_workbook

    if as_pdf or (target is not None and target.suffix.lower() == ".pdf"):
        from validator.sheets.pdf import write_form

        target = target or Path("decklist.pdf")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(write_form())
        out.print(f"Wrote {target}")
        return
    target = target or Path("decklist.xlsx")
    if players < 1 or players > 1000:
        raise InputError.at("--players", "expected 1 to 1000 sheets", code="BAD_OPTION")
    write_konami_workbook(target, [KonamiSheet(sheet_name=f"Player {i + 1}")
                                   for i in range(players)])
    out.print(f"Wrote {target}")


@main.command("pdf")
@click.argument("deck", type=click.Path(path_type=Path))
@click.option("--player-id", default="", help="The player's CARD GAME ID.")
@click.option("--name", "player_name", default="", help="The player's name (first … last).")
@click.option("--event", default="", help="The event's name.")
@date_option
@out_option
@cards_option
@format_option
@data_dir_option
@lang_option
@user_errors
def pdf_command(deck: Path, player_id: str, player_name: str, event: str, date: str,
                target: Path | None, cards_spec: str | None, format_spec: str,
                data_dir: Path | None, lang: Lang) -> None:
    """Fill a PDF deck registration sheet from a deck (any deck file): cards by their
    names in --lang (English where a card has none) under Monster, Spell, Trap, Extra and
    Side, totals filled, drawn in embedded fonts that cover them.

    Example: deckcheck pdf decks/0400001301.ydk --player-id 0400001301 --name "Ana Lee"
    --event "Regional" --date 2026-12-05
    """
    from validator.cards.load import load_pool
    from validator.inputs.decks.batch import read_deck_paths
    from validator.sheets.pdf import sheet_from_deck, write_form

    date = _day(date) if date else ""
    files = read_deck_paths([deck])
    if files.problems:
        raise InputError(files.problems)
    if len(files.ids) != 1:
        raise InputError.at(str(deck), f"expected one deck, found {len(files.ids)}",
                            code="BAD_OPTION")
    cards, fmt = load_pool(format_spec, cards_spec, data_dir)
    sheet, notes = sheet_from_deck(files.entries, cards, fmt, player_id=player_id,
                                   player_name=player_name, event=event, date=date,
                                   lang=lang)
    for note in notes:
        err.print(f"note: {escape(note)}", highlight=False)
    target = target or deck.with_suffix(".pdf")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(write_form(sheet))
    out.print(f"Wrote {target}")


_CONVERT_TO = ("ydk", "ydke", "omega", "mycard", "ygomobile", "text", "pdf")


@main.command("convert")
@click.argument("decks", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--to", "to", type=click.Choice(_CONVERT_TO), required=True,
              help="The format to write: YDK, a ydke link, an Omega code, a mycard deck code, "
                   "a YGOMobile link, a text list or a filled PDF sheet.")
@out_option
@click.option("--lang", type=click.Choice(NAME_LANGS), default="en", show_default=True,
              help=LANG_HELP)
@cards_option
@format_option
@data_dir_option
@user_errors
def convert_command(decks: tuple[Path, ...], to: str, target: Path | None, lang: str,
                    cards_spec: str | None, format_spec: str, data_dir: Path | None) -> None:
    """Write decks (any format deckcheck reads; files or folders) in another format.

    Exit status: 0 every deck written, 2 a deck could not be read or written (the others
    are written), 3 an error deckcheck did not expect.

    Example: deckcheck convert decks/ --to omega --out omega/
    """
    from validator.cards.load import load_pool
    from validator.inputs.decks.batch import read_deck_paths, require_decks
    from validator.report.text import problem_lines
    from validator.sheets.convert import SUFFIXES, convert

    files = read_deck_paths(list(decks))
    require_decks(files, " ".join(map(str, decks)))
    cards, fmt = load_pool(format_spec, cards_spec, data_dir)
    done, problems = convert(files.entries, files.ids, files.labels, to, cards, fmt, lang)
    problems = files.problems + problems
    single = len(decks) == 1 and not decks[0].is_dir() and len(files.ids) == 1
    for deck in done:
        for note in deck.notes:
            err.print(f"note: {escape(note)}", highlight=False)
        if single and target is None and to != "pdf":
            sys.stdout.buffer.write(deck.data)
            continue
        if single:
            path = target or decks[0].with_suffix(SUFFIXES[to])
        elif target is None:
            raise InputError.at("--out", "several decks: name a folder to write them to",
                                code="BAD_OPTION")
        else:
            path = target / f"{deck.deck_id}{SUFFIXES[to]}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(deck.data)
        if single:
            err.print(f"Wrote {escape(str(path))}", highlight=False)
    if done and not single:
        err.print(f"Wrote {len(done)} decks to {escape(str(target))}", highlight=False)
    _shown(problem_lines(problems, _lang_of(lang)), "[red]error:[/red]", "problems")
    sys.exit(2 if problems else 0)


@main.command("event")
@click.argument("registrations", type=click.Path(path_type=Path))
@click.option("--decks", type=click.Path(path_type=Path), default=None,
              help="Submitted decks: a folder or a zip of YDK/ydke/text files named by "
                   "player id.")
@cards_option
@banlist_option
@list_option
@format_option
@duel_option
@decisions_option
@regulation_option
@lang_option
@stage_option
@date_option
@click.option("--report", type=click.Path(path_type=Path), default=None,
              help="Write the XLSX report to this file.")
@json_option
@all_option
@quiet_option
@data_dir_option
@user_errors
def event_command(registrations: Path, decks: Path | None, cards_spec: str | None,
                  banlist_spec: str | None, list_name: str | None, format_spec: str,
                  duel: int | None, decisions: Path | None, regulation: str | None, lang: Lang,
                  stage: Stage | None, date: str, report: Path | None, json_target: str | None,
                  every_deck: bool, quiet: bool, data_dir: Path | None) -> None:
    """Check a whole event: every registered list, every submitted deck, list against deck.

    Prints what the decks were judged by and, for each player who is not legal, their
    violations, penalty or the head judge's decision, and remedies.

    Exit status: 0 every player legal, 1 any player not legal (illegal, waiting for a
    decision, or their deck not checked), 2 bad input (no player could be read), 3 an
    error deckcheck did not expect.

    Example: deckcheck event sample_decklists/regional-tcg.xlsx --decks decks/tcg
    --report out/report.xlsx --json out/report.json
    """

    from validator.cards.load import load
    from validator.event.run import run_event
    from validator.judging.siding import stage_of
    from validator.report.json import report_pieces
    from validator.report.model import judged_event
    from validator.report.text import print_text, problem_lines

    stage = stage_of(duel, stage)
    steps = ("Loading card data and list", "Reading and checking lists and decks",
             "Writing the report")
    with _progress(not quiet and err.is_terminal) as step:
        step(steps[0], 0, 1)
        setup = load(format_spec, cards_spec, banlist_spec, list_name, data_dir,
                     _day(date) if date else None)
        policy = _policy(regulation, setup.fmt.rush)
        settled = _decisions(decisions)
        step(steps[0], 1, 1)
        step(steps[1], 0, 1)
        result = run_event(registrations, setup, decks=decks, decisions=settled, duel=duel,
                           stage=stage)
        step(steps[1], 1, 1)
        step(steps[2], 0, 1)
        judged = judged_event(result, policy, stage, lang)
        if report is not None:
            from validator.report.xlsx import write_event_xlsx

            write_event_xlsx(judged, report)
        if json_target:
            _write_json(report_pieces(judged), json_target)
        step(steps[2], 1, 1)
    _shown(problem_lines(judged.problems, lang), "[yellow]problem:[/yellow]",
           "problems (see the JSON or XLSX report)")
    if json_target != "-" and not quiet:
        print_text(judged, _made(out), every_deck=every_deck)
        written = [f"{label} {path}" for label, path in (("Report:", report),
                                                         ("JSON:  ", json_target)) if path]
        if written:
            out.print("\n".join(written), highlight=False)
    sys.exit(0 if judged.statuses["legal"] == judged.items.height else 1)


@main.command("card")
@click.argument("query")
@cards_option
@banlist_option
@format_option
@date_option
@lang_option
@json_option
@data_dir_option
@user_errors
def card_command(query: str, cards_spec: str | None, banlist_spec: str | None,
                 format_spec: str, date: str, lang: Lang, json_target: str | None,
                 data_dir: Path | None) -> None:
    """Show what the card data knows of one card (a name in any language, or a passcode):
    printings, names, the name it counts as, its status on the list in force, release per
    region and the sources that say so, Genesys points; every card a name names.

    Exit status: 0 found, 2 no such card or bad input, 3 an error deckcheck did not expect.

    Example: deckcheck card "Maxx \"C\"" --date 2024-10-20
    """
    from validator.cards.load import load
    from validator.engine.lookup import card_facts

    setup = load(format_spec, cards_spec, banlist_spec, None, data_dir,
                 _day(date) if date else None)
    facts = card_facts(query, setup)
    if json_target is not None:
        import json

        text = json.dumps(facts, ensure_ascii=False, indent=2) + "\n"
        if json_target == "-":
            click.echo(text, nl=False)
            return
        Path(json_target).write_text(text, encoding="utf-8")
    effective = f"effective {facts['banlist_effective']}; " if facts["banlist_effective"] else ""
    out.print(f"list {escape(facts['banlist'])} ({effective}{facts['banlist_reason']})",
              highlight=False)
    for card in facts["cards"]:
        name = card["names"].get(lang) or card["name"]
        lines = [f"[bold]{escape(name)}[/bold]"
                 + (f" — {escape(card['name'])}" if name != card["name"] else ""),
                 f"  passcodes: {', '.join(map(str, card['passcodes'])) or '—'}",
                 f"  kind: {card['kind']}" + (", Extra Deck" if card["extra_deck"] else "")
                 + (", Rush Duel" if card["rush"] else "")]
        if card["treated_as"]:
            lines.append(f"  treated as: {escape(card['treated_as'])}")
        status = card["status"]
        lines.append(f"  status on {escape(facts['banlist'])}: {status['word']}"
                     + ("" if status["listed"] else " (not on the list)"))
        if card["outside_pool"]:
            lines.append(f"  not legal in {facts['format']}: {escape(card['outside_pool'])}")
        release = card["release"]
        lines.append(f"  released in: {', '.join(r.upper() for r in release['regions']) or '—'}"
                     f" (sources: {escape('; '.join(release['sources']))})")
        for stated in release["stated"]:
            lines.append(f"    YGOJSON {stated['region']}: {stated['status']}")
        if release["unknown"]:
            lines.append("  no source says whether it is released in this format's region")
        if card["points"]:
            lines.append(f"  Genesys points: {card['points']:g}")
        lines.append("  names: " + "; ".join(f"{k} {escape(v)}" for k, v in
                                              card["names"].items()))
        out.print("\n".join(lines), highlight=False)


def _password_from(path: Path) -> str:
    """The first line of a password file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError.at(str(path), f"cannot read the password file ({exc})",
                            code="BAD_OPTION") from exc
    if not lines or not lines[0]:
        raise InputError.at(str(path), "the password file's first line is empty",
                            code="BAD_OPTION")
    return lines[0]


def server_config(app: Any, forwarded_allow_ips: str | None) -> Any:
    """uvicorn's settings: forwarded headers are believed only from the proxies named."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", proxy_headers=bool(forwarded_allow_ips),
                          forwarded_allow_ips=forwarded_allow_ips or "")


@main.command("serve")
@click.option("--db", "db_path", type=click.Path(path_type=Path), default=Path("event.sqlite"),
              show_default=True, help="The event's database file (created when missing).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; 0.0.0.0 for the LAN, which "
                   "needs --password).")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option("--password", default=None, envvar="DECKCHECK_PASSWORD",
              help="Shared organizer password, best from $DECKCHECK_PASSWORD or "
                   "--password-file: on the command line other users of the machine can read "
                   "it.")
@click.option("--password-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A file whose first line is the organizer password.")
@click.option("--judge-password-file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="A file whose first line is a shared judge password (or "
                                 "$DECKCHECK_JUDGE_PASSWORD): it signs in as a judge, who "
                                 "gives a name once per device. Per-person codes from the "
                                 "Staff page are safer.")
@click.option("--forwarded-allow-ips", default=None,
              help="Addresses of the reverse proxies trusted to say the client's address and "
                   "HTTPS (X-Forwarded-For/-Proto), comma-separated; none by default.")
@click.option("--allow-host", "allow_hosts", multiple=True,
              help="Another host name the server answers to (repeatable), e.g. the name "
                   "judges type on the venue LAN.")
@cards_option
@click.option("--max-upload", type=click.IntRange(1, 2048), default=MAX_UPLOAD >> 20,
              show_default=True, help="Largest upload accepted, in MB (a zip of an event's "
                                      "PDF sheets is about 0.15 MB per player).")
@click.option("--read-seconds", type=click.FloatRange(0.1, 3600), default=READ_SECONDS,
              show_default=True, help="Longest time reading one uploaded file may take; a "
                                      "file that takes longer is reported, not read.")
@click.option("--read-memory", type=click.IntRange(64, 65536), default=READ_MEMORY >> 20,
              show_default=True, help="Most memory reading one uploaded file may take, in "
                                      "MiB; a file that needs more is reported, not read.")
@click.option("--submissions-per-id", type=click.IntRange(1, 1000), default=10,
              show_default=True, help="Lists one KONAMI ID may submit on the registration "
                                      "page in 10 minutes; more are refused, not stored.")
@click.option("--requests-per-address", type=click.IntRange(1, 100000), default=300,
              show_default=True, help="Requests one client address may make to the "
                                      "registration page per minute (a venue's players share "
                                      "one address).")
@data_dir_option
@user_errors
def serve_command(db_path: Path, host: str, port: int, password: str | None,
                  password_file: Path | None, judge_password_file: Path | None,
                  forwarded_allow_ips: str | None, allow_hosts: tuple[str, ...],
                  cards_spec: str | None, max_upload: int,
                  read_seconds: float, read_memory: int, submissions_per_id: int,
                  requests_per_address: int, data_dir: Path | None) -> None:
    """Serve the web app for organizers and judges (one event per database file), and the
    players' registration page.

    Example: deckcheck serve --db regional.sqlite --host 0.0.0.0 --password-file pw.txt
    """
    import socket

    import uvicorn

    from validator.event.bounded import Limits
    from validator.web.app import create_app
    from validator.web.limits import PlayerLimits
    from validator.web.security import LOOPBACK, MIN_PASSWORD, allowed_hosts

    source = click.get_current_context().get_parameter_source("password")
    if password_file is not None:
        password = _password_from(password_file)
    elif password and source == click.core.ParameterSource.COMMANDLINE:
        err.print("warning: a password on the command line can be read by other users of "
                  "this machine (the process list); use --password-file or "
                  "$DECKCHECK_PASSWORD", highlight=False)
    judge_password = (_password_from(judge_password_file) if judge_password_file is not None
                      else os.environ.get("DECKCHECK_JUDGE_PASSWORD") or None)
    if judge_password is not None and not password:
        raise InputError.at("--judge-password-file", "a judge password needs an organizer "
                            "password too (--password-file or $DECKCHECK_PASSWORD)",
                            code="BAD_OPTION")
    if judge_password is not None and judge_password == password:
        raise InputError.at("--judge-password-file", "the judge password must differ from "
                            "the organizer's", code="BAD_OPTION")
    if host not in LOOPBACK and judge_password is not None and \
            len(judge_password) < MIN_PASSWORD:
        raise InputError.at("--judge-password-file", f"serving on {host} needs a judge "
                            f"password of at least {MIN_PASSWORD} characters",
                            code="BAD_OPTION")
    if host not in LOOPBACK and not password:
        raise InputError.at("--host", f"serving on {host} reaches beyond this machine: give "
                                      "--password-file (or $DECKCHECK_PASSWORD) too",
                            code="BAD_OPTION")
    if host not in LOOPBACK and password and len(password) < MIN_PASSWORD:
        raise InputError.at("--password", f"serving on {host} needs a password of at least "
                                          f"{MIN_PASSWORD} characters", code="BAD_OPTION")
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host
                                    else socket.AF_INET)
    except OSError as exc:
        raise InputError.at(f"{host}:{port}", f"cannot listen there ({exc.strerror}): is "
                                              "another server using the port? Try --port",
                            code="BAD_OPTION") from exc
    app = create_app(db_path, password=password, judge_password=judge_password,
                     cards_spec=cards_spec, data_dir=data_dir,
                     max_upload=max_upload << 20, hosts=allowed_hosts(host, allow_hosts),
                     checks="process", limits=Limits(read_seconds, read_memory << 20),
                     player_limits=PlayerLimits(submissions=submissions_per_id,
                                                requests=requests_per_address))
    server = uvicorn.Server(server_config(app, forwarded_allow_ips))
    shown = f"[{host}]" if ":" in host else host
    out.print(f"deckcheck serving {db_path} on http://{shown}:{port}/")
    server.run(sockets=[sock])
