"""``konkun play``: an error shown to the human names only the human's cards and public
cards (issue 10, item 4). It used to quote the whole position: any bad move with ``:``
showed the opponent's hand and the stock in order."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tui_checks import running

from konkun.tui.session import PlaySession

CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]")


def hidden_konchinka(session: PlaySession) -> set[str]:
    """The cards the human may not see: other hands and the stock, less the cards the
    initial-table fix showed face up."""
    deal: Any = session.match.deal
    secret = {c.text for s, hand in enumerate(deal.hands) if s != session.human for c in hand}
    secret |= {c.text for c in deal.stock}
    return secret - {c.text for c, _low in deal.returned_to_stock}


def bad_konchinka_moves(session: PlaySession) -> list[str]:
    """Bad inputs naming no hidden card: text that is no move, a capture of a wrong sum
    with the human's own card, a capture of a card not on the table."""
    observation = session.match.deal.observe(session.human)
    mine = [c.text for c in observation.hand]
    table = [c.text for c in observation.table]
    return ["hello", "hello:", "zz:1", f"{mine[0]}:", f"{mine[0]}:{mine[1]}",
            f"{mine[0]}:{''.join(table)}", f"{mine[-1]}:{table[0]}{table[0]}"]


async def _notices_for(session: PlaySession, texts: list[str]) -> list[str]:
    shown: list[str] = []
    async with running(session) as (app, pilot):
        def capture(message: str, *args: Any, **kwargs: Any) -> None:
            shown.append(message)
        app.notify = capture  # type: ignore[method-assign]
        for text in texts:
            await pilot.press("colon")
            await pilot.press(*text, "enter")
            await pilot.pause()
    return shown


def test_a_bad_typed_konchinka_move_shows_no_hidden_card() -> None:
    session = PlaySession.new("konchinka", 2, ["random"], seed=3)
    session.run_bots()
    texts = bad_konchinka_moves(session)
    hidden = hidden_konchinka(session)
    shown = asyncio.run(_notices_for(session, texts))
    assert len(shown) == len(texts)  # each bad input got its error, none was played
    for text, notice in zip(texts, shown, strict=True):
        assert notice and not set(CARD.findall(notice)) & hidden, (text, notice)
