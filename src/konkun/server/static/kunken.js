// Kunken at the table: the bank spread so every card shows, every player's melds and
// lay-offs, your hand, the moves the engine allows (take the bank from a card with the
// melds to lay down, lay-offs, joker swaps, draw, discard), a hint, and the match totals.
// The view is Match.to_json(seat) of konkun.kunken (docs/kunken.md).

import { cardElement, cardShort, parseCard, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const CARD_TOKEN = /^(X(=[2-9TJQKA][cdhs])?|(10|[2-9TJQKA])[cdhs])$/i;

// ---------------------------------------------------------------- reading the view

function dealOf(view) {
  return view.deal && typeof view.deal === "object" ? view.deal : view;
}

function first(obj, ...keys) {
  for (const k of keys) if (obj && obj[k] !== undefined && obj[k] !== null) return obj[k];
  return undefined;
}

function handOf(view, seat) {
  const d = dealOf(view);
  if (seat === null || seat === undefined) return null;
  if (Array.isArray(d.hand) && (d.seat === seat || d.seat === undefined)) return d.hand;
  if (Array.isArray(d.hands) && Array.isArray(d.hands[seat])) return d.hands[seat];
  return null;
}

function handSize(view, seat) {
  const d = dealOf(view);
  const open = handOf(view, seat);
  if (open) return open.length;
  const sizes = first(d, "hand_sizes", "hand_counts");
  return Array.isArray(sizes) ? sizes[seat] : 0;
}

function bankOf(view) {
  return first(dealOf(view), "bank", "discards", "discard_pile") || [];
}

/** Cards of a meld entry: a list of card texts, or {cards|slots: [...]}. */
function meldCards(meld) {
  if (Array.isArray(meld)) return meld;
  const cards = first(meld, "cards", "slots", "meld");
  if (Array.isArray(cards)) return cards;
  if (typeof cards === "string") return cards.split(/\s+/).filter(Boolean);
  if (typeof meld.text === "string") return meld.text.split(/\s+/).filter(Boolean);
  return [];
}

/** Every meld on the table with its owner: [{owner, cards, laidBy, value, index}]. */
function meldsOf(view) {
  const d = dealOf(view);
  const raw = first(d, "melds", "table_melds", "layouts") || [];
  const out = [];
  const push = (m, owner, i) => out.push({
    owner: first(m, "owner", "seat") ?? owner, cards: meldCards(m),
    laidBy: Array.isArray(m.laid_by) ? m.laid_by : null, value: first(m, "value", "points"),
    index: first(m, "index", "id") ?? i });
  const perSeat = Array.isArray(raw) && raw.length > 0
    && raw.every((x) => Array.isArray(x) && x.every((m) => m && typeof m === "object"));
  if (perSeat) raw.forEach((seatMelds, owner) => seatMelds.forEach((m, i) => push(m, owner, i)));
  else if (Array.isArray(raw)) raw.forEach((m, i) => push(m, null, i));
  return out;
}

function layoffsOf(view, seat) {
  const d = dealOf(view);
  const l = first(d, "layoffs", "lay_offs");
  if (Array.isArray(l) && Array.isArray(l[seat])) return l[seat];
  return [];
}

function openedOf(view, seat) {
  const d = dealOf(view);
  const o = first(d, "opened", "has_layout", "laid_down");
  return Array.isArray(o) ? Boolean(o[seat]) : null;
}

function legalOf(view) {
  return view.legal || dealOf(view).legal || [];
}

function toMoveOf(view) {
  return view.to_move ?? dealOf(view).to_move ?? null;
}

// ---------------------------------------------------------------- actions as text

/** Split an action text into words and card tokens: [{card}|{word}]. */
export function tokens(action) {
  return String(action).split(/([\s,:;/|()[\]+]+)/).filter((x) => x !== "").map((w) => {
    const bare = w.replace(/^[^0-9A-Za-z]+|[^0-9A-Za-z=]+$/g, "");
    return CARD_TOKEN.test(bare) ? { card: bare.length === 3 && bare[0] === "1" ? `T${bare[2]}`
      : bare } : { word: w };
  });
}

function cardsIn(action) {
  return tokens(action).filter((x) => x.card).map((x) => x.card.split("=")[0] === "X" ? "X"
    : x.card);
}

function kindOf(action) {
  const m = String(action).trim().match(/^[a-z_]+/i);
  return m ? m[0].toLowerCase() : "";
}

const KIND_TEXT = {
  draw: "r.draw", take: "r.takeBank", bank: "r.takeBank", discard: "r.discard",
  meld: "r.layDown", lay: "r.layDown", layoff: "r.layOff", off: "r.layOff", swap: "r.swap",
};

/** A move as display text with suit symbols. */
export function formatAction(action, lang) {
  return tokens(action).map((x) => (x.card ? cardShort(x.card, lang) : x.word)).join("");
}

function actionButton(action, ctx, i, hinted) {
  const { lang } = ctx;
  const parts = tokens(action).map((x) => (x.card ? cardElement(x.card, { lang, size: "tiny" })
    : h("span", { class: "word" }, x.word)));
  return h("button", { type: "button", class: `choice action ${hinted ? "hinted" : ""}`,
    dataset: { action }, title: action, onclick: () => ctx.play(action) },
  i < 9 ? h("span", { class: "key" }, String(i + 1)) : null, ...parts);
}

// ---------------------------------------------------------------- pieces

function meldBox(m, ctx) {
  return h("div", { class: "meld", dataset: { meld: m.index } },
    m.cards.map((c, i) => cardElement(c, { lang: ctx.lang, size: "small",
      extraClass: m.laidBy && m.laidBy[i] !== undefined && m.laidBy[i] !== m.owner
        ? "laid-off" : "" })));
}

function layoutRow(ctx, seat, melds) {
  const { names, view } = ctx;
  const mine = melds.filter((m) => m.owner === seat);
  const offs = layoffsOf(view, seat);
  const opened = openedOf(view, seat);
  return h("div", { class: `layout ${toMoveOf(view) === seat ? "to-move" : ""}`,
    dataset: { seat } },
  h("div", { class: "who" }, names[seat],
    seat === ctx.you ? ` ${t("table.youSuffix")}` : "",
    dealOf(view).dealer === seat ? h("span", { class: "tag" }, t("table.dealer")) : null,
    " ", h("span", { class: "muted small" }, t("r.handCount", { n: handSize(view, seat) })),
    opened === null ? null : h("span", { class: "muted small" },
      ` · ${opened ? t("r.opened") : t("r.notOpened")}`)),
  h("div", { class: "melds" }, mine.length ? mine.map((m) => meldBox(m, ctx))
    : h("span", { class: "muted small" }, t("r.noMelds")),
  offs.length ? h("div", { class: "meld layoffs", title: t("r.layOff") },
    offs.map((c) => cardElement(typeof c === "string" ? c : c.card, { lang: ctx.lang,
      size: "small" }))) : null));
}

function totalsBox(ctx) {
  const { view, names, table } = ctx;
  const seats = table.seats.length;
  const rows = view.deal_points || [];
  const totals = view.totals || new Array(seats).fill(0);
  return h("section", { class: "panel totals", id: "totals" }, h("h3", {}, t("r.totals")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), names.map((n) => h("th", {}, n)))),
      h("tbody", {}, rows.map((r, i) => h("tr", {}, h("td", {}, t("r.deal", { n: i + 1 })),
        r.map((p) => h("td", {}, String(p)))))),
      h("tfoot", {}, h("tr", {}, h("td", {}, "Σ"), totals.map((p) => h("td", {},
        String(p)))))),
    view.over && view.winner !== null && view.winner !== undefined
      ? h("p", { class: "settle" }, t("table.winner", { name: names[view.winner] })) : null);
}

