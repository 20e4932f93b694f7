// Playing cards drawn as SVG by konkun itself: suit shapes, pips, court cards, the joker
// and the back. Card text follows RULES.md: rank A K Q J T 9..2, suit c d h s, joker X.

const NS = "http://www.w3.org/2000/svg";

/** Suit outlines in a 100 x 100 box.
 * @type {Record<string, string>} */
const SUIT_PATHS = {
  h: "M50 92C22 68 2 50 2 28C2 12 14 2 28 2C39 2 46 9 50 18C54 9 61 2 72 2C86 2 98 12 98 28C98 50 78 68 50 92Z",
  d: "M50 2L90 50L50 98L10 50Z",
  s: "M50 2C78 26 98 42 98 62C98 76 87 85 74 85C65 85 58 81 54 74C55 86 59 93 67 99H33C41 93 45 86 46 74C42 81 35 85 26 85C13 85 2 76 2 62C2 42 22 26 50 2Z",
  c: "M50 4A21 21 0 0 1 68 36A21 21 0 1 1 55 72C56 86 60 93 67 99H33C40 93 44 86 45 72A21 21 0 1 1 32 36A21 21 0 0 1 50 4Z",
};

export const SUITS = ["c", "d", "h", "s"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const RED = new Set(["d", "h"]);

/** Pip centres (x, y) in the 100 x 140 card box; pips below the middle are turned.
 * @type {Record<number, number[][]>} */
const PIPS = {
  1: [[50, 70]],
  2: [[50, 28], [50, 112]],
  3: [[50, 28], [50, 70], [50, 112]],
  4: [[32, 28], [68, 28], [32, 112], [68, 112]],
  5: [[32, 28], [68, 28], [50, 70], [32, 112], [68, 112]],
  6: [[32, 28], [68, 28], [32, 70], [68, 70], [32, 112], [68, 112]],
  7: [[32, 28], [68, 28], [50, 49], [32, 70], [68, 70], [32, 112], [68, 112]],
  8: [[32, 28], [68, 28], [50, 49], [32, 70], [68, 70], [50, 91], [32, 112], [68, 112]],
  9: [[32, 26], [68, 26], [32, 54], [68, 54], [50, 70], [32, 86], [68, 86], [32, 114], [68, 114]],
  10: [[32, 26], [68, 26], [50, 40], [32, 54], [68, 54], [32, 86], [68, 86], [50, 100],
    [32, 114], [68, 114]],
};

/** Rank letters shown in the card's corners, per language (Russian decks use Т К Д В).
 * @type {Record<string, Record<string, string>>} */
const INDEX = {
  en: { A: "A", K: "K", Q: "Q", J: "J", T: "10" },
  ru: { A: "Т", K: "К", Q: "Д", J: "В", T: "10" },
};

/**
 * A card text read: a joker (which may name the card it stands for, `as`) or a card of a
 * rank and a suit.
 * @typedef {{rank: null, suit: null, joker: true, text: string, as: string | null}
 *   | {rank: string, suit: string, joker: false, text: string, as: null}} ParsedCard
 */

/** Parse card text ("Td", "X", "X=7d") into {rank, suit, joker, text, as}.
 * @param {string} text
 * @returns {ParsedCard} */
export function parseCard(text) {
  const raw = String(text).trim();
  if (raw.startsWith("X")) {
    const as = raw.includes("=") ? raw.split("=")[1] : null;
    return { rank: null, suit: null, joker: true, text: raw, as };
  }
  let rank = raw.slice(0, -1).toUpperCase();
  if (rank === "10") rank = "T";
  const suit = raw.slice(-1).toLowerCase();
  return { rank, suit, joker: false, text: rank + suit, as: null };
}

/** Split a run of card texts written together ("As7h2c") into card texts.
 * @param {string | null | undefined} run
 * @returns {string[]} */
export function splitCards(run) {
  if (!run || run === "-") return [];
  const out = [];
  const re = /X(=[2-9TJQKA][cdhs])?|(10|[2-9TJQKA])[cdhs]/gi;
  let m;
  while ((m = re.exec(run)) !== null) out.push(m[0]);
  return out;
}

/** @param {string} name @param {Record<string, unknown>} [attrs] @param {Node[]} [children] */
function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.appendChild(c);
  return node;
}

/** A suit's outline of `size` centred at (x, y), turned upside down below the middle.
 * @param {string} suit @param {number} x @param {number} y @param {number} size
 * @param {boolean} [turned] */
