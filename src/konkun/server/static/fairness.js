// Provably fair deals in the browser (docs/fairness.md, scheme konkun-fair-v1): the seat's
// random contribution sent with "sit" and "rematch", kept to check later, and the replay
// page's check with Web Crypto: the commitment, the match seed, every action digest and
// every deal's cards recomputed from the seed, without trusting the server. How a deal is
// dealt from the seed is the game's: its page module's `fairDeal` ({ deal(stream, seats,
// dealer, rules), shown(frame) }: the hands and the table as dealt, and as a frame shows
// them); a game without it has its seeds and moves checked, not its cards.

import { RENDERERS } from "./catalog.js";
import { present } from "./dom.js";

/** @typedef {import("./pagetypes.js").Replay} Replay */

/**
 * A deal as the page compares it: each hand's cards and the table's, sorted and joined.
 * @typedef {{hands: string[], table: string}} DealtCards
 */

/**
 * A game's fair-deal hook (its page module's `fairDeal`): the deal from the seed's stream,
 * and the hands, the table and the dealer a deal-start frame with all hands open shows.
 * @typedef {object} FairDeal
 * @property {(stream: Stream, seats: number, dealer: number, rules: Record<string, any>)
 *   => Promise<DealtCards>} deal
 * @property {(frame: import("./pagetypes.js").ReplayFrame)
 *   => DealtCards & {dealer: number | undefined}} shown
 */

/**
 * What the check says: an i18n key and its parameters.
 * @typedef {{ok: boolean, key: string, params?: Record<string, string | number>,
 *   unchecked?: string}} Verdict
 */

const SCHEME = "konkun-fair-v1";
const KEPT = "konkun.fair.";
const PENDING = "konkun.fair.rematch.";

/** @param {ArrayBuffer | Uint8Array} bytes */
function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh contribution: 32 bytes of crypto.getRandomValues, as 64 hex digits. */
export function newContribution() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The contribution to send when taking `seat` at `tableId`, kept to check the replay.
 * @param {string} tableId
 * @param {number} seat
 * @returns {string} */
export function contributionFor(tableId, seat) {
  const value = newContribution();
  localStorage.setItem(KEPT + tableId, JSON.stringify({ seat, value }));
  return value;
}

/** The contribution to send with a rematch vote; it moves to the new table once known,
 * with the rematch's `commitment` the finished table published before the vote (the
 * replay check holds the rematch's revealed seed to it).
 * @param {string} tableId
 * @param {number | null} seat
 * @param {string | null | undefined} commitment
 * @returns {string} */
export function rematchContribution(tableId, seat, commitment) {
  const value = newContribution();
  localStorage.setItem(PENDING + tableId, JSON.stringify({ seat, value, commitment }));
  return value;
}

/** The rematch of `oldId` is `newId`: keep the contribution sent with the vote for it.
 * @param {string} oldId
 * @param {string} newId */
export function rematchStarted(oldId, newId) {
  const pending = localStorage.getItem(PENDING + oldId);
  if (pending === null) return;
  localStorage.setItem(KEPT + newId, pending);
  localStorage.removeItem(PENDING + oldId);
}

/** The contribution kept for a table, or null.
 * @param {string} tableId
 * @returns {{seat: number, value: string, commitment?: string} | null} */
function kept(tableId) {
  try {
    return JSON.parse(localStorage.getItem(KEPT + tableId) || "null");
  } catch {
    return null;
  }
}

