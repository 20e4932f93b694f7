// The leaderboard page (/leaderboard/{pool}): one table per rating pool, people and the
// ladder's bots together, best first (docs/ratings.md).

import { request } from "./api.js";
import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { errorText, link, main, navigate, setPage } from "./shell.js";

export const POOLS = ["konchinka-2", "konchinka-3-4", "kunken"];

function draw(pool, data) {
  const tabs = h("nav", { class: "pool-tabs", "aria-label": t("board.title") },
    POOLS.map((p) => h("button", { type: "button", class: "pool-tab", dataset: { pool: p },
      "aria-pressed": p === pool ? "true" : "false",
      onclick: () => navigate(`/leaderboard/${p}`) }, t(`pool.${p}`))));
  const rows = data.players.map((e) => h("tr", { dataset: { player: e.player_id },
    class: e.bot ? "bot" : "" },
  h("td", {}, String(e.rank)),
  h("td", {}, link(e.link, e.names ? (e.names[lang()] ?? e.nickname) : e.nickname),
    e.bot ? h("span", { class: "muted" }, ` (${t("profile.bot")})`) : null),
  h("td", { title: e.provisional ? t("board.provisional") : "" },
    `${Math.round(e.rating)}${e.provisional ? "?" : ""}`),
  h("td", {}, String(e.games))));
  mount(main, h("section", { class: "panel leaderboard" },
    h("h1", {}, t("board.title")), tabs, h("h2", {}, t(`pool.${pool}`)),
    rows.length ? h("table", { class: "stats", id: "board" },
      h("thead", {}, h("tr", {}, h("th", {}, t("board.rank")), h("th", {}, t("board.player")),
        h("th", {}, t("board.rating")), h("th", {}, t("board.games")))),
      h("tbody", {}, rows)) : h("p", {}, t("board.empty"))));
}

export function leaderboardPage(pool) {
  const chosen = POOLS.includes(pool) ? pool : POOLS[0];
  let data = null;
  setPage({ destroy() {}, rerender: () => data && draw(chosen, data) });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));
  request("GET", `/api/leaderboard/${chosen}`).then((d) => {
    data = d;
    draw(chosen, d);
  }).catch((err) => mount(main, h("p", { class: "error", role: "alert" }, errorText(err))));
}
