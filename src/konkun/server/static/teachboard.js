// The boards of the teaching pages (/learn/{game}, /puzzles/{game}): a simple, phone-sized
// drawing of one seat's view (the engine's observation), with cards to click and, in a
// lesson, the glowing "hint" on what the step asks to click next.

import { cardElement, cardShort, parseCard, sortCards, splitCards } from "./cards.js";
import { h, present } from "./dom.js";
import { lang, t } from "./i18n.js";
import { handCard } from "./kunkenmoves.js";

/** Whether two card texts are the same card (jokers by their text). */
const same = (a, b) => parseCard(a).text === parseCard(b).text;

function row(cls, label, ...children) {
  return h("section", { class: `teach-zone ${cls}`, "aria-label": label },
    h("h2", { class: "zone-title" }, label), ...children);
}

// ---------------------------------------------------------------- Konchinka

/** A Konchinka move's text from a hand card and the table cards it takes. */
export function konchinkaMove(card, taken) {
  return taken.length ? `${card}:${taken.join("")}` : card;
}

/** The same Konchinka move (the taken cards in any order)? */
export function sameKonchinkaMove(a, b) {
  const [ca, ta = ""] = a.split(":");
  const [cb, tb = ""] = b.split(":");
  const sa = splitCards(ta).map((c) => parseCard(c).text).sort().join();
  const sb = splitCards(tb).map((c) => parseCard(c).text).sort().join();
  return same(ca, cb) && sa === sb;
}

/** What a lesson's step asks to click next in Konchinka: {hand, table[], play}. */
function konchinkaHints(expect, sel) {
  if (!expect) return null;
  const [card, taken = ""] = expect.split(":");
  const want = splitCards(taken);
  if (!sel.card || !same(sel.card, card)) return { hand: card, table: [], play: false };
  const missing = want.filter((c) => !sel.taken.some((s) => same(s, c)));
  const extra = sel.taken.some((s) => !want.some((c) => same(s, c)));
  if (extra) return { hand: null, table: [], play: false, clear: true };
  return { hand: null, table: missing.slice(0, 1), play: missing.length === 0 };
}

/**
 * A Konchinka selection: the hand card chosen and the table cards it is to take.
 * @typedef {{card: string | null, taken: string[]}} KonchinkaSelection
 */

/**
 * A Konchinka board. `obs`: the seat's observation; `sel`: {card, taken[]};
 * `other`: the other hand face up (a puzzle) or null (its backs); `expect`: the lesson's
 * taught move or null; `on`: {hand(card), table(card), play(), clear()}.
 * @param {{obs: any, sel: KonchinkaSelection, other?: string[] | null,
 *   expect?: string | null, on: any, playLabel?: string}} board
 */
export function konchinkaBoard({ obs, sel, other = null, expect = null, on, playLabel }) {
  const L = lang();
  const me = obs.seat;
  const them = 1 - me;
  const hint = konchinkaHints(expect, sel);
  const clubs = (list) => list.filter((c) => parseCard(c).suit === "c").length;
  const otherCards = other ? sortCards(other).map((c) => cardElement(c, { lang: L, size: "small" }))
    : Array.from({ length: obs.hand_sizes[them] }, () => cardElement("back", { lang: L, size: "small" }));
  const tableCards = obs.table.map((c) => {
    const chosen = sel.taken.some((s) => same(s, c));
    const glow = hint && hint.table.some((x) => same(x, c)) ? "hint" : "";
    return cardElement(c, { lang: L, selected: chosen, extraClass: glow,
      onClick: obs.to_move === me && !obs.over ? () => on.table(c) : null });
  });
  const hand = sortCards(obs.hand).map((c) => cardElement(c, { lang: L,
    selected: Boolean(sel.card && same(sel.card, c)),
    extraClass: hint && hint.hand && same(hint.hand, c) ? "hint" : "",
    onClick: obs.to_move === me && !obs.over ? () => on.hand(c) : null }));
  const captured = obs.captured;
  return h("div", { class: "teach-board konchinka-board" },
    row("other-hand", t("play.opponentHand", { n: obs.hand_sizes[them] }),
      h("div", { class: "cards-row" }, otherCards)),
    row("table-row", t("play.table"),
      h("div", { class: "cards-row", id: "teach-table" }, tableCards),
      h("p", { class: "muted small" }, t("play.stock", { n: obs.stock_size }), " · ",
        t("play.captured", { mine: captured[me].length, myClubs: clubs(captured[me]),
          theirs: captured[them].length, theirClubs: clubs(captured[them]) }))),
    row("my-hand", t("play.yourHand"), h("div", { class: "cards-row hand-row", id: "teach-hand" }, hand),
      h("div", { class: "teach-actions" },
        h("button", { type: "button", class: `primary ${hint?.play ? "hint" : ""}`, id: "play",
          disabled: !sel.card || obs.over || obs.to_move !== me, onclick: on.play },
        playLabel ?? t("play.play")),
        h("button", { type: "button", class: hint?.clear ? "hint" : "", id: "clear",
          disabled: !sel.card, onclick: on.clear }, t("play.clear")))));
}

