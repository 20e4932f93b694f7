// The replay page's fair-deal recomputation (fairness.js and each game's `fairDeal`) deals
// exactly what the Python engines deal from the same text seed: the first dealer, the
// first deal and the next one, for every seat count of the golden files, and with the rule
// options that change the cards (short Konchinka decks, Kunken's jokers and hand size:
// tests/golden/konchinka_short.deals and kunken_options.deals). And the page's
// whole check (verifyReplay) on replays the server served (tests/js/replays, which
// `konkun verify` accepts too), as they came and altered.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";
import { gunzipSync } from "node:zlib";

import { RENDERERS } from "../../src/konkun/server/static/catalog.js";
import { cardText, firstDealer, sorted, Stream, verifyReplay }
  from "../../src/konkun/server/static/fairness.js";
import { setLang, t } from "../../src/konkun/server/static/i18n.js";
import * as konchinka from "../../src/konkun/server/static/konchinka.js";
import { deckCards as konchinkaDeck } from "../../src/konkun/server/static/konchinkamoves.js";
import * as kunken from "../../src/konkun/server/static/kunken.js";
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
    assert.deepEqual(await konchinka.fairDeal.deal(stream, entry.seats, first, rules),
      kpnDeal(entry.deal));
    assert.deepEqual(await konchinka.fairDeal.deal(stream, entry.seats, (first + 1) % entry.seats,
      rules), kpnDeal(entry.next_deal));
  });
}

for (const entry of textSeeded("kunken")) {
  test(`kunken, ${entry.seats} seats, seed ${entry.seed.slice(0, 12)}: `
       + "the page deals the golden first dealer and two deals", async () => {
    const stream = new Stream(entry.seed);
    const first = await firstDealer(stream, entry.seats);
    assert.equal(first, entry.first_dealer);
    assert.deepEqual(await kunken.fairDeal.deal(stream, entry.seats, first, {}),
      kunkenDeal(entry.deal));
    assert.deepEqual(await kunken.fairDeal.deal(stream, entry.seats, (first + 1) % entry.seats, {}),
      kunkenDeal(entry.next_deal));
  });
}

// the rule options that change the cards: short Konchinka decks (deck_ranks) at every seat
// count they deal to, Kunken's jokers and hand size; the rules as the record holds them
for (const entry of goldenDeals("konchinka_short")) {
  const table = entry.rules.table_excludes_jacks ? "" : ", jacks allowed on the table";
  test(`konchinka deck_ranks ${entry.rules.deck_ranks}${table}, ${entry.seats} seats, seed `
       + `${entry.seed.slice(0, 12)}: the page deals the engine's first dealer and two deals`,
  async () => {
    const stream = new Stream(entry.seed);
    const first = await firstDealer(stream, entry.seats);
    assert.equal(first, entry.first_dealer);
    assert.deepEqual(await konchinka.fairDeal.deal(stream, entry.seats, first, entry.rules),
      kpnDeal(entry.deal));
    assert.deepEqual(await konchinka.fairDeal.deal(stream, entry.seats,
      (first + 1) % entry.seats, entry.rules), kpnDeal(entry.next_deal));
  });
}

for (const entry of goldenDeals("kunken_options")) {
  test(`kunken jokers ${entry.rules.jokers}, hand size ${entry.rules.hand_size}, `
       + `${entry.seats} seats, seed ${entry.seed.slice(0, 12)}: `
       + "the page deals the engine's first dealer and two deals", async () => {
    const stream = new Stream(entry.seed);
    const first = await firstDealer(stream, entry.seats);
    assert.equal(first, entry.first_dealer);
    assert.deepEqual(await kunken.fairDeal.deal(stream, entry.seats, first, entry.rules),
      kunkenDeal(entry.deal));
    assert.deepEqual(await kunken.fairDeal.deal(stream, entry.seats, (first + 1) % entry.seats,
      entry.rules), kunkenDeal(entry.next_deal));
  });
}

test("a short Konchinka deck keeps its lowest ranks and the Ace of each suit", () => {
  assert.deepEqual(konchinkaDeck(7).map(cardText).filter((c) => c.endsWith("c")),
    ["2c", "3c", "4c", "5c", "6c", "7c", "Ac"]);
  assert.equal(konchinkaDeck(7).length, 28);
  assert.equal(konchinkaDeck(10).map(cardText).filter((c) => c.endsWith("s")).join(""),
    "2s3s4s5s6s7s8s9sTsAs");
  assert.deepEqual(konchinkaDeck(13), [...Array(52).keys()]);
});

