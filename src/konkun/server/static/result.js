// The end of a match at the table: the result card (the winner, the final score sheet, who
// pays whom, the rating change, Rematch and Replay; the rematch's progress stays in the
// lifecycle panel, lifecycle.js), and the table as a deal ended, shown
// while its end-of-deal screen is up.

import { identity } from "./api.js";
import { seatNames } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { link } from "./shell.js";

/** The fields of a Kunken view that are the match's, not the deal's. */
const KUNKEN_MATCH_FIELDS = ["totals", "deal_points", "running_totals", "deal_winners",
  "deal_express", "deals_played", "deals", "target", "match_over", "match_winner",
  "first_dealer", "rules"];

/** The state message `held` (the first of the next deal, or of the finished match) shown
 * as deal `end` ended (GET /api/tables/{id}/deals/{n}): its table, hands and last move,
 * with the match's totals and score sheet that already count it; nobody is to move. */
export function endedMessage(held, end) {
  const seat = held.you ?? 0;
  const ended = { ...(end.views[seat] ?? end.views[0]), legal: [] };
  let view;
  if (held.view?.deal !== undefined) {  // Konchinka: the deal nested in the match
    view = { ...held.view, deal: ended, to_move: null, deal_number: end.deal };
  } else {  // Kunken: one flat view
    view = { ...ended, to_move: null, deal_number: end.deal };
    for (const field of KUNKEN_MATCH_FIELDS) {
      if (held.view && field in held.view) view[field] = held.view[field];
    }
  }
  return { ...held, view, turn: end.turn, table: { ...held.table, to_move: null } };
}

/** Each seat's points deal by deal and the totals, a column per player. */
function finalSheet(view, names) {
  const rows = view.deal_points || [];
  const totals = view.totals || names.map(() => 0);
  return h("table", { class: "result-sheet", id: "result-sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), names.map((n) => h("th", { scope: "col",
      title: n }, h("span", { class: "name" }, n))))),
    h("tbody", {}, rows.map((row, i) => h("tr", {}, h("th", { scope: "row" },
      t("r.deal", { n: i + 1 })), row.map((p) => h("td", {}, String(p)))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("result.total")),
      totals.map((p, s) => h("td", { dataset: { seat: s } }, h("strong", {}, String(p)))))));
}

/** Who pays whom (Konchinka's settlement), or null when the game has none. */
function payments(view, names) {
  const settlement = view.settlement;
  if (!settlement) return null;
  const pays = settlement.payments.filter((p) => p.amount > 0);
  return [h("h3", {}, t("result.pays")), pays.length
    ? h("ul", { class: "result-pays", id: "result-pays" }, pays.map((p) => h("li", {
      dataset: { from: p.from, to: p.to } }, t("result.paysLine", { from: names[p.from],
      to: names[p.to], n: p.amount }))))
    : h("p", { id: "result-pays" }, t("k.paysNobody"))];
}

/** The person's rating change from the table's `rated` message, or null. */
function ratingLine(rated) {
  const me = identity();
  const mine = rated && me && rated.ratings.find((r) => r.player_id === me.player_id);
  if (!mine) return null;
  const sign = mine.change >= 0 ? "+" : "−";
  return h("p", { class: "result-rating", id: "result-rating" }, t("result.rating", {
    before: Math.round(mine.before), after: Math.round(mine.rating),
    change: `${sign}${Math.abs(Math.round(mine.change))}` }));
}

/** The result card of a finished match (`msg` its last state message, `rated` the
 * table's `rated` message if one came, `ctl.rematch` to offer or accept a rematch). */
export function resultCard(msg, rated, ctl) {
  const { table, you, view } = msg;
  const names = seatNames(table);
  const winner = table.winner;
  const rematch = table.rematch || { votes: [] };
  const voted = (rematch.votes || []).includes(you);
  const replay = link(`/replay/${table.id}`, t("result.replay"));
  replay.id = "result-replay";
  replay.className = "button-link";
  const next = rematch.table ? link(`/t/${rematch.table}`, t("life.toRematch"))
    : you !== null && !voted ? h("button", { type: "button", class: "primary",
      id: "rematch", onclick: ctl.rematch },
    (rematch.votes || []).length ? t("life.accept") : t("result.rematch")) : null;
  return h("section", { class: "panel result-card", id: "result-card",
    "aria-labelledby": "result-title" },
  h("h2", { id: "result-title" }, t("result.title")),
  h("p", { class: "result-winner", id: "result-winner" }, winner !== null && winner !== undefined
    ? t("result.winner", { name: names[winner] }) : t("result.noWinner")),
  h("div", { class: "result-body" },
    h("div", {}, h("h3", {}, t("result.sheet")), finalSheet(view, names)),
    h("div", {}, payments(view, names), ratingLine(rated))),
  h("div", { class: "result-actions" }, next, replay));
}
