"""Konchinka and Kunken as OpenSpiel games (extra ``openspiel``): ``import konkun.openspiel``
registers ``konkun_konchinka`` and ``konkun_kunken`` with ``pyspiel``, so OpenSpiel's own
algorithms (MCCFR, its ISMCTS bot, ...) run on them unchanged::

    import pyspiel, konkun.openspiel
    game = pyspiel.load_game("konkun_kunken", {"players": 3, "jokers": 2})

Parameters: ``players`` and every rule option of ``RULES.md`` by name, with its default
(Konchinka's ``variant`` too). The game is the engine's deal with chance made explicit:

- **chance nodes**: the dealer (uniform over the seats), then the deal card by card
  (uniform over the cards left; outcome = ``Card.index``, 52 the joker). Konchinka's chance
  deals the whole shuffled deck (of ``deck_ranks`` ranks: a smaller game for MCCFR),
  top card first (its stock is dealt at the redeals), and
  each initial-table fix's insert position into the stock (uniform over the middle half,
  as the engine does it). Kunken's chance deals the hands and the bank's first card, and
  then **each draw** from the stock is a chance node (uniform over the stock's cards); a
  stock renewed from the bank is drawn in its known order, with no chance;
- **player actions** are the research API's action slots (``docs/rl.md``: Konchinka
  ``52 * 32``, Kunken 4,066), legal exactly at the adapter's slots of the legal moves;
- **returns** are zero-sum: a seat's points for the deal minus the mean of the others'
  (terminal reward only);
- **information state**: the string is the seat's JSON view with the whole public history
  and the cards it drew itself (perfect recall); the tensor is the adapter's
  information-state vector (``encode_info_state_deal``, perfect recall);
- **observation**: the seat's JSON view without the history, and the adapter's observation
  tensor (flattened).

``resample_from_infostate`` deals the hidden cards anew consistently with the seat's view
(the engine's ``sample_deal``), which OpenSpiel's ISMCTS bot needs.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from konkun.errors import KonkunError
from konkun.game import get_game
from konkun.rl.envs import adapter_for

GAMES = ("konchinka", "kunken")
"""The konkun games registered, as ``konkun_<name>``."""
MAX_UTILITY = {"konchinka": 5.0, "kunken": 5000.0}
"""A bound on a seat's zero-sum return in each game."""


def _option_default(value: Any) -> Any:
    """A rule option's default as an OpenSpiel parameter (bool, int or str)."""
    return value if isinstance(value, bool | int | str) else str(value)


def parameters(game: str) -> dict[str, Any]:
    """The OpenSpiel parameters of ``game``: ``players`` and the rule options."""
    descriptor = get_game(game)
    params: dict[str, Any] = {"players": descriptor.min_seats}
    rules_type = type(adapter_for(game).rules)
    module = __import__(rules_type.__module__, fromlist=["OPTIONS"])
    for option in module.OPTIONS:
        params[option.name] = _option_default(option.default)
    if hasattr(rules_type, "variant"):
        params["variant"] = "classic"
    return params


