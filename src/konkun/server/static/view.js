// Reading the views the server sends, Match.to_json(seat) of each game: a Konchinka view
// holds the current deal under `deal`, a Kunken view is flat. Also the message both tables
// show when a deal has just been scored.

import { present, toast } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./pagetypes.js").View} View */

/** The current deal's part of the view (the view itself when it is flat).
 * @param {View} view
 * @returns {View} */
export function dealOf(view) {
  return view.deal ?? view;
}

/** The cards `seat` holds when the view shows them (the view of that seat), else null.
 * @param {View} view
 * @param {number | null | undefined} seat
 * @returns {string[] | null} */
export function handOf(view, seat) {
  const d = dealOf(view);
  return seat !== null && seat !== undefined && d.seat === seat ? d.hand ?? null : null;
}

/** How many cards `seat` holds.
 * @param {View} view
 * @param {number} seat
 * @returns {number} */
export function handSize(view, seat) {
  return present(dealOf(view).hand_sizes, "the view's hand_sizes")[seat];
}

/** The legal action texts of the view's seat (empty unless it is to move).
 * @param {View} view
 * @returns {string[]} */
export function legalOf(view) {
  return dealOf(view).legal ?? [];
}

/** A message when a deal has just been scored (not for deals scored before the page).
 * @param {{ui: {dealsSeen?: number}, names: string[], replay?: boolean}} ctx
 * @param {number[][]} dealPoints each scored deal's points by seat */
export function announceDeals(ctx, dealPoints) {
  const { ui, names } = ctx;
  if (ctx.replay) return;
  if (ui.dealsSeen !== undefined && dealPoints.length > ui.dealsSeen) {
    const row = dealPoints[dealPoints.length - 1];
    toast(t("k.dealScored", { n: dealPoints.length,
      scores: row.map((p, i) => `${names[i]} ${p}`).join(" · ") }), "info", 8000);
  }
  ui.dealsSeen = dealPoints.length;
}
