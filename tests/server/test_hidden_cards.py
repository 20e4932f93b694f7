"""No message to a client ever contains a card it may not see (the issue's property test).

Random games are played through the server, over the WebSocket protocol, by test clients
that choose random legal actions (and now and then an illegal or out-of-turn one), with
random bot seats and a spectator. Every message the server queues for a client is checked
at the moment it is sent against the true state held server-side: it must name no card of
another seat's hand and no card of the stock (other than the cards the rules have shown to
everyone), and never the secret seed before the game is over. The test also checks that
each client received exactly the messages that were checked for it, in order (until the
game is over and the clients leave), so no message reaches a client unchecked.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.server.core.config import Settings
from konkun.server.core.connection import Connection
from konkun.server.tables.connections import Broadcaster
from konkun.server.tables.table import Table

from .conftest import TestClient, app_of, guest, legal, receive, running

CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]")
JOKER_AS = re.compile(r"X=(?:10|[2-9TJQKA])[cdhs]")
"""A joker declared as a card (Kunken ``X=6d``) names what the joker stands for, not where
a real card is: it is left out of the scan."""
PUBLIC_KEYS = {"dealer_draws", "jokers", "stands_for"}
"""Views keys that show no card of the deal: the first-dealer draw is made from a pack of
its own before the deal and shown to everyone; a Kunken joker's meaning (a step's
``jokers``, a meld's ``stands_for``) names the card a joker stands for, as ``X=7d`` does
in an action's text, not a card shown."""


