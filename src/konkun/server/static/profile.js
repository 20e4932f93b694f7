// The profile page (/profile/{id}): games per game and variant, wins, each rating with
// its history as an inline SVG chart, and recent games with links to their replays.

import { request } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { errorText, link, main, setPage } from "./shell.js";
import { gameTitle } from "./catalog.js";
import { poolTitle, ratingPools } from "./leaderboard.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/** The rating after each rated game as a line chart (the last 500 games). */
export function ratingChart(history) {
  const width = 600, height = 180, pad = 34;
  const ratings = history.map((p) => p.rating);
  const low = Math.floor((Math.min(...ratings) - 20) / 50) * 50;
  const high = Math.ceil((Math.max(...ratings) + 20) / 50) * 50;
  const x = (i) => pad + (history.length === 1 ? (width - 2 * pad) / 2
    : (i * (width - 2 * pad)) / (history.length - 1));
  const y = (r) => height - pad + ((r - low) * (2 * pad - height)) / (high - low);
  const points = history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`);
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`,
    role: "img", "aria-label": t("profile.chart") },
  svg("title", {}, t("profile.chart")),
  svg("line", { x1: pad, y1: y(low), x2: width - pad, y2: y(low), class: "axis" }),
  svg("text", { x: 2, y: y(high) + 4, class: "tick" }, String(high)),
  svg("text", { x: 2, y: y(low) + 4, class: "tick" }, String(low)),
  ...dateTicks(history, x, height - pad + 18),
  svg("polyline", { points: points.join(" "), class: "line", fill: "none" }),
  ...history.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "dot" },
    svg("title", {}, `${chartDate(p.at)}: ${Math.round(p.rating)} (±${Math.round(p.rd)})`))));
}

/** A game's date as the chart writes it, in the page's language ("5 Dec 2026"). */
function chartDate(at) {
  const when = new Date(at);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleDateString(lang(),
    { day: "numeric", month: "short", year: "numeric" });
}

/** The dates under the chart's time axis: the first game's and, when later, the last's. */
function dateTicks(history, x, baseline) {
  const first = chartDate(history[0].at);
  const last = chartDate(history[history.length - 1].at);
  const ticks = [svg("text", { x: x(0), y: baseline, class: "tick date",
    "text-anchor": history.length === 1 ? "middle" : "start" }, first)];
  if (history.length > 1 && last !== first) {
    ticks.push(svg("text", { x: x(history.length - 1), y: baseline, class: "tick date",
      "text-anchor": "end" }, last));
  }
  return ticks;
}

function when(text) {
  return text ? new Date(text).toLocaleString(lang(), { dateStyle: "medium",
    timeStyle: "short" }) : "";
}

function shownName(data) {
  return data.names ? (data.names[lang()] ?? data.nickname) : data.nickname;
}

function draw(data, pools) {
  /** @type {HTMLElement[]} */
  const parts = [h("h1", { id: "profile-name" }, shownName(data) ?? data.player_id),
    h("p", { class: "muted" }, data.bot ? t("profile.bot") : data.account
      ? t("profile.since", { date: when(data.since) }) : t("profile.guest"))];
  parts.push(h("h2", {}, t("profile.ratings")));
  if (!data.ratings.length) parts.push(h("p", {}, t("profile.noRatings")));
  for (const r of data.ratings) {
    parts.push(h("section", { class: "rating-pool", dataset: { pool: r.pool } },
      h("h3", {}, poolTitle(pools, r.pool)),
      h("p", { class: "rating-now" }, h("strong", {}, String(Math.round(r.rating))),
        ` ±${Math.round(r.rd)}${r.provisional ? " ?" : ""} · ${t("board.games")}: ${r.games}`),
      r.history.length ? ratingChart(r.history) : null));
  }
  parts.push(h("h2", {}, t("profile.played")));
  parts.push(data.played.length ? h("table", { class: "stats", id: "played" },
    h("thead", {}, h("tr", {}, h("th", {}, t("profile.game")), h("th", {}, t("profile.games")),
      h("th", {}, t("profile.wins")))),
    h("tbody", {}, data.played.map((p) => h("tr", {},
      h("td", {}, gameTitle(p)), h("td", {}, String(p.played)),
      h("td", {}, String(p.wins))))))
    : h("p", {}, t("profile.noGames")));
  parts.push(h("h2", {}, t("profile.recent")));
  parts.push(h("ul", { class: "recent", id: "recent" }, data.recent.map((g) => h("li", {},
    link(g.replay, `${gameTitle(g)} · ${when(g.finished_at)}`), " — ",
    g.won ? t("profile.won") : t("profile.lost"),
    g.rated ? ` · ${Math.round(g.rating)} (${g.change >= 0 ? "+" : ""}${Math.round(g.change)})`
      : ` · ${t("profile.casual")}`))));
  mount(main, h("section", { class: "panel profile" }, ...parts));
}

export function profilePage(playerId) {
  let data = null;
  let pools = [];
  setPage({ destroy() {}, rerender: () => data && draw(data, pools) });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));
  Promise.all([request("GET", `/api/players/${encodeURIComponent(playerId)}`), ratingPools()])
    .then(([d, p]) => {
      [data, pools] = [d, p];
      draw(d, p);
    }).catch((err) => mount(main, h("p", { class: "error", role: "alert" }, errorText(err))));
}

/** The toast a seat gets when its finished game was rated: its rating before and after. */
export function ratedToast(msg, me) {
  const mine = me && msg.ratings.find((r) => r.player_id === me.player_id);
  if (!mine) return;
  const sign = mine.change >= 0 ? "+" : "";
  toast(t("table.ratingChange", { before: Math.round(mine.before),
    after: Math.round(mine.rating), change: `${sign}${Math.round(mine.change)}` }));
}
