"""In a browser: a judge's deck check recorded in the penalty log once, whichever way the
form is sent again: Back and Record, a double click, the same form in a duplicated tab.
Screenshots of the pages met on the way are left in ``out/``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.sample_event import player_id
from tests.web.server import Server
from tests.web.test_browser import OUT, _upload
from tests.web.test_browser import browser as browser  # the module's Chromium fixture
from validator.event.store import EventDB


@pytest.fixture(scope="module")
def server(browser: object, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The sample event uploaded once, for the module's three walks."""
    folder = tmp_path_factory.mktemp("log-browser")
    with Server(folder / "event.sqlite") as running:
        page = browser.new_page()  # type: ignore[attr-defined]
        _upload(page, running, folder)
        page.close()
        yield running


def _result_page(browser: object, server: Server, player: str) -> object:
    """A new tab (its own device: it gives its judge name) on the result of a deck check
    of ``player`` with one card missing from the deck."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # type: ignore[attr-defined]
    page.goto(f"{server.url}/judges/me")
    page.fill("input[name=name]", "Floor Judge Kim")
    with page.expect_navigation():
        page.click("button:text-is('Save')")
    page.goto(f"{server.url}/judge/{player}")
    assert page.locator("text=Judge: Floor Judge Kim").count() >= 1  # no name to type
    page.fill("input[name=round]", "3")
    page.fill("input[name=table]", "12")
    first = page.locator("table.count input[type=number]").first
    first.fill(str(int(first.input_value()) - 1))
    with page.expect_navigation():
        page.click("button:text-is('Check')")
    page.wait_for_selector("text=LIST_MISMATCH")
    return page


def _entries(server: Server, player: str) -> int:
    return len(EventDB(server.db).log(player))


def test_back_and_record_again_records_once(browser: object, server: Server) -> None:
    player = player_id(20)
    page = _result_page(browser, server, player)
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.click("button:text-is('Record in the penalty log')")  # type: ignore[attr-defined]
    page.wait_for_selector("#history")  # type: ignore[attr-defined]
    assert _entries(server, player) == 1
    page.go_back()  # type: ignore[attr-defined]
    page.wait_for_selector("text=Record in the penalty log")  # type: ignore[attr-defined]
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.click("button:text-is('Record in the penalty log')")  # type: ignore[attr-defined]
    page.wait_for_selector("#already")  # type: ignore[attr-defined]
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "log-already-390.png"), full_page=True)  # type: ignore[attr-defined]
    assert _entries(server, player) == 1
    [entry] = EventDB(server.db).log(player)
    assert (entry.round, entry.table, entry.judge) == (3, 12, "Floor Judge Kim")


def test_a_double_click_records_once(browser: object, server: Server) -> None:
    player = player_id(21)
    page = _result_page(browser, server, player)
    page.dblclick("button:text-is('Record in the penalty log')")  # type: ignore[attr-defined]
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    page.wait_for_selector("#history, #already")  # type: ignore[attr-defined]
    assert _entries(server, player) == 1


def test_the_same_form_in_a_duplicated_tab_records_once(browser: object,
                                                        server: Server) -> None:
    player = player_id(22)
    page = _result_page(browser, server, player)
    # a duplicated tab: the same page, form and one-time key, at an address of the server
    copy = page.context.new_page()  # type: ignore[attr-defined]
    html = page.content()  # type: ignore[attr-defined]
    copy.route(f"{server.url}/duplicated-tab",
               lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    copy.goto(f"{server.url}/duplicated-tab")
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.click("button:text-is('Record in the penalty log')")  # type: ignore[attr-defined]
    with copy.expect_navigation():
        copy.click("button:text-is('Record in the penalty log')")
    copy.wait_for_selector("#already")
    assert _entries(server, player) == 1
    page.set_viewport_size({"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.goto(f"{server.url}/log")  # type: ignore[attr-defined]
    page.screenshot(path=str(OUT / "log-1280.png"), full_page=True)  # type: ignore[attr-defined]
    page.set_viewport_size({"width": 390, "height": 844})  # type: ignore[attr-defined]
    page.screenshot(path=str(OUT / "log-390.png"), full_page=True)  # type: ignore[attr-defined]
    print(f"screenshots: {OUT}")


def test_card_names_are_completed_and_a_typo_goes_back_to_the_judge(
        browser: object, server: Server) -> None:
    player = player_id(23)
    page = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page.goto(f"{server.url}/judge/{player}")
    page.fill("input[name=judge]", "Floor Judge Kim")
    page.locator("input[name=add_name_0]").press_sequentially("ash blo")
    page.wait_for_selector("#card-names option[value='Ash Blossom & Joyous Spring']",
                           state="attached")
    page.fill("input[name=add_name_0]", "Ash Blosom")
    page.keyboard.press("Escape")
    with page.expect_navigation():
        page.click("button:text-is('Check')")
    error = page.locator("li[data-code=UNKNOWN_CARD_NAME]")
    assert error.count() == 1
    assert error.locator("[data-suggest='Ash Blossom & Joyous Spring']").count() == 1
    assert page.locator("#fix-0 option[value='Ash Blossom & Joyous Spring']").count() == 1
    page.screenshot(path=str(OUT / "judge-card-typo-390.png"), full_page=True)
    assert EventDB(server.db).decisions(player) == []
