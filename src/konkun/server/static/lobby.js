// The lobby page (/): your name, the new-table form, open tables and finished games.

import { contributionFor } from "./fairness.js";
import { api, forgetIdentity, identity } from "./api.js";
import { h, keepingFocus, mount, present, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { botName, catalog, catalogEntry, gameTitle, loadCatalog, ratedBadge, seatNames,
  setOfferedBots, tableTerms, titled } from "./catalog.js";
import { teachingLinks } from "./learn.js";
import { nameForm } from "./nameform.js";
import { errorText, link, main, navigate, page, setPage } from "./shell.js";
import { rulesPath } from "./rulespage.js";
import { renderTopbar } from "./topbar.js";

let keptNameForm = null; // {node, lang}: one name form while the lobby redraws around it

/** The lobby's name form, the same element across redraws (so a click or a keystroke in
 * flight while the lobby's lists arrive is never lost); new after a language switch. */
/** The form's box `id` (a checkbox), or null while the form is not drawn.
 * @param {string} id
 * @returns {HTMLInputElement | null} */
function checkbox(id) {
  return /** @type {HTMLInputElement | null} */ (document.getElementById(id));
}

function lobbyNameForm(rerender) {
  if (!keptNameForm || keptNameForm.lang !== lang()) {
    keptNameForm = { node: nameForm(() => {
      keptNameForm = null;
      rerender();
    }), lang: lang() };
  }
  return keptNameForm.node;
}

function identityPanel(rerender) {
  const id = identity();
  if (!id) return h("section", { class: "panel identity" }, lobbyNameForm(rerender));
  return h("section", { class: "panel identity" },
    h("p", {}, t("me.hello", { name: id.nickname }), " ",
      h("button", { type: "button", class: "linkish", onclick: () => {
        forgetIdentity();
        renderTopbar();
        rerender();
      } }, t("me.change"))));
}

/** One rule option's input with its explanation shown as text under it. */
function ruleField(option, values, explanations) {
  const text = (explanations[option.name] || {})[lang()] || "";
  return h("div", { class: "rule-item", dataset: { rule: option.name } }, ruleInput(option, values),
    text ? h("p", { class: "rule-explain", id: `rule-${option.name}-explain` }, text) : null);
}

/** Rule options that only matter for one value of another: the stake only when the
 * winner takes the pool (under "difference" each loser pays what they fell short). */
const ONLY_WHEN = { stake: { option: "settlement", value: "pool" } };

/** The box of one rule option (its input, label and explanation). */
function ruleBox(input) {
  return input.closest(".rule-item") ?? input.closest(".rule");
}

/** Show each rule option that matters under the others' current values, hide the rest. */
function showRelevantRules(box) {
  for (const [name, when] of Object.entries(ONLY_WHEN)) {
    const input = box.querySelector(`[name="${name}"]`);
    const other = box.querySelector(`[name="${when.option}"]`);
    if (input && other) ruleBox(input).hidden = other.value !== when.value;
  }
}

/** One rule option's input, built from its schema. */
function ruleInput(option, values) {
  const { name } = option;
  const id = `rule-${name}`;
  const def = option.type === "bool" ? String(option.default) : String(option.default);
  const keep = (ev) => {
    values[name] = ev.target.type === "checkbox" ? String(ev.target.checked) : ev.target.value;
  };
  const cur = values[name] ?? def;
  const label = titled(option.title, name);
  if (option.type === "bool") {
    const input = h("input", { type: "checkbox", id, name, checked: cur === "true",
      dataset: { def, kind: "bool" }, onchange: keep });
    return h("label", { class: "rule check" }, input, " ", label);
  }
  let input;
  if (option.type === "choice") {
    input = h("select", { id, name, dataset: { def }, onchange: keep }, option.choices.map((c) =>
      h("option", { value: c.value, selected: c.value === cur }, titled(c.title, c.value))));
  } else {
    const bounds = {};
    if (option.min !== null && option.min !== undefined) bounds.min = option.min;
    if (option.max !== null && option.max !== undefined) bounds.max = option.max;
    const zero = option.zero ? h("span", { class: "zero-note", id: `${id}-zero`,
      hidden: Number(cur) !== 0 }, titled(option.zero, "")) : null;
    input = h("input", { type: "number", id, name, step: 1, value: cur, dataset: { def },
      oninput: (ev) => {
        keep(ev);
        if (zero) zero.hidden = ev.target.value === "" || Number(ev.target.value) !== 0;
      }, ...bounds });
    if (zero) {
      return h("label", { class: "rule", for: id }, h("span", {}, label),
        h("span", { class: "rule-value" }, input, zero));
    }
  }
  return h("label", { class: "rule", for: id }, h("span", {}, label), input);
}

/**
 * The new-table form's choices, kept across redraws.
 * @typedef {object} LobbyForm
 * @property {string} game
 * @property {string | null | undefined} variant
 * @property {number} seats
 * @property {Record<string, string>} who seat → "human" or a bot's spec
 * @property {Record<string, Record<string, string>>} rules game → option → value
 * @property {boolean} rulesOpen
 * @property {boolean} [rated]
 * @property {boolean} [hints]
 * @property {number} [moveSeconds]
 * @property {boolean} [creating]
 * @property {string | null} [requestId]
 */

/** The new-table form (a "loading" panel until the catalog came).
 * @param {import("./pagetypes.js").BotOffer[]} bots
 * @param {() => void} rerender */
function createForm(bots, rerender) {
  if (!catalog) {
    return h("section", { class: "panel create", id: "create-form" },
      h("h2", {}, t("lobby.create")), h("p", { class: "muted" }, t("lobby.loading")));
  }
  const shown = present(page, "the lobby page");
  const state = shown.form || (shown.form = { game: catalog.games[0].game, variant: null,
    seats: 2, who: {}, rules: {}, rulesOpen: false });
  const entry = catalogEntry(state.game) || catalog.games[0];
  const variants = entry.variants || [];
  if (!variants.some((v) => v.value === state.variant)) state.variant = variants[0]?.value;
  const seatsOptions = [];
  for (let n = entry.min_seats; n <= entry.max_seats; n++) seatsOptions.push(n);
  if (state.seats < entry.min_seats || state.seats > entry.max_seats) state.seats = entry.min_seats;
  const botSpecs = bots.length ? bots : [{ spec: "greedy", name: "greedy" }];

  const gamePick = h("div", { class: "game-pick", role: "radiogroup",
    "aria-label": t("lobby.game") }, catalog.games.map((g) => h("label", {
    class: `game-choice ${g.game === state.game ? "on" : ""}` },
  h("input", { type: "radio", name: "game", value: g.game, checked: g.game === state.game,
    onchange: () => { state.game = g.game; rerender(); } }),
  h("span", { class: "game-name" }, titled(g.title, g.game)))));

  const variant = variants.length ? h("label", { class: "field" },
    h("span", {}, t("lobby.variant")),
    h("select", { id: "variant", onchange: (ev) => { state.variant = ev.target.value; } },
      variants.map((v) => h("option", { value: v.value, selected: v.value === state.variant },
        titled(v.title, v.value))))) : null;

  const seats = h("label", { class: "field" }, h("span", {}, t("lobby.seats")),
    h("select", { id: "seats", onchange: (ev) => { state.seats = Number(ev.target.value);
      rerender(); } }, seatsOptions.map((n) => h("option", { value: n,
      selected: n === state.seats }, String(n)))));

  const seatRows = [];
  for (let i = 0; i < state.seats; i++) {
    if (i === 0) {
      seatRows.push(h("li", {}, h("span", { class: "seat-no" }, t("lobby.seat", { n: 1 })),
        h("strong", {}, t("lobby.you"))));
      continue;
    }
    const cur = state.who[i] ?? botSpecs[Math.min(1, botSpecs.length - 1)].spec;
    state.who[i] = cur;
    seatRows.push(h("li", {}, h("label", { for: `who-${i}`, class: "seat-no" },
      t("lobby.seat", { n: i + 1 })),
    h("select", { id: `who-${i}`, dataset: { seat: i }, onchange: (ev) => {
      state.who[i] = ev.target.value;
      const hints = checkbox("hints");
      if (hints) hints.checked = hintsOn(state); } },
    h("option", { value: "human", selected: cur === "human" }, t("lobby.human")),
    botSpecs.map((b) => h("option", { value: b.spec, selected: cur === b.spec,
      title: (b.descriptions || {})[lang()] || b.description || "" },
    `${botName(b.spec)} (${t("table.bot")})`)))));
  }

  const rulesBox = h("div", { class: "rules-grid", onchange: () => showRelevantRules(rulesBox) },
    (entry.options || []).map((option) => ruleField(option,
      state.rules[state.game] || (state.rules[state.game] = {}), entry.explanations || {})));
  showRelevantRules(rulesBox);

  const form = h("form", { class: "panel create", id: "create-form", onsubmit: async (ev) => {
    ev.preventDefault();
    if (!identity()) {
      toast(t("me.needName"), "error");
      document.getElementById("nickname")?.focus();
      return;
    }
    /** @type {Record<string, string>} */
    const rules = {};
    for (const node of rulesBox.querySelectorAll("input, select")) {
      const input = /** @type {HTMLInputElement} */ (node);  // a select reads the same way
      if (ruleBox(input).hidden) continue; // an option that does not apply
      const def = input.dataset.def;
      const value = input.dataset.kind === "bool" ? String(input.checked) : String(input.value);
      if (value !== def && value !== "" && !state.rated) rules[input.name] = value;
    }
    /** @type {Record<string, string>} */
    const botsSpec = {};
    for (const [seat, who] of Object.entries(state.who)) {
      if (Number(seat) < state.seats && who !== "human") botsSpec[seat] = who;
    }
    /** @type {Record<string, unknown>} */
    const spec = { game: state.game, seats: state.seats, rules, bots: botsSpec };
    if (variants.length) spec.variant = state.variant;
    Object.assign(spec, tableOptions(state));
    if (state.creating) return; // a double click sends one request
    state.creating = true;
    state.requestId ||= newRequestId(); // a retry of the same click names the same table
    spec.request_id = state.requestId;
    const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("create"));
    if (button) button.disabled = true;
    try {
      const table = await api.createTable(spec);
      if (!table.seats[0] || table.seats[0].kind === "empty") await api.sit(table.id, 0, contributionFor(table.id, 0));
      state.requestId = null;
      navigate(`/t/${table.id}`);
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      state.creating = false;
      if (button) button.disabled = false;
    }
  } },
  h("h2", {}, t("lobby.create")), gamePick,
  h("p", { class: "rules-link", id: "rules-link" }, link(rulesPath(state.game),
    t("rules.of", { game: titled(entry.title, entry.game) }))),
  h("div", { class: "row" }, variant, seats, clockField(state), hintsField(state),
    ratedField(state)),
  variants.length && entry.explanations?.variant ? h("p", { class: "rule-explain",
    id: "variant-explain" }, entry.explanations.variant[lang()] || "") : null,
  h("ol", { class: "seat-list" }, seatRows),
  rulesBox.childNodes.length ? h("details", { class: "rules", open: state.rulesOpen,
    ontoggle: (ev) => { state.rulesOpen = ev.target.open; } },
    h("summary", {}, t("lobby.rules")), rulesBox) : null,
  h("button", { type: "submit", class: "primary big", id: "create" }, t("lobby.createSit")));
  return form;
}

