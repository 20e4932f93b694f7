// The konkun page: one index.html that routes on location.pathname.
//   /            the lobby (name, new table, open tables, finished games)
//   /t/{id}      a table (seats, then the game)
//   /replay/{id} a finished game, move by move

import { adoptToken, api, ApiError, forgetIdentity, identity, loginGuest, personalLink,
  TableSocket } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { errorText as codeText, has, LANGS, lang, onLangChange, setLang, t } from "./i18n.js";
import { showDealEnd } from "./dealend.js";
import { addLast, matchLog } from "./movelog.js";
import { analysisPanel, forgetAnalyses } from "./analysis.js";

// Each game's page module (the catalog's "page", e.g. konchinka.js), by game name; loaded
// with the catalog. A game without one cannot be drawn at its table.
const RENDERERS = {};
const main = document.getElementById("main");
const topbar = document.getElementById("topbar");
let page = null; // {destroy(), rerender()}

// ---------------------------------------------------------------- helpers

/** Seat display names from a table summary. */
export function seatNames(table) {
  const base = (table?.seats || []).map((s) => {
    if (s.kind === "bot") return botName(s.bot || s.name);
    if (s.kind === "human") return s.name || t("table.seatName", { n: s.seat + 1 });
    return t("table.empty");
  });
  return base.map((name, i) => {
    const s = table.seats[i];
    const twin = base.filter((n) => n === name).length > 1 && s.kind !== "empty";
    const shown = twin ? `${name} ${i + 1}` : name;
    return s.kind === "bot" ? `${shown} (${t("table.bot")})` : shown;
  });
}

/** The catalog and the games' page modules, fetched once (``null`` until they have come,
 * or while the server is away). */
async function loadCatalog() {
  if (catalog) return catalog;
  try {
    const c = await api.catalog();
    if (c && c.games && c.games.length) {
      await Promise.all(c.games.filter((g) => /^[a-z0-9_-]+\.js$/.test(g.page || ""))
        .map(async (g) => { RENDERERS[g.game] = await import(`./${g.page}`); }));
      catalog = c;
    }
  } catch { /* offline: the lobby says it is loading, titles fall back to names */ }
  return catalog;
}

/** The bots the server offers (GET /api/bots), once the lobby has fetched them. */
let offeredBots = [];

/** A bot's name in the page's language: the ladder's own names from the catalog
 * ("strong" → "сильный"), else the page's text for the kind ("greedy" → "жадный"), else
 * the spec as it is. */
function botName(spec) {
  const base = String(spec || "").split(":")[0];
  const offered = offeredBots.find((b) => b.spec === spec || b.spec === base);
  const named = offered && (offered.names || {})[lang()];
  if (named) return named;
  return has(`bot.${base}`) ? t(`bot.${base}`) : spec;
}

function gameTitle(summary) {
  const entry = catalogEntry(summary.game);
  const g = titled(entry?.title, summary.game);
  const variants = entry?.variants || [];
  const v = variants.find((x) => x.value === summary.variant);
  return variants.length > 1 && v ? `${g} · ${titled(v.title, v.value)}` : g;
}

/** A player's text for a failed request: by the server's error code, never its message. */
function errorText(err) {
  if (err instanceof ApiError) return codeText(err.code);
  return t("err.network");
}

const MAX_NICKNAME = 24;

/** The user-perceived characters of a text (an emoji or an accented letter is one). */
function graphemeCount(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;
  }
  return [...text].length;
}

/** Why a nickname would be refused, as a player's text; null when it is fine. */
function nicknameProblem(text) {
  const name = text.trim().split(/\s+/).join(" ");
  if (!name) return t("err.nicknameEmpty");
  const count = graphemeCount(name);
  if (count > MAX_NICKNAME) return t("err.nicknameLong", { n: MAX_NICKNAME, count });
  return null;
}

/** A selector that finds the same control after a redraw (keeps keyboard focus). */
function focusSelector(node) {
  if (!node || node === document.body || !main.contains(node)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  if (node.dataset?.card) return `.hand [data-card="${CSS.escape(node.dataset.card)}"]`;
  if (node.dataset?.action) return `[data-action="${CSS.escape(node.dataset.action)}"]`;
  return null;
}

function navigate(path) {
  if (path !== location.pathname) history.pushState({}, "", path);
  route();
}

function link(path, ...children) {
  return h("a", { href: path, onclick: (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    navigate(path);
  } }, ...children);
}

// ---------------------------------------------------------------- your turn: title, sound

const SOUND_KEY = "konkun.sound";

function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

let audio = null;

/** A short two-note chime for "your turn" (Web Audio; silent until the page was used). */
function chime() {
  if (!soundOn()) return;
  try {
    audio ||= new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    });
    window.konkunChimes = (window.konkunChimes || 0) + 1; // counted for the tests
  } catch { /* no sound here */ }
}

