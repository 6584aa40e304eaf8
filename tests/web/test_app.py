"""The web app through its HTTP interface (no browser): organizer flow, judge flow,
penalty log, and every security item."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.web.helpers import client_for, csrf_token


def test_forged_form_without_csrf_is_refused(client: TestClient) -> None:
    refused = client.post("/event", data={"name": "x", "date": "2026-01-01",
                                          "format": "advanced-tcg", "regulation": "th",
                                          "lang": "en"})
    assert refused.status_code == 403
    assert "security token" in refused.text
    wrong = client.post("/event", data={"csrf": "forged", "name": "x"})
    assert wrong.status_code == 403


def test_oversized_upload_is_refused_with_a_message(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", max_upload=1 << 20) as client:
        token = csrf_token(client)
        big = client.post("/upload/registrations", data={"csrf": token},
                          files=[("files", ("big.csv", b"a," * (1 << 20)))])
        assert big.status_code == 413
        assert "larger than 1 MiB" in big.text