/** A Konchinka move in words, e.g. "took 6♥ 4♥ with K♥". */
export function konchinkaWords(text) {
  const L = lang();
  const [card, taken] = text.split(":");
  if (taken === undefined) return t("act.trail", { card: cardShort(card, L) });
  return t("act.capture", { card: cardShort(card, L),
    cards: splitCards(taken).map((c) => cardShort(c, L)).join(" ") });
}

// ---------------------------------------------------------------- Kunken

/**
 * A Kunken action's parts as the engine serves them next to its text (the lesson's
 * `expect_parts` and `bot_parts`, a puzzle's `solution_parts` and `line_parts`:
 * docs/kunken.md, "Action parts"). Nothing here reads an action's text.
 * @typedef {import("./kunkenmoves.js").KunkenStep} KunkenStep
 */

/** A Kunken action in words from its served parts, e.g. "laid A♦ A♥ A♠".
 * @param {KunkenStep} step
 * @param {string[] | null} [bank] the bank before it (a take names the card at its position)
 * @returns {string} */
export function kunkenWords(step, bank = null) {
  const L = lang();
  const short = (/** @type {string} */ c) => cardShort(c, L);
  const cards = step.cards ?? [];
  switch (step.kind) {
    case "draw": return t("act.draw");
    case "take": {
      const at = step.bank ?? 0;
      const card = bank?.[at];
      return t("act.take", { card: card ? short(card) : `#${at}` });
    }
    case "meld": return t("act.meld", { cards: cards.map(short).join(" ") });
    case "layoff": return t("act.layoff", { card: short(cards[0]) });
    case "swap": return t("act.swap", { card: short(cards[0]) });
    default: return t("act.discard", { card: short(cards[0]) });
  }
}

/**
 * What to mark on a Kunken board: the stock, a bank position, the hand card to choose next,
 * a meld to lay off on (or to swap a joker of), the lay-down or the discard button.
 * @typedef {{stock: boolean, bank: number | null, hand: string[], meld: number | null,
 *   layDown: boolean, discard: boolean}} KunkenHints
 */

/** What a lesson's step asks to click next in Kunken, from the taught action's served
 * parts: the stock, the bank position, then the hand cards one by one (a joker of any
 * meaning is the hand's "X") and the button or meld that completes the action.
 * @param {KunkenStep | null} expect the taught action's parts
 * @param {string[]} selCards the hand cards chosen
 * @returns {KunkenHints | null} */
export function kunkenHints(expect, selCards) {
  if (!expect) return null;
  /** @type {KunkenHints} */
  const out = { stock: false, bank: null, hand: [], meld: null, layDown: false, discard: false };
  if (expect.kind === "draw") out.stock = true;
  else if (expect.kind === "take") out.bank = expect.bank ?? 0;
  else {
    const left = [...selCards];
    const missing = [];
    for (const c of (expect.cards ?? []).map(handCard)) {
      const i = left.findIndex((s) => same(s, c));
      if (i >= 0) left.splice(i, 1); else missing.push(c);
    }
    if (missing.length || left.length) out.hand = missing.slice(0, 1);
    else if (expect.kind === "meld") out.layDown = true;
    else if (expect.kind === "discard") out.discard = true;
    else out.meld = expect.meld ?? null;  // a lay-off or a joker swap: the meld
  }
  return out;
}

