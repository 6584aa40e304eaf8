"""The catalogs of what the tool says, one gettext ``.po`` per language
(``validator/locale/<lang>/LC_MESSAGES/deckcheck.po``), read with Babel when first used.

Every sentence the terminal, the reports, the PDF sheets and the web app write is one catalog
entry: its msgid is the English sentence with named placeholders (``{card}``, ``{n}``), its
msgstr the same sentence in the language with the same placeholders. A short word used inside
sentences (a deck section, a status) is an entry with a context (``msgctxt``), so one English
word can have two translations. English is the msgid itself; ``en.po`` lists every msgid and
is the reference the other catalogs are checked against (``tests/text/test_i18n.py``).

Two languages meet on a staff page, and each has its own part of it. The page's own words
(navigation, headings, form labels, hints, buttons, the messages a form answers with) are in
the page language of the judge reading it (``validator.web.pages.page_lang``: their choice,
else their browser's, else the event's). What the page shows of the record (a violation's
sentence, a penalty's name and when it applies, a log entry's status, the signature lines of
a printable record) is in the event's language, the words the exports, the printed slips and
the CSV and XLSX logs write, so two judges reading one entry in two languages read the same
record. Dates and times on a page are written the page's way, except on a printable record.

A problem of the input or a warning (:class:`~validator.errors.Problem`) keeps its English
``message``; one that names its catalog entry (``msgid`` and ``values``) is written in each
report's language by :func:`problem_text` and :func:`problem_line`.

A msgid missing from the catalogs is the code's mistake, not the reader's: it raises
:class:`ImplementationError`, so a test that writes a report finds it.

A sentence that counts (``{n} players``) is a plural entry (``msgid_plural``, one
``msgstr[i]`` per form of the language: English has two, Japanese, Korean and Thai one),
read with :func:`say_n`; the catalog's ``Plural-Forms`` header chooses the form.

The wheel holds the catalogs compiled to ``.mo`` (``hatch_build.py`` compiles them at build),
read here (a ``.mo`` is two tables of strings); a source checkout has only the ``.po`` files,
read here too, as Babel reads them. Both give the same entries, and neither imports Babel.
"""

from __future__ import annotations

import gettext
import re
import struct
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from validator.errors import ImplementationError, Problem
from validator.vocab import LANGS, Lang

__all__ = ["DOMAIN", "LANGS", "LOCAL_LANGS", "PARTICLES", "PLACEHOLDER", "Catalog", "catalog",
           "jinja_callables", "korean_particles", "problem_line", "problem_text", "say", "say_n",
           "term", "terms"]

DOMAIN = "deckcheck"
#: a named placeholder of a msgid: ``{card}``
PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: the languages besides English (a message is written in English and in each of these)
LOCAL_LANGS: tuple[Lang, ...] = tuple(lang for lang in LANGS if lang != "en")
Key = tuple[str | None, str]  # (msgctxt, msgid)
_ONE_OR_MORE = "nplurals=2; plural=(n != 1);"


class Catalog:
    """One language's entries: (context, msgid) → text in the language; a plural entry,
    keyed by its singular msgid, has one text per form of the language."""

    def __init__(self, lang: Lang, entries: Mapping[Key, str],
                 plurals: Mapping[Key, tuple[str, ...]] | None = None,
                 plural_forms: str = _ONE_OR_MORE) -> None:
        self.lang = lang
        self.entries = dict(entries)
        self.plurals = dict(plurals or {})
        expression = plural_forms.split("plural=", 1)[-1].strip().rstrip(";")
        #: the form (index of a plural entry's texts) a number takes in the language
        self.form: Callable[[int], int] = gettext.c2py(expression)

    def get(self, msgid: str, context: str | None = None) -> str:
        """The text of ``msgid`` in this language (the msgid itself in English)."""
        text = self.entries.get((context, msgid))
        if text is None:
            where = f" (context {context!r})" if context else ""
            raise ImplementationError(f"{msgid!r}{where} is not in the {self.lang} catalog")
        return text

    def get_n(self, msgid: str, n: int, context: str | None = None) -> str:
        """The text of the plural entry ``msgid`` (its singular) for the number ``n``."""
        forms = self.plurals.get((context, msgid))
        if forms is None:
            raise ImplementationError(f"{msgid!r} is not a plural entry of the {self.lang} "
                                      "catalog")
        return forms[min(self.form(n), len(forms) - 1)]

    def with_context(self, context: str) -> dict[str, str]:
        """Every msgid of one context and its text: the words of one kind."""
        return {msgid: text for (ctx, msgid), text in self.entries.items() if ctx == context}


def po_path(lang: Lang) -> Any:
    """The ``.po`` file of a language, as the package ships it."""
    return resources.files("validator").joinpath("locale", lang, "LC_MESSAGES",
                                                 f"{DOMAIN}.po")


def mo_path(lang: Lang) -> Any:
    """The compiled ``.mo`` file of a language (only in a built package)."""
    return resources.files("validator").joinpath("locale", lang, "LC_MESSAGES",
                                                 f"{DOMAIN}.mo")


Entries = tuple[dict[Key, str], dict[Key, tuple[str, ...]], str]


