// Kunken at the table: the bank spread so every card shows, every player's melds and
// lay-offs, your hand, the moves the engine allows (take the bank from a card with the
// melds to lay down, lay-offs, joker swaps, draw, discard), a hint, and the match totals.
// The view is Match.to_json(seat) of konkun.kunken (docs/kunken.md).

import { identity } from "./api.js";
import { cardElement, cardShort, emptyPile } from "./cards.js";
import { minis } from "./dealend.js";
import { coachOn, coachPanel, noteFinished, refusalItems } from "./coach.js";
import { bindKeys, h, nameTag, present } from "./dom.js";
import { t } from "./i18n.js";
import { keepsContract } from "./gamepage.js";
import * as self from "./kunken.js";
import { KUNKEN_TEXTS } from "./kunkentexts.js";
import { formatAction, handCard, handCardsOf, jokerChoices, sortHand, tellStep }
  from "./kunkenmoves.js";
import { announceDeals, handOf, handSize, legalOf } from "./view.js";

// the game page's hooks (the contract of gamepage.js), kept in kunkenmoves.js with the rest
// of the moves' logic, which draws nothing
export { endsTurn, fairDeal, formatAction } from "./kunkenmoves.js";

/** The game's texts, added to the page's dictionary when the registry loads this module. */
export const texts = KUNKEN_TEXTS;
/** The game's stylesheet, linked once a table of the game is drawn. */
export const styles = ["kunken.css"];
keepsContract(self); // tsc checks that this module keeps the game-page contract

// ---------------------------------------------------------------- actions as text

/** @typedef {import("./kunkenmoves.js").KunkenStep} KunkenStep */

/**
 * A legal action: its text (what is sent), its position in the view's `legal` and its
 * parts as the engine serves them (the view's `steps`).
 * @typedef {{text: string, i: number, step: KunkenStep}} Move
 */

/** The legal actions of `view` with their served parts (the view's `steps`, in the
 * order of its `legal`).
 * @param {any} view
 * @param {string[]} legal
 * @returns {Move[]} */
function movesOf(view, legal) {
  const steps = view.steps ?? [];
  return legal.map((text, i) => ({ text, i,
    step: present(steps[i], `the served parts of the legal action ${text}`) }));
}

/** The served parts of every legal action, in the order of the view's `legal`.
 * @param {Move[]} moves
 * @returns {KunkenStep[]} */
function stepsOf(moves) {
  return moves.map((m) => m.step);
}

const KIND_ORDER = ["meld", "layoff", "swap", "discard", "draw", "take"];
const KIND_TEXT = { draw: "r.draw", take: "r.takeBank", meld: "r.layDown", layoff: "r.layOff",
  swap: "r.swap", discard: "r.discard" };

/** Play `move`, unless a joker in it could mean another card here (the engine's
 * `alternatives`): then ask first. */
function playOrConfirm(move, ctx, rerender) {
  if (move.step.jokers?.length && move.step.alternatives?.length) {
    ctx.ui.confirm = move.text;
    rerender();
    return;
  }
  ctx.play(move.text);
}

/** The question before a move whose joker could stand for another card. */
function jokerConfirm(ctx, moves, rerender) {
  const { ui, lang } = ctx;
  const action = ui.confirm;
  const move = moves.find((m) => m.text === action);
  if (!action || !move) return null;
  const choices = jokerChoices(stepsOf(moves), move.i);
  const means = choices.meant.map((c) => cardShort(c, lang)).join(", ");
  const others = choices.others.map((c) => cardShort(c, lang));
  return h("div", { class: "joker-confirm", id: "joker-confirm", role: "alertdialog",
    "aria-labelledby": "joker-confirm-text" },
  h("p", { id: "joker-confirm-text" }, t("r.jokerMeans", { card: means }),
    others.length ? ` ${t("r.jokerCouldBe", { cards: others.join(", ") })}` : ""),
  h("span", { class: "mini" }, (move.step.cards ?? []).map((c) =>
    cardElement(c, { lang, size: "tiny" }))),
  h("div", { class: "toolbar" },
    h("button", { type: "button", class: "primary", id: "joker-yes", onclick: () => {
      ui.confirm = null;
      ctx.play(action);
    } }, t("r.jokerYes")),
    h("button", { type: "button", id: "joker-no", onclick: () => {
      ui.confirm = null;
      rerender();
    } }, t("k.cancel"))));
}