/**
 * A Kunken board. `obs`: the seat's observation; `sel`: the chosen hand positions (in the
 * sorted hand); `expect`: the parts of the lesson's taught action or null; `on`: {stock(),
 * bank(i), hand(i), meld(index), layDown(), discard()} (a missing one: not clickable).
 * @param {{obs: any, sel: number[], expect?: KunkenStep | null, on: any,
 *   names: Record<number, string>}} board
 */
export function kunkenBoard({ obs, sel, expect = null, on, names }) {
  const L = lang();
  const me = obs.seat;
  const them = 1 - me;
  const hand = sortCards(obs.hand);
  const selCards = sel.map((i) => hand[i]);
  const hint = kunkenHints(expect, selCards);
  const myTurn = obs.to_move === me && !obs.over;
  const stock = h("button", { type: "button", id: "stock",
    class: `stock-pile card ${hint?.stock ? "hint" : ""}`, title: t("play.drawHint"),
    "aria-label": `${t("play.drawHint")} (${obs.stock_size})`,
    disabled: !(on.stock && myTurn && obs.phase === "start"), onclick: on.stock });
  stock.appendChild(present(cardElement("back", { lang: L }).firstChild, "the card back's picture"));
  const bank = obs.bank.map((c, i) => {
    const node = cardElement(c, { lang: L, extraClass: hint && hint.bank === i ? "hint" : "",
      onClick: on.bank && myTurn && obs.phase === "start" ? () => on.bank(i) : null });
    node.dataset.position = String(i);
    return node;
  });
  const melds = obs.melds.map((m) => {
    const who = m.owner === me ? t("learn.you") : names[m.owner];
    const cards = m.cards.map((c) => cardElement(c, { lang: L, size: "small" }));
    const label = t("play.meldOf", { who, points: m.points });
    const canLay = on.meld && myTurn && sel.length === 1;
    return canLay
      ? h("button", { type: "button", class: `meld-box ${hint && hint.meld === m.index ? "hint" : ""}`,
        dataset: { meld: String(m.index) }, onclick: () => on.meld(m.index) },
      h("span", { class: "meld-cards" }, cards), h("span", { class: "small" }, label))
      : h("div", { class: `meld-box ${hint && hint.meld === m.index ? "hint" : ""}`,
        dataset: { meld: String(m.index) } },
      h("span", { class: "meld-cards" }, cards), h("span", { class: "small" }, label));
  });
  const handCards = hand.map((c, i) => {
    const glow = hint && hint.hand.length && same(hint.hand[0], c) && !sel.includes(i)
      && hand.findIndex((x, j) => same(x, c) && !sel.includes(j)) === i ? "hint" : "";
    const node = cardElement(c, { lang: L, selected: sel.includes(i), extraClass: glow,
      onClick: on.hand && myTurn ? () => on.hand(i) : null });
    node.dataset.position = String(i);
    return node;
  });
  return h("div", { class: "teach-board kunken-board" },
    row("other-hand", t("play.opponentHand", { n: obs.hand_sizes[them] }),
      h("div", { class: "cards-row backs" }, Array.from({ length: obs.hand_sizes[them] },
        () => cardElement("back", { lang: L, size: "small" })))),
    row("bank-row", t("play.bank"),
      h("div", { class: "cards-row" }, stock, h("span", { class: "muted small" },
        t("play.stock", { n: obs.stock_size }))),
      h("div", { class: "cards-row", id: "teach-bank" }, bank)),
    row("melds-row", t("play.melds"), melds.length ? h("div", { class: "melds-list" }, melds)
      : h("p", { class: "muted small" }, t("play.noMelds"))),
    row("my-hand", t("play.yourHand"), h("div", { class: "cards-row hand-row", id: "teach-hand" }, handCards),
      on.layDown ? h("div", { class: "teach-actions" },
        h("button", { type: "button", class: `primary ${hint?.layDown ? "hint" : ""}`, id: "lay-down",
          disabled: !myTurn || obs.phase === "start" || sel.length < 3, onclick: on.layDown },
        t("play.layDown")),
        h("button", { type: "button", class: hint?.discard ? "hint" : "", id: "discard",
          disabled: !myTurn || obs.phase === "start" || sel.length !== 1, onclick: on.discard },
        t("play.discard"))) : null));
}
