// The replay page's fair-deal recomputation (fairness.js and each game's `fairDeal`) deals
// exactly what the Python engines deal from the same text seed: the first dealer, the
// first deal and the next one, for every seat count of the golden files.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { test } from "node:test";

import { cardText, firstDealer, sorted, Stream } from "../../src/konkun/server/static/fairness.js";
import { fairDeal as konchinkaFair } from "../../src/konkun/server/static/konchinka.js";
import { fairDeal as kunkenFair } from "../../src/konkun/server/static/kunken.js";
import { goldenDeals } from "./golden.js";

/** The cards of a KPN card list ("KsQsTd8s", or "-" for none), sorted as the page compares.
 * @param {string} list */
function kpnCards(list) {
  return sorted(list === "-" ? [] : list.match(/../g) ?? []);
}

/** The table and the hands of a KPN position, as the page's recomputation gives them.
 * @param {string} kpn */
function kpnDeal(kpn) {
  const [, table, hands] = kpn.split(" ");
  return { hands: hands.split("/").map(kpnCards), table: kpnCards(table) };
}

/** A stored Kunken deal's hands and the bank's first card, as the page compares them.
 * @param {{hands: string[][], bank: string[]}} deal */
function kunkenDeal(deal) {
  return { hands: deal.hands.map(sorted), table: sorted(deal.bank) };
}

/** The golden lines whose seed is a text seed: a match's seed is one (the keyed SHA-256
 * stream the page recomputes); an integer seed is the Mersenne Twister, not the page's.
 * @param {"konchinka" | "kunken"} game */
function textSeeded(game) {
  const lines = goldenDeals(game).filter((entry) => typeof entry.seed === "string");
  assert.ok(lines.length >= 6, `${game}: too few text-seeded golden deals`);
  return lines;
}

test("a card's number is its text: 0 is 2c, 12 is Ac, 51 is As, 52 the joker", () => {
  assert.deepEqual([0, 8, 12, 13, 38, 51, 52].map(cardText),
    ["2c", "Tc", "Ac", "2d", "Ah", "As", "X"]);
});

for (const entry of textSeeded("konchinka")) {
  test(`konchinka ${entry.variant}, ${entry.seats} seats, seed ${entry.seed.slice(0, 12)}: `
       + "the page deals the golden first dealer and two deals", async () => {
    const stream = new Stream(entry.seed);
    const first = await firstDealer(stream, entry.seats);
    assert.equal(first, entry.first_dealer);
    const rules = { table_excludes_jacks: true };
    assert.deepEqual(await konchinkaFair.deal(stream, entry.seats, first, rules),
      kpnDeal(entry.deal));
    assert.deepEqual(await konchinkaFair.deal(stream, entry.seats, (first + 1) % entry.seats,
      rules), kpnDeal(entry.next_deal));
  });
}

for (const entry of textSeeded("kunken")) {
  test(`kunken, ${entry.seats} seats, seed ${entry.seed.slice(0, 12)}: `
       + "the page deals the golden first dealer and two deals", async () => {
    const stream = new Stream(entry.seed);
    const first = await firstDealer(stream, entry.seats);
    assert.equal(first, entry.first_dealer);
    assert.deepEqual(await kunkenFair.deal(stream, entry.seats, first, {}),
      kunkenDeal(entry.deal));
    assert.deepEqual(await kunkenFair.deal(stream, entry.seats, (first + 1) % entry.seats, {}),
      kunkenDeal(entry.next_deal));
  });
}

test("another seed deals other cards (the comparison can fail)", async () => {
  const [entry] = textSeeded("kunken");
  const stream = new Stream(`${entry.seed}-other`);
  const first = await firstDealer(stream, entry.seats);
  const dealt = await kunkenFair.deal(stream, entry.seats, first, {});
  assert.notDeepEqual(dealt, kunkenDeal(entry.deal));
});
