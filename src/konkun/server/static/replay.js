// The replay page (/replay/{id}): a finished game, move by move.

import { api } from "./api.js";
import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { gameTitle, RENDERERS, seatNames } from "./catalog.js";
import { gameStyled } from "./gamepage.js";
import { chatLine } from "./chat.js";
import { verifyReplay } from "./fairness.js";
import { errorText, link, main, setPage } from "./shell.js";
import { analysisPanel, forgetAnalyses } from "./analysis.js";
import { matchLog, standInTag } from "./movelog.js";

/**
 * The replay page's state: the seat shown ("all": every hand open), the replay, the frame
 * shown, and the fair-deal check's verdict (pending while it runs).
 * @typedef {object} ReplayState
 * @property {string} seat
 * @property {import("./pagetypes.js").Replay | null} data
 * @property {number} i
 * @property {string | null} error
 * @property {Record<string, any>} ui
 * @property {import("./fairness.js").Verdict & {pending?: boolean} | null} fair
 */

/** The replay page of a finished game (/replay/{id}).
 * @param {string} gameId */
export function replayPage(gameId) {
  /** @type {ReplayState} */
  const state = { seat: "all", data: null, i: 0, error: null, ui: {}, fair: null };
  let alive = true;

  async function load() {
    try {
      /** @type {import("./pagetypes.js").Replay} */
      const data = await api.replay(gameId, state.seat);
      state.data = data;
      if (state.i >= data.frames.length) state.i = data.frames.length - 1;
      state.error = null;
      if (state.seat === "all" && state.fair === null) checkFairness(data);
    } catch (err) {
      state.error = errorText(err);
    }
    if (alive) draw();
  }

  /** @param {import("./pagetypes.js").Replay} document */
  async function checkFairness(document) {
    state.fair = { ok: false, key: "fair.checking", pending: true };
    try {
      state.fair = await verifyReplay(document);
    } catch {
      state.fair = { ok: false, key: "fair.badDeal", params: { n: "?" } };
    }
    // only the panel changes: the rest of the page (and what a person is doing there) stays
    const shown = alive && main.querySelector("#replay-fair");
    if (shown) shown.replaceWith(fairnessPanel() ?? "");
    else if (alive) draw();
  }

  function fairnessPanel() {
    if (!state.fair || !state.data) return null;
    const fair = state.data.record.fairness;
    const mark = state.fair.pending ? "… " : state.fair.ok ? "✓ " : "✗ ";
    return h("section", { class: "panel fairness", id: "replay-fair" },
      h("h3", {}, t("fair.title")),
      h("p", { id: "fair-verdict", class: state.fair.pending ? "muted"
        : state.fair.ok ? "fair-ok" : "fair-bad", dataset: { verdict: state.fair.pending
        ? "pending" : state.fair.ok ? "ok" : "bad" } }, mark, t(state.fair.key, state.fair.params)),
      state.fair.unchecked ? h("p", { id: "fair-unchecked", class: "muted" },
        t(state.fair.unchecked)) : null,
      fair ? h("details", {}, h("summary", {}, "SHA-256"), h("dl", { class: "fair-values" },
        h("dt", {}, "commitment"), h("dd", {}, h("code", {}, fair.commitment)),
        h("dt", {}, "server_seed"), h("dd", {}, h("code", {}, fair.server_seed)),
        h("dt", {}, "seed"), h("dd", {}, h("code", {}, state.data.record.seed)))) : null);
  }

  /** Show frame `i` (kept within the replay). @param {number} i */
  function go(i) {
    if (!state.data) return;
    state.i = Math.max(0, Math.min(state.data.frames.length - 1, i));
    draw();
  }

  /** @param {KeyboardEvent} ev */
  function onKey(ev) {
    const target = /** @type {Partial<Element> | null} */ (ev.target);
    if (target?.closest && target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") go(state.i + 1);
    else if (ev.key === "ArrowLeft") go(state.i - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(Infinity);
    else return;
    ev.preventDefault();
  }

  function draw() {
    document.title = `konkun — ${t("replay.title")}`;
    if (state.error) {
      mount(main, h("div", { class: "panel" }, h("p", { class: "error" }, state.error),
        link("/", t("table.backToLobby"))));
      return;
    }
    if (!state.data) {
      mount(main, h("p", { class: "loading" }, t("lobby.loading")));
      return;
    }
    const { table, frames } = state.data;
    const names = seatNames(table);
    const n = frames.length - 1;
    const frame = frames[state.i];
    const seatSel = h("select", { id: "replay-seat", onchange: (ev) => {
      state.seat = ev.target.value;
      load();
    } }, h("option", { value: "all", selected: state.seat === "all" }, t("replay.all")),
    table.seats.map((s) => h("option", { value: String(s.seat),
      selected: state.seat === String(s.seat) }, t("replay.seat", { name: names[s.seat] }))));
    const controls = h("div", { class: "replay-controls", role: "toolbar" },
      h("button", { type: "button", id: "rp-first", onclick: () => go(0), disabled: state.i === 0 },
        "|◀ ", t("replay.first")),
      h("button", { type: "button", id: "rp-prev", onclick: () => go(state.i - 1),
        disabled: state.i === 0 }, "◀ ", t("replay.prev")),
      h("input", { type: "range", min: 0, max: n, value: state.i, id: "rp-slider",
        "aria-label": t("replay.move", { i: state.i, n }),
        oninput: (ev) => go(Number(ev.target.value)) }),
      h("button", { type: "button", id: "rp-next", onclick: () => go(state.i + 1),
        disabled: state.i === n }, t("replay.next"), " ▶"),
      h("button", { type: "button", id: "rp-last", onclick: () => go(n), disabled: state.i === n },
        t("replay.last"), " ▶|"));
    /** @type {Map<number, number>} deal number → its first frame */
    const dealStarts = new Map();
    frames.forEach((f, i) => {
      const d = f.view?.deal_number ?? 1;
      if (!dealStarts.has(d)) dealStarts.set(d, i);
    });
    const currentDeal = frame.view?.deal_number ?? 1;
    const dealSel = dealStarts.size > 1 ? h("label", { class: "field inline" },
      h("span", {}, t("replay.deal")), h("select", { id: "rp-deal", onchange: (ev) =>
        go(dealStarts.get(Number(ev.target.value)) ?? 0) }, [...dealStarts.keys()].map((d) =>
        h("option", { value: d, selected: d === currentDeal }, t("r.deal", { n: d })))))
      : null;
    controls.appendChild(dealSel ?? document.createTextNode(""));
    const caption = h("p", { class: "replay-caption", id: "rp-caption" },
      state.i === 0 ? t("replay.start") : t("replay.move", { i: state.i, n }),
      frame.action ? h("span", { class: "muted" }, ` — ${names[frame.actor ?? -1] ?? ""}: `,
        h("span", { class: "action-text", title: frame.action },
          RENDERERS[table.game]?.formatAction?.(frame.action, lang(), frame.parts)
            ?? frame.action),
        frame.stand_in ? standInTag() : null) : "");
    const body = h("div", { class: "table-body" });
    const R = RENDERERS[table.game];
    const log = R ? replayLog(frames, table, names, currentDeal) : null;
    const seat = state.seat === "all" ? null : Number(state.seat);
    if (R && frame.view && !gameStyled(table.game, () => { if (alive) draw(); })) {
      body.appendChild(h("p", { class: "loading" }, t("lobby.loading")));
    } else if (R && frame.view) {
      R.render(body, { view: frame.view, views: frame.views || null, table, you: seat,
        last: frame.action ? { turn: frame.turn, actor: frame.actor ?? -1, action: frame.action,
          ...(frame.parts ? { parts: frame.parts } : {}) } : null,
        lang: lang(), names, ui: state.ui, readOnly: true, replay: true, play: () => {},
        matchLog: R.placesMatchLog ? log ?? undefined : undefined });
    }
    const said = (state.data.chat || []).filter((m) => m.turn <= frame.turn);
    const chatBox = (state.data.chat || []).length ? h("section", { class: "panel chat",
      id: "replay-chat" }, h("h3", {}, t("chat.title")), h("ol", { class: "chat-log" },
      said.map((m) => chatLine(m, names)))) : null;
    mount(main, h("div", { class: "table-page replay", dataset: { game: table.game } },
      h("div", { class: "table-head" }, h("h1", {}, `${t("replay.title")}: ${gameTitle(table)}`),
        h("div", { class: "spacer" }),
        h("label", { class: "field inline" }, h("span", {}, t("replay.view")), seatSel)),
      controls, caption, body, R?.placesMatchLog ? null : log, chatBox, analysisPanel({ gameId, table, names, seat, go,
        format: (a, parts) => R?.formatAction?.(a, lang(), parts) ?? a }),
      fairnessPanel()));
  }

  /** The match log up to the frame shown (the stand-in's moves marked), its deal open.
   * @param {import("./pagetypes.js").ReplayFrame[]} frames
   * @param {import("./protocol.js").TableSummary} table
   * @param {string[]} names
   * @param {number} currentDeal */
  function replayLog(frames, table, names, currentDeal) {
    /** @type {import("./movelog.js").LogEntry[]} */
    const log = frames.slice(1, state.i + 1).map((f, k) => ({ turn: f.turn,
      actor: /** @type {number} */ (f.actor), action: /** @type {string} */ (f.action),
      parts: f.parts, deal: frames[k].view?.deal_number ?? 1, stand_in: f.stand_in }));
    return matchLog(log, table.game, names,
      (a, parts) => RENDERERS[table.game].formatAction?.(a, lang(), parts) ?? a, currentDeal);
  }

  document.addEventListener("keydown", onKey);
  setPage({ destroy: () => { alive = false; forgetAnalyses();
    document.removeEventListener("keydown", onKey); }, rerender: draw });
  draw();
  load();
}

