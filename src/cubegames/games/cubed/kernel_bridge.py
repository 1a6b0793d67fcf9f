"""Moving CUBED positions between the Python rules and the compiled kernel
(`compiled_rules.py`, `search_kernel.py`).

`tables(edition)` builds the edition's lookup arrays; `encode(state)` writes a position into
kernel arrays and `decode_into(state, arrays)` writes the kernel's position back, so a round
can be played in the kernel and scored and re-dealt by the Python rules. `random_playout`
is the fast path behind `Cubed.random_playout`.

Importing this module imports numba (about half a second); the rules import it only when a
fast path is asked for.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from cubegames.core import splitmix
from cubegames.core.game import Playouts
from cubegames.core.hexgrid import OFFSET, SPAN, pack, unpack
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import search_hooks, search_kernel
from cubegames.games.cubed.compiled_rules import Arr
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.frontier import BLOCKING_FLAG, EMPTY, rebuild
from cubegames.games.cubed.notation import CubedMove, Draw, Draw3, Give, Pass, Place, Skip
from cubegames.games.cubed.pieces import Piece, canonical, classify, rotations
from cubegames.games.cubed.search_hooks import ROOT_WIDTH
from cubegames.games.cubed.state import (
    BAG_EMPTY,
    BLOCKED,
    EMPTIED,
    STALLED,
    STANDSTILL,
    STUCK,
    CubedState,
)
from cubegames.kit.playouts import batch_arrays, rewards

ENDINGS = {
    k.EMPTIED: EMPTIED,
    k.BLOCKED: BLOCKED,
    k.STALLED: STALLED,
    k.STANDSTILL: STANDSTILL,
    k.STUCK: STUCK,
    k.BAG_EMPTY: BAG_EMPTY,
}
#: how far from 0,0 a kernel cell may lie
REACH = k.OFF - 2


def code(piece: Piece) -> int:
    """A piece's kernel code (top * 64 + left * 8 + right)."""
    return piece[0] * 64 + piece[1] * 8 + piece[2]


def piece_of(value: int) -> Piece:
    """The piece of a kernel code."""
    return (value >> 6, (value >> 3) & 7, value & 7)


def kernel_cell(cell: int) -> int:
    """The kernel cell of a packed cell (`core.hexgrid.pack`)."""
    q, r = unpack(cell)
    return (q + k.OFF) * k.W + (r + k.OFF)


