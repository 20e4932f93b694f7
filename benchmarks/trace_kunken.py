"""A digest of Kunken's legal action lists over seeded random play: run it on the old and
the new code (``PYTHONPATH=/tmp/old/src``) after a change to the engine's fast paths; the
same digest means the same legal lists. Run: ``.venv/bin/python benchmarks/trace_kunken.py
[--steps N]`` (N steps per rule variant and seat count, default 6000)."""

from __future__ import annotations

import argparse
import hashlib
import random

from konkun.kunken import KunkenRules
from konkun.kunken.state import new_deal

VARIANTS: list[dict[str, str]] = [
    {}, {"joker_for_held": "false"}, {"swap_before_take": "true"}, {"opening_minimum": "0"},
    {"opening_minimum": "70"}, {"jokers": "2"},
    {"joker_for_held": "false", "swap_before_take": "true"},
]


def trace(steps: int) -> tuple[int, str]:
    """(steps played, the digest of every legal list met, each sorted as text)."""
    digest = hashlib.sha256()
    count = 0
    for v, options in enumerate(VARIANTS):
        rules = KunkenRules.from_options(options)
        for seats in (2, 3, 4):
            rng = random.Random(1000 * v + seats)
            played = 0
            while played < steps:
                deal = new_deal(rules, seats, 0, rng)
                while not deal.is_over() and played < steps:
                    legal = deal.legal_actions()
                    digest.update("|".join(sorted(a.text() for a in legal)).encode())
                    deal.push(rng.choice(legal))
                    played += 1
            count += played
    return count, digest.hexdigest()


def main() -> None:
    """Print the steps and the digest."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=6000)
    count, digest = trace(parser.parse_args().steps)
    print(count, digest)


if __name__ == "__main__":
    main()