/** The discard of hand card `card` (its text), when it is legal now.
 * @param {Move[]} moves
 * @param {string} card */
function discardOf(moves, card) {
  const mine = handCard(card);
  return moves.find((m) => m.step.kind === "discard" && handCardsOf(m.step)[0] === mine)
    ?.text ?? null;
}

const DOUBLE_TAP_MS = 450;
const DRAG_START_PX = 12;

/** Let a hand card be dragged onto the bank to discard it (pointer events: mouse, pen and
 * touch alike); a click after a drag is not a click. */
function draggableToBank(node, discard, ctx) {
  node.classList.add("can-discard");
  node.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    let ghost = null;
    const bank = () => document.querySelector("#bank-drop");
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - down.clientX, ev.clientY - down.clientY)
          < DRAG_START_PX) return;
      if (!ghost) {
        ghost = node.cloneNode(true);
        ghost.classList.add("drag-ghost");
        ghost.removeAttribute("id");
        document.body.appendChild(ghost);
        bank()?.classList.add("drop-target");
      }
      ghost.style.left = `${ev.clientX - node.offsetWidth / 2}px`;
      ghost.style.top = `${ev.clientY - node.offsetHeight / 2}px`;
      bank()?.classList.toggle("drop-over", overBank(ev));
    };
    const overBank = (ev) => {
      const r = bank()?.getBoundingClientRect();
      return !!r && ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top
        && ev.clientY <= r.bottom;
    };
    const up = (ev) => {
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", up);
      if (!ghost) return;
      ghost.remove();
      bank()?.classList.remove("drop-target", "drop-over");
      ctx.ui.dragged = Date.now();
      if (ev.type === "pointerup" && overBank(ev)) ctx.play(discard);
    };
    node.setPointerCapture?.(down.pointerId);
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", up);
  });
}

/** A legal move's button: its cards, what its jokers stand for, a meld's points (the
 * engine's) or the meld a lay-off or swap goes to.
 * @param {Move} move */
function actionButton(move, ctx, i, hinted, onPlay) {
  const { lang, view } = ctx;
  const a = move.step;
  const minis = h("span", { class: "mini" }, (a.cards ?? []).map((c) =>
    cardElement(c, { lang, size: "tiny" })));
  let extra = null;
  if (a.kind === "meld") {
    extra = h("span", { class: "pts" }, `+${a.points ?? 0}`);
  } else if (a.kind === "layoff" || a.kind === "swap") {
    const target = a.meld === undefined ? undefined : view.melds[a.meld];
    extra = h("span", { class: "target-meld" }, "→ ", target ? h("span", { class: "mini" },
      target.cards.map((/** @type {string} */ c) => cardElement(c, { lang, size: "tiny" })))
      : `#${(a.meld ?? 0) + 1}`);
  }
  return h("button", { type: "button", class: `choice action act-${a.kind} ${hinted ? "hinted" : ""}`,
    dataset: { action: move.text, kind: a.kind }, title: tellStep(a, lang, true),
    onclick: () => onPlay(move),
    onmouseenter: () => markMeld(a, true), onmouseleave: () => markMeld(a, false),
    onfocus: () => markMeld(a, true), onblur: () => markMeld(a, false) },
  i < 9 ? h("span", { class: "key" }, String(i + 1)) : null,
  a.kind === "draw" ? t(KIND_TEXT[a.kind]) : null, minis, jokerNote(a, lang), extra);
}

/** What the jokers of a step stand for, in words beside its cards ("★ = 7♥").
 * @param {KunkenStep} step
 * @param {string} lang */
