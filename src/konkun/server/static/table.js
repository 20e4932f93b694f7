// The table page (/t/{id}): seats, then the game, over the table's WebSocket.

import { contributionFor, rematchContribution, rematchStarted } from "./fairness.js";
import { api, identity, seatLink, seatLinkHolder, storeSeatIdentity, tableIdentity,
  TableSocket } from "./api.js";
import { askSeatLink } from "./account.js";
import { byId, h, kept, mount, patch, present, toast } from "./dom.js";
import { errorText as codeText, lang, t } from "./i18n.js";
import { icon } from "./icons.js";
import { gameTitle, ratedBadge, RENDERERS, seatNames, tableTerms } from "./catalog.js";
import { gameStyled } from "./gamepage.js";
import { chatPanel, chatSeen, watchChat, withLinesSince } from "./chat.js";
import { clockBadge, tickClock } from "./clock.js";
import { showDealEnd } from "./dealend.js";
import { lifecyclePanel } from "./lifecycle.js";
import { addLast, matchLog } from "./movelog.js";
import { nameForm } from "./nameform.js";
import { canNotify, notifyHidden, notifyOn, toggleNotify } from "./notify.js";
import { ratedToast } from "./profile.js";
import { endedMessage, resultCard } from "./result.js";
import { awayBanner, seatsPanel } from "./seats.js";
import { errorText, focusSelector, link, main, navigate, page, setPage } from "./shell.js";
import { blip, chime } from "./sound.js";
import { renderTopbar } from "./topbar.js";

/** A seat link opened here (``#seat=TOKEN``; ``#me=`` of older links): play this table with
 * its identity, kept for this table alone; when the browser has an identity of its own,
 * only once the visitor says so. The fragment is forgotten at once. */
