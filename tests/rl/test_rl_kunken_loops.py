"""The Kunken environments' compiled loops (``konkun.rl.kunken_loops``): the C core's
``append_bytes`` against ``bytes`` (and on bad input), the slot bases pickled by value, and
the one-pass reading of the movers' slots and views against the adapter's."""

from __future__ import annotations

import os
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun import rl
from konkun.rl import kunken_loops
from konkun.rl.kunken_adapter import KunkenAdapter


def c_append_bytes() -> object:
    """The C core's ``append_bytes`` (skipped unless built; CI requires it)."""
    if kunken_loops.append_bytes is kunken_loops.append_bytes_pure:
        if os.environ.get("KONKUN_REQUIRE_NATIVE") == "1":
            pytest.fail("KONKUN_REQUIRE_NATIVE=1 but the C core is not built")
        pytest.skip("the C core is not built (python -m konkun.native --build)")
    return kunken_loops.append_bytes


@settings(max_examples=60, deadline=None)
@given(start=st.binary(max_size=20), items=st.lists(st.integers(0, 255), max_size=120))
def test_append_bytes_appends_what_bytes_makes(start: bytes, items: list[int]) -> None:
    for append in (kunken_loops.append_bytes_pure, kunken_loops.append_bytes):
        out = bytearray(start)
        append(out, items)
        assert out == start + bytes(items)


@pytest.mark.parametrize(("items", "error", "named"), [
    ([1, 2, 256], ValueError, "items 2 is 256"),
    ([1, -1], ValueError, "items 1 is -1"),
    ([1, "2"], TypeError, "items 1 must be an int"),
    ([True], TypeError, "items 0 must be an int"),
    ((1, 2), TypeError, "items must be a list"),
])
def test_c_append_bytes_refuses_bad_items_and_leaves_out_unchanged(
        items: object, error: type[Exception], named: str) -> None:
    append = c_append_bytes()
    out = bytearray(b"kept")
    with pytest.raises(error, match=named):
        append(out, items)  # type: ignore[operator]
    assert out == b"kept"


def test_c_append_bytes_refuses_an_out_that_is_not_a_bytearray() -> None:
    append = c_append_bytes()
    with pytest.raises(TypeError, match="out must be a bytearray, not bytes"):
        append(b"", [1])  # type: ignore[operator]
    with pytest.raises(TypeError, match="takes 2 arguments"):
        append(bytearray())  # type: ignore[operator]


def test_slot_bases_pickle_by_value_and_give_the_adapters_slots() -> None:
    adapter = KunkenAdapter()
    bases = pickle.loads(pickle.dumps(adapter.bases))
    deal = adapter.new_deal(2, random.Random(3))
    rng = random.Random(4)
    for _ in range(200):
        if deal.to_move is None:
            break
        legal = deal.legal_actions()
        assert bases.slots(len(deal.bank), legal) == adapter.slots(deal, legal)
        deal.push(legal[rng.randrange(len(legal))])


def test_observe_movers_reads_each_movers_slots_and_view_in_one_pass() -> None:
    adapter = KunkenAdapter()
    rng = random.Random(5)
    deals = [adapter.new_deal(3, rng) for _ in range(6)]
    for deal in deals:  # different points of the deal
        for _ in range(rng.randrange(60)):
            legal = deal.legal_actions()
            if deal.to_move is None:
                break
            deal.push(legal[rng.randrange(len(legal))])
    live = [deal for deal in deals if deal.to_move is not None]
    size = adapter.action_size
    slot_maps: list[dict[int, object]] = [{} for _ in live]
    seats, cells, views = kunken_loops.observe_movers(
        live, -1, adapter.bases, size, slot_maps)  # type: ignore[arg-type]
    assert seats == [deal.to_move for deal in live]
    assert slot_maps == [adapter.slots(deal, deal.legal_actions()) for deal in live]
    assert cells == [i * size + slot for i, slots in enumerate(slot_maps) for slot in slots]
    rows = list(range(len(live)))
    assert views == kunken_loops.read_views(live, rows, seats)  # type: ignore[arg-type]


def test_the_loops_are_compiled_with_the_engine() -> None:
    """``konkun.rl`` turns to the build exactly when the engine does (CI builds it)."""
    from konkun import kunken

    assert rl.NATIVE == kunken.NATIVE
    if kunken.NATIVE:
        assert kunken_loops.__file__.endswith(".so")
