// The leaderboard page (/leaderboard/{pool}): one table per rating pool, people and the
// ladder's bots together, best first (docs/ratings.md). The pools and their titles are the
// games' own: each game's `ratings` in GET /api/catalog.

import { request } from "./api.js";
import { h, mount, nameTag } from "./dom.js";
import { loadCatalog, titled } from "./catalog.js";
import { lang, t } from "./i18n.js";
import { errorText, link, main, navigate, setPage } from "./shell.js";

/** Every game's rating pools from the catalog: [{pool, title, min_seats, max_seats}]. */
export async function ratingPools() {
  const catalog = await loadCatalog();
  return (catalog?.games ?? []).flatMap((g) => g.ratings ?? []);
}

/** A pool's title in the page's language (its name when no game declares it). */
export function poolTitle(pools, pool) {
  return titled(pools.find((p) => p.pool === pool)?.title, pool);
}

function poolTabs(pools, pool) {
  return h("nav", { class: "pool-tabs", "aria-label": t("board.title") },
    pools.map(({ pool: p }) => h("button", { type: "button", class: "pool-tab",
      dataset: { pool: p }, "aria-pressed": p === pool ? "true" : "false",
      onclick: () => navigate(`/leaderboard/${p}`) }, poolTitle(pools, p))));
}

/** An address naming no pool: said so, with the pools there are. */
function drawNoPool(pools, pool) {
  mount(main, h("section", { class: "panel leaderboard", id: "no-pool" },
    h("h1", {}, t("board.title")), h("p", { role: "alert" }, t("board.noPool", { pool })),
    poolTabs(pools, null)));
}

function draw(pools, pool, data) {
  const tabs = poolTabs(pools, pool);
  const rows = data.players.map((e) => h("tr", { dataset: { player: e.player_id },
    class: e.bot ? "bot" : "" },
  h("td", {}, String(e.rank)),
  h("td", { class: "player" }, link(e.link, nameTag(e.names ? (e.names[lang()] ?? e.nickname)
    : e.nickname)),
    e.bot ? h("span", { class: "muted" }, ` (${t("profile.bot")})`) : null),
  h("td", { title: e.provisional ? t("board.provisional") : "" },
    `${Math.round(e.rating)}${e.provisional ? "?" : ""}`),
  h("td", {}, String(e.games))));
  mount(main, h("section", { class: "panel leaderboard" },
    h("h1", {}, t("board.title")), tabs, h("h2", {}, poolTitle(pools, pool)),
    rows.length ? h("table", { class: "stats", id: "board" },
      h("thead", {}, h("tr", {}, h("th", {}, t("board.rank")), h("th", {}, t("board.player")),
        h("th", {}, t("board.rating")), h("th", {}, t("board.games")))),
      h("tbody", {}, rows)) : h("p", {}, t("board.empty"))));
}

export function leaderboardPage(pool) {
  let shown = null;
  setPage({ destroy() {}, rerender: () => shown && draw(...shown) });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));
  ratingPools().then(async (pools) => {
    if (pool && !pools.some((p) => p.pool === pool)) {
      shown = null;
      setPage({ destroy() {}, rerender: () => drawNoPool(pools, pool) });
      drawNoPool(pools, pool);
      return;
    }
    const chosen = pool || pools[0]?.pool;
    if (chosen === undefined) {
      mount(main, h("p", {}, t("board.empty")));
      return;
    }
    shown = [pools, chosen, await request("GET", `/api/leaderboard/${chosen}`)];
    draw(...shown);
  }).catch((err) => mount(main, h("p", { class: "error", role: "alert" }, errorText(err))));
}
