// The server's HTTP API, the player's identity in localStorage, and the table WebSocket
// with reconnection (see docs/protocol.md).

/** @typedef {import("./pagetypes.js").Identity} Identity */
/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {import("./protocol.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./pagetypes.js").OtherMessage} OtherMessage */
/** @typedef {import("./pagetypes.js").ClientMessage} ClientMessage */

const ID_KEY = "konkun.identity";

/** The stored identity {token, player_id, nickname}, or null.
 * @returns {Identity | null} */
export function identity() {
  try {
    const v = JSON.parse(localStorage.getItem(ID_KEY) || "null");
    return v && v.token ? v : null;
  } catch {
    return null;
  }
}

export function forgetIdentity() {
  localStorage.removeItem(ID_KEY);
}

/** An error from the server, carrying its code and message. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {string} code the server's error code (docs/protocol.md)
   * @param {string} message
   * @param {{limit?: string, max?: number} | null} [data] the error's body
   */
  constructor(status, code, message, data = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.limit = data && data.limit; // which limit refused (too_many_tables, too_many_seats)
    this.max = data && data.max;
  }
}

/** An API request with this browser's identity, or, given a table, the identity it plays
 * that table with (a seat link's, see tableIdentity).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {string | null} [tableId]
 * @returns {Promise<any>} the answer's JSON (null when it has none) */
export async function request(method, path, body = undefined, tableId = null) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  const id = tableId === null ? identity() : tableIdentity(tableId);
  if (id) headers.Authorization = `Bearer ${id.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers,
    body: body === undefined ? undefined : JSON.stringify(body) });
  renewIdentityToken(id, res.headers.get("X-Konkun-Token"));
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && (data.message || data.detail);
    const msg = typeof detail === "string" ? detail : detail ? JSON.stringify(detail)
      : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, (data && data.code) || String(res.status), msg, data);
  }
  return data;
}

const SEAT_KEY = "konkun.seat.";

/** The seat link's identity kept for one table ({token, player_id, nickname, table}), or
 * null. It serves that table only and never replaces the browser's own identity.
 * @param {string} tableId
 * @returns {Identity | null} */
export function seatIdentity(tableId) {
  try {
    const v = JSON.parse(localStorage.getItem(SEAT_KEY + tableId) || "null");
    return v && v.token ? v : null;
  } catch {
    return null;
  }
}

/** The identity this browser plays a table with: the seat link's kept for it, else its
 * own.
 * @param {string} tableId
 * @returns {Identity | null} */
export function tableIdentity(tableId) {
  return seatIdentity(tableId) || identity();
}

/** Whom a seat link's token names ({token, player_id, nickname, seat, table}), or null
 * when it does not verify for this table. Nothing is stored.
 * @param {string} tableId
 * @param {string} token
 * @returns {Promise<Identity & {seat: number, table: string} | null>} */
export async function seatLinkHolder(tableId, token) {
  const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/me`,
    { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) return null;
  const me = await res.json();
  return { token: res.headers.get("X-Konkun-Token") || token, player_id: me.player_id,
    nickname: me.nickname, seat: me.seat, table: tableId };
}

/** Play ``tableId`` with a seat link's identity (kept for that table alone).
 * @param {string} tableId
 * @param {Identity} holder */
export function storeSeatIdentity(tableId, holder) {
  localStorage.setItem(SEAT_KEY + tableId, JSON.stringify({ token: holder.token,
    player_id: holder.player_id, nickname: holder.nickname, table: tableId }));
}

/** The link of the seat this browser holds at a table: the server signs a token that opens
 * that seat and nothing else (never the account); it rides in the URL's fragment, which
 * never reaches a server's logs.
 * @param {string} tableId
 * @returns {Promise<string>} */
export async function seatLink(tableId) {
  const data = await request("POST", `/api/tables/${encodeURIComponent(tableId)}/seat-link`,
    {}, tableId);
  return `${location.origin}${data.link}`;
}

/** Keep a renewed token the server sent for the identity ``id`` that was used (the
 * browser's own, or a table's seat link).
 * @param {Identity | null} id
 * @param {string | null | undefined} token */
function renewIdentityToken(id, token) {
  if (!token || !id) return;
  if (id.table) {
    if (seatIdentity(id.table)) storeSeatIdentity(id.table, { ...id, token });
  } else {
    renewToken(token);
  }
}

/** Keep a renewed token of the browser's own identity (the old one expires in its time).
 * @param {string} token */
function renewToken(token) {
  const id = identity();
  if (token && id) localStorage.setItem(ID_KEY, JSON.stringify({ ...id, token }));
}

/** Keep an identity the server gave ({token, player_id, nickname}, from a login or a
 * claim); returns it.
 * @param {Identity} data
 * @returns {Identity | null} */
