// The account page (/account): claim the guest's name with a password, log in on this
// device, change the password, log out here or everywhere (docs/protocol.md, Accounts).

import { forgetIdentity, identity, request, storeIdentity } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, link, main, navigate, setPage } from "./shell.js";
import { renderTopbar } from "./topbar.js";

function field(id, label, type = "password", value = "") {
  return h("label", { class: "field", for: id }, h("span", {}, label),
    h("input", { id, name: id, type, value, required: true,
      autocomplete: type === "password" ? (id === "claim-password" || id === "new-password"
        ? "new-password" : "current-password") : "username" }));
}

/** The text in form field `id` ("" when the page has no such field).
 * @param {string} id
 * @returns {string} */
function value(id) {
  return /** @type {HTMLInputElement | null} */ (document.getElementById(id))?.value ?? "";
}

function form(id, title, fields, button, onSubmit) {
  const error = h("p", { class: "error", id: `${id}-error`, role: "alert", hidden: true });
  return h("form", { class: "account-form", id, onsubmit: async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    try {
      await onSubmit();
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
    }
  } }, h("h2", {}, title), ...fields,
  h("button", { type: "submit", class: "primary", id: `${id}-submit` }, button), error);
}

/** Log in, or claim, then redraw: the identity is the server's answer. */
function adopt(data) {
  storeIdentity(data);
  renderTopbar();
}

export function accountPage() {
  let info = null;

  async function load() {
    info = identity() ? await request("GET", "/api/account").catch(() => null) : null;
    draw();
  }

  function draw() {
    const id = identity();
    /** @type {HTMLElement[]} */
    const parts = [h("h1", {}, t("account.title"))];
    if (info && info.account) {
      parts.push(h("p", { id: "account-status" }, t("account.claimed", { name: info.nickname })),
        h("p", {}, t("account.sessions", { n: info.sessions })),
        h("p", {}, link(`/profile/${encodeURIComponent(info.player_id)}`,
          t("account.profile"))),
        form("change-form", t("account.change"), [
          field("old-password", t("account.currentPassword")),
          field("new-password", t("account.newPassword"))], t("account.change"), async () => {
          adopt(await request("POST", "/api/account/password",
            { password: value("old-password"), new_password: value("new-password") }));
          toast(t("account.changed"));
          await load();
        }),
        h("div", { class: "row" },
          h("button", { type: "button", id: "logout", onclick: async () => {
            await request("POST", "/api/account/logout", {}).catch(() => null);
            forgetIdentity();
            renderTopbar();
            await load();
          } }, t("account.logout")),
          h("button", { type: "button", id: "logout-all", onclick: async () => {
            try {
              await request("POST", "/api/account/logout-all", {});
              forgetIdentity();
              renderTopbar();
              toast(t("account.loggedOutAll"));
              await load();
            } catch (err) {
              toast(errorText(err), "error");
            }
          } }, t("account.logoutAll"))));
    } else {
      if (id && info) {
        parts.push(h("p", { id: "account-status" }, t("account.guest", { name: id.nickname })),
          form("claim-form", t("account.claim"), [
            field("claim-nickname", t("account.nickname"), "text", id.nickname),
            field("claim-password", t("account.password"))], t("account.claim"), async () => {
            adopt(await request("POST", "/api/account/claim",
              { nickname: value("claim-nickname"), password: value("claim-password") }));
            await load();
          }));
      }
      parts.push(form("login-form", t("account.loginTitle"), [
        field("login-nickname", t("account.nickname"), "text"),
        field("login-password", t("account.currentPassword"))], t("account.login"), async () => {
        adopt(await request("POST", "/api/account/login",
          { nickname: value("login-nickname"), password: value("login-password") }));
        navigate("/account");
      }));
    }
    mount(main, h("section", { class: "panel account" }, ...parts));
  }

  setPage({ destroy() {}, rerender: draw });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));
  load();
}

/** Ask, in a dialog, whether to play a table with the seat link just opened (``holder``,
 * whom its token names) while this browser has its own identity ``mine``; resolves true to
 * use the link at this table only (the browser's own name stays, and stays its own). */
export function askSeatLink(holder, mine) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { id: "seat-link-dialog", class: "panel",
      "aria-labelledby": "seat-link-title" });
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    mount(dialog,
      h("h2", { id: "seat-link-title" }, t("seatLink.title")),
      h("p", {}, t("seatLink.question", { them: holder.nickname, me: mine.nickname })),
      h("div", { class: "row" },
        h("button", { type: "button", id: "seat-link-use", class: "primary",
          onclick: () => close(true) }, t("seatLink.use", { them: holder.nickname })),
        h("button", { type: "button", id: "seat-link-keep", onclick: () => close(false) },
          t("seatLink.keep", { me: mine.nickname }))));
    dialog.addEventListener("cancel", () => close(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}
