// A tiny DOM builder and the toast messages shared by every page.

/** Elements given a listener by `h`: `patch` never updates one in place, as its listeners
 * may belong to what it showed before.
 * @type {WeakSet<Node>} */
const listening = new WeakSet();

/** The node each stand-in of `kept` puts back in the page.
 * @type {WeakMap<Node, Node>} */
const standsFor = new WeakMap();

/**
 * `node`, a node the page keeps across redraws (a form, the chat), for a tree about to be
 * drawn with `patch` or `mount`. While `node` is in the page, a stand-in takes its place
 * in the new tree, so that building the tree does not take `node` out of the page: taking
 * a button out, even to put it back, cancels the click a person is making on it (a press
 * and a release then make no click). `patch` leaves `node` where it is when it stays
 * there, and puts it in place of its stand-in otherwise.
 * @param {Node} node
 * @returns {Node}
 */
export function kept(node) {
  if (!node.isConnected) return node;
  const stand = document.createComment("kept");
  standsFor.set(stand, node);
  return stand;
}

/** The kept node that `child` stands for, or `child` itself.
 * @param {Node} child */
function keptNode(child) {
  return standsFor.get(child) ?? child;
}

/** Put back, in `node`'s tree, the kept nodes that stand-ins hold places for.
 * @param {Node} node */
function putBackKept(node) {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_COMMENT);
  const stands = [];
  for (let c = walker.nextNode(); c; c = walker.nextNode()) {
    if (standsFor.has(c)) stands.push(c);
  }
  for (const stand of stands) stand.parentNode?.replaceChild(keptNode(stand), stand);
}

/**
 * What `h`, `mount` and `patch` take as children: nodes, texts and numbers, nested arrays
 * of them; null, undefined and false are skipped.
 * @typedef {Node | string | number | boolean | null | undefined | ChildList} Child
 * @typedef {Array<Child>} ChildList
 */

/**
 * The element with id `id`, which the page must hold: a clear error names the id when it
 * does not (rather than "cannot read properties of null" somewhere later).
 * @template {HTMLElement} [E=HTMLElement]
 * @param {string} id
 * @param {new () => E} [type] the element's class (HTMLInputElement, ...), checked too
 * @returns {E}
 */
export function byId(id, type) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no element #${id}`);
  if (type && !(node instanceof type)) {
    throw new Error(`#${id} is a <${node.tagName.toLowerCase()}>, not a ${type.name}`);
  }
  return /** @type {E} */ (node);
}

/**
 * `value` itself, which must not be null or undefined: a clear error says what was
 * missing.
 * @template T
 * @param {T} value
 * @param {string} what what the value is, for the error
 * @returns {NonNullable<T>}
 */
export function present(value, what) {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return /** @type {NonNullable<T>} */ (value);
}

/**
 * Build an element: h("button", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child).
 * Attributes starting with "on" become listeners; null/false attributes are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  /** @type {HTMLElement & {value?: unknown, checked?: boolean}} */
  const field = node;
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      node.addEventListener(k.slice(2), v);
      listening.add(node);
    }
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "class") node.className = v;
    else if (k === "value") field.value = v;
    else if (k === "checked") field.checked = Boolean(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  append(node, children);
  return node;
}

/** @param {Node} node @param {Child[]} children */
function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A player's name cut with an ellipsis when it does not fit, the whole name in its title.
 * A name's distinct ending, the number that tells two alike apart and a "(bot)" mark
 * ("Greedy 2 (bot)"), is never cut: "Gree… 2 (bot)", never "Greed…" for all of them.
 * @param {string | null | undefined} name
 * @param {Record<string, any>} [attrs]
 * @returns {HTMLSpanElement} */
export function nameTag(name, attrs = {}) {
  const text = String(name ?? "");
  const cls = ["name", attrs.class].filter(Boolean).join(" ");
  const parts = text.match(/^(.*?\S)(\s+\d+(?:\s+\([^()]+\))?|\s+\([^()]+\))$/u);
  return h("span", { ...attrs, class: parts ? `${cls} name-split` : cls, title: text },
    parts ? [h("span", { class: "name-cut" }, parts[1]), h("span", { class: "name-keep" },
      parts[2])] : text);
}

/** Replace all children of `node`.
 * @template {Element} N
 * @param {N} node
 * @param {...Child} children
 * @returns {N} */
export function mount(node, ...children) {
  node.replaceChildren();
  append(node, children);
  putBackKept(node);
  return node;
}

/**
 * Make `children` the children of `node` as `mount` does, but keep every old child that
 * is drawn the same (`isEqualNode`), and update in place an old element of the same role
 * that has no listener of its own (its children in turn). A page that redraws on every
 * message thus keeps the button a person is pressing: a press and a release on two
 * copies of a button make no click. A kept button keeps its old listener, which is right
 * as long as what a button does is what it shows (its text and attributes).
 * @template {Element} N
 * @param {N} node
 * @param {...Child} children
 * @returns {N}
 */
export function patch(node, ...children) {
  const fresh = document.createDocumentFragment();
  append(fresh, children);
  patchChildren(node, [...fresh.childNodes]);
  return node;
}

