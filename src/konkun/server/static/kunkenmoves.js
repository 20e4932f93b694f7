// Kunken's moves as the page reads them, with nothing drawn (kunken.js draws the table):
// an action text parsed and told in words, a card's meld points, the jokers' meanings, the
// hand's order, a turn's end (the match log) and a deal recomputed from the match seed
// (the replay's fair-deal check). Unit-tested without a browser (tests/js).

import { cardShort, parseCard, RANKS, sortCards } from "./cards.js";
import { present } from "./dom.js";
import { cardText, sorted } from "./fairness.js";
import { t } from "./i18n.js";

// ---------------------------------------------------------------- actions as text

/** Points of a card in a meld (RULES.md: A K Q J = 10, T..2 = 5; a joker as its card).
 * @param {string} card
 * @param {string[]} [meldCards] the meld's cards (what a joker of a set stands for)
 * @returns {number} */
export function meldCardPoints(card, meldCards = []) {
  const c = parseCard(card);
  if (c.joker) {
    if (c.as) return meldCardPoints(c.as);
    const real = meldCards.map(parseCard).find((x) => !x.joker);
    return real ? meldCardPoints(real.text) : 10;
  }
  return "AKQJ".includes(c.rank) ? 10 : 5;
}

/**
 * A Kunken action text read: its kind ("take", "meld", ...), its cards, and the number it
 * names (the bank card of a take, the meld of a lay-off or a swap; null for the others).
 * @typedef {{kind: string, cards: string[], number: number | null}} KunkenAction
 */

/** An action text split into {kind, cards, number}: `take 3`, `meld Kc Kd X`, ...
 * @param {string} action
 * @returns {KunkenAction} */
export function parseAction(action) {
  const words = String(action).trim().split(/\s+/);
  const kind = words[0];
  const rest = words.slice(1);
  if (kind === "take") return { kind, number: Number(rest[0]), cards: [] };
  if (kind === "layoff") return { kind, cards: [rest[0]], number: Number(rest[1]) };
  if (kind === "swap") return { kind, number: Number(rest[0]), cards: [rest[1]] };
  return { kind, cards: rest, number: null };
}

/** The cards an action names, each joker as "X".
 * @param {string} action */
export function cardsIn(action) {
  return parseAction(action).cards.map((c) => (parseCard(c).joker ? "X" : parseCard(c).text));
}

/** A move as display text with suit symbols.
 * @param {string} action
 * @param {string} lang
 * @param {boolean} [offered] as a button offers it ("Discard"), not as the log tells it
 * @returns {string} */
export function formatAction(action, lang, offered = false) {
  const a = parseAction(action);
  const shown = (a.number ?? 0) + 1;  // the bank card or meld counted from 1
  const cards = a.cards.map((c) => cardShort(c, lang)).join(" ");
  // what a player did, as the log tells it (past: «сбросил(а)»); an offered action's
  // title says what it does («Сбросить»)
  const said = (/** @type {string} */ past, /** @type {string} */ offer) =>
    t(offered ? offer : past);
  switch (a.kind) {
    case "draw": return said("r.drew", "r.draw");
    case "take": return offered ? t("r.takeBank") : t("r.takeFrom", { n: shown });
    case "meld": return `${said("r.laidDown", "r.layDown")}: ${cards}`;
    case "layoff": return `${said("r.laidOff", "r.layOff")}: ${cards} → #${shown}`;
    case "swap": return `${said("r.swapped", "r.swap")}: ${cards} → #${shown}`;
    case "discard": return `${said("r.discarded", "r.discard")}: ${cards}`;
    default: return action;
  }
}

/** An action with its jokers' meanings left out: two actions alike but for what a joker
 * stands for have the same key.
 * @param {string} action */
function jokerFree(action) {
  return action.replace(/\bX=[2-9TJQKA][cdhs]\b/gi, "X");
}

/** What each joker of `action` stands for ("X=7h" → "7h").
 * @param {string} action
 * @returns {string[]} */
export function jokerMeanings(action) {
  return [...action.matchAll(/\bX=([2-9TJQKA][cdhs])\b/gi)].map((m) => m[1]);
}

/** The other legal actions that differ from `action` only in a joker's meaning.
 * @param {string} action
 * @param {string[]} legal
 * @returns {string[]} */
export function jokerAlternatives(action, legal) {
  if (!jokerMeanings(action).length) return [];
  const key = jokerFree(action);
  return legal.filter((a) => a !== action && jokerFree(a) === key);
}

// ---------------------------------------------------------------- the hand and the turn

/** The hand in `order`: by suit (then rank), or by rank (then suit); jokers last.
 * @param {string[]} cards
 * @param {string} order "rank", else by suit
 * @returns {string[]} a sorted copy */
export function sortHand(cards, order) {
  if (order !== "rank") return sortCards(cards);
  const key = (/** @type {string} */ text) => {
    const c = parseCard(text);
    return c.joker ? 1000 : RANKS.indexOf(c.rank) * 4 + "cdhs".indexOf(c.suit);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The move log's grouping (movelog.js): a turn (a draw or a take, melds, lay-offs,
 * swaps) ends with its discard.
 * @param {string} action
 * @returns {boolean} */
export function endsTurn(action) {
  return /^discard\b/.test(action);
}

// ---------------------------------------------------------------- the fair-deal check

// The deal recomputed from the match seed's stream (fairness.js; docs/fairness.md): the two packs and the jokers shuffled, the hands dealt a card at a time, the
// bank's first card.
/** @type {import("./fairness.js").FairDeal["deal"]} */
async function kunkenDeal(stream, seats, dealer, rules) {
  const pack = [...Array(52).keys(), ...Array(52).keys(),
    ...Array(rules.jokers ?? 4).fill(52)];
  await stream.shuffle(pack);
  /** @type {number[][]} */
  const hands = Array.from({ length: seats }, () => []);
  for (let round = 0; round < (rules.hand_size ?? 13); round++) {
    for (let k = 0; k < seats; k++) {
      hands[(dealer + 1 + k) % seats].push(present(pack.shift(), "the next card of the pack"));
    }
  }
  return { hands: hands.map((h) => sorted(h.map(cardText))), table: sorted([cardText(pack[0])]) };
}

/** The replay's fair-deal check (fairness.js): the deal from the seed's stream, and the
 * hands and the table a deal-start frame with all hands open shows.
 * @type {import("./fairness.js").FairDeal} */
export const fairDeal = {
  deal: kunkenDeal,
  shown(frame) {
    return { dealer: frame.view.dealer, hands: (frame.views || []).map((v) =>
      sorted(present(v.hand, "a seat's hand in the replay"))),
      table: sorted(frame.view.bank) };
  },
};
