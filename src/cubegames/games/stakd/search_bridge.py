"""STAKD positions for the compiled rules of `playout_kernel.py`: the candidates of a
round's bases (`tables`), a position as arrays (`encode`), the flat search's playouts
(`KernelPlayouts`, handed to the `mcts` bot by `Stakd.playouts`) and the greedy bot's
values computed in the kernel (`greedy_move`).

The kernel covers a round once its bases are down and its base nodes number at most 64
(`supported`); while bases are being laid the flat search considers the greedy heuristic's
base alone. STAKD hides nothing, so playouts start from the position itself. Importing this
module imports numba; the game imports it only when a search or the greedy bot asks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from cubegames.core.game import Playouts
from cubegames.games.stakd import playout_kernel as k
from cubegames.games.stakd import search_hooks
from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.pieces import STACKING, STEPS, TYPES, pack, unpack
from cubegames.games.stakd.state import StakdState
from cubegames.kit.playouts import batch_arrays, rewards

_TABLES: dict[tuple[int, tuple[int, ...]], tuple[k.Tables, dict[tuple[int, int], int]]] = {}


def supported(state: StakdState) -> bool:
    """Whether the kernel plays this position: a round going on, its bases all down, at
    most 64 base nodes."""
    return state.to_move is not None and not state.base_phase and len(state.board.layers[0]) <= 64


def tables(state: StakdState) -> tuple[k.Tables, dict[tuple[int, int], int]]:
    """The candidates of the round's bases, and each one's index by (type, node mask)."""
    nodes = tuple(sorted(state.board.layers[0]))
    key = (id(state.ed), nodes)
    found = _TABLES.get(key)
    if found is not None:
        return found
    index = {n: i for i, n in enumerate(nodes)}
    rows: list[tuple[int, int, int, list[int]]] = []
    for piece in STACKING:
        t = TYPES.index(piece)
        for offs in state.ed.offsets[piece]:
            for anchor in nodes:
                cells = [anchor + o for o in offs]
                if not all(c in index for c in cells):
                    continue
                mask = 0
                for c in cells:
                    mask |= 1 << index[c]
                near = 0
                for c in cells:
                    for d in STEPS:
                        if c + d in index:
                            near |= 1 << index[c + d]
                rows.append((t, mask, near & ~mask, [index[c] for c in cells]))
    rows.sort(key=lambda r: (min(r[3]), r[0], r[1]))
    start = np.zeros(65, dtype=np.int64)
    for r in rows:
        start[min(r[3]) + 1] += 1
    start = np.cumsum(start)
    width = max((len(r[3]) for r in rows), default=1)
    cnodes = np.zeros((max(len(rows), 1), width), dtype=np.int64)
    for i, row in enumerate(rows):
        cnodes[i, : len(row[3])] = row[3]
    made = k.Tables(
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.uint64),
        np.array([r[2] for r in rows], dtype=np.uint64),
        cnodes,
        np.array([len(r[3]) for r in rows], dtype=np.int64),
        start.astype(np.int64),
    )
    lookup = {(r[0], r[1]): i for i, r in enumerate(rows)}
    if len(_TABLES) > 64:
        _TABLES.clear()
    found = _TABLES[key] = (made, lookup)
    return found


def encode(state: StakdState) -> k.Position:
    """`state` (which `supported` accepts) as kernel arrays."""
    board = state.board
    nodes = sorted(board.layers[0])
    index = {n: i for i, n in enumerate(nodes)}
    players = state.game.players
    stacking = sum(state.ed.counts[players][t] for t in STACKING) * players
    layers = board.top + stacking + 4
    pieces = len(board.pieces) + stacking + 1
    pos = k.Position(
        np.zeros(k.META, dtype=np.int64),
        np.array([[hand[t] for t in TYPES] for hand in state.hands], dtype=np.int64),
        np.zeros(pieces, dtype=np.int64),
        np.zeros(pieces, dtype=np.int64),
        np.zeros(pieces, dtype=np.uint64),
        np.zeros(layers, dtype=np.uint64),
        np.zeros(layers, dtype=np.uint64),
        np.zeros(layers, dtype=np.int64),
        np.zeros(layers, dtype=np.int64),
        np.zeros((layers, 64), dtype=np.int64),
    )
    last = -1
    for p, laid in enumerate(board.pieces):
        mask = 0
        for n in laid.nodes:
            mask |= 1 << index[n]
            pos.cover[laid.z, index[n]] = p
        pos.ptype[p] = TYPES.index(laid.piece)
        pos.pcarry[p] = board.carries[p]
        pos.pmask[p] = np.uint64(mask)
        pos.occ[laid.z] |= np.uint64(mask)
        pos.size[laid.z] += 1
        if laid.piece.value == "BOMBER":
            pos.bombed[laid.z] = 1
            for n in laid.nodes:
                s = board.layers[laid.z - 1][n]
                pos.dead[laid.z - 1] |= np.uint64(sum(1 << index[m] for m in board.pieces[s].nodes))
        else:
            last = laid.owner
    meta = pos.meta
    meta[k.M_TO_MOVE] = -1 if state.to_move is None else state.to_move
    meta[k.M_TOP] = board.top
    meta[k.M_PIECES] = len(board.pieces)
    meta[k.M_OUT] = sum(1 << s for s in state.out)
    meta[k.M_LAST] = last
    meta[k.M_WINNER] = -1
    meta[k.M_PLAYERS] = players
    meta[k.M_NEED] = state.ed.new_layer_after
    meta[k.M_LOOSE] = int(state.game.uni_opens_beside_bombers)
    meta[k.M_LAST_TYPE] = TYPES.index(board.pieces[-1].piece) if board.pieces else 0
    return pos


def place_of(state: StakdState, c: int, z: int) -> Place:
    """The move that lays candidate `c` of the round's `tables` on layer `z`."""
    tb, _ = tables(state)
    nodes = sorted(state.board.layers[0])
    cells = tb.cnodes[c, : tb.csize[c]].tolist()
    return Place(TYPES[int(tb.ctype[c])], z, tuple(sorted(unpack(nodes[i]) for i in cells)))


