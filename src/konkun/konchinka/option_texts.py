"""One sentence per Konchinka rule option, in English and in Russian.

The single source of the house rules' explanations: the lobby form and the table show
them as text (served in ``GET /api/catalog`` as ``explanations``), the rules pages list
them, and the terminal's help prints them. Every field of
:class:`~konkun.konchinka.rules.KonchinkaRules` has one (a test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping

from konkun.game import Titles

EXPLANATIONS: Mapping[str, Titles] = {
    "variant": Titles(
        "Classic: A is 1, 2 to 9 their pips, 10, Q and K are 10 and the Jack takes the whole "
        "table; Novorossiysk: A is 1, 2 to 10 their pips, J 11, Q 12 and K 13, and a King "
        "takes 13 or 14.",
        "Классическая: туз — 1, от двойки до девятки — по числу очков, десятка, дама и "
        "король — 10, а валет забирает весь стол; новороссийская: туз — 1, от двойки до "
        "десятки — по числу очков, валет — 11, дама — 12, король — 13, и король берёт 13 "
        "или 14."),
    "table_excludes_jacks": Titles(
        "A Jack dealt to the first table goes back into the stock and another card takes "
        "its place (two cards of one rank are always sent back).",
        "Валет, открытый на первом столе, уходит обратно в колоду, и на его место "
        "кладётся другая карта (две карты одного ранга убираются всегда)."),
    "capture_compulsory": Titles(
        "A card that can take something may not be laid on the table; a card that can "
        "take nothing still may.",
        "Картой, которой можно что-то взять, ходить на стол нельзя; картой, которой "
        "взять нечего, — можно."),
    "tie_points": Titles(
        "Who scores when players tie for most cards or most clubs: nobody, every tied "
        "player the full points, or the points shared equally (rounded down).",
        "Кто получает очки, если у игроков поровну больше всего карт или треф: никто, "
        "каждый из равных полностью или поровну (с округлением вниз)."),
    "target": Titles(
        "The game ends after the deal in which someone's total reaches this number; the "
        "highest total wins (a shared highest total plays on).",
        "Игра кончается после кона, в котором чей-то счёт достиг этого числа; побеждает "
        "больший счёт (при равенстве играют дальше)."),
    "settlement": Titles(
        "How the losers pay: each pays the winner what they lack of the target, or the "
        "winner takes the pool everyone staked.",
        "Как платят проигравшие: каждый платит победителю, сколько ему не хватило до "
        "цели, или победитель забирает кон, куда все поставили."),
    "stake": Titles(
        "The chips each player puts into the pool before the game (used only when the "
        "winner takes the pool).",
        "Сколько фишек каждый ставит на кон перед игрой (только когда победитель "
        "забирает кон)."),
    "deck_ranks": Titles(
        "A research setting: the deck keeps only this many of its lowest ranks, the Ace "
        "first (7: Ace to 7, 28 cards); 13 is the whole deck, the usual game.",
        "Настройка для исследований: в колоде остаётся только столько младших рангов, "
        "начиная с туза (7: от туза до семёрки, 28 карт); 13 — вся колода, обычная игра."),
}
"""Each rule option's explanation, by option name (``variant`` included)."""
