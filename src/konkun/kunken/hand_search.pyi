"""The C core of :class:`konkun.kunken.arrangement.HandSearch` and of
:func:`konkun.kunken.completion.completable` (``hand_search.c``), built by
``python -m konkun.native --build``."""

from collections.abc import Callable, Sequence

from konkun.kunken.actions import Action

def configure(values: Sequence[int], position_values: Sequence[int]) -> None:
    """Each card's points in hand (the joker last) and the points of an open set joker of
    each rank position; forgets the groups listed so far."""

def group_options(kind: int, place: int, mask: int, jokers: int
                  ) -> tuple[tuple[int, tuple[tuple[int, ...], int, int, int]], ...]:
    """The options the C core lists for one group of melds: (lowest card, (real cards,
    jokers, points, value)) for each meld of ``hand_melds.meld_group`` of the same
    arguments (:func:`konkun.kunken.arrangement.group_options` without the hand code)."""

class Search:
    """The memoised search over the melds of a hand (``counts``: copies of each card, then
    the jokers)."""

    def __init__(self, counts: Sequence[int], replace: bool = False) -> None: ...
    def reach_from(self, counts: Sequence[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts``, keeping a card when
        ``leave``."""
    def live_value(self, counts: Sequence[int]) -> int:
        """The points of the cards of ``counts`` in some meld of the hand, and its jokers."""

def completable(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                layout: bool, table: tuple[tuple[int, int, int, int, int], ...],
                replace: bool, melds_fail: bool = False) -> bool:
    """The exact completion judge of a take turn
    (:func:`konkun.kunken.completion.reference_completable` in C): bad input raises
    ``TypeError`` or ``ValueError`` naming it."""

def configure_judge(search: Callable[..., bool]) -> None:
    """The Python part :func:`completable` asks: ``completion.search_completion``; forgets
    the judged states."""

def can_complete(counts: list[int], taken: list[int], card: int, need: int, pending: bool,
                 search: Search | None = None, size: int = -1, checked: bool = False,
                 replace: bool = False) -> bool:
    """Whether a take turn can still be completed by laying melds
    (:func:`konkun.kunken.solver.reference_can_complete` in C; ``search``: the C search of
    a :class:`konkun.kunken.arrangement.HandSearch`): bad input raises ``TypeError`` or
    ``ValueError`` naming it."""

def forget_judged() -> int:
    """Empties :func:`completable`'s memo; returns how many states it held."""

def shortest_third(p: int, s: int, jokers: int, old_jokers: int, old_suit: int,
                   old_rank: int, pool_suit: int, pool_rank: int, proxies: bool) -> int:
    """:func:`konkun.kunken.third_card.shortest_third` as :func:`completable` computes it."""

def swap_third_length(hand: list[int], notold: list[int], card: int,
                      table: tuple[tuple[int, int, int, int, int], ...]) -> int:
    """:func:`konkun.kunken.completion.reference_swap_third_length` in C (``card`` not a
    joker): bad input raises ``TypeError`` or ``ValueError`` naming it."""

def take_positions(hand: list[int], bank: list[int], need: int,
                   table: tuple[tuple[int, int, int, int, int], ...] | None, layout: bool,
                   replace: bool) -> list[int]:
    """The take scan: with ``table`` ``None``
    :func:`konkun.kunken.solver.reference_take_positions` in C, else
    :func:`konkun.kunken.completion.reference_take_positions`; bad input (a bank card past
    52, more copies of a card in the hand and the bank than a search holds) raises
    ``TypeError`` or ``ValueError`` naming it."""

def swap_third_melds(hand: list[int], notold: list[int], card: int,
                     table: tuple[tuple[int, int, int, int, int], ...],
                     melds: list[tuple[int, ...]], size: int
                     ) -> tuple[int, list[tuple[int, ...]]]:
    """The shortest third-card meld over every choice of swaps now
    (:func:`konkun.kunken.completion.swap_third_length`) and the legal melds among ``melds``
    while only the taken ``card``'s meld is due, with a layout and ``joker_for_held``
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_swap_third_melds` in C): bad
    input (a meld not in canonical form, or not laid from the hand, a hand without ``card``)
    raises ``TypeError`` or ``ValueError`` naming it."""

def opening_melds(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                  opening: bool, table: tuple[tuple[int, int, int, int, int], ...],
                  replace: bool, melds: list[tuple[int, ...]], size: int,
                  search: Search | None) -> list[tuple[int, ...]]:
    """The legal melds among ``melds`` while opening points are due
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_opening_melds` in C): those
    leaving a card after which the turn can still be completed, by melds alone
    (:func:`can_complete`) or else exactly (:func:`completable`); ``search``: the C search of
    the hand, or ``None`` to build one. Bad input (a meld not in canonical form, or not laid
    from the hand) raises ``TypeError`` or ``ValueError`` naming it."""

def opening_layoffs(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                    table: tuple[tuple[int, int, int, int, int], ...], replace: bool,
                    search: Search | None) -> list[tuple[int, int]]:
    """The legal lay-offs (meld number, slot) onto ``table`` (every table meld, in order)
    while opening points are due, without a layout
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_opening_layoffs` in C): bad input
    raises ``TypeError`` or ``ValueError`` naming it."""

def layout_layoffs(hand: list[int], notold: list[int], card: int, need: int, pending: bool,
                   table: tuple[tuple[int, int, int, int, int], ...], replace: bool,
                   search: Search | None) -> list[tuple[int, int]]:
    """The legal lay-offs (meld number, slot) onto ``table`` (every table meld, in order)
    while opening points are due, with a layout
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_layout_layoffs` in C): bad input
    raises ``TypeError`` or ``ValueError`` naming it."""

def swap_third_list(hand: list[int], notold: list[int], card: int,
                    table: tuple[tuple[int, int, int, int, int], ...],
                    melds: list[tuple[int, ...]], size: int,
                    options: list[list[tuple[int, int]]], swaps: list[Action]
                    ) -> tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]:
    """The legal list after a take while only the taken ``card``'s meld is due, with a
    layout and ``joker_for_held``
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_swap_third_actions` in C): the
    legal melds among ``melds`` (as :func:`swap_third_melds`), the legal lay-offs (meld
    number, slot) among ``options`` (each meld of ``table``'s
    :meth:`~konkun.kunken.melds.TableMeld.layoff_options`, in order; ``table``: every meld's
    compact form) and the legal swaps among the candidate ``swaps``, each in order: bad
    input (a lay-off or swap that is not one the hand can make onto that meld, and what
    :func:`swap_third_melds` refuses) raises ``TypeError`` or ``ValueError`` naming it."""

def candidate_melds(counts: Sequence[int], replace: bool) -> list[tuple[int, ...]]:
    """Every meld a hand may lay now (``LegalSteps.candidate_melds``): ``hand_melds`` of
    ``counts`` and ``replace``, then each set of three with its open joker's suit declared."""

def identity_verdicts(hand: list[int], notold: list[int], card: int, need: int, layout: bool,
                      table: tuple[tuple[int, int, int, int, int], ...], replace: bool,
                      marks: list[int], steps: list[Action]) -> list[bool]:
    """Whether a take turn whose taken ``card`` is still to be melded can be completed after
    each of ``steps`` (melds, lay-offs, swaps), each joker kept as what it is
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_identity_completes` in C: the
    turn after the step as :meth:`~konkun.kunken.applying.Applying.push` makes it, then
    :func:`konkun.kunken.completion.completable_marked`; ``marks``: the turn's joker marks,
    :func:`~konkun.kunken.deal_fields.joker_mark`): bad input (a step the hand cannot make,
    a mark that is not a joker of ``table``, what ``completable`` refuses) raises
    ``TypeError`` or ``ValueError`` naming it."""

def third_card_list(hand: list[int], notold: list[int], card: int, need: int, layout: bool,
                    table: tuple[tuple[int, int, int, int, int], ...], replace: bool,
                    melds: list[tuple[int, ...]], size: int, swaps: list[Action]
                    ) -> tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]:
    """The legal list after a take while the taken ``card``'s meld is due and no points are
    (``need`` at most 0), outside the swap-third case
    (:meth:`konkun.kunken.legal_steps.LegalSteps.reference_third_card_actions` in C): the
    legal melds among ``melds``, the legal lay-offs (meld number, slot) onto ``table``
    (every meld's compact form, in order; none when ``size`` is below 2) and the legal
    swaps among the candidate ``swaps``, each in order: bad input (a hand without the taken
    card that is not a joker, a meld or swap the hand cannot make) raises ``TypeError`` or
    ``ValueError`` naming it."""
