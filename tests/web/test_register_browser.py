"""In a browser on a 390 px phone, in Japanese: a player types a 40/15/5 list with
autocomplete, fixes a typo from a suggestion, sees a Limited card at 2 flagged and fixes it,
submits and gets a receipt whose hash is the stored list's; resubmits; after the deadline
the page is locked; the judge page shows the locked list. Screenshots at 390 px and 1280 px
are written to a folder the test prints."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from tests.web.routes.test_register import CODE, DATE, legal_list
from tests.web.server import Server
from tests.web.test_browser import browser as browser  # the module's Chromium fixture
from validator.event import submissions as subs
from validator.event.store import EventDB, EventSettings

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PLAYER = "0401234567"
LIMITED = "墓穴の指名者"  # Called by the Grave: Limited on the demo list
TYPO_ROW = 2  # the row typed with a typo, fixed from a suggestion


def _shoot(page: object, folder: Path, name: str) -> None:
    for label, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)  # type: ignore[attr-defined]
        page.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)  # type: ignore[attr-defined]
    page.set_viewport_size(PHONE)  # type: ignore[attr-defined]


def test_a_player_on_a_phone_registers_a_japanese_list(browser: object, tmp_path: Path) -> None:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    print(f"screenshots: {folder}")
    db_path = tmp_path / "event.sqlite"
    prepared = EventDB(db_path)
    prepared.save_settings(EventSettings("Sample Regional", DATE, "advanced-tcg", "th", "ja"))
    subs.set_event_code(prepared, CODE)
    prepared.close()
    lists = legal_list("ja")
    english = legal_list("en")
    lists["main"][13] = (LIMITED, 2)  # the one single copy: a Limited card at 2
    with Server(db_path) as server:
        context = browser.new_context(viewport=PHONE, locale="ja-JP")  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{server.url}/r/{CODE}")
        assert page.locator("html").get_attribute("lang") == "ja"
        page.fill("input[name=player_id]", PLAYER)
        page.fill("input[name=player_name]", "佐藤 花子")
        # the first card from the autocomplete: a few characters, then the suggestion
        first, copies = lists["main"][0]
        page.locator("input[name=main_name_0]").press_sequentially(first[:4], delay=30)
        page.locator("ul.suggest button", has_text=first).first.click()
        assert page.input_value("input[name=main_name_0]") == first
        page.fill("input[name=main_qty_0]", str(copies))
        for section, rows in lists.items():
            for i, (name, qty) in enumerate(rows):
                if section == "main" and i == 0:
                    continue
                typed = name[:-1] + "ー" if section == "main" and i == TYPO_ROW else name
                page.fill(f"input[name={section}_name_{i}]", typed)
                page.fill(f"input[name={section}_qty_{i}]", str(qty))
        # the typo: no card has that name; a suggestion fixes it with one tap
        typo = page.locator(f".deck-row:has(input[name=main_name_{TYPO_ROW}]) .fixes button",
                            has_text=lists["main"][TYPO_ROW][0])
        typo.wait_for()
        _shoot(page, folder, "register-typing")
        typo.click()
        # the Limited card at 2 is flagged
        page.wait_for_selector("#live li[data-code=LIMIT_EXCEEDED]")
        assert page.locator("#live .counts [data-section=main] b").inner_text() == "41"
        assert LIMITED in page.locator("#live li[data-code=LIMIT_EXCEEDED]").inner_text()
        page.fill("input[name=main_qty_13]", "1")
        page.wait_for_selector("#live [data-status=legal]")
        assert [page.locator(f"#live .counts [data-section={s}] b").inner_text()
                for s in ("main", "extra", "side")] == ["40", "15", "5"]
        _shoot(page, folder, "register-legal")
        page.locator("input[name=main_name_13]").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / "register-screen-390.png"))  # as a phone shows it
        assert page.locator("#tally").is_visible()
        page.click("#submit-button")
        page.wait_for_selector("#hash")
        shown = page.inner_text("#hash")
        _shoot(page, folder, "receipt")
        store = EventDB(db_path)
        [stored] = subs.current(store)
        assert stored.sha256 == shown == hashlib.sha256(subs.canonical(stored.rows)).hexdigest()
        assert (stored.player_id, stored.lang, stored.source) == (PLAYER, "ja", "typed")
        assert sum(n for s, _, n in stored.rows if s == "main") == 40
        # resubmitted: one side card fewer, a new receipt; the first one is kept
        page.click(f"a[href='/r/{CODE}']")
        assert page.input_value("input[name=side_name_4]") == lists["side"][4][0]
        page.fill("input[name=side_name_4]", "")
        page.wait_for_selector("#live [data-section=side] b:text-is('4')")
        page.click("#submit-button")
        page.wait_for_selector("ul.history")
        assert page.inner_text("#hash") != shown
        assert [s.number for s in subs.history(store, PLAYER)][1] == stored.number
        # the deadline passes: the page is locked
        organizer = context.new_page()
        organizer.goto(f"{server.url}/registrations")
        organizer.fill("input[name=deadline]", "2026-01-01T09:00")
        organizer.click("form:has(input[name=deadline]) button")
        organizer.wait_for_selector("p.good[role=status]")
        _shoot(organizer, folder, "registrations")
        page.goto(f"{server.url}/r/{CODE}")
        page.wait_for_selector("[data-locked='1']")
        assert page.locator("#deck-form").count() == 0
        _shoot(page, folder, "register-locked")
        # the judge page shows the locked list
        judge = context.new_page()
        judge.goto(f"{server.url}/judge/{PLAYER}")
        text = judge.inner_text("main")
        assert "佐藤 花子" in text
        assert english["main"][0][0] in text
        assert english["extra"][0][0] in text
        _shoot(judge, folder, "judge")
        store.close()
    shots = sorted(p.name for p in folder.glob("*.png"))
    assert len(shots) == 13
    assert all(re.fullmatch(r"[a-z-]+-(390|1280)\.png", name) for name in shots)
