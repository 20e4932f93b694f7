// Each game's texts live in its own module and come with its game page (gamepage.js): the
// shared dictionary (i18n.js) no longer holds them, and once the registry has added the
// games' texts every key the page had before the split (texts_before_split.json, the
// whole dictionary of both languages as i18n.js resolved it then) resolves to the same
// text in both languages. The registry refuses a module that breaks the contract.

import "./browser_globals.js";

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import { contractProblem, isPagePath, RENDERERS, registerGamePage }
  from "../../src/konkun/server/static/gamepage.js";
import { has, setLang, t } from "../../src/konkun/server/static/i18n.js";
import * as konchinka from "../../src/konkun/server/static/konchinka.js";
import * as kunken from "../../src/konkun/server/static/kunken.js";

/** @type {Record<string, [string, string]>} key → [English, Russian] */
const BEFORE = JSON.parse(readFileSync(new URL("./texts_before_split.json", import.meta.url),
  "utf8"));
const STATIC = new URL("../../src/konkun/server/static/", import.meta.url);

afterEach(() => setLang("en"));

test("the games' own texts are not in the shared dictionary", () => {
  // this runs first: no game page is registered yet in this file's process
  for (const key of ["k.take", "k.scoreSheet", "end.leftover", "r.bank", "r.discarded",
    "end.wentOut", "sort.label", "coach.whyNot", "coach.sweep"]) {
    assert.equal(has(key), false, key);
  }
  for (const key of ["k.points", "k.paysNobody", "r.deal", "r.noWinner", "table.hand"]) {
    assert.equal(has(key), true, `${key} is shared`);
  }
});

test("each game's texts are its own: no key in both games, none in the shared dictionary", () => {
  for (const code of ["en", "ru"]) {
    const ours = Object.keys(konchinka.texts[code]);
    const theirs = new Set(Object.keys(kunken.texts[code]));
    assert.deepEqual(ours.filter((k) => theirs.has(k)), [], code);
    assert.deepEqual(Object.keys(konchinka.texts.en).sort(), ours.sort(), "the same keys");
    assert.deepEqual(Object.keys(kunken.texts.en).sort(), [...theirs].sort(), "the same keys");
    for (const key of [...ours, ...theirs]) assert.equal(has(key), false, key);
  }
});

test("every text the page had before the split is the same in both languages", () => {
  registerGamePage("konchinka", konchinka, new URL("konchinka.js", STATIC));
  registerGamePage("kunken", kunken, new URL("kunken.js", STATIC));
  const keys = Object.keys(BEFORE);
  assert.ok(keys.length > 400, `${keys.length} texts`);
  const differ = [];
  for (const [i, code] of ["en", "ru"].entries()) {
    setLang(code);
    for (const key of keys) {
      if (t(key) !== BEFORE[key][i]) differ.push(`${code} ${key}: ${t(key)} ≠ ${BEFORE[key][i]}`);
    }
  }
  assert.deepEqual(differ, []);
});

test("a registered game page brings its stylesheets as addresses beside the module", () => {
  const page = registerGamePage("kunken", kunken, new URL("kunken.js", STATIC));
  assert.equal(RENDERERS.kunken, page);
  assert.deepEqual(kunken.styles, ["kunken.css"]);
  assert.deepEqual(konchinka.styles, ["konchinka.css"]);
});

test("a module that breaks the contract is refused, naming the game and what is missing", () => {
  assert.equal(contractProblem(konchinka), null);
  assert.equal(contractProblem(kunken), null);
  const broken = { render() {}, texts: {} };
  assert.match(contractProblem(broken) ?? "", /formatAction/);
  assert.throws(() => registerGamePage("broken", broken, new URL("broken.js", STATIC)),
    /the page module of broken breaks the contract: it exports no formatAction/);
  assert.equal(RENDERERS.broken, undefined);
  assert.match(contractProblem({ render() {}, formatAction: String }) ?? "", /texts/);
  assert.match(contractProblem({ ...broken, formatAction: String, styles: "a.css" }) ?? "",
    /styles/);
});

test("the registry imports only page addresses under /static/", () => {
  for (const ok of ["konchinka.js", "games/third/page.js", "games/third_2/sub/page.js"]) {
    assert.equal(isPagePath(ok), true, ok);
  }
  for (const bad of ["", null, undefined, "../app.js", "games/../../x.js", "/abs.js",
    "https://evil.example/x.js", "//evil.example/x.js", "page.css", "a b.js", "games/x/"]) {
    assert.equal(isPagePath(bad), false, String(bad));
  }
});

test("the modules that draw a table or a replay name no game: they ask the registry", () => {
  const shared = ["gamepage.js", "catalog.js", "table.js", "replay.js", "movelog.js",
    "dealend.js", "fairness.js", "view.js", "seats.js", "lifecycle.js", "chat.js",
    "lobby.js", "shell.js", "style.css"];
  for (const name of shared) {
    const code = readFileSync(new URL(name, STATIC), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")  // comments may say which game does what
      .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
    assert.doesNotMatch(code, /konchinka|kunken/i, name);
  }
});