function jokerNote(step, lang) {
  const means = step.jokers ?? [];
  return means.length ? h("span", { class: "joker-as" },
    `★ = ${means.map((c) => cardShort(c, lang)).join(", ")}`) : null;
}

/** @param {KunkenStep} a @param {boolean} on */
function markMeld(a, on) {
  if (a.kind !== "layoff" && a.kind !== "swap") return;
  document.querySelector(`#layouts .meld[data-meld="${a.meld}"]`)?.classList.toggle("target", on);
}

// ---------------------------------------------------------------- sorting the hand

const SORTS = ["suit", "rank"];

/** Where the person's choice of hand order is kept: one per player (a shared computer). */
function sortKey() {
  return `konkun.kunkenSort.${identity()?.player_id ?? "guest"}`;
}

/** The hand order the person chose ("suit" unless they chose "rank"). */
export function handSort() {
  return localStorage.getItem(sortKey()) === "rank" ? "rank" : "suit";
}

/** The two buttons that sort the hand, the chosen one pressed. */
function sortSwitch(rerender) {
  const now = handSort();
  return h("span", { class: "sort-switch", role: "group", "aria-label": t("sort.label") },
    SORTS.map((order) => h("button", { type: "button", class: "sort-btn", id: `sort-${order}`,
      "aria-pressed": order === now ? "true" : "false", onclick: () => {
        localStorage.setItem(sortKey(), order);
        rerender();
      } }, t(`sort.${order}`))));
}

// ---------------------------------------------------------------- pieces

/** A meld on the table (a view's `melds` entry), cards laid off by others tinted. */
function meldBox(m, ctx) {
  return h("div", { class: `meld ${touchedMeld(ctx) === m.index ? "just-laid" : ""}`,
    dataset: { meld: m.index }, title: `#${m.index + 1}` },
    h("span", { class: "meld-no" }, String(m.index + 1)),
    h("span", { class: "meld-cards" }, m.cards.map((c, i) => cardElement(c, { lang: ctx.lang,
      size: "small", extraClass: m.laid_by[i] !== m.owner ? "laid-off" : "" }))),
    h("span", { class: "meld-pts" }, String(m.points)));
}

/** The meld the last step laid, laid off onto or swapped a joker out of (marked for a
 * moment); null after any other step. */
function touchedMeld(ctx) {
  const { last, view } = ctx;
  const a = last?.parts;
  if (!last || !a) return null;
  if (a.kind === "layoff" || a.kind === "swap") return a.meld ?? null;
  if (a.kind !== "meld") return null;
  const theirs = view.melds.filter((m) => m.owner === last.actor).map((m) => m.index);
  return theirs.length ? Math.max(...theirs) : null;
}

function layoutRow(ctx, seat) {
  const { names, view } = ctx;
  const mine = view.melds.filter((m) => m.owner === seat);
  const held = view.taken_held[seat];
  return h("div", { class: `layout ${view.to_move === seat ? "to-move" : ""} ${
    seat === ctx.you ? "me" : ""}`, dataset: { seat } },
  h("div", { class: "who" }, nameTag(names[seat]),
    seat === ctx.you && !ctx.replay ? ` ${t("table.youSuffix")}` : "",
    view.dealer === seat ? h("span", { class: "tag" }, t("table.dealer")) : null,
    " ", h("span", { class: "muted small" }, t("r.handCount", { n: handSize(view, seat) })),
    h("span", { class: "muted small" },
      ` · ${view.has_layout[seat] ? t("r.opened") : t("r.notOpened")}`),
    held.length ? h("span", { class: "muted small held" }, ` · ${t("r.heldTaken")}: `,
      held.map((c) => cardShort(c, ctx.lang)).join(" ")) : null),
  h("div", { class: "melds" }, mine.length ? mine.map((m) => meldBox(m, ctx))
    : h("span", { class: "muted small" }, t("r.noMelds"))));
}

