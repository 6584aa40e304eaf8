// Writes code_vectors.json: real decks encoded by the npm package ygopro-deck-encode (the
// mycard / ygopro deck code and the YGOMobile deck link), each decoded back by the package's
// own decoder and checked to hold the deck's cards before it is written.
//
// Run once, outside the repository's environment (the package is not a dependency):
//   mkdir -p /tmp/vectors && cd /tmp/vectors && npm install ygopro-deck-encode
//   NODE_PATH=/tmp/vectors/node_modules node tests/inputs/decks/vectors/make_code_vectors.cjs \
//     ../shared/data/decks/windbot tests/inputs/decks/vectors/code_vectors.json
"use strict";
const fs = require("fs");
const path = require("path");
const YGOProDeck = require("ygopro-deck-encode").default;
const main = require.resolve("ygopro-deck-encode");
const version = JSON.parse(fs.readFileSync(
  path.join(path.dirname(main), "..", "package.json"), "utf8")).version;

const DECKS = ["AI_Brave", "AI_ChainBurn", "AI_Evilswarm", "AI_Orcust", "AI_Ryzeal",
  "AI_BE2025", "AI_ZexalWeapons", "AI_Albaz", "AI_Burn", "AI_DarkMagician"];

const [folder, target] = process.argv.slice(2);
const sorted = (cards) => [...cards].sort((a, b) => a - b);
const same = (a, b) => a.isEqual(b, { ignoreOrder: true });
const vectors = DECKS.map((name) => {
  const text = fs.readFileSync(path.join(folder, `${name}.ydk`), "utf8");
  const deck = YGOProDeck.fromYdkString(text);
  const mycard = deck.toEncodedString();
  const ygomobile = deck.toYGOMobileDeckURL();
  if (!same(YGOProDeck.fromEncodedString(mycard), deck)) throw new Error(`${name}: mycard`);
  if (!same(YGOProDeck.fromYGOMobileDeckURL(ygomobile), deck)) throw new Error(`${name}: ygomobile`);
  return { deck: name, main: sorted(deck.main), extra: sorted(deck.extra), side: sorted(deck.side),
    mycard, ygomobile };
});
const out = { written_by: `ygopro-deck-encode ${version}`, vectors };
// numbers of one section on one line
const json = JSON.stringify(out, null, 1).replace(/\[[\d,\s]*\]/g,
  (list) => list.replace(/\s+/g, ""));
fs.writeFileSync(target, json + "\n");
console.log(`${vectors.length} decks written to ${target}`);
