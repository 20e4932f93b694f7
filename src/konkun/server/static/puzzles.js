// The puzzle page (/puzzles, /puzzles/{game}): the day's puzzle of a game (GET
// /api/puzzles/daily?game=), or the one of `?id=`, answered by clicking cards; then the
// verdict and the solver's line. Konchinka: the only best move of an endgame (the exact solver's values);
// Kunken: the only card the bank can be taken from to open.

import { request } from "./api.js";
import { h, mount, present } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, link, main, navigate, setPage } from "./shell.js";
import { konchinkaBoard, konchinkaMove, konchinkaWords, kunkenBoard, kunkenWords,
  sameKonchinkaMove } from "./teachboard.js";

const GAMES = ["konchinka", "kunken"];

/**
 * A puzzle (GET /api/puzzles/daily?game=, /api/puzzles/{id}): the position, its one
 * solution, the solver's line and, in Konchinka, every move's value; in Kunken the served
 * parts of the solution and of each move of the line (told in words from those).
 * @typedef {{id: string, game: string, kind: string, date?: string, seat: number,
 *   board: {observation: any, other_hand?: string[] | null}, solution: string,
 *   line: string[], values: Record<string, number>,
 *   solution_parts?: import("./teachboard.js").KunkenStep,
 *   line_parts?: import("./teachboard.js").KunkenStep[], [field: string]: any}} Puzzle
 */

/**
 * The puzzle page's state: the puzzle, the Konchinka selection, the answer given.
 * @typedef {{puzzle: Puzzle | null, sel: import("./teachboard.js").KonchinkaSelection,
 *   answer: string | null, error: string | null}} PuzzleState
 */

/** The puzzle page of `game` (/puzzles/{game}).
 * @param {string | undefined} game */
export function puzzlesPage(game) {
  if (!game || !GAMES.includes(game)) game = "konchinka";
  /** @type {PuzzleState} */
  const st = { puzzle: null, sel: { card: null, taken: [] }, answer: null, error: null };
  let alive = true;
  setPage({ destroy() { alive = false; }, rerender: draw });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));

  const konchinkaOn = {
    /** @param {string} card */
    hand(card) {
      if (st.answer) return;
      st.sel = st.sel.card === card ? { card: null, taken: [] } : { card, taken: [] };
      draw();
    },
    /** @param {string} card */
    table(card) {
      if (st.answer || !st.sel.card) return;
      const i = st.sel.taken.indexOf(card);
      if (i >= 0) st.sel.taken.splice(i, 1); else st.sel.taken.push(card);
      draw();
    },
    play() { if (st.sel.card) answer(konchinkaMove(st.sel.card, st.sel.taken)); },
    clear() { st.sel = { card: null, taken: [] }; st.answer = null; draw(); },
  };

  const kunkenOn = {
    /** @param {number} i */
    bank(i) { if (!st.answer) answer(`take ${i}`); },
  };

  /** @param {string} move */
  function answer(move) {
    st.answer = move;
    draw();
    document.getElementById("verdict")?.scrollIntoView({ block: "nearest" });
  }

  function verdict() {
    const p = st.puzzle;
    if (!st.answer || !p) return null;
    let right;
    let text;
    if (p.game === "konchinka") {
      right = sameKonchinkaMove(st.answer, p.solution);
      const key = Object.keys(p.values).find((m) => sameKonchinkaMove(m, st.answer));
      text = right ? t("puzzle.right") : key === undefined ? t("puzzle.illegal")
        : t("puzzle.wrong", { mine: signed(p.values[key]), best: signed(p.values[p.solution]) });
    } else {
      right = st.answer === p.solution;
      const out = p.kind === "go_out";
      text = right ? t(out ? "puzzle.rightOut" : "puzzle.rightTake")
        : t(out ? "puzzle.wrongOut" : "puzzle.wrongTake");
    }
    const bank = p.board.observation.bank;
    const steps = p.line_parts ?? [];
    const line = p.line.map((m, i) => {
      const who = i % 2 === 1 && p.game === "konchinka" ? t("puzzle.opponent") : t("learn.you");
      const words = p.game === "konchinka" ? konchinkaWords(m)
        : kunkenWords(present(steps[i], `the served parts of the line's move ${m}`), bank);
      return h("li", {}, `${who}: ${words}`);
    });
    return h("div", { class: `verdict ${right ? "right" : "wrong"}`, id: "verdict",
      role: "status", dataset: { right: right ? "yes" : "no" } },
    h("p", { class: "verdict-text" }, text),
    h("h2", {}, t("puzzle.line")), h("ol", { class: "solver-line", id: "solver-line" }, line),
    h("button", { type: "button", id: "again", onclick: () => {
      st.answer = null; st.sel = { card: null, taken: [] }; draw();
    } }, t("puzzle.again")));
  }

  function draw() {
    if (!alive || !st.puzzle) {
      if (alive && st.error) mount(main, h("p", { class: "error", role: "alert" }, st.error));
      return;
    }
    const p = st.puzzle;
    const obs = p.board.observation;
    const board = p.game === "konchinka"
      ? konchinkaBoard({ obs, sel: st.sel, other: p.board.other_hand, on: konchinkaOn,
        playLabel: t("puzzle.check") })
      : kunkenBoard({ obs, sel: [], on: st.answer ? {} : kunkenOn,
        names: { [1 - p.seat]: t("puzzle.opponent") } });
    mount(main, h("section", { class: `panel teach puzzle ${p.game}`, id: "puzzle" },
      h("nav", { class: "pool-tabs", "aria-label": t("puzzle.title") },
        GAMES.map((g) => h("button", { type: "button", class: "pool-tab", dataset: { game: g },
          "aria-pressed": g === game ? "true" : "false",
          onclick: () => navigate(`/puzzles/${g}`) }, t(`puzzle.title.${g}`)))),
      h("h1", {}, t(p.date ? `puzzle.title.${p.game}` : `puzzle.name.${p.game}`)),
      h("p", { class: "muted small" }, p.date ? t("puzzle.date", { id: p.id, date: p.date })
        : t("puzzle.named", { id: p.id })),
      h("div", { class: "coach-box", id: "instruction", dataset: { kind: p.kind } },
        t(p.kind === "go_out" ? "puzzle.ask.go_out" : `puzzle.ask.${p.game}`)),
      verdict(), board,
      h("nav", { class: "teach-links" }, link(`/rules/${p.game}`, t("learn.rules")),
        link(`/learn/${p.game}`, t("puzzle.learn")))));
  }

  const chosen = new URLSearchParams(location.search).get("id");
  const url = chosen ? `/api/puzzles/${encodeURIComponent(chosen)}` : `/api/puzzles/daily?game=${game}`;
  request("GET", url).then((puzzle) => {
    st.puzzle = puzzle;
    draw();
  }).catch((err) => {
    st.error = errorText(err);
    draw();
  });
}

/** A value with its sign ("+2", "-1", "0"). @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
