"""The Konchinka search policy plays out an engine deal through the engine's fast
interface, and the result is the same as through the public API's moves."""

from __future__ import annotations

import random

import pytest

from konkun.bots.konchinka_greedy import KonchinkaPolicy
from konkun.konchinka import KonchinkaRules, deal_from_seed


def test_a_konchinka_deal_is_played_out_on_the_fast_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def public(*_: object) -> list[float]:
        raise AssertionError("the public play-out was used for an engine deal")

    monkeypatch.setattr(KonchinkaPolicy, "_play_out_public", public)
    deal = deal_from_seed(KonchinkaRules.preset("classic"), 3, 0, 6)
    before = deal.position()
    points = KonchinkaPolicy().play_out(deal, random.Random(2))
    assert len(points) == 3 and all(0.0 <= p <= 5.0 for p in points)
    assert deal.position() != before  # the play-out moved the deal on
    assert deal.redeal_after[-1] or deal.is_over()  # up to the first redeal (one round)
