"""The Konchinka batch (the vector environment's fast path) against the engine: from the
same seed it deals the engine's deal, marks exactly the adapter's slots of the engine's
legal moves, writes the adapter's tensor, plays the slot's move as the engine plays it,
the random seats as ``push_random`` plays them, and ends with the engine's points, under
every rule option."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.konchinka.dealing import new_deal
from konkun.konchinka.rules import KonchinkaRules
from konkun.rl.konchinka_adapter import KonchinkaAdapter
from konkun.rl.konchinka_batch import KonchinkaBatch, slots_of

RULES: st.SearchStrategy[dict[str, str]] = st.fixed_dictionaries({
    "variant": st.sampled_from(["classic", "novo"]),
    "capture_compulsory": st.sampled_from(["true", "false"]),
    "table_excludes_jacks": st.sampled_from(["true", "false"]),
    "tie_points": st.sampled_from(["none", "all", "split"])})


def _engine_to_agent(deal: object, seat: int, rng: random.Random) -> None:
    while deal.turn >= 0 and deal.turn != seat:  # type: ignore[attr-defined]
        deal.push_random(rng)  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(options=RULES, players=st.integers(2, 4), seat_pick=st.integers(0, 3),
       capture_slots=st.sampled_from([2, 3, 32]), seed=st.integers(0, 2**32))
def test_the_batch_plays_every_deal_as_the_engine(options: dict[str, str], players: int,
                                                  seat_pick: int, capture_slots: int,
                                                  seed: int) -> None:
    rules = KonchinkaRules.from_options(options)
    seat = seat_pick % players
    adapter = KonchinkaAdapter(rules, capture_slots)
    batch = KonchinkaBatch(rules, players, seat, capture_slots, 1)
    batch_rng, engine_rng, agent = (random.Random(seed) for _ in range(3))
    masks = np.zeros((1, adapter.action_size), dtype=np.bool_)
    rows = np.zeros((1, (5 + players) * 52), dtype=np.float32)
    for _ in range(2):  # two deals from one random stream
        batch.deal(0, batch_rng)
        deal = new_deal(rules, players, engine_rng.randrange(players), engine_rng)
        _engine_to_agent(deal, seat, engine_rng)
        while deal.turn >= 0:
            assert batch.engine_deal(0) == deal
            slots = adapter.slots(deal, deal.legal_actions())
            assert set(slots_of(batch, 0)) == set(slots) == set(batch.legal_slot_list(0))
            batch.write_masks(masks)
            assert set(np.flatnonzero(masks[0])) == set(slots)
            batch.write_observations(rows)
            assert np.array_equal(rows[0], adapter.encode_deal(deal, seat).reshape(-1))
            for slot in range(adapter.action_size):
                assert batch.is_legal(0, slot) == (slot in slots)
            action = agent.choice(sorted(slots))
            deal.push(slots[action])
            _engine_to_agent(deal, seat, engine_rng)
            assert batch.play_agent(0, action, batch_rng) == (1 if deal.turn < 0 else 0)
        assert batch.engine_deal(0) == deal
        assert batch.points(0) == deal.points()
        batch.write_observations(rows)  # the last observation, nobody to move
        assert np.array_equal(rows[0], adapter.encode_deal(deal, seat).reshape(-1))
        batch.write_masks(masks)
        assert not masks.any()


def test_a_batch_writes_each_deal_into_its_own_row() -> None:
    """Rows of a batch are independent: deal i's row is what a batch of that deal alone
    writes, also when only some rows are asked for."""
    rules = KonchinkaRules()
    batch = KonchinkaBatch(rules, 3, 1, 32, 4)
    single = KonchinkaBatch(rules, 3, 1, 32, 1)
    for i in range(4):
        batch.deal(i, random.Random(i))
    rows = np.zeros((4, 8 * 52), dtype=np.float32)
    batch.write_observations(rows)
    some = np.zeros((2, 8 * 52), dtype=np.float32)
    batch.write_observations(some, [3, 1])
    masks = np.zeros((4, 52 * 32), dtype=np.bool_)
    batch.write_masks(masks)
    for i in range(4):
        single.deal(0, random.Random(i))
        row = np.zeros((1, 8 * 52), dtype=np.float32)
        single.write_observations(row)
        mask = np.zeros((1, 52 * 32), dtype=np.bool_)
        single.write_masks(mask)
        assert np.array_equal(rows[i], row[0]) and np.array_equal(masks[i], mask[0])
    assert np.array_equal(some, rows[[3, 1]])
