// The page module of a game an external package ships (tests/e2e/shipped_game): it keeps
// the game-page contract of /static/gamepage.js (render, formatAction, texts, styles) and
// uses the page's shared modules by their addresses. Served at /static/games/shipped/.

import { h } from "/static/dom.js";
import { fill, t } from "/static/i18n.js";
import { TEXTS } from "./texts.js";

export const texts = TEXTS;
export const styles = ["page.css"];

/** An action (a card's value) in words. */
export function formatAction(action, lang) {
  return fill(TEXTS[lang]?.["shipped.played"] ?? TEXTS.en["shipped.played"], { card: action });
}

/** The table cards, and the seat's cards as buttons: a legal one plays itself. */
export function render(container, ctx) {
  const deal = ctx.view.deal ?? {};
  const legal = deal.legal ?? [];
  container.replaceChildren(h("section", { class: "shipped-table", id: "shipped-table" },
    h("h2", {}, t("shipped.table")),
    h("p", { id: "shipped-cards" }, (deal.table ?? []).join(" ")),
    h("h3", {}, t("shipped.hand")),
    h("div", { id: "shipped-hand" }, (deal.hand ?? []).map((card) => h("button", {
      type: "button", class: "shipped-card", "data-card": String(card),
      disabled: ctx.readOnly || !legal.includes(String(card)),
      onclick: () => ctx.play(String(card)),
    }, String(card))))));
}