function totalsBox(ctx) {
  const { view, names, table } = ctx;
  const seats = table.seats.length;
  const rows = view.deal_points || [];
  const totals = view.totals || new Array(seats).fill(0);
  const winners = view.deal_winners || [];
  const express = view.deal_express || [];
  const over = view.match_over;
  const winner = view.match_winner;
  return h("section", { class: "panel totals", id: "totals" },
    h("h3", {}, t("r.totals"), " ", view.deals ? h("span", { class: "muted small" },
      t("r.dealOf", { n: Math.min(view.deal_number ?? 1, view.deals), of: view.deals })) : null),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), names.map((n) => h("th", { title: n }, n)))),
      h("tbody", {}, rows.map((r, i) => h("tr", {}, h("td", {}, t("r.deal", { n: i + 1 }),
        express[i] ? h("span", { class: "tag" }, t("r.express")) : null),
      r.map((p, s) => h("td", { class: winners[i] === s ? "deal-winner" : "" }, String(p)))))),
      h("tfoot", {}, h("tr", {}, h("td", {}, "Σ"), totals.map((p) => h("td", {},
        String(p)))))),
    over ? h("p", { class: "settle", id: "match-result" }, winner !== null && winner !== undefined
      ? t("table.winner", { name: names[winner] }) : t("r.noWinner")) : null);
}

function obligationsBox(view, lang) {
  const turn = view.turn;
  if (!turn || turn.phase !== "taken") return null;
  const items = [];
  if (turn.must_meld_taken_card && turn.taken_card) {
    items.push(t("r.mustMeldTaken", { card: cardShort(turn.taken_card, lang) }));
  }
  if (turn.opening && turn.points_needed > 0) {
    items.push(t("r.pointsNeeded", { n: turn.points_needed }));
  }
  if (turn.can_discard) items.push(t("r.canDiscard"));
  return h("ul", { class: "obligations", id: "obligations" }, items.map((x) => h("li", {}, x)));
}

// ---------------------------------------------------------------- the table

/** The engine solver's advice shown with a hint: the best melds in hand, and the melds that
 * would take the bank from each card it can be taken from. */
function adviceBox(advice, lang) {
  const meldText = (meld) => meld.map((c) => cardShort(c, lang)).join(" ");
  const melds = advice.melds.length
    ? t("r.adviceMelds", { points: advice.points, melds: advice.melds.map(meldText).join(" · ") })
    : t("r.adviceNoMelds");
  const takes = (advice.takes || []).map((take) => h("li", {}, t("r.adviceTake", {
    card: cardShort(take.card, lang), melds: take.melds.map(meldText).join(" · ") })));
  return h("div", { class: "advice", id: "advice" },
    h("p", {}, melds),
    takes.length ? h("ul", {}, takes) : h("p", {}, t("r.adviceNoTake")));
}

