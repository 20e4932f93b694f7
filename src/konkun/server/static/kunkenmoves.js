// Kunken's moves as the page shows them, with nothing drawn (kunken.js draws the table):
// an action's parts, as the engine serves them (kind, cards, bank position or meld, the
// jokers' meanings and alternatives, a meld's points), told in words; the hand's order, a
// turn's end (the match log) and a deal recomputed from the match seed (the replay's
// fair-deal check). Nothing here reads an action's text or counts points: the engine
// does. Unit-tested without a browser (tests/js).

import { cardShort, parseCard, RANKS, sortCards } from "./cards.js";
import { present } from "./dom.js";
import { cardText, ruleInteger, sorted } from "./fairness.js";
import { t } from "./i18n.js";

// ---------------------------------------------------------------- actions as text

/**
 * A Kunken action's parts as the engine serves them (the view's `steps`, the state's
 * `last.parts`, a log entry's `parts`: docs/kunken.md, "Action parts").
 * @typedef {import("./protocol.js").KunkenStep} KunkenStep
 */

/** A served step told in words, with suit symbols (nothing read from the action's text).
 * @param {KunkenStep} step
 * @param {string} lang
 * @param {boolean} [offered] as a button offers it ("Discard"), not as the log tells it
 * @returns {string} */
export function tellStep(step, lang, offered = false) {
  const cards = (step.cards ?? []).map((c) => cardShort(c, lang)).join(" ");
  // the bank card or meld counted from 1
  const shown = (step.kind === "take" ? step.bank ?? 0 : step.meld ?? 0) + 1;
  // what a player did, as the log tells it (past: «сбросил(а)»); an offered action's
  // title says what it does («Сбросить»)
  const said = (/** @type {string} */ past, /** @type {string} */ offer) =>
    t(offered ? offer : past);
  switch (step.kind) {
    case "draw": return said("r.drew", "r.draw");
    case "take": return offered ? t("r.takeBank") : t("r.takeFrom", { n: shown });
    case "meld": return `${said("r.laidDown", "r.layDown")}: ${cards}`;
    case "layoff": return `${said("r.laidOff", "r.layOff")}: ${cards} → #${shown}`;
    case "swap": return `${said("r.swapped", "r.swap")}: ${cards} → #${shown}`;
    default: return `${said("r.discarded", "r.discard")}: ${cards}`;
  }
}

/** The page module's move text (movelog.js, the replay): the served parts told in
 * words; an action served without them is shown as sent.
 * @param {string} action
 * @param {string} lang
 * @param {KunkenStep} [parts]
 * @returns {string} */
export function formatAction(action, lang, parts) {
  return parts ? tellStep(parts, lang) : action;
}

/** The hand card a step's card takes from a hand: a joker of any meaning is "X".
 * @param {string} card
 * @returns {string} */
export function handCard(card) {
  const c = parseCard(card);
  return c.joker ? "X" : c.text;
}

/** The hand cards a step uses (its cards, each joker as "X").
 * @param {KunkenStep} step
 * @returns {string[]} */
export function handCardsOf(step) {
  return (step.cards ?? []).map(handCard);
}

/** What the jokers of step `i` stand for, and the other meanings of the same step the
 * engine also allows (its `alternatives`: steps that differ from it only there).
 * @param {KunkenStep[]} steps
 * @param {number} i
 * @returns {{meant: string[], others: string[]}} */
export function jokerChoices(steps, i) {
  const meant = steps[i]?.jokers ?? [];
  const others = (steps[i]?.alternatives ?? []).flatMap((j) => steps[j]?.jokers ?? [])
    .filter((c, k, all) => !meant.includes(c) && all.indexOf(c) === k);
  return { meant, others };
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
 * swaps) ends with its discard (the served parts' kind).
 * @param {string} _action
 * @param {KunkenStep} [parts]
 * @returns {boolean} */
export function endsTurn(_action, parts) {
  return parts?.kind === "discard";
}

// ---------------------------------------------------------------- the fair-deal check

// The deal recomputed from the match seed's stream (fairness.js; docs/fairness.md): the two packs and the jokers shuffled, the hands dealt a card at a time, the
// bank's first card.
/** @type {import("./fairness.js").FairDeal["deal"]} */
async function kunkenDeal(stream, seats, dealer, rules) {
  // the options' ranges (konkun.kunken.rules.OPTIONS): jokers 0..4, hand size 1..20
  const pack = [...Array(52).keys(), ...Array(52).keys(),
    ...Array(ruleInteger(rules, "jokers", 4, 0, 4)).fill(52)];
  const handSize = ruleInteger(rules, "hand_size", 13, 1, 20);
  await stream.shuffle(pack);
  /** @type {number[][]} */
  const hands = Array.from({ length: seats }, () => []);
  for (let round = 0; round < handSize; round++) {
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
