// Card motion at the table: a played card flies from the hand (or the player's place) to
// where it lands, and the cards a capture took fly to the capturer's pile. CSS animations
// read the distances from custom properties (style.css: .fly-in, .fly-out); under
// `prefers-reduced-motion: reduce` the stylesheet runs none of them.

/** Where each card of `selector` under `root` is on the screen now, by its card text
 * (the first of two copies).
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {Record<string, DOMRect>} */
export function rectsOf(root, selector) {
  /** @type {Record<string, DOMRect>} */
  const rects = {};
  for (const node of root.querySelectorAll(selector)) {
    rects[String(/** @type {HTMLElement} */ (node).dataset.card)] ??= node.getBoundingClientRect();
  }
  return rects;
}

/** @param {DOMRect} rect @returns {[number, number]} */
function middle(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

/** Make `node` arrive from the screen rectangle `from` (where the card was).
 * @param {HTMLElement | null | undefined} node
 * @param {DOMRect | null | undefined} from */
export function flyFrom(node, from) {
  if (!node || !from) return;
  const [x0, y0] = middle(from);
  const [x1, y1] = middle(node.getBoundingClientRect());
  node.style.setProperty("--from-x", `${Math.round(x0 - x1)}px`);
  node.style.setProperty("--from-y", `${Math.round(y0 - y1)}px`);
  node.classList.add("fly-in");
}

/** Make `node` leave towards the element `target` (a capture pile), shrinking.
 * @param {HTMLElement | null | undefined} node
 * @param {Element | null | undefined} target */
export function flyTo(node, target) {
  if (!node || !target) return;
  const [x0, y0] = middle(node.getBoundingClientRect());
  const [x1, y1] = middle(target.getBoundingClientRect());
  node.style.setProperty("--to-x", `${Math.round(x1 - x0)}px`);
  node.style.setProperty("--to-y", `${Math.round(y1 - y0)}px`);
  node.classList.add("fly-out");
}
