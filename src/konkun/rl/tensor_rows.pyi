"""The Kunken vector env's tensor rows in C (``tensor_rows.c``), built by
``python -m konkun.native --build``."""

from typing import Any

def write_rows(out: Any, dense: bytes, banks: bytes, scalars: list[int], seats: list[int],
               deals: list[int], laid: Any, owners: Any, scale: Any,
               shape: tuple[int, int, int], norms: tuple[float, float, float]) -> None:
    """Write every row but the meld rows of the tensor of deal ``deals[j]`` as ``seats[j]``
    sees it into ``out[j]`` (``KunkenCore._rest`` in C); bad input raises ``TypeError`` or
    ``ValueError`` before anything is written."""

def append_bytes(out: bytearray, items: list[int]) -> None:
    """Append the ints 0..255 of ``items`` to ``out``, a byte each (``out += bytes(items)``)."""
