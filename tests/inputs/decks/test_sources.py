"""Deck files found in folders and read up to the size a deck file can have."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.inputs.decks.batch import read_deck_paths
from validator.inputs.decks.sources import MAX_DECK_BYTES, path_sources


@pytest.mark.parametrize("size", [(1 << 16) - 1, 1 << 16, (1 << 16) + 1, 3 * (1 << 16),
                                  MAX_DECK_BYTES])
def test_files_up_to_the_limit_are_read_whole(tmp_path: Path, size: int) -> None:
    body = b"#main\n89631139\n"
    (tmp_path / "a.ydk").write_bytes(body + b"#" * (size - len(body) - 1) + b"\n")
    sources, problems = path_sources([tmp_path])
    assert problems == []
    assert len(sources[0].data) == size
    assert read_deck_paths([tmp_path]).entries["passcode"].to_list() == [89631139]


def test_a_larger_file_is_skipped_with_its_name(tmp_path: Path) -> None:
    (tmp_path / "big.ydk").write_bytes(b"#" * (MAX_DECK_BYTES + 1))
    (tmp_path / "small.ydk").write_bytes(b"#main\n89631139\n")
    read = read_deck_paths([tmp_path])
    assert read.ids == ["small"]
    assert [(p.file, p.code) for p in read.problems] == [
        (str(tmp_path / "big.ydk"), "FILE_TOO_LARGE")]


def test_folders_are_searched_recursively_in_path_order(tmp_path: Path) -> None:
    for name in ("b/x.ydk", "a/z.ydk", "a/y.txt", "c.ydke", "notes.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"")
    sources, _ = path_sources([tmp_path])
    assert [s.deck_id for s in sources] == ["y", "z", "x", "c"]


def test_a_deck_given_through_a_pipe_is_read_to_its_end(tmp_path: Path) -> None:
    import os
    import threading

    pipe = tmp_path / "deck.ydk"
    os.mkfifo(pipe)
    body = b"#main\n" + b"89631139\n" * 10_000  # more than one block, written in pieces

    def feed() -> None:
        with open(pipe, "wb", buffering=0) as stream:
            for at in range(0, len(body), 4096):
                stream.write(body[at:at + 4096])

    writer = threading.Thread(target=feed)
    writer.start()
    sources, problems = path_sources([pipe])
    writer.join()
    assert problems == []
    assert sources[0].data == body


def test_ydk_files_parsed_while_read_give_what_parsing_them_after_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.inputs.decks import ydk
    from validator.inputs.decks.batch import parse_sources

    monkeypatch.setattr(ydk, "PART_FILES", 2)
    for i in range(7):
        (tmp_path / f"d{i}.ydk").write_text(f"#main\n{i + 1}\n{i + 1}\n!side\n{i + 10}\n")
    (tmp_path / "d3.ydk").write_bytes(b"#main\n\xff\n")
    (tmp_path / "d5.ydk").write_text("#main\nnope\n")
    (tmp_path / "link.ydke").write_text("ydke://AQAAAA==!!!\n")
    while_read = read_deck_paths([tmp_path])
    after = parse_sources(*path_sources([tmp_path]))
    assert while_read.entries.equals(after.entries)
    assert while_read.ids == after.ids == ["d0", "d1", "d2", "d4", "d5", "d6", "link"]
    assert while_read.problems == after.problems
    assert [(p.file, p.line, p.code) for p in while_read.problems] == [
        (str(tmp_path / "d3.ydk"), None, "NOT_UTF8"), (str(tmp_path / "d5.ydk"), 2, "BAD_PASSCODE")]
