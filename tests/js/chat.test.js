// The chat's history merged with the lines the socket brought while it was asked (chat.js):
// a history the server read before a line was stored, received after that line came by the
// socket, once replaced the page's lines and dropped it (the spectator chat browser test's
// flake under load, tests/e2e/test_site.py).

import "./browser_globals.js";

import assert from "node:assert/strict";
import { test } from "node:test";

import { withLinesSince } from "../../src/konkun/server/static/chat.js";

/** A chat line as the server sends it.
 * @param {string} name @param {string} text @param {string} at
 * @returns {import("../../src/konkun/server/static/protocol.js").ChatLine} */
function line(name, text, at) {
  return { type: "chat", seat: name === "Vera" ? null : 0, name, spectator: name === "Vera",
    text, turn: 0, at };
}

const HELLO = line("Anna", "hello", "2026-12-05T07:00:00+00:00");
const LUCK = line("Boris", "good luck", "2026-12-05T07:00:01+00:00");
const WATCHING = line("Vera", "watching", "2026-12-05T07:00:02+00:00");

test("a line the socket brought after the history was read stays, after the history", () => {
  assert.deepEqual(withLinesSince([HELLO], [LUCK]), [HELLO, LUCK]);
});

test("a line both in the history and brought by the socket is shown once", () => {
  assert.deepEqual(withLinesSince([HELLO, LUCK], [LUCK, WATCHING]), [HELLO, LUCK, WATCHING]);
});

test("without lines from the socket the history is the chat", () => {
  assert.deepEqual(withLinesSince([HELLO, LUCK], []), [HELLO, LUCK]);
});

test("the same words said again later are a line of their own", () => {
  const again = { ...HELLO, at: "2026-12-05T07:00:09+00:00" };
  assert.deepEqual(withLinesSince([HELLO], [again]), [HELLO, again]);
});

test("the page keeps the last lines only", () => {
  assert.deepEqual(withLinesSince([HELLO, LUCK], [WATCHING], 2), [LUCK, WATCHING]);
});
