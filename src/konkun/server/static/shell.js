// The page's frame: its main and top-bar elements, the page now shown, navigation
// between pages, and the helpers every page shares.

import { ApiError } from "./api.js";
import { byId, h } from "./dom.js";
import { errorText as codeText, has, t } from "./i18n.js";

/**
 * The page now shown: what the router calls when it draws another page or the language
 * changes; the lobby keeps its new-table form's choices on it.
 * @typedef {{destroy(): void, rerender(): void, form?: import("./lobby.js").LobbyForm,
 *   tableId?: string}} ShownPage
 */

export const main = byId("main");
export const topbar = byId("topbar");
/** @type {ShownPage | null} */
export let page = null;

/** Make ``p`` ({destroy(), rerender()}) the page now shown.
 * @param {ShownPage | null} p */
export function setPage(p) {
  page = p;
}

/** The router, which draws the page of location.pathname.
 * @type {() => void} */
let router = () => {};

/** Set the router that ``navigate`` runs (app.js, at start).
 * @param {() => void} fn */
export function setRouter(fn) {
  router = fn;
}

/** A player's text for a failed request: by the server's error code, never its message.
 * @param {unknown} err
 * @returns {string} */
export function errorText(err) {
  if (err instanceof ApiError && err.limit && has(`err.${err.code}.${err.limit}`)) {
    return t(`err.${err.code}.${err.limit}`, { max: err.max });
  }
  if (err instanceof ApiError) return codeText(err.code);
  return t("err.network");
}

/** A selector that finds the same control after a redraw (keeps keyboard focus).
 * @param {Element | null} node
 * @returns {string | null} */
export function focusSelector(node) {
  if (!node || node === document.body || !main.contains(node)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const { dataset } = /** @type {Partial<HTMLElement>} */ (node);
  if (dataset?.card) return `.hand [data-card="${CSS.escape(dataset.card)}"]`;
  if (dataset?.action) return `[data-action="${CSS.escape(dataset.action)}"]`;
  return null;
}

/** Show the page of `path` (kept in the history).
 * @param {string} path */
export function navigate(path) {
  if (path !== location.pathname) history.pushState({}, "", path);
  router();
}

/** A link that shows its page without reloading (unless opened in a new tab or window).
 * @param {string} path
 * @param {...import("./dom.js").Child} children */
export function link(path, ...children) {
  return h("a", { href: path, onclick: (/** @type {MouseEvent} */ ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    navigate(path);
  } }, ...children);
}