def rule_texts(game: str, params: dict[str, Any]) -> dict[str, str]:
    """The rule options of ``params`` as the texts the engine reads."""
    texts: dict[str, str] = {}
    for name, value in params.items():
        if name == "players":
            continue
        texts[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return texts


class NeedChance(Exception):  # noqa: N818 (a signal, not an error)
    """A dealing step needs one more chance outcome (below ``count``)."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


class ScriptedBits(random.Random):
    """A random source that answers ``below(n)`` with the given outcomes in turn, and asks
    for the next one (:class:`NeedChance`) when they run out."""

    def __init__(self, outcomes: list[int], count: int) -> None:
        super().__init__(0)
        self.outcomes = list(outcomes)
        self.count = count

    def getrandbits(self, k: int) -> int:
        """The next scripted outcome (``konkun.cards.below`` accepts it at once)."""
        if not self.outcomes:
            raise NeedChance(self.count)
        return self.outcomes.pop(0)


def make_game_type(game: str) -> pyspiel.GameType:
    """The OpenSpiel game type of ``game``."""
    descriptor = get_game(game)
    return pyspiel.GameType(
        short_name=f"konkun_{game}", long_name=f"konkun {descriptor.title.en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=descriptor.max_seats, min_num_players=descriptor.min_seats,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters(game))


class KonkunGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a konkun game as an OpenSpiel game (see the module)."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.name
        merged = {**parameters(game), **(params or {})}
        self.num_seats = int(merged["players"])
        get_game(game).check_seats(self.num_seats)
        try:
            self.adapter = adapter_for(game, rule_texts(game, merged))
            if game == "konchinka":
                self.adapter.rules.check_deck(self.num_seats)
        except KonkunError as error:
            raise ValueError(str(error)) from None
        n = self.num_seats
        length = 52 if game == "konchinka" else self.adapter.history_rows(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.adapter.action_size, max_chance_outcomes=53,
            num_players=n, min_utility=-MAX_UTILITY[game], max_utility=MAX_UTILITY[game],
            utility_sum=0.0, max_game_length=length)
        super().__init__(make_game_type(game), info, merged)

    def new_initial_state(self) -> KonkunState:
        """The state before the dealer is drawn."""
        return KonkunState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KonkunObserver:
        """The observer of a seat: its information state (perfect recall) or its
        observation."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KonkunObserver(self, perfect)


class KonchinkaGame(KonkunGame):
    """``konkun_konchinka``."""

    name = "konchinka"


class KunkenGame(KonkunGame):
    """``konkun_kunken``."""

    name = "kunken"


class KonkunState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the chance outcomes so far, then the engine's deal."""

    def __init__(self, game: KonkunGame) -> None:
        super().__init__(game)
        self.game_name = game.name
        self.adapter = game.adapter
        self.num_seats = game.num_seats
        self.dealer: int | None = None
        self.cards: list[int] = []      # the cards dealt by chance, in dealing order
        self.fixes: list[int] = []      # Konchinka: the table fix's insert positions
        self.deal: Any = None
        self.pending_draw: Any = None   # Kunken: a draw waiting for its card
        self._need = 0                  # outcomes of the pending dealing chance node
        self._resamples = 0

    # ------------------------------------------------------------------ chance

    def _pack(self) -> list[int]:
        """Every card of the pack as indices (two decks and the jokers in Kunken)."""
        if self.game_name == "konchinka":
            from konkun.konchinka.deck import deck_indices

            return deck_indices(self.adapter.rules.deck_ranks)
        return [*range(52), *range(52), *[52] * self.adapter.rules.jokers]

    def _left(self) -> list[int]:
        """The pack minus the cards dealt so far (as a count per card)."""
        counts = np.bincount(self._pack(), minlength=53)
        for card in self.cards:
            counts[card] -= 1
        return [int(c) for c in counts]

    def _dealt_count(self) -> int:
        """How many cards chance deals before play: Konchinka the whole deck, Kunken the
        hands and the bank's first card."""
        if self.game_name == "konchinka":
            return 4 * int(self.adapter.rules.deck_ranks)
        return int(self.adapter.rules.hand_size) * self.num_seats + 1

    def current_player(self) -> int:
        """The seat to act, chance, or terminal."""
        if self.deal is None or self.pending_draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.deal.to_move)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node and their probabilities."""
        if self.dealer is None:
            return [(seat, 1.0 / self.num_seats) for seat in range(self.num_seats)]
        if self.pending_draw is not None:
            counts = np.bincount(self.deal.stock, minlength=53)
            total = int(counts.sum())
            return [(card, int(c) / total) for card, c in enumerate(counts) if c]
        if len(self.cards) < self._dealt_count():
            left = self._left()
            total = sum(left)
            return [(card, c / total) for card, c in enumerate(left) if c]
        return [(position, 1.0 / self._need) for position in range(self._need)]

    def _build_deal(self) -> None:
        """Make the engine's deal once chance has dealt (Konchinka: unless the table fix
        needs another insert position, which becomes the next chance node)."""
        if self.game_name == "kunken":
            self._build_kunken()
            return
        from konkun.konchinka.deal import KonchinkaDeal
        from konkun.konchinka.dealing import split_deal

        n = self.num_seats
        size = self._dealt_count() - 4 * n - 4
        need = size - 2 * (size // 4) + 1
        rules = self.adapter.rules
        assert self.dealer is not None
        try:
            hands, table, stock, returned = split_deal(
                rules, n, self.dealer, list(self.cards), ScriptedBits(self.fixes, need))
        except NeedChance as asked:
            self._need = asked.count
            return
        self.deal = KonchinkaDeal.from_indices(
            rules, dealer=self.dealer, hands=hands, table=table, stock=stock,
            piles=[0] * n, next_seat=(self.dealer + 1) % n, over=False, last_capturer=None,
            returned=returned)

    def _build_kunken(self) -> None:
        from konkun.kunken.deal_fields import cards_of
        from konkun.kunken.position import KunkenPosition
        from konkun.kunken.state import KunkenDeal

        n = self.num_seats
        assert self.dealer is not None
        hands = [[0] * 53 for _ in range(n)]
        size = self.adapter.rules.hand_size
        for k in range(size * n):
            hands[(self.dealer + 1 + k % n) % n][self.cards[k]] += 1
        bank = self.cards[size * n]
        stock = tuple(cards_of(self._left()))
        empty: tuple[int, ...] = ()
        self.deal = KunkenDeal.from_position(KunkenPosition(
            rules=self.adapter.rules, dealer=self.dealer,
            hands=tuple(tuple(cards_of(h)) for h in hands), stock=stock, bank=(bank,),
            melds=(), taken=(empty,) * n, layout=(False,) * n,
            to_move=(self.dealer + 1) % n))

    # ------------------------------------------------------------------ acting

    def _legal_actions(self, player: int) -> list[int]:
        """The slots of the legal moves of ``player`` (ascending)."""
        deal = self.deal
        return sorted(self.adapter.slots(deal, deal.legal_actions()))

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or a player's slot."""
        if self.is_chance_node():
            self._apply_chance(int(action))
            return
        deal = self.deal
        move = self.adapter.slots(deal, deal.legal_actions())[int(action)]
        if self.game_name == "kunken" and move.kind == "draw" and deal.renewals == 0 \
                and len(set(deal.stock)) > 1:  # a renewed stock is drawn in known order
            self.pending_draw = move  # chance draws the card first
            return
        deal.push(move)

    def _apply_chance(self, outcome: int) -> None:
        if self.dealer is None:
            self.dealer = outcome
        elif self.pending_draw is not None:
            stock = self.deal.stock  # the next card to draw is the last
            place = len(stock) - 1 - stock[::-1].index(outcome)
            stock[place], stock[-1] = stock[-1], stock[place]
            move, self.pending_draw = self.pending_draw, None
            self.deal.push(move)
            return
        elif len(self.cards) < self._dealt_count():
            self.cards.append(outcome)
        else:
            self.fixes.append(outcome)
        if len(self.cards) == self._dealt_count():
            self._build_deal()

    def _action_to_string(self, player: int, action: int) -> str:
        """A chance outcome or a move, as text."""
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer {action}"
            if self.deal is None and len(self.cards) >= self._dealt_count():
                return f"fix position {action}"
            return "deal X" if action == 52 else f"deal {card_text(action)}"
        deal = self.deal
        slots = self.adapter.slots(deal, deal.legal_actions())
        move = slots.get(int(action))
        return f"slot {action}" if move is None else deal.format_action(move)

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.deal is not None and self.pending_draw is None and self.deal.is_over()

    def returns(self) -> list[float]:
        """Each seat's points minus the mean of the others' (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * self.num_seats
        points = [float(p) for p in self.deal.points()]
        total = sum(points)
        n = self.num_seats
        return [p - (total - p) / (n - 1) for p in points]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state with the same information state for ``player_id``, the hidden cards
        dealt anew (the engine's ``sample_deal`` of the seat's view)."""
        state = self.get_game().new_initial_state()
        state.dealer, state.cards, state.fixes = self.dealer, list(self.cards), list(self.fixes)
        if self.deal is None:
            return self.clone()
        self._resamples += 1
        rng = random.Random(f"{self.information_state_string(player_id)}#{self._resamples}")
        sampled = self.deal.observe(player_id).sample_deal(rng)
        if self.game_name == "kunken":
            from konkun.rl.kunken_adapter import drawn_cards, history_with_seats

            sampled.history = list(self.deal.history)
            draws = drawn_cards(self.deal)
            own = {i for i, (s, _) in enumerate(history_with_seats(self.deal)) if s == player_id}
            sampled.drawn = [card if i in own else 0 for i, card in sorted(draws.items())]
        state.deal = sampled
        state.pending_draw = self.pending_draw
        return state

    def __str__(self) -> str:
        """The deal as the engine writes it (or the chance dealt so far)."""
        if self.deal is None:
            return f"dealer={self.dealer} dealt={len(self.cards)} fixes={self.fixes}"
        views = [self.deal.observe(seat).to_json() for seat in range(self.num_seats)]
        return json.dumps(views, sort_keys=True)


