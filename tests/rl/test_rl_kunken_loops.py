"""The Kunken environments' compiled loops (``konkun.rl.kunken_loops``) and C rows
(``konkun.rl.tensor_rows``): the C ``append_bytes`` against ``bytes`` (and on bad
input), the slot bases pickled by value, the one-pass reading of the movers' slots and
views against the adapter's, and ``write_rows`` against the adapter's tensors and on bad
input (refused before anything is written)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun import rl
from konkun.rl import kunken_loops
from konkun.rl.envs import kunken_vector_env
from konkun.rl.kunken_adapter import KunkenAdapter
from konkun.rl.kunken_vector import KunkenCore
from native_checks import require_native


def c_append_bytes() -> object:
    """The C ``append_bytes`` (skipped unless built; CI requires it)."""
    require_native(kunken_loops.C_ROWS is not None, "konkun.rl.tensor_rows")
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


def _rows_case() -> tuple[Any, list[Any], list[Any]]:
    """The C ``write_rows``, valid arguments for it (a 2-seat vector core's 4 deals after
    40 random steps, as ``KunkenCore._write_rows`` passes them) and the deals."""
    require_native(KunkenCore.write_in_c is not None, "konkun.rl.tensor_rows")
    env = kunken_vector_env(4, 2)
    env.reset(seed=8)
    rng = random.Random(8)
    for _ in range(40):
        env.step([rng.choice(np.flatnonzero(row).tolist()) for row in env.action_masks()])
    core = env._core  # noqa: SLF001  (the core's own arrays, as it passes them)
    seats = [0, 1, 1, 0]
    dense, banks, scalars = kunken_loops.read_views(core.deals, [0, 1, 2, 3], seats)
    n, t = 2, core.kunken.table_slots
    out = np.zeros((4, (15 + 2 * n + t) * 53), dtype=np.float32)
    args = [out, dense, banks, scalars, seats, [0, 1, 2, 3], core._laid,  # noqa: SLF001
            core._owners, core.kunken.card_scale, (n, t, 15 + 2 * n + t),  # noqa: SLF001
            core._norms]  # noqa: SLF001
    return core.write_in_c, args, core.deals


def test_c_rows_equal_the_adapters_tensors_but_the_meld_rows() -> None:
    write, args, deals = _rows_case()
    write(*args)
    adapter = KunkenAdapter()
    melds = range(17, 17 + adapter.table_slots)  # 2 seats: rows 13 + 2n .. 12 + 2n + t
    for j, seat in enumerate(args[4]):
        fresh = adapter.encode_deal(deals[j], seat)
        rows = args[0][j].reshape(-1, 53)
        assert rows.any()
        kept = [r for r in range(len(fresh)) if r not in melds]
        assert np.array_equal(rows[kept], fresh[kept]), f"deal {j}"


BAD_ROWS_ARGUMENTS: list[tuple[int, Any, type[Exception], str]] = [
    (3, lambda a: a[3][:-1], ValueError, "need 4 seats and"),
    (3, lambda a: [*a[3][:2], "x", *a[3][3:]], TypeError, "scalars 2 must be an int"),
    (4, lambda a: [0, 1, 2, 0], ValueError, "seats 2 is 2"),
    (5, lambda a: [0, 1, 2, 9], ValueError, "deals 3 is 9"),
    (2, lambda a: a[2][:-1], ValueError, "banks holds"),
    (2, lambda a: bytes([60]) + a[2][1:], ValueError, "banks card 0 is 60"),
    (1, lambda a: a[1][:-1], ValueError, "dense must hold"),
    (0, lambda a: a[0][:, :-1].copy(), ValueError, "out must hold"),
    (0, lambda a: a[0].astype(np.float64), ValueError, "out must hold"),
    (7, lambda a: np.full_like(a[7], 5), ValueError, "owners 0 is 5"),
    (9, lambda a: (2, 1, 3), ValueError, "bad shape"),
]
"""Which argument of ``write_rows`` is spoiled, how (from the valid arguments), and the
error that names it."""


@pytest.mark.parametrize(("position", "spoil", "error", "named"), BAD_ROWS_ARGUMENTS)
def test_c_rows_refuse_bad_input_before_writing(position: int, spoil: Any,
                                                error: type[Exception], named: str) -> None:
    write, args, _ = _rows_case()
    args[position] = spoil(args)
    out = args[0]
    before = out.copy()
    with pytest.raises(error, match=named):
        write(*args)
    assert np.array_equal(out, before)


def test_c_rows_refuse_a_read_only_out() -> None:
    write, args, _ = _rows_case()
    args[0].flags.writeable = False
    with pytest.raises((BufferError, ValueError)):
        write(*args)
