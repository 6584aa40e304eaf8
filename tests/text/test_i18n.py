"""The catalogs: every msgid translated in ja, ko and th with the same placeholders."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment

from validator.errors import ImplementationError, Problem
from validator.text.i18n import (
    LOCAL_LANGS,
    PARTICLES,
    PLACEHOLDER,
    _from_po,
    catalog,
    jinja_callables,
    korean_particles,
    mo_entries,
    po_entries,
    po_path,
    problem_line,
    problem_text,
    say,
    say_n,
    term,
)
from validator.vocab import LANGS, Lang

#: a letter of the language's own script (kana/kanji, hangul, Thai)
_SCRIPT = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
           "ko": re.compile(r"[\uac00-\ud7af]"), "th": re.compile(r"[\u0e00-\u0e7f]")}


def _entries(lang: Lang) -> dict[tuple[str | None, str], str]:
    """Each entry's text; a plural entry by its singular, its forms joined by `` | ``."""
    with po_path(lang).open("rb") as handle:
        po = read_po(handle, locale=lang)
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]):
            m.string if isinstance(m.string, str) else " | ".join(m.string or ())
            for m in po if m.id}


def _plural_forms(lang: Lang) -> dict[str, int]:
    """The number of texts each plural entry has, by its singular msgid."""
    with po_path(lang).open("rb") as handle:
        po = read_po(handle, locale=lang)
    return {m.id[0]: len(m.string or ()) for m in po if m.id and not isinstance(m.id, str)}


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
        for form in text.split(" | "):
            assert form.strip(), key
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(key[1])), key
            assert len(PLACEHOLDER.findall(form)) == len(PLACEHOLDER.findall(key[1])), key
            words = PLACEHOLDER.sub("", form)
            if re.search(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", key[1])):  # words, not layout
                assert _SCRIPT[lang].search(words), key  # written in the language, not copied


@pytest.mark.parametrize("lang", LOCAL_LANGS)
def test_a_plural_entry_has_one_text_per_form_of_the_language(lang: Lang) -> None:
    plurals = _plural_forms(lang)
    assert "{n} player" in plurals
    assert set(plurals) == set(_plural_forms("en"))
    assert set(plurals.values()) == {1}  # Japanese, Korean and Thai: one form
    assert set(_plural_forms("en").values()) == {2}


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


def _by_patterns(text: str) -> str:
    """The particles resolved by the pattern table the engine applies (the reference)."""
    for pattern, replacement in PARTICLES:
        text = re.sub(pattern, replacement.replace("${1}", "\\1"), text)
    return text


#: syllables of every kind of final (none, ㄹ, others), particles, and what is not Hangul
_PIECES = ["가", "각", "갈", "힣", "로", "를", "이", "은", "을", "으", "(", ")", "가)", "A", " ",
           '"', "이(가)", "은(는)", "을(를)", "(으)로", "\uac00", "\ud7a3", "\ud7a4", "ㄱ"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_korean_particles_are_those_of_the_engine_patterns(text: str) -> None:
    assert korean_particles(text) == _by_patterns(text)


def test_korean_particles_of_every_korean_entry_with_a_card_name_are_those_of_the_patterns(
        ) -> None:
    texts = [PLACEHOLDER.sub(name, text) for text in catalog("ko").entries.values()
             for name in ("무덤의 지명자", "번개", "스킬", "Maxx \"C\"")]
    assert sum("(" in t for t in texts) > 10  # the catalog has doubled particles to read
    assert [korean_particles(t) for t in texts] == [_by_patterns(t) for t in texts]


def test_a_plural_sentence_takes_the_form_of_its_number() -> None:
    english, japanese = catalog("en"), catalog("ja")
    assert (english.form(1), english.form(2), japanese.form(1), japanese.form(5)) == (
        0, 1, 0, 0)
    assert say_n("en", "{n} player", 1) == "1 player"
    assert say_n("en", "{n} player", 7) == "7 players"
    assert say_n("ja", "{n} player", 7) == "プレイヤー7人"
    with pytest.raises(ImplementationError, match="not a plural entry"):
        say_n("ja", "{n} players", 2)


def test_the_wheel_holds_compiled_catalogs_that_load(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(root), "--no-deps",
                    "--no-build-isolation", "--quiet", "-w", str(tmp_path / "dist")],
                   check=True, capture_output=True, env={**os.environ, "TMPDIR": str(scratch)})
    assert not list(scratch.glob("deckcheck-mo-*"))  # the build cleans up after itself
    wheel = next((tmp_path / "dist").glob("deckcheck-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    for lang in LANGS:
        assert f"validator/locale/{lang}/LC_MESSAGES/deckcheck.mo" in names
    probe = ("from validator.text.i18n import catalog, mo_path, say, say_n\n"
             "assert all(mo_path(l).is_file() for l in ('en', 'ja', 'ko', 'th'))\n"
             "print(say('ja', 'card data: {cards}', cards='x'), say_n('en', '{n} player', 2),"
             " len(catalog('th').entries), len(catalog('en').plurals))\n")
    shown = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                           text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "site")})
    source = catalog("th")
    assert shown.stdout.split() == [say("ja", "card data: {cards}", cards="x"), "2",
                                    "players", str(len(source.entries)),
                                    str(len(catalog("en").plurals))]