def card_text(index: int) -> str:
    """The text of card ``index`` (``X`` the joker), as the engines write it."""
    from konkun.kunken.melds import card_text as text

    return text(index)


def information_string(state: KonkunState, player: int) -> str:
    """The seat's information state as text: its JSON view with the whole public history
    and the cards it drew itself (perfect recall), or what it saw of the deal so far."""
    if state.deal is None:
        mine, table = seen_in_deal(state, player)
        return (f"p{player} dealer={state.dealer} dealt={len(state.cards)} "
                f"mine={' '.join(mine)} table={' '.join(table)}")
    view = state.adapter.observe_json(state.deal, player)
    if state.game_name == "kunken":
        from konkun.rl.kunken_adapter import drawn_cards, history_with_seats

        seats = history_with_seats(state.deal)
        view["my_draws"] = [[i, card_text(c)] for i, c in sorted(drawn_cards(state.deal).items())
                            if seats[i][0] == player]
    view["pending_draw"] = state.pending_draw is not None
    return f"p{player} " + json.dumps(view, sort_keys=True)


def seen_in_deal(state: KonkunState, player: int) -> tuple[list[str], list[str]]:
    """What ``player`` has seen of the cards chance dealt so far: its own and the face-up
    ones (Konchinka's table, Kunken's bank), in dealing order."""
    mine: list[str] = []
    table: list[str] = []
    n = state.num_seats
    if state.dealer is None:
        return mine, table
    konchinka = state.game_name == "konchinka"
    hand_cards = 4 * (n + 1) if konchinka else state.adapter.rules.hand_size * n
    for k, card in enumerate(state.cards):
        if konchinka:
            if k >= hand_cards:
                break  # the stock: nobody sees it
            seat_k = k % (n + 1)
            if seat_k == n:
                table.append(card_text(card))
                continue
        elif k >= hand_cards:
            table.append(card_text(card))  # the bank's first card
            continue
        else:
            seat_k = k % n
        if (state.dealer + 1 + seat_k) % n == player:
            mine.append(card_text(card))
    return mine, table


