"""In a browser, on the floor: round 3's pairings imported, a judge finds table 12 on a
phone, checks the deck and records a Duel Forfeiture (round 3, table 12), a deck-check draw;
the event page updating itself when a re-check finishes; a 60-card list's player page no
taller than three phone screens. Screenshots of every page at 390 px and 1280 px are
written to a folder the test prints."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.web.helpers import LEGAL_PLAYER, LUCAS, ROOT, corrected_deck
from tests.web.server import Server
from tests.web.test_browser import _upload
from tests.web.test_browser import browser as browser  # the module's Chromium fixture
from validator.event import rounds
from validator.event.store import EventDB

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIXTY = "0400999999"  # a player whose list has 60 main deck cards
TABLE = 12


def _pairings(path: Path) -> Path:
    """Round 3 as a KTS-style export: the legal player at table 12."""
    players = json.loads((ROOT / "sample_decklists" / "expected" / "regional-tcg.json")
                         .read_text())["players"]
    ids = [p["player_id"] for p in players if p["player_id"] != LEGAL_PLAYER]
    ids.insert(2 * (TABLE - 1), LEGAL_PLAYER)
    rows = ["Round,Table,Player 1 ID,Player 2 ID"]
    rows += [f"3,{i // 2 + 1},{ids[i]},{ids[i + 1]}" for i in range(0, len(ids) - 1, 2)]
    path.write_text("\n".join(rows) + "\n")
    return path


def _sixty_card_list(path: Path) -> Path:
    """A legal registration of 60 main deck cards (30 cards twice), 15 extra, 15 side."""
    listed = {line.split()[0] for line in (ROOT / "banlists" / "lists" / "demo-tcg.lflist.conf")
              .read_text(encoding="utf-8").splitlines() if line[:1].isdigit()}
    with (ROOT / "validator" / "data" / "demo_cards.csv").open(encoding="utf-8") as file:
        cards = [row for row in csv.DictReader(file) if "tcg" in row["pools"]
                 and row["rush"] == "no" and row["legend"] == "no" and not row["alias"]
                 and row["passcode"] not in listed]
    names = [c["name"] for c in cards]
    once = [c for c in cards if names.count(c["name"]) == 1]  # one card of its name
    main = [c["name"] for c in once if c["extra"] == "no"]
    extra = [c["name"] for c in once if c["extra"] == "yes"]
    rows = ["Player ID,Player Name,Section,Qty,Card Name"]
    rows += [f'{SIXTY},Sixty Cards,Main,2,"{name}"' for name in main[:30]]
    rows += [f'{SIXTY},Sixty Cards,Extra,1,"{name}"' for name in extra[:15]]
    rows += [f'{SIXTY},Sixty Cards,Side,3,"{name}"' for name in main[30:35]]
    path.write_text("\n".join(rows) + "\n")
    return path


def _shoot(page: object, folder: Path, name: str) -> None:
    """The page at phone and desktop widths, whole."""
    for label, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)  # type: ignore[attr-defined]
        page.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)  # type: ignore[attr-defined]
    page.set_viewport_size(PHONE)  # type: ignore[attr-defined]


def test_a_judge_on_a_phone_finds_table_12_and_records_round_and_table(
        browser: object, tmp_path: Path) -> None:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    print(f"screenshots of every page: {folder}")
    db = tmp_path / "event.sqlite"
    with Server(db) as server:
        page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
        page.goto(server.url + "/")
        for size in (PHONE, DESKTOP):  # a new event: its setup open on every width
            page.set_viewport_size(size)
            page.reload()
            assert page.locator("details.setup[open]").count() == 1
            assert page.locator("input[name=name]").is_visible()
        _shoot(page, folder, "event-new")
        _upload(page, server, tmp_path)
        lists = page.locator("form[action='/upload/registrations']")
        lists.locator("input[type=file]").set_input_files(
            str(_sixty_card_list(tmp_path / "sixty.csv")))
        lists.locator("button").click()
        page.wait_for_selector("text=1 registration file(s) received")

        for size in (DESKTOP, PHONE):  # set up: the setup folded on every width
            page.set_viewport_size(size)
            page.goto(server.url + "/")
            assert page.locator("details.setup[open]").count() == 0
            assert not page.locator("input[name=name]").is_visible()
        top = page.locator("#results h2").bounding_box()
        assert top is not None
        assert top["y"] < PHONE["height"]  # the results, without scrolling past the forms
        _shoot(page, folder, "event")

        page.goto(server.url + "/rounds")
        form = page.locator("form[action='/rounds/import']")
        form.locator("input[type=file]").set_input_files(str(_pairings(tmp_path / "r3.csv")))
        form.locator("button").click()
        page.wait_for_selector("text=64 player(s) seated.")
        _shoot(page, folder, "round")
        page.goto(server.url + "/rounds")
        assert page.locator(".current-round").inner_text() == "3"
        _shoot(page, folder, "rounds")

        page.goto(server.url + "/judge")
        page.fill("input[name=q]", str(TABLE))
        page.click("button:text-is('Find')")
        seated = page.locator("ul.at-table a")
        assert seated.count() == 2
        _shoot(page, folder, "judge-search")
        page.click(f"ul.at-table a[href='/judge/{LEGAL_PLAYER}']")
        assert page.locator("p.seat").inner_text() == f"Round 3 · table {TABLE}"
        assert page.input_value("input[name=round]") == "3"
        page.fill("input[name=judge]", "Mai")
        first = page.locator("table.count input[type=number]").first
        first.fill(str(int(first.input_value()) - 1))
        _shoot(page, folder, "judge")
        page.click("button:text-is('Check')")
        page.wait_for_selector("text=LIST_MISMATCH")
        assert page.locator("select[name=penalty] option[selected]").get_attribute(
            "value") == "DUEL_FORFEITURE"
        _shoot(page, folder, "judge-result")
        page.click("button:text-is('Record in the penalty log')")
        page.wait_for_selector("#history")
        [entry] = EventDB(db).log(LEGAL_PLAYER)
        assert (entry.penalty, entry.round, entry.table) == ("DUEL_FORFEITURE", 3, TABLE)
        [check] = rounds.deck_checks(EventDB(db), 3)
        assert (check.table, check.judge, check.log_entry) == (TABLE, "Mai", entry.id)
        _shoot(page, folder, "player")

        page.goto(server.url + "/rounds/3")
        draw = page.locator("form[action='/rounds/3/draw']")
        draw.locator("input[name=seed]").fill("2026")
        draw.locator("button").click()
        page.wait_for_selector("[data-seed='2026']")
        _shoot(page, folder, "round-draw")
        page.goto(server.url + "/rounds/3/sheet")
        assert page.locator("table.sheet tr").count() >= 6  # a header, 5 tables (and 12's)
        _shoot(page, folder, "sheet")
        page.goto(server.url + "/log")
        _shoot(page, folder, "log")

        page.goto(f"{server.url}/players/{SIXTY}")
        assert page.locator("table.diff tr:not(.group)").count() == 1 + 30 + 15 + 5
        height = page.evaluate("document.documentElement.scrollHeight")
        _shoot(page, folder, "player-sixty")
        assert height <= 3 * PHONE["height"], f"the 60-card list's page is {height}px tall"
        for name in ("event", "judge", "judge-result", "player", "player-sixty", "round"):
            assert (folder / f"{name}-390.png").stat().st_size > 0


def test_the_event_page_updates_itself_when_a_recheck_finishes(browser: object,
                                                               tmp_path: Path) -> None:
    with Server(tmp_path / "event.sqlite") as server:
        page = browser.new_page(viewport=DESKTOP)  # type: ignore[attr-defined]
        _upload(page, server, tmp_path)
        page.goto(server.url + "/")
        row = f"table.results tr:has(a[href='/players/{LUCAS}'])"
        assert page.locator(f"{row} td[data-label=Status]").inner_text() == "Illegal"
        illegal = page.locator(".summary .bad").inner_text()
        page.evaluate("window.stayed = true")  # gone if the page were loaded again
        first = page.evaluate("document.querySelector('main').firstElementChild.id")
        assert first == "checking"  # the notice is the top of the page

        other = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
        deck = tmp_path / f"{LUCAS}.ydk"
        deck.write_bytes(corrected_deck())
        other.goto(server.url + "/")
        form = other.locator("form[action='/upload/decks']")
        other.locator("details.setup > summary").click()
        form.locator("input[type=file]").set_input_files(str(deck))
        form.locator("button").click()
        other.wait_for_selector("text=1 deck file(s) received")

        page.wait_for_selector(f"{row} td[data-label=Status]:text-is('Legal')",
                               timeout=20_000)
        assert page.evaluate("window.stayed") is True
        assert page.locator(".summary .bad").inner_text() != illegal
        assert page.locator("#checking").is_hidden()
