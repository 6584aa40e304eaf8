"""In a browser: the sample event uploaded, a corrected deck for one player, his earlier deck
restored from his page, and a reload after a rejected upload (a page, never JSON, nothing
uploaded twice). Screenshots of the event page and the player page at phone and desktop
widths are left in ``out/``."""

from __future__ import annotations

from pathlib import Path

from tests.web.helpers import LUCAS, corrected_deck
from tests.web.server import Server
from tests.web.test_browser import OUT, _upload
from tests.web.test_browser import browser as browser  # the module's Chromium fixture
from validator.event.store import EventDB


def _status_of(page: object, player_id: str) -> str:
    row = page.locator(f"table.results tr:has(a[href='/players/{player_id}'])")  # type: ignore[attr-defined]
    return str(row.locator("td[data-label=Status]").inner_text())


def _shots(page: object, name: str, part: str, width: str) -> None:
    """The page as a phone or a desktop shows it first, and one part of it whole."""
    page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
    page.screenshot(path=str(OUT / f"versions-{name}-{width}.png"))  # type: ignore[attr-defined]
    page.locator(part).screenshot(path=str(OUT / f"versions-{name}-{width}-part.png"))  # type: ignore[attr-defined]


def test_corrected_deck_restore_and_reload_after_a_rejected_upload(
        browser: object, tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        assert _status_of(page, LUCAS) == "Illegal"
        others = {s.id for s in EventDB(db).submissions()}
        deck = tmp_path / f"{LUCAS}.ydk"
        deck.write_bytes(corrected_deck())
        form = page.locator("form[action='/upload/decks']")
        form.locator("input[type=file]").set_input_files(str(deck))
        with page.expect_navigation():
            form.locator("button").click()
        page.wait_for_selector("text=1 deck file(s) received")
        assert _status_of(page, LUCAS) == "Legal"
        assert page.locator("table.results tr.illegal").count() == 8  # only his changed
        OUT.mkdir(exist_ok=True)
        assert page.locator("#uploads[open]").count() == 1  # opened after an upload
        _shots(page, "event", "#uploads", "1280")
        page.set_viewport_size({"width": 390, "height": 844})
        _shots(page, "event", "#uploads", "390")

        page.goto(f"{server.url}/players/{LUCAS}#versions")
        history = page.locator("#submissions table.versions").nth(1)  # the deck's versions
        assert history.locator("tr").count() == 3  # a header, the corrected deck, the zip's
        _shots(page, "player", "#submissions", "390")
        page.set_viewport_size({"width": 1280, "height": 900})
        _shots(page, "player", "#submissions", "1280")
        with page.expect_navigation():
            history.locator("button:text-is('Restore')").click()
        page.wait_for_selector("text=restored: it is checked again for this player")
        assert page.locator("p.verdict").inner_text() == "Illegal"

        page.goto(server.url + "/")
        page.locator("details.setup > summary").click()  # set up: the forms folded
        form = page.locator("form[action='/upload/decks']")
        wrong = tmp_path / "tool.exe"
        wrong.write_bytes(b"MZ")
        form.locator("input[type=file]").set_input_files(str(wrong))
        with page.expect_navigation():
            form.locator("button").click()
        page.wait_for_selector("text=Upload failed")
        count = len(EventDB(db).submissions())
        page.reload()
        page.wait_for_selector("text=Upload failed")
        assert "WRONG_FILE_TYPE" in page.locator("#received").inner_text()
        assert '"detail"' not in page.content()
        assert len(EventDB(db).submissions()) == count  # the reload uploaded nothing
        assert len(others) + 2 == count  # the corrected deck and the refusal, once each

        page.goto(server.url + "/upload/decks")  # a form's address, opened
        assert page.locator("h1").inner_text().startswith("This address takes a form")
        page.reload()
        assert '"detail"' not in page.content()
