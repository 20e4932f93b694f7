// The match log's grouping (movelog.js): actions by deal, newest deal first, a seat's
// actions in a row one entry until the game's page module says the turn is over. These
// were browser tests (tests/e2e/test_page_hooks.py) until the page had node tests.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { test } from "node:test";

import { RENDERERS } from "../../src/konkun/server/static/catalog.js";
import * as konchinka from "../../src/konkun/server/static/konchinka.js";
import * as kunken from "../../src/konkun/server/static/kunken.js";
import { addLast, groupLog } from "../../src/konkun/server/static/movelog.js";

// the catalog's page modules, as loadCatalog() registers them from GET /api/catalog
Object.assign(RENDERERS, { konchinka, kunken });

/** @typedef {import("../../src/konkun/server/static/movelog.js").LogEntry} LogEntry */

// A Kunken action's parts as the server serves them with each log entry (GET .../log,
// the state's `last.parts`: konkun.kunken.parts); the turn's end is read from them.
const DRAW = { kind: "draw" };
/** @param {string} card */
const discard = (card) => ({ kind: "discard", cards: [card] });

// One seat acting three times in a row, then the other seat: Kunken's turn is a draw, a
// meld and its discard (one entry); any other game shows every action as its own entry.
/** @type {LogEntry[]} */
const LOG = [{ turn: 1, actor: 0, action: "draw", parts: DRAW, deal: 1 },
  { turn: 2, actor: 0, action: "meld 7c 8c 9c", deal: 1,
    parts: { kind: "meld", cards: ["7c", "8c", "9c"], points: 15 } },
  { turn: 3, actor: 0, action: "discard 2d", parts: discard("2d"), deal: 1 },
  { turn: 4, actor: 1, action: "draw", parts: DRAW, deal: 1 },
  { turn: 5, actor: 1, action: "discard 3d", parts: discard("3d"), deal: 1 }];

/** The log's groups as [deal, [actions of each entry]].
 * @param {LogEntry[]} log
 * @param {string} game */
function grouped(log, game) {
  return groupLog(log, game).map(([deal, entries]) => [deal, entries.map((e) => e.actions)]);
}

test("a Kunken turn is one log entry: a seat's draw, meld and discard", () => {
  assert.deepEqual(grouped(LOG, "kunken"),
    [[1, [["draw", "meld 7c 8c 9c", "discard 2d"], ["draw", "discard 3d"]]]]);
});

for (const game of ["konchinka", "third"]) {
  test(`without a turn hook (${game}) every action is an entry, even a seat's in a row`, () => {
    assert.deepEqual(grouped(LOG, game), [[1, LOG.map((e) => [e.action])]]);
  });
}

// converted from the browser test test_page_hooks.py
test("a Kunken turn the stand-in played is one entry, marked; the seat's own is not", () => {
  const log = LOG.map((e) => (e.actor === 1 ? { ...e, stand_in: true } : e));
  assert.deepEqual(groupLog(log, "kunken")[0][1].map((e) => [e.actor, e.standIn]),
    [[0, false], [1, true]]);
});

test("a turn is marked as the stand-in's when it played any of its actions", () => {
  const log = [{ turn: 1, actor: 0, action: "draw", parts: DRAW, deal: 1 },
    { turn: 2, actor: 0, action: "discard 2d", parts: discard("2d"), deal: 1, stand_in: true }];
  assert.deepEqual(groupLog(log, "kunken")[0][1].map((e) => [e.actions, e.standIn]),
    [[["draw", "discard 2d"], true]]);
});

test("addLast keeps whether the stand-in played the action", () => {
  /** @type {LogEntry[]} */
  const log = [];
  addLast(log, { turn: 1, actor: 1, action: "draw", stand_in: true }, 1);
  addLast(log, { turn: 2, actor: 1, action: "discard 4c" }, 1);
  assert.deepEqual(log.map((e) => e.stand_in), [true, false]);
});

test("a Kunken seat that acts again after its discard starts a new entry", () => {
  const log = [{ turn: 1, actor: 0, action: "draw", parts: DRAW, deal: 1 },
    { turn: 2, actor: 0, action: "discard 5h", parts: discard("5h"), deal: 1 },
    { turn: 3, actor: 0, action: "draw", parts: DRAW, deal: 1 }];
  assert.deepEqual(grouped(log, "kunken"), [[1, [["draw", "discard 5h"], ["draw"]]]]);
});

test("addLast keeps a Kunken action's served parts; the log's groups carry them", () => {
  /** @type {LogEntry[]} */
  const log = [];
  addLast(log, { turn: 1, actor: 0, action: "draw", parts: DRAW }, 1);
  addLast(log, { turn: 2, actor: 0, action: "discard 5h", parts: discard("5h") }, 1);
  addLast(log, { turn: 3, actor: 0, action: "draw", parts: DRAW }, 1);
  assert.deepEqual(groupLog(log, "kunken")[0][1].map((e) => e.parts),
    [[DRAW, discard("5h")], [DRAW]]);
  assert.deepEqual(grouped(log, "kunken"), [[1, [["draw", "discard 5h"], ["draw"]]]]);
});

test("deals are listed newest first, each entry with its first turn and actor", () => {
  const log = [{ turn: 1, actor: 0, action: "Qd", deal: 1 },
    { turn: 2, actor: 1, action: "Ah:Ac", deal: 2 },
    { turn: 3, actor: 0, action: "7h", deal: 3 },
    { turn: 4, actor: 1, action: "2c", deal: 3 }];
  const groups = groupLog(log, "konchinka");
  assert.deepEqual(groups.map(([deal]) => deal), [3, 2, 1]);
  assert.deepEqual(groups[0][1].map((e) => [e.turn, e.actor]), [[3, 0], [4, 1]]);
});

test("addLast appends the next turn, ignores one already logged, and reports a gap", () => {
  /** @type {LogEntry[]} */
  const log = [];
  assert.equal(addLast(log, { turn: 1, actor: 0, action: "draw" }, 2), true);
  assert.deepEqual(log, [{ turn: 1, actor: 0, action: "draw", deal: 2, stand_in: false }]);
  assert.equal(addLast(log, { turn: 1, actor: 0, action: "draw" }, 2), true);
  assert.equal(log.length, 1);
  assert.equal(addLast(log, { turn: 3, actor: 1, action: "draw" }, 2), false, "turn 2 missed");
  assert.equal(log.length, 1);
  assert.equal(addLast(log, null, 2), true, "a state with no last action adds nothing");
  assert.equal(addLast(log, { turn: 2, actor: 1, action: "Qd" }, undefined), true);
  assert.equal(log[1].deal, 1, "a game without deal numbers logs deal 1");
});
