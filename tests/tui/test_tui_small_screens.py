"""``konkun play`` on the smallest terminals it is made for, 80×24 and 40×12, driven
headlessly with Textual's pilot and read from the screen as drawn: every legal move can
be reached by paging, the help scrolls to its end, a deal's result is on screen, a bot's
obligation is not shown as the human's, and a resumed game keeps its move log."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from tui_checks import SMALL_SIZES, region_text, running, screen_lines

from konkun.tui import games
from konkun.tui.app import GameScreen, HelpScreen, PlayApp, paginate
from konkun.tui.session import PlaySession


def _kunken_with_many_moves() -> PlaySession:
    """A Kunken position where the human has taken the bank and has 44 melds to choose
    from: more than one page of keys."""
    session = PlaySession.new("kunken", 2, ["random"], seed=0)
    session.run_bots()
    session.play(session.legal()[-1])
    session.run_bots()
    assert len(session.legal()) == 44
    return session


def _moves_on_screen(app: PlayApp) -> dict[str, str]:
    """The moves the move list shows within the screen, by key (a move's text may wrap
    onto the next lines)."""
    parts = re.split(r"\[([1-9a-z])\] ", region_text(app, "#moves"))[1:]
    return dict(zip(parts[::2], (text.strip() for text in parts[1::2]), strict=True))


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_every_legal_move_is_shown_on_some_page_and_the_pager_counts_them(
        size: tuple[int, int]) -> None:
    """Paging with ``>`` through the move list shows each of the 44 legal moves exactly
    once, on as many pages as the title counts; the key shown plays that move."""
    session = _kunken_with_many_moves()
    legal = [session.format(a) for a in session.legal()]

    async def run() -> tuple[list[str], list[str], str]:
        seen: list[str] = []
        titles: list[str] = []
        async with running(session, size=size) as (app, pilot):
            assert isinstance(app.screen, GameScreen)
            for _ in range(len(legal)):
                moves = region_text(app, "#moves")
                titles.append(re.search(r"page (\d+)/(\d+)", moves).group(0))  # type: ignore[union-attr]
                seen.extend(_moves_on_screen(app).values())
                if len(seen) >= len(legal):
                    break
                await pilot.press("greater_than_sign")
            last_key, last_text = list(_moves_on_screen(app).items())[-1]
            await pilot.press(last_key)
            await pilot.pause()
            played = session.match.record().to_json()["actions"]
            assert played[-1] == last_text
        return seen, titles, last_text

    seen, titles, last = asyncio.run(run())
    assert sorted(seen) == sorted(legal)
    assert last == legal[-1]
    pages = len(titles)
    assert titles == [f"page {n}/{pages}" for n in range(1, pages + 1)]


def test_the_pages_hold_what_fits_and_never_more_moves_than_keys() -> None:
    assert paginate([1, 1, 1, 1, 1], rows=2, columns=1) == [range(2), range(2, 4),
                                                            range(4, 5)]
    assert paginate([1, 2, 2, 1], rows=3, columns=1) == [range(2), range(2, 4)]
    assert paginate([5], rows=3, columns=1) == [range(1)]
    assert paginate([1] * 50, rows=40, columns=1) == [range(35), range(35, 50)]
    assert paginate([1] * 7, rows=2, columns=3) == [range(6), range(6, 7)]
    assert paginate([], rows=3, columns=1) == [range(0)]


@pytest.mark.parametrize("size", SMALL_SIZES)
@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_help_scrolls_to_its_last_line(game: str, size: tuple[int, int]) -> None:
    session = PlaySession.new(game, 2, ["random"], seed=1)

    async def run() -> tuple[str, str]:
        async with running(session, size=size) as (app, pilot):
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            first = " ".join(" ".join(screen_lines(app)).split())
            await pilot.press("end")
            await pilot.pause()
            last = " ".join(" ".join(screen_lines(app)).split())
        return first, last

    first, last = asyncio.run(run())
    assert "konkun play: you play seat 0" in first
    assert "to close." not in first
    assert "to close." in last


def _finish_first_deal(session: PlaySession) -> None:
    while not session.match.deal_points:
        session.run_bots()
        if session.human_to_move():
            session.play(session.legal()[0])
    session.run_bots()


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_a_deals_result_and_the_games_are_on_screen(size: tuple[int, int]) -> None:
    """After a Kunken deal the next one starts: its result stays on screen until the
    human moves; a Konchinka game to 1 point ends after one deal, its winner on screen."""
    kunken = PlaySession.new("kunken", 2, ["greedy"], {"empty_stock": "end"}, seed=3)
    _finish_first_deal(kunken)
    konchinka = PlaySession.new("konchinka", 2, ["random"], {"target": "1"}, seed=3)
    _finish_first_deal(konchinka)
    assert konchinka.is_over()

    async def shown(session: PlaySession) -> str:
        async with running(session, size=size) as (app, _):
            return region_text(app, "#moves")

    assert "deal 1 over: You -105, greedy (1) +550" in asyncio.run(shown(kunken))
    over = asyncio.run(shown(konchinka))
    assert "deal 1 over: You +0, random (1) +5; game over: random (1) won" in over
    kunken.play(kunken.legal()[0])
    assert "deal 1 over" not in asyncio.run(shown(kunken))


def test_a_bots_obligation_is_not_shown_as_the_players_to_do() -> None:
    """While a bot has taken the bank and still owes its meld, the human's board shows
    no "To do"; when the human takes the bank, it shows theirs."""
    session = PlaySession.new("kunken", 2, ["greedy"], seed=4)
    while True:
        choice = session.bot_choice()
        if choice is None:
            session.play(session.legal()[0])
            continue
        session.play_bot(*choice)
        if session.match.deal.observe(1).obligations():
            break
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(games.render_board(session))
    assert "To do" not in console.export_text()
    human = _kunken_with_many_moves()
    console.print(games.render_board(human))
    assert "To do" in console.export_text()


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_a_resumed_game_keeps_its_move_log(tmp_path: Path, size: tuple[int, int]) -> None:
    """Saved early in the second deal and resumed: the log holds every move again, by
    whom, and the first deal's result; the screen shows its newest lines."""
    session = PlaySession.new("konchinka", 3, ["random", "greedy"], seed=8)
    _finish_first_deal(session)
    session.play(session.legal()[0])
    session.run_bots()
    played = list(session.log)
    session.save(tmp_path / "game.json")
    resumed = PlaySession.resume(tmp_path / "game.json")
    assert resumed.log == [*played, f"resumed from {tmp_path / 'game.json'}"]
    assert any(line.startswith("deal 1 over") for line in resumed.log)

    async def log_shown() -> str:
        async with running(resumed, size=size) as (app, _):
            return region_text(app, "#log-box")

    shown = asyncio.run(log_shown())
    assert shown.replace(" ", "").endswith("/game.json")  # scrolled to its newest line
    if size[0] >= 80:
        assert played[-1] in shown
