"""Shared by every test: the toy game (:mod:`konkun.toy`) is registered beside the real
games through the public API only, by text so that the arena's worker processes find it."""

from __future__ import annotations

from konkun.game import register_game

register_game("konkun.toy:GAME")