export function storeIdentity(data) {
  localStorage.setItem(ID_KEY, JSON.stringify({ token: data.token, player_id: data.player_id,
    nickname: data.nickname }));
  return identity();
}

/** Register a guest nickname; stores and returns the identity.
 * @param {string} nickname
 * @returns {Promise<Identity | null>} */
export async function loginGuest(nickname) {
  const data = await request("POST", "/api/guest", { nickname });
  localStorage.setItem(ID_KEY, JSON.stringify({ token: data.token, player_id: data.player_id,
    nickname: data.nickname }));
  return identity();
}

/** The HTTP API the pages call (docs/protocol.md, "HTTP"); each answers its JSON. */
export const api = {
  catalog: () => request("GET", "/api/catalog"),
  tables: () => request("GET", "/api/tables"),
  myTables: () => request("GET", "/api/tables/mine"),
  account: () => request("GET", "/api/account"),
  /** @param {Record<string, unknown>} spec POST /api/tables's body */
  createTable: (spec) => request("POST", "/api/tables", spec),
  /** @param {string} id @param {number} seat @param {string} [contribution] */
  sit: (id, seat, contribution) => request("POST", `/api/tables/${encodeURIComponent(id)}/sit`,
    { seat, contribution }),
  /** @param {string} id */
  leave: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, id),
  /** @param {string} id */
  cancel: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/cancel`, {}, id),
  /** @param {string} id */
  chat: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/chat`),
  /** @param {string} id @param {number} n the deal's number */
  dealEnd: (id, n) => request("GET", `/api/tables/${encodeURIComponent(id)}/deals/${n}`),
  /** @param {string} id */
  log: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/log`),
  finished: () => request("GET", "/api/games?finished=1"),
  /** @param {string} id @param {string} seat a seat's number, or "all" */
  replay: (id, seat) => request("GET",
    `/api/games/${encodeURIComponent(id)}/replay?seat=${encodeURIComponent(seat)}`),
  bots: () => request("GET", "/api/bots"),
  /** @param {string} id */
  hint: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/hint`, undefined, id),
};

/**
 * @typedef {object} SocketStatus
 * @property {"connecting" | "open" | "retry"} state
 * @property {number} retryIn milliseconds until the next attempt
 */

/**
 * @typedef {object} SocketHandlers
 * @property {(msg: StateMessage) => void} [onState]
 * @property {(msg: ErrorMessage) => void} [onError]
 * @property {(msg: OtherMessage) => void} [onOther]
 * @property {(status: SocketStatus) => void} [onStatus]
 */

/**
 * A table's WebSocket: connects, reconnects with exponential backoff (0.5 s doubling to
 * 10 s, with jitter) whenever it closes, pings every 20 s, and calls
 * handlers.onState(msg), onError(msg), onStatus({state, retryIn}).
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {SocketHandlers} handlers
   */
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    /** @type {number | null} the last turn received */
    this.turn = null;
    this.beforeHello = false;
    /** @type {Identity | null} */
    this.identity = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const id = tableIdentity(this.tableId);  // in the first message, never in the URL
      this.identity = id;
      ws.send(JSON.stringify(id ? { type: "hello", token: id.token } : { type: "hello" }));
      // until the server reads that hello, the socket is a spectator's: the state it sent
      // on joining is one, and the hello's answer (the player's own) follows at once
      this.beforeHello = Boolean(id);
      this.delay = 500;
      this.status("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "state") {
        const joining = this.beforeHello;
        this.beforeHello = false;
        if (joining && msg.you === null) return; // drawn, it would flash the hand away
        this.turn = msg.turn;
        this.handlers.onState?.(msg);
      } else if (msg.type === "token") {
        renewIdentityToken(this.identity, msg.token);
      } else if (msg.type === "error") {
        this.handlers.onError?.(msg);
      } else {
        this.handlers.onOther?.(msg);
      }
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      this.retry();
    };
    ws.onerror = () => {
      try {
        ws.close();
      } catch {
        /* closing anyway */
      }
    };
  }

  retry() {
    if (this.closed) return;
    const wait = Math.round(this.delay * (0.8 + Math.random() * 0.4));
    this.delay = Math.min(this.delay * 2, 10000);
    this.status("retry", wait);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** @param {SocketStatus["state"]} state @param {number} [retryIn] */
  status(state, retryIn = 0) {
    this.handlers.onStatus?.({ state, retryIn });
  }

  /** @param {ClientMessage} msg @returns {boolean} whether it went out */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Send an action text for the last turn received.
   * @param {string} text */
  action(text) {
    return this.send({ type: "action", action: text, turn: this.turn });
  }

  /** Whether the open socket already speaks for `id`: its hello named the same player.
   * @param {Identity | null} id */
  speaksFor(id) {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && id
      && this.identity?.player_id === id.player_id);
  }

  /** Reconnect now (e.g. after logging in, so the token is sent). */
  reconnect() {
    this.delay = 500;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
    clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }
}
