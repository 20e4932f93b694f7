"""The C core of :class:`konkun.kunken.arrangement.HandSearch` (``hand_search.c``), built by
``python -m konkun.native --build``."""

from collections.abc import Callable, Sequence

def configure(values: Sequence[int],
              group_options: Callable[[int, int, int, int], Sequence[tuple[int, object]]],
              ) -> None:
    """Each card's points in hand (the joker last) and the function listing a group's
    options (:func:`konkun.kunken.arrangement.group_options`)."""

class Search:
    """The memoised search over the melds of a hand (``counts``: copies of each card, then
    the jokers)."""

    def __init__(self, counts: Sequence[int], replace: bool = False) -> None: ...
    def reach_from(self, counts: Sequence[int], need: int, leave: bool) -> bool:
        """Whether melds worth ``need`` can be laid from ``counts``, keeping a card when
        ``leave``."""
    def live_value(self, counts: Sequence[int]) -> int:
        """The points of the cards of ``counts`` in some meld of the hand, and its jokers."""
