"""Unstackable positions for the compiled playouts of the flat search (`playout_kernel.py`):
`encode` writes a state into `vector_rules`' arrays, `action_move` reads an action back as
a move, and `KernelPlayouts` is what `Unstackable.playouts` hands to the `mcts` bot.

Unstackable hides nothing (the supply, the grid and the piles are on the table), so a
playout starts from the position itself. Importing this module imports numba; the game
imports it only when a search asks for playouts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cubegames.core.game import Playouts
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable import playout_kernel, vector_rules
from cubegames.games.unstackable.box import COLOURS
from cubegames.games.unstackable.notation import End, Stack, Unstack, UnstackableMove
from cubegames.games.unstackable.state import Stage, UnstackableState
from cubegames.kit.playouts import batch_arrays, rewards


def encode(state: UnstackableState) -> tuple[vector_rules.Boards, vector_rules.Rows]:
    """`state` as one game of `vector_rules`' arrays: (boards of shape (1, 3), row of shape
    (1, FIELDS))."""
    boards = np.zeros((1, 3), dtype=np.uint64)
    st = np.zeros((1, vector_rules.FIELDS), dtype=np.int64)
    for c, colour in enumerate(COLOURS):
        boards[0, c] = np.uint64(state.boards[colour])
        st[0, vector_rules.SUPPLY + c] = state.supply[colour]
        for seat in (0, 1):
            for pile in (0, 1):
                st[0, vector_rules.PILES + 6 * seat + 3 * pile + c] = state.piles[seat][pile].count(
                    colour.value
                )
    mover = state.to_move
    st[0, vector_rules.STAGE] = 2 if mover is None else 0 if state.stage is Stage.STACK else 1
    st[0, vector_rules.TO_MOVE] = -1 if mover is None else mover
    st[0, vector_rules.COLOUR] = -1 if state.colour is None else COLOURS.index(state.colour)
    st[0, vector_rules.PLACED] = state.placed
    st[0, vector_rules.REMOVED] = state.removed
    st[0, vector_rules.LAST_RED] = -1 if state.last_red is None else state.last_red
    st[0, vector_rules.LAST_MOVER] = -1
    return boards, st


def action_move(action: int) -> UnstackableMove:
    """The move of a `vector_rules` action."""
    if action == vector_rules.END:
        return End()
    if action >= vector_rules.REMOVALS:
        return Unstack(*bb.coords(action - vector_rules.REMOVALS))
    c, k = divmod(action, vector_rules.STACK_CELLS)
    if k < 64:
        x, y, z = bb.coords(k)
    elif k < 68:
        x, y, z = -1, k - 64, 0
    else:
        x, y, z = k - 68, -1, 0
    return Stack(COLOURS[c], x, y, z)


def legal_actions(state: UnstackableState) -> list[int]:
    """The legal actions of `state`, by `vector_rules.legal`."""
    boards, st = encode(state)
    mask = np.zeros(vector_rules.ACTIONS, dtype=np.bool_)
    game = state.game
    vector_rules.legal(boards, st, 0, game.bag_counts_as_exposed, game.exact_counts, mask)
    found: list[int] = np.flatnonzero(mask).tolist()
    return found


class KernelPlayouts(Playouts[UnstackableMove]):
    """Playouts of a flat search from one position (`playout_kernel.playout_batch`): every
    legal move is a root move; each playout plays it, then the light policy to the end."""

    #: a playout costs a few microseconds: 1000 a move (97.5% against `greedy` in 40 games,
    #: 87.5% with 300; see benchmarks/strength.md)
    budget = 1000
    #: how often the policy plays the greedy kind of move rather than any
    GREED = 0.8
    #: points of difference that count as a clear lead (the reward's logistic scale)
    TEMPERATURE = 2.0

    def __init__(self, state: UnstackableState) -> None:
        seat = state.to_move
        assert seat is not None
        game = state.game
        box = game.box
        self.seat = seat
        self.boards, self.st = encode(state)
        self.actions = np.array(legal_actions(state), dtype=np.int64)
        self.moves = [action_move(a) for a in self.actions.tolist()]
        self.per_turn = np.array([box.per_turn[c] for c in COLOURS], dtype=np.int64)
        self.gains = np.array([[box.points[p][c] for c in COLOURS] for p in (0, 1)], np.int64)
        self.bag = game.bag_counts_as_exposed

    def run(self, move: int, seed: int) -> list[float]:
        mine = self.batch([move], [seed], self.seat)[0]
        return [mine, 1.0 - mine] if self.seat == 0 else [1.0 - mine, mine]

    def batch(self, moves: Sequence[int], seeds: Sequence[int], seat: int) -> list[float]:
        arms, drawn, out = batch_arrays(moves, seeds)
        playout_kernel.playout_batch(
            self.boards,
            self.st,
            self.actions,
            arms,
            drawn,
            seat,
            self.per_turn,
            self.gains,
            self.bag,
            self.GREED,
            self.TEMPERATURE,
            out,
        )
        return rewards(out)