/** Draw the Kunken table into `container`. */
export function render(container, ctx) {
  const { view, you, lang, ui, readOnly } = ctx;
  const seats = ctx.table.seats.length;
  const myTurn = !readOnly && you !== null && view.to_move === you;
  const legal = myTurn ? legalOf(view) : [];
  const moves = movesOf(view, legal);
  const turnKey = `${ctx.table.turn ?? ""}:${legal.join("|")}`;
  if (ui.turnKey !== turnKey) {
    ui.turnKey = turnKey;
    ui.picked = [];
    ui.hint = null;
    ui.advice = null;
    ui.showAll = false;
    ui.confirm = null;
    ui.lastTap = null;
  }
  announceDeals(ctx, view.deal_points || []);
  const rerender = () => render(container, ctx);
  const drawn = drawnCard(ctx, handOf(view, you));
  const bank = view.bank;
  const openAll = Array.isArray(ctx.views);
  const takes = new Map(moves.filter((m) => m.step.kind === "take").map((m) =>
    [m.step.bank, m.text]));
  const draw = moves.find((m) => m.step.kind === "draw")?.text ?? null;

  // the stock and the bank, oldest first, every card visible
  const bankBox = h("section", { class: "bank-zone" },
    h("div", { class: "center-row" },
      h("div", { class: "stock", id: "stock" },
        draw ? h("button", { type: "button", class: `card-btn ${ui.hint === draw ? "hinted" : ""}`,
          id: "draw", dataset: { action: draw }, onclick: () => ctx.play(draw),
          title: t("r.draw") }, cardElement("back", { lang, size: "small" }),
        h("span", {}, t("r.draw"))) : view.stock_size ? cardElement("back", { lang, size: "small" })
          : emptyPile("small"),
        h("span", {}, `${t("table.stock")}: ${view.stock_size}`)),
      h("div", { class: "bank-wrap", id: "bank-drop" },
        h("h2", {}, t("r.bank")),
        takes.size ? h("p", { class: "help" }, t("r.takeHelp")) : null,
        h("div", { class: "bank", id: "bank" }, bank.length ? bank.map((c, i) => {
          const action = takes.get(i);
          return cardElement(c, { lang, extraClass: `${action ? "takeable" : ""} ${
            ui.hint === action && action ? "hinted" : ""}`,
          onClick: action ? () => ctx.play(action) : null });
        }) : h("span", { class: "muted" }, t("r.bankEmpty"))))),
    lastLine(ctx));

  const layouts = h("section", { class: "layouts", id: "layouts" },
    h("h2", {}, t("r.layouts")),
    Array.from({ length: seats }, (_, k) => layoutRow(ctx, k)));

  // my hand
  let handZone = null;
  const mine = handOf(view, you);
  if (mine && !openAll) {
    const counts = {};
    handZone = h("section", { class: `hand-zone ${myTurn ? "active" : ""}`, id: "hand",
      "aria-label": t("table.hand") },
    h("div", { class: "hand-head" }, h("h2", {}, ctx.replay ? ctx.names[you] : t("table.hand"),
      " ", h("span", { class: "muted small" }, String(mine.length))),
    ctx.replay ? null : sortSwitch(rerender)),
    h("div", { class: "hand" }, (ctx.replay ? mine : sortHand(mine, handSort())).map((c) => {
      counts[c] = (counts[c] || 0) + 1;
      const key = `${c}#${counts[c]}`;
      const picked = ui.picked.includes(key);
      const isDrawn = drawn === c && counts[c] === 1;
      const discard = myTurn ? discardOf(moves, c) : null;
      const node = cardElement(c, { lang, selected: picked,
        extraClass: `${(view.turn?.taken_this_turn || []).includes(c) ? "taken" : ""} ${
          isDrawn ? "drawn" : ""}`,
        onClick: myTurn && view.phase !== "start" ? () => {
          if (ui.dragged && Date.now() - ui.dragged < 300) return; // the end of a drag
          if (discard && isDoubleTapOnPicked(ui, key)) {
            ctx.play(discard);
            return;
          }
          togglePick(ui, key);
          rerender();
        } : null });
      if (discard) draggableToBank(node, discard, ctx);
      return node;
    })),
    myTurn ? pickedLine(ctx, rerender) : null,
    myTurn && moves.some((m) => m.step.kind === "discard") ? h("p", {
      class: "muted small discard-help", id: "discard-help" }, t("r.discardHelp")) : null,
    drawn ? h("p", { class: "drawn-note", id: "drawn-note" },
      t("r.youDrew", { card: cardShort(drawn, lang) })) : null,
    myTurn ? obligationsBox(view, lang) : null,
    myTurn ? movesBox(ctx, moves, rerender) : null);
  }
  const openHands = openAll ? h("div", { class: "opponents" }, ctx.table.seats.map((s) => {
    const hv = ctx.views[s.seat];
    const cards = hv ? handOf(hv, s.seat) || [] : [];
    return h("div", { class: "opponent", dataset: { seat: s.seat } },
      h("div", { class: "who" }, nameTag(ctx.names[s.seat])),
      h("div", { class: "fan open" }, cards.map((c) => cardElement(c, { lang, size: "small" }))));
  })) : null;

  const felt = h("div", { class: "felt kunken-felt" }, openHands, bankBox, layouts, handZone);
  if (view.match_over && !ctx.replay) noteFinished(ctx.table?.id);
  container.replaceChildren(h("div", { class: "game-layout kunken" }, felt,
    h("aside", { class: "side" }, totalsBox(ctx), coachPanel(ctx, rerender))));
  // the hand panel held at the bottom of the window is no taller than the room under the
  // stock and the bank at the top of the page, so it never covers them, and its hand is
  // one row however many cards it holds (style.css; CSSOM, as the CSP bars style="")
  handZone?.style.setProperty("--above",
    `${Math.ceil(bankBox.getBoundingClientRect().bottom + window.scrollY)}px`);
  handZone?.style.setProperty("--need", `${neededHeight(handZone)}px`);
  handZone?.style.setProperty("--hand-n", String(mine?.length ?? 0));  // mine: with handZone
  keepHeight(handZone, ui);
  if (myTurn && !ctx.replay) installKeys(ctx, container);
}

