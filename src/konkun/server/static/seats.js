// The table's seats: who sits where, who is away or offline, the vote to let a bot play an
// absent seat, and the banner of a player whose seat the stand-in bot plays.

import { h, nameTag } from "./dom.js";
import { t } from "./i18n.js";
import { seatNames } from "./catalog.js";

/** Whether a seat is played by the stand-in bot now, and why. */
function awayOf(table, seat) {
  return (table.away || {})[String(seat)] ?? null;
}

export function seatsPanel(table, you, onSit, onVote) {
  const names = seatNames(table);
  const absent = table.absent || {};
  const votes = table.bot_votes || {};
  const canVote = (s) => table.status === "playing" && !table.move_seconds && you !== null
    && s.seat !== you && s.kind === "human" && !awayOf(table, s.seat)
    && absent[String(s.seat)] !== undefined
    && absent[String(s.seat)] + (Date.now() - (table.receivedAt || Date.now())) / 1000
      >= (table.vote_after ?? 60);
  return h("ul", { class: "seats-panel" }, table.seats.map((s) => h("li", {
    class: `seat ${s.kind} ${s.seat === you ? "me" : ""} ${table.to_move === s.seat ? "to-move" : ""}`,
    dataset: { seat: s.seat } },
  h("span", { class: "seat-no" }, String(s.seat + 1)),
  nameTag(names[s.seat], { class: "seat-name" }),
  s.seat === you ? h("span", { class: "you" }, t("table.youSuffix")) : null,
  s.kind === "human" && !s.connected ? h("span", { class: "muted small" }, ` · ${t("table.offline")}`)
    : null,
  awayOf(table, s.seat) ? h("span", { class: "tag away", dataset: { away: awayOf(table, s.seat) } },
    t("clock.away")) : null,
  canVote(s) ? h("button", { type: "button", class: "vote-bot", dataset: { vote: s.seat },
    disabled: (votes[String(s.seat)] || []).includes(you),
    onclick: () => onVote(s.seat) }, t("clock.vote", { name: names[s.seat] })) : null,
  s.kind === "empty" && table.status === "waiting" && you === null && onSit
    ? h("button", { type: "button", class: "primary sit", dataset: { sit: s.seat },
      onclick: () => onSit(s.seat) }, t("table.sit")) : null)));
}

/** Told to the player whose seat the stand-in bot plays: why, and a way back. */
export function awayBanner(msg, ctl) {
  const { table, you } = msg;
  const why = you === null ? null : awayOf(table, you);
  if (!why || table.status !== "playing") return null;
  return h("div", { class: "panel away-banner", id: "away-banner", role: "status" },
    h("span", {}, why === "timeout" ? t("clock.youTimedOut") : t("clock.youAway")), " ",
    h("button", { type: "button", class: "primary", id: "back", onclick: ctl.back },
      t("clock.back")));
}
