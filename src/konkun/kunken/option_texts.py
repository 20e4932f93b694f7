"""One sentence per Kunken rule option, in English and in Russian.

The single source of the house rules' explanations: the lobby form and the table show
them as text (served in ``GET /api/catalog`` as ``explanations``), the rules pages list
them, and the terminal's help prints them. Every field of
:class:`~konkun.kunken.rules.KunkenRules` has one (a test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping

from konkun.game import Titles

EXPLANATIONS: Mapping[str, Titles] = {
    "jokers": Titles(
        "How many jokers are shuffled into the two packs (the book plays with 4, some "
        "tables with 2).",
        "Сколько джокеров замешано в две колоды (по книге 4, за некоторыми столами 2)."),
    "opening_minimum": Titles(
        "The points the melds of a player's first laying down must reach together (the "
        "taken card counts, lay-offs do not).",
        "Сколько очков должны набрать вместе комбинации первой выкладки игрока (взятая "
        "карта считается, висты — нет)."),
    "empty_stock": Titles(
        "When the stock runs out: the bank is turned face down to become the new stock, "
        "or the deal ends and is scored as it stands.",
        "Когда кончается колода: банк переворачивается и становится новой колодой или "
        "кон кончается и считается как есть."),
    "max_stock_renewals": Titles(
        "How many times in a deal the bank may become the stock; when the stock runs out "
        "once more, the deal ends.",
        "Сколько раз за кон банк может стать колодой; когда колода кончится ещё раз, кон "
        "кончается."),
    "deals": Titles(
        "How many deals the match has; 0 means each player deals once.",
        "Сколько конов в матче; 0 — каждый игрок сдаёт по одному разу."),
    "target": Titles(
        "The match ends after the deal in which someone's total reaches this number; 0 "
        "means no such limit.",
        "Матч кончается после кона, в котором чей-то счёт достиг этого числа; 0 — без "
        "такого предела."),
    "hand_size": Titles(
        "How many cards each player is dealt (the book deals 13).",
        "Сколько карт сдаётся каждому игроку (по книге 13)."),
    "tie": Titles(
        "When the highest total is shared at the end of the match: play further deals "
        "until it is not, or end with no winner.",
        "Если в конце матча наибольший счёт у нескольких: играть ещё коны, пока равенство "
        "не разрешится, или закончить без победителя."),
    "joker_for_held": Titles(
        "A joker may stand for a card you also hold in your hand (the card it replaces "
        "need only be missing from the meld).",
        "Джокер может заменять карту, которая есть у вас на руке (она должна лишь "
        "отсутствовать в комбинации)."),
    "swap_before_take": Titles(
        "A player with a layout may swap a joker out of a meld before taking the bank, and "
        "the joker then counts as one of the cards held before the take.",
        "Игрок с выкладкой может заменить джокера в комбинации ещё до взятия банка, и "
        "тогда джокер считается картой, бывшей на руке до взятия."),
}
"""Each rule option's explanation, by option name."""
