"""Write the seed → deal golden files of the rule options that change the cards dealt:
``konchinka_short.deals`` (short decks, the research option ``deck_ranks``) and
``kunken_options.deals`` (``jokers`` and ``hand_size``).

    .venv/bin/python tests/golden/generate_rule_deals.py

Unlike ``generate_deals.py`` (pinned to an old commit), these files are written by the
current engines: ``test_rule_deals.py`` regenerates them in memory and asserts they equal
the files, so they never drift from the engines; ``tests/js/fairness.test.js`` checks
that the replay page's fair-deal check deals exactly the same cards from the same seeds.

One JSON object per line: the game, the seat count, the text seed (a match seed is one,
:class:`konkun.cards.HashRandom`), the rules as a record holds them (``to_json``), the
first dealer drawn from the seed's stream, the first deal and the next deal from the same
stream (the dealer rotated left).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from konkun.cards import draw_for_dealer, rng_for_seed
from konkun.errors import InvalidRuleError
from konkun.konchinka import KonchinkaMatch, KonchinkaRules
from konkun.konchinka.dealing import new_deal
from konkun.konchinka.rules import MAX_SEATS, MIN_SEATS, WHOLE_DECK_RANKS
from konkun.kunken import KunkenMatch, KunkenRules
from konkun.kunken.state import KunkenDeal
from konkun.kunken.state import new_deal as new_kunken_deal

SEEDS: tuple[str, ...] = (
    "a", "table-17", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
"""Text seeds (a match's seed is a text: the keyed SHA-256 stream the page recomputes)."""

KUNKEN_SEATS = (2, 3, 4, 5)
KUNKEN_RULES: tuple[KunkenRules, ...] = (
    KunkenRules(jokers=0), KunkenRules(jokers=2, hand_size=7),
    KunkenRules(jokers=1, hand_size=20), KunkenRules(hand_size=1))
"""The Kunken options that change the pack or the hands, in a few combinations."""

HERE = Path(__file__).parent
FILES = {"konchinka": "konchinka_short.deals", "kunken": "kunken_options.deals"}
"""Each game's golden file, in this folder."""


def short_decks(seats: int) -> list[int]:
    """Every ``deck_ranks`` shorter than the whole deck that deals out to ``seats``."""
    fits = []
    for ranks in range(7, WHOLE_DECK_RANKS):
        try:
            KonchinkaRules(deck_ranks=ranks).check_deck(seats)
        except InvalidRuleError:
            continue
        fits.append(ranks)
    return fits


def konchinka_rules() -> list[tuple[int, KonchinkaRules]]:
    """Each seat count with each short deck it allows; the decks that hold Jacks also
    without the rule that keeps them off the first table."""
    cases = []
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        for ranks in short_decks(seats):
            cases.append((seats, KonchinkaRules(deck_ranks=ranks)))
            if ranks >= 11:  # the Jack is in the deck
                cases.append((seats, KonchinkaRules(deck_ranks=ranks,
                                                    table_excludes_jacks=False)))
    return cases


def konchinka_entry(rules: KonchinkaRules, seats: int, seed: str) -> dict[str, Any]:
    """One Konchinka line."""
    match = KonchinkaMatch(rules, seats, seed)
    stream = rng_for_seed(seed)
    first, _ = draw_for_dealer(seats, stream)
    deal = new_deal(rules, seats, first, stream)
    assert (first, deal.kpn()) == (match.first_dealer, match.deal.kpn())
    following = new_deal(rules, seats, (first + 1) % seats, stream)
    return {"game": "konchinka", "seats": seats, "seed": seed, "rules": rules.to_json(),
            "first_dealer": first, "deal": deal.kpn(), "next_deal": following.kpn(),
            "returned_to_stock": len(deal.returned_to_stock)}


def kunken_cards(deal: KunkenDeal) -> dict[str, Any]:
    """The dealt cards of a Kunken deal: hands, bank and stock (next card to draw last)."""
    data = deal.to_json()
    return {key: data[key] for key in ("dealer", "hands", "bank", "stock")}


def kunken_entry(rules: KunkenRules, seats: int, seed: str) -> dict[str, Any]:
    """One Kunken line."""
    match = KunkenMatch(rules, seats, seed)
    stream = rng_for_seed(seed)
    first, _ = draw_for_dealer(seats, stream)
    deal = new_kunken_deal(rules, seats, first, stream)
    assert (first, kunken_cards(deal)) == (match.first_dealer, kunken_cards(match.deal))
    following = new_kunken_deal(rules, seats, (first + 1) % seats, stream)
    return {"game": "kunken", "seats": seats, "seed": seed, "rules": rules.to_json(),
            "first_dealer": first, "deal": kunken_cards(deal),
            "next_deal": kunken_cards(following)}


def entries(game: str) -> list[dict[str, Any]]:
    """Every line of one game's file, in file order."""
    if game == "konchinka":
        return [konchinka_entry(rules, seats, seed) for seats, rules in konchinka_rules()
                for seed in SEEDS]
    return [kunken_entry(rules, seats, seed) for seats in KUNKEN_SEATS
            for rules in KUNKEN_RULES for seed in SEEDS[1:]]


def text(game: str) -> str:
    """The text of one game's file."""
    return "".join(json.dumps(entry, sort_keys=True) + "\n" for entry in entries(game))


def main() -> None:
    """Write both files."""
    for game, name in FILES.items():
        (HERE / name).write_text(text(game))
        print(f"{name}: {len(entries(game))} deals")


if __name__ == "__main__":
    main()
