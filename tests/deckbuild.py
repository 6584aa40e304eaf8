"""Decks built by card name or passcode, for engine and rule tests."""

from __future__ import annotations

from typing import Any

import polars as pl

from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import banlists_dir
from validator.engine.check import CheckResult
from validator.inputs.entries import entries_frame

Cards = list[tuple[str | int, int]]


def build(db: CardDB, deck_id: str, main: Cards, extra: Cards | None = None,
          side: Cards | None = None) -> pl.DataFrame:
    """Entries for one deck; a str names a card (its lowest passcode), an int is a passcode."""
    rows: list[dict[str, Any]] = []
    for section, cards in (("main", main), ("extra", extra or []), ("side", side or [])):
        for card, qty in cards:
            rows.append({"deck_id": deck_id, "section": section,
                         "passcode": passcode_of(db, card), "qty": qty,
                         "file": f"{deck_id}.ydk", "line": len(rows) + 1})
    return entries_frame(rows)


def legal_filler(db: CardDB, n: int, *, skip: int = 0, extra: bool = False) -> Cards:
    """n cards, 3 copies each, unlisted on the demo TCG list and released in TCG.

    ``skip`` passes over that many distinct cards first (for a side deck beside a main
    deck); ``extra`` gives Extra Deck monsters instead of main-deck cards.
    """
    listed = set(read_banlist(banlists_dir() / "lists" / "demo-tcg.lflist.conf")
                 .entries["passcode"].to_list())
    pool = (
        db.by_card.filter((pl.col("extra") == extra) & ~pl.col("rush")
                          & pl.col("kind").is_in(["monster", "spell", "trap"])
                          & pl.col("pools").list.contains("tcg")
                          & ~pl.col("card_id").is_in(list(listed))
                          & ~pl.col("subtypes").list.contains("pendulum"))
        .sort("card_id")["name_en"].unique(maintain_order=True).to_list()[skip:]
    )
    out: Cards = []
    for name in pool:
        take = min(3, n - sum(q for _, q in out))
        if take <= 0:
            break
        out.append((name, take))
    return out


def real_filler(db: CardDB, banlist: Banlist, n: int, *, avoid: tuple[str, ...] = ()) -> Cards:
    """n real main-deck cards, 3 copies each, that are released in the TCG, are their own
    name, and that the list does not limit (nor any name in ``avoid``)."""
    listed = banlist.entries["passcode"].drop_nulls().implode()
    pool = (
        db.by_card.filter(~pl.col("extra") & ~pl.col("rush") & pl.col("passcode").is_not_null()
                          & pl.col("kind").is_in(["monster", "spell", "trap"])
                          & pl.col("pools").list.contains("tcg")
                          & (pl.col("name_id") == pl.col("card_id"))
                          & (pl.len().over("name_id") == 1)
                          & ~pl.col("passcode").is_in(listed)
                          & ~pl.col("name_en").is_in(list(avoid))
                          & ~pl.col("subtypes").list.contains("pendulum"))
        .sort("card_id")["passcode"].to_list()
    )
    out: Cards = []
    for code in pool:
        take = min(3, n - sum(q for _, q in out))
        if take <= 0:
            break
        out.append((int(code), take))
    return out


def codes(result: CheckResult, deck_id: str | None = None) -> list[str]:
    frame = result.violations
    if deck_id is not None:
        frame = frame.filter(pl.col("deck_id") == deck_id)
    return frame["code"].to_list()


def passcode_of(db: CardDB, card: str | int) -> int:
    """A card's passcode: an int is one already; a name gives its lowest passcode."""
    if isinstance(card, int):
        return card
    hit = db.printings.filter(pl.col("name_en") == card)["passcode"]
    assert len(hit), f"{card} is not in the card data"
    return int(hit.min())  # type: ignore[arg-type]


def ydk_bytes(db: CardDB, main: Cards, extra: Cards | None = None,
              side: Cards | None = None) -> bytes:
    """A YDK file of the cards given (each copy on its own line)."""
    def lines(cards: Cards | None) -> str:
        return "".join(f"{passcode_of(db, card)}\n" * qty for card, qty in cards or [])
    return f"#main\n{lines(main)}#extra\n{lines(extra)}!side\n{lines(side)}".encode()


