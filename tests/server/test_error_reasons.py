"""No server error holds a card its receiver cannot see (issue 10, item 4): at random
positions of both games, random bad actions from the seat to move (random text, wrong
sums, cards not in the hand, cards of other seats and of the stock) are refused with a
message naming only the input, the seat's own cards and public cards.

The actions go through the lobby's ``play``, the call behind a WebSocket ``action``
message; the error sent is its ``ProtocolError.payload()``. ``test_hidden_cards.py``
checks whole games over the WebSocket itself.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from error_checks import KUNKEN_SHORT, assert_shows_no_hidden_card, bad_inputs, hidden_cards
from konkun.server.core.config import Settings
from konkun.server.core.protocol import ProtocolError
from konkun.server.tables import seats as seats_module

from .conftest import TestClient, app_of, new_table, running, sit

QUIET = hsettings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TABLES = st.sampled_from([("konchinka", 2, "classic"), ("konchinka", 3, "novo"),
                          ("konchinka", 4, "classic"), ("kunken", 2, None), ("kunken", 3, None)])


def _started_table(client: TestClient, game: str, seats: int, variant: str | None) -> Any:
    """A table of ``seats`` human seats, started (every seat taken)."""
    body: dict[str, Any] = {"game": game, "seats": seats,
                            "rules": KUNKEN_SHORT if game == "kunken" else {"target": "1"}}
    if variant:
        body["variant"] = variant
    summary = new_table(client, **body)
    for seat in range(seats):
        sit(client, summary["id"], seat, f"p{seat}")
    table = app_of(client).state.lobby.tables[summary["id"]]
    assert table.status == "playing"
    return table


def test_an_illegal_action_error_names_no_card_its_sender_cannot_see(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[str] = []
    monkeypatch.setattr(seats_module, "match_seed_of", lambda fair: seeds[-1])  # replayable
    settings.db_url = "sqlite://"  # in memory: this test is about messages, not the disk
    settings.rate_burst = settings.rate_per_second = 1e6  # faster than any person
    settings.http_burst = settings.http_per_second = 1e6
    settings.max_tables = 10_000  # one table per example, left unfinished
    settings.max_tables_per_player = settings.max_tables_per_address = 10_000
    settings.max_seats_per_player = settings.max_seats_per_address = 10_000
    with running(settings) as client:
        lobby = app_of(client).state.lobby

        portal = client.portal
        assert portal is not None

        def send(table: Any, text: str) -> None:
            player = table.seats[table.to_move].player_id
            portal.call(lobby.play, table, player, text, table.turn)

        @QUIET
        @given(kind=TABLES, seed=st.integers(0, 2**16), steps=st.integers(0, 30),
               data=st.data())
        def check(kind: tuple[str, int, str | None], seed: int, steps: int,
                  data: st.DataObject) -> None:
            seeds.append(f"table {seed}")
            table = _started_table(client, *kind)
            chooser = random.Random(seed)
            for _ in range(steps):
                if table.status != "playing":
                    break
                deal = table.match.deal
                send(table, deal.format_action(chooser.choice(deal.legal_actions())))
            assume(table.status == "playing")
            deal, seat = table.match.deal, table.to_move
            hidden = hidden_cards(deal, seat)
            for text in data.draw(bad_inputs(deal, seat)):
                with pytest.raises(ProtocolError) as caught:
                    send(table, text)
                payload = caught.value.payload()
                assert payload["code"] in {"invalid_action", "illegal_move"}, payload
                assert_shows_no_hidden_card(payload["message"], text, hidden)

        check()
