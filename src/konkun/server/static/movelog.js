// The move log of the whole match, grouped by deal (GET /api/tables/{id}/log, then each
// state's `last`). A seat's actions in a row make one entry until the game's page module
// says the turn is over (its `endsTurn(action, parts)`: a Kunken turn ends with the discard); in a
// game without that hook every action is an entry of its own (a Konchinka move). An entry
// the stand-in bot played for the seat's person (`stand_in`) carries a small "bot" tag.

import { RENDERERS } from "./catalog.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * One action of the match log: its turn (counted from 1 over the match), the seat that
 * played it, the action text, its parts when the server describes the game's actions (a
 * Kunken action's kind, cards, ...), the deal it belongs to and whether the stand-in bot
 * played it for the seat's person.
 * @typedef {{turn: number, actor: number, action: string, parts?: any, deal: number,
 *   stand_in?: boolean}} LogEntry
 */

/**
 * A row of the log: a seat's actions in a row (one turn), from its first turn, with each
 * one's served parts (`parts[k]` of `actions[k]`, undefined when none); `standIn` when the
 * stand-in bot played any of them.
 * @typedef {{actor: number, actions: string[], parts: any[], turn: number,
 *   closed?: boolean, standIn?: boolean}} LogGroup
 */

/** Add the action a state reports; false when the log has a gap (reload it then).
 * @param {LogEntry[]} log
 * @param {{turn: number, actor: number, action?: string | null, parts?: any,
 *   stand_in?: boolean} | null | undefined} last
 * @param {number | null | undefined} dealNumber
 * @returns {boolean} */
export function addLast(log, last, dealNumber) {
  if (!last || !last.action) return true;
  if (log.length && log[log.length - 1].turn >= last.turn) return true;
  if (last.turn !== log.length + 1) return false;
  log.push({ turn: last.turn, actor: last.actor, action: last.action,
    ...(last.parts ? { parts: last.parts } : {}), deal: dealNumber ?? 1,
    stand_in: last.stand_in === true });
  return true;
}

/** The log's entries by deal, newest deal first; a turn of several actions grouped.
 * @param {LogEntry[]} log
 * @param {string} game
 * @returns {[number, LogGroup[]][]} */
export function groupLog(log, game) {
  const endsTurn = RENDERERS[game]?.endsTurn ?? (() => true);
  /** @type {Map<number, LogGroup[]>} */
  const deals = new Map();
  for (const e of log) {
    const entries = deals.get(e.deal) ?? [];
    deals.set(e.deal, entries);
    const prev = entries[entries.length - 1];
    if (prev && prev.actor === e.actor && !prev.closed) {
      prev.actions.push(e.action);
      prev.parts.push(e.parts);
      prev.standIn ||= e.stand_in === true;
    } else {
      entries.push({ actor: e.actor, actions: [e.action], parts: [e.parts], turn: e.turn,
        standIn: e.stand_in === true });
    }
    const now = entries[entries.length - 1];
    if (endsTurn(e.action, e.parts)) now.closed = true;
  }
  return [...deals.entries()].sort((a, b) => b[0] - a[0]);
}

/** The match log panel. `format(action, parts)` is the game's move text; the `current` deal
 * (when given) is listed, even before its first move, and open.
 * @param {LogEntry[]} log
 * @param {string} game
 * @param {string[]} names
 * @param {(action: string, parts?: any) => string} format
 * @param {number | null} [current]
 * @returns {HTMLElement} */
export function matchLog(log, game, names, format, current = null) {
  const groups = groupLog(log, game);
  if (current !== null && !groups.some(([deal]) => deal === current)) groups.unshift([current, []]);
  return h("section", { class: "panel match-log", id: "match-log" },
    h("h3", {}, t("log.title")),
    groups.length ? groups.map(([deal, entries], i) => h("details", { class: "log-deal",
      open: current === null ? i === 0 : deal === current, dataset: { deal } },
    h("summary", {}, t("log.deal", { n: deal, count: entries.length })),
    h("ol", { class: "log", reversed: true }, [...entries].reverse().map((e) => h("li", {
      dataset: e.standIn ? { actor: e.actor, standIn: "1" } : { actor: e.actor } },
    h("strong", {}, names[e.actor] ?? "?"), e.standIn ? standInTag() : null, ": ",
    e.actions.map((a, k) => format(a, e.parts[k])).join("; "))))))
      : h("p", { class: "muted small" }, "—"));
}

/** The mark of a move the stand-in bot played for a person. */
export function standInTag() {
  return h("span", { class: "tag stand-in", title: t("log.standInTitle") }, t("log.standIn"));
}
