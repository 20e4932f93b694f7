// Konchinka's moves as the page reads them, with nothing drawn (konchinka.js draws the
// table): the legal moves grouped by hand card, a move told in cards, the score sheet's
// written totals and a deal recomputed from the match seed (the replay's fair-deal
// check). Unit-tested without a browser (tests/js).

import { cardShort, parseCard, splitCards } from "./cards.js";
import { present } from "./dom.js";
import { cardText, ruleInteger, sorted } from "./fairness.js";

// ---------------------------------------------------------------- moves

/**
 * The legal moves of one hand card: its trail (when allowed) and its captures, most cards
 * first.
 * @typedef {{trail: string | null, captures: {text: string, cards: string[]}[]}} CardMoves
 */

/** Legal action texts grouped by the hand card: {card: {trail: text|null, captures: []}}.
 * @param {string[]} legal
 * @returns {Record<string, CardMoves>} */
export function groupLegal(legal) {
  /** @type {Record<string, CardMoves>} */
  const byCard = {};
  for (const text of legal) {
    const [card, taken] = text.split(":");
    const key = parseCard(card).text;
    const entry = byCard[key] || (byCard[key] = { trail: null, captures: [] });
    if (taken === undefined) entry.trail = text;
    else entry.captures.push({ text, cards: splitCards(taken) });
  }
  for (const e of Object.values(byCard)) {
    e.captures.sort((a, b) => b.cards.length - a.cards.length || a.text.localeCompare(b.text));
  }
  return byCard;
}

/** A move as short display text: "Q♦ × A♣ 7♥ 2♣" or "Q♦ →".
 * @param {string} action
 * @param {string} lang
 * @returns {string} */
export function formatAction(action, lang) {
  const [card, taken] = action.split(":");
  return taken === undefined ? `${cardShort(card, lang)} →`
    : `${cardShort(card, lang)} × ${splitCards(taken).map((c) => cardShort(c, lang)).join(" ")}`;
}

// ---------------------------------------------------------------- the score sheet

/** A column of the score sheet as written in the book: a new total only when it changes
 * (a deal that brought no point writes nothing); an empty column shows its 0.
 * @param {number[]} column a seat's running totals, deal by deal
 * @returns {number[]} */
export function writtenTotals(column) {
  /** @type {number[]} */
  const written = [];
  for (const total of column) {
    if (total !== (written.length ? written[written.length - 1] : 0)) written.push(total);
  }
  return written.length ? written : [0];
}

// ---------------------------------------------------------------- the fair-deal check

/** The ranks of the whole deck (the rule `deck_ranks` absent: the standard game). */
const WHOLE_DECK_RANKS = 13;

/** The card numbers of a deck of the `ranks` lowest ranks and the Ace (the research rule
 * `deck_ranks`, Python's `konchinka.deck.deck_indices`), ascending: 0..51 for 13 ranks.
 * @param {number} ranks
 * @returns {number[]} */
export function deckCards(ranks) {
  return [...Array(52).keys()].filter((n) => n % 13 === 12 || n % 13 < ranks - 1);
}

// The deal recomputed from the match seed's stream (fairness.js; docs/fairness.md): the
// deck of the rules' ranks shuffled and cut, four rounds of one card to each hand and one to
// the table, and the table's jacks and pairs put back in the stock.
/** @type {import("./fairness.js").FairDeal["deal"]} */
async function konchinkaDeal(stream, seats, dealer, rules) {
  // 2 ranks at least: a deck of 8 cards or more can be cut (4 cards each side)
  let deck = deckCards(ruleInteger(rules, "deck_ranks", WHOLE_DECK_RANKS, 2, WHOLE_DECK_RANKS));
  await stream.shuffle(deck);
  const cut = await stream.integer(4, deck.length - 4);
  deck = deck.slice(cut).concat(deck.slice(0, cut));
  const next = () => present(deck.shift(), "the next card of the deck");
  /** @type {number[][]} */
  const hands = Array.from({ length: seats }, () => []);
  const table = [];
  for (let round = 0; round < 4; round++) {
    for (let k = 0; k < seats; k++) hands[(dealer + 1 + k) % seats].push(next());
    table.push(next());
  }
  const order = [0, 1, 2, 3];
  const noJacks = rules.table_excludes_jacks !== false;
  for (;;) {
    /** @type {number[]} */
    const seen = [];
    /** @type {number | null} */
    let offending = null;
    for (const position of order) {
      const rank = table[position] % 13;
      if ((noJacks && rank === 9) || seen.includes(rank)) {
        offending = position;
        break;
      }
      seen.push(rank);
    }
    if (offending === null) break;
    const size = deck.length;
    deck.splice(await stream.integer(Math.floor(size / 4), size - Math.floor(size / 4)), 0,
      table[offending]);
    table[offending] = next();
    order.splice(order.indexOf(offending), 1);
    order.push(offending);
  }
  return { hands: hands.map((h) => sorted(h.map(cardText))), table: sorted(table.map(cardText)) };
}

/** The replay's fair-deal check (fairness.js): the deal from the seed's stream, and the
 * hands and the table a deal-start frame with all hands open shows.
 * @type {import("./fairness.js").FairDeal} */
export const fairDeal = {
  deal: konchinkaDeal,
  shown(frame) {
    /** @param {import("./pagetypes.js").View} view */
    const deal = (view) => present(view.deal, "a Konchinka view's deal");
    return { dealer: frame.view.dealer, hands: (frame.views || []).map((v) =>
      sorted(present(deal(v).hand, "a seat's hand in the replay"))),
    table: sorted(deal(frame.view).table) };
  },
};
