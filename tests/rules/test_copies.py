from __future__ import annotations

from tests.deckbuild import build, codes, legal_filler


def test_pass_three_copies(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck = build(demo_db, "d", [("Ash Blossom & Joyous Spring", 3),
                                *legal_filler(demo_db, 37)])
    assert codes(run(deck)) == []


def test_fail_alternate_artworks_count_together(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    # Dark Magician 46986414 and its alternate artwork 46986421 are one card name
    deck = build(demo_db, "d", [(46986414, 2), (46986421, 1), *legal_filler(demo_db, 37)],
                 side=[(36996508, 1)])
    result = run(deck)
    assert codes(result) == ["TOO_MANY_COPIES"]
    row = result.violations.row(0, named=True)
    assert (row["count"], row["limit"], row["card"]) == (4, 3, "Dark Magician")