const MOVE_CLOCKS = [0, 15, 30, 60, 120];
const RATED_MOVE_SECONDS = 60; // a rated table's clock when none is chosen (the server's)

/** The move clock of a new table: none, or seconds per move. */
function clockField(state) {
  return h("label", { class: "field" }, h("span", {}, t("clock.label")),
    h("select", { id: "move-seconds", onchange: (ev) => {
      state.moveSeconds = Number(ev.target.value);
    } }, MOVE_CLOCKS.map((n) => h("option", { value: n,
      selected: n === (state.moveSeconds ?? 0) }, n ? t("clock.seconds", { n })
      : noClockText(state)))));
}

function newRequestId() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
}

/** How many people (not bots) the form seats, the creator included. */
function humansOf(state) {
  let n = 1;
  for (let i = 1; i < state.seats; i++) if (state.who[i] === "human") n++;
  return n;
}

/** Hints at the new table: off by default when two or more people sit at it. */
function hintsOn(state) {
  return state.hints ?? humansOf(state) < 2;
}

function hintsField(state) {
  return h("label", { class: "field check" }, h("input", { type: "checkbox", id: "hints",
    checked: hintsOn(state) && !state.rated, disabled: Boolean(state.rated),
    onchange: (ev) => { state.hints = ev.target.checked; } }), " ", t("lobby.hints"));
}

