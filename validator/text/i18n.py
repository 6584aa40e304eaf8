"""The catalogs of what the tool says, one gettext ``.po`` per language
(``validator/locale/<lang>/LC_MESSAGES/deckcheck.po``), read with Babel when first used.

Every sentence the terminal, the reports, the PDF sheets and the web app write is one catalog
entry: its msgid is the English sentence with named placeholders (``{card}``, ``{n}``), its
msgstr the same sentence in the language with the same placeholders. A short word used inside
sentences (a deck section, a status) is an entry with a context (``msgctxt``), so one English
word can have two translations. English is the msgid itself; ``en.po`` lists every msgid and
is the reference the other catalogs are checked against (``tests/text/test_i18n.py``).

A msgid missing from the catalogs is the code's mistake, not the reader's: it raises
:class:`ImplementationError`, so a test that writes a report finds it.

The catalogs are compiled when first used (Babel's ``.po`` reader, a few milliseconds), not at
build time: the ``.po`` files are the only copy, so what a review reads is what runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.pofile import read_po

from validator.errors import ImplementationError
from validator.vocab import LANGS, Lang

__all__ = ["DOMAIN", "LANGS", "LOCAL_LANGS", "PARTICLES", "PLACEHOLDER", "Catalog", "catalog",
           "jinja_callables", "korean_particles", "say", "term", "terms"]

DOMAIN = "deckcheck"
#: a named placeholder of a msgid: ``{card}``
PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: the languages besides English (a message is written in English and in each of these)
LOCAL_LANGS: tuple[Lang, ...] = tuple(lang for lang in LANGS if lang != "en")
Key = tuple[str | None, str]  # (msgctxt, msgid)


class Catalog:
    """One language's entries: (context, msgid) → text in the language."""

    def __init__(self, lang: Lang, entries: Mapping[Key, str]) -> None:
        self.lang = lang
        self.entries = dict(entries)

    def get(self, msgid: str, context: str | None = None) -> str:
        """The text of ``msgid`` in this language (the msgid itself in English)."""
        text = self.entries.get((context, msgid))
        if text is None:
            where = f" (context {context!r})" if context else ""
            raise ImplementationError(f"{msgid!r}{where} is not in the {self.lang} catalog")
        return text

    def with_context(self, context: str) -> dict[str, str]:
        """Every msgid of one context and its text: the words of one kind."""
        return {msgid: text for (ctx, msgid), text in self.entries.items() if ctx == context}


def po_path(lang: Lang) -> Any:
    """The ``.po`` file of a language, as the package ships it."""
    return resources.files("validator").joinpath("locale", lang, "LC_MESSAGES",
                                                 f"{DOMAIN}.po")


@cache
def catalog(lang: Lang) -> Catalog:
    """A language's catalog, read once (English: every msgid as itself)."""
    with po_path(lang).open("rb") as handle:
        po = read_po(handle, locale=lang, domain=DOMAIN)
    entries: dict[Key, str] = {}
    for message in po:
        if not message.id or not isinstance(message.id, str):
            continue
        text = message.string if isinstance(message.string, str) else ""
        entries[(message.context, message.id)] = text if lang != "en" and text else (
            text or message.id)
    return Catalog(lang, entries)


def say(lang: Lang, msgid: str, /, **values: object) -> str:
    """One sentence in the language, its placeholders filled."""
    text = catalog(lang).get(msgid)
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


def korean_particles(text: str) -> str:
    """A Korean sentence with each doubled particle resolved by the word before it."""
    for pattern, replacement in PARTICLES:
        text = re.sub(pattern, replacement.replace("${1}", "\\1"), text)
    return text


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
        return say(lang, singular if n == 1 else plural, n=n, **values)

    def pgettext(context: str, msgid: str, **values: object) -> str:
        return term(lang, context, msgid)

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext}
