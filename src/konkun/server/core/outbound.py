"""The messages the server sends on a table's WebSocket (``docs/protocol.md``, "Server →
client"), as typed dictionaries: one definition of the wire types for the server, the
tests and the page.

Each message is a :class:`~typing_extensions.TypedDict` (so building one costs what a
plain dict costs, on the broadcast's hot path too, and mypy checks every key where it is
built), validated by pydantic (:data:`SERVER_MESSAGE`, which forbids a key the type does
not declare) in the tests, and turned into the page's JSDoc typedefs by
:mod:`konkun.server.protocol_js` (``static/protocol.js``). The two games' views
(``Match.to_json(seat)``) are a union told apart by their ``game`` (:data:`View`); a game
registered by another package has an open view (:class:`OtherView`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Discriminator, Tag, TypeAdapter, with_config
from typing_extensions import TypedDict

CLOSED = ConfigDict(extra="forbid")
"""Every type here refuses a key it does not declare (a new field is declared first)."""

OPEN = ConfigDict(extra="allow")
"""The open parts of a view: an engine's own nested structures."""


# -- the table summary ------------------------------------------------------------------


@with_config(CLOSED)
class SeatSummary(TypedDict):
    """One seat of a table's summary."""

    seat: int
    kind: Literal["empty", "human", "bot"]
    name: str | None
    bot: str | None
    connected: bool


@with_config(CLOSED)
class Ended(TypedDict):
    """How a match ended before its last deal."""

    reason: Literal["resigned", "abandoned", "aborted"]
    turn: int
    resigned: NotRequired[list[int]]


@with_config(CLOSED)
class RematchInfo(TypedDict):
    """The votes for a rematch, the table this one rematches and the rematch's table."""

    votes: list[int]
    of: str | None
    table: str | None
    commitment: str | None


@with_config(CLOSED)
class ClockInfo(TypedDict):
    """The human to move and the seconds left on the clock."""

    seat: int
    remaining: float | None
    away: bool


@with_config(CLOSED)
class TableSummary(TypedDict):
    """A table as the lobby and every client see it (``docs/protocol.md``, Summary)."""

    id: str
    game: str
    variant: str | None
    rules: dict[str, str]
    num_seats: int
    seats: list[SeatSummary]
    status: Literal["waiting", "playing", "finished", "cancelled"]
    turn: int
    to_move: int | None
    winner: int | None
    totals: list[int] | None
    spectators: int
    created_at: str
    finished_at: str | None
    link: str
    move_seconds: int
    hints: bool
    rated: bool
    creator_seat: int | None
    resigned: list[int]
    ended: Ended | None
    rematch: RematchInfo
    away: dict[str, str]
    absent: dict[str, float]
    bot_votes: dict[str, list[int]]
    vote_after: float
    clock: ClockInfo | None
    abortable: bool
    commitment: str | None
    contributed: list[int]
    first_digest: str | None
    actions_digest: str | None
    server_seed: str | None


# -- the views ----------------------------------------------------------------------------


@with_config(CLOSED)
class KonchinkaDealView(TypedDict):
    """One Konchinka deal as a seat sees it (``KonchinkaDeal.to_json``)."""

    game: Literal["konchinka"]
    seat: int | None
    num_seats: int
    variant: str
    rules: dict[str, Any]
    to_move: int | None
    dealer: int
    hand: list[str]
    hand_sizes: list[int]
    table: list[str]
    stock_size: int
    captured: list[list[str]]
    captured_counts: list[int]
    last_capturer: int | None
    known_in_stock: list[str]
    history: list[dict[str, Any]]
    final_sweep: Any
    over: bool
    points: list[int] | None
    score: Any
    legal: list[str]
    explain: dict[str, Any]
    score_reasons: Any


@with_config(CLOSED)
class KonchinkaView(TypedDict):
    """A Konchinka match as a seat sees it (``KonchinkaMatch.to_json``)."""

    game: Literal["konchinka"]
    seat: int | None
    num_seats: int
    variant: str
    rules: dict[str, Any]
    target: int
    deal_number: int
    dealer: int
    first_dealer: int
    dealer_draws: list[list[dict[str, Any]]]
    dealers: list[int]
    to_move: int | None
    totals: list[int]
    deal_points: list[list[int]]
    deal_scores: list[Any]
    sheet: list[list[int]]
    over: bool
    winner: int | None
    settlement: Any
    seed: str | int | None
    deal: KonchinkaDealView


@with_config(CLOSED)
class KunkenStep(TypedDict):
    """A Kunken action's parts as the engine reads them (``konkun.kunken.parts``): its
    kind, its cards (``X=7d`` a declared joker), the bank position of a take, the meld of a
    lay-off or swap, what its jokers stand for, a meld's points, and (a legal step) the
    positions of the legal steps that differ from it only in a joker's meaning."""

    kind: Literal["draw", "take", "meld", "layoff", "swap", "discard"]
    cards: NotRequired[list[str]]
    bank: NotRequired[int]
    meld: NotRequired[int]
    jokers: NotRequired[list[str]]
    points: NotRequired[int]
    alternatives: NotRequired[list[int]]


