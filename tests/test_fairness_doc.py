"""docs/fairness.md's worked example, read from the page's text and recomputed twice: with
hashlib and an independent implementation of the documented stream, draw, shuffle, cut
and deal (no konkun code), and with konkun's own scheme and engine."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from konkun.cards import Card, format_cards, parse_cards
from konkun.fairness import (
    Contribution,
    action_digest,
    commitment,
    match_seed,
    table_digest,
)
from konkun.konchinka import KonchinkaMatch, KonchinkaRules
from konkun.kunken import KunkenMatch, KunkenRules

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


def _documented_draw(stream: DocumentedStream, seats: int) -> int:
    """The draw for the first dealer as docs/fairness.md words it; the dealer's seat."""
    contenders = list(range(seats))
    while True:
        drawn: list[int] = []
        for _seat in contenders:
            j = stream.below(52)
            while j in drawn:
                j = stream.below(52)
            drawn.append(j)
        best = max(j % 13 for j in drawn)
        contenders = [s for s, j in zip(contenders, drawn, strict=True) if j % 13 == best]
        if len(contenders) == 1:
            return contenders[0]


def _documented_konchinka_deal(stream: DocumentedStream, seats: int, dealer: int,
                               no_jacks: bool) -> tuple[list[set[str]], set[str], str]:
    """The documented Konchinka deal: hands, table and stock (top first) as card texts."""
    deck = list(range(52))
    stream.shuffle(deck)
    cut = stream.integer(4, 48)
    deck = deck[cut:] + deck[:cut]
    hands: list[list[int]] = [[] for _ in range(seats)]
    table: list[int] = []
    for _round in range(4):
        for k in range(seats):
            hands[(dealer + 1 + k) % seats].append(deck.pop(0))
        table.append(deck.pop(0))
    order = list(range(4))
    while True:
        seen: list[int] = []
        offending = None
        for position in order:
            rank = table[position] % 13
            if (no_jacks and rank == 9) or rank in seen:
                offending = position
                break
            seen.append(rank)
        if offending is None:
            break
        size = len(deck)
        deck.insert(stream.integer(size // 4, size - size // 4), table[offending])
        table[offending] = deck.pop(0)
        order.remove(offending)
        order.append(offending)
    return ([{_card(c) for c in hand} for hand in hands], {_card(c) for c in table},
            "".join(_card(c) for c in deck))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_documented_konchinka_deals_are_the_engines(seats: int) -> None:
    fixed = 0
    for number in range(40):
        seed = match_seed("5e" * 32, [Contribution(0, f"{number:064x}")])
        stream = DocumentedStream(seed)
        dealer = _documented_draw(stream, seats)
        hands, table, stock = _documented_konchinka_deal(stream, seats, dealer, True)
        match = KonchinkaMatch(KonchinkaRules.preset("classic"), seats, seed)
        deal = match.deal
        assert match.first_dealer == dealer
        assert [{c.text for c in deal.hand(s)} for s in range(seats)] == hands
        assert {c.text for c in deal.table} == table
        assert format_cards(deal.stock) == stock
        fixed += bool(deal.returned_to_stock)
    assert fixed > 0  # the initial-table fix was exercised


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_documented_kunken_deals_are_the_engines(seats: int) -> None:
    for number in range(10):
        seed = match_seed("6f" * 32, [Contribution(1, f"{number:064x}")])
        stream = DocumentedStream(seed)
        dealer = _documented_draw(stream, seats)
        pack = list(range(52)) * 2 + [52] * 4
        stream.shuffle(pack)
        hands: list[list[int]] = [[] for _ in range(seats)]
        for _round in range(13):
            for k in range(seats):
                hands[(dealer + 1 + k) % seats].append(pack.pop(0))
        bank = pack.pop(0)
        match = KunkenMatch(KunkenRules(), seats, seed)
        deal = match.deal
        assert match.first_dealer == dealer
        for seat in range(seats):
            assert [deal.hands[seat][i] for i in range(53)] == [hands[seat].count(i)
                                                                for i in range(53)]
        assert deal.bank == [bank]
        assert list(reversed(deal.stock)) == pack


def test_the_worked_example_follows_from_the_documented_hashes() -> None:
    ex = _example()
    assert hashlib.sha256(ex["S"].encode()).hexdigest() == ex["C"]
    message = f"konkun-fair-v1\n{ex['S']}\n0:{ex['V0']}\n1:{ex['V1']}\n"
    assert hashlib.sha256(message.encode()).hexdigest() == ex["M"]
    rules = json.loads(ex["rules"])
    assert json.dumps(rules, sort_keys=True, separators=(",", ":")) == ex["rules"]
    first = f"{ex['C']}\nkonchinka\n2\n{ex['rules']}\n"
    assert hashlib.sha256(first.encode()).hexdigest() == ex["D0"]
    assert hashlib.sha256(f"{ex['D0']}\n1:1:Jc\n".encode()).hexdigest() == ex["D1"]


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
    assert match.rules.to_json() == json.loads(ex["rules"])
    first = table_digest(ex["C"], "konchinka", 2, match.record().to_json()["rules"])
    assert first == ex["D0"]
    assert action_digest(first, 1, 1, "Jc") == ex["D1"]
    match.play(deal.parse_action("Jc"))
    assert Card.parse("Jc") not in match.deal.hand(1)


def test_the_shell_check_by_hand_prints_the_worked_example(tmp_path: Path) -> None:
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum here")
    text = DOC.read_text(encoding="utf-8")
    script = text.split("### Checking by hand", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    ex = _example()
    env = {"PATH": os.environ["PATH"], "S": ex["S"], "C": ex["C"], "V0": ex["V0"],
           "V1": ex["V1"], "RULES": ex["rules"], "D0": ex["D0"]}
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                            timeout=30, check=True)
    printed = [line.split()[0] for line in result.stdout.splitlines()]
    assert printed == [ex["C"], ex["M"], ex["D0"], ex["D1"]]
