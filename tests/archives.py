"""Zips built in memory, for the tests of every reader that takes one."""

from __future__ import annotations

import io
import zipfile


def zip_bytes(members: dict[str, bytes]) -> bytes:
    """A zip holding ``members`` (name → content), deflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()
