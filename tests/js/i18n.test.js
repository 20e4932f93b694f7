// The page's texts (i18n.js): counted nouns in each language's plural forms, placeholders,
// the English fallback and error codes.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import { tx } from "../../src/konkun/server/static/analysis.js";
import { registerGamePage } from "../../src/konkun/server/static/gamepage.js";
import { errorText, fill, has, lang, plural, setLang, t }
  from "../../src/konkun/server/static/i18n.js";
import * as kunken from "../../src/konkun/server/static/kunken.js";

// Kunken's texts come with its game page, as the page registry adds them (gamepage.js)
registerGamePage("kunken", kunken, new URL("../../src/konkun/server/static/kunken.js",
  import.meta.url));

afterEach(() => setLang("en"));

test("with nothing stored and an English browser the page speaks English", () => {
  assert.equal(lang(), "en");
});

test("English counts one, and many for everything else", () => {
  assert.deepEqual([0, 1, 2, 5, 21].map((n) => plural(n, "move")),
    ["0 moves", "1 move", "2 moves", "5 moves", "21 moves"]);
  assert.equal(plural(1, "inaccuracy"), "1 inaccuracy");
  assert.equal(plural(3, "inaccuracy"), "3 inaccuracies");
});

test("Russian chooses one, few and many by the last digits: 1 ход, 3 хода, 5 ходов", () => {
  setLang("ru");
  assert.deepEqual([1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map((n) => plural(n, "move")),
    ["1 ход", "2 хода", "4 хода", "5 ходов", "11 ходов", "12 ходов", "14 ходов", "21 ход",
      "22 хода", "25 ходов", "101 ход", "111 ходов"]);
  assert.deepEqual([1, 2, 5].map((n) => plural(n, "deal")), ["1 раздача", "2 раздачи", "5 раздач"]);
  assert.equal(plural(21, "point"), "21 очка", "«до 21 очка»: the genitive");
  assert.equal(plural(1.5, "move"), "1.5 хода", "a fraction takes the form 'other'");
});

test("a noun Russian lacks falls back to the English forms; an unknown noun is the number", () => {
  setLang("ru");
  assert.equal(plural(2, "mistake"), "2 mistakes");
  assert.equal(plural(7, "nonsense"), "7");
});

test("fill replaces named placeholders and counted ones, and leaves unknown ones", () => {
  assert.equal(fill("{name} made {n:move} in {d}", { name: "Ann", n: 3 }),
    "Ann made 3 moves in {d}");
  setLang("ru");
  assert.equal(fill("{n:deal}", { n: 22 }), "22 раздачи");
});

test("setLang ignores a language the page has no texts for", () => {
  setLang("de");
  assert.equal(lang(), "en");
  setLang("ru");
  assert.equal(lang(), "ru");
  assert.equal(localStorage.getItem("konkun.lang"), "ru", "the choice is remembered");
});

test("t gives the current language's text, then English, then the key itself", () => {
  assert.equal(t("r.discarded"), "discarded");
  setLang("ru");
  assert.equal(t("r.discarded"), "сбросил(а)");
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(has("no.such.key"), false);
});

test("an error code becomes the player's text; an unknown code is named in it", () => {
  assert.ok(has("err.unknown"));
  const unknown = errorText("no_such_code");
  assert.ok(unknown.includes("no_such_code"), unknown);
  assert.notEqual(unknown, "err.unknown");
});

/** The page's counted texts for 1, 2, 5 and 21: the log's deal, a deal ended by the stock,
 * the fair-deal verdict, the analysis's lost points and its marks. */
function countedTexts() {
  return [1, 2, 5, 21].map((n) => [
    t("log.deal", { n: 1, count: n }),
    t("end.stockOut", { n }),
    t("fair.ok", { c: n, d: n }),
    tx("lost", { lost: 2, moves: n }),
    tx("marks", { inaccuracy: n, mistake: n, blunder: n }),
  ]);
}

// converted from the browser test test_rough_edges.py
test("the page's counted texts take the plural form of their number in English", () => {
  const [one, two, five] = countedTexts();
  assert.equal(one[0], "Deal 1 · 1 move");
  assert.equal(two[0], "Deal 1 · 2 moves");
  assert.ok(one[1].includes("after 1 renewal of the bank"), one[1]);
  assert.ok(one[2].includes("the random values of 1 player;"), one[2]);
  assert.ok(one[2].includes("(1 deal recomputed)"), one[2]);
  assert.ok(two[2].includes("the random values of 2 players;"), two[2]);
  assert.ok(two[2].includes("(2 deals recomputed)"), two[2]);
  assert.equal(one[3], "2 expected points lost in 1 move");
  assert.equal(one[4], "1 inaccuracy, 1 mistake, 1 blunder");
  assert.equal(five[4], "5 inaccuracies, 5 mistakes, 5 blunders");
});

test("the page's counted texts take the plural form of their number in Russian", () => {
  setLang("ru");
  const [one, two, five, twentyOne] = countedTexts();
  assert.deepEqual([one[0], two[0], five[0], twentyOne[0]],
    ["Кон 1 · 1 ход", "Кон 1 · 2 хода", "Кон 1 · 5 ходов", "Кон 1 · 21 ход"]);
  assert.ok(one[1].includes("после 1 переворота банка"), one[1]);
  assert.ok(five[1].includes("после 5 переворотов банка"), five[1]);
  assert.ok(one[2].includes("чисел 1 игрока;"), one[2]);
  assert.ok(five[2].includes("чисел 5 игроков;"), five[2]);
});

/** Every error code the server sends (kept equal to the server's by
 * tests/server/test_page_error_codes.py). */
const ERROR_CODES = JSON.parse(readFileSync(new URL("./error_codes.json", import.meta.url),
  "utf8")).codes;

// converted from the browser test test_site.py
test("every server error code has the player's text in both languages", () => {
  assert.ok(ERROR_CODES.length > 40 && ERROR_CODES.includes("stale_turn"));
  /** @type {Record<string, Record<string, string>>} */
  const texts = {};
  for (const code of ["en", "ru"]) {
    setLang(code);
    texts[code] = Object.fromEntries(ERROR_CODES.map((/** @type {string} */ c) =>
      [c, errorText(c)]));
  }
  for (const code of ["en", "ru"]) {
    for (const [error, text] of Object.entries(texts[code])) {
      assert.ok(!text.includes(error), `${code} ${error}: "${text}" is the fallback`);
      assert.ok(text.length > 8, `${code} ${error}: "${text}"`);
    }
  }
  assert.notEqual(texts.en.stale_turn, texts.ru.stale_turn);
});
