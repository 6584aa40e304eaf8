"""In a browser at 390 px: a judge picks Japanese, Korean, then Thai in the header and reads
the event, player, deck check and penalty log pages in it. Screenshots of each page in each
language (whole, and its first screen) are written to a folder the test prints."""

from __future__ import annotations

from pathlib import Path

from tests.web.helpers import LUCAS
from tests.web.server import Server
from tests.web.test_browser import _upload
from tests.web.test_browser import browser as browser  # the module's Chromium fixture

PHONE = {"width": 390, "height": 844}
PAGES = {"event": "/", "player": f"/players/{LUCAS}", "judge": f"/judge/{LUCAS}",
         "log": "/log"}
#: a word of each page's header, in each language
PENALTY_LOG = {"ja": "ペナルティ記録", "ko": "페널티 기록", "th": "บันทึกบทลงโทษ"}


def test_a_judge_reads_the_pages_in_japanese_korean_and_thai(browser: object,
                                                            tmp_path: Path) -> None:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    print(f"screenshots of the pages in ja, ko and th: {folder}")
    with Server(tmp_path / "event.sqlite") as server:
        page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        for lang, word in PENALTY_LOG.items():
            page.goto(server.url + "/")
            picker = page.locator("form.page-lang")
            picker.locator("select").select_option(lang)
            picker.locator("button").click()
            page.wait_for_selector(f"html[lang={lang}]")
            for name, path in PAGES.items():
                page.goto(server.url + path)
                assert page.locator("html").get_attribute("lang") == lang
                assert page.locator("header nav a[href='/log']").inner_text() == word
                width = page.evaluate(
                    "document.documentElement.scrollWidth")
                assert width <= PHONE["width"], (lang, name, width)  # nothing overflows
                page.screenshot(path=str(folder / f"{name}-{lang}-390.png"),
                                full_page=True)
                page.screenshot(path=str(folder / f"{name}-{lang}-390-first-screen.png"))
    assert len(list(folder.glob("*.png"))) == 2 * len(PAGES) * len(PENALTY_LOG)
