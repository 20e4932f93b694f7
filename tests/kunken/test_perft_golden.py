"""The engine's perft against the golden file written by the independent move generator
(``perft_oracle.py``, no engine code; ``perft/generate.py`` wrote ``perft/kunken.perft``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from konkun.kunken import KunkenDeal, parse_kkn

from . import perft_oracle as oracle

GOLDEN_FILE = Path(__file__).resolve().parent / "perft" / "kunken.perft"


@dataclass
class Golden:
    """One block of the golden file."""

    name: str
    kkn: str = ""
    counts: dict[int, int] = field(default_factory=dict)


def load_golden(path: Path) -> list[Golden]:
    """Read a golden file (format in ``perft/generate.py``)."""
    blocks: list[Golden] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            blocks.append(Golden(rest))
        elif word == "kkn":
            blocks[-1].kkn = rest
        elif word == "perft":
            depth, count = rest.split()
            blocks[-1].counts[int(depth)] = int(count)
        else:
            raise AssertionError(f"{path.name}: unknown line {line!r}")
    return blocks


GOLDEN = load_golden(GOLDEN_FILE)
IDS = [g.name for g in GOLDEN]
def _engine_texts(deal: KunkenDeal) -> dict[str, KunkenDeal]:
    """The engine's legal actions by their text as the oracle writes it (a meld's cards
    sorted), each with the deal after it."""
    out = {}
    for action in deal.legal_actions():
        child = deal.copy()
        child.push(action)
        words = action.text().split()
        text = "meld " + " ".join(sorted(words[1:])) if words[0] == "meld" else action.text()
        assert text not in out, f"{text} listed twice in {deal.kkn()}"
        out[text] = child
    return out


def _divided(golden: Golden, depth: int) -> str:
    state = oracle.parse(golden.kkn)
    theirs = oracle.divide(state, depth)
    deal = KunkenDeal.from_position(parse_kkn(golden.kkn))
    mine = {text: child.perft(depth - 1) for text, child in _engine_texts(deal).items()}
    lines = [f"perft {depth} divided for {golden.name}: {golden.kkn}"]
    for text in sorted(set(theirs) | set(mine)):
        mark = "" if theirs.get(text) == mine.get(text) else "   <-- differs"
        lines.append(f"{text:28} engine {mine.get(text, '-')!s:>8} oracle "
                     f"{theirs.get(text, '-')!s:>8}{mark}")
    return "\n".join(lines)


def test_the_golden_file_covers_every_seat_count_and_the_turns_steps() -> None:
    assert len(GOLDEN) >= 20 and len(set(IDS)) == len(IDS)
    assert {parse_kkn(g.kkn).num_seats for g in GOLDEN} == {2, 3, 4, 5}
    assert all(set(g.counts) >= {1, 2, 3} for g in GOLDEN)
    steps = {text.split()[0] for g in GOLDEN for text in oracle.divide(oracle.parse(g.kkn), 1)}
    assert steps >= {"draw", "take", "swap", "discard"}


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_golden_counts_are_the_oracles(golden: Golden) -> None:
    """The file was not edited by hand: the oracle still gives depths 1 to 3."""
    state = oracle.parse(golden.kkn)
    for depth in (1, 2, 3):
        assert oracle.perft(state, depth) == golden.counts[depth]


def _check_engine(golden: Golden, depths: list[int]) -> None:
    deal = KunkenDeal.from_position(parse_kkn(golden.kkn))
    before = deal.kkn()
    for depth in depths:
        expected = golden.counts[depth]
        got = deal.perft(depth)
        if got != expected:
            pytest.fail(f"perft {depth} of {golden.name}: engine {got}, oracle {expected}\n"
                        + _divided(golden, depth))
    assert deal.kkn() == before, "perft changed the position"


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_engine_perft_matches_the_independent_generator(golden: Golden) -> None:
    _check_engine(golden, sorted(golden.counts))


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_the_first_actions_are_the_oracles_one_by_one(golden: Golden) -> None:
    """The same action texts at the root and after each first action (two plies)."""
    state = oracle.parse(golden.kkn)
    deal = KunkenDeal.from_position(parse_kkn(golden.kkn))
    theirs = oracle.actions(state)
    mine = _engine_texts(deal)
    assert set(mine) == set(theirs)
    for text, child in mine.items():
        if child.is_over():
            assert theirs[text].to_move is None
            continue
        assert set(_engine_texts(child)) == set(oracle.actions(theirs[text])), text