def card_texts(data: Any) -> set[str]:
    """Every card text in the strings of a JSON value (compact lists like ``As7h`` too)."""
    found: set[str] = set()
    if isinstance(data, str):
        found.update(c.replace("10", "T") for c in CARD.findall(JOKER_AS.sub("X", data)))
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in PUBLIC_KEYS:
                found |= card_texts(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_texts(value)
    return found


def hidden_konchinka(table: Table, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see now: other hands and the stock, less the cards sent
    back into the stock by the initial-table fix (they were shown face up)."""
    assert table.match is not None
    deal: Any = table.match.deal
    if deal.is_over():
        return set()  # hands and stock are empty; the next deal is not dealt yet
    secret = {c.text for s, hand in enumerate(deal.hands) if s != seat for c in hand}
    secret |= {c.text for c in deal.stock}
    return secret - {c.text for c, _low in deal.returned_to_stock}


def hidden_kunken(table: Table, seat: int | None) -> set[str]:
    """Kunken (two decks, so one text may name two cards): the card texts of the other
    hands and the stock, less every text ``seat`` may see somewhere: its own hand, the
    bank, the melds (declared jokers included), the cards publicly known to be held
    (taken from the bank), and the cards named by this deal's actions, every one of which
    was shown to all."""
    assert table.match is not None
    if table.match.deal.is_over():
        return set()  # the hands are shown for the score
    full: dict[str, Any] = table.match.deal.to_json()  # type: ignore[attr-defined]
    hands = full["hands"]
    secret = {c for s, hand in enumerate(hands) if s != seat for c in card_texts(hand)}
    secret |= card_texts(full["stock"])
    seen = card_texts(hands[seat]) if seat is not None else set()
    for key in ("bank", "melds", "taken_held", "history"):
        seen |= card_texts(full[key])
    return secret - seen


def hidden_fake(table: Table, seat: int | None) -> set[str]:
    """The fake game: other hands and the stock."""
    assert table.match is not None
    deal: Any = table.match.deal
    secret = {c.text for s, hand in enumerate(deal.hands) if s != seat for c in hand}
    return secret | {c.text for c in deal.stock}


HIDDEN: dict[str, Callable[[Table, int | None], set[str]]] = {
    "konchinka": hidden_konchinka, "kunken": hidden_kunken, "fake": hidden_fake}

Sent = tuple[Connection, str, set[str], str | None, bool]
"""A message: connection, text, the cards hidden from it, the secret seed while the game
runs, and whether the last action began a new deal (its cards were shown as it was played
and have gone back into the new deal's shuffle, so ``last`` may name them)."""


class SentLog(list[Sent]):
    """The messages sent during a test (short repr: hypothesis prints its arguments)."""

    def __repr__(self) -> str:
        return f"SentLog({len(self)} messages)"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> SentLog:
    """Every text queued for a client, with what was hidden from it at that moment."""
    log = SentLog()
    original = Broadcaster.broadcast
    deals: dict[str, int] = {}

    def checked_broadcast(self: Broadcaster, table: Table) -> None:
        deal_id = id(table.match.deal) if table.match is not None else 0
        new_deal = deals.get(table.id, deal_id) != deal_id
        deals[table.id] = deal_id
        before = {c: c.queue.qsize() for c in table.connections}
        original(self, table)
        for connection in table.connections:
            if connection.queue.qsize() > before.get(connection, 0):
                text = connection.queue._queue[-1]  # type: ignore[attr-defined]
                seat = table.seat_of(connection.player_id)
                hidden = HIDDEN[table.adapter.name](table, seat) \
                    if table.match is not None else set()
                secret_seed = table.seed if table.status != "finished" else None
                log.append((connection, text, hidden, secret_seed, new_deal))

    tables: dict[Connection, Table] = {}
    original_attach = Broadcaster.attach
    original_send = Connection.send

    def tracked_attach(self: Broadcaster, table: Table, connection: Connection) -> None:
        tables[connection] = table
        original_attach(self, table, connection)

    def checked_send(self: Connection, payload: dict[str, Any]) -> None:
        """Errors and pongs (states go through ``broadcast``)."""
        original_send(self, payload)
        table = tables.get(self)
        if table is None or table.match is None:
            return
        hidden = HIDDEN[table.adapter.name](table, table.seat_of(self.player_id))
        secret_seed = table.seed if table.status != "finished" else None
        log.append((self, json.dumps(payload), hidden, secret_seed, False))

    monkeypatch.setattr(Broadcaster, "broadcast", checked_broadcast)
    monkeypatch.setattr(Broadcaster, "attach", tracked_attach)
    monkeypatch.setattr(Connection, "send", checked_send)
    return log


def check_sent(log: list[Sent]) -> int:
    """Assert no logged message shows a hidden card or the secret seed; count them."""
    for _connection, text, hidden, seed, new_deal in log:
        message = json.loads(text)
        if message["type"] == "state":
            shown = card_texts(message.get("view"))
            if not new_deal:
                shown |= card_texts(message.get("last"))
        else:  # an error may quote the client's own input, and nothing else it may not see
            shown = card_texts(message.get("message")) - card_texts(message.get("input"))
        leaked = shown & hidden
        assert not leaked, f"message shows hidden cards {sorted(leaked)}: {text}"
        if seed is not None:
            assert seed not in text
    return len(log)


def is_final_state(message: dict[str, Any]) -> bool:
    """Whether a message is the state of the finished game."""
    return message["type"] == "state" and message["table"]["status"] == "finished"


def play_random_game(client: TestClient, sent: SentLog, game: str, num_seats: int,
                     rng: random.Random, rules: dict[str, str],
                     variant: str | None = None) -> None:
    """Play one game to its end through the WebSocket, then check that each client
    received exactly the messages ``sent`` logged for it, in order."""
    bots = {str(s): "random" for s in range(1, num_seats) if rng.random() < 0.4}
    body: dict[str, Any] = {"game": game, "seats": num_seats, "rules": rules, "bots": bots}
    if variant:
        body["variant"] = variant
    summary = client.post("/api/tables", json=body).json()
    table_id = summary["id"]
    table = app_of(client).state.lobby.tables[table_id]
    humans = [s for s in range(num_seats) if str(s) not in bots]
    received: dict[int | None, list[dict[str, Any]]] = {None: []}  # by seat; None: spectator
    with ExitStack() as stack:
        sockets: dict[int | None, Any] = {}
        for seat in humans:
            token, _headers = guest(client, f"p{seat}")
            sockets[seat] = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table_id}?token={token}"))
            received[seat] = [receive(sockets[seat])]
            sockets[seat].send_json({"type": "sit", "seat": seat})
        spectator = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        latest: dict[int, dict[str, Any]] = {}

        def drain(seat: int, until_turn: int, moving: bool = False) -> None:
            """Receive until the seat's latest state is of ``until_turn`` or later and, when
            ``moving``, gives the seat a move: the table's mover and turn are read here while
            the server's thread applies a bot's move, so the mover may already be the seat
            while the turn read is still the bot's."""
            while seat not in latest or latest[seat]["turn"] < until_turn \
                    or latest[seat]["table"]["status"] == "waiting" \
                    or (moving and not legal(latest[seat])
                        and not is_final_state(latest[seat])):
                message = receive(sockets[seat])
                received[seat].append(message)
                if message["type"] == "state":
                    latest[seat] = message

        for _step in range(5000):
            if table.status == "finished":
                break
            seat = table.to_move
            if seat is None or seat not in sockets:
                time.sleep(0.002)  # a bot thinks in its thread; let the server's loop run
                continue
            drain(seat, table.turn, moving=True)
            state = latest[seat]
            assert state["you"] == seat
            actions = legal(state)
            roll = rng.random()
            if roll < 0.03:
                bad = rng.choice(["Zz", "As:", "X", "", "As:Kd:Qd", "10d:2c", "Kd:Qs",
                                  "take 99", "meld X 5h 6h", "discard Zz", "layoff 7h 9",
                                  "swap 1 Ac", "draw draw"])
                sockets[seat].send_json({"type": "action", "action": bad, "turn": state["turn"]})
            elif roll < 0.06:
                elsewhere = sorted(HIDDEN[table.adapter.name](table, seat)) or ["As"]
                sockets[seat].send_json({"type": "action", "action": rng.choice(elsewhere),
                                         "turn": state["turn"]})
            elif roll < 0.09:
                other = rng.choice(list(sockets))
                sockets[other].send_json({"type": "action", "action": rng.choice(actions),
                                          "turn": state["turn"] - 1})
            sockets[seat].send_json({"type": "action", "action": rng.choice(actions),
                                     "turn": state["turn"]})
            drain(seat, state["turn"] + 1)
        assert table.status == "finished"
        sockets[None] = spectator
        for seat, socket in sockets.items():
            while not any(is_final_state(m) for m in received[seat]):
                received[seat].append(receive(socket))
            socket.send_json({"type": "ping"})  # answered after every earlier message
            while received[seat][-1]["type"] != "pong":
                received[seat].append(receive(socket))
        assert len(table.connections) == len(received)
        for connection in table.connections:
            checked = [json.loads(text) for to, text, *_ in sent if to is connection]
            assert received[table.seat_of(connection.player_id)] == checked


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), num_seats=st.integers(2, 4),
       variant=st.sampled_from(["classic", "novo"]))
