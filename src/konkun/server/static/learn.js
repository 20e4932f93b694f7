// The guided first game (/learn/konchinka, /learn/kunken): a scripted deal against a bot
// on a fixed seed. The server replays the lesson from the player's moves (POST
// /api/learn/{game}) and says what to do and why at each step; while steps remain only the
// taught move is accepted, then the deal is played freely to its end.

import { ApiError, request } from "./api.js";
import { h, mount, present } from "./dom.js";
import { lang, t } from "./i18n.js";
import { link, main, setPage } from "./shell.js";
import { konchinkaBoard, konchinkaMove, konchinkaWords, kunkenBoard, kunkenWords }
  from "./teachboard.js";
import { sortCards } from "./cards.js";

const GAMES = ["konchinka", "kunken"];

/** The lobby's way in: the guided first games and the puzzles. */
export function teachingLinks() {
  return h("p", { class: "teach-entry", id: "teach-entry" },
    link("/learn/konchinka", t("learn.title.konchinka")), " · ",
    link("/learn/kunken", t("learn.title.kunken")), " · ",
    link("/puzzles", t("puzzle.title")));
}

/**
 * A guided game's state as the server sends it (POST /api/learn/{game}): the seat's
 * observation, the step taught, what to say, and the bot's moves since the last one; in
 * Kunken also the served parts of the taught action and of the bot's moves, and the bank
 * the bot's moves started from (a take's card).
 * @typedef {{observation: any, expect: string | null, seat: number, played: number,
 *   over: boolean, step: number | null, steps: number, intro: Record<string, string>,
 *   say: Record<string, string>, bot_moves: string[],
 *   expect_parts?: KunkenStep | null, bot_parts?: KunkenStep[],
 *   bot_bank?: string[]}} LessonView
 */

/** @typedef {import("./teachboard.js").KunkenStep} KunkenStep */

/**
 * The guided game's page state.
 * @typedef {object} LessonState
 * @property {string[]} moves the moves played so far (kept to resume after a reload)
 * @property {LessonView | null} view
 * @property {import("./teachboard.js").KonchinkaSelection} sel
 * @property {number[]} hand the Kunken hand positions chosen
 * @property {string | null} error
 * @property {boolean} busy
 */

/** The guided game of `game` (/learn/{game}).
 * @param {string} game */