// ---------------------------------------------------------------- the table

/** Draw the Kunken table into `container`. */
export function render(container, ctx) {
  const { view, you, lang, ui, readOnly } = ctx;
  const d = dealOf(view);
  const seats = ctx.table.seats.length;
  const toMove = toMoveOf(view);
  const myTurn = !readOnly && you !== null && toMove === you;
  const legal = myTurn ? legalOf(view) : [];
  const turnKey = `${ctx.table.turn ?? ""}:${legal.length}`;
  if (ui.turnKey !== turnKey) {
    ui.turnKey = turnKey;
    ui.picked = [];
    ui.hint = null;
  }
  ui.picked = ui.picked || [];
  const rerender = () => render(container, ctx);
  const melds = meldsOf(view);
  const bank = bankOf(view);
  const openAll = Array.isArray(ctx.views);

  // the bank, oldest first, every card visible
  const bankBox = h("section", { class: "bank-zone" },
    h("h2", {}, t("r.bank"), " ", h("span", { class: "muted small" },
      `${t("table.stock")}: ${first(d, "stock_size", "stock") ?? 0}`)),
    h("div", { class: "bank", id: "bank" }, bank.length ? bank.map((c, i) => {
      const text = typeof c === "string" ? c : c.card;
      const picked = ui.picked.includes(`bank:${i}`);
      return cardElement(text, { lang, extraClass: picked ? "chosen" : "",
        onClick: myTurn ? () => { togglePick(ui, `bank:${i}`); rerender(); } : null,
        selected: picked });
    }) : h("span", { class: "muted" }, t("r.bankEmpty"))));

  const layouts = h("section", { class: "layouts", id: "layouts" },
    h("h2", {}, t("r.layouts")),
    Array.from({ length: seats }, (_, k) => layoutRow(ctx, k, melds)));

  // my hand
  let handZone = null;
  const mine = handOf(view, you);
  if (mine && !openAll) {
    handZone = h("section", { class: `hand-zone ${myTurn ? "active" : ""}`, id: "hand" },
      h("h2", {}, t("table.hand"), " ", h("span", { class: "muted small" },
        String(mine.length))),
      h("div", { class: "hand" }, sortCards(mine).map((c, i) => {
        const key = `hand:${c}:${i}`;
        const picked = ui.picked.includes(key);
        return cardElement(c, { lang, selected: picked,
          onClick: myTurn ? () => { togglePick(ui, key); rerender(); } : null });
      })),
      myTurn ? movesBox(ctx, legal, rerender) : null);
  }
  const openHands = openAll ? h("div", { class: "opponents" }, ctx.table.seats.map((s) => {
    const hv = ctx.views[s.seat];
    const cards = hv ? handOf(hv, s.seat) || [] : [];
    return h("div", { class: "opponent", dataset: { seat: s.seat } },
      h("div", { class: "who" }, ctx.names[s.seat]),
      h("div", { class: "fan open" }, sortCards(cards).map((c) =>
        cardElement(c, { lang, size: "small" }))));
  })) : null;

  const felt = h("div", { class: "felt kunken-felt" }, openHands, bankBox, layouts, handZone);
  container.replaceChildren(h("div", { class: "game-layout kunken" }, felt,
    h("aside", { class: "side" }, totalsBox(ctx))));
}

