// Konchinka at the table: the table cards, your hand, captures to choose from, every
// player's capture pile, the score sheet as in the book, and who pays whom at the end.
// The view is Match.to_json(seat) of konkun.konchinka (docs/konchinka.md).

import { cardElement, cardShort, emptyPile, parseCard, sortCards, splitCards } from "./cards.js";
import { minis } from "./dealend.js";
import { captureSumText, coachOn, coachPanel, noteFinished, reasonsText,
  trailWhyText } from "./coach.js";
import { bindKeys, h, nameTag } from "./dom.js";
import { flyFrom, flyTo, rectsOf } from "./motion.js";
import { t } from "./i18n.js";
import { keepsContract } from "./gamepage.js";
import * as self from "./konchinka.js";
import { KONCHINKA_TEXTS } from "./konchinkatexts.js";
import { formatAction, groupLegal, writtenTotals } from "./konchinkamoves.js";
import { announceDeals, dealOf, handOf, handSize, legalOf } from "./view.js";

// the game page's hooks (the contract of gamepage.js), kept in konchinkamoves.js with the rest
// of the moves' logic, which draws nothing
export { fairDeal, formatAction } from "./konchinkamoves.js";

/** The game's texts, added to the page's dictionary when the registry loads this module. */
export const texts = KONCHINKA_TEXTS;
/** The game's stylesheet, linked once a table of the game is drawn. */
export const styles = ["konchinka.css"];
keepsContract(self); // tsc checks that this module keeps the game-page contract

// ---------------------------------------------------------------- reading the view

/** A seat's capture pile: how many cards, how many clubs, and the cards. */
function pileOf(view, seat) {
  const list = dealOf(view).captured[seat];
  return { cards: list.length, clubs: list.filter((c) => parseCard(c).suit === "c").length, list };
}

// ---------------------------------------------------------------- pieces

function miniCards(cards, lang) {
  return h("span", { class: "mini" }, cards.map((c) => cardElement(c, { lang, size: "tiny" })));
}

function lastMoveLine(ctx) {
  const { names, lang, view } = ctx;
  const history = dealOf(view).history || [];
  const recent = history.length ? history[history.length - 1] : null;
  const last = ctx.last || (recent ? { actor: recent.seat, action: recent.move } : null);
  if (!last || !last.action) return h("p", { class: "last-move" }, " ");
  const [card, taken] = last.action.split(":");
  const who = names[last.actor] ?? "?";
  const fin = dealOf(view).final_sweep;
  const finLine = fin && fin.cards && fin.cards.length ? h("span", { class: "final-sweep" },
    " ", t("k.finalSweep", { name: names[fin.seat] ?? "?",
      cards: fin.cards.map((c) => cardShort(c, lang)).join(" ") })) : null;
  if (taken === undefined) {
    return h("p", { class: "last-move", id: "last-move" },
      t("k.trailed", { name: who, card: cardShort(card, lang) }), finLine);
  }
  const takenCards = splitCards(taken);
  const tableNow = dealOf(view).table || [];
  const sweep = tableNow.length === 0;
  return h("div", { class: "last-move", id: "last-move" },
    h("span", { class: "last-cards", "aria-hidden": "true" },
      cardElement(card, { lang, size: "tiny", extraClass: "just-played" }), " × ",
      takenCards.map((c) => cardElement(c, { lang, size: "tiny", extraClass: "just-taken" }))),
    " ", t("k.took", { name: who, card: cardShort(card, lang),
      cards: takenCards.map((c) => cardShort(c, lang)).join(" ") }),
    sweep && !fin ? h("span", { class: "sweep-note", id: "sweep-note" }, ` — ${t("coach.sweep")}`)
      : null, finLine);
}

const LEAVING_MS = 1500;

/** The cards the last capture took (and the card that took them), shown on the table for a
 * moment before they leave; null once shown, in a replay, or after a trail. */
function leavingCards(ctx) {
  const { last, ui } = ctx;
  if (ctx.replay || !last?.action || !last.action.includes(":")) return null;
  if (ui.leftTurn === last.turn) return null;
  const [card, taken] = last.action.split(":");
  return { card: parseCard(card).text, taken: splitCards(taken), turn: last.turn };
}

/** The card the last move laid on the table (a trail), marked for a moment. */
function justLaid(ctx) {
  const action = ctx.last?.action;
  return action && !action.includes(":") ? parseCard(action).text : null;
}

