// The replay page's post-game analysis (issue 14, docs/web.md "Analysis"): an "Analyse"
// button starts the server's background analysis of the finished game
// (POST /api/games/{id}/analysis); the panel shows its progress, then per deal a chart of
// the expected points each move lost and the moves: played, best found, loss, mark.
//
// The panel is one element per game, kept across the replay page's redraws (the page
// re-mounts everything on every step): it updates itself while the analysis runs.

import { request } from "./api.js";
import { h, mount } from "./dom.js";
import { errorText, fill, lang, onLangChange } from "./i18n.js";

const TEXTS = {
  en: {
    title: "Analysis",
    start: "Analyse",
    intro: "Every move valued from its player's cards only, against the best move found.",
    queued: "Starting the analysis…",
    running: "Analysing: {done} of {total:move}",
    counting: "Analysing…",
    failed: "The analysis failed. Try again.",
    retry: "Analyse again",
    seat: "Player",
    deal: "Deal {n}",
    lost: "{lost} expected points lost in {moves:move}",
    marks: "{inaccuracy:inaccuracy}, {mistake:mistake}, {blunder:blunder}",
    move: "Move",
    played: "Played",
    best: "Best found",
    loss: "Loss",
    mark: "Mark",
    ok: "good",
    inaccuracy: "inaccuracy",
    mistake: "mistake",
    blunder: "blunder",
    show: "Show this move",
    chart: "Expected points lost per move, deal {n}",
    none: "No moves to analyse: every move was forced.",
    legend: "Marks from a loss of {inaccuracy} (inaccuracy), {mistake} (mistake), {blunder} (blunder) points.",
  },
  ru: {
    title: "Анализ",
    start: "Анализ",
    intro: "Каждый ход оценён только по картам его игрока и сравнён с лучшим найденным.",
    queued: "Запускаем анализ…",
    running: "Анализ: {done} из {total}",
    counting: "Анализ…",
    failed: "Анализ не удался. Попробуйте ещё раз.",
    retry: "Повторить анализ",
    seat: "Игрок",
    deal: "Сдача {n}",
    lost: "потеряно ожидаемых очков: {lost}, ходов: {moves}",
    marks: "неточностей: {inaccuracy}, ошибок: {mistake}, грубых ошибок: {blunder}",
    move: "Ход",
    played: "Сыграно",
    best: "Лучший найденный",
    loss: "Потеря",
    mark: "Оценка",
    ok: "хорошо",
    inaccuracy: "неточность",
    mistake: "ошибка",
    blunder: "грубая ошибка",
    show: "Показать этот ход",
    chart: "Потеря ожидаемых очков по ходам, сдача {n}",
    none: "Анализировать нечего: все ходы были вынужденными.",
    legend: "Оценки от потери {inaccuracy} (неточность), {mistake} (ошибка), {blunder} (грубая ошибка) очков.",
  },
};

/** This module's text for `key` in the page's language, {name} placeholders filled. */
export function tx(key, params = {}) {
  return fill(TEXTS[lang()]?.[key] ?? TEXTS.en[key] ?? key, params);
}

const POLL_MS = 1000;
const panels = new Map(); // game id -> panel state

function call(method, gameId) {
  return request(method, `/api/games/${encodeURIComponent(gameId)}/analysis`);
}

/**
 * The analysis panel of a finished game, kept across redraws: `options` are
 * {gameId, table, names, seat (the replay's seat or null), format(action, parts), go(turn)}.
 * Append the returned element wherever the replay page draws it.
 */
export function analysisPanel(options) {
  let panel = panels.get(options.gameId);
  if (!panel) {
    panel = { data: null, error: null, seat: null, busy: false, timer: null, options,
      node: h("section", { class: "panel analysis", id: "analysis",
        "aria-labelledby": "analysis-title" }) };
    panels.set(options.gameId, panel);
    onLangChange(() => draw(panel));
    read(panel); // a kept analysis shows at once
  }
  panel.options = options;
  if (panel.seat === null) panel.seat = options.seat ?? 0;
  // nothing analysed yet, drawn: the replay's redraw (a step, its stylesheets arriving)
  // keeps the button a person may be about to press (the panel's words follow the language
  // by themselves)
  const asking = (panel.data?.status ?? "none") === "none" && !panel.busy && !panel.error;
  if (!(asking && panel.node.firstChild)) draw(panel);
  return panel.node;
}

/** Stop polling (the replay page is left). */
export function forgetAnalyses() {
  for (const panel of panels.values()) clearTimeout(panel.timer);
  panels.clear();
}

async function read(panel) {
  const before = panel.data?.status ?? "none";
  try {
    panel.data = await call("GET", panel.options.gameId);
    panel.error = null;
  } catch (err) {
    panel.error = errorText(err.code);
  }
  // nothing analysed yet, as shown: keep the button a person may be about to press
  if (before === "none" && panel.data?.status === "none" && !panel.error) return;
  follow(panel);
}

async function start(panel) {
  panel.busy = true;
  panel.error = null;
  draw(panel);
  try {
    panel.data = await call("POST", panel.options.gameId);
  } catch (err) {
    panel.error = errorText(err.code);
  }
  panel.busy = false;
  follow(panel);
}

function follow(panel) {
  draw(panel);
  clearTimeout(panel.timer);
  if (panel.data?.status === "running" && panels.get(panel.options.gameId) === panel) {
    panel.timer = setTimeout(() => read(panel), POLL_MS);
  }
}

