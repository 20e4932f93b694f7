// The games the server offers (GET /api/catalog), their page modules (gamepage.js), the bots it offers,
// and the names and titles the pages show from them.

import { api } from "./api.js";
import { h } from "./dom.js";
import { loadGamePage, RENDERERS } from "./gamepage.js";
import { has, lang, t } from "./i18n.js";

/** @typedef {import("./pagetypes.js").Catalog} Catalog */
/** @typedef {import("./pagetypes.js").CatalogGame} CatalogGame */
/** @typedef {import("./pagetypes.js").Title} Title */
/** @typedef {import("./protocol.js").TableSummary} TableSummary */
/** @typedef {import("./pagetypes.js").View} View */
/** @typedef {import("./protocol.js").LastAction} LastAction */

/** @typedef {import("./gamepage.js").RenderContext} RenderContext */
/** @typedef {import("./gamepage.js").GamePage} PageModule */

// Each game's page module (the catalog's "page"), by game name: the registry of
// gamepage.js, which loads them with the catalog. A game without one cannot be drawn.
export { RENDERERS };

// The games, as GET /api/catalog describes them: name, titles, seat range, variants and
// every rule option's schema (type, default, range or choices, titles). Loaded once.
/** @type {Catalog | null} */
export let catalog = null;

/** A title ({en, ru}) in the page's language.
 * @param {Title | null | undefined} title
 * @param {string} fallback
 * @returns {string} */
export function titled(title, fallback) {
  return (title && (title[lang()] || title.en)) || fallback;
}

/** The catalog's entry of `game`, or null (unknown, or the catalog not loaded).
 * @param {string | undefined} game
 * @returns {CatalogGame | null} */
export function catalogEntry(game) {
  return catalog?.games.find((g) => g.game === game) || null;
}

/** The badge of a rated table (its summary's `rated`: the game counts for ratings), else
 * null; its title says what rated means.
 * @param {{rated?: boolean} | null | undefined} summary */
export function ratedBadge(summary) {
  return summary?.rated ? h("span", { class: "badge rated", title: t("lobby.ratedHelp") },
    t("table.rated")) : null;
}

/** One rule option's value as a player reads it: a yes/no option by its title (or "…: off"),
 * a choice by its choice's title, a number with its title (its "zero" text for 0).
 * @param {import("./pagetypes.js").RuleOption} option
 * @param {string} value
 * @returns {string} */
function ruleText(option, value) {
  const title = titled(option.title, option.name);
  if (option.type === "bool") return value === "true" ? title : `${title}: ${t("terms.off")}`;
  if (option.type === "choice") {
    const choice = (option.choices || []).find((c) => c.value === value);
    return `${title}: ${titled(choice?.title, value)}`;
  }
  return `${title}: ${Number(value) === 0 && option.zero ? titled(option.zero, "0") : value}`;
}

/** What a table plays to, its move clock and its house rules (those that differ from the
 * game's defaults), in one line: for the lobby's row, the invite and the table's head.
 * @param {Partial<TableSummary> | null | undefined} summary */
export function tableTerms(summary) {
  const options = catalogEntry(summary?.game)?.options || [];
  const rules = summary?.rules || {};
  /** @type {string[]} */
  const parts = [];
  const target = options.find((o) => o.name === "target");
  const goal = Number(rules.target ?? target?.default ?? 0);
  if (target && goal > 0) parts.push(t("terms.target", { n: goal }));
  parts.push(summary?.move_seconds ? t("clock.seconds", { n: summary.move_seconds })
    : t("terms.noClock"));
  for (const option of options) {
    if (option.name !== "target" && option.name in rules) {
      parts.push(ruleText(option, String(rules[option.name])));
    }
  }
  return h("p", { class: "table-terms muted small" }, parts.join(" · "));
}

/** Seat display names from a table summary.
 * @param {{seats: import("./protocol.js").SeatSummary[]}} table
 * @returns {string[]} */
export function seatNames(table) {
  const base = (table?.seats || []).map((s) => {
    if (s.kind === "bot") return botName(s.bot || s.name || "");
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
 * or while the server is away).
 * @returns {Promise<Catalog | null>} */
export async function loadCatalog() {
  if (catalog) return catalog;
  try {
    /** @type {Catalog | null} */
    const c = await api.catalog();
    if (c && c.games && c.games.length) {
      // a game whose page fails to load cannot be drawn; the others still can
      await Promise.all(c.games.map((g) => loadGamePage(g.game, g.page).catch((error) => {
        console.error(error);
      })));
      catalog = c;
    }
  } catch { /* offline: the lobby says it is loading, titles fall back to names */ }
  return catalog;
}

/** The bots the server offers (GET /api/bots), once the lobby has fetched them.
 * @type {import("./pagetypes.js").BotOffer[]} */
let offeredBots = [];

/** A bot's name in the page's language: the ladder's own names from the catalog
 * ("strong" → "сильный"), else the page's text for the kind ("greedy" → "жадный"), else
 * the spec as it is.
 * @param {string} spec
 * @returns {string} */
export function botName(spec) {
  const base = String(spec || "").split(":")[0];
  const offered = offeredBots.find((b) => b.spec === spec || b.spec === base);
  const named = offered && (offered.names || {})[lang()];
  if (named) return named;
  return has(`bot.${base}`) ? t(`bot.${base}`) : spec;
}

/** Keep the bots the lobby fetched, for their names on every page.
 * @param {import("./pagetypes.js").BotOffer[]} bots */
export function setOfferedBots(bots) {
  offeredBots = bots;
}

/** A table's game and variant as the page names them ("Konchinka · Novorossiysk").
 * @param {{game: string, variant?: string | null}} summary
 * @returns {string} */
export function gameTitle(summary) {
  const entry = catalogEntry(summary.game);
  const g = titled(entry?.title, summary.game);
  const variants = entry?.variants || [];
  const v = variants.find((x) => x.value === summary.variant);
  return variants.length > 1 && v ? `${g} · ${titled(v.title, v.value)}` : g;
}