def packed_cell(cell: int) -> int:
    """The packed cell of a kernel cell."""
    return pack(cell // k.W - k.OFF, cell % k.W - k.OFF)


_TABLES: dict[int, tuple[Edition, k.Tables]] = {}


def tables(ed: Edition) -> k.Tables:
    """The edition as the kernel reads it: `(acc, canon, rank, points, isblock, rots, nrots,
    info)`, indexed by piece code (`acc` by edge code + 1); built once per edition."""
    found = _TABLES.get(id(ed))
    if found is None or found[0] is not ed:
        found = _TABLES[id(ed)] = (ed, _tables(ed))
    return found[1]


def _tables(ed: Edition) -> k.Tables:
    ncol = len(ed.colours)
    all_bits = (1 << ncol) - 1
    acc = np.zeros(64, dtype=np.int64)
    for edge in range(-1, 40):
        colour = edge & ~BLOCKING_FLAG
        if edge == EMPTY:
            bits = all_bits
        elif colour >= ncol or colour == ed.black:
            bits = 0
        elif edge & BLOCKING_FLAG:
            bits = 1 << colour
        elif colour == ed.wild:
            bits = all_bits & ~(1 << ed.black)
        else:
            bits = (1 << colour) | (0 if ed.wild is None else 1 << ed.wild)
        acc[edge + 1] = bits
    canon = np.zeros(512, dtype=np.int64)
    rank = np.full(512, 1 << 20, dtype=np.int64)
    points = np.zeros(512, dtype=np.int64)
    isblock = np.zeros(512, dtype=np.int64)
    rots = np.zeros((512, 3), dtype=np.int64)
    nrots = np.zeros(512, dtype=np.int64)
    for value in range(512):
        piece = piece_of(value)
        canon[value] = code(canonical(piece))
        isblock[value] = ed.black in piece
        found = rotations(canonical(piece))
        nrots[value] = len(found)
        for j, rot in enumerate(found):
            rots[value, j] = code(rot)
        if classify(piece, ed.ordinary, ed.wild, ed.black) is not None:
            points[value] = ed.piece_points(piece)
    shown = sorted({rot for piece in ed.pieces for rot in rotations(piece)}, key=ed.text)
    ranked = np.zeros(max(len(shown), 1), dtype=np.int64)
    for i, piece in enumerate(shown):
        rank[code(piece)] = i
        ranked[i] = code(piece)
    words = (len(shown) + k.BITS - 1) // k.BITS
    info = np.array([ed.black, ed.ordinary, words], dtype=np.int64)
    shows = np.zeros((3, 256, k.RANK_WORDS), dtype=np.int64)
    block_rank = np.full((3, 8), -1, dtype=np.int64)
    for i, piece in enumerate(shown):
        if ed.black in piece:
            slot = next(s for s in range(3) if piece[s] != ed.black)
            block_rank[slot, piece[slot]] = i
            continue
        for slot in range(3):
            for mask in range(256):
                if mask >> piece[slot] & 1:
                    shows[slot, mask, i // k.BITS] |= 1 << (i % k.BITS)
    return k.Tables(acc, canon, rank, points, isblock, rots, nrots, info, ranked, shows, block_rank)


def supported(state: CubedState) -> bool:
    """Whether the kernel plays this position's rules move for move as random bots and the
    greedy bot do: 2+ players (solo random games have their own loop in `random_playout`,
    `compiled_rules.play_solo_random`), strict colours, no variants, a box and a table
    that fit its arrays."""
    game = state.game
    if game.players < 2 or game.variants or state.give or state.bonus:
        return False
    return searchable(state)


#: the variants the kernel knows (`compiled_rules.V_*`)
VARIANT_BITS = {"bridging": k.V_BRIDGING, "void": k.V_VOID, "draw3": k.V_DRAW3}


def searchable(state: CubedState) -> bool:
    """Whether the flat search's kernel playouts cover this position: any number of
    players (solo too), strict colours, any variants, a box and a table that fit the
    kernel's arrays, and no draw3 draw waiting to be kept (the search applies each keep in
    Python first)."""
    game = state.game
    ed = game.edition
    if not game.strict_colors or state.drawn:
        return False
    if len(ed.colours) > 8 or len(ed.pieces) > min(k.MAX_BOX, k.MAX_TABLE, k.MAX_HAND):
        return False
    # every rotation of the box has a bit in a set of ranks
    if tables(ed).ranked.shape[0] > k.MAX_RANKS:
        return False
    return all(max(abs(c) for c in unpack(cell)) <= REACH for cell in state.table)


def encode(state: CubedState) -> k.Game:
    """Kernel arrays holding `state` (which `searchable` accepts)."""
    game = state.game
    arrays = k.new_game(game.players)
    meta, hands, hsize, bag = arrays.meta, arrays.hands, arrays.hsize, arrays.bag
    if state.table:
        cells = np.array([kernel_cell(c) for c in state.table], dtype=np.int64)
        codes = np.array([code(p) for p in state.table.values()], dtype=np.int64)
        k.load_table(arrays, tables(game.edition), cells, codes)
    for seat, hand in enumerate(state.hands):
        hsize[seat] = len(hand)
        hands[seat, : len(hand)] = [code(p) for p in hand]
    k.sync_hands(arrays, tables(game.edition))
    bag[: len(state.bag)] = [code(p) for p in state.bag]
    meta[k.M_BAG_HEAD] = 0
    meta[k.M_BAG_END] = len(state.bag)
    meta[k.M_TO_MOVE] = -1 if state.to_move is None else state.to_move
    meta[k.M_DREW] = state.drew
    meta[k.M_IDLE] = state.idle
    meta[k.M_STUCK] = state.stuck
    meta[k.M_DRAWS] = state.draws
    meta[k.M_VARIANTS] = sum(VARIANT_BITS[v] for v in game.variants)
    meta[k.M_BONUS] = state.bonus
    meta[k.M_GIVE] = state.give
    return arrays


def decode_into(state: CubedState, arrays: k.Game, *, frontier: bool = True) -> None:
    """Write the kernel's table, hands, bag and turn into `state` (a round still going on,
    or one whose end the kernel has just found, before the Python rules score it). Without
    `frontier` the state's incremental frontier is left stale: only for a round that has
    ended, whose frontier nothing reads (the next round deals a fresh one)."""
    meta, tab, order, hands, hsize, bag = (
        arrays.meta,
        arrays.tab,
        arrays.order,
        arrays.hands,
        arrays.hsize,
        arrays.bag,
    )
    cells = order[: meta[k.M_NTAB]].astype(np.int64)
    # kernel cell -> packed cell (`core.hexgrid.pack`), for the whole table at once
    packed = (cells // k.W - k.OFF + OFFSET) * SPAN + (cells % k.W - k.OFF + OFFSET)
    state.table = dict(zip(packed.tolist(), map(piece_of, tab[cells].tolist()), strict=True))
    state.hands = [[piece_of(v) for v in hands[s, : hsize[s]].tolist()] for s in range(len(hsize))]
    state.bag = [piece_of(v) for v in bag[meta[k.M_BAG_HEAD] : meta[k.M_BAG_END]].tolist()]
    state._to_move = int(meta[k.M_TO_MOVE])
    state.drew = bool(meta[k.M_DREW])
    state.idle = int(meta[k.M_IDLE])
    state.stuck = int(meta[k.M_STUCK])
    state.draws = int(meta[k.M_DRAWS])
    state.bonus = bool(meta[k.M_BONUS])
    state.give = bool(meta[k.M_GIVE])
    if frontier:
        state.front, state.playable = rebuild(state.game.frontier, state.table)


def end_round(state: CubedState, arrays: k.Game) -> None:
    """Let the Python rules score the round whose end the kernel found (and deal the next)."""
    meta = arrays.meta
    winner = int(meta[k.M_WINNER])
    state._end_round(ENDINGS[int(meta[k.M_END])], None if winner < 0 else winner)


def random_playout(state: CubedState, rngs: list[splitmix.Draws]) -> list[int] | None:
    """Play on to the end as random bots drawing from `rngs` (one per seat, their SplitMix64
    generators) would, move for move; the generators end where the bots' would. Returns the
    seat of each move, or None (nothing played) when the kernel does not cover these rules
    or a generator is keyed (a seed of 2**64 or more, which the kernel does not draw).
    Solo games too: the game's one round to its end (`compiled_rules.play_solo_random`)."""
    solo = state.game.players == 1 and searchable(state)
    if not (solo or supported(state)) or len(rngs) != state.game.players:
        return None
    if any(rng.state >= splitmix.KEYED for rng in rngs):
        return None
    ed_arrays = tables(state.game.edition)
    states = np.array([rng.state for rng in rngs], dtype=np.uint64)
    log = np.empty(1 << 14, dtype=np.int8)
    seats: list[int] = []
    play = k.play_solo_random if solo else k.play_round_random  # solo: one round, to its end
    while state.to_move is not None:
        arrays = encode(state)
        moves = play(arrays, ed_arrays, states, log)
        seats.extend(log[:moves].tolist())
        decode_into(state, arrays, frontier=False)
        end_round(state, arrays)
    for rng, after in zip(rngs, states.tolist(), strict=True):
        rng.state = int(after)
    return seats


def _valued(state: CubedState) -> tuple[Arr, Arr, Arr] | None:
    """Every placement of the seat to move as kernel arrays (rotation codes, kernel cells)
    and its greedy value (`search_hooks._value`), ranked best first, ties by (rotation, cell) as the
    Python rules order them (a piece's code and a kernel cell sort as the colour tuple and
    the packed cell do); None if there is none."""
    seat = state.to_move
    assert seat is not None
    arrays = encode(state)
    ed_arrays = tables(state.ed)
    rots, cells = _buffers()
    count = k.placements(arrays, ed_arrays, seat, rots, cells)
    if count == 0:
        return None
    rots, cells = rots[:count].copy(), cells[:count].copy()
    values = np.empty(count, dtype=np.float64)
    scratch = k.new_game(state.game.players)
    search_kernel.greedy_values(scratch, arrays, ed_arrays, rots, cells, values, *_buffers())
    ranked = np.lexsort((cells, rots, -values))
    return rots[ranked], cells[ranked], values[ranked]


def _place(state: CubedState, rot: int, cell: int) -> Place:
    q, r = divmod(cell, k.W)
    return Place(state.ed.text(piece_of(rot)), q - k.OFF, r - k.OFF)


def root_moves(state: CubedState) -> list[CubedMove]:
    """`search_hooks.root_moves` for a position `supported` accepts, the greedy values computed in
    the kernel: the same moves in the same order."""
    if state.to_move is None:
        return []
    if state.give or state.drawn:
        return state.legal_moves()
    found = _valued(state)
    if found is None or len(found[0]) <= ROOT_WIDTH:
        return state.legal_moves()
    rots, cells, _ = found
    moves: list[CubedMove] = [
        _place(state, rot, cell)
        for rot, cell in zip(rots[:ROOT_WIDTH].tolist(), cells[:ROOT_WIDTH].tolist(), strict=True)
    ]
    return moves + state.other_moves(can_place=True)


def greedy_move(state: CubedState, rng: random.Random) -> CubedMove:
    """`search_hooks.greedy_move` for a position `searchable` accepts, the placements valued
    in the kernel: the same move, drawing the same numbers from `rng`. A pending gift, and
    a turn where nothing fits, are left to the Python heuristic."""
    seat = state.to_move
    assert seat is not None
    found = None if state.give else _valued(state)
    if found is None:
        return search_hooks.greedy_move(state, rng)  # a gift, or nothing fits
    rots, cells, values = found
    if state.bonus and values[0] < search_hooks.stay_value(state, state.hands[seat]):
        return Pass()  # the bonus placement would leave a worse position than none
    ties = int(np.count_nonzero(values == values[0]))
    pick = rng.randrange(ties)
    return _place(state, int(rots[pick]), int(cells[pick]))


def _buffers() -> tuple[Arr, Arr]:
    """Room for the placements of one move."""
    return np.empty(k.MAX_MOVES, dtype=np.int64), np.empty(k.MAX_MOVES, dtype=np.int64)


def kernel_move(state: CubedState, move: CubedMove) -> tuple[int, int, int]:
    """A move of `state` as the kernel plays it (`search_kernel.play_move`): its kind and
    two numbers (a placement's rotation code and kernel cell, a draw3's count, a gift's
    piece by least rotation and the seat it goes to). A keep has none: ValueError."""
    index = state.ed.index
    if isinstance(move, Place):
        piece = (index[move.slots[0]], index[move.slots[1]], index[move.slots[2]])
        cell = (move.q + k.OFF) * k.W + (move.r + k.OFF)
        return search_kernel.PLACE, code(piece), cell
    if isinstance(move, Draw):
        return search_kernel.DRAW, 0, 0
    if isinstance(move, Draw3):
        return search_kernel.DRAW3, move.k, 0
    if isinstance(move, Give):
        given = (index[move.piece[0]], index[move.piece[1]], index[move.piece[2]])
        return search_kernel.GIVE, code(canonical(given)), move.to
    if isinstance(move, Skip):
        return search_kernel.SKIP, 0, 0
    if isinstance(move, Pass):
        return search_kernel.PASS, 0, 0
    raise ValueError(f"the kernel plays no {move}: a keep is played in Python")


class KernelPlayouts(Playouts[CubedMove]):
    """Playouts of a flat search, in the kernel (`search_kernel.playout`).

    Built from one determinization of what the searching seat sees: each run deals the
    hidden pieces (the other hands and the bag) afresh, so which determinization it starts
    from does not matter. Root moves are placements, a draw, a pass, and with the variants
    a draw3, a gift or a skipped gift, all played in the kernel; a draw3 draw waiting to be
    kept is the one step played in Python: each keep makes a template of its own (`of`).
    Solo, a playout plays the game to its end (`search_hooks.flat_horizon`) and is judged
    won or lost (`search_kernel.evaluate`).
    """

    #: moves of the light policy after the root move before the position is judged, with
    #: two seats (`search_hooks.flat_horizon`)
    HORIZON = 8
    #: how often the policy lays its most valuable piece rather than any
    GREED = 0.75
    #: points of difference that count as a clear lead (see `search_kernel.evaluate`), with
    #: up to six seats (`search_hooks.flat_judge`)
    TEMPERATURE = search_hooks.TEMPERATURE

    def __init__(
        self, state: CubedState, moves: list[CubedMove], templates: list[k.Game] | None = None
    ) -> None:
        seat = state.to_move
        assert seat is not None
        self.moves = moves
        self.seat = seat
        self.budget = state.game.flat_budget()
        #: moves after the root move (`HORIZON` with two seats, 4 a seat with more)
        self.horizon = search_hooks.flat_horizon(state.game.players)
        #: how a playout's end is judged (`search_hooks.flat_judge`)
        self.field, self.per_piece, self.temperature = search_hooks.flat_judge(state.game.players)
        #: how the seats play in a playout (`search_hooks.flat_model`)
        self.model = search_hooks.flat_model(state.game.players, bool(state.game.variants))
        #: one template for every root move, or one per root move (`of`)
        self.templates = templates if templates is not None else [encode(state)]
        self.template = self.templates[0]
        self.scratch = k.new_game(state.game.players)
        self.tables = tables(state.ed)
        self.totals = np.array(state.totals, dtype=np.float64)
        self.last_round = state.round >= state.game.rounds
        self.rewards = np.zeros(state.game.players, dtype=np.float64)
        self.out_rot = np.empty(k.MAX_MOVES, dtype=np.int64)
        self.out_cell = np.empty(k.MAX_MOVES, dtype=np.int64)
        self.room = np.empty((3, k.MAX_MOVES), dtype=np.int64)
        self.roots: list[tuple[int, int, int]] = []
        self.of: list[int] = []
        for i, move in enumerate(moves):
            self.of.append(i if templates is not None else 0)
            played = (search_kernel.PLAYED, 0, 0)
            self.roots.append(played if templates is not None else kernel_move(state, move))
        self.kinds = np.array([kind for kind, _, _ in self.roots], dtype=np.int64)
        self.rots = np.array([rot for _, rot, _ in self.roots], dtype=np.int64)
        self.cells = np.array([cell for _, _, cell in self.roots], dtype=np.int64)

    def run(self, move: int, seed: int) -> list[float]:
        kind, rot, cell = self.roots[move]
        search_kernel.playout_model(
            self.scratch,
            self.templates[self.of[move]],
            self.tables,
            self.seat,
            kind,
            rot,
            cell,
            seed,
            self.horizon,
            self.GREED,
            self.model,
            self.totals,
            self.last_round,
            self.temperature,
            self.field,
            self.per_piece,
            self.rewards,
            self.out_rot,
            self.out_cell,
            self.room,
        )
        result: list[float] = self.rewards.tolist()
        return result

    def batch(self, moves: Sequence[int], seeds: Sequence[int], seat: int) -> list[float]:
        arms, drawn, out = batch_arrays(moves, seeds)
        if len(self.templates) == 1:
            self._batch(self.template, arms, drawn, seat, out)
        else:
            of = np.array(self.of, dtype=np.int64)[arms]
            for t in np.unique(of).tolist():
                where = np.flatnonzero(of == t)
                part = np.empty(where.shape[0], dtype=np.float64)
                self._batch(self.templates[t], arms[where], drawn[where], seat, part)
                out[where] = part
        return rewards(out)

    def _batch(self, template: k.Game, arms: Arr, seeds: Arr, seat: int, out: Arr) -> None:
        search_kernel.playout_batch(
            self.scratch,
            template,
            self.tables,
            seat,
            self.kinds,
            self.rots,
            self.cells,
            arms,
            seeds,
            self.horizon,
            self.GREED,
            self.model,
            self.totals,
            self.last_round,
            self.temperature,
            self.field,
            self.per_piece,
            self.rewards,
            self.out_rot,
            self.out_cell,
            self.room,
            out,
        )


def playouts(state: CubedState) -> KernelPlayouts | None:
    """The flat search's playouts from `state` (a determinization of what the seat to move
    sees), or None when the kernel does not cover it (`searchable`; and a draw3 keep that
    would end the round, whose next deal the kernel does not make)."""
    seat = state.to_move
    if seat is None:
        return None
    if not state.drawn:
        if not searchable(state):
            return None
        return KernelPlayouts(state, root_moves(state))
    moves = state.legal_moves()
    templates = []
    for move in moves:
        after = state.clone()
        after._apply(move)
        if after.round != state.round or after.to_move is None or not searchable(after):
            return None
        templates.append(encode(after))
    return KernelPlayouts(state, moves, templates)
