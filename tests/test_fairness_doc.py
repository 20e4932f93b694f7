"""docs/fairness.md's worked example, read from the page's text and recomputed twice: with
hashlib and an independent implementation of the documented stream, draw, shuffle, cut
and deal (no konkun code), and with konkun's own scheme and engine."""

from __future__ import annotations

import hashlib
from pathlib import Path

from konkun.cards import Card, format_cards, parse_cards
from konkun.fairness import Contribution, action_digest, commitment, match_seed
from konkun.konchinka import KonchinkaMatch, KonchinkaRules

DOC = Path(__file__).resolve().parents[1] / "docs" / "fairness.md"


def _example() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## Worked example", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    values = {}
    for line in block.strip().splitlines():
        name, _, value = line.partition("=")
        values[name.strip()] = value.strip()
    return values


class DocumentedStream:
    """The bit stream, ``below`` and the shuffle exactly as docs/fairness.md words them."""

    def __init__(self, seed: str) -> None:
        self.key = seed.encode("ascii")
        self.bits_text = ""
        self.block = 0

    def bits(self, k: int) -> int:
        while len(self.bits_text) < k:
            digest = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
            self.bits_text += "".join(f"{byte:08b}" for byte in digest)
            self.block += 1
        taken, self.bits_text = self.bits_text[:k], self.bits_text[k:]
        return int(taken, 2) if taken else 0

    def below(self, n: int) -> int:
        while True:
            r = self.bits(n.bit_length())
            if r < n:
                return r

    def shuffle(self, x: list[int]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def integer(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)


def _card(number: int) -> str:
    rank = "23456789TJQKA"[number % 13]
    return rank + "cdhs"[number // 13]


def test_the_worked_example_follows_from_the_documented_hashes() -> None:
    ex = _example()
    assert hashlib.sha256(ex["S"].encode()).hexdigest() == ex["C"]
    message = f"konkun-fair-v1\n{ex['S']}\n0:{ex['V0']}\n1:{ex['V1']}\n"
    assert hashlib.sha256(message.encode()).hexdigest() == ex["M"]
    assert hashlib.sha256(f"{ex['C']}\n1:1:Jc\n".encode()).hexdigest() == ex["D1"]


def test_the_worked_example_deal_follows_from_the_documented_stream() -> None:
    ex = _example()
    stream = DocumentedStream(ex["M"])
    drawn: list[int] = []
    for _seat in range(2):
        j = stream.below(52)
        while j in drawn:
            j = stream.below(52)
        drawn.append(j)
    assert ex["draw"] == f"seat 0 {_card(drawn[0])}, seat 1 {_card(drawn[1])}"
    dealer = 0 if drawn[0] % 13 > drawn[1] % 13 else 1  # no tie in this example
    assert ex["dealer"] == str(dealer)
    deck = list(range(52))
    stream.shuffle(deck)
    cut = stream.integer(4, 48)
    deck = deck[cut:] + deck[:cut]
    hands: list[list[int]] = [[], []]
    table: list[int] = []
    for _round in range(4):
        for k in range(2):
            hands[(dealer + 1 + k) % 2].append(deck.pop(0))
        table.append(deck.pop(0))
    for seat in range(2):
        assert {_card(c) for c in hands[seat]} == {c.text for c in parse_cards(ex[f"hand {seat}"])}
    assert {_card(c) for c in table} == {c.text for c in parse_cards(ex["table"])}
    assert "".join(_card(c) for c in deck) == ex["stock"]


def test_konkun_computes_the_same_worked_example() -> None:
    ex = _example()
    assert commitment(ex["S"]) == ex["C"]
    seed = match_seed(ex["S"], [Contribution(1, ex["V1"]), Contribution(0, ex["V0"])])
    assert seed == ex["M"]
    match = KonchinkaMatch(KonchinkaRules.preset("classic"), 2, seed)
    assert match.first_dealer == int(ex["dealer"])
    draws = match.dealer_draws
    assert ex["draw"] == ", ".join(f"seat {s} {c.text}" for s, c in sorted(draws[0].items()))
    deal = match.deal
    for seat in range(2):
        assert format_cards(deal.hand(seat)) == ex[f"hand {seat}"]
    assert format_cards(deal.table) == ex["table"]
    assert format_cards(deal.stock) == ex["stock"]
    assert deal.to_move == 1
    assert action_digest(ex["C"], 1, 1, "Jc") == ex["D1"]
    match.play(deal.parse_action("Jc"))
    assert Card.parse("Jc") not in match.deal.hand(1)
