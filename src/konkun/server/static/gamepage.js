// The game-page contract and the registry of game pages (docs/web.md, "Game pages").
//
// A game page is the ES module that draws one game's table: the catalog's `page` of the
// game (GET /api/catalog) names it, as an address under /static/ ("konchinka.js" for a
// game of konkun's own, "games/{game}/page.js" for a game an external package ships;
// the server serves that package's directory there). The registry imports each module
// with the catalog, checks that it keeps the contract (GamePage), adds its texts to the
// page's dictionary, and links its stylesheets only once a table of the game is drawn.
// No module of the page names a game: they all ask the registry.

import { addTexts } from "./i18n.js";

/** @typedef {import("./pagetypes.js").View} View */
/** @typedef {import("./protocol.js").TableSummary} TableSummary */
/** @typedef {import("./protocol.js").LastAction} LastAction */

/**
 * What a game page draws its table from (table.js and replay.js build it).
 * @typedef {object} RenderContext
 * @property {View} view the view of the seat shown
 * @property {View[] | null} [views] every seat's view (a replay with all hands open)
 * @property {TableSummary} table
 * @property {number | null} you the seat shown; null for a spectator
 * @property {LastAction | null} last the action just played
 * @property {string} lang
 * @property {string[]} names the seats' display names
 * @property {Record<string, any>} ui the page's state kept across redraws (selection, ...)
 * @property {boolean} readOnly
 * @property {boolean} [replay]
 * @property {HTMLElement} [matchLog] the match log, for a module that places it itself
 * @property {(action: string) => void} play send an action text (the game's notation)
 * @property {(() => Promise<any>) | null} [hint]
 */

/**
 * A game's texts: by language ("en", "ru"), then by key ("k.take"). Keys are the game's
 * own; a key the shared dictionary has already keeps its shared text.
 * @typedef {Record<string, Record<string, string>>} GameTexts
 */

/**
 * The contract of a game page: what a game's page module exports (checked by tsc in
 * konchinka.js and kunken.js, and by `loadGamePage` when an external module arrives).
 * @typedef {object} GamePage
 * @property {(container: HTMLElement, ctx: RenderContext) => void} render draw the table
 *   of `ctx.view` into `container` (replacing what it holds); a click becomes
 *   `ctx.play(actionText)`
 * @property {(action: string, lang: string, parts?: any) => string} formatAction an
 *   action text in words of the language (the move log, the replay's caption, the
 *   analysis); `parts` is the action's parts where the server describes the game's actions
 *   (a Kunken action's kind, cards, ...: docs/kunken.md, "Action parts")
 * @property {GameTexts} texts the game's texts in every language the page has
 * @property {string[]} [styles] the game's stylesheets, addresses relative to the module
 *   ("konchinka.css"); linked once a table of the game is drawn
 * @property {(action: string, parts?: any) => boolean} [endsTurn] whether an action ends
 *   the seat's turn (the move log's grouping; without it every action is an entry)
 * @property {(end: any, names: string[], lang: string) => import("./dom.js").Child}
 *   [dealEndBody] the end-of-deal screen's body (without it: each seat's points)
 * @property {import("./fairness.js").FairDeal} [fairDeal] the replay's fair-deal check
 *   (without it the cards are not recomputed)
 * @property {boolean} [placesMatchLog] the module puts `ctx.matchLog` in its own column
 */

/** @typedef {GamePage} PageModule the name the shared modules knew it by */

/** `module` itself, once tsc has checked that it keeps the contract: a game page calls it
 * with its own namespace (`import * as self from "./konchinka.js"; keepsContract(self)`).
 * @param {GamePage} module
 * @returns {GamePage} */
export function keepsContract(module) {
  return module;
}

/** Each game's page, by game name, once loaded (`loadGamePage`). A game without one
 * cannot be drawn at its table.
 * @type {Record<string, GamePage>} */
export const RENDERERS = {};

