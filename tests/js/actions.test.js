// The games' actions as the page shows them: Kunken's served steps told in words, the
// jokers' meanings from the served alternatives, a turn's end and hand order
// (kunkenmoves.js; the chosen order kept by kunken.js); Konchinka's legal moves grouped by hand card, its move text and the score
// sheet (konchinkamoves.js); card texts (cards.js).

import "./browser_globals.js";

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { cardName, cardShort, parseCard, sortCards, splitCards }
  from "../../src/konkun/server/static/cards.js";
import * as konchinka from "../../src/konkun/server/static/konchinkamoves.js";
import * as kunken from "../../src/konkun/server/static/kunkenmoves.js";
import * as kunkenPage from "../../src/konkun/server/static/kunken.js";
import { registerGamePage } from "../../src/konkun/server/static/gamepage.js";
import { setLang } from "../../src/konkun/server/static/i18n.js";

const { handSort } = kunkenPage;
// Kunken's words come with its game page, as the page registry adds them (gamepage.js)
registerGamePage("kunken", kunkenPage, new URL("../../src/konkun/server/static/kunken.js",
  import.meta.url));

afterEach(() => setLang("en"));

// ---------------------------------------------------------------- cards

test("a card text parses to rank and suit; 10 is read as T; a joker may name its card", () => {
  assert.deepEqual(parseCard("Td"), { rank: "T", suit: "d", joker: false, text: "Td", as: null });
  assert.deepEqual(parseCard("10h"), { rank: "T", suit: "h", joker: false, text: "Th", as: null });
  assert.deepEqual(parseCard(" qs "), { rank: "Q", suit: "s", joker: false, text: "Qs", as: null });
  assert.deepEqual(parseCard("X=7d"), { rank: null, suit: null, joker: true, text: "X=7d", as: "7d" });
  assert.equal(parseCard("X").as, null);
});

test("a run of cards written together splits into card texts", () => {
  assert.deepEqual(splitCards("As7h2c"), ["As", "7h", "2c"]);
  assert.deepEqual(splitCards("10dX=Kh3s"), ["10d", "X=Kh", "3s"]);
  assert.deepEqual(splitCards("-"), []);
  assert.deepEqual(splitCards(""), []);
});

test("cards sort by suit (clubs first) then rank (2 to A), jokers last", () => {
  assert.deepEqual(sortCards(["X", "As", "2s", "Kc", "2c", "Td"]), ["2c", "Kc", "Td", "2s", "As", "X"]);
});

test("a card's short text and spoken name in both languages", () => {
  assert.equal(cardShort("Td"), "10♦");
  assert.equal(cardShort("Qs", "ru"), "Д♠");
  assert.equal(cardShort("X=Ah", "ru"), "★Т♥");
  assert.equal(cardName("Qd"), "queen of diamonds");
  assert.equal(cardName("Qd", "ru"), "дама бубен");
  assert.equal(cardName("X=7h"), "joker (seven of hearts)");
});

// ---------------------------------------------------------------- Kunken

test("a served Kunken step is told in the past in the log and as an offer on its button", () => {
  assert.equal(kunken.tellStep({ kind: "draw" }, "en"), "drew from the stock");
  assert.equal(kunken.tellStep({ kind: "draw" }, "en", true), "Draw from the stock");
  assert.equal(kunken.tellStep({ kind: "take", bank: 0 }, "en"), "took the bank from card 1");
  assert.equal(kunken.tellStep({ kind: "meld", cards: ["Kc", "Kd", "X"], points: 30 }, "en"),
    "laid down: K♣ K♦ ★");
  assert.equal(kunken.tellStep({ kind: "layoff", cards: ["Th"], meld: 1 }, "en", true),
    "Lay off: 10♥ → #2");
  assert.equal(kunken.tellStep({ kind: "discard", cards: ["2d"] }, "en"), "discarded: 2♦");
});

test("the page module's formatAction tells the served parts; without them the text as sent", () => {
  assert.equal(kunken.formatAction("discard 2d", "en", { kind: "discard", cards: ["2d"] }),
    "discarded: 2♦");
  assert.equal(kunken.formatAction("pass", "en"), "pass", "no parts: shown as sent");
});

test("a served Kunken step in Russian has Russian words and card letters", () => {
  setLang("ru");
  assert.equal(kunken.tellStep({ kind: "meld", cards: ["Ac", "Ad", "As"], points: 30 }, "ru"),
    "выложил(а): Т♣ Т♦ Т♠");
  assert.equal(kunken.tellStep({ kind: "swap", cards: ["Qh"], meld: 2 }, "ru"),
    "заменил(а) джокера: Д♥ → #3");
  assert.equal(kunken.tellStep({ kind: "take", bank: 4 }, "ru"), "взял(а) банк с карты №5");
  assert.equal(kunken.tellStep({ kind: "discard", cards: ["9s"] }, "ru", true), "Сбросить: 9♠");
});

test("a step's hand cards: each joker, whatever it stands for, is the hand's X", () => {
  assert.deepEqual(kunken.handCardsOf({ kind: "meld", cards: ["7h", "8h", "X=9h"] }),
    ["7h", "8h", "X"]);
  assert.deepEqual(kunken.handCardsOf({ kind: "draw" }), []);
  assert.equal(kunken.handCard("X=Qs"), "X");
  assert.equal(kunken.handCard("10h"), "Th");
});

