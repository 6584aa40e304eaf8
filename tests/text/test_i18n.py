"""The catalogs: every msgid translated in ja, ko and th with the same placeholders."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from jinja2 import Environment

from validator.errors import ImplementationError
from validator.text.i18n import (
    LOCAL_LANGS,
    PLACEHOLDER,
    catalog,
    jinja_callables,
    korean_particles,
    po_path,
    say,
    term,
)
from validator.vocab import Lang

#: a letter of the language's own script (kana/kanji, hangul, Thai)
_SCRIPT = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
           "ko": re.compile(r"[\uac00-\ud7af]"), "th": re.compile(r"[\u0e00-\u0e7f]")}


def _entries(lang: Lang) -> dict[tuple[str | None, str], str]:
    with po_path(lang).open("rb") as handle:
        po = read_po(handle, locale=lang)
    return {(m.context, str(m.id)): str(m.string) for m in po if m.id}


def test_the_english_catalog_lists_the_msgids() -> None:
    english = _entries("en")
    assert len(english) >= 60
    assert ("section", "main") in english
    assert ("status word", "illegal") in english


@pytest.mark.parametrize("lang", LOCAL_LANGS)
def test_every_msgid_is_translated_with_the_same_placeholders(lang: Lang) -> None:
    english, local = _entries("en"), _entries(lang)
    assert set(local) == set(english)
    for key, text in local.items():
        assert text.strip(), key
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(key[1])), key
        words = PLACEHOLDER.sub("", text)
        if re.search(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", key[1])):  # words, not a layout
            assert _SCRIPT[lang].search(words), key  # written in the language, not copied


def test_a_sentence_fills_its_placeholders() -> None:
    msgid = "{card} is Forbidden ({n} in the {section} deck)"
    assert say("en", msgid, card="Pot of Greed", n=1, section="side") == (
        "Pot of Greed is Forbidden (1 in the side deck)")
    assert say("ja", msgid, card="強欲な壺", n=1, section=term("ja", "section", "side")) == (
        "強欲な壺は禁止カードです（サイドデッキに1枚）")


def test_a_msgid_missing_from_the_catalogs_is_the_codes_mistake() -> None:
    with pytest.raises(ImplementationError, match="not in the ja catalog"):
        say("ja", "a sentence nobody wrote")
    with pytest.raises(ImplementationError):
        term("ko", "section", "graveyard")


def test_templates_read_the_catalog_of_the_language() -> None:
    env = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    env.install_gettext_callables(**jinja_callables("ko"), newstyle=False)  # type: ignore[attr-defined]
    page = env.from_string('{{ _("card data: {cards}", cards=source) }} '
                           '{{ pgettext("section", "side") }}')
    assert page.render(source="cards.json") == "카드 데이터: cards.json 사이드 덱"
    assert catalog("ko").get("card data: {cards}") == "카드 데이터: {cards}"


@pytest.mark.parametrize(("written", "read"), [
    ("무덤의 지명자이(가) 2장", "무덤의 지명자가 2장"),
    ("욕망의 항아리은(는)", "욕망의 항아리는"),
    ("번개을(를)", "번개를"),
    ("스킬(으)로", "스킬로"),
    ("카드명(으)로", "카드명으로"),
    ('Maxx "C"은(는)', 'Maxx "C"은(는)'),  # after a word that is not Hangul both stay
])
def test_korean_particles_fit_the_word_before_them(written: str, read: str) -> None:
    assert korean_particles(written) == read
