"""Each judge reads the pages in their own language: the pages moved into the catalogs show
none of their English words in Japanese, Korean or Thai, while the records stay in the
event's language."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import (
    LEGAL_PLAYER,
    LUCAS,
    WORKBOOK,
    client_for,
    csrf_token,
    event_of,
    upload_sample,
)
from validator.text.i18n import LOCAL_LANGS, PLACEHOLDER, catalog, say, term
from validator.vocab import Lang

#: the pages judges use most, moved into the catalogs
PAGES = ("/", f"/players/{LUCAS}", f"/judge/{LUCAS}", "/judge?q=Lucas", "/log")


class _Texts(HTMLParser):
    """What a page shows a reader: its text nodes and its labelling attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.texts += [value.strip() for name, value in attrs
                       if name in ("placeholder", "aria-label", "data-label", "title") and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(" ".join(data.split()))


def _texts(html: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    return parser.texts


def _pattern(*forms: str) -> re.Pattern[str]:
    """A pattern a whole text of a page matches when it is one of these English texts."""
    return re.compile("|".join(PLACEHOLDER.sub(".+", re.escape(form).replace(r"\{", "{")
                                               .replace(r"\}", "}")) for form in forms))


def _web_msgids() -> dict[str, re.Pattern[str]]:
    """The English text of every web entry (a label, or a sentence the pages write) as a
    pattern a whole text of a page matches; a plural entry by its singular."""
    english = catalog("en")
    found = {msgid: _pattern(msgid) for (context, msgid) in english.entries
             if context == "web" or (context is None and msgid in _SENTENCES)}
    found |= {msgid: _pattern(*forms) for (context, msgid), forms in english.plurals.items()
              if context == "web" or (context is None and msgid in _SENTENCES)}
    return found


#: the sentences of the moved pages (labels are the ``web`` context)
_SENTENCES = ("Judge: {name}", "Judge: {name} (head judge)", "{n} player", "{n} legal",
              "{n} illegal", "{n} need a decision", "{n} not checked", "{n} problems",
              "Round {round} · table {table}", "Round {round} · no table this round",
              "Deck check: {player}", "Event check: {status}", "Times in {zone}.",
              "Recorded ({zone})", "No entries yet.",
              "Submissions ({lists} list, {decks} deck version(s))",
              "Checked: the counts entered on the form, duel {duel}.",
              "The deck matches the registered list and is legal.",
              "Or, instead of counting, paste the deck being played (YDK, a ydke link, an "
              "Omega code, a mycard code, a YGOMobile link or a text list)",
              "Count the deck against the registered list; change a number where the deck "
              "differs.",
              "Duel 2 or later of a match: side deck exchanges (one for one) are allowed when "
              "the deck is compared with the list.")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_for(tmp_path_factory.mktemp("lang") / "event.sqlite") as client:
        upload_sample(client)
        client.post("/judges/me", data={"csrf": csrf_token(client), "name": "Aiko"})
        yield client


def _found(texts: list[str], patterns: dict[str, re.Pattern[str]]) -> set[str]:
    return {msgid for msgid, pattern in patterns.items()
            if any(pattern.fullmatch(text) for text in texts)}


@pytest.mark.parametrize("lang", LOCAL_LANGS)
def test_the_moved_pages_show_none_of_their_english_words(sample: TestClient,
                                                          lang: Lang) -> None:
    patterns = _web_msgids()
    shown: set[str] = set()
    for path in PAGES:
        english = sample.get(path, headers={"accept-language": "en"})
        local = sample.get(path, headers={"accept-language": lang})
        assert english.status_code == local.status_code == 200, path
        assert f'<html lang="{lang}">' in local.text
        moved = _found(_texts(english.text), patterns)
        assert moved, path  # the English page shows words of the catalogs
        assert _found(_texts(local.text), {m: patterns[m] for m in moved}) == set(), path
        shown |= moved
    assert {"Penalty log", "Deck check", "Judge: {name}", "{n} player"} <= shown


@pytest.mark.parametrize("lang", LOCAL_LANGS)
@pytest.mark.parametrize("short", [False, True])
def test_a_deck_check_result_shows_none_of_its_english_words(
        sample: TestClient, lang: Lang, short: bool) -> None:
    patterns = _web_msgids()
    counted = dict(re.findall(r'name="(n:[a-z]+:[0-9]+)" value="([0-9]+)"',
                              sample.get(f"/judge/{LEGAL_PLAYER}").text))
    assert counted
    if short:  # one card of the list missing from the deck: illegal, a penalty to record
        counted[next(field for field in counted if field.startswith("n:main:"))] = "0"
    form = {"csrf": csrf_token(sample, f"/judge/{LEGAL_PLAYER}"), "duel": "1", **counted}
    english = sample.post(f"/judge/{LEGAL_PLAYER}/check", data=form,
                          headers={"accept-language": "en"})
    local = sample.post(f"/judge/{LEGAL_PLAYER}/check", data=form,
                        headers={"accept-language": lang})
    assert english.status_code == local.status_code == 200
    moved = _found(_texts(english.text), patterns)
    assert "Checked: the counts entered on the form, duel {duel}." in moved
    assert ("Record in the penalty log" if short else "Record the deck check (legal)") in moved
    assert _found(_texts(local.text), {m: patterns[m] for m in moved}) == set()


def test_the_header_speaks_the_language(sample: TestClient) -> None:
    page = sample.get("/", headers={"accept-language": "ja"}).text
    assert '<a href="/log">ペナルティ記録</a>' in page
    assert "ジャッジ：Aiko" in page


def _english_words() -> dict[str, re.Pattern[str]]:
    """Every entry of the catalogs whose English has words outside its placeholders, as a
    pattern a whole text of a page matches (a plural entry by its singular)."""
    english = catalog("en")
    texts: dict[str, tuple[str, ...]] = {msgid: (msgid,) for (_, msgid) in english.entries}
    texts |= {msgid: forms for (_, msgid), forms in english.plurals.items()}
    return {msgid: _pattern(*forms) for msgid, forms in texts.items()
            if re.search(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", msgid))}


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, list[str]]]:
    """An event held in Japanese (so what is recorded is Japanese too) with something on
    every page: uploads, a pending "replace all", a round with pairings and a draw, a
    penalty log entry; and the address of each page."""
    with client_for(tmp_path_factory.mktemp("walk") / "event.sqlite") as client:
        upload_sample(client)
        token = csrf_token(client)
        client.post("/event", data={"csrf": token, "name": "Sample Regional",
                                    "date": "2026-12-05", "format": "advanced-tcg",
                                    "regulation": "th", "lang": "ja",
                                    "timezone": "Asia/Tokyo"})
        client.post("/judges/me", data={"csrf": token, "name": "Aiko"})
        client.post("/rounds/import", data={"csrf": token, "round": "1",
                                            "pasted": f"1, {LUCAS}, {LEGAL_PLAYER}"})
        client.post("/rounds/1/draw", data={"csrf": token, "size": "1", "seed": "7"})
        client.post("/log", data={"csrf": csrf_token(client, "/log"), "player_id": LUCAS,
                                  "code": "LATE_5", "round": "1"})
        entry = event_of(client).db.log(LUCAS)[0].id
        pending = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                              files=[("files", (WORKBOOK.name, WORKBOOK.read_bytes()))],
                              follow_redirects=False)
        confirm = pending.headers["location"]
        version = re.search(rf'href="(/players/{LUCAS}/versions/[^"]+)"',
                            client.get(f"/players/{LUCAS}").text)
        assert confirm.startswith("/uploads/")
        assert version is not None
        yield client, ["/", "/judge", f"/judge/{LUCAS}", "/judge?q=Lucas", "/judges/me",
                       f"/players/{LUCAS}", f"/players/{LUCAS}/log", version.group(1),
                       "/log", f"/log/{entry}", "/rounds", "/rounds/1", "/rounds/1/sheet",
                       confirm, "/no/such/page"]


def _shown_english(lang: Lang, send: Callable[..., Any],
                   words: dict[str, re.Pattern[str]]) -> tuple[set[str], set[str]]:
    """The catalog entries a page (``send(headers=...)``) shows in English, and those it
    still shows in ``lang``."""
    english = send(headers={"accept-language": "en"})
    local = send(headers={"accept-language": lang})
    assert english.status_code == local.status_code
    assert f'<html lang="{lang}">' in local.text
    moved = _found(_texts(english.text), words)
    return moved, _found(_texts(local.text), {m: words[m] for m in moved})


@pytest.mark.parametrize("lang", LOCAL_LANGS)
def test_every_page_shows_no_english_sentence_of_the_catalogs(
        walked: tuple[TestClient, list[str]], lang: Lang) -> None:
    client, paths = walked
    words = _english_words()
    shown: set[str] = set()
    for path in paths:
        moved, left = _shown_english(lang, partial(client.get, path), words)
        assert moved, path  # the English page shows sentences of the catalogs
        assert left == set(), path
        shown |= moved
    token = csrf_token(client)
    posts = {  # pages a form answers with: refused, asked again, an error
        "/log": {"csrf": csrf_token(client, "/log"), "player_id": LUCAS, "code": "LATE_5",
                 "round": "1"},
        "/event": {"csrf": "not the token"},
        "/rounds/current": {"csrf": token, "round": "many"},
    }
    for path, data in posts.items():
        moved, left = _shown_english(lang, partial(client.post, path, data=data), words)
        assert moved, path
        assert left == set(), path
        shown |= moved
    assert {"Replace all earlier lists?", "Deck-check draw", "Penalty log entry #{id}",
            "Page not found", "This looks recorded already", "Form refused",
            "Cannot use this input", "{n} player"} <= shown


def test_the_sign_in_page_speaks_the_language(tmp_path: Path) -> None:
    words = _english_words()
    with client_for(tmp_path / "event.sqlite", password="secret") as client:
        for lang in LOCAL_LANGS:
            wrong = {"csrf": csrf_token(client, "/login"), "password": "wrong"}
            for send in (partial(client.get, "/login"),
                         partial(client.post, "/login", data=wrong)):
                moved, left = _shown_english(lang, send, words)
                assert {"Sign in", "Password or code"} <= moved
                assert left == set()


def test_the_record_is_in_the_events_language_the_page_in_the_judges(
        tmp_path: Path) -> None:
    with client_for(tmp_path / "event.sqlite") as client:
        upload_sample(client)
        token = csrf_token(client)
        client.post("/event", data={"csrf": token, "name": "Sample Regional",
                                    "date": "2026-12-05", "format": "advanced-tcg",
                                    "regulation": "th", "lang": "ko"})
        client.post("/log", data={"csrf": csrf_token(client, "/log"), "player_id": LUCAS,
                                  "judge": "Aiko", "code": "LATE_5", "round": "1"})
        [entry] = event_of(client).db.log(LUCAS)
        penalty = event_of(client).policy().penalty_name(entry.penalty, "ko")
        assert penalty != entry.penalty
        japanese = {"accept-language": "ja"}
        log = _texts(client.get("/log", headers=japanese).text)
        # the page's words: the judge's Japanese; the record: the event's Korean
        assert {term("ja", "web", "Penalty"), term("ja", "web", "Record an infraction")} \
            <= set(log)
        assert {penalty, say("ko", "in effect")} <= set(log)
        assert term("ja", "web", "Penalty") != term("ko", "web", "Penalty")
        shown = _texts(client.get(f"/log/{entry.id}", headers=japanese).text)
        assert term("ja", "web", "Correct this entry") in shown
        assert any(text.startswith(penalty) for text in shown)
        player = client.get(f"/players/{LUCAS}", headers=japanese).text
        result = event_of(client).snapshot().result
        assert result is not None
        report = event_of(client).report(result)
        korean = report.violations.filter(pl.col("player_id") == LUCAS)["localized_message"]
        assert korean.len() > 0
        assert all(html.escape(str(text), quote=False) in player for text in korean)
        assert term("ja", "web", "What, and where to fix it") in _texts(player)


class _Literal(HTMLParser):
    """The English a template writes outside the catalog calls: its text and its labelling
    attributes once every ``{{ … }}`` and ``{% … %}`` is taken out (code samples aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._code = 0

    def _english(self, text: str) -> None:
        found = [w for w in re.findall(r"[A-Za-z][A-Za-z']{2,}", text) if w not in _NAMES]
        if found:
            self.words.append(" ".join(text.split()))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._code += tag in ("code", "script", "style")
        for name, value in attrs:
            if name in ("placeholder", "aria-label", "title", "data-label") and value:
                self._english(value)

    def handle_endtag(self, tag: str) -> None:
        self._code -= tag in ("code", "script", "style")

    def handle_data(self, data: str) -> None:
        if not self._code:
            self._english(data)


#: names written as they are in every language
_NAMES = {"deckcheck", "JSON", "XLSX", "CSV", "UTC", "SHA"}
TEMPLATES = Path(__file__).resolve().parents[2] / "validator" / "web" / "templates"


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_a_template_writes_no_english_outside_the_catalogs(template: str) -> None:
    source = (TEMPLATES / template).read_text()
    literal = _Literal()
    literal.feed(re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S))
    assert literal.words == []
    assert "{{" in source  # the template was read
