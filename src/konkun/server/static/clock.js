// The move clock's countdown at a clocked table.

import { h } from "./dom.js";
import { icon } from "./icons.js";

/** The countdown of the seat to move on a clocked table (refreshed by the page's ticker).
 * @param {import("./protocol.js").TableSummary & {receivedAt?: number}} table
 * @returns {HTMLElement | null} */
export function clockBadge(table) {
  const clock = table.clock;
  if (!clock || clock.remaining === null || clock.remaining === undefined) return null;
  const deadline = (table.receivedAt || Date.now()) + clock.remaining * 1000;
  return h("span", { class: "clock", id: "clock", dataset: { deadline } }, icon("clock"),
    h("span", { class: "clock-time" }, clockText(deadline)));
}

/** @param {number} deadline */
function clockText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Refresh the countdown in place. */
export function tickClock() {
  const node = document.getElementById("clock");
  if (node) {
    const left = Number(node.dataset.deadline) - Date.now();
    const time = node.querySelector(".clock-time");
    if (time) time.textContent = clockText(Number(node.dataset.deadline));
    node.classList.toggle("low", left < 10000);
  }
}