#: one line of a ``.po``: a keyword (``msgid``, ``msgstr[1]``, ...) or none (a string
#: continued), then one quoted string
_PO_LINE = re.compile(r'(?:(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+)?"(.*)"')
_PO_ESCAPE = re.compile(r'\\([\\trn"])')
_UNESCAPED = {"n": "\n", "t": "\t", "r": "\r"}


def _unescaped(text: str) -> str:
    return _PO_ESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(1)), text)


def po_entries(text: str) -> Entries:
    """The entries of a catalog's ``.po`` text, as Babel reads them: comments (obsolete
    entries among them) skipped, an entry without a translation its own msgid, the
    header's ``Plural-Forms``."""
    entries: dict[Key, str] = {}
    plurals: dict[Key, tuple[str, ...]] = {}
    plural_forms = _ONE_OR_MORE
    fields: dict[str, str] = {}
    key = ""

    def finish() -> None:
        nonlocal plural_forms
        msgid = fields.get("msgid")
        context = fields.get("msgctxt")
        if msgid is None:
            pass
        elif not msgid:  # the header
            found = _PLURAL_FORMS.search(fields.get("msgstr", ""))
            plural_forms = found.group(1) if found else plural_forms
        elif "msgid_plural" in fields:
            forms = sorted((int(k[7:-1]), v) for k, v in fields.items()
                           if k.startswith("msgstr["))
            written = tuple(v for _, v in forms)
            plurals[(context, msgid)] = written if any(written) else (
                msgid, fields["msgid_plural"])
        else:
            entries[(context, msgid)] = fields.get("msgstr") or msgid
        fields.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        found = _PO_LINE.fullmatch(line)
        if found is None:
            continue
        keyword, value = found.group(1), _unescaped(found.group(2))
        if keyword is None:
            fields[key] = fields.get(key, "") + value
            continue
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            finish()
        key = keyword
        fields[key] = value
    finish()
    return entries, plurals, plural_forms


def _from_po(lang: Lang) -> Entries:
    """A language's entries read from its ``.po``: parsed once, then read from the cache
    folder while the ``.po`` (and this parser) are unchanged (a checkout has no ``.mo``)."""
    from validator.text.datafile import validated_once

    text = po_path(lang).read_bytes()

    def parsed() -> list[Any]:
        entries, plurals, plural_forms = po_entries(text.decode("utf-8"))
        return [[[*key, value] for key, value in entries.items()],
                [[*key, list(value)] for key, value in plurals.items()], plural_forms]

    entries, plurals, plural_forms = validated_once(
        f"catalog-{lang}", [text, Path(__file__).read_bytes()], parsed)
    return ({(context, msgid): value for context, msgid, value in entries},
            {(context, msgid): tuple(value) for context, msgid, value in plurals},
            plural_forms)


_PLURAL_FORMS = re.compile(r"^Plural-Forms:\s*(.*?)\s*$", re.MULTILINE | re.IGNORECASE)


def mo_entries(data: bytes) -> Entries:
    """The entries of a compiled catalog (GNU ``.mo``): a context is written before its
    msgid and ``\\x04``, a plural entry's msgids and texts are joined by ``\\x00``."""
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    count, ids_at, texts_at = struct.unpack_from(order + "3I", data, 8)
    entries: dict[Key, str] = {}
    plurals: dict[Key, tuple[str, ...]] = {}
    plural_forms = _ONE_OR_MORE
    for number in range(count):
        id_length, id_offset = struct.unpack_from(order + "2I", data, ids_at + 8 * number)
        text_length, text_offset = struct.unpack_from(order + "2I", data,
                                                      texts_at + 8 * number)
        msgid = data[id_offset:id_offset + id_length].decode()
        text = data[text_offset:text_offset + text_length].decode()
        if not msgid:  # the header
            found = _PLURAL_FORMS.search(text)
            plural_forms = found.group(1) if found else plural_forms
            continue
        context, _, msgid = msgid.rpartition("\x04")
        key = (context or None, msgid)
        if "\x00" in msgid:
            singular = msgid.split("\x00")[0]
            plurals[(key[0], singular)] = tuple(text.split("\x00"))
        else:
            entries[key] = text or msgid
    return entries, plurals, plural_forms


def _entries(lang: Lang) -> Entries:
    """A language's entries: the compiled ``.mo`` when the package has one, else the
    ``.po``."""
    compiled = mo_path(lang)
    if compiled.is_file():
        return mo_entries(compiled.read_bytes())
    return _from_po(lang)


@cache
def catalog(lang: Lang) -> Catalog:
    """A language's catalog, read once (English: every msgid as itself)."""
    entries, plurals, plural_forms = _entries(lang)
    return Catalog(lang, entries, plurals, plural_forms)


def say(lang: Lang, msgid: str, /, **values: object) -> str:
    """One sentence in the language, its placeholders filled."""
    return _filled(lang, catalog(lang).get(msgid), values)


def say_n(lang: Lang, msgid: str, n: int, /, **values: object) -> str:
    """One sentence that counts ``n`` (a plural entry, by its singular msgid), in the form
    the language gives that number, ``{n}`` and the other placeholders filled."""
    return _filled(lang, catalog(lang).get_n(msgid, n), {"n": n, **values})


