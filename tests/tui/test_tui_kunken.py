"""``konkun play kunken`` headlessly: a whole deal played by key presses with Textual's
pilot; the board shows the bank with its positions, the melds and the hand."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from tui_checks import running, widget_text

from konkun.cards import Card
from konkun.tui.app import MOVE_KEYS, GameScreen
from konkun.tui.session import PlaySession


async def _play_one_deal(session: PlaySession, save: Path) -> list[str]:
    boards: list[str] = []
    async with running(session, save, size=(120, 50)) as (app, pilot):
        assert isinstance(app.screen, GameScreen)
        presses = 0
        while not session.match.deal_points:
            assert session.human_to_move()
            if presses % 10 == 0:
                boards.append(widget_text(app, "#board"))
            legal = [session.format(a) for a in session.legal()]
            # take the bank when allowed (then meld), else the first action shown
            choice = next((i for i, t in enumerate(legal[:len(MOVE_KEYS)])
                           if t.startswith(("take", "meld"))), 0)
            await pilot.press(MOVE_KEYS[choice])
            presses += 1
        boards.append(widget_text(app, "#board"))
        await pilot.press("ctrl+s")
    return boards


def test_a_whole_kunken_deal_is_played_with_keys_only(tmp_path: Path) -> None:
    """Five players and ``empty_stock=end``: the 42 stock cards last about eight turns
    each, so the human plays the whole deal with a few dozen key presses."""
    session = PlaySession.new("kunken", 5, ["greedy", "random", "random", "greedy"],
                              {"empty_stock": "end"}, seed=21)
    boards = asyncio.run(_play_one_deal(session, tmp_path / "kunken.json"))
    assert len(session.match.deal_points) == 1
    assert all("Bank" in board and "Your hand" in board for board in boards)
    assert "Deal 1:" in boards[-1]
    saved = json.loads((tmp_path / "kunken.json").read_text())
    resumed = PlaySession.resume(tmp_path / "kunken.json")
    assert saved["record"]["game"] == "kunken"
    assert resumed.match.totals == session.match.totals
    assert resumed.match.deal.observe(0).to_json() == session.match.deal.observe(0).to_json()


def _shown(index: int) -> str:
    card = Card.from_index(index)
    return "X" if card.rank is None or card.suit is None else card.rank.symbol + card.suit.glyph


def test_the_bank_is_shown_oldest_first_with_positions() -> None:
    """Played until the bank holds a few discards: position 0 shows the oldest card,
    the last position the newest."""
    session = PlaySession.new("kunken", 3, ["random"], seed=2)
    session.run_bots()
    while len(session.match.deal.observe(0).bank) < 3:
        session.play(session.legal()[0])
        session.run_bots()

    async def run() -> str:
        async with running(session, size=(120, 50)) as (app, _):
            return widget_text(app, "#board")

    board = asyncio.run(run())
    bank = session.match.deal.observe(0).bank
    assert _shown(bank[0]) != _shown(bank[-1])
    assert "0:" in board and f"{len(bank) - 1}:" in board
    assert re.search(rf"(?<!\d)0:{re.escape(_shown(bank[0]))}", board)
    assert re.search(rf"(?<!\d){len(bank) - 1}:{re.escape(_shown(bank[-1]))}", board)


def test_cards_laid_off_by_another_seat_are_marked_and_score_for_that_seat() -> None:
    """RULES.md: each card scores for whoever laid it. The human's sequence 8s 9s Ts with
    Js laid off by the human and 7s, Qs by the bot: the board shows the human's 5 + 5 + 5
    + 10 = 25 and the bot's 5 + 10 = 15 on that row, the bot's cards in italics."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from konkun.kunken.melds import TableMeld, parse_slot
    from konkun.tui.boards import _kunken_melds

    session = PlaySession.new("kunken", 2, ["random"], seed=3)
    slots = [parse_slot(card) for card in ("7s", "8s", "9s", "Ts", "Js", "Qs")]
    meld = TableMeld(0, slots, [1, 0, 0, 0, 0, 1])
    obs = type("Obs", (), {"melds": [meld]})()
    board = _kunken_melds(session, obs)
    assert isinstance(board, Table)
    console = Console(width=120, record=True)
    console.print(board)
    assert "25 + 15 random (1)" in " ".join(console.export_text().split())
    cards = next(iter(board.columns[2].cells))
    assert isinstance(cards, Text)
    italic = [cards.plain[span.start:span.end] for span in cards.spans if span.style == "italic"]
    assert italic == ["7s", "Qs"]
