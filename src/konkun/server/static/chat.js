// The table's chat (also shown, up to the frame's move, in a replay), and its unread mark:
// lines from others that came while the chat was out of sight (scrolled away, or the tab
// hidden) are counted until it comes into view.

import { identity } from "./api.js";
import { h, kept, keepingFocus, patch } from "./dom.js";
import { lang, t } from "./i18n.js";

const QUICK_PHRASES = 6;
const MAX_CHAT = 200; // the server's limit (chat.py), in characters as a person counts them

/**
 * A table's chat as the page keeps it: the lines, the field, the line sent and not yet
 * echoed, how many came unseen, whether the chat is in view.
 * @typedef {object} ChatState
 * @property {import("./protocol.js").ChatLine[]} messages
 * @property {HTMLInputElement} [input]
 * @property {ChatControls} [controls]
 * @property {(text: string) => boolean} [send] how a line goes out (the latest given)
 * @property {{text: string, after: number} | null} [pending]
 * @property {number} [unread]
 * @property {number} [heard] how many lines the socket has brought so far
 * @property {boolean} [inView]
 * @property {() => void} [stop]
 */

/**
 * The quick phrases and the line's form, kept across redraws in one language.
 * @typedef {object} ChatControls
 * @property {string} lang
 * @property {HTMLElement} quick
 * @property {HTMLElement} form
 */

/** The key a line is known by (a line has no number of its own on the wire).
 * @param {import("./protocol.js").ChatLine} m */
function lineKey(m) {
  return JSON.stringify([m.at, m.seat, m.name, m.text]);
}

/**
 * The chat after its history came back: the `stored` lines (as the server read them) and
 * after them the lines the socket brought while the history was asked (`since`) that the
 * server read too late to include, in the order they came. A history read before a line
 * was stored and received after the line came by the socket would otherwise drop it.
 * @param {import("./protocol.js").ChatLine[]} stored
 * @param {import("./protocol.js").ChatLine[]} since
 * @param {number} [keep] the most lines the page keeps
 */
export function withLinesSince(stored, since, keep = 200) {
  const known = new Set(stored.map(lineKey));
  return [...stored, ...since.filter((m) => !known.has(lineKey(m)))].slice(-keep);
}

/** A line as the server stores it: trimmed, each run of white space one space. */
function cleaned(text) {
  return text.trim().split(/\s+/).join(" ");
}

/** Clear the field once the server has sent back the line it holds (a line the server
 * refuses stays in the field, to be changed and sent again). */
function clearIfEchoed(chat) {
  const sent = chat.pending;
  if (!sent || !chat.messages.slice(sent.after).some((m) => m.text === sent.text)) return;
  if (cleaned(chat.input.value) === sent.text) chat.input.value = "";
  chat.pending = null;
}

/** One chat line: the sender's name (spectators marked) and the text, only ever as text. */
export function chatLine(m, names) {
  const who = m.seat !== null && m.seat !== undefined ? names?.[m.seat] ?? m.name : m.name;
  return h("li", { class: `chat-line ${m.spectator ? "spectator" : ""}`,
    dataset: { seat: m.seat ?? "" } },
  h("strong", {}, who), m.spectator ? h("span", { class: "tag watch" }, t("chat.spectator"))
    : null, ": ", h("span", { class: "chat-text" }, m.text));
}

/** Whether the person sees the chat now: the tab shown and the chat in the window. */
export function chatSeen(chat) {
  return !document.hidden && !!chat.inView;
}

/** Count the chat's unread lines down to none whenever it comes into sight; `changed` is
 * called then (to redraw the mark). `chat.stop()` ends the watch. */
export function watchChat(chat, changed) {
  const check = () => {
    if (chatSeen(chat) && chat.unread) {
      chat.unread = 0;
      changed();
    }
  };
  chat.check = check;
  document.addEventListener("visibilitychange", check);
  chat.stop = () => {
    document.removeEventListener("visibilitychange", check);
    chat.observer?.disconnect();
  };
}

function observe(chat, box) {
  if (!chat.check || typeof IntersectionObserver === "undefined") return;
  chat.observer = new IntersectionObserver((entries) => {
    chat.inView = entries[entries.length - 1].isIntersecting;
    chat.check();
  });
  chat.observer.observe(box);
}

/** The quick phrases and the line's form, made once for each language: the chat redraws
 * with every line, and a button drawn anew between a person's press and release would
 * take no click (the line would be lost). */
function controls(chat, input) {
  if (chat.controls?.lang === lang()) return chat.controls;
  const quick = h("div", { class: "quick-phrases" }, Array.from({ length: QUICK_PHRASES },
    (_, i) => h("button", { type: "button", class: "quick", dataset: { quick: i },
      onclick: () => chat.send?.(t(`chat.q${i}`)) }, t(`chat.q${i}`))));
  const form = h("form", { class: "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    if (chat.send?.(input.value)) {
      chat.pending = { text: cleaned(input.value), after: chat.messages.length };
    }
  } }, input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")));
  chat.controls = { lang: lang(), quick, form };
  return chat.controls;
}

/** The table's chat: its lines, quick phrases and a line to type (kept across redraws);
 * once the game is over (`closed`) only its lines, and a note that it is closed. Returns
 * the chat's box for the page's tree (`kept`: a stand-in while the box is in the page). */
export function chatPanel(chat, names, send, closed = false) {
  if (!chat.box) {
    chat.box = h("section", { class: "panel chat", id: "chat", "aria-label": t("chat.title") });
    observe(chat, chat.box);
  }
  const box = chat.box;
  // maxlength counts UTF-16 units, never fewer than characters: no longer than the server takes
  const input = chat.input || (chat.input = h("input", { id: "chat-input", maxlength: MAX_CHAT,
    autocomplete: "off", "aria-label": t("chat.placeholder") }));
  input.placeholder = t("chat.placeholder");
  clearIfEchoed(chat);
  const log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" },
    chat.messages.map((m) => chatLine(m, names)));
  chat.send = send;
  const { quick, form } = controls(chat, input);
  const unread = chat.unread ? h("span", { class: "tag unread", id: "chat-unread" },
    t("chat.unread", { n: chat.unread })) : null;
  // patched, the buttons and the field stay in the page (a new language moves the field)
  keepingFocus(() => patch(box, h("h3", {}, t("chat.title"), " ", unread), log,
    identity() && !closed ? kept(quick) : null,
    closed ? h("p", { class: "muted small", id: "chat-closed" }, t("chat.closed"))
    : identity() ? kept(form)
      : h("p", { class: "muted small need-name" }, h("a", { href: "#nickname", onclick: (ev) => {
        const field = document.getElementById("nickname");
        if (!field) return;
        ev.preventDefault();
        field.focus();
      } }, t("chat.needName")))));
  const shown = box.querySelector(".chat-log");
  if (shown) shown.scrollTop = shown.scrollHeight;
  return kept(box);
}
