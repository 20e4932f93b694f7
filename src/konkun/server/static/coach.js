// The coach: moves that explain themselves for a person learning the game. A switch (on
// by default on unrated tables and for a player's first games) turns on the engine's
// explanations sent with the seat's view (a Konchinka capture's sum, why a card takes
// nothing, why a Kunken bank card cannot be taken), always with a link to the game's rules
// page and the house rules in force, each with its one-sentence explanation (the catalog's
// `explanations`, the same the lobby form shows).

import { cardShort } from "./cards.js";
import { catalogEntry, titled } from "./catalog.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { rulesPath } from "./rulespage.js";
import { link } from "./shell.js";

const COACH_KEY = "konkun.coach";
const FINISHED_KEY = "konkun.finishedGames";
const FIRST_GAMES = 3;

function finishedGames() {
  try {
    return JSON.parse(localStorage.getItem(FINISHED_KEY) || "[]");
  } catch {
    return [];
  }
}

/** Remember that this browser saw table `id` end (the coach's "first games"). */
export function noteFinished(id) {
  const seen = finishedGames();
  if (!id || seen.includes(id)) return;
  seen.push(id);
  localStorage.setItem(FINISHED_KEY, JSON.stringify(seen.slice(-20)));
}

/** Whether the coach is on at `table` (its summary): the player's choice when made, else
 * on at unrated tables and for the player's first games. */
export function coachOn(table) {
  const chosen = localStorage.getItem(COACH_KEY);
  if (chosen === "on" || chosen === "off") return chosen === "on";
  return !table?.rated || finishedGames().length < FIRST_GAMES;
}

/** The house rules a table plays that differ from the game's defaults (and its variant,
 * when not the first), each as {name, title, value, explain}. */
export function houseRulesInForce(table) {
  const entry = catalogEntry(table?.game);
  if (!entry) return [];
  const L = lang();
  const texts = entry.explanations || {};
  const out = [];
  const variant = (entry.variants || []).find((v) => v.value === table.variant);
  if (variant && variant !== entry.variants[0]) {
    out.push({ name: "variant", title: titled(variant.title, variant.value), value: "",
      explain: (texts.variant || {})[L] || "" });
  }
  for (const option of entry.options || []) {
    const value = table.rules?.[option.name];
    if (value === undefined || String(value) === String(option.default)) continue;
    const choice = (option.choices || []).find((c) => c.value === String(value));
    const shown = option.type === "bool" ? "" : choice ? titled(choice.title, choice.value)
      : String(value) === "0" && option.zero ? titled(option.zero, "0") : String(value);
    out.push({ name: option.name, title: titled(option.title, option.name), value: shown,
      explain: (texts[option.name] || {})[L] || "" });
  }
  return out;
}

/** The side panel: the coach switch, the link to the rules and the house rules in force
 * with their explanations (as text, never only a tooltip). */
export function coachPanel(ctx, rerender) {
  const table = ctx.table;
  const rules = houseRulesInForce(table);
  const entry = catalogEntry(table?.game);
  const gameName = titled(entry?.title, table?.game || "");
  return h("section", { class: "panel coach-panel", id: "coach-panel" },
    h("h3", {}, t("coach.title")),
    ctx.replay ? null : h("label", { class: "check coach-switch" },
      h("input", { type: "checkbox", id: "coach", checked: coachOn(table), onchange: (ev) => {
        localStorage.setItem(COACH_KEY, ev.target.checked ? "on" : "off");
        rerender();
      } }), " ", t("coach.switch")),
    h("p", {}, link(rulesPath(table?.game), t("rules.of", { game: gameName }))),
    h("h4", {}, t("coach.houseRules")),
    rules.length ? h("ul", { class: "house-rules-in-force", id: "house-rules-in-force" },
      rules.map((r) => h("li", { dataset: { rule: r.name } },
        h("strong", {}, r.title), r.value ? `: ${r.value}` : "",
        h("span", { class: "rule-explain" }, ` — ${r.explain}`))))
      : h("p", { class: "muted small" }, t("coach.noHouseRules")));
}

/** A rank's short label in the page's language ("Q" or "Д", "10"). */
function rankLabel(card, L) {
  const short = cardShort(card, L);
  return short.slice(0, -1);
}

/** A capture's explanation (the engine's, from the view's `explain`) as text:
 * "7+2+A = 10 = Q", "8+6 = 14 = K (a King takes 13 or 14)", "J takes the whole table". */
export function captureSumText(explain, L = lang()) {
  if (!explain) return "";
  if (explain.kind === "jack") return t("coach.jack");
  if (explain.kind !== "sum") return "";
  const parts = explain.parts.map((p) => rankLabel(p.card, L)).join("+");
  const text = `${parts} = ${explain.sum} = ${rankLabel(explain.card, L)}`;
  return explain.king ? `${text} (${t("coach.king")})` : text;
}

/** Why a card is laid on the table when it can take nothing (the engine's `trail`
 * explanation), or "" when it could take. */
export function trailWhyText(explain, L = lang()) {
  if (!explain || explain.kind !== "trail") return "";
  if (explain.reason === "empty_table") return t("coach.trailEmpty");
  if (explain.reason === "no_sum") {
    return t("coach.trailNoSum", { sums: explain.sums.join(t("coach.or")),
      card: cardShort(explain.card, L) });
  }
  return "";
}

/** A Konchinka seat's points of a deal by their reasons: "most cards +2 · 10♦ +1". */
export function reasonsText(reasons) {
  if (!reasons || !reasons.length) return t("coach.noPoints");
  return reasons.map((r) => t(`coach.${r.reason}`, { n: r.points })).join(" · ");
}

/** Why each refused bank card cannot be taken (the engine's `take_refusals`). */
export function refusalItems(refusals, minimum, L = lang()) {
  return (refusals || []).map((r) => h("li", { dataset: { position: r.position } },
    r.reason === "opening_short"
      ? t("coach.short", { card: cardShort(r.card, L), best: r.best, short: r.short, min: minimum })
      : t("coach.noMeld", { card: cardShort(r.card, L) })));
}