function togglePick(ui, key) {
  const i = ui.picked.indexOf(key);
  if (i >= 0) ui.picked.splice(i, 1);
  else ui.picked.push(key);
}

function movesBox(ctx, legal, rerender) {
  const { ui, lang, view } = ctx;
  const bank = bankOf(view);
  const pickedCards = ui.picked.map((k) => {
    const [where, a] = k.split(":");
    if (where === "bank") {
      const c = bank[Number(a)];
      return typeof c === "string" ? c : c?.card;
    }
    return a;
  }).filter(Boolean);
  const need = pickedCards.map((c) => (parseCard(c).joker ? "X" : c));
  const filtered = legal.filter((a) => {
    const have = cardsIn(a);
    return need.every((c) => have.includes(c));
  });
  const hinted = ui.hint && legal.includes(ui.hint) ? ui.hint : null;
  const ordered = hinted ? [hinted, ...filtered.filter((a) => a !== hinted)] : filtered;
  const limit = ui.showAll ? ordered.length : 24;
  const groups = new Map();
  ordered.slice(0, limit).forEach((a) => {
    const k = kindOf(a);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(a);
  });
  let n = 0;
  const sections = [...groups.entries()].map(([kind, acts]) => h("div", { class: "move-group" },
    h("h3", {}, KIND_TEXT[kind] ? t(KIND_TEXT[kind]) : kind || t("r.actions")),
    h("div", { class: "move-list" }, acts.map((a) => actionButton(a, ctx, n++, a === hinted)))));
  const toolbar = h("div", { class: "toolbar" },
    h("button", { type: "button", id: "hint", onclick: async () => {
      try {
        const answer = await ctx.hint();
        ui.hint = answer.action;
        ui.picked = [];
        rerender();
      } catch (err) {
        ui.hint = null;
        rerender();
      }
    } }, t("r.hint")),
    pickedCards.length ? h("span", { class: "picked" }, t("r.selected", {
      cards: pickedCards.map((c) => cardShort(c, lang)).join(" ") }),
    " ", h("button", { type: "button", class: "linkish", onclick: () => {
      ui.picked = [];
      rerender();
    } }, t("r.clear"))) : null);
  return h("div", { class: "moves", id: "moves" }, toolbar,
    h("div", { class: "move-groups" }, sections),
    ordered.length > limit ? h("button", { type: "button", class: "linkish more", onclick: () => {
      ui.showAll = true;
      rerender();
    } }, t("r.more", { n: ordered.length - limit })) : null,
    filtered.length === 0 ? h("p", { class: "muted" }, "—") : null);
}