async function openSeatLink(tableId) {
  const m = location.hash.match(/^#(?:seat|me)=([^&]+)/);
  if (!m) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  const holder = await seatLinkHolder(tableId, decodeURIComponent(m[1]));
  if (!holder) {
    toast(t("life.badLink"), "error");
    return;
  }
  const mine = identity();
  if (mine && mine.player_id === holder.player_id) return;  // the link is this browser's own
  if (mine && !(await askSeatLink(holder, mine))) return;
  storeSeatIdentity(tableId, holder);
}

/**
 * A state message as the table page keeps it: with the time it came (the clock counts
 * from it).
 * @typedef {import("./protocol.js").StateMessage & {table: {receivedAt?: number}}} TableMessage
 */

/**
 * The table page's state.
 * @typedef {object} TableState
 * @property {TableMessage | null} msg the state shown
 * @property {string} conn the socket's state: "connecting", "open" or "retry"
 * @property {number} retryAt when the next attempt is (ms since the epoch)
 * @property {Record<string, any>} ui the game module's state kept across redraws
 * @property {number | null} pending the turn an action was sent for
 * @property {import("./chat.js").ChatState} chat
 * @property {import("./movelog.js").LogEntry[]} log
 * @property {Map<string | undefined, boolean>} logOpen deal → opened or closed by the person
 * @property {number | null} dealsDone
 * @property {boolean} wasMine
 * @property {boolean} holding the end-of-deal screen is up: the next deal waits
 * @property {TableMessage | null} held the state that came while holding
 * @property {boolean} gone
 * @property {ChildNode | null} root
 * @property {import("./protocol.js").RatedMessage | null} rated
 * @property {string} rematchKey
 * @property {{lang: string, node: HTMLElement} | null} [nameForm]
 */

/** The table page of `tableId` (/t/{id}).
 * @param {string} tableId */
/** The view of a state as the shared modules read it (any game's view has these fields).
 * @param {TableMessage} msg
 * @returns {import("./pagetypes.js").View | null} */
function viewOf(msg) {
  return msg.view;
}

export function tablePage(tableId) {
  /** @type {TableState} */
  const state = { msg: null, conn: "connecting", retryAt: 0, ui: {}, pending: null,
    chat: { messages: [] }, log: [], logOpen: new Map(), dealsDone: null, wasMine: false,
    holding: false, held: null, gone: false, root: null, rated: null, rematchKey: "" };
  let shown = true; // false once another page replaced this one
  const statusLine = h("div", { class: "conn", "aria-live": "polite" });
  const body = h("div", { class: "table-body" });
  /** @type {TableSocket | null} */
  let sock = null;
  /** The table's socket, made below once its handlers exist. */
  const socket = () => present(sock, "the table's socket");

  function drawStatus() {
    statusLine.className = `conn ${state.conn}`;
    body.classList.toggle("offline", state.conn !== "open");
    const words = state.conn === "open" ? t("table.connected")
      : state.conn === "retry" ? t("table.reconnecting", {
        s: Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000)) })
        : t("table.connecting");
    // on a phone only the dot shows while connected (style.css); the words in a title
    statusLine.title = words;
    mount(statusLine, state.conn === "open" ? "● " : "○ ",
      h("span", { class: state.conn === "open" ? "conn-word" : "" }, words));
  }

  async function sit(seat) {
    if (!identity()) {
      toast(t("me.needName"), "error");
      return;
    }
    try {
      await api.sit(tableId, seat, contributionFor(tableId, seat));
      // the server sends the seat's state to the player's connections: a socket that
      // already speaks for the player keeps going (a reconnect would drop a line sent then)
      if (!socket().speaksFor(tableIdentity(tableId))) socket().reconnect();
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  function turnBanner(msg) {
    const { table, you, view } = msg;
    const names = seatNames(table);
    if (table.status === "waiting") return h("div", { class: "turn waiting" }, t("table.waiting"));
    if (state.holding) {
      return h("div", { class: "turn", id: "turn" }, t("end.title", { n: state.dealsDone }));
    }
    if (table.status === "finished") {
      const w = table.winner;
      return h("div", { class: "turn over" }, t("table.over"),
        w !== null && w !== undefined ? ` — ${t("table.winner", { name: names[w] })}` : "");
    }
    const toMove = view?.to_move ?? table.to_move;
    if (toMove === null || toMove === undefined) return h("div", { class: "turn" }, "");
    const clock = clockBadge(table);
    if (toMove === you) {
      return h("div", { class: "turn mine", id: "turn" }, "▶ " + t("table.yourTurn"), clock);
    }
    return h("div", { class: "turn theirs", id: "turn" }, t("table.turnOf", { name: names[toMove] }),
      clock);
  }

  /** The table's small tools in its head: who watches, unread chat, notifications, the
   * personal link, and the connection. */
  function tableTools(msg) {
    const { table, you } = msg;
    const watching = table.spectators || 0;
    return h("div", { class: "table-tools" },
      watching ? h("span", { class: "tool-note", id: "spectators",
        title: t("tools.spectators", { n: watching }),
        "aria-label": t("tools.spectators", { n: watching }) }, icon("eye"), String(watching))
        : null,
      state.chat.unread ? h("button", { type: "button", class: "tool unread", id: "chat-jump",
        title: t("chat.unread", { n: state.chat.unread }), onclick: () =>
          document.getElementById("chat")?.scrollIntoView({ block: "center" }) },
      icon("chat"), String(state.chat.unread)) : null,
      you !== null && canNotify() ? h("button", { type: "button", class: "tool", id: "notify",
        "aria-pressed": notifyOn() ? "true" : "false", title: t("tools.notifyHelp"),
        onclick: () => toggleNotify(draw) }, icon("notify"),
      h("span", { class: "tool-word" }, notifyOn() ? t("tools.notifyOn") : t("tools.notify")))
        : null,
      you !== null && table.status !== "finished" ? h("button", { type: "button", class: "tool",
        id: "personal-link", title: t("life.linkHelp"), "aria-label": t("life.copyLink"),
        onclick: controls.copyLink }, icon("link"),
      h("span", { class: "tool-word" }, t("tools.link"))) : null,
      statusLine);
  }

  /** A notification when someone else offers a rematch (once per set of offers). */
  function noteRematchOffer(msg) {
    const { table, you } = msg;
    const votes = (table.rematch?.votes || []).filter((v) => v !== you);
    const key = votes.join(",");
    if (key && key !== state.rematchKey && you !== null && !table.rematch?.votes?.includes(you)) {
      const names = seatNames(table);
      notifyHidden(t("notify.rematch", { names: votes.map((v) => names[v]).join(", ") }),
        `rematch-${table.id}`);
    }
    state.rematchKey = key;
  }

  function draw() {
    if (state.gone) return;  // closed or unknown: a late answer must not bring the table back
    const msg = state.msg;
    if (!msg) {
      mount(main, h("div", { class: "table-page" }, statusLine, h("p", {}, t("table.connecting"))));
      drawStatus();
      return;
    }
    const { table, you } = msg;
    const focusKey = focusSelector(document.activeElement);
    const mine = table.status === "playing" && you !== null && !state.holding
      && (viewOf(msg)?.to_move ?? table.to_move) === you;
    document.title = mine ? `▶ ${t("table.yourTurn")} · ${gameTitle(table)} — konkun`
      : `konkun — ${gameTitle(table)}`;
    if (mine && !state.wasMine) {
      chime();
      notifyHidden(t("notify.turn", { game: gameTitle(table) }), `turn-${table.id}`);
    }
    state.wasMine = mine;
    noteRematchOffer(msg);
    const url = `${location.origin}/t/${table.id}`;
    const head = h("div", { class: "table-head" },
      h("h1", {}, gameTitle(table)),
      ratedBadge(table),
      turnBanner(msg),
      h("div", { class: "spacer" }),
      tableTools(msg));
    const invite = table.status === "waiting" ? h("div", { class: "panel invite" },
      h("label", { for: "invite" }, t("table.link")),
      h("input", { id: "invite", readonly: true, value: url, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", onclick: async (ev) => {
        try { await navigator.clipboard.writeText(url); ev.target.textContent = t("table.copied"); }
        catch { byId("invite", HTMLInputElement).select(); }
      } }, t("table.copy"))) : null;
    // a nameless visitor gets the name form: to sit while the table waits, else to chat
    const needName = you === null && !identity() ? h("div", { class: "panel" },
      h("p", {}, t(table.status === "waiting" ? "me.needName" : "chat.needName")),
      keptTableNameForm()) : null;
    mount(body);
    if (table.status !== "waiting" && msg.view) {
      const R = RENDERERS[table.game];
      if (R && !gameStyled(table.game, () => { if (shown && state.msg) draw(); })) {
        body.appendChild(h("p", { class: "loading" }, t("lobby.loading")));
      } else if (R) {
        R.render(body, { view: msg.view, table, you, last: msg.last, lang: lang(),
          names: seatNames(table), ui: state.ui, readOnly: you === null || state.holding,
          matchLog: R.placesMatchLog ? tableLog(msg) : undefined,
          play: (action) => {
            if (state.pending === msg.turn) return; // one action per turn; no double clicks
            if (socket().action(action)) state.pending = msg.turn;
            else toast(t("table.connecting"), "error");
          }, hint: table.hints === false ? null : () => api.hint(tableId) });
      } else {
        body.appendChild(h("p", {}, t("table.unknownGame")));
      }
    }
    const finishedBar = table.status === "finished" ? h("div", { class: "panel finished-bar" },
      link(`/replay/${table.id}`, t("table.replay")), " · ", link("/", t("table.backToLobby")))
      : null;
    const drawn = h("div", { class: "table-page", dataset: { status: table.status, game: table.game,
      turn: msg.turn ?? "", seats: table.seats.length } },
      head,
      // while playing, Resign/Abort share the terms' line (no panel of their own: the felt
      // keeps its height, tests/e2e/test_table_fits.py)
      table.status === "playing" ? h("div", { class: "table-sub" }, tableTerms(table),
        lifecyclePanel(msg, controls)) : tableTerms(table),
      invite, needName,
      table.status === "finished" && msg.view ? resultCard(msg, state.rated, controls) : null,
      table.status === "playing" ? null : lifecyclePanel(msg, controls),
      h("div", { class: "seats-wrap" }, seatsPanel(table, you, sit, controls.voteBot)),
      awayBanner(msg, controls),
      you === null && table.status !== "waiting"
        ? h("p", { class: "muted spectating" }, t("table.spectator")) : null,
      body, finishedBar,
      RENDERERS[table.game] && !RENDERERS[table.game].placesMatchLog
        && table.status !== "waiting" ? tableLog(msg) : null,
      chatPanel(state.chat, seatNames(table), controls.chat, table.status === "finished"));
    // patched, not replaced: a button being pressed as a state arrives still takes the click
    if (state.root?.parentNode === main) patch(main, drawn);
    else mount(main, drawn);
    state.root = main.firstChild;
    drawStatus();
    if (focusKey) {
      /** @type {HTMLElement | null} */ (main.querySelector(focusKey))?.focus({ preventScroll: true });
    }
  }

  /** The one move log of the table: the whole match by deal, the current deal open. */
  function tableLog(msg) {
    const { table, view } = msg;
    const current = table.status !== "playing" ? null
      : state.holding ? state.dealsDone : (view?.deal_points || []).length + 1;
    const node = matchLog(state.log, table.game, seatNames(table),
      (a, parts) => RENDERERS[table.game].formatAction(a, lang(), parts), current);
    // a deal the player opened or closed stays so across the redraws of every state
    for (const item of node.querySelectorAll("details[data-deal]")) {
      const deal = /** @type {HTMLDetailsElement} */ (item);
      const chosen = state.logOpen.get(deal.dataset.deal);
      if (chosen !== undefined) deal.open = chosen;
      // the person's click, not the page's own opening (which fires "toggle" too)
      present(deal.querySelector("summary"), "a log deal's summary").addEventListener("click", () =>
        state.logOpen.set(deal.dataset.deal, !deal.open));
    }
    return node;
  }

  /** One name form while the table redraws on every state (a click in flight on a
   * redrawn form would be lost); new after a language switch. */
  function keptTableNameForm() {
    if (!state.nameForm || state.nameForm.lang !== lang()) {
      state.nameForm = { lang: lang(), node: nameForm(() => {
        state.nameForm = null;
        socket().reconnect();
        draw();
      }) };
    }
    return kept(state.nameForm.node);
  }

  async function loadLog(again = 2) {
    try {
      const entries = (await api.log(tableId)).entries || [];
      // asked before a move the states already showed (the socket opened as it was
      // played): ask again, or the log would lack it until the next move
      const shown = state.msg?.last?.turn ?? 0;
      if (shown > (entries.at(-1)?.turn ?? 0) && again > 0) return loadLog(again - 1);
      state.log = entries;
      if (state.msg) draw();
    } catch { /* the log fills in with the next moves */ }
  }

  /** Add the state's last move to the match log, with the deal it was played in. */
  function noteLast(msg) {
    const done = (msg.view?.deal_points || []).length;
    const deal = state.dealsDone !== null && done > state.dealsDone ? done : done + 1;
    const known = state.dealsDone !== null;
    if (state.dealsDone !== null && done > state.dealsDone) {
      // the next deal waits behind the end screen: the table keeps the old deal until then
      state.holding = state.msg !== null && msg.table.status !== "finished";
      state.dealsDone = done;
      if (state.holding) draw(); // the deal that ended, with nothing left to play
      openDealEnd(msg.table, done);
    }
    state.dealsDone = done;
    if (known && !addLast(state.log, msg.last, deal)) loadLog();
  }

  async function openDealEnd(table, number) {
    try {
      const end = await api.dealEnd(tableId, number);
      if (page?.tableId === tableId) {
        if (state.holding && state.held) {
          // the table as the deal ended, beside the score sheet with this deal written in
          state.msg = endedMessage(state.held, end);
          draw();
        }
        showDealEnd(end, table.game, seatNames(table), lang(),
          { over: table.status === "finished", onClose: showHeld,
            moveSeconds: table.move_seconds || 0 });
        return;
      }
    } catch { /* the score sheet still shows the deal */ }
    showHeld();
  }

  /** The end screen is gone: show the state that came while it was up (the next deal). */
  function showHeld() {
    state.holding = false;
    if (!state.held || page?.tableId !== tableId) return;
    state.msg = state.held;
    state.held = null;
    state.pending = null;
    draw();
  }

  async function loadChat() {
    const heard = state.chat.heard || 0;
    try {
      const stored = (await api.chat(tableId)).messages || [];
      const since = (state.chat.heard || 0) - heard;
      state.chat.messages = withLinesSince(stored, since ? state.chat.messages.slice(-since) : []);
      if (state.msg) chatPanel(state.chat, seatNames(state.msg.table), controls.chat,
        state.msg.table.status === "finished");
    } catch { /* the chat comes with the next line */ }
  }

  /** The table is gone (closed or unknown): stop its socket and show this panel for good. */
  function endPage(panel) {
    state.gone = true;
    socket().close();
    mount(main, panel);
  }

  function closedPage(reason) {
    endPage(h("div", { class: "panel", id: "table-closed" },
      h("p", {}, reason === "expired" ? t("life.expired") : t("life.cancelled")),
      link("/", t("table.backToLobby"))));
  }

  const controls = {
    leave: async () => {
      try {
        await api.leave(tableId);
        navigate("/");
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
    cancel: async () => {
      try {
        await api.cancel(tableId);
        closedPage("cancelled");
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
    copyLink: async (ev) => {
      const button = ev.currentTarget;
      let url;
      try {
        url = await seatLink(tableId);
      } catch (err) {
        toast(errorText(err), "error");
        return;
      }
      try {
        await navigator.clipboard.writeText(url);
        button.classList.add("done");
        toast(t("life.linkCopied"));
      } catch {
        window.prompt(t("life.linkHelp"), url);
      }
    },
    rematch: () => {
      const you = state.msg?.you ?? null;
      const contribution = you === null ? undefined
        : rematchContribution(tableId, you, state.msg?.table?.rematch?.commitment ?? null);
      if (!socket().send({ type: "rematch", contribution })) toast(t("table.connecting"), "error");
    },
    back: () => {
      if (!socket().send({ type: "back" })) toast(t("table.connecting"), "error");
    },
    resign: () => {
      if (!socket().send({ type: "resign" })) toast(t("table.connecting"), "error");
    },
    abort: () => {
      if (!socket().send({ type: "abort" })) toast(t("table.connecting"), "error");
    },
    chat: (text) => {
      const sent = socket().send({ type: "chat", text });
      if (!sent) toast(t("table.connecting"), "error");
      return sent;
    },
    voteBot: (seat) => {
      if (!socket().send({ type: "vote_bot", seat })) toast(t("table.connecting"), "error");
    },
  };

  sock = new TableSocket(tableId, {
    onOther: (msg) => {
      if (msg.type === "chat") {
        state.chat.heard = (state.chat.heard || 0) + 1;
        state.chat.messages.push(msg);
        if (state.chat.messages.length > 200) state.chat.messages.shift();
        const you = state.msg?.you ?? null;
        const mine = you !== null ? msg.seat === you : msg.name === identity()?.nickname;
        if (!mine && !chatSeen(state.chat)) {
          state.chat.unread = (state.chat.unread || 0) + 1;
          blip();
        }
        if (state.msg) {
          chatPanel(state.chat, seatNames(state.msg.table), controls.chat,
            state.msg.table.status === "finished");
          draw();
        }
      } else if (msg.type === "closed") closedPage(msg.reason);
      else if (msg.type === "rematch" && msg.table) {
        rematchStarted(tableId, msg.table);
        navigate(`/t/${msg.table}`);
      }
      else if (msg.type === "rated") {
        state.rated = msg;
        ratedToast(msg, identity());
        if (state.msg) draw();
      }
    },
    onState: (/** @type {TableMessage} */ msg) => {
      msg.table.receivedAt = Date.now();
      noteLast(msg);
      if (state.holding) {
        state.held = msg;
        return;
      }
      state.msg = msg;
      state.pending = null;
      draw();
    },
    onError: (msg) => {
      state.pending = null;
      toast(codeText(msg.code), "error");
      if (msg.code === "unknown_table") {
        endPage(h("div", { class: "panel" }, h("p", {}, t("table.notFound")),
          link("/", t("table.backToLobby"))));
      }
    },
    onStatus: ({ state: s, retryIn }) => {
      if (s === "open" && state.conn !== "open") {
        loadChat();
        loadLog();
      }
      state.conn = s;
      state.retryAt = Date.now() + retryIn;
      drawStatus();
    },
  });
  let voteCheck = 0;
  const ticker = setInterval(() => {
    if (state.conn === "retry") drawStatus();
    tickClock();
    // an absent player's seat may be voted on after 60 s: redraw when that time comes
    const absent = state.msg?.table?.absent;
    if (absent && Object.keys(absent).length && !state.msg?.table.move_seconds
        && ++voteCheck % 4 === 0 && !main.querySelector(".vote-bot")) draw();
  }, 500);
  watchChat(state.chat, () => { if (state.msg) draw(); });
  document.body.classList.add("at-table");
  setPage({ tableId, rerender: draw, destroy: () => {
    shown = false;
    clearInterval(ticker);
    socket().close();
    state.chat.stop?.();
    document.body.classList.remove("at-table");
    document.getElementById("deal-end")?.remove();
  } });
  draw();
  openSeatLink(tableId).finally(() => socket().connect());
}