def roots(state: StakdState, moves: list[Place]) -> tuple[k.Arr, k.Arr]:
    """The candidates and layers of `moves` (legal moves of `state`)."""
    _, lookup = tables(state)
    nodes = sorted(state.board.layers[0])
    index = {n: i for i, n in enumerate(nodes)}
    cs: list[int] = []
    for move in moves:
        mask = 0
        for x, y in move.nodes:
            mask |= 1 << index[pack(x, y)]
        cs.append(lookup[(TYPES.index(move.piece), mask)])
    return np.array(cs, dtype=np.int64), np.array([m.z for m in moves], dtype=np.int64)


class KernelPlayouts(Playouts[Place]):
    """Playouts of a flat search (`playout_kernel.playout_batch`): every legal move is a
    root move, each playout plays it, then the light policy to the end of the round."""

    #: a playout runs to the end of the round (tens of microseconds): 150 a move
    budget = 150
    #: how often the policy lays one of its biggest pieces rather than any
    GREED = 0.75

    def __init__(self, state: StakdState) -> None:
        seat = state.to_move
        assert seat is not None
        self.seat = seat
        self.moves = state.legal_moves()
        self.tables, _ = tables(state)
        self.start = encode(state)
        self.scratch = encode(state)
        self.roots_c, self.roots_z = roots(state, self.moves)
        self.points = np.array(state.points, dtype=np.int64)
        self.target = state.game.points_to_win
        self.total = sum(state.ed.counts[state.game.players].values())

    def run(self, move: int, seed: int) -> list[float]:
        out = np.empty(self.points.shape[0], dtype=np.float64)
        width = self.tables.ctype.shape[0] * 2
        k.playout(
            self.scratch,
            self.start,
            self.tables,
            int(self.roots_c[move]),
            int(self.roots_z[move]),
            seed,
            self.GREED,
            self.points,
            self.target,
            self.total,
            out,
            np.empty(width, dtype=np.int64),
            np.empty(width, dtype=np.int64),
            np.empty(1, dtype=np.int64),
        )
        result: list[float] = out.tolist()
        return result

    def batch(self, moves: Sequence[int], seeds: Sequence[int], seat: int) -> list[float]:
        arms, drawn, out = batch_arrays(moves, seeds)
        k.playout_batch(
            self.scratch,
            self.start,
            self.tables,
            self.roots_c,
            self.roots_z,
            arms,
            drawn,
            seat,
            self.GREED,
            self.points,
            self.target,
            self.total,
            out,
        )
        return rewards(out)


class OneMove(Playouts[Place]):
    """The root of a flat search that has one move to consider (no playout is run)."""

    def __init__(self, move: Place) -> None:
        self.moves = [move]

    def run(self, move: int, seed: int) -> list[float]:
        raise ValueError("a search with one move runs no playout")


def playouts(state: StakdState, rng: random.Random) -> Playouts[Place] | None:
    """The flat search's playouts from `state`: in the kernel once the bases are down; while
    bases are laid, the greedy heuristic's base alone; None when the game is over or the
    bases are too many for the kernel."""
    if state.to_move is None:
        return None
    if state.base_phase:
        return OneMove(search_hooks.greedy_move(state, rng))
    if not supported(state):
        return None
    return KernelPlayouts(state)


def greedy_move(state: StakdState, rng: random.Random) -> Place:
    """`search_hooks.greedy_move` with the values computed in the kernel: the same move,
    drawing the same number from `rng` (positions `supported` accepts)."""
    seat = state.to_move
    assert seat is not None
    moves = state.legal_moves()
    tb, _ = tables(state)
    roots_c, roots_z = roots(state, moves)
    values = np.empty(len(moves), dtype=np.float64)
    start = encode(state)
    k.greedy_values(
        encode(state),
        start,
        tb,
        roots_c,
        roots_z,
        search_hooks.ROUND_WON,
        search_hooks.SIZE,
        values,
    )
    best = values.max()
    ties = np.flatnonzero(values == best).tolist()
    return moves[ties[rng.randrange(len(ties))]]
