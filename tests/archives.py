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


def pdf_bomb(unpacked: int = 65 << 20, streams: int = 1) -> bytes:
    """A small PDF whose deflated streams unpack to ``unpacked`` bytes each."""
    import zlib

    packed = zlib.compress(b"\0" * unpacked, 9)
    objects = b"".join(b"%d 0 obj<</Length %d/Filter/FlateDecode>>stream\n" % (n + 1, len(packed))
                       + packed + b"\nendstream\nendobj\n" for n in range(streams))
    return b"%PDF-1.7\n" + objects + b"trailer<</Root 1 0 R>>\n%%EOF\n"