// ---------------------------------------------------------------- top bar

function renderTopbar() {
  const id = identity();
  mount(topbar,
    link("/", h("span", { class: "brand-mark", "aria-hidden": "true" }, "♣♦"),
      h("span", { class: "brand" }, "konkun")),
    h("nav", { class: "nav" }, link("/", t("nav.lobby"))),
    h("div", { class: "spacer" }),
    id ? h("span", { class: "whoami", title: t("me.hello", { name: id.nickname }) },
      id.nickname) : null,
    h("button", { type: "button", class: "sound-btn", id: "sound",
      "aria-pressed": soundOn() ? "true" : "false", title: t("sound.toggle"),
      "aria-label": t("sound.toggle"), onclick: () => {
        localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
        renderTopbar();
      } }, soundOn() ? "🔔" : "🔕"),
    h("div", { class: "lang-switch", role: "group", "aria-label": t("lang.switch") },
      LANGS.map((code) => h("button", { type: "button", class: "lang-btn",
        "aria-pressed": code === lang() ? "true" : "false", dataset: { lang: code },
        onclick: () => setLang(code) }, code.toUpperCase()))));
}

// ---------------------------------------------------------------- name form

let nameDraft = null; // what was typed, kept across redraws

function nameForm(onDone) {
  const input = h("input", { id: "nickname", name: "nickname", maxlength: 160, required: true,
    autocomplete: "nickname", value: nameDraft ?? identity()?.nickname ?? "",
    oninput: (ev) => { nameDraft = ev.target.value; } });
  const form = h("form", { class: "name-form", onsubmit: async (ev) => {
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

function showNameError(form, text) {
  const box = form.querySelector("#name-error");
  box.textContent = text;
  box.hidden = false;
}

let keptNameForm = null; // {node, lang}: one name form while the lobby redraws around it

/** The lobby's name form, the same element across redraws (so a click or a keystroke in
 * flight while the lobby's lists arrive is never lost); new after a language switch. */
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

// ---------------------------------------------------------------- lobby

// The games, as GET /api/catalog describes them: name, titles, seat range, variants and
// every rule option's schema (type, default, range or choices, titles). Loaded once.
let catalog = null;

/** A title ({en, ru}) in the page's language. */
function titled(title, fallback) {
  return (title && (title[lang()] || title.en)) || fallback;
}

function catalogEntry(game) {
  return catalog?.games.find((g) => g.game === game) || null;
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
  const hint = option.description || "";
  if (option.type === "bool") {
    const input = h("input", { type: "checkbox", id, name, checked: cur === "true",
      dataset: { def, kind: "bool" }, onchange: keep });
    return h("label", { class: "rule check", title: hint }, input, " ", label);
  }
  let input;
  if (option.type === "choice") {
    input = h("select", { id, name, dataset: { def }, onchange: keep }, option.choices.map((c) =>
      h("option", { value: c.value, selected: c.value === cur }, titled(c.title, c.value))));
  } else {
    const bounds = {};
    if (option.min !== null && option.min !== undefined) bounds.min = option.min;
    if (option.max !== null && option.max !== undefined) bounds.max = option.max;
    input = h("input", { type: "number", id, name, step: 1, value: cur, dataset: { def },
      oninput: keep, ...bounds });
  }
  return h("label", { class: "rule", for: id, title: hint }, h("span", {}, label), input);
}

function createForm(bots, rerender) {
  if (!catalog) {
    return h("section", { class: "panel create", id: "create-form" },
      h("h2", {}, t("lobby.create")), h("p", { class: "muted" }, t("lobby.loading")));
  }
  const state = page.form || (page.form = { game: catalog.games[0].game, variant: null,
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
      const hints = document.getElementById("hints");
      if (hints) hints.checked = hintsOn(state); } },
    h("option", { value: "human", selected: cur === "human" }, t("lobby.human")),
    botSpecs.map((b) => h("option", { value: b.spec, selected: cur === b.spec,
      title: (b.descriptions || {})[lang()] || b.description || "" },
    `${botName(b.spec)} (${t("table.bot")})`)))));
  }

  const rulesBox = h("div", { class: "rules-grid" },
    (entry.options || []).map((option) => ruleInput(option,
      state.rules[state.game] || (state.rules[state.game] = {}))));

  const form = h("form", { class: "panel create", id: "create-form", onsubmit: async (ev) => {
    ev.preventDefault();
    if (!identity()) {
      toast(t("me.needName"), "error");
      document.getElementById("nickname")?.focus();
      return;
    }
    const rules = {};
    for (const input of rulesBox.querySelectorAll("input, select")) {
      const def = input.dataset.def;
      const value = input.dataset.kind === "bool" ? String(input.checked) : String(input.value);
      if (value !== def && value !== "") rules[input.name] = value;
    }
    const botsSpec = {};
    for (const [seat, who] of Object.entries(state.who)) {
      if (Number(seat) < state.seats && who !== "human") botsSpec[seat] = who;
    }
    const spec = { game: state.game, seats: state.seats, rules, bots: botsSpec };
    if (variants.length) spec.variant = state.variant;
    Object.assign(spec, tableOptions(state));
    if (state.creating) return; // a double click sends one request
    state.creating = true;
    state.requestId ||= newRequestId(); // a retry of the same click names the same table
    spec.request_id = state.requestId;
    const button = document.getElementById("create");
    if (button) button.disabled = true;
    try {
      const table = await api.createTable(spec);
      if (!table.seats[0] || table.seats[0].kind === "empty") await api.sit(table.id, 0);
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
  h("div", { class: "row" }, variant, seats, clockField(state), hintsField(state)),
  h("ol", { class: "seat-list" }, seatRows),
  rulesBox.childNodes.length ? h("details", { class: "rules", open: state.rulesOpen,
    ontoggle: (ev) => { state.rulesOpen = ev.target.open; } },
    h("summary", {}, t("lobby.rules")), rulesBox) : null,
  h("button", { type: "submit", class: "primary big", id: "create" }, t("lobby.createSit")));
  return form;
}

const MOVE_CLOCKS = [0, 15, 30, 60, 120];

/** The move clock of a new table: none, or seconds per move. */
function clockField(state) {
  return h("label", { class: "field" }, h("span", {}, t("clock.label")),
    h("select", { id: "move-seconds", onchange: (ev) => {
      state.moveSeconds = Number(ev.target.value);
    } }, MOVE_CLOCKS.map((n) => h("option", { value: n,
      selected: n === (state.moveSeconds ?? 0) }, n ? t("clock.seconds", { n })
      : t("clock.none")))));
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
    checked: hintsOn(state), onchange: (ev) => { state.hints = ev.target.checked; } }),
  " ", t("lobby.hints"));
}

