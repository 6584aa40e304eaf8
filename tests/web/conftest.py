"""The web tests' clients: a new empty event per test, or the sample event uploaded once per
module (uploading and checking it is the slow part)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import client_for, upload_sample


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A new event, nothing uploaded."""
    with client_for(tmp_path / "event.sqlite") as c:
        yield c


@pytest.fixture
def sample_alone(tmp_path: Path) -> Iterator[TestClient]:
    """The sample event uploaded for one test alone (one that changes it)."""
    with client_for(tmp_path / "event.sqlite") as c:
        upload_sample(c)
        yield c