/** @param {string} text @returns {Promise<string>} */
async function sha256(text) {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

// JSON with keys sorted, no spaces and only ASCII, as Python's canonical_json writes it.
/** @param {any} value @returns {string} */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${canonical(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// The keyed stream of the match seed: SHA-256(seed || block number as 8 bytes), bit by bit.
export class Stream {
  /** @param {string} seed */
  constructor(seed) {
    this.key = new TextEncoder().encode(seed);
    this.pool = "";
    this.block = 0;
  }

  /** The next `k` bits as a number. @param {number} k @returns {Promise<number>} */
  async bits(k) {
    while (this.pool.length < k) {
      const input = new Uint8Array(this.key.length + 8);
      input.set(this.key);
      new DataView(input.buffer).setBigUint64(this.key.length, BigInt(this.block));
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
      this.pool += Array.from(digest, (b) => b.toString(2).padStart(8, "0")).join("");
      this.block += 1;
    }
    const taken = this.pool.slice(0, k);
    this.pool = this.pool.slice(k);
    return taken ? parseInt(taken, 2) : 0;
  }

  /** A uniform number in 0..n-1. @param {number} n @returns {Promise<number>} */
  async below(n) {
    const k = n.toString(2).length;
    for (;;) {
      const r = await this.bits(k);
      if (r < n) return r;
    }
  }

  /** A uniform number in a..b. @param {number} a @param {number} b @returns {Promise<number>} */
  async integer(a, b) {
    return a + await this.below(b - a + 1);
  }

  /** Shuffle `x` in place (Fisher-Yates from the end). @param {unknown[]} x */
  async shuffle(x) {
    for (let i = x.length - 1; i > 0; i--) {
      const j = await this.below(i + 1);
      [x[i], x[j]] = [x[j], x[i]];
    }
  }
}

/** A card's text from its number 0..51 (suit-major, 2 first) or 52 for the joker.
 * @param {number} n
 * @returns {string} */
export const cardText = (n) => (n === 52 ? "X" : "23456789TJQKA"[n % 13] + "cdhs"[Math.floor(n / 13)]);
/** Card texts sorted and joined: the form a recomputed deal is compared in.
 * @param {string[]} cards
 * @returns {string} */
export const sorted = (cards) => [...cards].sort().join(" ");

/** A rule option a deal is recomputed with (a record's `rules`): `fallback` when absent,
 * else an integer in `low..high`. A record altered to hold anything else is refused here
 * (a RangeError naming the option: the replay page says the deal is not verified), not
 * dealt from a deck too small to cut or too large to build.
 * @param {Record<string, any>} rules
 * @param {string} name
 * @param {number} fallback
 * @param {number} low
 * @param {number} high
 * @returns {number} */
export function ruleInteger(rules, name, fallback, low, high) {
  const value = rules[name] ?? fallback;
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new RangeError(`rule ${name} ${JSON.stringify(value)} is not an integer ${low}..${high}`);
  }
  return value;
}

/** The first dealer drawn from the stream: each contender draws a card, the highest rank
 * deals, a tie draws again among the tied (RULES.md).
 * @param {Stream} stream
 * @param {number} seats
 * @returns {Promise<number>} */
export async function firstDealer(stream, seats) {
  let contenders = [...Array(seats).keys()];
  for (;;) {
    /** @type {number[]} */
    const drawn = [];
    for (let s = 0; s < contenders.length; s++) {
      let j = await stream.below(52);
      while (drawn.includes(j)) j = await stream.below(52);
      drawn.push(j);
    }
    const best = Math.max(...drawn.map((j) => j % 13));
    contenders = contenders.filter((_s, i) => drawn[i] % 13 === best);
    if (contenders.length === 1) return contenders[0];
  }
}

/** @param {Replay} document
 * @returns {Promise<{key?: string, problem?: string, params?: Record<string, number>,
 *   deals?: number}>} */
async function checkDeals(document) {
  const { record, frames } = document;
  const fair = RENDERERS[record.game]?.fairDeal;
  if (!fair || !frames[0]?.views) return { key: "fair.noDeals" };
  const stream = new Stream(record.seed);
  const first = await firstDealer(stream, record.num_seats);
  let number = 0;
  for (const frame of frames) {
    const n = frame.view.deal_number ?? 1;
    if (n === number) continue;
    number = n;
    const dealer = (first + n - 1) % record.num_seats;
    const dealt = await fair.deal(stream, record.num_seats, dealer, record.rules);
    const seen = fair.shown(frame);
    if (seen.dealer !== dealer || seen.table !== dealt.table
        || seen.hands.some((h, s) => h !== dealt.hands[s])) {
      return { problem: "fair.badDeal", params: { n } };
    }
  }
  return { deals: number };
}

/** The first turn whose digest differs, or null when every digest holds.
 * @param {Replay} document
 * @returns {Promise<{turn: number} | null>} */
async function checkDigests(document) {
  const { record, table, frames } = document;
  const fair = present(record.fairness, "the replay's fairness record");
  // a server's first digest binds the seats' kinds and names (docs/fairness.md, step 6)
  const roster = canonical(table.seats.map((s) => ({ kind: s.kind, name: s.name })));
  let digest = await sha256(`${fair.commitment}\n${record.game}\n${record.num_seats}\n`
    + `${canonical(record.rules)}\n${roster}\n`);
  if (table.first_digest && table.first_digest !== digest) return { turn: 0 };
  for (const frame of frames.slice(1)) {
    digest = await sha256(`${digest}\n${frame.turn}:${frame.actor ?? -1}:${frame.action}\n`);
    if (frame.digest !== undefined && frame.digest !== digest) return { turn: frame.turn };
  }
  return table.actions_digest === digest ? null : { turn: frames.length - 1 };
}

/** The winner of a match that ended early (docs/fairness.md; verify.py's ended_winner):
 * none when aborted, else the one seat with the highest total among those that did not
 * resign.
 * @param {import("./protocol.js").Ended} ended
 * @param {number[] | null | undefined} totals
 * @returns {number | null} */
function endedWinner(ended, totals) {
  if (ended.reason === "aborted" || !Array.isArray(totals)) return null;
  const resigned = new Set(ended.resigned ?? []);
  const left = totals.map((total, seat) => [total, seat]).filter(([, seat]) => !resigned.has(seat));
  if (!left.length) return null;
  const best = Math.max(...left.map(([total]) => total));
  const leaders = left.filter(([total]) => total === best);
  return leaders.length === 1 ? leaders[0][1] : null;
}

/** Whether the totals and the winner the summary shows are those of the last frame (a
 * Kunken view names the match's winner `match_winner`, its `winner` is the deal's).
 * @param {Replay} document */
function resultsShownAreFinal(document) {
  const last = document.frames[document.frames.length - 1]?.view;
  if (!last) return false;
  const ended = document.table.ended;
  const winner = ended && typeof ended === "object" ? endedWinner(ended, last.totals)
    : ("match_winner" in last ? last.match_winner : last.winner);
  return canonical(document.table.totals ?? null) === canonical(last.totals ?? null)
    && (document.table.winner ?? null) === (winner ?? null);
}

/** Check a replay document with all hands open (GET /api/games/{id}/replay?seat=all):
 * `{ ok, key, params }` with an i18n key saying what holds or the first thing that does
 * not. Needs Web Crypto (https or localhost).
 * @param {Replay} document
 * @returns {Promise<Verdict>} */
export async function verifyReplay(document) {
  if (!globalThis.crypto?.subtle) return { ok: false, key: "fair.insecure" };
  const { record, table } = document;
  const fair = record.fairness;
  if (!fair) return { ok: false, key: "fair.none" };
  if (fair.scheme !== SCHEME) return { ok: false, key: "fair.scheme", params: { s: fair.scheme } };
  if (!fair.server_seed || await sha256(fair.server_seed) !== fair.commitment
      || table.commitment !== fair.commitment) {
    return { ok: false, key: "fair.badCommitment" };
  }
  const contributions = [...fair.contributions].sort((a, b) => a.seat - b.seat);
  const message = [SCHEME, fair.server_seed, ...contributions.map((c) => `${c.seat}:${c.value}`)];
  if (await sha256(message.map((line) => `${line}\n`).join("")) !== record.seed) {
    return { ok: false, key: "fair.badSeed" };
  }
  const given = new Set(contributions.map((c) => c.seat));
  const missing = table.seats.filter((s) => s.kind === "human" && !given.has(s.seat));
  if (missing.length) return { ok: false, key: "fair.missing", params: { n: missing[0].seat + 1 } };
  const mine = kept(table.id);
  if (mine?.commitment && mine.commitment !== fair.commitment) {
    return { ok: false, key: "fair.badCommitment" };
  }
  if (mine && !contributions.some((c) => c.seat === mine.seat && c.value === mine.value)) {
    return { ok: false, key: "fair.notYours" };
  }
  const wrongDigest = await checkDigests(document);
  if (wrongDigest) return { ok: false, key: "fair.badDigest", params: { i: wrongDigest.turn } };
  const deals = await checkDeals(document);
  if (deals.problem) return { ok: false, key: deals.problem, params: deals.params };
  if (!resultsShownAreFinal(document)) return { ok: false, key: "fair.badResult" };
  return { ok: true, key: mine ? "fair.okYours" : "fair.ok",
    params: { c: contributions.length, d: deals.deals ?? "?" }, unchecked: "fair.unchecked" };
}
