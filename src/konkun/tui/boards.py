"""The boards of Konchinka and Kunken for the terminal: :data:`KONCHINKA` and
:data:`KUNKEN`, their descriptors' ``terminal`` add-ons."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from konkun.cards import Card, Suit
from konkun.konchinka.scoring import TEN_OF_DIAMONDS, TWO_OF_CLUBS
from konkun.kunken.melds import slot_text, slot_value
from konkun.tui.addon import SessionView, TerminalAddon, deal_number

RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)


def card_text(card: Card) -> Text:
    """One card as coloured text: ``A♠``, ``T♦`` (red), ``X`` (joker)."""
    if card.rank is None or card.suit is None:
        return Text("X", style="bold magenta")
    style = "bold red" if card.suit in RED_SUITS else "bold"
    return Text(card.rank.symbol + card.suit.glyph, style=style)


def cards_text(cards: Iterable[Card], empty: str = "-") -> Text:
    """Cards separated by spaces (``empty`` when there are none)."""
    parts = [card_text(c) for c in cards]
    if not parts:
        return Text(empty, style="dim")
    return Text(" ").join(parts)


def _line(label: str, body: Text | str) -> Text:
    text = Text(f"{label:<12}", style="cyan")
    text.append(body if isinstance(body, Text) else Text(body))
    return text


# ---------------------------------------------------------------------- Konchinka

KONCHINKA_RULES = """\
[b]Konchinka[/b] (fishing): play one card a turn. It takes a set of table cards whose
values add up to its value (classic: A=1, 2-9 pips, T Q K = 10, the Jack takes the whole
table; novo: J=11, Q=12, K=13, a King takes 13 or 14), or it is laid on the table (a
trail). Move text: [b]Qd[/b] (trail) or [b]Qd:As7h2c[/b] (capture).
A deal scores 2 for the most cards, 1 for the most clubs, 1 each for 2c and Td (the
кончинки). The game goes to 15 (option target)."""


def _konchinka_board(session: SessionView) -> RenderableType:
    obs: Any = session.match.deal.observe(session.human)
    n = obs.num_seats
    header = Text(f"Konchinka ({obs.variant}), {n} players, target "
                  f"{obs.rules.target}", style="bold")
    lines: list[RenderableType] = [
        header,
        _line("Dealer", session.seat_name(obs.dealer)),
        _line("Stock", f"{obs.stock_size} cards"),
        _line("Table", cards_text(obs.table, "(empty)")),
        _line("Your hand", cards_text(obs.hand, "(empty)")),
    ]
    piles = Table(title="Capture piles", show_edge=False, expand=False)
    for column in ("player", "hand", "cards", "clubs", "кончинки"):
        piles.add_column(column, justify="left" if column == "player" else "right")
    konchinki = (TWO_OF_CLUBS, TEN_OF_DIAMONDS)
    for seat in range(n):
        pile = obs.captured[seat]
        name = session.seat_name(seat)
        if obs.last_capturer == seat:
            name += " *"
        piles.add_row(name, str(obs.hand_sizes[seat]), str(len(pile)),
                      str(sum(1 for c in pile if c.suit is Suit.CLUBS)),
                      cards_text([c for c in konchinki if c in pile], ""))
    lines.append(piles)
    lines.append(Text("* made the last capture", style="dim"))
    lines.extend(_konchinka_results(session))
    return Group(*lines)


def _konchinka_results(session: SessionView) -> list[RenderableType]:
    """The last finished deal's score and, once the game is over, the settlement."""
    match: Any = session.match
    scores = match.deal_scores
    out: list[RenderableType] = []
    if scores:
        last = scores[-1]
        table = Table(title=f"Deal {len(scores)} scored", show_edge=False)
        for column in ("player", "cards", "clubs", "кончинки", "points"):
            table.add_column(column, justify="left" if column == "player" else "right")
        for seat, score in enumerate(last.seats):
            table.add_row(session.seat_name(seat), str(score.cards), str(score.clubs),
                          str(score.konchinki), str(score.points))
        out.append(table)
    if match.is_over():
        winner = match.winner()
        out.append(Text(f"Game over: {session.seat_name(winner)} won.", style="bold green"))
        for payment in match.settlement().payments:
            pays = "pay" if payment.payer == session.human else "pays"
            out.append(Text(f"{session.seat_name(payment.payer)} {pays} "
                            f"{session.seat_name(payment.payee)} {payment.amount}"))
    return out


KONCHINKA = TerminalAddon(example_move="Qd:As7h2c", rules_summary=KONCHINKA_RULES,
                          render_board=_konchinka_board)
"""Konchinka's terminal add-on."""


# ---------------------------------------------------------------------- Kunken

