// The nickname form (lobby and table) and the checks the page makes before sending it.

import { ApiError, identity, loginGuest } from "./api.js";
import { h, present } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./shell.js";
import { renderTopbar } from "./topbar.js";

const MAX_NICKNAME = 24;
const MAX_CODE_POINTS = 160; // the server's limit too (names.py)

/** The user-perceived characters of a text (an emoji or an accented letter is one).
 * @param {string} text */
function graphemeCount(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;
  }
  return [...text].length;
}

/** Why a nickname would be refused, as a player's text; null when it is fine.
 * @param {string} text
 * @returns {string | null} */
function nicknameProblem(text) {
  const name = text.trim().split(/\s+/).join(" ");
  if (!name) return t("err.nicknameEmpty");
  const count = graphemeCount(name);
  if (count > MAX_NICKNAME || [...name].length > MAX_CODE_POINTS) {
    return t("err.nicknameLong", { n: MAX_NICKNAME, count });
  }
  return null;
}

/** What was typed, kept across redraws. @type {string | null} */
let nameDraft = null;

/** The nickname form; `onDone` once the name is taken.
 * @param {() => void} [onDone] */
export function nameForm(onDone) {
  // maxlength counts UTF-16 units: room for every code point the server takes, as two
  // not `required`: the browser's own bubble would refuse an empty name without the page's
  // words; the form's check says why (err.nicknameEmpty)
  const input = h("input", { id: "nickname", name: "nickname", maxlength: 2 * MAX_CODE_POINTS,
    "aria-describedby": "name-error", autocomplete: "nickname", value: nameDraft ?? identity()?.nickname ?? "",
    oninput: (/** @type {InputEvent & {target: HTMLInputElement}} */ ev) => {
      nameDraft = ev.target.value;
    } });
  const form = h("form", { class: "name-form", onsubmit: async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    const problem = nicknameProblem(input.value);
    if (problem) {
      showNameError(form, problem);
      input.focus();
      return;
    }
    try {
      await loginGuest(input.value.trim());
      nameDraft = null;
      renderTopbar();
      onDone?.();
    } catch (err) {
      const text = err instanceof ApiError && err.code === "bad_request"
        ? t("err.nicknameChars") : errorText(err);
      showNameError(form, text);
    }
  } },
  h("label", { for: "nickname" }, t("me.nickname")), input,
  h("button", { type: "submit", class: "primary", id: "save-name" }, t("me.save")),
  h("p", { class: "error name-error", id: "name-error", role: "alert", hidden: true }));
  return form;
}

/** @param {HTMLFormElement} form @param {string} text */
function showNameError(form, text) {
  const box = present(/** @type {HTMLElement | null} */ (form.querySelector("#name-error")),
    "the name form's error line");
  box.textContent = text;
  box.hidden = false;
}
