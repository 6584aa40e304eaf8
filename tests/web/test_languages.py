"""Each judge reads the pages in their own language: the pages moved into the catalogs show
none of their English words in Japanese, Korean or Thai, while the records stay in the
event's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import LEGAL_PLAYER, LUCAS, client_for, csrf_token, upload_sample
from validator.text.i18n import LOCAL_LANGS, PLACEHOLDER, catalog
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