/** The table options of the lobby's form (move clock, hints) as POST /api/tables fields. */
function tableOptions(state) {
  return { move_seconds: Number(state.moveSeconds ?? 0), hints: hintsOn(state) };
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
      h("span", { class: "muted" }, names.join(" · "))),
    s.status === "finished" ? finishedLine(s, names) : null,
    s.status === "finished" ? link(`/replay/${s.id}`, t("lobby.replay"))
      : link(`/t/${s.id}`, free ? t("lobby.join") : t("lobby.enter")));
}

function lobbyPage() {
  let timer = null;
  let alive = true;
  let bots = [];
  let tables = null;
  let finished = null;
  const tablesBox = h("section", { class: "panel tables" });
  const finishedBox = h("section", { class: "panel finished" });

  async function loadStatic() {
    await loadCatalog();
    try {
      bots = (await api.bots()).bots || [];
      offeredBots = bots;
    } catch { /* offline */ }
    if (alive) draw();
  }

  async function poll() {
    try {
      tables = (await api.tables()).tables || [];
      finished = (await api.finished()).games || [];
    } catch (err) {
      tables = tables || [];
      finished = finished || [];
    }
    if (!alive) return;
    drawLists();
    timer = setTimeout(poll, 4000);
  }

  function drawLists() {
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
    mount(main, h("div", { class: "lobby" },
      h("div", { class: "hero" }, h("h1", {}, "konkun"), h("p", {}, t("app.tagline"))),
      h("div", { class: "lobby-grid" },
        h("div", { class: "col" }, identityPanel(draw), createForm(bots, draw)),
        h("div", { class: "col" }, tablesBox, finishedBox))));
    drawLists();
  }

  page = { destroy: () => { alive = false; clearTimeout(timer); }, rerender: draw };
  draw();
  loadStatic();
  poll();
}