def observation_string(state: KonkunState, player: int) -> str:
    """The seat's current view as text (no history)."""
    if state.deal is None:
        return information_string(state, player)
    view = state.deal.observe(player).to_json()
    view.pop("history", None)
    return f"p{player} " + json.dumps(view, sort_keys=True)


class KonkunObserver:
    """OpenSpiel's observer (the ``PyObserver`` interface): the information state
    (``perfect_recall``) or the observation of one seat, as a tensor and a string."""

    def __init__(self, game: KonkunGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        n = game.num_seats
        size = (game.adapter.info_state_size(n) if perfect_recall
                else int(np.prod(game.adapter.observation_shape(n))))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KonkunState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` (zeros while chance deals)."""
        if state.deal is None:
            self.tensor.fill(0.0)
            return
        adapter = state.adapter
        if self.perfect_recall:
            self.tensor[:] = adapter.encode_info_state_deal(state.deal, player)
        else:
            self.tensor[:] = adapter.encode_deal(state.deal, player).reshape(-1)

    def string_from(self, state: KonkunState, player: int) -> str:
        """``player``'s information state or observation of ``state`` as text."""
        if self.perfect_recall:
            return information_string(state, player)
        return observation_string(state, player)


for _game_class in (KonchinkaGame, KunkenGame):
    pyspiel.register_game(make_game_type(_game_class.name), _game_class)


__all__ = ["GAMES", "KonchinkaGame", "KonkunGame", "KonkunObserver", "KonkunState",
           "KunkenGame", "parameters"]
