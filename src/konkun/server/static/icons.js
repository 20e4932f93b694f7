// Small inline SVG icons for controls whose emoji a font may lack (a browser without an
// emoji font draws ⏱ or 🔔 as an empty box). They take the text's colour and size.

const NS = "http://www.w3.org/2000/svg";

/** @type {Record<string, [string, Record<string, string | number>][]>} */
const SHAPES = {
  clock: [["circle", { cx: 12, cy: 13, r: 8 }], ["path", { d: "M12 9v4l3 2M9 2h6" }]],
  bell: [["path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" }], ["path", { d: "M10 20a2 2 0 0 0 4 0" }]],
  bellOff: [["path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" }], ["path", { d: "M10 20a2 2 0 0 0 4 0" }],
    ["path", { d: "M3 3l18 18" }]],
  link: [["path", { d: "M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1" }],
    ["path", { d: "M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1" }]],
  eye: [["path", { d: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" }],
    ["circle", { cx: 12, cy: 12, r: 3 }]],
  chat: [["path", { d: "M4 5h16v11H9l-5 4z" }]],
  notify: [["path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" }], ["path", { d: "M10 20a2 2 0 0 0 4 0" }],
    ["path", { d: "M19 3l2-1M5 3L3 2" }]],
};

/** The icon `name` (clock, bell, bellOff, link, eye, chat, notify) as an inline SVG, hidden from screen readers
 * (its control carries the words).
 * @param {string} name
 * @returns {SVGSVGElement} */
export function icon(name) {
  const node = document.createElementNS(NS, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "1em", height: "1em",
    fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round",
    "stroke-linejoin": "round", "aria-hidden": "true", class: `icon icon-${name}` })) {
    node.setAttribute(k, String(v));
  }
  for (const [tag, attrs] of SHAPES[name]) {
    const part = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) part.setAttribute(k, String(v));
    node.appendChild(part);
  }
  return node;
}
