"""The Textual app of ``konkun play``: the board, the legal moves with one-key shortcuts,
the score sheet, a log, help, save and resume; fully usable from the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header, Input, Static

from konkun.errors import KonkunError
from konkun.tui import games
from konkun.tui.session import PlaySession

MOVE_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
"""The keys that play a legal move, in the order of the move list (one page)."""
LOG_LINES = 14

HELP = """\
[b]konkun play[/b]: you play seat 0 against bots.

[b]Keys[/b]
  1-9, a-z       play the move shown with that key
  > or PageDown  next page of moves
  < or PageUp    previous page of moves
  :              type a move by its text (e.g. {example})
  Up / Down      scroll the board
  Ctrl+S         save the game (resume with  konkun play --resume FILE)
  ?  or F1       this help
  Ctrl+Q         quit

[b]Score sheet[/b]: each column is a player's running total after each deal; earlier \
totals are struck through, as on paper.

{rules}

Up, Down, PageUp, PageDown scroll this help. Press Escape or ? to close."""
MOVE_GAP = 3
"""Blank columns between two moves on a row of the move list."""
MOVES_SHARE = (3, 5)
"""The move list takes at most this share (3/5) of the left column's height."""


def unwrap(text: str) -> str:
    """Join the lines of each paragraph (paragraphs are separated by a blank line), so
    that the terminal wraps them at its own width."""
    return "\n\n".join(" ".join(line.strip() for line in paragraph.splitlines())
                       for paragraph in text.split("\n\n"))


def paginate(heights: list[int], rows: int, columns: int) -> list[range]:
    """Split moves into pages that fit ``rows`` screen lines: with several ``columns``
    each move takes one cell of a row, with one column each takes its height in lines
    (``heights``, as wrapped); never more than :data:`MOVE_KEYS` moves on a page, never
    fewer than one."""
    pages: list[range] = []
    start = 0
    while start < len(heights):
        if columns > 1:
            stop = start + max(1, rows * columns)
        else:
            stop, used = start, 0
            while stop < len(heights) and (stop == start or used + heights[stop] <= rows):
                used += heights[stop]
                stop += 1
        stop = min(stop, start + len(MOVE_KEYS), len(heights))
        pages.append(range(start, stop))
        start = stop
    return pages or [range(0)]


def score_sheet(session: PlaySession) -> Table:
    """The score sheet: running totals per player, all but the last struck through."""
    table = Table(title="Score sheet", expand=True, show_edge=False)
    columns = session.score_sheet()
    for seat in range(session.num_seats):
        table.add_column(session.seat_name(seat), justify="right")
    rows = max((len(c) for c in columns), default=0)
    for row in range(rows):
        cells = []
        for column in columns:
            if row >= len(column):
                cells.append(Text(""))
            else:
                last = row == len(column) - 1
                cells.append(Text(str(column[row]), style="bold" if last else "strike dim"))
        table.add_row(*cells)
    if rows == 0:
        table.add_row(*["0"] * session.num_seats)
    return table


