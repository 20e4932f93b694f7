"""The app's machinery on the toy game: keys play moves, bots answer, help, typing,
save and resume."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from konkun.tui.app import HelpScreen, PlayApp
from konkun.tui.session import PlaySession


def test_a_whole_toy_deal_is_played_with_move_keys(tmp_path: Path) -> None:
    asyncio.run(_play_toy(tmp_path))


async def _play_toy(tmp_path: Path) -> None:
    session = PlaySession.new("toy", 2, ["random"], seed=3)
    app = PlayApp(session, tmp_path / "save.json", bot_delay=0)
    async with app.run_test() as pilot:
        for _ in range(200):
            if session.match.deal_points:
                break
            assert session.human_to_move()
            await pilot.press("1")
        assert len(session.match.deal_points) >= 1
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+s")
        saved = json.loads((tmp_path / "save.json").read_text())
        assert saved["record"]["actions"] == list(session.match.record().to_json()["actions"])
    resumed = PlaySession.resume(tmp_path / "save.json")
    assert resumed.match.totals == session.match.totals
