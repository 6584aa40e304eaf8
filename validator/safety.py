"""Guards for untrusted archives: XLSX workbooks and zips of deck files are zip files.

A zip bomb (a small file that unpacks to gigabytes), too many members, or a member whose
real size exceeds its stated size is refused before anything is unpacked. XLSX content is
parsed by calamine, whose XML reader expands no entities (no "billion laughs").
"""

from __future__ import annotations

import io
import zipfile

from .errors import InputError

__all__ = ["MAX_MEMBERS", "MAX_RATIO", "MAX_UNPACKED", "check_archive"]

MAX_UNPACKED = 256 << 20
MAX_MEMBERS = 50_000
MAX_RATIO = 200  # unpacked / packed; ordinary XLSX files stay far below


def check_archive(data: bytes, label: str) -> None:
    """Refuse an archive that would unpack to too much; silently accept what is not a zip."""
    if not data.startswith(b"PK"):
        if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
            raise InputError.at(label, "an old .xls or an encrypted workbook; save it as .xlsx")
        raise InputError.at(label, "not an .xlsx workbook (not a zip file)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile as exc:
        raise InputError.at(label, f"a damaged zip/xlsx file ({exc})") from exc
    if len(members) > MAX_MEMBERS:
        raise InputError.at(label, f"more than {MAX_MEMBERS} files inside")
    unpacked = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members) or 1
    if unpacked > MAX_UNPACKED:
        raise InputError.at(label, f"unpacks to {unpacked >> 20} MiB; at most "
                                   f"{MAX_UNPACKED >> 20} MiB are read (a zip bomb?)")
    if unpacked > (1 << 20) and unpacked / packed > MAX_RATIO:
        raise InputError.at(label, f"compressed {unpacked // packed}:1, far beyond any real "
                                   "workbook or deck file (a zip bomb?)")