/** Within one step of a turn the hand panel never shrinks (a selection that leaves fewer
 * steps to list), so that the hand held at the bottom of the window stays where the
 * person's finger is, for the second tap of a double tap. */
function keepHeight(handZone, ui) {
  if (!handZone) return;
  if (ui.heightKey !== ui.turnKey) {
    ui.heightKey = ui.turnKey;
    ui.keptHeight = 0;
  }
  if (ui.keptHeight) handZone.style.minHeight = `${ui.keptHeight}px`;
  ui.keptHeight = Math.max(ui.keptHeight, Math.ceil(handZone.getBoundingClientRect().height));
}

/** The height the hand panel needs at least: down to its first step (else its hand),
 * which stays in view even when a tall bank leaves less room under it. */
function neededHeight(handZone) {
  const last = handZone?.querySelector(".move-groups .choice, .move-groups button")
    || handZone?.querySelector(".hand");
  if (!last) return 0;
  const top = handZone.getBoundingClientRect().top;
  return Math.ceil(last.getBoundingClientRect().bottom - top + 12);
}

/** The card you just drew from the stock (compared with your hand before), else null. */
function drawnCard(ctx, mine) {
  const { ui, last, you } = ctx;
  const before = ui.handBefore;
  ui.handBefore = mine ? [...mine] : null;
  if (ctx.replay || !mine || !last || last.actor !== you || last.action !== "draw") {
    ui.drawn = last && last.actor === you && ui.drawnTurn === last.turn ? ui.drawn : null;
    return ui.drawn;
  }
  if (ui.drawnTurn === last.turn) return ui.drawn;
  const key = `konkun.drawn.${ctx.table?.id}`;  // this tab's drawn card, kept for a reload
  if (!before) {  // the page was reloaded after the draw: the card this tab saw drawn
    const kept = readKept(key);
    if (kept?.turn !== last.turn || !mine.includes(kept.card)) return null;
    ui.drawn = kept.card;
    ui.drawnTurn = last.turn;
    return kept.card;
  }
  const left = [...before];
  const found = mine.find((c) => {
    const i = left.indexOf(c);
    if (i >= 0) {
      left.splice(i, 1);
      return false;
    }
    return true;
  }) ?? null;
  ui.drawn = found;
  ui.drawnTurn = last.turn;
  try {
    sessionStorage.setItem(key, JSON.stringify({ turn: last.turn, card: found }));
  } catch { /* storage off: the marker lasts until a reload */ }
  return found;
}

