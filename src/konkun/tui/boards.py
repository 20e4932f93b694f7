"""The boards of Konchinka and Kunken for the terminal, registered in
:data:`konkun.tui.games.GAMES`."""

from __future__ import annotations
