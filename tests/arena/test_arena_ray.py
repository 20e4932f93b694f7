"""The Ray backend runs the same work as the local one (issue 4: "tested in Ray's local
mode"; Ray 2.60 removed ``local_mode``, so this starts a private single-node Ray)."""

from __future__ import annotations

import pytest

from konkun.arena import ArenaConfig, run_arena

pytest.importorskip("ray")


@pytest.mark.slow
def test_ray_backend_gives_the_serial_results() -> None:
    config = ArenaConfig("toy", ("ismcts:iters=10", "greedy"), 2, games=6, seed=12)
    serial = run_arena(config, backend="serial")
    on_ray = run_arena(config, backend="ray", workers=2)
    assert [r.games for r in on_ray.results] == [r.games for r in serial.results]
