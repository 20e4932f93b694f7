// The table's chat (also shown, up to the frame's move, in a replay).

import { identity } from "./api.js";
import { h, keepingFocus, mount } from "./dom.js";
import { t } from "./i18n.js";

const QUICK_PHRASES = 6;

/** One chat line: the sender's name (spectators marked) and the text, only ever as text. */
export function chatLine(m, names) {
  const who = m.seat !== null && m.seat !== undefined ? names?.[m.seat] ?? m.name : m.name;
  return h("li", { class: `chat-line ${m.spectator ? "spectator" : ""}`,
    dataset: { seat: m.seat ?? "" } },
  h("strong", {}, who), m.spectator ? h("span", { class: "tag watch" }, t("chat.spectator"))
    : null, ": ", h("span", { class: "chat-text" }, m.text));
}

/** The table's chat: its lines, quick phrases and a line to type (kept across redraws). */
export function chatPanel(chat, names, send) {
  const box = chat.box || (chat.box = h("section", { class: "panel chat", id: "chat",
    "aria-label": t("chat.title") }));
  const input = chat.input || (chat.input = h("input", { id: "chat-input", maxlength: 400,
    autocomplete: "off", "aria-label": t("chat.placeholder") }));
  input.placeholder = t("chat.placeholder");
  const log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" },
    chat.messages.map((m) => chatLine(m, names)));
  const quick = h("div", { class: "quick-phrases" }, Array.from({ length: QUICK_PHRASES },
    (_, i) => h("button", { type: "button", class: "quick", dataset: { quick: i },
      onclick: () => send(t(`chat.q${i}`)) }, t(`chat.q${i}`))));
  // the kept input moves into the new form, which drops its focus: a person typing keeps it
  keepingFocus(() => mount(box, h("h3", {}, t("chat.title")), log, identity() ? quick : null,
    identity() ? h("form", { class: "chat-form", onsubmit: (ev) => {
      ev.preventDefault();
      if (!input.value.trim()) return;
      if (send(input.value)) input.value = "";
    } }, input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")))
      : h("p", { class: "muted small" }, t("chat.needName"))));
  log.scrollTop = log.scrollHeight;
  return box;
}
