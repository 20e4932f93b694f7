// The page's frame: its main and top-bar elements, the page now shown, navigation
// between pages, and the helpers every page shares.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { errorText as codeText, has, t } from "./i18n.js";

export const main = document.getElementById("main");
export const topbar = document.getElementById("topbar");
export let page = null; // {destroy(), rerender()}

/** Make ``p`` ({destroy(), rerender()}) the page now shown. */
export function setPage(p) {
  page = p;
}

let router = null; // the router, which draws the page of location.pathname

/** Set the router that ``navigate`` runs (app.js, at start). */
export function setRouter(fn) {
  router = fn;
}

/** A player's text for a failed request: by the server's error code, never its message. */
export function errorText(err) {
  if (err instanceof ApiError && err.limit && has(`err.${err.code}.${err.limit}`)) {
    return t(`err.${err.code}.${err.limit}`, { max: err.max });
  }
  if (err instanceof ApiError) return codeText(err.code);
  return t("err.network");
}

/** A selector that finds the same control after a redraw (keeps keyboard focus). */
export function focusSelector(node) {
  if (!node || node === document.body || !main.contains(node)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  if (node.dataset?.card) return `.hand [data-card="${CSS.escape(node.dataset.card)}"]`;
  if (node.dataset?.action) return `[data-action="${CSS.escape(node.dataset.action)}"]`;
  return null;
}

export function navigate(path) {
  if (path !== location.pathname) history.pushState({}, "", path);
  router();
}

export function link(path, ...children) {
  return h("a", { href: path, onclick: (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    navigate(path);
  } }, ...children);
}
