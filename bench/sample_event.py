"""Builds the sample events shipped in ``sample_decklists/`` and ``decks/`` from the demo pool.

Run ``python -m bench.sample_event`` to rebuild them; the output is deterministic. The TCG
event has 64 players (one Konami-layout sheet each) and their submitted YDK files; the Rush
event has 16 players in a long-layout CSV. The problems placed on purpose are listed in
``PROBLEMS`` and explained in the README.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import polars as pl

from validator.cards.db import CardDB
from validator.cards.store import demo_cards
from validator.inputs.decks.ydk import to_ydk
from validator.inputs.entries import entries_frame
from validator.sheets.pdf import write_form
from validator.sheets.workbook import KonamiSheet, write_konami_workbook

ROOT = Path(__file__).resolve().parent.parent
Cards = list[tuple[int, str]]
Deck = dict[str, Cards]

_SIDE = [(3, "Ghost Belle & Haunted Mansion"), (2, "Droll & Lock Bird"), (3, "Cosmic Cyclone"),
         (3, "Lightning Storm"), (2, "Evenly Matched"), (2, "Forbidden Droplet")]
ARCHETYPES: dict[str, Deck] = {
    "Labrynth": {
        "main": [(3, "Arianna the Labrynth Servant"), (3, "Ariane the Labrynth Servant"),
                 (2, "Arias the Labrynth Butler"), (2, "Lady Labrynth of the Silver Castle"),
                 (1, "Lovely Labrynth of the Silver Castle"), (3, "Labrynth Chandraglier"),
                 (2, "Labrynth Stovie Torbie"), (2, "Labrynth Cooclock"),
                 (3, "Ash Blossom & Joyous Spring"), (3, "Welcome Labrynth"),
                 (3, "Big Welcome Labrynth"), (1, "Labrynth Labyrinth"),
                 (3, "Infinite Impermanence"), (2, "Solemn Strike"), (1, "Solemn Judgment"),
                 (1, "Triple Tactics Talent"), (2, "Torrential Tribute"),
                 (1, "Called by the Grave"), (2, "Transaction Rollback")],
        "extra": [(1, "I:P Masquerena"), (1, "S:P Little Knight"), (1, "Knightmare Phoenix"),
                  (1, "Knightmare Unicorn"), (1, "Knightmare Cerberus"),
                  (1, "Accesscode Talker"), (1, "Sylvan Princessprite"),
                  (1, "Muckraker From the Underworld"), (1, "Relinquished Anima"),
                  (1, "Mekk-Knight Crusadia Avramax"), (1, "Cupid Pitch"),
                  (1, "Clara & Rushka, the Ventriloduo"), (1, "Unchained Soul Lord of Yama"),
                  (1, "Unchained Abomination"), (1, "Topologic Bomber Dragon")],
        "side": _SIDE,
    },
    "Swordsoul": {
        "main": [(3, "Swordsoul of Mo Ye"), (3, "Swordsoul of Taia"),
                 (3, "Swordsoul Strategist Longyuan"), (3, "Tenyi Spirit - Adhara"),
                 (3, "Tenyi Spirit - Ashuna"), (2, "Tenyi Spirit - Vishuda"),
                 (3, "Ash Blossom & Joyous Spring"), (3, "Effect Veiler"),
                 (3, "Swordsoul Emergence"), (2, "Swordsoul Sacred Summit"),
                 (1, "Called by the Grave"), (1, "Triple Tactics Talent"),
                 (3, "Infinite Impermanence"), (2, "Swordsoul Blackout"),
                 (2, "Ghost Ogre & Snow Rabbit"), (3, "Forbidden Droplet")],
        "extra": [(2, "Swordsoul Grandmaster - Chixiao"),
                  (1, "Swordsoul Supreme Sovereign - Chengying"),
                  (1, "Swordsoul Sinister Sovereign - Qixing Longyuan"),
                  (1, "Baxia, Brightness of the Yang Zing"), (1, "Yazi, Evil of the Yang Zing"),
                  (1, "Monk of the Tenyi"), (1, "Shaman of the Tenyi"),
                  (1, "Draco Berserker of the Tenyi"), (1, "Crystal Wing Synchro Dragon"),
                  (1, "Psychic End Punisher"), (1, "Stardust Dragon"), (1, "Black Rose Dragon"),
                  (1, "Accesscode Talker"), (1, "S:P Little Knight")],
        "side": [(3, "Ghost Belle & Haunted Mansion"), (2, "Droll & Lock Bird"),
                 (3, "Cosmic Cyclone"), (2, "Evenly Matched"), (2, "Dark Hole"),
                 (3, "Lightning Storm")],
    },
    "Kashtira": {
        "main": [(3, "Kashtira Fenrir"), (3, "Kashtira Unicorn"), (3, "Kashtira Riseheart"),
                 (2, "Scareclaw Kashtira"), (1, "Tearlaments Kashtira"),
                 (3, "Ash Blossom & Joyous Spring"), (3, "Effect Veiler"),
                 (3, "Kashtira Birth"), (3, "Pressured Planet Wraitsoth"),
                 (2, "Kashtiratheosis"), (2, "Kashtira Big Bang"),
                 (3, "Infinite Impermanence"), (1, "Called by the Grave"),
                 (1, "Crossout Designator"), (2, "Nibiru, the Primal Being"),
                 (2, "Forbidden Droplet"), (1, "Triple Tactics Talent"),
                 (2, "Ghost Ogre & Snow Rabbit")],
        "extra": [(3, "Kashtira Shangri-Ira"), (1, "Number 11: Big Eye"),
                  (1, "Mecha Phantom Beast Dracossack"),
                  (1, "Galaxy-Eyes Cipher Blade Dragon"), (1, "Galaxy-Eyes Cipher Dragon"),
                  (1, "Number 38: Hope Harbinger Dragon Titanic Galaxy"),
                  (1, "Number 62: Galaxy-Eyes Prime Photon Dragon"),
                  (1, "Super Starslayer TY-PHON - Sky Crisis"), (1, "Paleozoic Anomalocaris"),
                  (1, "Giganticastle"), (1, "I:P Masquerena"), (1, "S:P Little Knight"),
                  (1, "Knightmare Phoenix")],
        "side": [(3, "Ghost Belle & Haunted Mansion"), (2, "Droll & Lock Bird"),
                 (3, "Cosmic Cyclone"), (3, "Lightning Storm"), (2, "Dark Hole"),
                 (2, "Evenly Matched")],
    },
    "Blue-Eyes": {
        "main": [(3, "Blue-Eyes White Dragon"), (3, "Blue-Eyes Alternative White Dragon"),
                 (3, "Sage with Eyes of Blue"), (3, "The White Stone of Ancients"),
                 (1, "The White Stone of Legend"), (3, "Dragon Spirit of White"),
                 (2, "Chaos Dragon Levianeer"), (3, "Ash Blossom & Joyous Spring"),
                 (3, "The Melody of Awakening Dragon"), (2, "Return of the Dragon Lords"),
                 (2, "Dragon Shrine"), (1, "Trade-In"), (2, "Cards of Consonance"),
                 (3, "Infinite Impermanence"), (1, "Called by the Grave"),
                 (1, "Triple Tactics Talent"), (3, "Effect Veiler"), (1, "Monster Reborn")],
        "extra": [(2, "Blue-Eyes Spirit Dragon"), (1, "Blue-Eyes Ultimate Dragon"),
                  (1, "Azure-Eyes Silver Dragon"), (1, "Crystal Wing Synchro Dragon"),
                  (1, "Clear Wing Fast Dragon"), (1, "Stardust Dragon"),
                  (1, "Psychic End Punisher"), (1, "Five-Headed Dragon"),
                  (1, "Galaxy-Eyes Full Armor Photon Dragon"),
                  (1, "Number 38: Hope Harbinger Dragon Titanic Galaxy"),
                  (1, "Accesscode Talker"), (1, "S:P Little Knight"),
                  (1, "Knightmare Phoenix"), (1, "I:P Masquerena")],
        "side": [(3, "Ghost Belle & Haunted Mansion"), (2, "Droll & Lock Bird"),
                 (3, "Cosmic Cyclone"), (3, "Evenly Matched"), (1, "Harpie's Feather Duster"),
                 (3, "Forbidden Droplet")],
    },
    "Dark Magician": {
        "main": [(3, "Dark Magician"), (2, "Dark Magician Girl"), (3, "Magician's Rod"),
                 (3, "Apprentice Illusion Magician"), (2, "Magician of Faith"),
                 (3, "Ash Blossom & Joyous Spring"), (3, "Effect Veiler"),
                 (3, "Illusion Magic"), (3, "Dark Magical Circle"),
                 (2, "Dark Magic Inheritance"), (2, "Dark Magic Attack"),
                 (2, "Magician Navigation"), (2, "Eternal Soul"), (1, "Called by the Grave"),
                 (3, "Infinite Impermanence"), (1, "Triple Tactics Talent"),
                 (2, "Wonder Wand")],
        "extra": [(2, "Dark Magician the Dragon Knight"), (1, "Firewall Dragon"),
                  (1, "I:P Masquerena"), (1, "S:P Little Knight"), (1, "Accesscode Talker"),
                  (1, "Knightmare Phoenix"), (1, "Knightmare Unicorn"),
                  (1, "Knightmare Cerberus"), (1, "Sylvan Princessprite"),
                  (1, "Relinquished Anima"), (1, "Muckraker From the Underworld"),
                  (1, "Mekk-Knight Crusadia Avramax"), (1, "Unchained Soul Lord of Yama"),
                  (1, "Wee Witch's Apprentice")],
        "side": [(3, "Ghost Belle & Haunted Mansion"), (2, "Droll & Lock Bird"),
                 (3, "Cosmic Cyclone"), (3, "Evenly Matched"), (2, "Lightning Storm"),
                 (2, "Dark Hole")],
    },
    "Sky Striker": {
        "main": [(3, "Sky Striker Ace - Raye"), (3, "Ash Blossom & Joyous Spring"),
                 (3, "Effect Veiler"), (3, "Sky Striker Mobilize - Engage!"),
                 (1, "Sky Striker Mecha - Hornet Drones"),
                 (3, "Sky Striker Mecha - Widow Anchor"),
                 (2, "Sky Striker Mecha - Shark Cannon"),
                 (3, "Sky Striker Maneuver - Jamming Waves!"),
                 (2, "Sky Striker Maneuver - Afterburners!"),
                 (3, "Sky Striker Airspace - Area Zero"),
                 (2, "Sky Striker Mecharmory - Hercules Base"),
                 (2, "Sky Striker Mecha Modules - Multirole"), (1, "Called by the Grave"),
                 (3, "Infinite Impermanence"), (2, "Twin Twisters"),
                 (1, "Triple Tactics Talent"), (1, "Crossout Designator"),
                 (2, "Solemn Strike")],
        "extra": [(3, "Sky Striker Ace - Kagari"), (2, "Sky Striker Ace - Shizuku"),
                  (1, "Sky Striker Ace - Hayate"), (1, "I:P Masquerena"),
                  (1, "S:P Little Knight"), (1, "Accesscode Talker"),
                  (1, "Knightmare Phoenix"), (1, "Knightmare Unicorn"),
                  (1, "Knightmare Cerberus"), (1, "Topologic Bomber Dragon"),
                  (1, "Cupid Pitch"), (1, "Qliphort Genius")],
        "side": _SIDE,
    },
}

FIRST = ["Akira", "Somchai", "Minji", "Haruto", "Emma", "Niran", "Jisoo", "Yuki", "Lucas",
         "Ploy", "Seojun", "Sakura", "Noah", "Kanya", "Daniel", "Aoi"]
LAST = ["Tanaka", "Srisuk", "Kim", "Sato", "Smith", "Wongsa", "Park", "Suzuki"]


def player_id(i: int) -> str:
    return f"04{(i * 7919 + 1301) % 100_000_000:08d}"


def _swap(cards: Cards, old: str, new: str, qty: int = 1) -> Cards:
    """Replace ``qty`` copies of ``old`` by ``new``."""
    out: Cards = []
    for count, name in cards:
        if name == old:
            if count > qty:
                out.append((count - qty, name))
            out.append((qty, new))
        else:
            out.append((count, name))
    return out


def _add(cards: Cards, name: str, qty: int = 1) -> Cards:
    return [*cards, (qty, name)]


def _drop(cards: Cards, name: str, qty: int = 1) -> Cards:
    return [(c - qty, n) if n == name else (c, n) for c, n in cards if not (n == name and c == qty)]


def _both(change: Callable[[Deck], Deck]) -> tuple[Callable[[Deck], Deck], Callable[[Deck], Deck]]:
    return change, change


def _same(deck: Deck) -> Deck:
    return deck


# player index -> (what the problem is, change to the registered list, change to the deck)
PROBLEMS: dict[int, tuple[str, Callable[[Deck], Deck], Callable[[Deck], Deck]]] = {
    3: ("two copies of the Limited Called by the Grave, in list and deck",
        *_both(lambda d: {**d, "main": _swap(d["main"], "Infinite Impermanence",
                                             "Called by the Grave")})),
    8: ("41 cards registered, the 41st (Raigeki) missing from the deck",
        lambda d: {**d, "main": _add(d["main"], "Raigeki")}, _same),
    13: ("a side-deck Raigeki in the deck that is not on the list (in place of a Cosmic "
         "Cyclone)",
         _same, lambda d: {**d, "side": _swap(d["side"], "Cosmic Cyclone", "Raigeki")}),
    18: ("a Forbidden Pot of Greed in the side deck, in list and deck",
         *_both(lambda d: {**d, "side": _swap(d["side"], "Cosmic Cyclone", "Pot of Greed")})),
    23: ("'Ash Blosom' typed on the list: names no single card",
         lambda d: {**d, "main": _swap(d["main"], "Ash Blossom & Joyous Spring", "Ash Blosom",
                                       3)}, _same),
    28: ("a 39-card main deck, in list and deck",
         *_both(lambda d: {**d, "main": _drop(d["main"], "Called by the Grave")})),
    38: ("a fourth Ash Blossom in the side deck, in list and deck",
         *_both(lambda d: {**d, "side": _swap(d["side"], "Cosmic Cyclone",
                                              "Ash Blossom & Joyous Spring")})),
    48: ("an unreadable quantity ('three') on the list: the row is reported, the list is "
         "37 cards and differs from the deck",
         lambda d: {**d, "main": _swap(d["main"], "Infinite Impermanence",
                                       "@QTY:three:Infinite Impermanence", 3)}, _same),
    53: ("Accesscode Talker written in the Monster block of the list (an Extra Deck monster "
         "in the main deck); the deck has it in the extra deck",
         lambda d: {**d, "main": _add(_drop(d["main"], "Called by the Grave"),
                                      "Accesscode Talker"),
                    "extra": _drop(d["extra"], "Accesscode Talker")},
         _same),
    58: ("sided and not sided back: one Ash Blossom in the side deck and one Cosmic Cyclone "
         "in the main deck of the deck",
         _same, lambda d: {**d, "main": _swap(d["main"], "Ash Blossom & Joyous Spring",
                                              "Cosmic Cyclone"),
                           "side": _swap(d["side"], "Cosmic Cyclone",
                                         "Ash Blossom & Joyous Spring")}),
    63: ("a 16th extra-deck card (a second Accesscode Talker) in the deck",
         _same, lambda d: {**d, "extra": _add(d["extra"], "Accesscode Talker")}),
}
NO_DECK = 33  # registered, no deck submitted (reported as a problem)
ALT_ART = 40  # Dark Magician deck plays an alternate artwork: same name, no mismatch
JAPANESE, KOREAN, FUZZY = 45, 50, 55  # lists in Japanese / Korean / with a near-identical typo
UNMATCHED_DECK = "0499999999"


def _decks_for(i: int, db: CardDB) -> tuple[Deck, Deck]:
    base = ARCHETYPES[list(ARCHETYPES)[i % len(ARCHETYPES)]]
    listed, deck = dict(base), dict(base)
    if i in PROBLEMS:
        _, change_list, change_deck = PROBLEMS[i]
        listed, deck = change_list(dict(base)), change_deck(dict(base))
    return listed, deck


def _kind(db: CardDB, name: str) -> str:
    hit = db.by_card.filter(pl.col("name_en") == name)
    return str(hit["kind"][0]) if hit.height else "monster"


def _localised(db: CardDB, name: str, lang: str) -> str:
    hit = db.by_card.filter(pl.col("name_en") == name)
    if hit.height and hit[f"name_{lang}"][0]:
        return str(hit[f"name_{lang}"][0])
    return name


def _sheet(i: int, listed: Deck, db: CardDB) -> KonamiSheet:
    blocks: dict[str, list[tuple[int | str, str]]] = {"monster": [], "spell": [], "trap": [],
                                                "extra": [], "side": []}
    for section in ("main", "extra", "side"):
        for qty, name in listed[section]:
            block = section if section != "main" else _kind(db, name)
            shown: str = name
            quantity: int | str = qty
            if name.startswith("@QTY:"):
                _, quantity, shown = name.split(":", 2)
            if i == JAPANESE:
                shown = _localised(db, shown, "ja")
            elif i == KOREAN:
                shown = _localised(db, shown, "ko")
            elif i == FUZZY and shown == "Infinite Impermanence":
                shown = "Infinite Impermenance"
            blocks[block].append((quantity, shown))
    first, last = FIRST[i % len(FIRST)], LAST[(i * 3) % len(LAST)]
    return KonamiSheet(f"{first} {last}", player_id(i), "deckcheck Sample Regional",
                       "2026-12-05", blocks)


def _ydk(deck: Deck, db: CardDB, i: int) -> str:
    rows = []
    for section in ("main", "extra", "side"):
        for qty, name in deck[section]:
            codes = db.printings.filter(pl.col("name_en") == name).sort("passcode")["passcode"]
            code = int(codes[-1] if i == ALT_ART and name == "Dark Magician" else codes[0])
            rows.append({"deck_id": player_id(i), "section": section, "passcode": code,
                         "qty": qty})
    frame = entries_frame(rows).sort(pl.col("section").to_physical(), maintain_order=True)
    return to_ydk(frame, created_by="deckcheck sample event")


RUSH_LEGEND_MONSTERS = [160001000, 160002000]  # Blue-Eyes / Dark Magician (Rush), Legend


def _rush_pool(db: CardDB) -> list[int]:
    return (db.by_card.filter(pl.col("rush") & ~pl.col("legend") & ~pl.col("extra")
                              & (pl.col("kind") == "monster"))
            .sort("passcode")["passcode"].head(26).to_list())


def write_rush(db: CardDB) -> None:
    pool = _rush_pool(db)
    names = dict(db.printings.select("passcode", "name_en").iter_rows())
    rows = [["Player ID", "Player Name", "Section", "Qty", "Card Name"]]
    decks = ROOT / "decks" / "rush"
    decks.mkdir(parents=True, exist_ok=True)
    for i in range(16):
        pid = f"R{1000 + i}"
        name = f"{FIRST[(i + 5) % len(FIRST)]} {LAST[i % len(LAST)]}"
        main = [(pool[(i + k) % len(pool)], 3) for k in range(13)] + [(RUSH_LEGEND_MONSTERS[0], 1)]
        side = [(pool[(i + 13 + k) % len(pool)], 3) for k in range(2)]
        if i == 3:  # two different Legend Monsters in the main deck: illegal
            main[-1] = (RUSH_LEGEND_MONSTERS[0], 1)
            main[0] = (main[0][0], 2)
            main.append((RUSH_LEGEND_MONSTERS[1], 1))
        if i == 7:  # the second Legend Monster is in the side deck: legal
            side.append((RUSH_LEGEND_MONSTERS[1], 1))
        if i == 11:  # two copies of one Legend Monster: illegal
            main[0] = (main[0][0], 2)
            main[-1] = (RUSH_LEGEND_MONSTERS[0], 2)
        for section, cards in (("Main", main), ("Side", side)):
            # half the players write Rush names as printed, without "(Rush)"
            rows.extend([pid, name, section, str(q),
                         names[c].removesuffix(" (Rush)") if i % 2 else names[c]]
                        for c, q in cards)
        entries = entries_frame(
            [{"deck_id": pid, "section": "main", "passcode": c, "qty": q} for c, q in main]
            + [{"deck_id": pid, "section": "side", "passcode": c, "qty": q} for c, q in side])
        (decks / f"{pid}.ydk").write_text(to_ydk(entries, "deckcheck sample event"))
    with (ROOT / "sample_decklists" / "rush-cup.csv").open("w", newline="",
                                                          encoding="utf-8") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)


def tcg_sheets(db: CardDB) -> list[KonamiSheet]:
    """The 64 registered lists of the sample regional, as deck list sheets."""
    return [_sheet(i, _decks_for(i, db)[0], db) for i in range(64)]


#: players whose lists are also shipped as filled PDF sheets: a legal list, one in Japanese,
#: one with a Limited card over its limit, and one with a quantity written as a word
PDF_PLAYERS = (0, JAPANESE, 3, 48)


def write_tcg_pdfs(db: CardDB) -> None:
    """A handful of the sample regional's lists as filled PDF sheets (the same lists as in
    the workbook): ``deckcheck event sample_decklists/pdf --decks decks/tcg``."""
    folder = ROOT / "sample_decklists" / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.pdf"):
        old.unlink()
    sheets = tcg_sheets(db)
    for i in PDF_PLAYERS:
        (folder / f"{player_id(i)}.pdf").write_bytes(write_form(sheets[i]))


def write_tcg(db: CardDB) -> None:
    decks = ROOT / "decks" / "tcg"
    decks.mkdir(parents=True, exist_ok=True)
    for old in decks.glob("*.ydk"):
        old.unlink()
    sheets = tcg_sheets(db)
    for i in range(64):
        _, deck = _decks_for(i, db)
        if i != NO_DECK:
            (decks / f"{player_id(i)}.ydk").write_text(_ydk(deck, db, i))
    extra = _decks_for(0, db)[1]
    (decks / f"{UNMATCHED_DECK}.ydk").write_text(_ydk(extra, db, 0))
    write_konami_workbook(ROOT / "sample_decklists" / "regional-tcg.xlsx", sheets)


def main() -> None:
    db = demo_cards()
    write_tcg(db)
    write_tcg_pdfs(db)
    write_rush(db)
    print("sample events written")


if __name__ == "__main__":
    main()