// ---------------------------------------------------------------- table

/** Whether a seat is played by the stand-in bot now, and why. */
function awayOf(table, seat) {
  return (table.away || {})[String(seat)] ?? null;
}

function seatsPanel(table, you, onSit, onVote) {
  const names = seatNames(table);
  const absent = table.absent || {};
  const votes = table.bot_votes || {};
  const canVote = (s) => table.status === "playing" && !table.move_seconds && you !== null
    && s.seat !== you && s.kind === "human" && !awayOf(table, s.seat)
    && absent[String(s.seat)] !== undefined
    && absent[String(s.seat)] + (Date.now() - (table.receivedAt || Date.now())) / 1000
      >= (table.vote_after ?? 60);
  return h("ul", { class: "seats-panel" }, table.seats.map((s) => h("li", {
    class: `seat ${s.kind} ${s.seat === you ? "me" : ""} ${table.to_move === s.seat ? "to-move" : ""}`,
    dataset: { seat: s.seat } },
  h("span", { class: "seat-no" }, String(s.seat + 1)),
  h("span", { class: "seat-name" }, names[s.seat], s.seat === you ? ` ${t("table.youSuffix")}` : ""),
  s.kind === "human" && !s.connected ? h("span", { class: "muted small" }, ` · ${t("table.offline")}`)
    : null,
  awayOf(table, s.seat) ? h("span", { class: "tag away", dataset: { away: awayOf(table, s.seat) } },
    t("clock.away")) : null,
  canVote(s) ? h("button", { type: "button", class: "vote-bot", dataset: { vote: s.seat },
    disabled: (votes[String(s.seat)] || []).includes(you),
    onclick: () => onVote(s.seat) }, t("clock.vote", { name: names[s.seat] })) : null,
  s.kind === "empty" && table.status === "waiting" && you === null && onSit
    ? h("button", { type: "button", class: "primary sit", dataset: { sit: s.seat },
      onclick: () => onSit(s.seat) }, t("table.sit")) : null)));
}

/** The table's own controls for the seated player: leave or cancel a waiting table, the
 * personal link, and the rematch once the game is over. */
function lifecyclePanel(msg, ctl) {
  const { table, you } = msg;
  const names = seatNames(table);
  const items = [];
  if (table.status === "waiting" && you !== null) {
    items.push(h("button", { type: "button", id: "leave", onclick: ctl.leave }, t("life.leave")));
  }
  if (table.status === "waiting" && you !== null && table.creator_seat === you) {
    items.push(h("button", { type: "button", id: "cancel", class: "danger",
      onclick: ctl.cancel }, t("life.cancel")));
  }
  if (you !== null && table.status !== "finished") {
    items.push(h("button", { type: "button", id: "personal-link", title: t("life.linkHelp"),
      onclick: ctl.copyLink }, t("life.copyLink")));
  }
  const rematch = table.rematch || { votes: [] };
  if (table.status === "finished" && rematch.table) {
    items.push(link(`/t/${rematch.table}`, t("life.toRematch")));
  } else if (table.status === "finished" && you !== null) {
    const votes = rematch.votes || [];
    const mine = votes.includes(you);
    const others = votes.filter((v) => v !== you).map((v) => names[v]);
    if (!mine) {
      items.push(h("button", { type: "button", id: "rematch", class: "primary",
        onclick: ctl.rematch }, others.length ? t("life.accept") : t("life.offer")));
    }
    if (others.length && !mine) items.push(h("span", { id: "rematch-status" },
      t("life.offered", { names: others.join(", ") })));
    if (mine) {
      const waiting = table.seats.filter((s) => s.kind === "human" && !votes.includes(s.seat))
        .map((s) => names[s.seat]);
      items.push(h("span", { id: "rematch-status" }, t("life.waitingFor",
        { names: waiting.join(", ") })));
    }
  }
  return items.length ? h("div", { class: "panel lifecycle", id: "lifecycle" }, items) : null;
}

/** The countdown of the seat to move on a clocked table (refreshed by the page's ticker). */
function clockBadge(table) {
  const clock = table.clock;
  if (!clock || clock.remaining === null || clock.remaining === undefined) return null;
  const deadline = (table.receivedAt || Date.now()) + clock.remaining * 1000;
  return h("span", { class: "clock", id: "clock", dataset: { deadline } },
    ` ⏱ ${clockText(deadline)}`);
}

