// The top bar: the brand, the lobby link, who you are, the sound and language switches.

import { identity } from "./api.js";
import { h, mount } from "./dom.js";
import { icon } from "./icons.js";
import { LANGS, lang, setLang, t } from "./i18n.js";
import { link, topbar } from "./shell.js";
import { SOUND_KEY, soundOn } from "./sound.js";

export function renderTopbar() {
  const id = identity();
  mount(topbar,
    link("/", h("span", { class: "brand-mark", "aria-hidden": "true" }, "♣♦"),
      h("span", { class: "brand" }, "konkun")),
    h("nav", { class: "nav" }, link("/", t("nav.lobby")),
      link("/leaderboard", t("nav.leaderboard")), link("/rules/konchinka", t("nav.rules")),
      link("/account", t("nav.account"))),
    h("div", { class: "spacer" }),
    id ? h("span", { class: "whoami", title: t("me.hello", { name: id.nickname }) },
      id.nickname) : null,
    h("button", { type: "button", class: "sound-btn", id: "sound",
      "aria-pressed": soundOn() ? "true" : "false", title: t("sound.toggle"),
      "aria-label": t("sound.toggle"), onclick: () => {
        localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
        renderTopbar();
      } }, icon(soundOn() ? "bell" : "bellOff")),
    h("div", { class: "lang-switch", role: "group", "aria-label": t("lang.switch") },
      LANGS.map((code) => h("button", { type: "button", class: "lang-btn",
        "aria-pressed": code === lang() ? "true" : "false", dataset: { lang: code },
        onclick: () => setLang(code) }, code.toUpperCase()))));
}