class HelpScreen(ModalScreen[None]):
    """The keys and a summary of the rules."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"), Binding("question_mark", "close", "Close"),
        Binding("f1", "close", "Close")]

    def __init__(self, game: str, rules: Any = None) -> None:
        super().__init__()
        self.game = game
        self.rules = rules

    def compose(self) -> ComposeResult:
        """The help text: the keys, the rules in short and the house rules explained,
        scrolled with the arrow and page keys when it is taller than the screen."""
        house = games.house_rules_help(self.game, self.rules)
        rules = unwrap(games.rules_summary(self.game)) + (f"\n\n{house}" if house else "")
        with VerticalScroll(id="help-box"):
            yield Static(HELP.format(example=games.example_move(self.game), rules=rules),
                         id="help")

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)


class MoveInputScreen(ModalScreen[str | None]):
    """A one-line prompt for a move's text."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        """The prompt."""
        yield Input(placeholder="move text, then Enter (Escape cancels)", id="move-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Hand the text back to the game."""
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Close without a move."""
        self.dismiss(None)


class GameScreen(Screen[None]):
    """The table: board, moves, score sheet and log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("colon", "type_move", "Type move"),
        Binding("greater_than_sign,pagedown", "page(1)", "More moves"),
        Binding("less_than_sign,pageup", "page(-1)", "Prev moves", show=False),
        Binding("up", "scroll_board(-3)", "Scroll", show=False),
        Binding("down", "scroll_board(3)", "Scroll", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.page = 0

    def compose(self) -> ComposeResult:
        """The layout."""
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                board_box = VerticalScroll(Static(id="board"), id="board-box")
                board_box.can_focus = False  # keys stay with the game (arrows scroll it)
                yield board_box
                yield Static(id="moves")
            with Vertical(id="right"):
                yield Static(id="sheet")
                log_box = VerticalScroll(Static(id="log"), id="log-box")
                log_box.can_focus = False
                yield log_box
        yield Footer()

    def on_mount(self) -> None:
        """Draw, then let the bots play if they start."""
        self.refresh_view()
        self.app_ref.schedule_bots()

    def on_resize(self) -> None:
        """Lay the moves out again for the new size."""
        self.refresh_view()

    @property
    def app_ref(self) -> PlayApp:
        """The app (typed)."""
        app = self.app
        assert isinstance(app, PlayApp)
        return app

    def page_moves(self) -> list[Any]:
        """The legal moves on the current page."""
        legal = self.session.legal()
        pages = self._pages(legal)
        return [legal[i] for i in pages[min(self.page, len(pages) - 1)]]

    def _moves_area(self) -> tuple[int, int]:
        """The move list's width and its most lines (with its border and headings)."""
        left = self.query_one("#left").size
        if left.width == 0:  # not laid out yet: estimate from the screen
            width, height = self.app.size.width * 2 // 3, self.app.size.height - 2
        else:
            width, height = left.width, left.height
        most = height * MOVES_SHARE[0] // MOVES_SHARE[1]
        return max(8, width - 2), max(3, most)

    def _lines(self, text: Text, width: int) -> int:
        return len(text.wrap(self.app.console, width))

    def _heading(self, legal: list[Any], pages: int) -> list[Text]:
        result = self.session.result
        head = [Text(result, style="bold green")] if result else []
        title = f"Your move ({len(legal)} legal; page {self.page + 1}/{pages}):"
        return [*head, Text(title, style="bold")]

    def _item(self, key: str, action: Any) -> Text:
        item = Text(f"[{key}]", style="bold cyan")
        item.append(" " + self.session.format(action))
        return item

    def _layout(self, legal: list[Any]) -> tuple[list[range], int]:
        """The pages of ``legal`` that fit the move list, and its number of columns."""
        width, most = self._moves_area()
        heading = sum(self._lines(t, width) for t in self._heading(legal, len(legal)))
        rows = max(1, most - 1 - heading)  # 1: the border line above the list
        items = [self._item("z", a) for a in legal]
        cell = max((t.cell_len for t in items), default=1)
        columns = max(1, (width + MOVE_GAP) // (cell + MOVE_GAP))
        heights = [self._lines(t, width) for t in items] if columns == 1 else [1] * len(items)
        return paginate(heights, rows, columns), columns

    def _pages(self, legal: list[Any]) -> list[range]:
        return self._layout(legal)[0]

    def refresh_view(self) -> None:
        """Redraw everything from the session."""
        session = self.session
        legal = session.legal()
        pages, columns = self._layout(legal)
        self.page = min(self.page, len(pages) - 1)
        self.query_one("#board", Static).update(games.render_board(session))
        self.query_one("#moves", Static).update(
            self._moves_view(legal, pages, columns))
        self.query_one("#sheet", Static).update(score_sheet(session))
        self.query_one("#log", Static).update(Text("\n".join(session.log[-LOG_LINES:])))
        log_box = self.query_one("#log-box", VerticalScroll)
        self.call_after_refresh(log_box.scroll_end, animate=False)
        self.app_ref.sub_title = games.status_line(session)

    def _moves_view(self, legal: list[Any], pages: list[range],
                    columns: int) -> RenderableType:
        session = self.session
        result = [Text(session.result, style="bold green")] if session.result else []
        if session.is_over():
            return Group(*result, Text("The game is over. Ctrl+S saves it, Ctrl+Q quits.",
                                       style="bold"))
        if not session.human_to_move():
            return Group(*result, Text("Waiting for the bots...", style="italic"))
        grid = Table.grid(padding=(0, MOVE_GAP, 0, 0))
        for _ in range(columns):
            grid.add_column(no_wrap=columns > 1)
        cells = [self._item(key, legal[i]) for key, i in zip(MOVE_KEYS, pages[self.page],
                                                              strict=False)]
        for row in range(0, len(cells), columns):
            grid.add_row(*cells[row:row + columns])
        return Group(*self._heading(legal, len(pages)), grid)

    def on_key(self, event: Key) -> None:
        """A move key plays the move shown with it."""
        char = event.character
        if char is None or char not in MOVE_KEYS or not self.session.human_to_move():
            return
        moves = self.page_moves()
        index = MOVE_KEYS.index(char)
        if index >= len(moves):
            return
        event.stop()
        self.app_ref.play_human(moves[index])

    def action_page(self, delta: int) -> None:
        """Show the next or previous page of moves."""
        pages = len(self._pages(self.session.legal()))
        self.page = max(0, min(pages - 1, self.page + delta))
        self.refresh_view()

    def action_scroll_board(self, lines: int) -> None:
        """Scroll the board (when it is taller than the screen)."""
        self.query_one("#board-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_help(self) -> None:
        """Open the help screen."""
        self.app.push_screen(HelpScreen(self.session.game,
                                        getattr(self.session.match, "rules", None)))

    def action_type_move(self) -> None:
        """Ask for a move's text."""
        if self.session.human_to_move():
            self.app.push_screen(MoveInputScreen(), self._typed)

    def _typed(self, text: str | None) -> None:
        if not text:
            return
        self.app_ref.play_human_text(text)

    def action_save(self) -> None:
        """Save the game to the app's save path."""
        path = self.app_ref.save_path
        try:
            self.session.save(path)
        except OSError as error:
            self.app.notify(f"cannot save to {str(path)!r}: {error}", severity="error")
            return
        self.app.notify(f"saved to {path}")
        self.refresh_view()


class PlayApp(App[None]):
    """``konkun play``: one human seat against bots."""

    TITLE = "konkun"
    CSS = """
    #left { width: 2fr; }
    #right { width: 1fr; }
    #board-box { height: 1fr; }
    #board { height: auto; padding: 0 1; }
    #moves { height: auto; padding: 0 1; border-top: solid $accent; }
    #sheet { height: auto; padding: 0 1; }
    #log-box { height: 1fr; border-top: solid $accent; }
    #log { height: auto; padding: 0 1; }
    #help-box { background: $panel; border: thick $accent; width: 90%; height: auto;
                max-height: 100%; }
    #help { padding: 1 2; }
    HelpScreen, MoveInputScreen { align: center middle; }
    #move-input { width: 60; }
    """

    def __init__(self, session: PlaySession, save_path: str | Path | None = None,
                 bot_delay: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.save_path = Path(save_path) if save_path else Path(
            f"konkun-{session.game}.json")
        self.bot_delay = bot_delay
        self.title = f"konkun: {games.title(session.game)}"
        self._game_screen = GameScreen(session)

    def on_mount(self) -> None:
        """Show the table."""
        self.push_screen(self._game_screen)

    def play_human(self, action: Any) -> None:
        """Play the human's move, then the bots'."""
        self._play_human(lambda: self.session.play(action))

    def play_human_text(self, text: str) -> None:
        """Play the human's typed move, then the bots'."""
        self._play_human(lambda: self.session.play_text(text))

    def _play_human(self, play: Callable[[], object]) -> None:
        try:
            play()
        except KonkunError as error:  # the reason: str() may add the position, hidden cards
            self.notify(error.reason, severity="error")
            return
        self._game_screen.page = 0
        self._game_screen.refresh_view()
        self.schedule_bots()

    def schedule_bots(self) -> None:
        """Let the bots move: all at once without a delay, else one per tick."""
        if self.bot_delay <= 0:
            self.session.run_bots()
            self._game_screen.refresh_view()
        elif not self.session.is_over() and not self.session.human_to_move():
            self.set_timer(self.bot_delay, self._bot_tick)

    def _bot_tick(self) -> None:
        """Let the bot to move think in a worker thread, so the screen stays live."""
        if not self.session.is_over() and not self.session.human_to_move():
            self.run_worker(self._think, thread=True, exclusive=True, group="bots")

    def _think(self) -> None:
        choice = self.session.bot_choice()
        if choice is not None:
            self.call_from_thread(self._play_bot, *choice)

    def _play_bot(self, seat: int, action: Any) -> None:
        try:
            self.session.play_bot(seat, action)
        except KonkunError as error:
            self.notify(error.reason, severity="error")
            return
        self._game_screen.refresh_view()
        self.schedule_bots()
