// The end-of-deal screen (GET /api/tables/{id}/deals/{n}: every seat's view of the deal as
// it ended). Konchinka: each seat's cards, clubs and кончинки with their points, and the
// cards left on the table with who took them. Kunken: how the deal ended, each seat's
// melds, lay-offs and the hand left, with the plus and minus. Dismissed by a button, Esc,
// or by itself after some seconds.

import { cardElement, cardShort } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { meldCardPoints } from "./kunken.js";

const AUTO_CLOSE_S = 12;

/** Seconds before the screen closes by itself: less on a clocked table, so the next deal's
 * first move keeps most of its time. */
function autoCloseSeconds(moveSeconds) {
  return moveSeconds ? Math.max(3, Math.min(AUTO_CLOSE_S, Math.floor(moveSeconds / 3)))
    : AUTO_CLOSE_S;
}

function minis(cards, lang, extra = () => "") {
  return h("span", { class: "mini" }, cards.map((c, i) => cardElement(c, { lang, size: "tiny",
    extraClass: extra(i) })));
}

function konchinkaBody(end, names, lang) {
  const view = end.views[0];
  const rows = view.score.seats.map((s, i) => h("tr", {}, h("th", { scope: "row" }, names[i]),
    h("td", {}, String(s.cards)), h("td", {}, String(s.clubs)),
    h("td", {}, minis(end.views[0].captured[i].filter((c) => c === "2c" || c === "Td"), lang)),
    h("td", { class: "pts" }, h("strong", {}, String(s.points)))));
  const sweep = view.final_sweep;
  return [h("table", { class: "end-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("k.cardsShort")),
      h("th", {}, "♣"), h("th", {}, t("k.konchinki")), h("th", {}, t("k.points")))),
    h("tbody", {}, rows)),
  sweep && sweep.cards.length ? h("p", { class: "leftover", id: "deal-end-leftover" },
    t("end.leftover", { name: names[sweep.seat] }), " ", minis(sweep.cards, lang))
    : h("p", { class: "leftover", id: "deal-end-leftover" }, t("end.noLeftover"))];
}

function kunkenBody(end, names, lang) {
  const view = end.views[0];
  const how = view.winner !== null && view.winner !== undefined
    ? t(view.express ? "end.express" : "end.wentOut", { name: names[view.winner] })
    : t("end.stockOut", { n: view.renewals_used });
  const seats = end.views.map((v, s) => {
    const own = view.melds.filter((m) => m.owner === s);
    const layoffs = view.melds.flatMap((m) => m.cards.filter((_, i) => m.laid_by[i] === s
      && m.owner !== s).map((c) => ({ card: c, meld: m })));
    const plus = view.melds.reduce((sum, m) => sum + m.cards.reduce((p, c, i) =>
      p + (m.laid_by[i] === s ? meldCardPoints(c, m.cards) : 0), 0), 0);
    const total = end.points[s];
    const minus = plus - total;
    return h("section", { class: "end-seat", dataset: { seat: s } },
      h("h3", {}, names[s], " ", h("span", { class: `pts ${total < 0 ? "neg" : ""}` },
        String(total))),
      h("p", {}, t("end.melds"), ": ", own.length ? own.map((m) => minis(m.cards, lang,
        (i) => (m.laid_by[i] !== m.owner ? "laid-off" : ""))) : t("r.noMelds")),
      layoffs.length ? h("p", {}, t("end.layoffs"), ": ",
        layoffs.map((x) => cardShort(x.card, lang)).join(" ")) : null,
      h("p", {}, t("end.handLeft"), ": ", v.hand.length ? minis(v.hand, lang) : "—"),
      h("p", { class: "muted small" }, t("end.plusMinus", { plus, minus })));
  });
  return [h("p", { class: "how", id: "deal-end-how" }, how), h("div", { class: "end-seats" },
    seats)];
}

/** Show deal `end` over the table; `onClose` when it is dismissed (by the button, Esc, or
 * the countdown, which a finished match does not have). */
export function showDealEnd(end, game, names, lang,
  { over = false, onClose = null, moveSeconds = 0 } = {}) {
  document.getElementById("deal-end")?.remove();
  let left = autoCloseSeconds(moveSeconds);
  const countdown = over ? null : h("p", { class: "muted small countdown",
    id: "deal-end-countdown", "aria-live": "off" }, t("end.nextIn", { s: left }));
  const tick = () => {
    left -= 1;
    if (left <= 0) close();
    else if (countdown) countdown.textContent = t("end.nextIn", { s: left });
  };
  const close = () => {
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
    dialog.remove();
    onClose?.();
  };
  const onKey = (ev) => {
    if (ev.key === "Escape") close();
  };
  const body = game === "kunken" ? kunkenBody(end, names, lang) : konchinkaBody(end, names, lang);
  const dialog = h("div", { class: "deal-end-backdrop", id: "deal-end", role: "dialog",
    "aria-modal": "true", "aria-labelledby": "deal-end-title" },
  h("div", { class: "deal-end panel" },
    h("h2", { id: "deal-end-title" }, t("end.title", { n: end.deal })), body,
    h("button", { type: "button", class: "primary", id: "deal-end-close", onclick: close },
      over ? t("end.closeOver") : t("end.close")), countdown));
  const timer = over ? null : setInterval(tick, 1000);
  document.addEventListener("keydown", onKey);
  document.body.appendChild(dialog);
  dialog.querySelector("#deal-end-close").focus({ preventScroll: true });
}
