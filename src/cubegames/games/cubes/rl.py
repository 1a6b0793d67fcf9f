"""CUBES actions and observations.

CUBES has no decisions: every turn is `roll`, and the dice decide what it does. Its codec
has one action (0 = roll), kept so that the game runs in the same environments as the
others (for example as a baseline for multi-agent plumbing). A forced roll
(`roll 1 C . 6 . 3`, a refereed game's typed outcome) is chance, not a choice: it has no
action.

Observation: no planes (`plane_shape == (0,)`); a vector of 3·P + 8 float32 values (P
players, seats relative to the viewer):

    [0, P)           chips per seat ÷ the points in play
    P                pot ÷ the points in play
    [P + 1, 2P + 1)  totals over finished sets ÷ (sets × the points in play)
    next P + 1       seat to roll (relative one-hot), then "the game is over"
    next 1           set ÷ sets
    next 5           the last roll's row (numbers, cubes-few, cubes-many, cubes-only, blank)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cubegames.core.game import Game, Move
from cubegames.games.cubes import Cubes, Roll, Row, classify
from cubegames.kit.encoding import ActionCodec, ActionEncodingError, View
from cubegames.kit.observation import Array, relative
from cubegames.kit.observation import Observer as BaseObserver

ROWS: tuple[Row, ...] = tuple(Row)


def _game(game: Game[Any]) -> Cubes:
    if not isinstance(game, Cubes):
        raise TypeError(f"a CUBES codec needs a CUBES game, not {game.id}")
    return game


class Codec(ActionCodec):
    """One action: roll."""

    game: Cubes

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        self.size = 1

    def encode(self, move: Move, view: View | None = None) -> int:
        if isinstance(move, Roll) and move.faces is None:
            return 0
        raise ActionEncodingError(f"{move} is chance, not an action: the only action is roll")

    def decode(self, index: int, view: View | None = None) -> Move:
        self.check_index(index)
        return Roll()


class Observer(BaseObserver):
    """CUBES: a `3·P + 8` vector, no planes (layout in the module docstring)."""

    game: Cubes

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        self.plane_shape = (0,)
        self.vector_size = 3 * self.game.players + 8
        self.in_play = float(self.game.edition.in_play(self.game.players))

    def fill_planes(self, view: View, out: Array) -> None:
        """CUBES has no spatial features."""

    def vector(self, view: View) -> Array:
        game = self.game
        players = game.players
        order = relative(view["seat"], players)
        out = np.zeros(self.vector_size, dtype=np.float32)
        out[:players] = [view["chips"][s] / self.in_play for s in order]
        out[players] = view["pot"] / self.in_play
        scale = game.sets * self.in_play
        out[players + 1 : 2 * players + 1] = [view["totals"][s] / scale for s in order]
        at = 2 * players + 1
        to_move = view["to_move"]
        out[at + (players if to_move is None else order.index(to_move))] = 1.0
        at += players + 1
        out[at] = view["set"] / game.sets
        if "last_roll" in view:
            out[at + 1 + ROWS.index(classify(view["last_roll"].split()))] = 1.0
        return out
