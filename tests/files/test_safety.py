"""Archives: a damaged member of a zip is a problem of its own; the other members are read."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from validator.errors import InputError
from validator.files.safety import MAX_UPLOAD, zip_members
from validator.inputs.decks.batch import read_deck_paths
from validator.inputs.registrations.read import read_registrations

ROOT = Path(__file__).resolve().parent.parent.parent


def _zip_with_a_damaged_member(good: tuple[str, bytes], bad: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(*good)
        archive.writestr(*bad)
    data = bytearray(buffer.getvalue())
    at = data.index(bad[1])  # stored: the member's bytes as they are; its CRC no longer fits
    data[at] ^= 0xFF
    return bytes(data)


def test_a_damaged_member_is_reported_and_the_others_are_read() -> None:
    data = _zip_with_a_damaged_member(("a.ydk", b"#main\n89631139\n"),
                                      ("b.ydk", b"#main\n46986414\n"))
    members, problems = zip_members(data, "decks.zip", (".ydk",), 1 << 20)
    assert [name for name, _ in members] == ["a.ydk"]
    assert [(p.file, p.code) for p in problems] == [("decks.zip!b.ydk", "ZIP_DAMAGED")]


def test_decks_and_registrations_from_damaged_zips(tmp_path: Path) -> None:
    decks = tmp_path / "decks.zip"
    decks.write_bytes(_zip_with_a_damaged_member(("a.ydk", b"#main\n89631139\n"),
                                                 ("b.ydk", b"#main\n46986414\n")))
    read = read_deck_paths([decks])
    assert read.ids == ["a"]
    assert [p.file for p in read.problems] == [f"{decks}!b.ydk"]
    lists = tmp_path / "lists.zip"
    csv = b"Player ID,Qty,Card Name\nP1,3,Raigeki\n"
    lists.write_bytes(_zip_with_a_damaged_member(("one.csv", csv),
                                                 ("two.csv", csv.replace(b"P1", b"P2"))))
    registrations = read_registrations(lists)
    assert registrations.players["player_id"].to_list() == ["P1"]
    assert [p.file for p in registrations.problems] == [f"{lists}!two.csv"]


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_member_whose_compressed_data_is_damaged_is_reported(method: int) -> None:
    """Each decompressor fails in its own way (zlib.error, OSError, LZMAError): every one is
    a problem of that member, never a crash of the whole upload."""
    text = "#main\n" + "".join(f"{(i * 7919) % 10**8}\n" for i in range(2000))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("b.ydk", text)
        archive.writestr("a.ydk", "#main\n89631139\n")
    data = bytearray(buffer.getvalue())
    start = 30 + len("b.ydk")  # the first member's compressed data follows its local header
    for at in range(start + 10, start + 40):
        data[at] ^= 0x55
    members, problems = zip_members(bytes(data), "decks.zip", (".ydk",), 1 << 20)
    assert [name for name, _ in members] == ["a.ydk"]
    assert [(p.file, p.code) for p in problems] == [("decks.zip!b.ydk", "ZIP_DAMAGED")]


def test_the_upload_limit_is_one_number_for_the_command_line_and_the_app() -> None:
    import inspect

    from validator.cli import serve_command
    from validator.web.app import create_app

    [option] = [p for p in serve_command.params if p.name == "max_upload"]
    assert option.default == MAX_UPLOAD >> 20
    assert inspect.signature(create_app).parameters["max_upload"].default == MAX_UPLOAD


def test_a_pdf_whose_streams_unpack_to_too_much_is_refused_at_once() -> None:
    import time

    from tests.archives import pdf_bomb
    from validator.files.safety import check_pdf_streams

    started = time.perf_counter()
    with pytest.raises(InputError) as raised:
        check_pdf_streams(pdf_bomb(24 << 20, streams=3), "sheet.pdf", most=64 << 20)
    assert time.perf_counter() - started < 5.0
    assert [(p.file, p.code) for p in raised.value.problems] == [("sheet.pdf", "PDF_UNSAFE")]
    check_pdf_streams(pdf_bomb(1 << 20, streams=3), "sheet.pdf")  # 3 MiB in all: read
    check_pdf_streams(b"%PDF-1.7\n1 0 obj<<>>stream\nnot deflated\nendstream", "s.pdf")


@pytest.mark.parametrize(("unpacked", "streams", "refused"), [
    (1 << 20, 80, True),  # many small bombs: 80 MiB in all
    (1 << 20, 60, False),  # 60 MiB in all
    (0, 0, False),
])
def test_a_pdf_is_refused_by_what_all_its_streams_unpack_to(unpacked: int, streams: int,
                                                            refused: bool) -> None:
    from tests.archives import pdf_bomb
    from validator.files.safety import check_pdf_streams

    data = pdf_bomb(unpacked, streams=streams)
    if not refused:
        check_pdf_streams(data, "sheet.pdf")
        return
    with pytest.raises(InputError) as raised:
        check_pdf_streams(data, "sheet.pdf")
    assert [(p.file, p.code) for p in raised.value.problems] == [("sheet.pdf", "PDF_UNSAFE")]


def test_streams_too_small_to_reach_the_bound_are_not_inflated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deflate unpacks a byte to at most 1,032: a form whose streams pack to little needs
    none inflated; of a larger one, only its largest streams are."""
    import random
    import zlib

    from validator.files.safety import MAX_DEFLATE_RATIO, check_pdf_streams

    inflated: list[int] = []
    real = zlib.decompressobj

    def counted() -> zlib._Decompress:
        inflated.append(1)
        return real()

    def pdf(streams: list[bytes]) -> bytes:
        return b"%PDF-1.7\n" + b"".join(
            b"%d 0 obj<</Length %d/Filter/FlateDecode>>stream\n%s\nendstream\nendobj\n"
            % (n, len(packed), packed) for n, packed in enumerate(streams))

    monkeypatch.setattr(zlib, "decompressobj", counted)
    small = [zlib.compress(b"x" * 4000)] * 200
    check_pdf_streams(pdf(small), "form.pdf")
    assert inflated == []
    font = zlib.compress(random.Random(1).randbytes(256 << 10))  # packs to no less
    assert MAX_DEFLATE_RATIO * len(font) > 64 << 20
    check_pdf_streams(pdf([*small, font]), "sheet.pdf")
    assert inflated == [1]
