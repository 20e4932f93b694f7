// The rules pages, /rules/konchinka and /rules/kunken: what a deal and a match are, the
// card values as pictures, the moves with the book's examples drawn as cards, the scoring
// with a worked example, and every house rule with its explanation (GET /api/catalog's
// `explanations`, the same sentences the lobby form and the terminal's help show). The
// texts are in rulestexts.js, in both languages.

import { cardElement } from "./cards.js";
import { catalogEntry, titled } from "./catalog.js";
import { h, mount } from "./dom.js";
import { lang } from "./i18n.js";
import { LEGEND_TEXTS, RULES_TEXTS } from "./rulestexts.js";
import { link, main, setPage } from "./shell.js";

export const RULES_GAMES = Object.keys(RULES_TEXTS);

/** The address of a game's rules page. */
export function rulesPath(game) {
  return `/rules/${RULES_GAMES.includes(game) ? game : RULES_GAMES[0]}`;
}

/** A row of card pictures; "|" puts a gap between groups (the card that takes, then the
 * cards it takes).
 * @param {string[]} cards
 * @param {string} L the language */
function cardRow(cards, L) {
  /** @type {string[][]} */
  const groups = [[]];
  for (const c of cards) {
    if (c === "|") groups.push([]);
    else groups[groups.length - 1].push(c);
  }
  return h("div", { class: "rules-cards" }, groups.map((g) => h("span", { class: "rules-group" },
    g.map((c) => cardElement(c, { lang: L, size: "small" })))));
}

/** Each card's value in the classic and the Novorossiysk game (a word's key for a jack
 * and a king).
 * @type {[string, number | string, number | string][]} */
const KONCHINKA_LEGEND = [
  ["As", 1, 1], ["2c", 2, 2], ["3d", 3, 3], ["4h", 4, 4], ["5s", 5, 5], ["6c", 6, 6],
  ["7d", 7, 7], ["8h", 8, 8], ["9s", 9, 9], ["Tc", 10, 10], ["Jd", "jack", 11],
  ["Qh", 10, 12], ["Ks", 10, "king"],
];

function konchinkaLegend(L) {
  const w = LEGEND_TEXTS[L];
  const word = (v) => (v === "jack" ? w.jackClassic : v === "king" ? w.kingNovo : String(v));
  return h("table", { class: "legend", id: "legend" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, w.card),
      h("th", { scope: "col" }, w.classic), h("th", { scope: "col" }, w.novo))),
    h("tbody", {}, KONCHINKA_LEGEND.map(([card, classic, novo]) => h("tr", {},
      h("td", {}, cardElement(String(card), { lang: L, size: "small" })),
      h("td", { class: "value" }, word(classic)), h("td", { class: "value" }, word(novo))))));
}

function kunkenLegend(L) {
  const w = LEGEND_TEXTS[L];
  const rows = [[["Ah", "Kc", "Qd", "Js"], "10"], [["Th", "9c", "5d", "2s"], "5"],
    [["X"], w.jokerKunken]];
  return h("table", { class: "legend wide-cards", id: "legend" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, w.card),
      h("th", { scope: "col" }, w.value))),
    h("tbody", {}, rows.map(([cards, value]) => h("tr", {},
      h("td", {}, cards.map((c) => cardElement(c, { lang: L, size: "small" }))),
      h("td", { class: "value" }, value)))));
}

/** Every house rule of `game` with its title and explanation (catalog). */
export function houseRulesList(game, L = lang()) {
  const entry = catalogEntry(game);
  const texts = entry?.explanations || {};
  const items = [];
  if (entry?.variants?.length && texts.variant) {
    items.push(["variant", entry.variants.map((v) => titled(v.title, v.value)).join(" / ")]);
  }
  for (const option of entry?.options || []) items.push([option.name, titled(option.title, option.name)]);
  if (!items.length) return h("p", { class: "muted" }, LEGEND_TEXTS[L].none);
  return h("dl", { class: "house-rules", id: "house-rules-list" }, items.flatMap(([name, title]) => [
    h("dt", { dataset: { rule: name } }, title),
    h("dd", { class: "rule-explain", dataset: { rule: name } }, (texts[name] || {})[L] || "")]));
}

function block(game, item, L) {
  const [kind, a, b] = item;
  if (kind === "h2") return h("h2", { id: b }, a);
  if (kind === "p") return h("p", {}, a);
  if (kind === "ul") return h("ul", {}, a.map((text) => h("li", {}, text)));
  if (kind === "cards") {
    return h("figure", { class: "rules-example" }, cardRow(a, L), h("figcaption", {}, b));
  }
  if (kind === "legend") return game === "kunken" ? kunkenLegend(L) : konchinkaLegend(L);
  if (kind === "houseRules") return houseRulesList(game, L);
  return null;
}

/** The rules page of `game` (konchinka or kunken). */
export function rulesPage(game) {
  const draw = () => {
    const L = lang();
    const texts = RULES_TEXTS[game][L] || RULES_TEXTS[game].en;
    const others = RULES_GAMES.filter((g) => g !== game);
    document.title = `${texts.title} · konkun`;
    mount(main, h("article", { class: "panel rules-page", id: "rules-page", dataset: { game } },
      h("h1", {}, texts.title),
      h("p", { class: "rules-nav" }, LEGEND_TEXTS[L].other, " ", others.map((g) =>
        link(rulesPath(g), RULES_TEXTS[g][L].title)), " · ", link("/", LEGEND_TEXTS[L].play)),
      h("p", { class: "lead" }, texts.intro),
      texts.blocks.map((item) => block(game, item, L))));
  };
  setPage({ destroy() { document.title = "konkun"; }, rerender: draw });
  draw();
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
