"""What the web app's tests share: an app on a test client, its forms' CSRF token, the
sample event uploaded, and the problems a refused request answers with."""

from __future__ import annotations

import html
import io
import re
import zipfile
from pathlib import Path
from typing import TypedDict, Unpack

from fastapi.testclient import TestClient
from httpx2 import Response

from validator.web.app import create_app
from validator.web.state import EventState

ROOT = Path(__file__).resolve().parent.parent.parent
WORKBOOK = ROOT / "sample_decklists" / "regional-tcg.xlsx"
DECKS = ROOT / "decks" / "tcg"
FORBIDDEN_PLAYER = "0400143843"  # Pot of Greed in the side deck (README table)
LEGAL_PLAYER = "0400001301"
LUCAS = "0400064653"  # Lucas Tanaka: illegal in the sample (Raigeki missing from his deck)
#: the test client calls itself "testserver"
HOSTS = frozenset({"testserver", "127.0.0.1", "localhost"})


class AppOptions(TypedDict, total=False):
    """The options of :func:`create_app` that the tests vary."""

    password: str | None
    judge_password: str | None
    data_dir: Path | None
    max_upload: int


def client_for(db: Path, **options: Unpack[AppOptions]) -> TestClient:
    """A test client of the app for the event in ``db``, with the demo cards."""
    return TestClient(create_app(db, cards_spec="demo", hosts=HOSTS, **options))


def event_of(client: TestClient) -> EventState:
    """The event behind a test client's app."""
    state: EventState = client.app.state.event  # type: ignore[attr-defined]
    return state


def csrf_token(client: TestClient, path: str = "/") -> str:
    """The CSRF token of the forms on the page at ``path``."""
    match = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert match
    return match.group(1)


def sample_decks_zip() -> bytes:
    """The sample event's submitted decks as one zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for deck in sorted(DECKS.glob("*.ydk")):
            archive.writestr(deck.name, deck.read_bytes())
    return buffer.getvalue()


def upload_sample(client: TestClient) -> None:
    """The sample regional's settings, its registration workbook and its decks."""
    token = csrf_token(client)
    event = client.post("/event", data={"csrf": token, "name": "Sample Regional",
                                        "date": "2026-12-05", "format": "advanced-tcg",
                                        "regulation": "th", "lang": "en"})
    assert event.status_code == 200
    lists = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                        files=[("files", (WORKBOOK.name, WORKBOOK.read_bytes()))])
    assert "1 registration file(s) received" in lists.text
    decks = client.post("/upload/decks", data={"csrf": token},
                        files=[("files", ("decks.zip", sample_decks_zip()))])
    assert decks.status_code == 200


def refusal(response: Response) -> list[tuple[str, str]]:
    """The (place, code) of each problem on the page a refused request answers with: the
    place as the problem names it (a file, a form field), which the page shows in words."""
    return [(html.unescape(place), code) for place, code in re.findall(
        r'<li data-place="([^"]*)"><span class="where">[^<]*</span>: <code>([A-Z][A-Z0-9_]+)'
        r'</code>', response.text)]


def corrected_deck() -> bytes:
    """Lucas's deck with the Raigeki his list registers and his deck lacks: legal."""
    from validator.cards.store import demo_cards

    cards = demo_cards().by_card
    raigeki = int(cards.filter(cards["name_en"] == "Raigeki")["passcode"][0])
    deck = (DECKS / f"{LUCAS}.ydk").read_bytes()
    return deck.replace(b"#main\n", f"#main\n{raigeki}\n".encode(), 1)