let isAccount = false; // whether the visitor's name is an account (rated games need one)

/** Rated or casual: a rated table has no hints and a move clock (the server sees to it);
 * the form says so beside the box, and shows it: hints off, a clock of 60 s unless chosen. */
function ratedField(state) {
  const help = h("p", { class: "muted small", id: "rated-help" });
  const show = () => {  // in place: the box a person just ticked stays the same element
    help.textContent = t(state.rated ? "lobby.ratedOn" : "lobby.ratedHelp");
    const hints = checkbox("hints");
    if (hints) {
      hints.disabled = Boolean(state.rated);
      hints.checked = hintsOn(state) && !state.rated;
    }
    const none = document.querySelector("#move-seconds option[value='0']");
    if (none) none.textContent = noClockText(state);
  };
  show();
  return h("div", { class: "field rated-field" },
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "rated",
      checked: Boolean(state.rated), "aria-describedby": "rated-help", onchange: (ev) => {
        state.rated = ev.target.checked;
        show();
      } }), " ", t("lobby.rated")), help,
    isAccount ? null : h("small", { class: "muted", id: "rated-why" }, t("lobby.ratedAccounts")));
}

/** The clock choice "none": a rated table gets the server's clock. */
function noClockText(state) {
  return state.rated ? t("clock.seconds", { n: RATED_MOVE_SECONDS }) : t("clock.none");
}

