// The server's HTTP API, the player's identity in localStorage, and the table WebSocket
// with reconnection (see docs/protocol.md).

const ID_KEY = "konkun.identity";

/** The stored identity {token, player_id, nickname}, or null. */
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
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function request(method, path, body = undefined) {
  const headers = { Accept: "application/json" };
  const id = identity();
  if (id) headers.Authorization = `Bearer ${id.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers,
    body: body === undefined ? undefined : JSON.stringify(body) });
  renewToken(res.headers.get("X-Konkun-Token"));
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
    throw new ApiError(res.status, (data && data.code) || String(res.status), msg);
  }
  return data;
}

/** Take over the identity a personal seat link carries (its token); stores and returns it,
 * or null when the token does not verify. */
export async function adoptToken(token) {
  const res = await fetch("/api/me", { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) return null;
  const me = await res.json();
  localStorage.setItem(ID_KEY, JSON.stringify({ token, player_id: me.player_id,
    nickname: me.nickname }));
  return identity();
}

/** The personal link of the seat this browser holds at a table (its token in the URL
 * fragment, which never reaches the server's logs). */
export function personalLink(tableId) {
  const id = identity();
  return id ? `${location.origin}/t/${encodeURIComponent(tableId)}#me=${id.token}` : null;
}

/** Keep a renewed token the server sent (the old one expires in its time). */
function renewToken(token) {
  const id = identity();
  if (token && id) localStorage.setItem(ID_KEY, JSON.stringify({ ...id, token }));
}

/** Keep an identity the server gave ({token, player_id, nickname}, from a login or a
 * claim); returns it. */
export function storeIdentity(data) {
  localStorage.setItem(ID_KEY, JSON.stringify({ token: data.token, player_id: data.player_id,
    nickname: data.nickname }));
  return identity();
}

/** Register a guest nickname; stores and returns the identity. */
export async function loginGuest(nickname) {
  const data = await request("POST", "/api/guest", { nickname });
  localStorage.setItem(ID_KEY, JSON.stringify({ token: data.token, player_id: data.player_id,
    nickname: data.nickname }));
  return identity();
}

export const api = {
  catalog: () => request("GET", "/api/catalog"),
  tables: () => request("GET", "/api/tables"),
  createTable: (spec) => request("POST", "/api/tables", spec),
  sit: (id, seat, contribution) => request("POST", `/api/tables/${encodeURIComponent(id)}/sit`,
    { seat, contribution }),
  leave: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  cancel: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/cancel`, {}),
  chat: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/chat`),
  dealEnd: (id, n) => request("GET", `/api/tables/${encodeURIComponent(id)}/deals/${n}`),
  log: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/log`),
  finished: () => request("GET", "/api/games?finished=1"),
  replay: (id, seat) => request("GET",
    `/api/games/${encodeURIComponent(id)}/replay?seat=${encodeURIComponent(seat)}`),
  bots: () => request("GET", "/api/bots"),
  hint: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/hint`),
};

/**
 * A table's WebSocket: connects, reconnects with exponential backoff (0.5 s doubling to
 * 10 s, with jitter) whenever it closes, pings every 20 s, and calls
 * handlers.onState(msg), onError(msg), onStatus({state, retryIn}).
 */
export class TableSocket {
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers;
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    this.turn = null;
    this.beforeHello = false;
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
      const id = identity();  // the token goes in the first message, never in the URL
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
        renewToken(msg.token);
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

  status(state, retryIn = 0) {
    this.handlers.onStatus?.({ state, retryIn });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Send an action text for the last turn received. */
  action(text) {
    return this.send({ type: "action", action: text, turn: this.turn });
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