KUNKEN_RULES = """\
[b]Kunken[/b] (two-deck rummy, 4 jokers): each turn either [b]draw[/b] from the stock, or
[b]take I[/b] the bank from position I (that card and every later one) and lay down a meld
holding the taken card and two cards you held before (your first layout: at least 50
points); then [b]meld[/b], [b]layoff[/b] cards onto any meld, [b]swap[/b] a joker out of a meld,
and finally [b]discard[/b] one card. Sets: 3-4 of a rank, different suits; sequences: 3+
of a suit, A 2 .. K A circular; at most half jokers. Go out by discarding your last card.
Values: A K Q J = 10, T..2 = 5, joker = the card it stands for (10 in hand).
Action texts: draw, take 3, meld 5h X=6h 7h, layoff Kd 2, swap 1 Ac, discard Qs."""


def _counts_cards(counts: Iterable[int]) -> list[Card]:
    return [Card.from_index(k) for k, c in enumerate(counts) for _ in range(c)]


def _kunken_board(session: SessionView) -> RenderableType:
    match: Any = session.match
    obs: Any = match.deal.observe(session.human)
    n = obs.num_seats
    rules = obs.rules
    deals = rules.num_deals(n)
    number = deal_number(match)
    lines: list[RenderableType] = [
        Text(f"Kunken, {n} players, deal {number}" + (f" of {deals}" if deals else ""),
             style="bold"),
        _line("Dealer", session.seat_name(obs.dealer)),
        _line("Stock", f"{obs.stock_size} cards (renewed {obs.renewals} of "
                       f"{rules.max_stock_renewals})"),
    ]
    bank = Text()
    for position, card in enumerate(obs.bank):
        if position:
            bank.append("  ")
        bank.append(f"{position}:", style="dim")
        bank.append(card_text(Card.from_index(card)))
    lines.append(_line("Bank", bank if obs.bank else Text("(empty)", style="dim")))
    lines.append(_line("Your hand", cards_text(_counts_cards(obs.hand), "(empty)")))
    for duty in obs.obligations() if obs.to_move == obs.seat else []:  # a bot's are not yours
        lines.append(_line("To do", Text(duty, style="bold yellow")))
    lines.append(_kunken_melds(session, obs))
    lines.append(_kunken_players(session, obs))
    lines.extend(_kunken_results(session))
    return Group(*lines)


def _kunken_melds(session: SessionView, obs: Any) -> RenderableType:
    """The table's melds: each card as laid, those another seat laid off in italics, and
    each seat's points in the meld (a card scores for the seat that laid it)."""
    table = Table(title="Melds on the table", show_edge=False)
    for column in ("#", "owner", "cards", "points"):
        table.add_column(column, justify="right" if column in ("#", "points") else "left")
    for number, meld in enumerate(obs.melds):
        cards = Text()
        shares: dict[int, int] = {}
        for i, (slot, seat) in enumerate(zip(meld.slots, meld.laid_by, strict=True)):
            cards.append(" " if i else "")
            cards.append(slot_text(slot), style=None if seat == meld.owner else "italic")
            shares[seat] = shares.get(seat, 0) + slot_value(slot)
        points = Text(str(shares.pop(meld.owner, 0)))
        for seat, share in shares.items():
            points.append(f" + {share} {session.seat_name(seat)}", style="italic")
        table.add_row(str(number), session.seat_name(meld.owner), cards, points)
    if not obs.melds:
        table.add_row("", "(none yet)", "", "")
    return table


def _kunken_players(session: SessionView, obs: Any) -> RenderableType:
    table = Table(title="Players", show_edge=False)
    for column in ("player", "hand", "layout", "known in hand"):
        table.add_column(column, justify="right" if column == "hand" else "left")
    for seat in range(obs.num_seats):
        name = session.seat_name(seat) + (" <" if obs.to_move == seat else "")
        table.add_row(name, str(obs.hand_sizes[seat]), "yes" if obs.layout[seat] else "no",
                      cards_text(_counts_cards(obs.taken[seat]), "") if seat != obs.seat
                      else Text(""))
    return table


def _kunken_results(session: SessionView) -> list[RenderableType]:
    match: Any = session.match
    data = match.to_json(session.human)
    out: list[RenderableType] = []
    if data["deal_points"]:
        winner = data["deal_winners"][-1]
        express = data["deal_express"][-1]
        who = "nobody went out" if winner is None else \
            f"{session.seat_name(winner)} went out" + (" (express!)" if express else "")
        points = ", ".join(f"{session.seat_name(s)} {p:+d}"
                           for s, p in enumerate(data["deal_points"][-1]))
        out.append(Text(f"Deal {len(data['deal_points'])}: {who}; {points}", style="green"))
    if match.is_over():
        best = match.winner()
        out.append(Text("Match over: " + ("shared" if best is None
                                          else f"{session.seat_name(best)} won."),
                        style="bold green"))
    return out


KUNKEN = TerminalAddon(example_move="meld 5h X=6h 7h", rules_summary=KUNKEN_RULES,
                       render_board=_kunken_board)
"""Kunken's terminal add-on."""
