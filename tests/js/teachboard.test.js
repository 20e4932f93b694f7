// The teaching pages' Kunken words and hints (teachboard.js), from the parts the learn and
// puzzle APIs serve next to each action text (docs/web.md, "Teaching"): the page tells a
// move and marks what to click from those parts and never splits an action's text.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import { setLang } from "../../src/konkun/server/static/i18n.js";
import { kunkenHints, kunkenWords } from "../../src/konkun/server/static/teachboard.js";

afterEach(() => setLang("en"));

/** @typedef {import("../../src/konkun/server/static/teachboard.js").KunkenStep} KunkenStep */

/** @type {Record<string, KunkenStep>} */
const STEP = {
  draw: { kind: "draw" },
  take: { kind: "take", bank: 1 },
  meld: { kind: "meld", cards: ["5s", "X=6s", "7s", "8s"], jokers: ["6s"], points: 20 },
  layoff: { kind: "layoff", cards: ["9s"], meld: 2 },
  swap: { kind: "swap", cards: ["6s"], meld: 0 },
  discard: { kind: "discard", cards: ["Jh"] },
};
const BANK = ["Kd", "7c", "As"];

test("a Kunken move is told in words from its served parts, in English", () => {
  assert.equal(kunkenWords(STEP.draw), "drew from the stock");
  assert.equal(kunkenWords(STEP.take, BANK), "took the bank from 7♣");
  assert.equal(kunkenWords(STEP.take), "took the bank from #1");  // no bank known
  assert.equal(kunkenWords(STEP.meld), "laid 5♠ ★6♠ 7♠ 8♠");
  assert.equal(kunkenWords(STEP.layoff), "added 9♠");
  assert.equal(kunkenWords(STEP.swap), "swapped 6♠ for a joker");
  assert.equal(kunkenWords(STEP.discard), "discarded J♥");
});

test("a Kunken move is told in words from its served parts, in Russian", () => {
  setLang("ru");
  assert.equal(kunkenWords(STEP.draw), "взял карту из колоды");
  assert.equal(kunkenWords(STEP.take, BANK), "взял банк с карты 7♣");
  assert.equal(kunkenWords(STEP.meld), "выложил 5♠ ★6♠ 7♠ 8♠");
  assert.equal(kunkenWords(STEP.layoff), "добавил 9♠");
  assert.equal(kunkenWords(STEP.swap), "обменял 6♠ на джокера");
  assert.equal(kunkenWords(STEP.discard), "сбросил В♥");
});

const NONE = { stock: false, bank: null, hand: [], meld: null, layDown: false, discard: false };

test("a taught draw or take marks the stock or the bank position it names", () => {
  assert.equal(kunkenHints(null, []), null);
  assert.deepEqual(kunkenHints(STEP.draw, []), { ...NONE, stock: true });
  assert.deepEqual(kunkenHints(STEP.take, []), { ...NONE, bank: 1 });
  assert.deepEqual(kunkenHints({ kind: "take", bank: 0 }, []), { ...NONE, bank: 0 });
});

test("a taught meld marks its hand cards one by one (a joker as the hand's X), then Lay down", () => {
  assert.deepEqual(kunkenHints(STEP.meld, []), { ...NONE, hand: ["5s"] });
  assert.deepEqual(kunkenHints(STEP.meld, ["5s"]), { ...NONE, hand: ["X"] });
  assert.deepEqual(kunkenHints(STEP.meld, ["5s", "X", "7s"]), { ...NONE, hand: ["8s"] });
  assert.deepEqual(kunkenHints(STEP.meld, ["8s", "X", "7s", "5s"]), { ...NONE, layDown: true });
  // a card chosen that the meld does not use: nothing completes it
  assert.deepEqual(kunkenHints(STEP.meld, ["5s", "X", "7s", "8s", "Jh"]), NONE);
});

test("a taught lay-off or joker swap marks its card, then the meld it names", () => {
  assert.deepEqual(kunkenHints(STEP.layoff, []), { ...NONE, hand: ["9s"] });
  assert.deepEqual(kunkenHints(STEP.layoff, ["9s"]), { ...NONE, meld: 2 });
  assert.deepEqual(kunkenHints(STEP.swap, ["6s"]), { ...NONE, meld: 0 });
});

test("a taught discard marks its card, then Discard", () => {
  assert.deepEqual(kunkenHints(STEP.discard, []), { ...NONE, hand: ["Jh"] });
  assert.deepEqual(kunkenHints(STEP.discard, ["Jh"]), { ...NONE, discard: true });
  assert.deepEqual(kunkenHints(STEP.discard, ["7c"]), { ...NONE, hand: ["Jh"] });
});

// The teaching page modules build action texts to send, but never read one apart: no
// splitting on spaces, no Kunken verb looked for at a text's start, and a verb compared
// only as a served step's kind.
const MODULES = ["teachboard.js", "learn.js", "puzzles.js"];
const SPLIT_WORDS = /\.split\(\s*(?:" "|' '|\/ \+?\/|\/\\s\+?\/)\s*\)/;
const VERB_AT_START = /(?:startsWith\(\s*|\^\(?)["'`]?(?:draw|take|meld|layoff|swap|discard)\b/;
const VERB_COMPARED = /(?<!\.kind\s*)(?<![!=])[!=]==?\s*["'`](?:draw|take|meld|layoff|swap|discard)["'`]/;

test("the teaching page modules split no action text and read no Kunken verb from one", () => {
  for (const name of MODULES) {
    const source = readFileSync(new URL(`../../src/konkun/server/static/${name}`,
      import.meta.url), "utf-8");
    assert.doesNotMatch(source, SPLIT_WORDS, `${name} splits a text on spaces`);
    assert.doesNotMatch(source, VERB_AT_START, `${name} reads a Kunken verb from a text`);
    assert.doesNotMatch(source, VERB_COMPARED, `${name} compares a Kunken verb not as a kind`);
  }
});