function draw(panel) {
  const data = panel.data;
  const status = data?.status ?? "none";
  /** @type {HTMLElement[]} */
  const parts = [h("h2", { id: "analysis-title" }, tx("title"))];
  if (status === "none" || status === "failed") {
    parts.push(h("p", { class: "muted" }, tx("intro")));
    if (status === "failed") parts.push(h("p", { class: "error" }, tx("failed")));
    parts.push(h("button", { type: "button", id: "analyse", class: "primary",
      disabled: panel.busy, onclick: () => start(panel) },
    status === "failed" ? tx("retry") : tx("start")));
  } else if (status === "running") {
    const total = data.total;
    parts.push(h("p", { id: "analysis-progress", role: "status", "aria-live": "polite" },
      total === null || total === undefined ? tx("counting")
        : tx("running", { done: data.done, total })));
    parts.push(h("progress", { max: total || 1, value: total ? data.done : 0,
      "aria-label": tx("title") }));
  } else if (status === "done") {
    parts.push(...result(panel, data));
  }
  if (panel.busy) parts.push(h("p", { class: "muted", role: "status" }, tx("queued")));
  if (panel.error) parts.push(h("p", { class: "error", role: "alert" }, panel.error));
  mount(panel.node, ...parts);
}

function result(panel, data) {
  const { table, names } = panel.options;
  const seats = table.seats.map((s) => s.seat);
  if (!data.moves.length) return [h("p", { id: "analysis-result" }, tx("none"))];
  const fmt = (n) => n.toLocaleString(lang(), { maximumFractionDigits: 2 });
  const picker = h("div", { class: "analysis-seats", role: "group", "aria-label": tx("seat") },
    seats.map((s) => h("button", { type: "button", class: "seat-chip",
      "aria-pressed": String(s === panel.seat), dataset: { seat: s },
      onclick: () => { panel.seat = s; draw(panel); } }, names[s] ?? `#${s + 1}`)));
  const th = data.thresholds;
  const out = [picker, h("p", { class: "muted small" }, tx("legend", {
    inaccuracy: fmt(th.inaccuracy), mistake: fmt(th.mistake), blunder: fmt(th.blunder) }))];
  const list = h("div", { id: "analysis-result" });
  for (const deal of data.deals) {
    const totals = deal.seats[panel.seat];
    const moves = data.moves.filter((m) => m.deal === deal.deal && m.seat === panel.seat);
    const details = h("details", { class: "analysis-deal", open: deal === data.deals[0],
      dataset: { deal: deal.deal } },
    h("summary", {}, h("strong", {}, tx("deal", { n: deal.deal + 1 })), " — ",
      tx("lost", { lost: fmt(totals.lost), moves: totals.moves }), "; ",
      tx("marks", totals)),
    chart(moves, deal.deal, th),
    h("div", { class: "analysis-moves" }, movesTable(panel, moves, fmt)));
    list.appendChild(details);
  }
  out.push(list);
  return out;
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.appendChild(c);
  return node;
}

/** An inline SVG bar chart: one bar per move, its height the expected points lost, its
 * colour the mark; dashed lines at the mistake and blunder thresholds. */
function chart(moves, deal, th) {
  const width = 320;
  const height = 90;
  const top = Math.max(th.blunder * 1.2, ...moves.map((m) => m.loss));
  const step = width / Math.max(moves.length, 1);
  const y = (v) => height - (v / top) * (height - 4);
  const bars = moves.map((m, i) => svg("rect", {
    x: (i * step + step * 0.1).toFixed(1), y: y(m.loss).toFixed(1),
    width: Math.max(step * 0.8, 1).toFixed(1), height: (height - y(m.loss)).toFixed(1),
    class: `bar ${m.mark ?? "ok"}` }, svg("title", {}, document.createTextNode(
    `${tx("move")} ${m.ply + 1}: ${m.loss} (${tx(m.mark ?? "ok")})`))));
  const lines = [th.mistake, th.blunder].filter((v) => v <= top).map((v) =>
    svg("line", { x1: 0, x2: width, y1: y(v).toFixed(1), y2: y(v).toFixed(1),
      class: "threshold" }));
  const label = tx("chart", { n: deal + 1 });
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-chart",
    role: "img", "aria-label": label, preserveAspectRatio: "none",
    "data-deal": deal }, svg("title", {}, document.createTextNode(label)),
  svg("line", { x1: 0, x2: width, y1: height, y2: height, class: "axis" }), ...lines, ...bars);
}

function movesTable(panel, moves, fmt) {
  const { format, go } = panel.options;
  const show = (a, parts) => (format ? format(a, parts) : a);
  return h("table", { class: "analysis-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, tx("move")),
      h("th", { scope: "col" }, tx("played")), h("th", { scope: "col" }, tx("best")),
      h("th", { scope: "col", class: "num" }, tx("loss")), h("th", { scope: "col" }, tx("mark")))),
    h("tbody", {}, moves.map((m) => h("tr", { class: m.mark ?? "ok", dataset: { turn: m.turn } },
      h("td", {}, h("button", { type: "button", class: "linkish", title: tx("show"),
        onclick: () => go(m.turn) }, String(m.ply + 1))),
      h("td", { class: "action-text" }, show(m.played, m.played_parts)),
      // the better move found, whenever it differs from the one played (marked or not)
      h("td", { class: "action-text" }, m.best !== m.played ? show(m.best, m.best_parts) : "—"),
      h("td", { class: "num" }, fmt(m.loss)),
      h("td", {}, markCell(m.mark))))));
}

const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" }; // as the chess sites write them

/** A move's mark: its symbol, and its word (hidden on a phone, kept in the title). */
function markCell(mark) {
  const word = tx(mark ?? "ok");
  return h("span", { class: `mark ${mark ?? "ok"}`, title: word },
    mark ? SYMBOLS[mark] : "✓", h("span", { class: "mark-word" }, ` ${word}`));
}
