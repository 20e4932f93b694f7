"""Write the seed → deal golden files of both games (``tests/golden/*.deals``).

    PYTHONPATH=/tmp/old/src .venv/bin/python tests/golden/generate_deals.py

Run once, with the engines of commit c7051c8 (``git archive c7051c8 | tar -x -C
/tmp/old``), whose shuffles, cuts, table fixes and first-dealer draws were CPython
3.11's own ``Random.shuffle``, ``randint`` and ``sample``: the files pin what the stored
games and the seeded tests were made with, and ``test_golden_deals.py`` checks that
:mod:`konkun.cards`' stable draws still give exactly these deals. Only public calls
present in both versions are used.

One JSON object per line: the game, the variant (Konchinka), the seat count and the
seed; then what a match's random source gives, in order: the first-dealer draw, the
first deal, the next deal from the same stream (the dealer rotated left); and a
determinization of the first deal as seat 0 sees it, drawn from a fresh source of the
same seed (information-set search).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from konkun.cards import draw_for_dealer, rng_for_seed
from konkun.konchinka import KonchinkaMatch, KonchinkaRules
from konkun.konchinka.dealing import new_deal
from konkun.kunken import KunkenMatch, KunkenRules
from konkun.kunken.state import KunkenDeal

SEEDS: tuple[int | str, ...] = (
    0, 1, 7, 42, 2024, 2**40 + 3, "a", "table-17",
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
"""Integer seeds (Mersenne Twister) and text seeds (:class:`konkun.cards.HashRandom`)."""

KONCHINKA_SEATS = (2, 3, 4)
KUNKEN_SEATS = (2, 3, 4, 5)
HERE = Path(__file__).parent


def draws_json(rounds: list[dict[int, Any]]) -> list[dict[str, str]]:
    """A first-dealer draw: per round, seat (as text) → card text."""
    return [{str(seat): str(card) for seat, card in sorted(r.items())} for r in rounds]


def kunken_cards(deal: KunkenDeal) -> dict[str, Any]:
    """The dealt cards of a Kunken deal: hands, bank and stock (next card to draw last)."""
    data = deal.to_json()
    return {key: data[key] for key in ("dealer", "hands", "bank", "stock")}


def konchinka_entry(variant: str, seats: int, seed: int | str) -> dict[str, Any]:
    """One Konchinka line."""
    rules = KonchinkaRules.preset(variant)
    match = KonchinkaMatch(rules, seats, seed)
    stream = rng_for_seed(seed)
    first, draws = draw_for_dealer(seats, stream)
    deal = new_deal(rules, seats, first, stream)
    assert (first, deal.kpn()) == (match.first_dealer, match.deal.kpn())
    following = new_deal(rules, seats, (first + 1) % seats, stream)
    sampled = deal.observe(0).sample_deal(rng_for_seed(seed))
    return {"game": "konchinka", "variant": variant, "seats": seats, "seed": seed,
            "dealer_draws": draws_json(draws), "first_dealer": first, "deal": deal.kpn(),
            "next_deal": following.kpn(), "sampled_for_seat_0": sampled.kpn()}


def kunken_entry(seats: int, seed: int | str) -> dict[str, Any]:
    """One Kunken line (default rules: 108 cards, 13 to a hand)."""
    rules = KunkenRules()
    match = KunkenMatch(rules, seats, seed)
    stream = rng_for_seed(seed)
    first, draws = draw_for_dealer(seats, stream)
    deal = KunkenDeal.new(rules, seats, first, stream)
    assert (first, kunken_cards(deal)) == (match.first_dealer, kunken_cards(match.deal))
    following = KunkenDeal.new(rules, seats, (first + 1) % seats, stream)
    sampled = deal.observe(0).sample_deal(rng_for_seed(seed))
    return {"game": "kunken", "seats": seats, "seed": seed,
            "dealer_draws": draws_json(draws), "first_dealer": first,
            "deal": kunken_cards(deal), "next_deal": kunken_cards(following),
            "sampled_for_seat_0": kunken_cards(sampled)}


def entries(game: str) -> list[dict[str, Any]]:
    """Every line of one game's file, in file order."""
    if game == "konchinka":
        return [konchinka_entry(variant, seats, seed) for variant in ("classic", "novo")
                for seats in KONCHINKA_SEATS for seed in SEEDS]
    return [kunken_entry(seats, seed) for seats in KUNKEN_SEATS for seed in SEEDS]


def main() -> None:
    """Write both files."""
    for game in ("konchinka", "kunken"):
        lines = [json.dumps(entry, sort_keys=True) for entry in entries(game)]
        (HERE / f"{game}.deals").write_text("\n".join(lines) + "\n")
        print(f"{game}.deals: {len(lines)} deals")


if __name__ == "__main__":
    main()
