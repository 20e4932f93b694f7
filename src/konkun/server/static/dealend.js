// The end-of-deal screen (GET /api/tables/{id}/deals/{n}: every seat's view of the deal as
// it ended). What it shows is the game's: its page module's `dealEndBody(end, names, lang)`
// (Konchinka: each seat's cards, clubs and кончинки; Kunken: each seat's melds, lay-offs
// and the hand left); a game without one gets each seat's points for the deal. Dismissed
// by a button, Esc, or by itself after some seconds, unless paused (a newcomer reading it):
// the next deal waits on this page until the person goes on.

import { cardElement } from "./cards.js";
import { RENDERERS } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const AUTO_CLOSE_S = 12;

/** Seconds before the screen closes by itself: less on a clocked table, so the next deal's
 * first move keeps most of its time.
 * @param {number} moveSeconds the table's move clock (0: none)
 * @returns {number} */
function autoCloseSeconds(moveSeconds) {
  return moveSeconds ? Math.max(3, Math.min(AUTO_CLOSE_S, Math.floor(moveSeconds / 3)))
    : AUTO_CLOSE_S;
}

/** A row of tiny cards; `extra(i)` is the class of the i-th.
 * @param {string[]} cards
 * @param {string} lang
 * @param {(i: number) => string} [extra]
 * @returns {HTMLSpanElement} */
export function minis(cards, lang, extra = () => "") {
  return h("span", { class: "mini" }, cards.map((c, i) => cardElement(c, { lang, size: "tiny",
    extraClass: extra(i) })));
}

/**
 * A scored deal (GET /api/tables/{id}/deals/{n}): its number, the turn it ended at, each
 * seat's points and each seat's view of the deal as it ended.
 * @typedef {{deal: number, turn?: number, points: number[], views: import("./pagetypes.js").View[],
 *   [field: string]: any}} DealEnd
 */

/** A game whose page module has no dealEndBody: each seat's points for the deal.
 * @param {DealEnd} end
 * @param {string[]} names */
function neutralBody(end, names) {
  return [h("table", { class: "end-table", id: "deal-end-points" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("k.points")))),
    h("tbody", {}, names.map((name, s) => h("tr", { dataset: { seat: s } },
      h("th", { scope: "row" }, name),
      h("td", { class: "pts" }, h("strong", {}, String(end.points?.[s] ?? "—")))))))];
}

/** Show deal `end` over the table; `onClose` when it is dismissed (by the button, Esc, or
 * the countdown, which a finished match does not have).
 * @param {DealEnd} end
 * @param {string} game
 * @param {string[]} names
 * @param {string} lang
 * @param {{over?: boolean, onClose?: (() => void) | null, moveSeconds?: number}} [options]
 */
export function showDealEnd(end, game, names, lang,
  { over = false, onClose = null, moveSeconds = 0 } = {}) {
  document.getElementById("deal-end")?.remove();
  let left = autoCloseSeconds(moveSeconds);
  const countdown = over ? null : h("p", { class: "muted small countdown",
    id: "deal-end-countdown", "aria-live": "off" }, t("end.nextIn", { s: left }));
  let paused = false;
  const tick = () => {
    if (paused) return;
    left -= 1;
    if (left <= 0) close();
    else if (countdown) countdown.textContent = t("end.nextIn", { s: left });
  };
  const pause = over ? null : h("button", { type: "button", id: "deal-end-pause",
    onclick: () => {
      paused = true;
      pause?.remove();
      if (countdown) {
        countdown.textContent = t("end.paused");
        countdown.classList.add("paused");
      }
      closeButton.focus({ preventScroll: true });
    } }, t("end.pause"));
  const close = () => {
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
    dialog.remove();
    onClose?.();
  };
  /** @param {KeyboardEvent} ev */
  const onKey = (ev) => {
    if (ev.key === "Escape") close();
  };
  const body = RENDERERS[game]?.dealEndBody?.(end, names, lang) ?? neutralBody(end, names);
  const closeButton = h("button", { type: "button", class: "primary", id: "deal-end-close",
    onclick: close }, over ? t("end.closeOver") : t("end.close"));
  const dialog = h("div", { class: "deal-end-backdrop", id: "deal-end", role: "dialog",
    "aria-modal": "true", "aria-labelledby": "deal-end-title" },
  h("div", { class: "deal-end panel" },
    h("h2", { id: "deal-end-title" }, t("end.title", { n: end.deal })), body,
    h("div", { class: "deal-end-actions" }, closeButton, pause), countdown));
  const timer = over ? undefined : setInterval(tick, 1000);
  document.addEventListener("keydown", onKey);
  document.body.appendChild(dialog);
  closeButton.focus({ preventScroll: true });
}