def test_no_message_shows_a_konchinka_card_its_receiver_may_not_see(
        settings_: Settings, sent: SentLog, seed: int, num_seats: int,
        variant: str) -> None:
    sent.clear()
    with running(settings_) as client:
        play_random_game(client, sent, "konchinka", num_seats, random.Random(seed),
                         {"target": "1"}, variant)
    assert check_sent(sent) > 0


KUNKEN_SHORT = {"hand_size": "6", "jokers": "2", "empty_stock": "end", "deals": "1"}
"""A short Kunken match: one deal of 6-card hands that ends when the stock runs out."""


@pytest.mark.slow
@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), num_seats=st.integers(2, 3))
def test_no_message_shows_a_kunken_card_its_receiver_may_not_see(
        settings_: Settings, sent: SentLog, seed: int, num_seats: int) -> None:
    sent.clear()
    with running(settings_) as client:
        play_random_game(client, sent, "kunken", num_seats, random.Random(seed), KUNKEN_SHORT)
    assert check_sent(sent) > 0


def test_no_message_shows_a_fake_game_card_its_receiver_may_not_see(
        settings_: Settings, sent: SentLog) -> None:
    with running(settings_) as client:
        for seed in range(6):
            play_random_game(client, sent, "fake", 2 + seed % 3, random.Random(seed),
                             {"target": "3"})
    assert check_sent(sent) > 100


@pytest.fixture
def settings_(settings: Settings) -> Settings:
    """The server settings (named apart from hypothesis's ``settings``); the test clients
    send faster than a person, so the rate limit is lifted."""
    settings.rate_burst = settings.rate_per_second = 1e6
    settings.db_url = "sqlite://"  # in memory: this test is about views, not the disk
    return settings
