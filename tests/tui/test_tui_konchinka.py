"""``konkun play konchinka`` headlessly: a whole deal played by key presses with Textual's
pilot, the board showing the hand and table, the score sheet, help, typed moves, save and
resume."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tui_checks import running, widget_text

from konkun.tui.app import MOVE_KEYS, GameScreen, HelpScreen, PlayApp, score_sheet
from konkun.tui.session import PlaySession


async def _play_one_deal(session: PlaySession, save: Path) -> list[str]:
    screens: list[str] = []
    async with running(session, save) as (app, pilot):
        assert isinstance(app.screen, GameScreen)
        while not session.match.deal_points:
            assert session.human_to_move()
            screens.append(widget_text(app, "#moves"))
            await pilot.press(MOVE_KEYS[len(screens) % 3 % max(1, len(session.legal()))])
        await pilot.press("ctrl+s")
    return screens


def test_a_whole_deal_is_played_with_keys_only(tmp_path: Path) -> None:
    """Each hand of a 2-player deal is 4 cards dealt 6 times: the human makes 24 moves by
    pressing keys, the bot answers, and the deal is scored on the sheet."""
    session = PlaySession.new("konchinka", 2, ["random"], seed=11)
    screens = asyncio.run(_play_one_deal(session, tmp_path / "game.json"))
    assert len(screens) == 24
    assert all("[1]" in screen for screen in screens)
    assert len(session.match.deal_points) == 1
    assert session.score_sheet() == [[p] for p in session.match.deal_points[0]]
    assert any(line.startswith("deal 1 over") for line in session.log)


def test_the_saved_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    """A save in the middle of the second deal resumes with the same cards, totals, turn
    and bots."""
    session = PlaySession.new("konchinka", 3, ["random", "greedy"], seed="secret words")
    while len(session.match.deal_points) < 1 or len(session.match.deal.observe(0).hand) > 2:
        if session.human_to_move():
            session.play(session.legal()[-1])
        session.run_bots()
    session.save(tmp_path / "game.json")
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["game"] == "konchinka"
    assert saved["record"]["seed"] == "secret words"
    resumed = PlaySession.resume(tmp_path / "game.json")
    assert resumed.match.totals == session.match.totals
    assert resumed.match.deal.observe(0).to_json() == session.match.deal.observe(0).to_json()
    assert resumed.bots == ["random", "greedy"]
    assert resumed.human_to_move()


async def _help_and_typed_move(session: PlaySession) -> tuple[str, str]:
    async with running(session) as (app, pilot):
        board = widget_text(app, "#board")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = widget_text(app, "#help")
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        move = session.format(session.legal()[-1])
        before = len(session.match.record().to_json()["actions"])
        await pilot.press("colon")
        await pilot.press(*move, "enter")
        await pilot.pause()
        actions = session.match.record().to_json()["actions"]
        assert actions[before] == move
    return board, help_text


def test_the_board_shows_the_hand_and_help_lists_the_keys() -> None:
    session = PlaySession.new("konchinka", 2, ["random"], seed=5)
    session.run_bots()
    hand = session.match.deal.observe(0).hand
    board, help_text = asyncio.run(_help_and_typed_move(session))
    assert "Your hand" in board and "Table" in board
    for card in hand:
        assert card.rank is not None and card.suit is not None
        assert card.rank.symbol + card.suit.glyph in board
    assert "Ctrl+S" in help_text and "Konchinka" in help_text


def test_the_score_sheet_strikes_through_all_but_the_last_total() -> None:
    session = PlaySession.new("konchinka", 2, ["random"], seed=2)
    while len(session.match.deal_points) < 2 and not session.is_over():
        if session.human_to_move():
            session.play(session.legal()[0])
        session.run_bots()
    sheet = score_sheet(session)
    first_column = sheet.columns[0]
    cells = list(first_column.cells)
    assert len(cells) == 2
    assert "strike" in str(cells[0].style) and "strike" not in str(cells[1].style)


async def _with_delay(session: PlaySession) -> None:
    app = PlayApp(session, None, bot_delay=0.01)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(20):
            if session.human_to_move():
                break
            await pilot.pause(0.05)
        assert session.human_to_move()
        before = len(session.match.record().to_json()["actions"])
        await pilot.press("1")
        for _ in range(20):
            if session.human_to_move():
                break
            await pilot.pause(0.05)
        after = len(session.match.record().to_json()["actions"])
        assert session.human_to_move()
        assert after == before + session.num_seats


def test_bots_move_one_at_a_time_with_a_delay() -> None:
    """With a bot delay the bots play on a timer: after the human's move each bot plays
    once and the human is to move again."""
    session = PlaySession.new("konchinka", 3, ["random"], seed=4)
    asyncio.run(_with_delay(session))


async def _board_and_moves(session: PlaySession) -> tuple[str, str]:
    async with running(session) as (app, _):
        return widget_text(app, "#board"), widget_text(app, "#moves")


def test_the_board_never_shows_another_players_hand() -> None:
    session = PlaySession.new("konchinka", 4, ["random"], seed=13)
    for _ in range(6):
        board, _ = asyncio.run(_board_and_moves(session))
        for seat in range(1, 4):
            for card in session.match.deal.hand(seat):  # type: ignore[attr-defined]
                assert card.rank.symbol + card.suit.glyph not in board
        session.play(session.legal()[0])
        session.run_bots()


def test_a_finished_game_says_who_won_and_takes_no_move() -> None:
    """The game ends after the deal in which someone reaches 15 with the single highest
    total; the board names the winner and no move key is offered."""
    session = PlaySession.new("konchinka", 2, ["greedy"], seed=17)
    while not session.is_over():
        if session.human_to_move():
            session.play(session.legal()[0])
        session.run_bots()
    totals = session.match.totals
    assert max(totals) >= 15 and totals.count(max(totals)) == 1
    board, moves = asyncio.run(_board_and_moves(session))
    winner = session.seat_name(session.match.winner() or 0)
    assert f"Game over: {winner} won." in board
    assert "game is over" in moves and "[1]" not in moves
    assert "You pays" not in board
    payer = session.match.settlement().payments[0].payer  # type: ignore[attr-defined]
    assert ("You pay " if payer == session.human else "pays You ") in board


def test_help_explains_every_house_rule_with_its_value_at_this_table() -> None:
    # issue 34: the house rules' explanations feed the terminal's help too
    from konkun.konchinka.option_texts import EXPLANATIONS

    session = PlaySession.new("konchinka", 2, ["random"], rules={"target": "11"}, seed=5)
    _board, help_text = asyncio.run(_help_and_typed_move(session))
    flat = " ".join(help_text.split())
    assert "target = 11" in flat and "capture_compulsory = false" in flat
    for text in EXPLANATIONS.values():
        assert " ".join(text.en.split()) in flat
