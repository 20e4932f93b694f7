// The page's texts (i18n.js): counted nouns in each language's plural forms, placeholders,
// the English fallback and error codes.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { errorText, fill, has, lang, plural, setLang, t }
  from "../../src/konkun/server/static/i18n.js";

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