/** Each loaded game's stylesheets as absolute addresses, by game name.
 * @type {Map<string, string[]>} */
const STYLES = new Map();

/** Each game's stylesheets being linked: resolved once all have loaded (or failed).
 * @type {Map<string, Promise<void>>} */
const LINKING = new Map();

/** The games whose stylesheets have loaded. @type {Set<string>} */
const STYLED = new Set();

/** A catalog `page` the registry imports: a path under /static/ whose `/`-separated
 * segments are lower-case letters, digits, `_` and `-`, ending in `.js` (no other site, no
 * `..`; the server checks the same, GamePage in core/games.py). */
const PAGE_PATH = /^(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.js$/;

/** Whether `path` is a page address the registry accepts.
 * @param {string | null | undefined} path
 * @returns {path is string} */
export function isPagePath(path) {
  return typeof path === "string" && PAGE_PATH.test(path);
}

/** Why `module` does not keep the contract, or null when it does.
 * @param {Record<string, any>} module
 * @returns {string | null} */
export function contractProblem(module) {
  if (typeof module.render !== "function") return "it exports no render(container, ctx)";
  if (typeof module.formatAction !== "function") return "it exports no formatAction(action, lang)";
  if (!module.texts || typeof module.texts !== "object") return "it exports no texts";
  if (module.styles !== undefined && !(Array.isArray(module.styles)
      && module.styles.every((/** @type {unknown} */ s) => typeof s === "string"))) {
    return "its styles are not a list of addresses";
  }
  return null;
}

/** Register `module` as the page of `game`: its texts join the dictionary, its
 * stylesheets (relative to `moduleUrl`) wait for its first table. Throws a TypeError
 * naming the game when the module breaks the contract.
 * @param {string} game
 * @param {Record<string, any>} module
 * @param {string | URL} moduleUrl the module's address (its stylesheets are relative to it)
 * @returns {GamePage} */
export function registerGamePage(game, module, moduleUrl) {
  const problem = contractProblem(module);
  if (problem) throw new TypeError(`the page module of ${game} breaks the contract: ${problem}`);
  const page = /** @type {GamePage} */ (module);
  addTexts(page.texts);
  STYLES.set(game, (page.styles ?? []).map((s) => new URL(s, moduleUrl).href));
  RENDERERS[game] = page;
  return page;
}

/** Import the page module at `path` (under /static/, the catalog's `page`) and register
 * it as the page of `game`; null when the path is not one the registry accepts.
 * @param {string} game
 * @param {string | null | undefined} path
 * @returns {Promise<GamePage | null>} */
export async function loadGamePage(game, path) {
  if (!isPagePath(path)) return null;
  const url = new URL(`./${path}`, import.meta.url);
  return registerGamePage(game, await import(url.href), url);
}

/** The redraw waiting for each game's stylesheets (the latest asked). @type {Map<string, () => void>} */
const WAITING = new Map();

/** Whether the stylesheets of `game` have loaded; when not, link them (once) and call
 * `then` when they have (only the latest `then` asked: one redraw, however many draws
 * came before), so that a table is never drawn unstyled.
 * @param {string} game
 * @param {() => void} then
 * @returns {boolean} */
export function gameStyled(game, then) {
  const sheets = STYLES.get(game) ?? [];
  if (STYLED.has(game) || !sheets.length) return true;
  WAITING.set(game, then);
  if (!LINKING.has(game)) {
    LINKING.set(game, Promise.all(sheets.map(linkStylesheet)).then(() => {
      STYLED.add(game);
      const redraw = WAITING.get(game);
      WAITING.delete(game);
      redraw?.();
    }));
  }
  return false;
}

/** Link the stylesheet at `href` in the document's head; resolves when it has loaded or
 * failed (a missing sheet leaves the table unstyled, not undrawn).
 * @param {string} href
 * @returns {Promise<void>} */
function linkStylesheet(href) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.dataset.gameStyle = "";
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => resolve());
    document.head.appendChild(link);
  });
}
