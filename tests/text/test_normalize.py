from __future__ import annotations

import pytest

from validator.text.normalize import as_typed, name_key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ash Blossom & Joyous Spring", "ash blossom and joyous spring"),
        ("Ash Blossom & Joyous Spring", "ＡＳＨ　ＢＬＯＳＳＯＭ＆ＪＯＹＯＵＳ ＳＰＲＩＮＧ"),
        ('"A Case for K9"', "“A Case for K9”"),
        ("Maxx \"C\"", "Maxx 'C'"),
        ("ブラック・マジシャン", "ブラックマジシャン"),
        ("灰流うらら", "灰流 うらら"),
        ("블랙 매지션", "블랙매지션"),
        ("Sky Striker Mobilization - Engage!", "sky striker mobilization engage"),
    ],
)
def test_same_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)
    assert name_key(a) != ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Dark Magician", "Dark Magician Girl"),
        ("Harpie Lady", "Harpie Lady 1"),
        ("Band of Heroes", "B and of Heroes 2"),
    ],
)
def test_different_key(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("original", "folded", "typed"),
    [
        ("3 파괴검－드래곤버스터블레이드", "파괴검-드래곤버스터블레이드",
         "파괴검－드래곤버스터블레이드"),
        ("灰流うらら ３枚", "灰流うらら", "灰流うらら"),
        ("ＡＳＨ　ＢＬＯＳＳＯＭ x3", "ASH BLOSSOM", "ＡＳＨ　ＢＬＯＳＳＯＭ"),
        ("3 Raigeki", "Raigeki", "Raigeki"),
        ("3 Raigeki", "Not there", "Not there"),  # not a part of it: as read
    ],
)
def test_as_typed_keeps_the_printed_characters(original: str, folded: str, typed: str) -> None:
    assert as_typed(original, folded) == typed