def _babel_entries(lang: Lang) -> tuple[dict[tuple[str | None, str], str],
                                          dict[tuple[str | None, str], tuple[str, ...]], str]:
    """A catalog's entries as Babel reads its ``.po`` (the reference)."""
    with po_path(lang).open("rb") as handle:
        messages = read_po(handle, locale=lang)
    entries: dict[tuple[str | None, str], str] = {}
    plurals: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for message in messages:
        if not message.id:
            continue
        if isinstance(message.id, str):
            text = message.string if isinstance(message.string, str) else ""
            entries[(message.context, message.id)] = text or message.id
            continue
        ids = tuple(str(part) for part in message.id)
        written = tuple(str(part) for part in message.string or ())
        plurals[(message.context, ids[0])] = written if any(written) else ids
    return entries, plurals, messages.plural_forms


@pytest.mark.parametrize("lang", LANGS)
def test_a_po_file_is_read_as_babel_reads_it(lang: Lang) -> None:
    entries, plurals, forms = _from_po(lang)
    babel_entries, babel_plurals, babel_forms = _babel_entries(lang)
    assert len(entries) > 100
    assert plurals
    assert (entries, plurals) == (babel_entries, babel_plurals)
    assert forms.replace(" ", "").rstrip(";") == babel_forms.replace(" ", "").rstrip(";")


@pytest.mark.parametrize("lang", LANGS)
def test_a_po_file_parsed_once_is_read_from_the_cache_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    parsed = po_entries(po_path(lang).read_text(encoding="utf-8"))
    first = _from_po(lang)  # parsed, kept
    assert len(list((tmp_path / "cache").rglob(f"catalog-{lang}-*.json"))) == 1
    again = _from_po(lang)  # read from the cache
    assert first == again == parsed
    assert any(context is not None for context, _ in again[0])  # contexts kept as they are


def test_a_po_text_with_escapes_continued_strings_contexts_and_obsolete_entries() -> None:
    text = ('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
            '#, fuzzy\nmsgctxt "kind"\nmsgid "say \\"hi\\""\nmsgstr ""\n"line\\n"\n"two\\t"\n\n'
            'msgid "untranslated"\nmsgstr ""\n\n'
            '#~ msgid "gone"\n#~ msgstr "weg"\n\n'
            'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] ""\n')
    entries, plurals, forms = po_entries(text)
    assert entries == {("kind", 'say "hi"'): "line\ntwo\t", (None, "untranslated"): "untranslated"}
    assert plurals == {(None, "{n} card"): ("{n} card", "{n} cards")}
    assert forms == "nplurals=1; plural=0;"


@pytest.mark.parametrize("lang", LANGS)
def test_a_compiled_catalog_read_without_babel_gives_the_entries_of_its_po(
        tmp_path: Path, lang: Lang) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    try:
        from hatch_build import compile_catalog
    finally:
        sys.path.pop(0)
    compiled = tmp_path / "deckcheck.mo"
    compile_catalog(po_path(lang), compiled, lang)
    entries, plurals, forms = mo_entries(compiled.read_bytes())
    po_entries, po_plurals, po_forms = _from_po(lang)
    assert len(entries) > 100
    assert plurals
    assert (entries, plurals) == (po_entries, po_plurals)
    assert forms.replace(" ", "").rstrip(";") == po_forms.replace(" ", "").rstrip(";")


def test_a_problem_that_names_its_entry_is_written_in_each_language() -> None:
    msgid = "Upload #{batch} was not in effect; nothing changed."
    problem = Problem("card data", None, None, say("en", msgid, batch=3), code="DEMO_POOL",
                      msgid=msgid, values=(("batch", "3"),))
    assert problem_text(problem, "en") == problem.message
    assert problem_text(problem, "ja") == say("ja", msgid, batch=3)
    assert problem_line(problem, "en") == str(problem)
    assert problem_line(problem, "ko") == say("ko", "card data: {cards}",
                                              cards=say("ko", msgid, batch=3))
    plain = Problem("a.csv", 4, None, "an English message", code="NOT_TEXT")
    assert problem_line(plain, "th") == "a.csv:4: an English message"
    assert problem == Problem("card data", None, None, problem.message, code="DEMO_POOL")
