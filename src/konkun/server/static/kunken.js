// Kunken at the table (placeholder until docs/kunken.md).
import { h } from "./dom.js";

export function render(container, ctx) {
  container.replaceChildren(h("pre", {}, JSON.stringify(ctx.view, null, 1)));
}