export function learnPage(game) {
  if (!GAMES.includes(game)) game = "konchinka";
  /** @type {LessonState} */
  const st = { moves: [], view: null, sel: { card: null, taken: [] }, hand: [], error: null,
    busy: false };
  let alive = true;
  setPage({ destroy() { alive = false; }, rerender: draw });
  mount(main, h("p", { class: "loading" }, t("lobby.loading")));

  const KEY = `konkun.learn.${game}`;

  /** The moves kept from an earlier visit (a reload resumes the lesson), or []. */
  function keptMoves() {
    try {
      const moves = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(moves) && moves.every((m) => typeof m === "string") ? moves : [];
    } catch {
      return [];
    }
  }

  /** Play `text` (null: start again) by sending every move so far.
   * @param {string | null} text
   * @param {string[]} [moves] */
  async function send(text, moves = text === null ? [] : [...st.moves, text]) {
    if (st.busy) return;
    st.busy = true;
    st.error = null;
    draw();
    try {
      const view = await request("POST", `/api/learn/${game}`, { moves });
      if (!alive) return;
      st.moves = moves;
      localStorage.setItem(KEY, JSON.stringify(moves));
      st.view = view;
      st.sel = { card: null, taken: [] };
      st.hand = [];
    } catch (err) {
      if (!alive) return;
      if (!st.view && moves.length) {  // the kept moves no longer replay: start afresh
        st.busy = false;
        localStorage.removeItem(KEY);
        send(null);
        return;
      }
      const refused = err instanceof ApiError && err.code === "illegal_move";
      st.error = refused ? t(st.view?.expect ? "learn.notTaught" : "learn.illegal")
        : t("err.network");
    } finally {
      st.busy = false;
    }
    draw();
  }

  const konchinkaOn = {
    hand(card) {
      st.sel = st.sel.card === card ? { card: null, taken: [] } : { card, taken: [] };
      st.error = null;
      draw();
    },
    table(card) {
      if (!st.sel.card) return;
      const i = st.sel.taken.indexOf(card);
      if (i >= 0) st.sel.taken.splice(i, 1); else st.sel.taken.push(card);
      draw();
    },
    play() { if (st.sel.card) send(konchinkaMove(st.sel.card, st.sel.taken)); },
    clear() { st.sel = { card: null, taken: [] }; draw(); },
  };

  /** The lesson's view, which the board's clicks need. */
  const lesson = () => present(st.view, "the lesson's view");

  const kunkenOn = {
    stock() { send("draw"); },
    bank(i) { send(`take ${i}`); },
    hand(i) {
      const at = st.hand.indexOf(i);
      if (at >= 0) st.hand.splice(at, 1); else st.hand.push(i);
      st.error = null;
      draw();
    },
    meld(index) {
      // the card a joker of that meld stands for swaps it out; any other card is laid off
      const card = chosen()[0];
      const meld = lesson().observation.melds.find((/** @type {any} */ m) => m.index === index);
      const swaps = (meld?.stands_for ?? []).some((c) => c && c === card);
      send(swaps ? `swap ${index} ${card}` : `layoff ${card} ${index}`);
    },
    layDown() { send(`meld ${chosen().join(" ")}`); },
    discard() { send(`discard ${chosen()[0]}`); },
  };

  function chosen() {
    const hand = sortCards(lesson().observation.hand);
    return [...st.hand].sort((a, b) => a - b).map((i) => hand[i]);
  }

  function botLine(view) {
    if (!view.bot_moves.length) return null;
    const words = game === "konchinka" ? view.bot_moves.map(konchinkaWords)
      : (view.bot_parts ?? []).map((step) => kunkenWords(step, view.bot_bank));
    return h("p", { class: "bot-moves", id: "bot-moves" }, t("learn.bot", { moves: words.join(", ") }));
  }

  function stepLabel(view) {
    if (view.over) return t("learn.over");
    if (view.step === null) return t("learn.free");
    return t("learn.step", { n: view.step + 1, total: view.steps });
  }

  function result(view) {
    const points = view.observation.points;
    if (!view.over || !points) return null;
    const me = view.seat;
    return h("p", { class: "deal-result", id: "deal-result" },
      t("learn.points", { you: points[me], bot: points[1 - me] }));
  }

  function draw() {
    if (!alive || !st.view) return;
    const view = st.view;
    const L = lang();
    const obs = view.observation;
    const board = game === "konchinka"
      ? konchinkaBoard({ obs, sel: st.sel, expect: view.expect, on: konchinkaOn })
      : kunkenBoard({ obs, sel: st.hand, expect: view.expect_parts ?? null, on: kunkenOn,
        names: { [1 - view.seat]: t("learn.opponent") } });
    const other = GAMES.find((g) => g !== game);
    mount(main, h("section", { class: `panel teach learn ${game}`, id: "learn",
      "aria-busy": st.busy ? "true" : "false",
      dataset: { played: String(view.played), over: view.over ? "yes" : "no" } },
      h("h1", {}, t(`learn.title.${game}`)),
      view.played === 0 ? h("p", { class: "intro", id: "intro" }, view.intro[L]) : null,
      h("div", { class: "coach-box", id: "instruction", role: "status", "aria-live": "polite",
        dataset: { step: view.step === null ? (view.over ? "over" : "free") : String(view.step) } },
      h("strong", { class: "step-label" }, stepLabel(view)), " ", view.say[L]),
      st.error ? h("p", { class: "error", role: "alert", id: "learn-error" }, st.error) : null,
      botLine(view), result(view), board,
      h("nav", { class: "teach-links" },
        link(`/rules/${game}`, t("learn.rules")),
        h("button", { type: "button", id: "restart", onclick: () => send(null) }, t("learn.restart")),
        link("/", t("learn.lobby")), link(`/learn/${other}`, t(`learn.other.${game}`)),
        link(`/puzzles/${game}`, t("nav.puzzles")))));
  }

  send(null, keptMoves());
}
