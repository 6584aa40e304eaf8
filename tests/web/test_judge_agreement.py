"""The judge's check and the player page give one answer; the judge's form is validated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bench.sample_event import player_id
from tests.web.helpers import LEGAL_PLAYER, client_for, csrf_token, upload_sample

THREE = player_id(48)  # quantity "three" beside Infinite Impermanence in A17


def _counts(client: TestClient, player: str) -> dict[str, str]:
    page = client.get(f"/judge/{player}").text
    return dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))


def _check(client: TestClient, player: str, **fields: str) -> tuple[int, str]:
    token = csrf_token(client, f"/judge/{player}")
    form = {"csrf": token, "judge": "Judge Ren", "round": "3", "duel": "1",
            "stage": "in-duel", **_counts(client, player), **fields}
    answer = client.post(f"/judge/{player}/check", data=form)
    return answer.status_code, answer.text


def _verdict(page: str) -> str:
    found = re.search(r'<p class="(\w+) verdict"[^>]*>', page)
    assert found
    return found.group(1)


def _main_size(page: str) -> int:
    """The main deck size a MAIN_TOO_SMALL on the page counted."""
    found = re.search(r"MAIN_TOO_SMALL</code></td><td[^>]*>Main deck has (\d+) cards", page)
    assert found
    return int(found.group(1))


def test_the_sample_event_has_the_unreadable_row() -> None:
    assert THREE == "0400381413"


def test_an_unreadable_row_holds_the_judges_check_as_the_player_page(
        sample: TestClient) -> None:
    player = sample.get(f"/players/{THREE}").text
    assert _verdict(player) == "needs_decision"
    status, page = _check(sample, THREE)
    assert status == 200
    assert _verdict(page) == "decide"  # needs the head judge's decision
    assert "Duel Forfeiture" not in page
    assert 'action="/judge/0400381413/record"' not in page  # nothing to record yet
    assert "MAIN_TOO_SMALL" in page  # shown, but waiting
    assert re.search(r"MAIN_TOO_SMALL</code></td><td[^>]*>[^<]*<em>\(waits", page)


def test_the_judge_page_names_the_card_of_the_unreadable_row(sample: TestClient) -> None:
    page = sample.get(f"/judge/{THREE}").text
    box = page[page.index('class="decide-box"'):page.index("</div>")]
    assert "A17" in box
    assert "“Infinite Impermanence”" in box
    assert "read as <strong>Infinite Impermanence</strong>" in box
    player = sample.get(f"/players/{THREE}").text
    assert "<option selected>Infinite Impermanence</option>" in player


def test_a_pasted_deck_is_checked_as_it_is(sample: TestClient) -> None:
    """A pasted deck is no count of the list: its own sizes are facts."""
    status, page = _check(sample, THREE, deck_text="#main\n14558127\n14558127\n14558127\n")
    assert status == 200
    assert "Checked: the pasted deck" in page
    assert _verdict(page) == "bad"
    assert "MAIN_TOO_SMALL" in page


@pytest.mark.parametrize("duel", ["two", "G2", "²", "", "0", "-1", "1.5"])
def test_a_duel_that_is_not_a_whole_number_from_one_is_an_error_on_the_form(
        sample: TestClient, duel: str) -> None:
    status, page = _check(sample, LEGAL_PLAYER, duel=duel)
    assert status == 400
    assert 'id="form-errors"' in page
    assert 'data-field="duel" data-code="BAD_OPTION"' in page
    assert '<input name="duel" aria-invalid="true"' in page
    assert 'action="/judge/0400001301/check"' in page  # the form again
    assert 'value="Judge Ren"' in page  # as it was sent
    assert "Duel Forfeiture" not in page
    assert "verdict" not in page


@pytest.mark.parametrize(("field", "value"), [("round", "three"), ("stage", "pre-event"),
                                              ("stage", "later")])
def test_round_and_stage_are_validated(sample: TestClient, field: str, value: str) -> None:
    status, page = _check(sample, LEGAL_PLAYER, **{field: value})
    assert status == 400
    assert f'data-field="{field}" data-code="BAD_OPTION"' in page


def test_a_duel_number_is_kept_on_the_form_and_in_the_result(sample: TestClient) -> None:
    status, page = _check(sample, LEGAL_PLAYER, duel="2", stage="between-duels")
    assert status == 200
    assert "Checked: the counts entered on the form, duel 2." in page
    assert _verdict(page) == "good"


def test_counts_changed_and_a_deck_pasted_asks_which_to_check(sample: TestClient) -> None:
    counts = _counts(sample, LEGAL_PLAYER)
    first = next(iter(counts))
    changed = {first: str(int(counts[first]) - 1)}
    pasted = "#main\n14558127\n"
    status, page = _check(sample, LEGAL_PLAYER, deck_text=pasted, **changed)
    assert status == 400
    assert 'data-field="use" data-code="BAD_OPTION"' in page
    assert 'name="use" value="counts"' in page
    assert 'name="use" value="pasted"' in page
    assert f'name="{first}" value="{changed[first]}"' in page  # the count as changed
    assert "#main\n14558127\n</textarea>" in page  # the paste as sent
    status, page = _check(sample, LEGAL_PLAYER, deck_text=pasted, use="counts", **changed)
    assert (status, _verdict(page)) == (200, "bad")
    assert "Checked: the counts entered on the form" in page
    assert "LIST_MISMATCH" in page
    assert _main_size(page) == 39  # the counts: one card fewer than the list's 40
    status, page = _check(sample, LEGAL_PLAYER, deck_text=pasted, use="pasted", **changed)
    assert (status, _verdict(page)) == (200, "bad")
    assert "Checked: the pasted deck (the counts on the form were not used)" in page
    assert _main_size(page) == 1  # the pasted deck alone


def test_counts_as_listed_and_a_deck_pasted_check_the_paste_and_say_so(
        sample: TestClient) -> None:
    status, page = _check(sample, LEGAL_PLAYER, deck_text="#main\n14558127\n")
    assert status == 200
    assert "Checked: the pasted deck" in page
    assert _main_size(page) == 1


def test_duel_one_of_a_new_match_compares_exactly(sample: TestClient) -> None:
    """One main deck card exchanged with one side deck card: allowed between duels of a
    match, a mismatch for duel 1 and between matches (the deck is restored for the next)."""
    counts = _counts(sample, LEGAL_PLAYER)
    page = sample.get(f"/judge/{LEGAL_PLAYER}").text
    names = {field: name for name, field in re.findall(
        r"<td>([^<]+)</td>\s*<td class=\"listed\">\d+</td>\s*<td><input "
        r"type=\"number\"[^>]*name=\"(n:[^\"]+)\"", page)}
    main = next(k for k in counts if k.startswith("n:main:"))
    side = next(k for k in counts if k.startswith("n:side:"))
    swap = {main: str(int(counts[main]) - 1), side: str(int(counts[side]) - 1),
            "add_name_0": names[side], "add_section_0": "main", "add_qty_0": "1",
            "add_name_1": names[main], "add_section_1": "side", "add_qty_1": "1"}
    status, page = _check(sample, LEGAL_PLAYER, duel="2", stage="between-duels", **swap)
    assert (status, _verdict(page)) == (200, "good")
    for duel, stage in (("2", "between-matches"), ("1", "between-duels"), ("1", "in-duel")):
        status, page = _check(sample, LEGAL_PLAYER, duel=duel, stage=stage, **swap)
        assert (status, _verdict(page)) == (200, "bad")
        assert page.count("<code>LIST_MISMATCH</code>") == 4


def test_once_the_row_is_settled_both_pages_say_legal(
        tmp_path: Path) -> None:
    with client_for(tmp_path / "event.sqlite") as own:
        upload_sample(own)
        token = csrf_token(own, f"/players/{THREE}")
        where = re.search(r'name="where" value="([^"]+)"', own.get(f"/players/{THREE}").text)
        assert where
        settled = own.post(f"/players/{THREE}/decide", data={
            "csrf": token, "where": where.group(1), "section": "main",
            "card": "Infinite Impermanence", "qty": "3", "decided_by": "Head judge Mai",
            "reason": "three = 3"})
        assert settled.status_code == 200
        assert _verdict(own.get(f"/players/{THREE}").text) == "legal"
        assert 'class="decide-box"' not in own.get(f"/judge/{THREE}").text
        status, page = _check(own, THREE)
        assert (status, _verdict(page)) == (200, "good")