function opponentBox(ctx, seat) {
  const { view, names, lang } = ctx;
  const d = dealOf(view);
  const n = handSize(view, seat);
  const pile = pileOf(view, seat);
  const open = handOf(view, seat);
  const fan = h("div", { class: `fan ${open ? "open" : ""}` }, open ? sortCards(open).map((c) =>
    cardElement(c, { lang, size: "small" }))
    : Array.from({ length: n }, () => cardElement("back", { lang, size: "small" })));
  return h("div", { class: `opponent ${view.to_move === seat ? "to-move" : ""} ${
    open ? "" : "compact"}`, dataset: { seat } },
  h("div", { class: "who" }, nameTag(names[seat]),
    d.dealer === seat ? h("span", { class: "tag" }, t("table.dealer")) : null),
  fan, pileLine(pile, d.last_capturer === seat, lang));
}

function pileLine(pile, lastCapture, lang = "en") {
  const kon = pile.list.filter((c) => c === "2c" || c === "Td");
  return h("div", { class: "meta pile" },
    h("span", {}, `${t("k.captures")}: ${pile.cards} · ♣ ${pile.clubs}`),
    kon.length ? h("span", { class: "konchinki", title: t("k.konchinki") },
      kon.map((c) => cardElement(c, { lang, size: "tiny" }))) : null,
    lastCapture ? h("span", { class: "tag" }, t("k.lastCapture")) : null);
}

function scoreSheet(ctx) {
  const { view, names } = ctx;
  const cols = view.sheet.map(writtenTotals);
  const rows = Math.max(1, ...cols.map((c) => c.length));
  const body = [];
  for (let r = 0; r < rows; r++) {
    body.push(h("tr", {}, cols.map((col) => {
      if (r >= col.length) return h("td", {}, "");
      const v = col[r];
      return h("td", {}, r < col.length - 1 ? h("s", {}, String(v))
        : h("span", { class: "current" }, String(v)));
    })));
  }
  return h("section", { class: "panel sheet", id: "score-sheet", "aria-label": t("k.scoreSheet") },
    h("h3", {}, t("k.scoreSheet"), " ",
      h("span", { class: "target" }, t("k.target", { n: view.target }))),
    h("table", {}, h("thead", {}, h("tr", {}, names.map((n) => h("th", { scope: "col", title: n }, n)))),
      h("tbody", {}, body)));
}

function lastDealScore(ctx) {
  const { view, names } = ctx;
  const scores = view.deal_scores || [];
  const src = scores.length ? scores[scores.length - 1] : null;
  const seats = src?.seats;
  if (!Array.isArray(seats)) return null;
  return h("section", { class: "panel deal-score", id: "deal-score" },
    h("h3", {}, t("k.dealScore")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""),
      h("th", { title: t("k.captures") }, t("k.cardsShort")),
      h("th", { title: t("k.clubs") }, "♣"),
      h("th", { title: t("k.konchinki") }, "2♣ 10♦"),
      h("th", { title: t("k.points") }, "Σ"))),
    h("tbody", {}, seats.map((s, i) => h("tr", {},
      h("td", {}, nameTag(names[i])), h("td", {}, s.cards),
      h("td", {}, s.clubs), h("td", {}, s.konchinki), h("td", {}, h("strong", {}, s.points)))))));
}

/** Who pays whom once the game is over (the engine's settlement, sent with the winner). */
function settlementBox(ctx) {
  const { view, names } = ctx;
  if (!view.over) return null;
  const winner = names[view.winner];
  const pays = view.settlement.payments.filter((p) => p.amount > 0);
  return h("section", { class: "panel settle", id: "settlement" },
    h("h3", {}, t("k.settlement")),
    h("p", {}, t("table.winner", { name: winner })),
    view.settlement.kind === "pool" ? h("p", {}, t("k.poolWin", { name: winner })) : null,
    pays.length ? h("table", { class: "pay-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("k.payer")), h("th", {}, t("k.payee")),
        h("th", {}, t("k.amount")))),
      h("tbody", {}, pays.map((p) => h("tr", { dataset: { from: p.from, to: p.to } },
        h("td", {}, nameTag(names[p.from])),
        h("td", {}, nameTag(names[p.to])),
        h("td", { class: "amount" }, String(p.amount))))))
      : h("p", {}, t("k.paysNobody")));
}

/** The table page puts the match log in this page's side column (ctx.matchLog). */
export const placesMatchLog = true;

function logBox(ctx) {
  const { names, lang, view } = ctx;
  const history = dealOf(view).history || [];
  const number = view.deal_number ?? 1;
  return h("section", { class: "panel" },
    h("h3", {}, t("r.deal", { n: number }), " · ", t("table.moves")),
    history.length ? h("ol", { class: "log", id: "move-log", reversed: true },
      [...history].reverse().map((e) => h("li", {},
      h("strong", {}, names[e.seat] ?? "?"), ": ", formatAction(e.move, lang),
      e.redeal ? h("span", { class: "muted" }, " ⟳") : null)))
      : h("p", { class: "muted small" }, "—"));
}