test("the hand sorts by suit, or by rank when the person chose it; jokers last", () => {
  const hand = ["X", "Kc", "2h", "Kd", "2c", "As"];
  assert.deepEqual(kunken.sortHand(hand, "suit"), ["2c", "Kc", "Kd", "2h", "As", "X"]);
  assert.deepEqual(kunken.sortHand(hand, "rank"), ["2c", "2h", "Kc", "Kd", "As", "X"]);
  assert.deepEqual(hand, ["X", "Kc", "2h", "Kd", "2c", "As"], "the hand itself is left alone");
});

test("the chosen hand order is kept per player, suit unless rank was chosen", () => {
  localStorage.removeItem("konkun.kunkenSort.guest");
  assert.equal(handSort(), "suit");
  localStorage.setItem("konkun.kunkenSort.guest", "rank");
  assert.equal(handSort(), "rank");
  localStorage.setItem("konkun.kunkenSort.guest", "nonsense");
  assert.equal(handSort(), "suit");
});

test("a joker's meaning and its other meanings come from the served steps' alternatives", () => {
  // as the engine serves them: the first three differ only in the joker's meaning
  const steps = [
    { kind: "meld", cards: ["7h", "8h", "X=9h"], points: 15, jokers: ["9h"], alternatives: [1, 2] },
    { kind: "meld", cards: ["7h", "8h", "X=6h"], points: 15, jokers: ["6h"], alternatives: [0, 2] },
    { kind: "meld", cards: ["X=6h", "7h", "8h"], points: 15, jokers: ["6h"], alternatives: [0, 1] },
    { kind: "meld", cards: ["7c", "8c", "X=9c"], points: 15, jokers: ["9c"] },
    { kind: "discard", cards: ["2d"] }];
  assert.deepEqual(kunken.jokerChoices(steps, 0), { meant: ["9h"], others: ["6h"] },
    "another meaning is named once");
  assert.deepEqual(kunken.jokerChoices(steps, 1), { meant: ["6h"], others: ["9h"] });
  assert.deepEqual(kunken.jokerChoices(steps, 3), { meant: ["9c"], others: [] });
  assert.deepEqual(kunken.jokerChoices(steps, 4), { meant: [], others: [] }, "no joker");
});

test("a Kunken turn ends with its discard and no other action (the served kind)", () => {
  const steps = [{ kind: "discard", cards: ["2d"] }, { kind: "draw" }, { kind: "take", bank: 1 },
    { kind: "meld", cards: ["7c", "8c", "9c"] }, { kind: "layoff", cards: ["2h"], meld: 0 },
    { kind: "swap", cards: ["Qs"], meld: 1 }];
  assert.deepEqual(steps.map((p) => kunken.endsTurn("", p)),
    [true, false, false, false, false, false]);
  assert.equal(kunken.endsTurn("discard 2d"), false, "without the served parts: not read");
});

// ---------------------------------------------------------------- Konchinka

test("Konchinka's legal moves group by hand card: its trail and its captures, most cards first", () => {
  const grouped = konchinka.groupLegal(["Qd", "Qd:Qs", "Qd:As9h", "7h:As6c", "10h:Th"]);
  assert.deepEqual(Object.keys(grouped).sort(), ["7h", "Qd", "Th"]);
  assert.deepEqual(grouped.Qd, { trail: "Qd", captures: [
    { text: "Qd:As9h", cards: ["As", "9h"] }, { text: "Qd:Qs", cards: ["Qs"] }] });
  assert.deepEqual(grouped["7h"], { trail: null, captures: [{ text: "7h:As6c", cards: ["As", "6c"] }] });
  assert.equal(grouped.Th.captures[0].text, "10h:Th", "the text is sent back as the server gave it");
});

test("Konchinka captures of one size keep a stable order by their text", () => {
  const grouped = konchinka.groupLegal(["Kc:Ts", "Kc:Qh", "Kc:Kd", "Kc:5h5d"]);
  assert.deepEqual(grouped.Kc.captures.map((c) => c.text), ["Kc:5h5d", "Kc:Kd", "Kc:Qh", "Kc:Ts"]);
});

test("a Konchinka move as text: a trail, a capture", () => {
  assert.equal(konchinka.formatAction("Qd", "en"), "Q♦ →");
  assert.equal(konchinka.formatAction("Qd:Ac7h2c", "en"), "Q♦ × A♣ 7♥ 2♣");
  assert.equal(konchinka.formatAction("Kh:Td", "ru"), "К♥ × 10♦");
});

// converted from the browser test test_match_end.py
test("the score sheet writes a new total only when it changes; an empty column shows 0", () => {
  assert.deepEqual(konchinka.writtenTotals([0, 0, 1, 3, 3, 5]), [1, 3, 5]);
  assert.deepEqual(konchinka.writtenTotals([0, 0]), [0]);
  assert.deepEqual(konchinka.writtenTotals([2, 2, 7]), [2, 7]);
  assert.deepEqual(konchinka.writtenTotals([]), [0]);
});