/** The table options of the lobby's form (move clock, hints, rated) as POST /api/tables
 * fields. */
function tableOptions(state) {
  return { move_seconds: Number(state.moveSeconds ?? 0), hints: hintsOn(state),
    rated: Boolean(state.rated) };
}

/** A finished game's winner, totals and date. */
function finishedLine(s, names) {
  const when = s.finished_at ? new Date(s.finished_at).toLocaleString(lang(),
    { dateStyle: "medium", timeStyle: "short" }) : "";
  const winner = s.winner !== null && s.winner !== undefined
    ? t("table.winner", { name: names[s.winner] }) : t("r.noWinner");
  const totals = (s.totals || []).map((p, i) => `${names[i]} ${p}`).join(" · ");
  return h("div", { class: "muted small finished-line" }, winner, totals ? ` ${totals}` : "",
    when ? ` · ${when}` : "");
}

function tableRow(s) {
  const names = seatNames(s);
  const free = s.status === "waiting" && s.seats.some((x) => x.kind === "empty");
  return h("li", { class: "table-row", dataset: { table: s.id } },
    h("div", { class: "table-row-main" },
      h("strong", {}, gameTitle(s)),
      h("span", { class: `badge ${s.status}` }, t(`status.${s.status}`)),
      ratedBadge(s),
      h("span", { class: "muted" }, names.join(" · "))),
    s.status === "finished" ? finishedLine(s, names) : tableTerms(s),
    s.status === "finished" ? link(`/replay/${s.id}`, t("lobby.replay"))
      : link(`/t/${s.id}`, free ? t("lobby.join") : t("lobby.enter")));
}

export function lobbyPage() {
  let timer = null;
  let alive = true;
  let bots = [];
  let tables = null;
  let finished = null;
  const tablesBox = h("section", { class: "panel tables" });
  const finishedBox = h("section", { class: "panel finished" });
  const mineBox = h("section", { class: "panel mine", id: "my-games" });
  let mine = null;

  async function loadStatic() {
    await loadCatalog();
    try {
      isAccount = identity() ? Boolean((await api.account()).account) : false;
    } catch { isAccount = false; }
    try {
      bots = (await api.bots()).bots || [];
      setOfferedBots(bots);
    } catch { /* offline */ }
    if (alive) draw();
  }

  async function poll() {
    try {
      tables = (await api.tables()).tables || [];
      finished = (await api.finished()).games || [];
      mine = identity() ? (await api.myTables()).tables || [] : null;
    } catch (err) {
      tables = tables || [];
      finished = finished || [];
    }
    if (!alive) return;
    drawLists();
    timer = setTimeout(poll, 4000);
  }

  function drawLists() {
    if (mine === null) mineBox.replaceChildren();
    else {
      mount(mineBox, h("h2", {}, t("lobby.mine")),
        mine.length ? h("ul", { class: "table-list" }, mine.map(tableRow))
          : h("p", { class: "muted" }, t("lobby.noMine")));
    }
    mount(tablesBox, h("h2", {}, t("lobby.open")),
      tables === null ? h("p", { class: "muted" }, t("lobby.loading"))
        : tables.length ? h("ul", { class: "table-list" }, tables.map(tableRow))
          : h("p", { class: "muted" }, t("lobby.noTables")));
    mount(finishedBox, h("h2", {}, t("lobby.finished")),
      finished === null ? h("p", { class: "muted" }, t("lobby.loading"))
        : finished.length ? h("ul", { class: "table-list" }, finished.slice(0, 30).map(tableRow))
          : h("p", { class: "muted" }, t("lobby.noFinished")));
  }

  function draw() {
    document.title = `konkun — ${t("nav.lobby")}`;
    keepingFocus(() => mount(main, h("div", { class: "lobby" },
      h("div", { class: "hero" }, h("h1", {}, "konkun"), h("p", {}, t("app.tagline")),
        teachingLinks()),
      h("div", { class: "lobby-grid" },
        h("div", { class: "col" }, identityPanel(draw), createForm(bots, draw)),
        h("div", { class: "col" }, mineBox, tablesBox, finishedBox)))));
    drawLists();
  }

  setPage({ destroy: () => { alive = false; clearTimeout(timer); }, rerender: draw });
  draw();
  loadStatic();
  poll();
}
