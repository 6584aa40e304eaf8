"""Browser tests: Playwright driving Debian's headless Chromium against a real server.

Screenshots of the results page and the judge pages are left in ``out/`` for reviewers.
"""

from __future__ import annotations

import io
import os
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.server import Server

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "out"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FORBIDDEN_PLAYER = "0400143843"
LEGAL_PLAYER = "0400001301"

playwright = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing on CI: .ci/run installs it")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        yield launched
        launched.close()


def _decks_zip(path: Path) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for deck in sorted((ROOT / "decks" / "tcg").glob("*.ydk")):
            archive.writestr(deck.name, deck.read_bytes())
    path.write_bytes(buffer.getvalue())
    return path


def _upload(page: object, server: Server, tmp_path: Path) -> None:
    page.goto(server.url + "/")  # type: ignore[attr-defined]
    page.fill("input[name=name]", "Sample Regional")  # type: ignore[attr-defined]
    page.click("text=Create event")  # type: ignore[attr-defined]
    page.wait_for_selector("text=Event saved.")  # type: ignore[attr-defined]
    lists = page.locator("form[action='/upload/registrations']")  # type: ignore[attr-defined]
    lists.locator("input[type=file]").set_input_files(
        str(ROOT / "sample_decklists" / "regional-tcg.xlsx"))
    lists.locator("button").click()
    page.wait_for_selector("text=registration file(s) received")  # type: ignore[attr-defined]
    decks = page.locator("form[action='/upload/decks']")  # type: ignore[attr-defined]
    decks.locator("input[type=file]").set_input_files(str(_decks_zip(tmp_path / "decks.zip")))
    decks.locator("button").click()
    page.wait_for_selector("text=deck file(s) received")  # type: ignore[attr-defined]


def test_upload_see_illegal_players_and_download_report(browser: object,
                                                        tmp_path: Path) -> None:
    with Server(tmp_path / "event.sqlite") as server:
        page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        page.select_option("select[name=status]", "illegal")
        page.click("button:text-is('Filter')")
        page.wait_for_selector(f"text={FORBIDDEN_PLAYER}")
        rows = page.locator("table.results tr.illegal")
        assert rows.count() == 9  # 2 more wait for the head judge (tr.needs_decision)
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "results.png"), full_page=True)
        with page.expect_download() as download:
            page.click("text=Download report (XLSX)")
        saved = tmp_path / "report.xlsx"
        download.value.save_as(saved)
        from openpyxl import load_workbook

        assert "Players" in load_workbook(saved).sheetnames


def test_judge_deck_check_records_and_survives_restart(browser: object,
                                                       tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with Server(db) as server:
        page = browser.new_page(viewport={"width": 430, "height": 900})  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        page.click("text=Judge")
        page.fill("input[name=q]", "Akira")
        page.click("button:text-is('Find')")
        page.click(f"a[href='/judge/{LEGAL_PLAYER}']")
        page.fill("input[name=judge]", "Head Judge")
        page.fill("input[name=round]", "3")
        page.fill("input[name=duel]", "1")
        first = page.locator("table.count input[type=number]").first
        first.fill(str(int(first.input_value()) - 1))  # a card is missing from the deck
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "judge.png"), full_page=True)
        page.click("button:text-is('Check')")
        page.wait_for_selector("text=LIST_MISMATCH")
        assert page.locator("text=Duel Forfeiture").count() >= 1
        page.screenshot(path=str(OUT / "judge-result.png"), full_page=True)
        page.click("button:text-is('Record in the penalty log')")
        page.wait_for_selector("#history")
        # the record names the penalty in the event's language, its code kept beside it
        assert page.locator('table.history td[data-penalty="DUEL_FORFEITURE"]', has_text=(
            "Duel Forfeiture")).count() == 1
    with Server(db) as restarted:
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(f"{restarted.url}/players/{LEGAL_PLAYER}")
        assert page.locator("table.history td", has_text="Head Judge").count() == 1


def _no_sideways_scroll(page: object) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    inner = page.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert width <= inner, f"the page is {width}px wide on a {inner}px screen"


def test_phone_width_pages_do_not_scroll_sideways(browser: object, tmp_path: Path) -> None:
    with Server(tmp_path / "event.sqlite") as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        OUT.mkdir(exist_ok=True)
        for name, path in (("results", "/"), ("judge", f"/judge/{LEGAL_PLAYER}"),
                           ("log", "/log"), ("player", f"/players/{FORBIDDEN_PLAYER}")):
            page.goto(server.url + path)
            _no_sideways_scroll(page)
            page.screenshot(path=str(OUT / f"phone-{name}.png"), full_page=True)
        # the player's violations fit the screen: each address on a line of its own
        widths = page.evaluate(
            "[...document.querySelectorAll('.scroll')].filter(e => e.querySelector("
            "'td.free small.where')).map(e => [e.scrollWidth, e.clientWidth])")
        assert widths
        assert all(scrolled <= shown for scrolled, shown in widths), widths


def test_judge_counts_a_side_deck_swap_in_duel_two(browser: object, tmp_path: Path) -> None:
    with Server(tmp_path / "event.sqlite") as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        page.goto(f"{server.url}/judge/{LEGAL_PLAYER}")
        page.fill("input[name=judge]", "Floor Judge")
        page.fill("input[name=duel]", "2")
        page.select_option("select[name=stage]", "between-duels")
        main = page.locator("input[data-section=main]").first
        side = page.locator("input[data-section=side]").first
        main_name = main.get_attribute("aria-label").removeprefix("found ")
        side_name = side.get_attribute("aria-label").removeprefix("found ")
        totals = page.locator(".totals")
        before = totals.inner_text()
        main.fill(str(int(main.input_value()) - 1))
        side.fill(str(int(side.input_value()) - 1))
        assert totals.inner_text() != before  # the running totals follow the counts
        page.fill("input[name=add_name_0]", side_name)
        page.select_option("select[name=add_section_0]", "main")
        page.fill("input[name=add_name_1]", main_name)
        page.select_option("select[name=add_section_1]", "side")
        assert "main 40" in totals.inner_text()
        rows = page.locator(".extra-row").count()
        page.click("button:text-is('More rows')")
        assert page.locator(".extra-row").count() == rows + 1
        page.screenshot(path=str(OUT / "judge-siding.png"), full_page=True)
        page.click("button:text-is('Check')")
        page.wait_for_selector("text=The deck matches the registered list and is legal.")
        page.goto(f"{server.url}/judge/{LEGAL_PLAYER}")
        page.fill("input[name=judge]", "Floor Judge")
        page.fill("input[name=duel]", "2")
        page.fill("input[name=add_name_0]", "Raigeki")
        page.select_option("select[name=add_section_0]", "side")
        first_side = page.locator("input[data-section=side]").first
        first_side.fill(str(int(first_side.input_value()) - 1))
        page.click("button:text-is('Check')")
        page.wait_for_selector("text=not on the registered list")
        assert page.locator("text=Duel Forfeiture").count() >= 1
