// The coach's Konchinka texts (coach.js) from the engine's explanations (the shapes of
// konchinka/explain.py, whose sums and reasons tests/konchinka/test_konchinka_explain.py
// checks): a capture's sum that adds up to the played card, why a card takes nothing, and
// a seat's deal points by their reasons with each reason's points shown, in English and in
// Russian (a Russian text shows no English). The page shows them in the game's choices and
// on the deal-end screen (tests/e2e/test_teaching.py plays a deal through the page).

import "./browser_globals.js";

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { captureSumText, reasonsText, trailWhyText }
  from "../../src/konkun/server/static/coach.js";
import { setLang } from "../../src/konkun/server/static/i18n.js";

afterEach(() => setLang("en"));

const VALUES = /** @type {Record<string, number>} */ ({ A: 1, T: 10, J: 0, Q: 10, K: 10 });

/** A card's classic value from its text (``Qd``: 10), written out here. */
function classicValue(/** @type {string} */ card) {
  const rank = card.slice(0, -1);
  return rank in VALUES ? VALUES[rank] : Number(rank);
}

/** The engine's explanation of `card` taking `taken` by their sum (classic values). */
function sumExplain(/** @type {string} */ card, /** @type {string[]} */ taken) {
  const sum = taken.reduce((total, c) => total + classicValue(c), 0);
  return { kind: "sum", card, value: classicValue(card), sum,
    parts: taken.map((c) => ({ card: c, value: classicValue(c) })) };
}

/** The Latin words of a text (none may show on a Russian page). */
function englishWords(/** @type {string} */ text) {
  return text.match(/[A-Za-z]{2,}/g) || [];
}

const CAPTURES = /** @type {[string, string[]][]} */ ([
  ["Qd", ["7c", "2h", "As"]], ["9h", ["4c", "5d"]], ["Kc", ["Th"]], ["3s", ["As", "2d"]],
  ["Tc", ["6h", "3c", "As"]],
]);

for (const L of ["en", "ru"]) {
  test(`a capture's sum adds up to the played card's value (${L})`, () => {
    setLang(L);
    for (const [card, taken] of CAPTURES) {
      const text = captureSumText(sumExplain(card, taken), L);
      const total = taken.reduce((sum, c) => sum + classicValue(c), 0);
      assert.match(text, new RegExp(`^[0-9AKQJТКДВ+]+ = ${total} = \\S+$`), text);
      assert.equal(total, classicValue(card));
      assert.equal(text.split(" = ")[0].split("+").length, taken.length, text);
      if (L === "ru") assert.deepEqual(englishWords(text), [], text);
    }
  });

  test(`a card that can take nothing says why (${L})`, () => {
    setLang(L);
    const text = trailWhyText({ kind: "trail", card: "9h", reason: "no_sum", sums: [9] }, L);
    assert.ok(text.length > 20, text);
    assert.match(text, /9/);
    assert.ok(trailWhyText({ kind: "trail", card: "9h", reason: "empty_table", sums: [9] }, L));
    if (L === "ru") assert.deepEqual(englishWords(text), [], text);
  });

  test(`a seat's deal points are shown by their reasons, each with its points (${L})`, () => {
    setLang(L);
    const reasons = [{ reason: "most_cards", points: 2 }, { reason: "most_clubs", points: 1 },
      { reason: "two_clubs", points: 1 }, { reason: "ten_diamonds", points: 1 }];
    for (let n = 1; n <= reasons.length; n += 1) {
      const some = reasons.slice(reasons.length - n);
      const text = reasonsText(some);
      const shown = [...text.matchAll(/\+(\d+)/g)].map((m) => Number(m[1]));
      assert.deepEqual(shown, some.map((r) => r.points), text);
      assert.equal(text.split(" · ").length, some.length, text);
      if (L === "ru") assert.deepEqual(englishWords(text), [], text);
    }
    assert.ok(reasonsText([]).length > 0);
    if (L === "ru") assert.deepEqual(englishWords(reasonsText([])), []);
  });
}