function clockText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** Refresh the countdown in place. */
function tickClock() {
  const node = document.getElementById("clock");
  if (node) {
    const left = Number(node.dataset.deadline) - Date.now();
    node.textContent = ` ⏱ ${clockText(Number(node.dataset.deadline))}`;
    node.classList.toggle("low", left < 10000);
  }
}

/** Told to the player whose seat the stand-in bot plays: why, and a way back. */
function awayBanner(msg, ctl) {
  const { table, you } = msg;
  const why = you === null ? null : awayOf(table, you);
  if (!why || table.status !== "playing") return null;
  return h("div", { class: "panel away-banner", id: "away-banner", role: "status" },
    h("span", {}, why === "timeout" ? t("clock.youTimedOut") : t("clock.youAway")), " ",
    h("button", { type: "button", class: "primary", id: "back", onclick: ctl.back },
      t("clock.back")));
}

const QUICK_PHRASES = 6;

/** One chat line: the sender's name (spectators marked) and the text, only ever as text. */
function chatLine(m, names) {
  const who = m.seat !== null && m.seat !== undefined ? names?.[m.seat] ?? m.name : m.name;
  return h("li", { class: `chat-line ${m.spectator ? "spectator" : ""}`,
    dataset: { seat: m.seat ?? "" } },
  h("strong", {}, who), m.spectator ? h("span", { class: "tag watch" }, t("chat.spectator"))
    : null, ": ", h("span", { class: "chat-text" }, m.text));
}

/** The table's chat: its lines, quick phrases and a line to type (kept across redraws). */
function chatPanel(chat, names, send) {
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
  const form = identity() ? h("form", { class: "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    if (send(input.value)) input.value = "";
  } }, input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")))
    : h("p", { class: "muted small" }, t("chat.needName"));
  mount(box, h("h3", {}, t("chat.title")), log, identity() ? quick : null, form);
  log.scrollTop = log.scrollHeight;
  return box;
}

