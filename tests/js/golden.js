// The Python side's seed → deal golden files (tests/golden/*.deals, written by
// tests/golden/generate_deals.py and checked against the engines by test_golden_deals.py;
// the rule options that change the cards, konchinka_short and kunken_options, by
// generate_rule_deals.py and test_rule_deals.py).

import { readFileSync } from "node:fs";

/** Every stored line of one game's golden file, parsed.
 * @param {"konchinka" | "kunken" | "konchinka_short" | "kunken_options"} game
 * @returns {any[]} */
export function goldenDeals(game) {
  const url = new URL(`../golden/${game}.deals`, import.meta.url);
  return readFileSync(url, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}
