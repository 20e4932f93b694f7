// The konkun page: one index.html that routes on location.pathname.
//   /            the lobby (name, new table, open tables, finished games)
//   /t/{id}      a table (seats, then the game)
//   /replay/{id} a finished game, move by move
//   /account, /profile/{id}, /leaderboard/{pool}  accounts and ratings
//   /rules/{game}  the rules of konchinka or kunken (rulespage.js)
//
// The pages live in lobby.js, table.js and replay.js; the frame they share in shell.js.

import { accountPage } from "./account.js";
import { h, mount } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { leaderboardPage } from "./leaderboard.js";
import { learnPage } from "./learn.js";
import { puzzlesPage } from "./puzzles.js";
import { profilePage } from "./profile.js";
import { loadCatalog } from "./catalog.js";
import { lobbyPage } from "./lobby.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rulespage.js";
import { link, main, page, setPage, setRouter } from "./shell.js";
import { tablePage } from "./table.js";
import { renderTopbar } from "./topbar.js";

async function route() {
  await loadCatalog(); // titles and page modules; the lobby retries when it failed
  if (page) page.destroy();
  setPage(null);
  renderTopbar();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([^/]+)\/?$/))) tablePage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/replay\/([^/]+)\/?$/))) replayPage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/profile\/([^/]+)\/?$/))) profilePage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/leaderboard(?:\/([^/]+))?\/?$/))) leaderboardPage(m[1]);
  else if (path.match(/^\/account\/?$/)) accountPage();
  else if ((m = path.match(/^\/rules\/(konchinka|kunken)\/?$/))) rulesPage(m[1]);
  else if ((m = path.match(/^\/learn\/([^/]+)\/?$/))) learnPage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/puzzles(?:\/([^/]+))?\/?$/))) puzzlesPage(m[1]);
  else if (path === "/") lobbyPage();
  else notFoundPage(path);
}

/** An address the site does not have, said in the page's words (the server answers 404).
 * @param {string} path */
function notFoundPage(path) {
  const draw = () => mount(main, h("section", { class: "panel", id: "not-found" },
    h("h1", {}, t("nf.title")), h("p", {}, t("nf.text", { path })),
    link("/", t("table.backToLobby"))));
  setPage({ destroy() {}, rerender: draw });
  draw();
}

onLangChange(() => {
  renderTopbar();
  page?.rerender();
});
setRouter(route);
window.addEventListener("popstate", route);
route();