/** @param {Node} node @param {ChildNode[]} wanted */
function patchChildren(node, wanted) {
  wanted.forEach((given, at) => {
    const child = keptNode(given);
    const olds = [...node.childNodes].slice(at);
    // a kept node is itself or nothing: an old copy drawn the same is not it
    const same = olds.findIndex((old) => old === child
      || (child === given && old.isEqualNode(child)));
    if (same >= 0) olds.slice(0, same).forEach((dropped) => dropped.remove());
    else if (olds[0] && child === given && updatable(olds[0], child)) {
      updateInPlace(/** @type {Element} */ (olds[0]), /** @type {Element} */ (child));
    } else {
      node.insertBefore(child, olds[0] ?? null);
      putBackKept(child);
    }
  });
  [...node.childNodes].slice(wanted.length).forEach((extra) => extra.remove());
}

const FORM_FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA", "OPTION"]);

/** Whether `old` may take on `child` in place: the same role (tag, class and id), and
 * neither a form field nor an element with a listener. The class and id keep a node the
 * caller keeps across redraws (a game's own container) from being emptied into another.
 * @param {Node} old
 * @param {Node} child
 * @returns {boolean} */
function updatable(old, child) {
  if (old.nodeType !== Node.ELEMENT_NODE || child.nodeType !== Node.ELEMENT_NODE) return false;
  const [a, b] = /** @type {Element[]} */ ([old, child]);
  return a.tagName === b.tagName && a.className === b.className
    && a.id === b.id && !FORM_FIELDS.has(a.tagName)
    && !listening.has(a) && !listening.has(b);
}

/** @param {Element} old @param {Element} child */
function updateInPlace(old, child) {
  for (const { name } of [...old.attributes]) {
    if (!child.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const { name, value } of [...child.attributes]) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  patchChildren(old, [...child.childNodes]);
}

/** @typedef {HTMLInputElement | HTMLTextAreaElement} TextField */

/** Run `redraw`, which may take the focused element (a form kept across redraws) out of
 * the page and put it back: it then gets its focus and selection back, as taking it out
 * blurred it and the keys a person types next would go nowhere.
 * @param {() => void} redraw */
export function keepingFocus(redraw) {
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const field = /** @type {Partial<TextField> | null} */ (focused);
  const selection = field && typeof field.selectionStart === "number"
    ? /** @type {const} */ ([field.selectionStart, field.selectionEnd ?? null,
      field.selectionDirection ?? undefined]) : null;
  redraw();
  if (focused && focused !== document.body && focused.isConnected
      && document.activeElement !== focused) {
    focused.focus({ preventScroll: true });
    if (selection) field?.setSelectionRange?.(...selection);
  }
}

/** Show a message for a few seconds; kind "error" is announced assertively.
 * @param {Child} message
 * @param {string} [kind]
 * @param {number} [ms] */
export function toast(message, kind = "info", ms = 6000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    message);
  const close = h("button", { class: "toast-close", type: "button", "aria-label": "×",
    onclick: () => unscrolled(box, () => item.remove()) }, "×");
  item.appendChild(close);
  unscrolled(box, () => box.appendChild(item));
  setTimeout(() => unscrolled(box, () => item.remove()), ms);
}

/**
 * Add or remove a toast so that it never covers the page (tests/e2e/test_toasts.py): the
 * toasts take room in the page's flow under the top bar, stuck just below it (or at the
 * window's top where the bar scrolls away, on a phone) while the page scrolls, so a new one
 * pushes what is in view down instead of lying over it. The browser's scroll anchoring
 * would scroll the page to keep it still, under the toast: it is off for the change.
 */
function unscrolled(box, change) {
  const bar = document.getElementById("topbar");
  box.style.top = bar && getComputedStyle(bar).position === "sticky" ? `${bar.offsetHeight}px` : "0";
  const root = document.documentElement;
  const y = window.scrollY;
  root.classList.add("toast-moving");
  change();
  void box.offsetHeight;  // laid out now: an anchoring scroll already made is undone below
  if (window.scrollY !== y) window.scrollTo({ top: y, behavior: "instant" });
  requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove("toast-moving")));
}

/**
 * Route key presses outside form fields to `onKey(ev)` while `container` is on the page;
 * `onKey` returns true when it used the key. One handler per `ui`: binding again replaces it.
 * @param {{keyHandler?: ((ev: KeyboardEvent) => void) | null}} ui
 * @param {Element} container
 * @param {(ev: KeyboardEvent) => boolean | void | undefined} onKey
 */
export function bindKeys(ui, container, onKey) {
  if (ui.keyHandler) document.removeEventListener("keydown", ui.keyHandler);
  /** @param {KeyboardEvent} ev */
  const handler = (ev) => {
    if (!container.isConnected) {
      document.removeEventListener("keydown", handler);
      return;
    }
    const target = /** @type {Partial<Element> | null} */ (ev.target);
    if (target?.closest && target.closest("input, select, textarea")) return;
    if (onKey(ev)) ev.preventDefault();
  };
  ui.keyHandler = handler;
  document.addEventListener("keydown", handler);
}