test("a rule that changes the cards outside its range is refused, never dealt", async () => {
  for (const deckRanks of [1, 14, 7.5, "7", null]) {
    const rules = deckRanks === null ? { deck_ranks: {} } : { deck_ranks: deckRanks };
    await assert.rejects(konchinka.fairDeal.deal(new Stream("a"), 2, 0, rules),
      (err) => err instanceof RangeError && /^rule deck_ranks /.test(err.message));
  }
  for (const rules of [{ jokers: -1 }, { jokers: 1e9 }, { hand_size: 0 }, { hand_size: 21 }]) {
    await assert.rejects(kunken.fairDeal.deal(new Stream("a"), 2, 0, rules),
      (err) => err instanceof RangeError && /^rule (jokers|hand_size) /.test(err.message));
  }
});

test("another seed deals other cards (the comparison can fail)", async () => {
  const [entry] = textSeeded("kunken");
  const stream = new Stream(`${entry.seed}-other`);
  const first = await firstDealer(stream, entry.seats);
  const dealt = await kunken.fairDeal.deal(stream, entry.seats, first, {});
  assert.notDeepEqual(dealt, kunkenDeal(entry.deal));
});

// ---------------------------------------------------------------- the whole check

// the catalog's page modules, as loadCatalog() registers them from GET /api/catalog
Object.assign(RENDERERS, { konchinka, kunken });

afterEach(() => {
  localStorage.clear();
  setLang("en");
});

/** A fresh copy of a replay the server served (GET /api/games/{id}/replay?seat=all).
 * @param {"konchinka" | "kunken"} game
 * @returns {import("../../src/konkun/server/static/pagetypes.js").Replay} */
function replay(game) {
  const url = new URL(`./replays/${game}.json.gz`, import.meta.url);
  return JSON.parse(gunzipSync(readFileSync(url)).toString("utf8"));
}

for (const game of /** @type {const} */ (["konchinka", "kunken"])) {
  test(`${game}: a replay as the server served it is verified, its deals recomputed`, async () => {
    const verdict = await verifyReplay(replay(game));
    assert.equal(verdict.key, "fair.ok");
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.params, { c: 0, d: 1 }, "no person contributed; one deal");
    assert.equal(verdict.unchecked, "fair.unchecked");
  });
}

// converted from the browser test test_fairness_page.py
test("a replay with a move the digests did not see is refused at that move", async () => {
  const document = replay("konchinka");
  document.frames[3].action = document.frames[1].action;
  const verdict = await verifyReplay(document);
  assert.deepEqual(verdict, { ok: false, key: "fair.badDigest", params: { i: 3 } });
  // as the replay page says it, in both languages
  assert.equal(t(verdict.key, verdict.params),
    "Not verified: move 3 does not match the published digest.");
  setLang("ru");
  assert.equal(t(verdict.key, verdict.params),
    "Не проверено: ход 3 не совпадает с опубликованным отпечатком.");
});

test("a replay whose seats' names are swapped is refused: the first digest binds them",
  async () => {
    const document = replay("konchinka");
    const [first, second] = document.table.seats;
    [first.name, second.name] = [second.name, first.name];
    assert.deepEqual(await verifyReplay(document),
      { ok: false, key: "fair.badDigest", params: { i: 0 } });
  });

test("a replay that shows another winner than its last position is refused", async () => {
  for (const game of /** @type {const} */ (["konchinka", "kunken"])) {
    const document = replay(game);
    document.table.winner = 1 - Number(document.table.winner);
    assert.deepEqual(await verifyReplay(document), { ok: false, key: "fair.badResult" }, game);
  }
});

test("a replay whose revealed server seed is not the committed one is refused", async () => {
  const document = replay("kunken");
  const fairness = /** @type {NonNullable<typeof document.record.fairness>} */ (
    document.record.fairness);
  fairness.server_seed = "0".repeat(64);
  assert.deepEqual(await verifyReplay(document), { ok: false, key: "fair.badCommitment" });
});

test("a replay dealt other cards than its seed deals is refused at that deal", async () => {
  const document = replay("kunken");
  const views = document.frames[0].views ?? [];
  const hand = views[0].hand ?? [];
  const other = views[1].hand ?? [];
  [hand[0], other[0]] = [other[0], hand[0]];  // one card of each hand swapped
  assert.deepEqual(await verifyReplay(document),
    { ok: false, key: "fair.badDeal", params: { n: 1 } });
});

test("the value this browser sent for its seat must be among the contributions", async () => {
  const document = replay("konchinka");
  localStorage.setItem(`konkun.fair.${document.table.id}`,
    JSON.stringify({ seat: 0, value: "ab".repeat(32) }));
  assert.deepEqual(await verifyReplay(document), { ok: false, key: "fair.notYours" });
});
