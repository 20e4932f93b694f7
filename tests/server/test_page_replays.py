"""The replays the page's fair-deal check is unit-tested on (tests/js/replays, written by
tests/js/make_replays.py) are documents the server could have served: ``konkun verify``
accepts each, so the node tests check the page against what Python verifies."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from konkun.verify import verify_document

REPLAYS = Path(__file__).resolve().parents[1] / "js" / "replays"


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_page_tests_replays_pass_konkun_verify(game: str) -> None:
    document = json.loads(gzip.decompress((REPLAYS / f"{game}.json.gz").read_bytes()))
    assert document["record"]["game"] == game
    verdict = verify_document(document)
    assert verdict.ok, verdict