/** A personal link opened here: take over its identity, then forget the fragment. */
async function adoptLinkIdentity() {
  const m = location.hash.match(/^#me=([^&]+)/);
  if (!m) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  const adopted = await adoptToken(decodeURIComponent(m[1]));
  if (!adopted) toast(t("life.badLink"), "error");
  renderTopbar();
}

function tablePage(tableId) {
  const state = { msg: null, conn: "connecting", retryAt: 0, ui: {}, pending: null,
    chat: { messages: [] }, log: [], dealsDone: null, wasMine: false };
  const statusLine = h("div", { class: "conn", "aria-live": "polite" });
  const body = h("div", { class: "table-body" });
  let sock = null;

  function drawStatus() {
    statusLine.className = `conn ${state.conn}`;
    body.classList.toggle("offline", state.conn !== "open");
    statusLine.textContent = state.conn === "open" ? "● " + t("table.connected")
      : state.conn === "retry" ? "○ " + t("table.reconnecting", {
        s: Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000)) })
        : "○ " + t("table.connecting");
  }

  async function sit(seat) {
    if (!identity()) {
      toast(t("me.needName"), "error");
      return;
    }
    try {
      await api.sit(tableId, seat);
      sock.reconnect();
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  function turnBanner(msg) {
    const { table, you, view } = msg;
    const names = seatNames(table);
    if (table.status === "waiting") return h("div", { class: "turn waiting" }, t("table.waiting"));
    if (table.status === "finished") {
      const w = table.winner;
      return h("div", { class: "turn over" }, t("table.over"),
        w !== null && w !== undefined ? ` — ${t("table.winner", { name: names[w] })}` : "");
    }
    const toMove = view?.to_move ?? table.to_move;
    if (toMove === null || toMove === undefined) return h("div", { class: "turn" }, "");
    const clock = clockBadge(table);
    if (toMove === you) {
      return h("div", { class: "turn mine", id: "turn" }, "▶ " + t("table.yourTurn"), clock);
    }
    return h("div", { class: "turn theirs", id: "turn" }, t("table.turnOf", { name: names[toMove] }),
      clock);
  }

  function draw() {
    const msg = state.msg;
    if (!msg) {
      mount(main, h("div", { class: "table-page" }, statusLine, h("p", {}, t("table.connecting"))));
      drawStatus();
      return;
    }
    const { table, you } = msg;
    const focusKey = focusSelector(document.activeElement);
    const mine = table.status === "playing" && you !== null
      && (msg.view?.to_move ?? table.to_move) === you;
    document.title = mine ? `▶ ${t("table.yourTurn")} · ${gameTitle(table)} — konkun`
      : `konkun — ${gameTitle(table)}`;
    if (mine && !state.wasMine) chime();
    state.wasMine = mine;
    const url = `${location.origin}/t/${table.id}`;
    const head = h("div", { class: "table-head" },
      h("h1", {}, gameTitle(table)),
      turnBanner(msg),
      h("div", { class: "spacer" }),
      statusLine);
    const invite = table.status === "waiting" ? h("div", { class: "panel invite" },
      h("label", { for: "invite" }, t("table.link")),
      h("input", { id: "invite", readonly: true, value: url, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", onclick: async (ev) => {
        try { await navigator.clipboard.writeText(url); ev.target.textContent = t("table.copied"); }
        catch { document.getElementById("invite").select(); }
      } }, t("table.copy"))) : null;
    const needName = table.status === "waiting" && you === null && !identity()
      ? h("div", { class: "panel" }, h("p", {}, t("me.needName")), keptTableNameForm()) : null;
    mount(body);
    if (table.status !== "waiting" && msg.view) {
      const R = RENDERERS[table.game];
      if (R) {
        R.render(body, { view: msg.view, table, you, last: msg.last, lang: lang(),
          names: seatNames(table), ui: state.ui, readOnly: you === null,
          play: (action) => {
            if (state.pending === msg.turn) return; // one action per turn; no double clicks
            if (sock.action(action)) state.pending = msg.turn;
            else toast(t("table.connecting"), "error");
          }, hint: table.hints === false ? null : () => api.hint(tableId) });
      } else {
        body.appendChild(h("p", {}, t("table.unknownGame")));
      }
    }
    const finishedBar = table.status === "finished" ? h("div", { class: "panel finished-bar" },
      link(`/replay/${table.id}`, t("table.replay")), " · ", link("/", t("table.backToLobby")))
      : null;
    mount(main, h("div", { class: "table-page", dataset: { status: table.status, game: table.game } },
      head, invite, needName, lifecyclePanel(msg, controls),
      h("div", { class: "seats-wrap" }, seatsPanel(table, you, sit, controls.voteBot)),
      awayBanner(msg, controls),
      you === null && table.status !== "waiting"
        ? h("p", { class: "muted spectating" }, t("table.spectator")) : null,
      body, finishedBar,
      RENDERERS[table.game] && table.status !== "waiting" ? matchLog(state.log, table.game,
        seatNames(table), (a) => RENDERERS[table.game].formatAction(a, lang())) : null,
      chatPanel(state.chat, seatNames(table), controls.chat)));
    drawStatus();
    if (focusKey) main.querySelector(focusKey)?.focus({ preventScroll: true });
  }

  /** One name form while the table redraws on every state (a click in flight on a
   * redrawn form would be lost); new after a language switch. */
  function keptTableNameForm() {
    if (!state.nameForm || state.nameForm.lang !== lang()) {
      state.nameForm = { lang: lang(), node: nameForm(() => {
        state.nameForm = null;
        sock.reconnect();
        draw();
      }) };
    }
    return state.nameForm.node;
  }

  async function loadLog() {
    try {
      state.log = (await api.log(tableId)).entries || [];
      if (state.msg) draw();
    } catch { /* the log fills in with the next moves */ }
  }

  /** Add the state's last move to the match log, with the deal it was played in. */
  function noteLast(msg) {
    const done = (msg.view?.deal_points || []).length;
    const deal = state.dealsDone !== null && done > state.dealsDone ? done : done + 1;
    const known = state.dealsDone !== null;
    if (known && done > state.dealsDone) openDealEnd(msg.table, done);
    state.dealsDone = done;
    if (known && !addLast(state.log, msg.last, deal)) loadLog();
  }

  async function openDealEnd(table, number) {
    try {
      const end = await api.dealEnd(tableId, number);
      if (page?.tableId === tableId) {
        showDealEnd(end, table.game, seatNames(table), lang(),
          { over: table.status === "finished" });
      }
    } catch { /* the score sheet still shows the deal */ }
  }

  async function loadChat() {
    try {
      state.chat.messages = (await api.chat(tableId)).messages || [];
      if (state.msg) chatPanel(state.chat, seatNames(state.msg.table), controls.chat);
    } catch { /* the chat comes with the next line */ }
  }

  function closedPage(reason) {
    sock.close();
    mount(main, h("div", { class: "panel", id: "table-closed" },
      h("p", {}, reason === "expired" ? t("life.expired") : t("life.cancelled")),
      link("/", t("table.backToLobby"))));
  }

  const controls = {
    leave: async () => {
      try {
        await api.leave(tableId);
        navigate("/");
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
    cancel: async () => {
      try {
        await api.cancel(tableId);
        closedPage("cancelled");
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
    copyLink: async (ev) => {
      const url = personalLink(tableId);
      const button = ev.currentTarget;
      try {
        await navigator.clipboard.writeText(url);
        button.textContent = t("life.linkCopied");
      } catch {
        window.prompt(t("life.linkHelp"), url);
      }
    },
    rematch: () => {
      if (!sock.send({ type: "rematch" })) toast(t("table.connecting"), "error");
    },
    back: () => {
      if (!sock.send({ type: "back" })) toast(t("table.connecting"), "error");
    },
    chat: (text) => {
      const sent = sock.send({ type: "chat", text });
      if (!sent) toast(t("table.connecting"), "error");
      return sent;
    },
    voteBot: (seat) => {
      if (!sock.send({ type: "vote_bot", seat })) toast(t("table.connecting"), "error");
    },
  };

  sock = new TableSocket(tableId, {
    onOther: (msg) => {
      if (msg.type === "chat") {
        state.chat.messages.push(msg);
        if (state.chat.messages.length > 200) state.chat.messages.shift();
        if (state.msg) chatPanel(state.chat, seatNames(state.msg.table), controls.chat);
      } else if (msg.type === "closed") closedPage(msg.reason);
      else if (msg.type === "rematch" && msg.table) navigate(`/t/${msg.table}`);
    },
    onState: (msg) => {
      msg.table.receivedAt = Date.now();
      noteLast(msg);
      state.msg = msg;
      state.pending = null;
      draw();
    },
    onError: (msg) => {
      state.pending = null;
      toast(codeText(msg.code), "error");
      if (msg.code === "unknown_table") {
        sock.close();
        mount(main, h("div", { class: "panel" }, h("p", {}, t("table.notFound")),
          link("/", t("table.backToLobby"))));
      }
    },
    onStatus: ({ state: s, retryIn }) => {
      if (s === "open" && state.conn !== "open") {
        loadChat();
        loadLog();
      }
      state.conn = s;
      state.retryAt = Date.now() + retryIn;
      drawStatus();
    },
  });
  let voteCheck = 0;
  const ticker = setInterval(() => {
    if (state.conn === "retry") drawStatus();
    tickClock();
    // an absent player's seat may be voted on after 60 s: redraw when that time comes
    const absent = state.msg?.table?.absent;
    if (absent && Object.keys(absent).length && !state.msg.table.move_seconds
        && ++voteCheck % 4 === 0 && !main.querySelector(".vote-bot")) draw();
  }, 500);
  page = { tableId, rerender: draw, destroy: () => {
    clearInterval(ticker);
    sock.close();
    document.getElementById("deal-end")?.remove();
  } };
  draw();
  adoptLinkIdentity().finally(() => sock.connect());
}

// ---------------------------------------------------------------- replay

function replayPage(gameId) {
  const state = { seat: "all", data: null, i: 0, error: null, ui: {} };
  let alive = true;

  async function load() {
    try {
      state.data = await api.replay(gameId, state.seat);
      if (state.i >= state.data.frames.length) state.i = state.data.frames.length - 1;
      state.error = null;
    } catch (err) {
      state.error = errorText(err);
    }
    if (alive) draw();
  }

  function go(i) {
    if (!state.data) return;
    state.i = Math.max(0, Math.min(state.data.frames.length - 1, i));
    draw();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") go(state.i + 1);
    else if (ev.key === "ArrowLeft") go(state.i - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(Infinity);
    else return;
    ev.preventDefault();
  }

  function draw() {
    document.title = `konkun — ${t("replay.title")}`;
    if (state.error) {
      mount(main, h("div", { class: "panel" }, h("p", { class: "error" }, state.error),
        link("/", t("table.backToLobby"))));
      return;
    }
    if (!state.data) {
      mount(main, h("p", { class: "loading" }, t("lobby.loading")));
      return;
    }
    const { table, frames } = state.data;
    const names = seatNames(table);
    const n = frames.length - 1;
    const frame = frames[state.i];
    const seatSel = h("select", { id: "replay-seat", onchange: (ev) => {
      state.seat = ev.target.value;
      load();
    } }, h("option", { value: "all", selected: state.seat === "all" }, t("replay.all")),
    table.seats.map((s) => h("option", { value: String(s.seat),
      selected: state.seat === String(s.seat) }, t("replay.seat", { name: names[s.seat] }))));
    const controls = h("div", { class: "replay-controls", role: "toolbar" },
      h("button", { type: "button", id: "rp-first", onclick: () => go(0), disabled: state.i === 0 },
        "|◀ ", t("replay.first")),
      h("button", { type: "button", id: "rp-prev", onclick: () => go(state.i - 1),
        disabled: state.i === 0 }, "◀ ", t("replay.prev")),
      h("input", { type: "range", min: 0, max: n, value: state.i, id: "rp-slider",
        "aria-label": t("replay.move", { i: state.i, n }),
        oninput: (ev) => go(Number(ev.target.value)) }),
      h("button", { type: "button", id: "rp-next", onclick: () => go(state.i + 1),
        disabled: state.i === n }, t("replay.next"), " ▶"),
      h("button", { type: "button", id: "rp-last", onclick: () => go(n), disabled: state.i === n },
        t("replay.last"), " ▶|"));
    const dealStarts = new Map();
    frames.forEach((f, i) => {
      const d = f.view?.deal_number ?? 1;
      if (!dealStarts.has(d)) dealStarts.set(d, i);
    });
    const currentDeal = frame.view?.deal_number ?? 1;
    const dealSel = dealStarts.size > 1 ? h("label", { class: "field inline" },
      h("span", {}, t("replay.deal")), h("select", { id: "rp-deal", onchange: (ev) =>
        go(dealStarts.get(Number(ev.target.value))) }, [...dealStarts.keys()].map((d) =>
        h("option", { value: d, selected: d === currentDeal }, t("r.deal", { n: d })))))
      : null;
    controls.appendChild(dealSel ?? document.createTextNode(""));
    const caption = h("p", { class: "replay-caption", id: "rp-caption" },
      state.i === 0 ? t("replay.start") : t("replay.move", { i: state.i, n }),
      frame.action ? h("span", { class: "muted" }, ` — ${names[frame.actor] ?? ""}: `,
        h("span", { class: "action-text", title: frame.action },
          RENDERERS[table.game]?.formatAction?.(frame.action, lang()) ?? frame.action)) : "");
    const body = h("div", { class: "table-body" });
    const R = RENDERERS[table.game];
    const seat = state.seat === "all" ? null : Number(state.seat);
    if (R && frame.view) {
      R.render(body, { view: frame.view, views: frame.views || null, table, you: seat,
        last: frame.action ? { turn: frame.turn, actor: frame.actor, action: frame.action } : null,
        lang: lang(), names, ui: state.ui, readOnly: true, replay: true, play: () => {} });
    }
    const said = (state.data.chat || []).filter((m) => m.turn <= frame.turn);
    const chatBox = (state.data.chat || []).length ? h("section", { class: "panel chat",
      id: "replay-chat" }, h("h3", {}, t("chat.title")), h("ol", { class: "chat-log" },
      said.map((m) => chatLine(m, names)))) : null;
    mount(main, h("div", { class: "table-page replay", dataset: { game: table.game } },
      h("div", { class: "table-head" }, h("h1", {}, `${t("replay.title")}: ${gameTitle(table)}`),
        h("div", { class: "spacer" }),
        h("label", { class: "field inline" }, h("span", {}, t("replay.view")), seatSel)),
      controls, caption, body, chatBox, ANALYSED.has(table.game) ? analysisPanel({ gameId,
        table, names, seat, go, format: (a) => R?.formatAction?.(a, lang()) ?? a }) : null));
  }

  document.addEventListener("keydown", onKey);
  page = { destroy: () => { alive = false; forgetAnalyses();
    document.removeEventListener("keydown", onKey); }, rerender: draw };
  draw();
  load();
}

const ANALYSED = new Set(["konchinka", "kunken"]); // the games `konkun analyze` knows

// ---------------------------------------------------------------- router

async function route() {
  await loadCatalog(); // titles and page modules; the lobby retries when it failed
  if (page) page.destroy();
  page = null;
  renderTopbar();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([^/]+)\/?$/))) tablePage(decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/replay\/([^/]+)\/?$/))) replayPage(decodeURIComponent(m[1]));
  else lobbyPage();
}

onLangChange(() => {
  renderTopbar();
  page?.rerender();
});
window.addEventListener("popstate", route);
route();