function readKept(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function lastLine(ctx) {
  const { last, names, lang } = ctx;
  if (!last || !last.action) return h("p", { class: "last-move" }, " ");
  return h("p", { class: "last-move", id: "last-move" },
    `${names[last.actor] ?? "?"}: ${formatAction(last.action, lang, last.parts)}`);
}

/** Whether this tap on hand card `key` ends a double tap on a card that was already
 * selected before it began: that discards the card. A quick tap that selects a card and
 * a second that unselects it are a double tap too, on a card that was not selected, so
 * they only select and unselect. (Records the tap for the next one.) */
function isDoubleTapOnPicked(ui, key) {
  const now = Date.now();
  const first = ui.lastTap;
  const quick = first?.key === key && now - first.at < DOUBLE_TAP_MS;
  // a second quick tap ends the pair: a third starts a new one
  ui.lastTap = quick ? null : { key, at: now, picked: ui.picked.includes(key) };
  return quick && first.picked;
}

function togglePick(ui, key) {
  const i = ui.picked.indexOf(key);
  if (i >= 0) ui.picked.splice(i, 1);
  else ui.picked.push(key);
}

/** The moves listed under the hand: those using every selected card (no draw, no take),
 * by kind, the hinted one first.
 * @param {Move[]} moves
 * @returns {Move[]} */
function visibleActions(ctx, moves) {
  const { ui } = ctx;
  const need = ui.picked.map((/** @type {string} */ k) => handCard(k.split("#")[0]));
  const steps = moves.filter((m) => m.step.kind !== "draw" && m.step.kind !== "take");
  const filtered = steps.filter((m) => {
    const have = handCardsOf(m.step);
    return need.every((/** @type {string} */ c) => have.includes(c));
  });
  filtered.sort((x, y) => KIND_ORDER.indexOf(x.step.kind) - KIND_ORDER.indexOf(y.step.kind));
  const hinted = filtered.find((m) => m.text === ui.hint);
  return hinted ? [hinted, ...filtered.filter((m) => m !== hinted)] : filtered;
}

/** The cards selected, on a line of its own that is there (empty) when none is, so that
 * selecting a card never moves the hand under the person's finger. */
function pickedLine(ctx, rerender) {
  const { ui, lang } = ctx;
  const picked = ui.picked.map((k) => k.split("#")[0]);
  return h("p", { class: "picked", id: "picked" }, picked.length ? [t("r.selected", {
    cards: picked.map((c) => cardShort(c, lang)).join(" ") }),
  " ", h("button", { type: "button", class: "linkish", onclick: () => {
    ui.picked = [];
    rerender();
  } }, t("r.clear"))] : null);
}

/** @param {Move[]} moves */
function movesBox(ctx, moves, rerender) {
  const { ui, lang, view } = ctx;
  const ordered = visibleActions(ctx, moves);
  const limit = ui.showAll ? ordered.length : 30;
  /** @type {Map<string, Move[]>} */
  const groups = new Map();
  ordered.slice(0, limit).forEach((m) => {
    const k = m.step.kind;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)?.push(m);
  });
  let n = 0;
  const sections = [...groups.entries()].map(([kind, acts]) => h("div", {
    class: "move-group", dataset: { kind } },
  h("h3", {}, KIND_TEXT[kind] ? t(KIND_TEXT[kind]) : kind),
  h("div", { class: "move-list" }, acts.map((m) => actionButton(m, ctx, n++, m.text === ui.hint,
    (/** @type {Move} */ move) => playOrConfirm(move, ctx, rerender))))));
  const phase = view.phase;
  const toolbar = h("div", { class: "toolbar" },
    ctx.hint && h("button", { type: "button", class: "choice", id: "hint", onclick: async () => {
      try {
        const answer = await ctx.hint();
        ui.hint = answer.action;
        ui.advice = answer.solver || null;
        ui.picked = [];
      } catch {
        ui.hint = null;
        ui.advice = null;
      }
      rerender();
    } }, h("span", { class: "key" }, "?"), t("r.hint")));
  const canTake = moves.some((m) => m.step.kind === "take");
  const prompt = phase === "start" ? t(canTake ? "coach.startTakes" : "coach.startNoTake")
    : phase === "drawn" ? t("r.drawnPrompt") : t("r.takenPrompt");
  return h("div", { class: "moves", id: "moves" },
    h("div", { class: "moves-head" }, h("p", { class: "prompt", id: "prompt" }, prompt),
      toolbar),
    coachOn(ctx.table) ? coachWhy(view, phase, lang) : null,
    jokerConfirm(ctx, moves, rerender),
    ui.advice ? adviceBox(ui.advice, lang) : null,
    h("div", { class: "move-groups" }, sections),
    ordered.length > limit ? h("button", { type: "button", class: "linkish more", onclick: () => {
      ui.showAll = true;
      rerender();
    } }, t("r.more", { n: ordered.length - limit })) : null);
}

