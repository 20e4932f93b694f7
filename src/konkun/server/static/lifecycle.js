// The table's lifecycle controls: leave, cancel, the rematch (the personal link is a small
// tool in the table's head, table.js).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatNames } from "./catalog.js";
import { link } from "./shell.js";

/** The table's own controls for the seated player: leave or cancel a waiting table, and
 * the rematch once the game is over. */
export function lifecyclePanel(msg, ctl) {
  const { table, you } = msg;
  const names = seatNames(table);
  const items = [];
  if (table.status === "waiting" && you !== null) {
    items.push(h("button", { type: "button", id: "leave", onclick: ctl.leave }, t("life.leave")));
  }
  if (table.status === "waiting" && you !== null && table.creator_seat === you) {
    items.push(h("button", { type: "button", id: "cancel", class: "danger",
      onclick: ctl.cancel }, t("life.cancel")));
  }
  if (confirmingAt !== table.id || table.status !== "playing") confirming = null;
  confirmingAt = table.id;
  const resigned = table.resigned || [];
  if (you !== null && table.status === "playing" && !resigned.includes(you)) {
    if (table.abortable) {
      items.push(confirmed("abort", t("life.abort"), t("life.abortSure"), ctl.abort));
    }
    items.push(confirmed("resign", t("life.resign"), t("life.resignSure"), ctl.resign));
  }
  const ending = endingText(table, names);
  if (ending) items.push(h("span", { id: "ended" }, ending));
  const rematch = table.rematch || { votes: [] };
  if (table.status === "finished" && rematch.table) {
    items.push(link(`/t/${rematch.table}`, t("life.toRematch")));
  } else if (table.status === "finished" && you !== null) {
    const votes = rematch.votes || [];
    const mine = votes.includes(you);
    const others = votes.filter((v) => v !== you).map((v) => names[v]);
    if (!mine && !msg.view) {  // with a view the result card offers it (result.js)
      items.push(h("button", { type: "button", id: "rematch", class: "primary",
        onclick: ctl.rematch }, others.length ? t("life.accept") : t("life.offer")));
    }
    if (others.length && !mine) items.push(h("span", { id: "rematch-status" },
      t("life.offered", { names: others.join(", ") })));
    if (mine) {
      const waiting = table.seats.filter((s) => s.kind === "human" && !votes.includes(s.seat))
        .map((s) => names[s.seat]);
      items.push(h("span", { id: "rematch-status" }, t("life.waitingFor",
        { names: waiting.join(", ") })));
    }
  }
  return items.length ? h("div", { class: "panel lifecycle", id: "lifecycle" }, items) : null;
}

let confirming = null; // the id of the button whose question is shown (kept across redraws)
let confirmingAt = null; // the table it was asked at

/** A button that asks once more before it acts: the first click shows the question with
 * "Yes" and "No" in its place (and keeps showing it when the table is redrawn). */
function confirmed(id, label, question, act) {
  const box = h("span", { class: "confirm", id: `${id}-box` });
  const ask = () => {
    confirming = id;
    box.replaceChildren(h("span", { class: "question" }, question), " ",
      h("button", { type: "button", id: `${id}-yes`, class: "danger", onclick: () => {
        confirming = null;
        act();
      } }, t("life.yes")),
      " ",
      h("button", { type: "button", id: `${id}-no`, onclick: () => {
        confirming = null;
        box.replaceChildren(button);
      } }, t("life.no")));
  };
  const button = h("button", { type: "button", id, class: "danger", onclick: ask }, label);
  if (confirming === id) ask();
  else box.appendChild(button);
  return box;
}

/** How the match ended early (resigned seats, an aborted table), or "". */
function endingText(table, names) {
  const resigned = (table.resigned || []).map((s) => names[s]);
  if (table.ended && table.ended.reason === "aborted") return t("life.aborted");
  if (resigned.length) return t("life.resignedBy", { names: resigned.join(", ") });
  return "";
}