// ---------------------------------------------------------------- the table

/** Draw the Konchinka table into `container`. */
export function render(container, ctx) {
  const { view, you, lang, ui, readOnly } = ctx;
  const d = dealOf(view);
  const seats = ctx.table.seats.length;
  const myTurn = !readOnly && you !== null && view.to_move === you;
  const legal = myTurn ? groupLegal(legalOf(view)) : {};
  const turnKey = `${ctx.table.turn ?? ""}:${(d.table || []).join("")}`;
  if (ui.turnKey !== turnKey) {
    ui.turnKey = turnKey;
    ui.selected = null;
    ui.hint = null;
  }
  announceDeals(ctx, view.deal_points || []);
  const viewer = you ?? 0;
  const mine = handOf(view, you) || [];
  const options = ui.selected ? legal[ui.selected] : null;

  // Opponents (everyone but me), in seat order starting to my left.
  const others = [];
  for (let k = 1; k <= seats; k++) {
    const s = (viewer + k) % seats;
    if (s === you) continue;
    others.push(s);
  }
  const openAll = Array.isArray(ctx.views);
  const highlight = new Set();
  if (ui.hoverCapture) for (const c of ui.hoverCapture) highlight.add(c);
  else if (options) for (const cap of options.captures) for (const c of cap.cards) highlight.add(c);

  const tableCards = d.table || [];
  clearTimeout(ui.leavingTimer);
  const leaving = leavingCards(ctx);
  if (leaving) {
    ui.leavingTimer = setTimeout(() => {
      ui.leftTurn = leaving.turn;
      render(container, ctx);
    }, LEAVING_MS);
  }
  const leavingBox = leaving ? h("div", { class: "leaving-cards", id: "leaving-cards",
    "aria-hidden": "true", dataset: { turn: leaving.turn } },
  cardElement(leaving.card, { lang, extraClass: "leaving just-played" }),
  leaving.taken.map((c) => cardElement(c, { lang, extraClass: "leaving just-taken" }))) : null;
  const tableZone = h("div", { class: "table-zone" },
    h("h2", {}, t("k.table")),
    h("div", { class: "center-row" },
      h("div", { class: "stock", id: "stock" },
        d.stock_size ? cardElement("back", { lang, size: "small" }) : emptyPile("small"),
        h("span", {}, `${t("table.stock")}: ${d.stock_size}`)),
      h("div", { class: "table-cards", id: "table-cards" },
        tableCards.length ? tableCards.map((c) => cardElement(c, { lang,
          extraClass: options && options.captures.length ? (highlight.has(c) ? "highlight" : "dim")
            : justLaid(ctx) === c ? "just-laid" : "" }))
          : leaving ? null : h("span", { class: "muted" }, t("k.emptyTable"))),
      leavingBox),
    lastMoveLine(ctx));

  // My hand and the choices for the selected card.
  let handZone = null;
  if (you !== null && !openAll) {
    const select = (card) => {
      ui.selected = ui.selected === card ? null : card;
      ui.hoverCapture = null;
      render(container, ctx);
      const again = container.querySelector(`.hand .card[data-card="${card}"]`);
      again?.focus({ preventScroll: true });
      // the choices sit right under the card: bring the card and its choices into view
      container.querySelector("#choices")?.scrollIntoView({ block: "nearest",
        behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    };
    const handCards = sortCards(mine).map((c) => cardElement(c, { lang,
      onClick: myTurn && legal[c] ? () => select(c) : null, selected: ui.selected === c }));
    handZone = h("section", { class: `hand-zone ${myTurn ? "active" : ""}`, id: "hand",
      "aria-label": t("table.hand") },
    h("h2", {}, ctx.replay ? ctx.names[you] : t("table.hand"), " ",
      d.dealer === you ? h("span", { class: "tag" }, t("table.dealer")) : null),
    h("div", { class: "hand" }, handCards),
    myTurn ? choicesBox(ctx, options, container) : null,
    pileLine(pileOf(view, you), d.last_capturer === you, lang));
  }

  const openHands = openAll ? h("div", { class: "opponents" },
    ctx.table.seats.map((s) => opponentBox({ ...ctx, view: ctx.views[s.seat] ?? view }, s.seat)))
    : h("div", { class: "opponents" }, others.map((s) => opponentBox(ctx, s)));

  const felt = h("div", { class: "felt" }, openHands, tableZone, handZone);
  // at a table the match log (every deal) sits here; the replay shows its deal's moves
  if (view.over && !ctx.replay) noteFinished(ctx.table?.id);
  const side = h("aside", { class: "side" }, settlementBox(ctx), scoreSheet(ctx),
    lastDealScore(ctx), coachPanel(ctx, () => render(container, ctx)),
    ctx.matchLog ?? logBox(ctx));
  const handBefore = rectsOf(container, "#hand .hand .card");
  container.replaceChildren(h("div", { class: "game-layout konchinka" }, felt, side));
  moveCards(container, ctx, handBefore, leaving);

  if (myTurn && !ctx.replay) installKeys(ctx, container, legal);
  placeChoices(container);
}

/** The last move in motion, once: the played card flies from the hand (or the player's
 * row) to the table, and the cards a capture took fly to the capturer's pile. */
function moveCards(container, ctx, handBefore, leaving) {
  const { last, ui, you } = ctx;
  if (ctx.replay || !last?.action) return;
  const seat = (n) => container.querySelector(`.opponent[data-seat="${n}"]`);
  if (leaving) {
    const pile = last.actor === you ? container.querySelector("#hand .pile")
      : seat(last.actor)?.querySelector(".pile");
    for (const node of container.querySelectorAll("#leaving-cards .card")) flyTo(node, pile);
  }
  const first = ui.flownTurn === undefined;  // a page just opened: nothing moves
  if (ui.flownTurn === last.turn) return;
  ui.flownTurn = last.turn;
  if (first) return;
  const card = parseCard(last.action.split(":")[0]).text;
  const from = last.actor === you ? handBefore[card] : seat(last.actor)?.getBoundingClientRect();
  flyFrom(leaving ? container.querySelector("#leaving-cards .just-played")
    : container.querySelector(`#table-cards .card[data-card="${card}"]`), from);
}

/** Put the capture choices right under the selected hand card (as far as the hand's width
 * allows), with a pointer at the card, so the eye goes from the card to its choices. */
function placeChoices(container) {
  const box = container.querySelector("#choices");
  const card = container.querySelector(".hand .card.selected");
  if (!box || !card) return;
  const zone = box.parentElement.getBoundingClientRect();
  const at = card.getBoundingClientRect();
  const width = box.getBoundingClientRect().width;
  const center = at.left + at.width / 2 - zone.left;
  const left = Math.max(0, Math.min(zone.width - width, center - width / 2));
  box.style.marginLeft = `${Math.round(left)}px`;
  box.style.setProperty("--pointer", `${Math.round(center - left)}px`);
}

function choicesBox(ctx, options, container) {
  const { ui, lang } = ctx;
  const hintButton = h("button", { type: "button", class: "choice", id: "hint", onclick: async () => {
    try {
      const answer = await ctx.hint();
      ui.hint = answer.action;
      ui.selected = parseCard(answer.action.split(":")[0]).text;
      ui.hoverCapture = null;
      render(container, ctx);
    } catch { /* no hint now */ }
  } }, h("span", { class: "key" }, "?"), t("r.hint"));
  if (!ui.selected || !options) {
    return h("div", { class: "choose" }, h("p", { class: "prompt", id: "prompt" }, t("k.pickCard")),
      ctx.hint ? h("div", { class: "choices" }, hintButton) : null);
  }
  const card = ui.selected;
  const coach = coachOn(ctx.table);
  const explain = dealOf(ctx.view).explain || {};
  const buttons = options.captures.map((cap, i) => h("button", { type: "button",
    class: `choice capture ${ui.hint === cap.text ? "hinted" : ""}`, dataset: { action: cap.text },
    onclick: () => ctx.play(cap.text),
    onmouseenter: () => { ui.hoverCapture = cap.cards; paintHighlight(container, cap.cards); },
    onmouseleave: () => { ui.hoverCapture = null; paintHighlight(container, null, ctx); },
    onfocus: () => paintHighlight(container, cap.cards),
    "aria-label": `${t("k.take")}: ${cap.cards.map((c) => cardShort(c, lang)).join(" ")}${
      coach ? ` (${captureSumText(explain[cap.text], lang)})` : ""}` },
  i < 9 ? h("span", { class: "key" }, String(i + 1)) : null,
  t("k.take"), miniCards(cap.cards, lang),
  coach ? h("span", { class: "capture-sum" }, captureSumText(explain[cap.text], lang)) : null));
  if (options.trail) {
    buttons.push(h("button", { type: "button", id: "trail",
      class: `choice trail ${ui.hint === options.trail ? "hinted" : ""}`,
      dataset: { action: options.trail }, onclick: () => ctx.play(options.trail) },
    h("span", { class: "key" }, "0"), t("k.trail")));
  }
  const head = options.captures.length
    ? t("k.canTake", { card: cardShort(card, lang) })
    : t("k.noCapture", { card: cardShort(card, lang) });
  const why = coach && options.trail ? trailWhyText(explain[options.trail], lang) : "";
  return h("div", { class: "choose" },
    h("div", { class: "choices beside", id: "choices", dataset: { card } },
      h("p", { class: "prompt", id: "prompt" }, head),
      why ? h("p", { class: "coach-why", id: "trail-why" }, why) : null, buttons,
      h("button", { type: "button", class: "choice", onclick: () => {
        ui.selected = null;
        render(container, ctx);
      } }, h("span", { class: "key" }, "Esc"), t("k.cancel")),
      ctx.hint && !ui.hint ? hintButton : null));
}

/** Mark the table cards a capture takes (`cards`), or, given none, every card the selected
 * hand card could take.
 * @param {HTMLElement} container
 * @param {string[] | null} cards
 * @param {import("./catalog.js").RenderContext | null} [ctx] */
function paintHighlight(container, cards, ctx = null) {
  const set = new Set(cards || []);
  /** @type {Set<string> | null} */
  let all = null;
  if (!cards && ctx) {
    const options = groupLegal(legalOf(ctx.view))[ctx.ui.selected];
    all = new Set((options?.captures || []).flatMap((c) => c.cards));
  }
  for (const node of container.querySelectorAll("#table-cards .card")) {
    const card = /** @type {HTMLElement} */ (node).dataset.card ?? "";
    const on = cards ? set.has(card) : all ? all.has(card) : false;
    node.classList.toggle("highlight", on);
    node.classList.toggle("dim", !on);
  }
}

function installKeys(ctx, container, legal) {
  const { ui } = ctx;
  bindKeys(ui, container, (ev) => {
    const options = ui.selected ? legal[ui.selected] : null;
    if (ev.key === "Escape" && ui.selected) {
      ui.selected = null;
      render(container, ctx);
    } else if (ev.key === "?" && ctx.hint) {
      container.querySelector("#hint")?.click();
    } else if (options && /^[1-9]$/.test(ev.key) && options.captures[Number(ev.key) - 1]) {
      ctx.play(options.captures[Number(ev.key) - 1].text);
    } else if (options && (ev.key === "0" || ev.key.toLowerCase() === "t") && options.trail) {
      ctx.play(options.trail);
    } else {
      return false;
    }
    return true;
  });
}

// ---------------------------------------------------------------- the end of a deal

/** The end-of-deal screen's body (dealend.js): each seat's cards, clubs, кончинки and
 * points, and the cards left on the table with who took them. */
export function dealEndBody(end, names, lang) {
  const view = end.views[0];
  const reasons = view.score_reasons || [];
  const rows = view.score.seats.map((s, i) => h("tr", { class: "seat-row", dataset: { seat: i } },
    h("th", { scope: "row" }, nameTag(names[i])),
    h("td", {}, String(s.cards)), h("td", {}, String(s.clubs)),
    h("td", {}, minis(end.views[0].captured[i].filter((c) => c === "2c" || c === "Td"), lang)),
    h("td", { class: "pts" }, h("strong", {}, String(s.points)))));
  // where each seat's points came from: most cards +2, most clubs +1, 2♣ +1, 10♦ +1
  const why = h("div", { class: "points-why", id: "deal-end-why" },
    h("h3", {}, t("coach.whyPoints")),
    h("ul", {}, view.score.seats.map((_, i) => h("li", { class: "reasons", dataset: { seat: i,
      points: (reasons[i] || []).map((r) => r.points).join(" ") } },
    nameTag(names[i]), `: ${reasonsText(reasons[i])}`))));
  const sweep = view.final_sweep;
  return [h("table", { class: "end-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("k.cardsShort")),
      h("th", {}, "♣"), h("th", {}, t("k.konchinki")), h("th", {}, t("k.points")))),
    h("tbody", {}, rows)),
  why,
  end.totals ? h("p", { class: "end-totals", id: "deal-end-totals" }, t("coach.totals", {
    totals: end.totals.map((n, i) => `${names[i]} ${n}`).join(" · "),
    target: view.rules.target })) : null,
  sweep && sweep.cards.length ? h("p", { class: "leftover", id: "deal-end-leftover" },
    t("end.leftover", { name: names[sweep.seat] }), " ", minis(sweep.cards, lang))
    : h("p", { class: "leftover", id: "deal-end-leftover" }, t("end.noLeftover"))];
}