@with_config(CLOSED)
class KunkenView(TypedDict):
    """A Kunken match as a seat sees it (``KunkenMatch.to_json``: the deal and the match
    in one object)."""

    game: Literal["kunken"]
    seat: int | None
    num_seats: int
    to_move: int | None
    dealer: int
    phase: str
    hand: list[str]
    hand_sizes: list[int]
    bank: list[str]
    stock_size: int
    renewals_used: int
    max_stock_renewals: int
    melds: list[dict[str, Any]]
    taken_held: list[list[str]]
    has_layout: list[bool]
    turn: dict[str, Any] | None
    over: bool
    winner: int | None
    express: bool
    points: list[int] | None
    legal: list[str]
    steps: list[KunkenStep]
    take_refusals: list[Any]
    score_parts: Any
    totals: list[int]
    deal_points: list[list[int]]
    running_totals: list[list[int]]
    deal_winners: list[int | None]
    deal_express: list[bool]
    deals_played: int
    deal_number: int
    deals: int
    target: int
    match_over: bool
    match_winner: int | None
    first_dealer: int
    rules: dict[str, Any]


@with_config(OPEN)
class OtherView(TypedDict):
    """The view of a game registered by another package: its own shape."""

    game: NotRequired[str]


def _view_kind(value: Any) -> str:
    """The union member a view is checked as: its game, or ``other``."""
    game = value.get("game") if isinstance(value, dict) else None
    return game if game in ("konchinka", "kunken") else "other"


View = Annotated[
    Annotated[KonchinkaView, Tag("konchinka")] | Annotated[KunkenView, Tag("kunken")]
    | Annotated[OtherView, Tag("other")],
    Discriminator(_view_kind)]
"""A match as one seat sees it, by game."""


# -- the messages -------------------------------------------------------------------------


@with_config(CLOSED)
class LastAction(TypedDict):
    """The action just played (``parts``: its parts, for a game that describes its
    actions, as Kunken)."""

    turn: int
    actor: int
    action: str
    parts: NotRequired[KunkenStep]


@with_config(CLOSED)
class StateMessage(TypedDict):
    """``state``: the table and what the receiving seat sees, after every change."""

    type: Literal["state"]
    table: TableSummary
    you: int | None
    turn: int
    view: View | None
    last: LastAction | None


@with_config(CLOSED)
class ErrorMessage(TypedDict):
    """``error``: a refused message or request, with its code and the input it names
    (a limit's refusal adds which limit, its figure and where the player's tables are)."""

    type: Literal["error"]
    code: str
    message: str
    input: NotRequired[Any]
    limit: NotRequired[Literal["player", "address", "server"]]
    max: NotRequired[int]
    mine: NotRequired[str]


@with_config(CLOSED)
class PongMessage(TypedDict):
    """``pong``: the answer to a ``ping``, after every state before it."""

    type: Literal["pong"]


@with_config(CLOSED)
class ChatLine(TypedDict):
    """``chat``: one line of the table's chat (``seat`` null for a spectator)."""

    type: Literal["chat"]
    seat: int | None
    name: str
    spectator: bool
    text: str
    turn: int
    at: str


CloseReason = Literal["cancelled", "expired"]
"""Why a waiting table was removed."""


@with_config(CLOSED)
class ClosedMessage(TypedDict):
    """``closed``: the waiting table was removed; the connection closes after it."""

    type: Literal["closed"]
    table: str
    reason: CloseReason


@with_config(CLOSED)
class RematchMessage(TypedDict):
    """``rematch``: the rematch started at ``table``."""

    type: Literal["rematch"]
    table: str | None
    link: str


@with_config(CLOSED)
class TokenMessage(TypedDict):
    """``token``: a renewed token to keep."""

    type: Literal["token"]
    token: str


@with_config(CLOSED)
class RatingChange(TypedDict):
    """One rated seat's rating before and after a game."""

    seat: int
    player_id: str
    before: float
    rating: float
    rd: float
    change: float


@with_config(CLOSED)
class RatedMessage(TypedDict):
    """``rated``: the finished game counted for ratings."""

    type: Literal["rated"]
    table: str
    ratings: list[RatingChange]


ServerMessage = Annotated[
    StateMessage | ErrorMessage | PongMessage | ChatLine | ClosedMessage | RematchMessage
    | TokenMessage | RatedMessage, Discriminator("type")]
"""Every message the server sends on a table's WebSocket."""

OutboundMessage = StateMessage | ErrorMessage | PongMessage | ChatLine | ClosedMessage \
    | RematchMessage | TokenMessage | RatedMessage
"""What :meth:`~konkun.server.core.connection.Connection.send` takes (for mypy)."""

SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)
"""Validates (and describes, as JSON Schema) a message the server sends."""

MESSAGE_TYPES: tuple[type, ...] = (StateMessage, ErrorMessage, PongMessage, ChatLine,
                                   ClosedMessage, RematchMessage, TokenMessage,
                                   RatedMessage)
"""The message types, in the order the page's typedefs list them."""