/** The coach's why: after a draw, why nothing can be laid down; at the start of a turn,
 * why each other bank card cannot be taken (the engine's `take_refusals`). */
function coachWhy(view, phase, lang) {
  if (phase === "drawn") return h("p", { class: "coach-why", id: "coach-why" }, t("coach.drawn"));
  const refusals = phase === "start" ? view.take_refusals || [] : [];
  if (!refusals.length) return null;
  const minimum = view.rules?.opening_minimum ?? 50;
  return h("div", { class: "coach-why", id: "coach-why" }, h("p", {}, t("coach.whyNot")),
    h("ul", { class: "refusals", id: "take-refusals" }, refusalItems(refusals, minimum, lang)));
}

function installKeys(ctx, container) {
  const { ui } = ctx;
  bindKeys(ui, container, (ev) => {
    const buttons = container.querySelectorAll("#moves .move-list .choice");
    if (/^[1-9]$/.test(ev.key) && buttons[Number(ev.key) - 1]) {
      buttons[Number(ev.key) - 1].click();
    } else if (ev.key === "?") {
      container.querySelector("#hint")?.click();
    } else if (ev.key.toLowerCase() === "d" && container.querySelector("#draw")) {
      container.querySelector("#draw").click();
    } else if (ev.key === "Escape" && ui.confirm) {
      ui.confirm = null;
      render(container, ctx);
    } else if (ev.key === "Escape" && ui.picked.length) {
      ui.picked = [];
      render(container, ctx);
    } else {
      return false;
    }
    return true;
  });
}

// ---------------------------------------------------------------- the end of a deal

/** The end-of-deal screen's body (dealend.js): how the deal ended, each seat's melds,
 * lay-offs and the hand left, with the plus and minus. */
export function dealEndBody(end, names, lang) {
  const view = end.views[0];
  const how = view.winner !== null && view.winner !== undefined
    ? t(view.express ? "end.express" : "end.wentOut", { name: names[view.winner] })
    : t("end.stockOut", { n: view.renewals_used });
  const seats = end.views.map((v, s) => {
    const own = view.melds.filter((m) => m.owner === s);
    const layoffs = view.melds.flatMap((m) => m.cards.filter((_, i) => m.laid_by[i] === s
      && m.owner !== s).map((c) => ({ card: c, meld: m })));
    const total = end.points[s];
    // the engine's plus (the seat's table cards) and minus (its hand), as it scored them
    const parts = v.score_parts;
    const partsKey = parts?.plus_factor === 2 ? "coach.plusMinusExpress"
      : parts?.minus_factor === 2 ? "coach.plusMinusExpressHand" : "coach.plusMinus";
    return h("section", { class: "end-seat", dataset: { seat: s } },
      h("h3", {}, nameTag(names[s]), " ",
        h("span", { class: `pts ${total < 0 ? "neg" : ""}` },
        String(total))),
      h("p", {}, t("end.melds"), ": ", own.length ? own.map((m) => minis(m.cards, lang,
        (i) => (m.laid_by[i] !== m.owner ? "laid-off" : ""))) : t("r.noMelds")),
      layoffs.length ? h("p", {}, t("end.layoffs"), ": ",
        layoffs.map((x) => cardShort(x.card, lang)).join(" ")) : null,
      h("p", {}, t("end.handLeft"), ": ", v.hand.length ? minis(v.hand, lang) : "—"),
      parts ? h("p", { class: "muted small plus-minus" }, t(partsKey, { plus: parts.plus,
        minus: parts.minus }), ` = ${total < 0 ? `−${-total}` : total}`) : null);
  });
  return [h("p", { class: "how", id: "deal-end-how" }, how), h("div", { class: "end-seats" },
    seats)];
}
