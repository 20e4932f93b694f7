// How the match log tells a Kunken turn and names the bots (kunkenmoves.js, catalog.js):
// each action as done, in the past («сбросил(а): 7♥», never the button's «Сбросить»), and
// every bot named with a capital, numbered when two are alike. These were the browser test
// test_the_kunken_log_tells_moves_in_the_past_and_bots_are_named_alike
// (tests/e2e/test_rough_edges.py); the bots the server offers are checked by
// tests/server/test_bot_names.py.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { botName, seatNames, setOfferedBots } from "../../src/konkun/server/static/catalog.js";
import { registerGamePage } from "../../src/konkun/server/static/gamepage.js";
import { setLang, t } from "../../src/konkun/server/static/i18n.js";
import * as kunkenPage from "../../src/konkun/server/static/kunken.js";
import * as kunken from "../../src/konkun/server/static/kunkenmoves.js";

// Kunken's words come with its game page, as the page registry adds them (gamepage.js)
registerGamePage("kunken", kunkenPage, new URL("../../src/konkun/server/static/kunken.js",
  import.meta.url));

afterEach(() => {
  setLang("en");
  setOfferedBots([]);
});

/** @type {import("../../src/konkun/server/static/kunkenmoves.js").KunkenStep[]} */
const STEPS = [{ kind: "draw" }, { kind: "take", bank: 0 },
  { kind: "meld", cards: ["7c", "8c", "9c"], meld: 0 }, { kind: "layoff", cards: ["Tc"], meld: 0 },
  { kind: "swap", cards: ["Kc"], meld: 1 }, { kind: "discard", cards: ["7h"] }];

const PAST = { en: ["drew from the stock", "discarded: 7♥"],
  ru: ["взял(а) карту из колоды", "сбросил(а): 7♥"] };

for (const lang of /** @type {const} */ (["en", "ru"])) {
  test(`the log tells a Kunken turn in the past, never in the buttons' words (${lang})`, () => {
    setLang(lang);
    const told = STEPS.map((step) => kunken.formatAction("served as parts", lang, step));
    assert.equal(told[0], PAST[lang][0]);
    assert.equal(told[5], PAST[lang][1]);
    for (const [i, step] of STEPS.entries()) {
      const offer = kunken.tellStep(step, lang, true).split(":")[0];
      assert.ok(!told[i].includes(offer), `${told[i]} says the button's ${offer}`);
      for (const word of ["Discard", "Сбросить"]) assert.ok(!told[i].includes(word), told[i]);
    }
  });
}

test("two greedy bots are named alike with a capital, a number and the bot mark", () => {
  const table = { seats: [{ seat: 0, kind: "bot", bot: "greedy", name: "greedy" },
    { seat: 1, kind: "bot", bot: "greedy", name: "greedy" }] };
  assert.deepEqual(seatNames(/** @type {any} */ (table)), ["Greedy 1 (bot)", "Greedy 2 (bot)"]);
  setLang("ru");
  assert.deepEqual(seatNames(/** @type {any} */ (table)), ["Жадный 1 (бот)", "Жадный 2 (бот)"]);
});

test("a bot offered in the lobby is named in the page's language: the server's names first, "
  + "else the page's word for its kind, each with a capital", () => {
  setOfferedBots([{ spec: "strong", name: "Strong", description: "",
    names: { en: "Strong", ru: "Сильный" } }]);
  for (const lang of ["en", "ru"]) {
    setLang(lang);
    const names = ["strong", "random", "greedy"].map(botName);
    assert.deepEqual(names.map((n) => n[0] === n[0].toUpperCase() && n[0] !== n[0].toLowerCase()),
      [true, true, true], names.join(", "));
    assert.equal(names[0], lang === "en" ? "Strong" : "Сильный");
    assert.equal(t("table.bot"), lang === "en" ? "bot" : "бот");
  }
});