#: one registered list: the player's name and the cards of each section, as typed
Listed = tuple[str, dict[str, Cards]]


def list_csv(players: dict[str, Listed]) -> bytes:
    """Registered lists in the long layout (one row per card), cards named as given."""
    rows = ["KONAMI ID,Full name,Section,Qty,Card Name"]
    for player_id, (name, sections) in players.items():
        rows += [f"{player_id},{name},{section},{qty},\"{card}\""
                 for section, cards in sections.items() for card, qty in cards]
    return ("\n".join(rows) + "\n").encode()


#: the players of :func:`small_event`, by what their list and deck hold
LEGAL, SWAPPED, FORBIDDEN, FUZZY, UNSETTLED, SHORT, NO_LIST = (
    f"04000000{i:02d}" for i in range(1, 8))
_OWN = ("Lightning Storm", "Raigeki", "Cosmic Cyclone", "Harpie's Feather Duster",
        "Pot of Greed", "Infinite Impermanence", "Ash Blossom & Joyous Spring")


def small_event(db: CardDB) -> tuple[bytes, list[tuple[str, bytes]]]:
    """Six registered lists (long CSV) and the decks submitted for them (YDK files) in the
    demo card pool, one player of each kind:

    - LEGAL: the deck is its list;
    - SWAPPED: two side deck cards swapped into the main deck (legal from duel 2 on);
    - FORBIDDEN: Pot of Greed in the side deck of the list and of the deck;
    - FUZZY: the list misspells Infinite Impermanence (read fuzzily), the deck is legal;
    - UNSETTLED: the list's "Ash Blosom" names no single card (the head judge decides);
    - SHORT: the deck lacks one Raigeki (39 cards);

    and a deck (NO_LIST) of no registered player.
    """
    filler = [c for c in legal_filler(db, 60) if c[0] not in _OWN]
    base = [*filler[:12], (filler[12][0], 1)]  # 37 cards
    assert sum(q for _, q in base) == 37
    extra = legal_filler(db, 6, extra=True)
    main: Cards = [*base, ("Lightning Storm", 2), ("Raigeki", 1)]
    side: Cards = [("Cosmic Cyclone", 2), ("Harpie's Feather Duster", 1)]
    impermanence = [*base, ("Lightning Storm", 2), ("Infinite Impermanence", 1)]
    ash = [*base, ("Lightning Storm", 2), ("Ash Blossom & Joyous Spring", 1)]

    def listed(name: str, main_cards: Cards, side_cards: Cards = side) -> Listed:
        return name, {"Main": main_cards, "Extra": extra, "Side": side_cards}

    pot: Cards = [("Cosmic Cyclone", 2), ("Pot of Greed", 1)]
    lists = list_csv({
        LEGAL: listed("Ana Sato", main), SWAPPED: listed("Ben Ito", main),
        FORBIDDEN: listed("Cho Min", main, pot),
        FUZZY: listed("Dee Park", [*base, ("Lightning Storm", 2),
                                   ("Infinite Impermenance", 1)]),
        UNSETTLED: listed("Eve Kim", [*base, ("Lightning Storm", 2), ("Ash Blosom", 1)]),
        SHORT: listed("Fay Lee", main)})
    decks = [
        (f"{LEGAL}.ydk", ydk_bytes(db, main, extra, side)),
        (f"{SWAPPED}.ydk", ydk_bytes(db, [*base, ("Cosmic Cyclone", 2),
                                          ("Harpie's Feather Duster", 1)], extra,
                                     [("Lightning Storm", 2), ("Raigeki", 1)])),
        (f"{FORBIDDEN}.ydk", ydk_bytes(db, main, extra, pot)),
        (f"{FUZZY}.ydk", ydk_bytes(db, impermanence, extra, side)),
        (f"{UNSETTLED}.ydk", ydk_bytes(db, ash, extra, side)),
        (f"{SHORT}.ydk", ydk_bytes(db, [*base, ("Lightning Storm", 2)], extra, side)),
        (f"{NO_LIST}.ydk", ydk_bytes(db, main, extra, side)),
    ]
    return lists, decks