def _filled(lang: Lang, text: str, values: Mapping[str, object]) -> str:
    text = PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text) if values else text
    return korean_particles(text) if lang == "ko" else text


# Korean particles after a placeholder depend on the word before them: 이/가, 은/는, 을/를,
# 으로/로. The catalogs write both ("{card}이(가)"); once the word is known, the one that
# fits is chosen (after a word that does not end in a Hangul syllable, both stay).
# (syllables come in blocks of 28 finals: built by steps and ranges, not char by char)
_OPEN = "".join(map(chr, range(0xAC00, 0xD7A4, 28)))  # no final consonant
_RIEUL = "".join(map(chr, range(0xAC00 + 8, 0xD7A4, 28)))  # final ㄹ
_CLOSED = "".join(f"{chr(c + 1)}-{chr(c + 27)}" for c in range(0xAC00, 0xD7A4, 28))
#: (pattern, replacement) in the order they apply
PARTICLES: tuple[tuple[str, str], ...] = (
    (f"([{_OPEN}])이\\(가\\)", "${1}가"), (f"([{_CLOSED}])이\\(가\\)", "${1}이"),
    (f"([{_OPEN}])은\\(는\\)", "${1}는"), (f"([{_CLOSED}])은\\(는\\)", "${1}은"),
    (f"([{_OPEN}])을\\(를\\)", "${1}를"), (f"([{_CLOSED}])을\\(를\\)", "${1}을"),
    (f"([{_OPEN}{_RIEUL}])\\(으\\)로", "${1}로"), (f"([{_CLOSED}])\\(으\\)로", "${1}으로"),
)


#: the passes of :data:`PARTICLES`, read from a syllable's code instead of a character
#: class: (doubled particle, what it becomes, the finals of the syllable before it:
#: open = none, or none and ㄹ, closed = any)
_PASSES: tuple[tuple[str, str, frozenset[int] | None], ...] = (
    ("이(가)", "가", frozenset({0})), ("이(가)", "이", None),
    ("은(는)", "는", frozenset({0})), ("은(는)", "은", None),
    ("을(를)", "를", frozenset({0})), ("을(를)", "을", None),
    ("(으)로", "로", frozenset({0, 8})), ("(으)로", "으로", None),
)


def _resolved(text: str, doubled: str, particle: str, opens: frozenset[int] | None) -> str:
    """One pass of :data:`PARTICLES` (``re.sub`` of the pattern: matches taken left to
    right, none inside the one before)."""
    parts: list[str] = []
    taken = search = 0  # the end of the last match; where the next search starts
    while (found := text.find(doubled, search)) >= 0:
        before = found - 1
        final = (ord(text[before]) - 0xAC00) % 28 if before >= taken and \
            "\uac00" <= text[before] <= "\ud7a3" else None
        if final is not None and (final in opens if opens is not None else final != 0):
            parts += [text[taken:before], text[before], particle]
            taken = search = found + len(doubled)
        else:
            search = found + 1
    return "".join(parts) + text[taken:] if parts else text


def korean_particles(text: str) -> str:
    """A Korean sentence with each doubled particle resolved by the word before it."""
    for doubled, particle, opens in _PASSES:
        if doubled in text:
            text = _resolved(text, doubled, particle, opens)
    return text


def problem_text(problem: Problem, lang: Lang) -> str:
    """A problem's message in the language: its catalog entry when it names one, else its
    English message (the message every report also keeps as it is)."""
    if problem.msgid is None:
        return problem.message
    return say(lang, problem.msgid, **dict(problem.values))


#: places a problem names that are not files, as the catalogs say them
_PLACES = {"card data": "card data: {cards}"}


def problem_line(problem: Problem, lang: Lang) -> str:
    """``place: message`` in the language (``str(problem)`` in English)."""
    text = problem_text(problem, lang)
    if lang != "en" and problem.file in _PLACES and problem.line is None and not problem.column:
        return say(lang, _PLACES[problem.file], cards=text)
    return f"{problem.place}: {text}"


def term(lang: Lang, context: str, word: str) -> str:
    """One word of a kind (``context``) in the language."""
    return catalog(lang).get(word, context)


def terms(lang: Lang, context: str) -> dict[str, str]:
    """Every word of a kind in the language, keyed by its English msgid."""
    return catalog(lang).with_context(context)


def jinja_callables(lang: Lang) -> dict[str, Callable[..., str]]:
    """``gettext``/``ngettext``/``pgettext`` for Jinja2's i18n extension, reading this
    language's catalog: ``{{ _("Players: {n}", n=3) }}`` (placeholders by name, as in the
    catalogs). Installed by :func:`validator.web.pages` with ``newstyle=False``, so Jinja
    hands the call to these functions as it is."""

    def gettext(msgid: str, **values: object) -> str:
        return say(lang, msgid, **values)

    def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
        return say_n(lang, singular, n, **values)

    def pgettext(context: str, msgid: str, **values: object) -> str:
        return term(lang, context, msgid)

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext}