function suitShape(suit, x, y, size, turned = false) {
  const s = size / 100;
  const rot = turned ? ` rotate(180 50 50)` : "";
  return el("path", {
    d: SUIT_PATHS[suit],
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}`,
    class: "suit",
  });
}

/** @param {number} x @param {number} y @param {string} content
 * @param {Record<string, unknown>} [attrs] */
function text(x, y, content, attrs = {}) {
  const t = el("text", { x, y, ...attrs });
  t.textContent = content;
  return t;
}

/** The rank and the suit in two corners. @param {string} label @param {string} suit
 * @param {SVGElement} group */
function corners(label, suit, group) {
  const small = label.length > 1 ? 15 : 19;
  for (const turned of [false, true]) {
    const g = el("g", turned ? { transform: "rotate(180 50 70)" } : {});
    g.appendChild(text(12, 21, label, { class: "idx", "font-size": small, "text-anchor": "middle" }));
    if (suit) g.appendChild(suitShape(suit, 12, 32, 12));
    group.appendChild(g);
  }
}

/** @param {number} x @param {number} y @param {number} w */
function crown(x, y, w) {
  const h = w * 0.55;
  const d = `M${x - w / 2} ${y + h}L${x - w / 2} ${y}L${x - w / 4} ${y + h * 0.45}L${x} ${y - h * 0.1}` +
    `L${x + w / 4} ${y + h * 0.45}L${x + w / 2} ${y}L${x + w / 2} ${y + h}Z`;
  return el("path", { d, class: "crown" });
}

/** A court card's face. @param {string} rank @param {string} suit @param {string} label
 * @param {SVGElement} group */
function courtFace(rank, suit, label, group) {
  group.appendChild(el("rect", { x: 22, y: 16, width: 56, height: 108, rx: 5, class: "court" }));
  group.appendChild(el("rect", { x: 25, y: 19, width: 50, height: 102, rx: 4, class: "court-inner" }));
  if (rank === "K") group.appendChild(crown(50, 34, 30));
  else if (rank === "Q") group.appendChild(crown(50, 36, 22));
  else group.appendChild(el("path", { d: "M38 46L50 30L62 46L50 40Z", class: "crown" }));
  group.appendChild(text(50, 84, label, { class: "court-letter", "text-anchor": "middle" }));
  group.appendChild(suitShape(suit, 50, 104, 16));
}

/** @param {SVGElement} group @param {string} lang */
function jokerFace(group, lang) {
  group.appendChild(el("rect", { x: 14, y: 14, width: 72, height: 112, rx: 6, class: "joker-frame" }));
  const star = "M50 34L57 52L76 52L61 63L67 82L50 70L33 82L39 63L24 52L43 52Z";
  group.appendChild(el("path", { d: star, class: "joker-star" }));
  const word = lang === "ru" ? "ДЖОКЕР" : "JOKER";
  group.appendChild(text(50, 106, word, { class: "joker-word", "text-anchor": "middle" }));
}

/**
 * An SVG element for one card face. `text` is card text ("Qd", "X", "X=7d"); pass
 * "back" for the back. Options: lang ("ru"|"en").
 * @param {string} cardText
 * @param {{lang?: string}} [options]
 * @returns {SVGElement}
 */
export function cardSvg(cardText, { lang = "en" } = {}) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true",
    focusable: "false" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "face" }));
  if (cardText === "back") {
    svg.classList.add("back");
    svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, class: "back-field" }));
    const g = el("svg", { x: 7, y: 7, width: 86, height: 126, viewBox: "0 0 86 126",
      class: "back-lattice" });
    for (let i = -126; i < 130; i += 11) {
      g.appendChild(el("line", { x1: i, y1: 0, x2: i + 126, y2: 126 }));
      g.appendChild(el("line", { x1: 86 - i, y1: 0, x2: 86 - i - 126, y2: 126 }));
    }
    svg.appendChild(g);
    svg.appendChild(el("circle", { cx: 50, cy: 70, r: 15, class: "back-medal" }));
    svg.appendChild(text(50, 76, "K", { class: "back-letter", "text-anchor": "middle" }));
    return svg;
  }
  const card = parseCard(cardText);
  if (card.joker) {
    svg.classList.add("joker");
    jokerFace(svg, lang);
    const stands = card.as ? parseCard(card.as) : null;
    if (stands && !stands.joker) {  // "X=7d": the card it stands for in the corner
      const label = (INDEX[lang] || INDEX.en)[stands.rank] || stands.rank;
      const g = el("g", { class: RED.has(stands.suit) ? "red" : "black" });
      g.appendChild(text(13, 21, label, { class: "idx", "font-size": label.length > 1 ? 14 : 18,
        "text-anchor": "middle" }));
      g.appendChild(suitShape(stands.suit, 13, 32, 12));
      svg.appendChild(g);
    }
    return svg;
  }
  const { rank, suit } = card;
  svg.classList.add(RED.has(suit) ? "red" : "black");
  const label = (INDEX[lang] || INDEX.en)[rank] || rank;
  const g = el("g");
  corners(label, suit, g);
  if (rank === "A") {
    g.appendChild(suitShape(suit, 50, 70, suit === "d" ? 44 : 40));
  } else if (rank === "K" || rank === "Q" || rank === "J") {
    courtFace(rank, suit, label, g);
  } else {
    const n = rank === "T" ? 10 : Number(rank);
    const size = n >= 9 ? 17 : 19;
    for (const [x, y] of PIPS[n]) g.appendChild(suitShape(suit, x, y, size, y > 72));
  }
  svg.appendChild(g);
  return svg;
}

/** @type {Record<string, Record<string, string>>} */
const RANK_WORDS = {
  en: { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two" },
  ru: { A: "туз", K: "король", Q: "дама", J: "валет", T: "десятка", 9: "девятка", 8: "восьмёрка",
    7: "семёрка", 6: "шестёрка", 5: "пятёрка", 4: "четвёрка", 3: "тройка", 2: "двойка" },
};
/** @type {Record<string, Record<string, string>>} */
const SUIT_WORDS = {
  en: { c: "clubs", d: "diamonds", h: "hearts", s: "spades" },
  ru: { c: "треф", d: "бубен", h: "червей", s: "пик" },
};

/** The spoken name of a card ("queen of diamonds", "дама бубен", "joker").
 * @param {string} cardText
 * @param {string} [lang]
 * @returns {string} */
export function cardName(cardText, lang = "en") {
  if (cardText === "back") return lang === "ru" ? "карта рубашкой вверх" : "face-down card";
  const c = parseCard(cardText);
  const L = RANK_WORDS[lang] ? lang : "en";
  if (c.joker) {
    const j = L === "ru" ? "джокер" : "joker";
    return c.as ? `${j} (${cardName(c.as, L)})` : j;
  }
  const r = RANK_WORDS[L][c.rank] || c.rank;
  return L === "ru" ? `${r} ${SUIT_WORDS.ru[c.suit]}` : `${r} of ${SUIT_WORDS.en[c.suit]}`;
}

/** A short display text with suit symbol, e.g. "10♦", for logs.
 * @param {string} cardText
 * @param {string} [lang]
 * @returns {string} */
export function cardShort(cardText, lang = "en") {
  const c = parseCard(cardText);
  if (c.joker) return c.as ? `★${cardShort(c.as, lang)}` : "★";
  const label = (INDEX[lang] || INDEX.en)[c.rank] || c.rank;
  return label + /** @type {Record<string, string>} */ ({ c: "♣", d: "♦", h: "♥", s: "♠" })[c.suit];
}

/**
 * A card as an HTML element: a <button> when `onClick` is given (keyboard friendly), else
 * a <span>. `card` is card text or "back".
 * @param {string} card
 * @param {{lang?: string, onClick?: ((ev: MouseEvent) => void) | null, size?: string,
 *   selected?: boolean, extraClass?: string}} [options]
 * @returns {HTMLElement}
 */
export function cardElement(card, { lang = "en", onClick = null, size = "", selected = false,
  extraClass = "" } = {}) {
  const node = onClick ? document.createElement("button") : document.createElement("span");
  node.className = `card ${size} ${extraClass}`.trim();
  node.dataset.card = card;
  node.setAttribute(onClick ? "aria-label" : "title", cardName(card, lang));
  if (!onClick) node.setAttribute("role", "img");
  if (!onClick) node.setAttribute("aria-label", cardName(card, lang));
  if (onClick && node instanceof HTMLButtonElement) {
    node.type = "button";
    node.addEventListener("click", onClick);
    node.setAttribute("aria-pressed", selected ? "true" : "false");
  }
  if (selected) node.classList.add("selected");
  node.appendChild(cardSvg(card, { lang }));
  return node;
}

/** The place of an empty pile (the stock once drawn out): a dashed outline of a card.
 * @param {string} [size] */
export function emptyPile(size = "") {
  const node = document.createElement("span");
  node.className = `card empty-pile ${size}`.trim();
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** Sort card texts by suit (c d h s) then rank (2..A); jokers last.
 * @param {string[]} cards
 * @returns {string[]} a sorted copy */
export function sortCards(cards) {
  /** @param {string} t */
  const key = (t) => {
    const c = parseCard(t);
    return c.joker ? 1000 : SUITS.indexOf(c.suit) * 20 + RANKS.indexOf(c.rank);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}
