"""CUBED's batched environment on the compiled kernel (`cubegames.games.cubed.compiled_rules`).

N games live in arrays with a leading axis of N; one call of the kernel steps them all. The
observations and masks are exactly those of `observer(game)` and `codec(game)` (tested
against them position by position): the planes are kept up to date cell by cell as pieces
are laid, the vector part is rewritten at every step.

Covered: 2 or more players, 1 round, the strict colour rule, no variants, the default
window (`supports`); `vector_env` gives the Python `SessionVectorEnv` for anything else.
A placement outside the action window (radius 20, about a one-in-a-million game, see
`cubegames.games.cubed.rl`) has no action: the kernel leaves it out of the mask, where the
Python codec would raise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numba.core.dispatcher import Dispatcher

from cubegames.core.chance import entropy_seed
from cubegames.core.errors import shown
from cubegames.core.registry import make
from cubegames.games.cubed import Cubed, kernel_bridge
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import opponents as ko
from cubegames.games.cubed.notation import least_rotation
from cubegames.games.cubed.pieces import canonical, rotations
from cubegames.games.cubed.rl import Codec, Observer, distance
from cubegames.kit.vector import (
    RANDOM,
    SELF,
    Opponent,
    StepResult,
    StepsRows,
    batch_actions,
)
from cubegames.kit.vector import plain_opponent as plain

#: the kinds of opponent its kernel plays (`kit.vector`; by bot name:
#: `cubegames.rl.kernel_opponents.spec`)
KINDS = ko.KINDS

jit = k.jit
Arr = k.Arr
# What the kernel entry points take, grouped so that each is one argument:
Deal = tuple[Arr, Arr, Arr]  # (box, window, rngs): what a new deal needs
Io = tuple[Arr, Arr, Arr, Arr, Arr, Arr, Arr]
# (obs, masks, listed, to_move, placeable, ended, buf): what the games show, per game
Result = tuple[Arr, Arr, Arr, Arr, Arr]
# (actions, rewards, terminations, illegal, seat_rewards): what a step gives, per game

# consts fields
C_PATTERNS = 0
C_DRAW = 1
C_PLANE = 2  # cells of one plane (side * side)
C_COLOURS = 3
C_PIECES = 4
C_BOX = 5
C_BOX_POINTS = 6
C_RANDOM = 7  # 1 when an opponent plays the seats after 0
C_HAND = 8
C_OBS = 9
C_OPPONENT = 10  # which (`kit.vector`: RANDOM, GREEDY, MCTS)
C_BUDGET = 11  # the mcts opponent's playouts


def supports(options: Mapping[str, Any]) -> bool:
    """Whether this environment covers CUBED with `options` (else `vector_env` falls back
    on `SessionVectorEnv`)."""
    if set(options) - {"players", "edition", "rounds", "variants", "strict_colors"}:
        return False
    try:
        game = make("cubed", **options)
    except ValueError:
        return True  # let the environment name the bad option
    assert isinstance(game, Cubed)
    state = game.new_state(0)
    return game.rounds == 1 and kernel_bridge.supported(state)


class Lookup(NamedTuple):
    """What the kernel needs of the codec, the observer and the opponent (`tables`)."""

    #: the codec's pattern of each piece code (-1: none)
    pattern_of: Arr
    #: each pattern's piece code
    pattern_code: Arr
    #: the window's index of each kernel cell (-1: outside), and each window cell's kernel cell
    wcell: Arr
    wcell_k: Arr
    #: each kernel cell's offset in an observation plane (-1: outside the window)
    poff: Arr
    #: each piece code's index among the observer's pieces, and the box's copies of each
    pidx: Arr
    copies: Arr
    #: the small numbers, `C_*`
    consts: Arr


@jit
def _env(batch: k.Game, i: int) -> k.Game:
    """Game `i` of a batch (each field of `batch` holds every game's array, one a row)."""
    return k.Game(
        batch.meta[i],
        batch.tab[i],
        batch.edges[i],
        batch.touch[i],
        batch.dead[i],
        batch.order[i],
        batch.play[i],
        batch.hands[i],
        batch.hsize[i],
        batch.bag[i],
        batch.have[i],
        batch.hbits[i],
        batch.scratch[i],
    )


@jit
def _playable_plane(st: k.Game, obs: Arr, poff: Arr, plane: int, value: float) -> None:
    meta, play = st.meta, st.play
    for j in range(meta[k.M_NPLAY]):
        at = poff[play[j]]
        if at >= 0:
            obs[plane + at] = value


@jit
def _place(st: k.Game, ed: k.Tables, obs: Arr, tb: Lookup, code: int, cell: int) -> None:
    """Lay a piece, and draw it and the dead cells it makes on the planes."""
    poff, consts = tb.poff, tb.consts
    size = consts[C_PLANE]
    colours = consts[C_COLOURS]
    k.place(st, ed, code, cell)
    at = poff[cell]
    if at >= 0:
        for s in range(3):
            obs[(s * colours + k.colour(code, s)) * size + at] = 1.0
        obs[3 * colours * size + at] = 1.0
    tab, dead = st.tab, st.dead
    for d in range(6):
        other = cell + k.STEP[d]
        at = poff[other]
        if at >= 0 and tab[other] < 0 and dead[other] > 0:
            obs[(3 * colours + 1) * size + at] = 1.0


@jit
def _move(
    st: k.Game,
    ed: k.Tables,
    obs: Arr,
    tb: Lookup,
    kind: int,
    code: int,
    cell: int,
    placeable: int,
) -> None:
    """Play a placement (kind 0), the draw (1) or the pass (2); `placeable` counts the
    placements the mover had (a pass with none is a stuck turn)."""
    consts = tb.consts
    playable = (3 * consts[C_COLOURS] + 2) * consts[C_PLANE]
    _playable_plane(st, obs, tb.poff, playable, 0.0)
    if kind == 0:
        _place(st, ed, obs, tb, code, cell)
    elif kind == 1:
        k.draw(st, ed)
    else:
        k.end_turn(st, False, placeable == 0)
    _playable_plane(st, obs, tb.poff, playable, 1.0)


@jit
def _legal(
    st: k.Game, ed: k.Tables, tb: Lookup, seat: int, mask: Arr, listed: Arr, buf: Arr
) -> int:
    """Set the mask of `seat`'s legal actions (clearing the last ones, listed in `listed`,
    whose length is in `listed[-1]`); returns the number of placements."""
    pattern_of, wcell, consts = tb.pattern_of, tb.wcell, tb.consts
    patterns = consts[C_PATTERNS]
    for j in range(listed[listed.shape[0] - 1]):
        mask[listed[j]] = False
    count = k.placements(st, ed, seat, buf[0], buf[1])
    n = 0
    for j in range(count):
        w = wcell[buf[1][j]]
        if w >= 0:
            index = w * patterns + pattern_of[buf[0][j]]
            mask[index] = True
            listed[n] = index
            n += 1
    other = consts[C_DRAW] + (0 if k.can_draw(st) else 1)
    mask[other] = True
    listed[n] = other
    listed[listed.shape[0] - 1] = n + 1
    return count


@jit
def _vector(st: k.Game, ed: k.Tables, tb: Lookup, seat: int, over: bool, out: Arr) -> None:
    """The observer's vector part for `seat` (`games.cubed.rl.Observer.vector`)."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    pidx, copies, consts = tb.pidx, tb.copies, tb.consts
    points = ed.points
    players = meta[k.M_PLAYERS]
    pieces = consts[C_PIECES]
    box = float(consts[C_BOX])
    for j in range(pieces):
        out[j] = 0.0
    for j in range(hsize[seat]):
        out[pidx[hands[seat, j]]] += 1.0
    for j in range(pieces):
        out[j] /= copies[j]
    at = pieces
    for r in range(players):
        out[at + r] = hsize[(seat + r) % players] / box
    at += players
    out[at] = (meta[k.M_BAG_END] - meta[k.M_BAG_HEAD]) / box
    out[at + 1] = meta[k.M_NTAB] / box
    out[at + 2] = 0.0
    out[at + 3] = meta[k.M_DRAWS] / 2.0
    out[at + 4] = 0.0 if over else meta[k.M_IDLE] / players
    out[at + 5] = 0.0 if over else meta[k.M_STUCK] / players
    at += 6
    for r in range(players + 1):
        out[at + r] = 0.0
    if over:
        out[at + players] = 1.0
    else:
        out[at + (meta[k.M_TO_MOVE] - seat) % players] = 1.0
    at += players + 1
    out[at] = 0.0 if over else float(meta[k.M_DREW])
    out[at + 1] = 0.0
    out[at + 2] = 0.0
    at += 3
    out[at] = 1.0  # round 1 of 1
    scale = float(consts[C_BOX_POINTS])
    for r in range(players):
        s = (seat + r) % players
        total = 0.0
        if over and not (meta[k.M_END] == k.EMPTIED and meta[k.M_WINNER] == s):
            for j in range(hsize[s]):
                total += points[hands[s, j]]
        out[at + 1 + r] = total / scale


@jit
def _outcome(st: k.Game, ed: k.Tables, seat: int) -> float:
    """+1 if `seat` alone has the fewest points at the end of the round, -1 if another seat
    has fewer, 0 on a shared win."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    points = ed.points
    players = meta[k.M_PLAYERS]
    scores = np.zeros(players)
    for s in range(players):
        if not (meta[k.M_END] == k.EMPTIED and meta[k.M_WINNER] == s):
            for j in range(hsize[s]):
                scores[s] += points[hands[s, j]]
    low = scores.min()
    if scores[seat] > low:
        return -1.0
    shared = 0
    for s in range(players):
        if scores[s] == low:
            shared += 1
    return 1.0 if shared == 1 else 0.0


@jit
def _seat_outcomes(st: k.Game, ed: k.Tables, mover: int, illegal: bool, out: Arr) -> None:
    """Each seat's reward at the end of a game into `out` (one per seat): `_outcome` for
    every seat, or -1 for a mover that lost it by an illegal action (and 0 for the
    others)."""
    for s in range(out.shape[0]):
        out[s] = 0.0
    if illegal:
        out[mover] = -1.0
        return
    for s in range(out.shape[0]):
        out[s] = _outcome(st, ed, s)


@jit
def _opponent_moves(
    st: k.Game, ed: k.Tables, obs: Arr, tb: Lookup, rng: Arr, buf: Arr, work: ko.CubedWork
) -> None:
    """The opponent's moves, until seat 0 is to move or the round is over: random, or
    greedy or mcts (`opponents.cubed_choose`, with `work` its room)."""
    meta, consts = st.meta, tb.consts
    kind = consts[C_OPPONENT]
    while meta[k.M_END] == 0 and meta[k.M_TO_MOVE] != 0:
        if kind != RANDOM:
            move, rot, cell, count = ko.cubed_choose(st, ed, work, rng, kind, consts[C_BUDGET])
            _move(st, ed, obs, tb, move, rot, cell, count)
            continue
        count = k.placements(st, ed, meta[k.M_TO_MOVE], buf[0], buf[1])
        pick = k.splitmix(rng) % (count + 1)
        if pick < count:
            _move(st, ed, obs, tb, 0, buf[0][pick], buf[1][pick], count)
        elif k.can_draw(st):
            _move(st, ed, obs, tb, 1, 0, 0, count)
        else:
            _move(st, ed, obs, tb, 2, 0, 0, count)


@jit
def _show(st: k.Game, ed: k.Tables, tb: Lookup, obs: Arr) -> int:
    """The vector part of the observation of the seat to move (seat 0 against the random
    opponent; the planes are kept up to date as pieces are laid); returns the seat."""
    consts = tb.consts
    seat = 0 if consts[C_RANDOM] else st.meta[k.M_TO_MOVE]
    cut = (3 * consts[C_COLOURS] + 4) * consts[C_PLANE]
    _vector(st, ed, tb, seat, False, obs[cut:])
    return seat


@jit
def _reset(
    st: k.Game,
    ed: k.Tables,
    tb: Lookup,
    box: Arr,
    obs: Arr,
    window: Arr,
    rng: Arr,
) -> None:
    """Deal a new game (shuffled by `rng`) and draw its empty table."""
    meta, hsize, bag, have, hbits = st.meta, st.hsize, st.bag, st.have, st.hbits
    consts, poff = tb.consts, tb.poff
    k.clear_table(st)
    obs[:] = 0.0
    size = consts[C_PLANE]
    colours = consts[C_COLOURS]
    obs[(3 * colours + 3) * size : (3 * colours + 4) * size] = window
    n = box.shape[0]
    pieces = box.copy()
    for j in range(n - 1, 0, -1):
        m = k.splitmix(rng) % (j + 1)
        pieces[j], pieces[m] = pieces[m], pieces[j]
    players = meta[k.M_PLAYERS]
    have[:, :] = 0
    hbits[:, :] = 0
    at = 0
    for s in range(players):
        hsize[s] = 0
        for _ in range(consts[C_HAND]):
            k.hand_add(st, ed, s, pieces[at])
            at += 1
    for j in range(n - at):
        bag[j] = pieces[at + j]
    meta[k.M_BAG_HEAD] = 0
    meta[k.M_BAG_END] = n - at
    meta[k.M_TO_MOVE] = 0
    meta[k.M_DREW] = 0
    meta[k.M_IDLE] = 0
    meta[k.M_STUCK] = 0
    meta[k.M_DRAWS] = 0
    meta[k.M_END] = 0
    meta[k.M_WINNER] = -1
    _playable_plane(st, obs, poff, (3 * colours + 2) * size, 1.0)


@jit
def _start(batch: k.Game, ed: k.Tables, tb: Lookup, deal: Deal, io: Io, i: int) -> None:
    """Deal game `i` afresh and show it to its first seat."""
    box, window, rngs = deal
    obs, masks, listed, to_move, placeable, ended, buf = io
    st = _env(batch, i)
    _reset(st, ed, tb, box, obs[i], window, rngs[i])
    seat = _show(st, ed, tb, obs[i])
    placeable[i] = _legal(st, ed, tb, seat, masks[i], listed[i], buf)
    to_move[i] = seat
    ended[i] = False


@jit
def reset_all(batch: k.Game, ed: k.Tables, tb: Lookup, deal: Deal, io: Io) -> None:
    """Deal every game afresh."""
    for i in range(io[0].shape[0]):
        _start(batch, ed, tb, deal, io, i)


@jit
def step_all(
    batch: k.Game,
    ed: k.Tables,
    tb: Lookup,
    deal: Deal,
    io: Io,
    result: Result,
    work: ko.CubedWork,
) -> None:
    """One step of every game (see `cubegames.rl.vector` for what it means)."""
    obs, masks, listed, to_move, placeable, ended, buf = io
    actions, rewards, terminations, illegal, seat_rewards = result
    rngs = deal[2]
    pattern_code, wcell_k, consts = tb.pattern_code, tb.wcell_k, tb.consts
    patterns = consts[C_PATTERNS]
    draw_index = consts[C_DRAW]
    cut = (3 * consts[C_COLOURS] + 4) * consts[C_PLANE]
    for i in range(obs.shape[0]):
        rewards[i] = 0.0
        terminations[i] = False
        illegal[i] = False
        seat_rewards[i] = 0.0
        if ended[i]:
            _start(batch, ed, tb, deal, io, i)
            continue
        st = _env(batch, i)
        meta = st.meta
        action = actions[i]
        mover = to_move[i]
        if action < 0 or action >= masks.shape[1] or not masks[i, action]:
            illegal[i] = True
        elif action < draw_index:
            w = action // patterns
            _move(st, ed, obs[i], tb, 0, pattern_code[action % patterns], wcell_k[w], 0)
        else:
            _move(st, ed, obs[i], tb, 1 if action == draw_index else 2, 0, 0, placeable[i])
        if not illegal[i] and consts[C_RANDOM]:
            _opponent_moves(st, ed, obs[i], tb, rngs[i], buf, work)
        if illegal[i] or meta[k.M_END] != 0:
            _seat_outcomes(st, ed, mover, illegal[i], seat_rewards[i])
            rewards[i] = seat_rewards[i, mover]
            terminations[i] = True
            ended[i] = True
            _vector(st, ed, tb, mover, meta[k.M_END] != 0, obs[i][cut:])
            for j in range(listed[i][listed.shape[1] - 1]):
                masks[i, listed[i][j]] = False
            listed[i][listed.shape[1] - 1] = 0
            to_move[i] = -1
            continue
        seat = _show(st, ed, tb, obs[i])
        placeable[i] = _legal(st, ed, tb, seat, masks[i], listed[i], buf)
        to_move[i] = seat


class VectorEnv(StepsRows, gymnasium.vector.VectorEnv[Any, Any, Any]):
    """`num_envs` CUBED games in the kernel (the interface of `cubegames.rl.vector`).

    >>> envs = VectorEnv(4, seed=1, players=2, rounds=1)
    >>> obs, info = envs.reset()
    >>> obs.shape, info["action_mask"].shape, info["to_move"].tolist()
    ((4, 47147), (4, 219416), [0, 0, 0, 0])
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        seed: int | None = None,
        opponent: str = "self",
        kernel_opponent: Opponent | None = None,
        **options: Any,
    ) -> None:
        found = kernel_opponent if kernel_opponent is not None else plain(opponent, ko.KINDS)
        if found is None:
            raise ValueError(
                "the compiled CUBED environment plays opponent 'self', 'random', 'greedy' "
                "or 'mcts[:iterations=N]' (read by cubegames.rl.vector_env), "
                f"not {shown(opponent)}; cubegames.rl.vector_env gives SessionVectorEnv for the "
                "others"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(
                f"num_envs must be a whole number of at least 1, not {shown(num_envs)}"
            )
        game = make("cubed", **options)
        assert isinstance(game, Cubed)
        if not supports(options):
            raise ValueError(
                "the compiled CUBED environment plays 2 or more players, 1 round, strict "
                "colours and no variants; use cubegames.rl.vector_env, which falls back on "
                "SessionVectorEnv"
            )
        self.game = game
        self.codec = Codec(game)
        self.observer = Observer(game)
        self.num_envs = num_envs
        self.opponent = opponent
        shape = self.observer.shape
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.codec.size)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, *shape), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.codec.size))
        self.ed = kernel_bridge.tables(game.edition)
        self.tb = tables(game, self.codec, self.observer, opponent=found[0], budget=found[1])
        self.work = ko.cubed_work(game.players)
        self.box = np.array([kernel_bridge.code(p) for p in game.edition.pieces], dtype=np.int64)
        self.window = self.observer._window.ravel().copy()
        one = k.new_game(game.players)
        self.batch = k.Game(*(np.repeat(a[np.newaxis], num_envs, axis=0) for a in one))
        self.obs = np.zeros((num_envs, *shape), dtype=np.float32)
        self.masks = np.zeros((num_envs, self.codec.size), dtype=bool)
        self.listed = np.zeros((num_envs, k.MAX_MOVES + 3), dtype=np.int64)
        self.to_move = np.zeros(num_envs, dtype=np.int64)
        self.placeable = np.zeros(num_envs, dtype=np.int64)
        self.ended = np.zeros(num_envs, dtype=bool)
        self.rewards = np.zeros(num_envs, dtype=np.float64)
        self.terminations = np.zeros(num_envs, dtype=bool)
        self.truncations = np.zeros(num_envs, dtype=bool)
        self.illegal = np.zeros(num_envs, dtype=bool)
        self.seat_rewards = np.zeros((num_envs, game.players), dtype=np.float64)
        self.buf = np.zeros((2, k.MAX_MOVES), dtype=np.int64)
        self.rngs = np.zeros((num_envs, 1), dtype=np.uint64)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._seed(seed)
        result = (self._actions, self.rewards, self.terminations, self.illegal, self.seat_rewards)
        deal, io = self._deal(), self._io()
        self._step_args = (self.batch, self.ed, self.tb, deal, io, result, self.work)
        self._step_all = compiled(step_all, self._step_args)

    def _seed(self, seed: int | None) -> None:
        words = np.random.SeedSequence(entropy_seed(seed)).generate_state(
            self.num_envs, dtype=np.uint64
        )
        self.rngs[:, 0] = words

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.masks,
            "to_move": self.to_move,
            "illegal_action": self.illegal,
            "seat_rewards": self.seat_rewards,
        }

    def _deal(self) -> Deal:
        return (self.box, self.window, self.rngs)

    def _io(self) -> Io:
        return (
            self.obs, self.masks, self.listed, self.to_move, self.placeable, self.ended, self.buf
        )  # fmt: skip

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is not None:
            self._seed(seed)
        self.illegal[:] = False
        self.seat_rewards[:] = 0.0
        reset_all(self.batch, self.ed, self.tb, self._deal(), self._io())
        return self.obs, self._info()

    def observations(self) -> npt.NDArray[np.float32]:
        """A copy of every game's current observation (after `restart`, say)."""
        return self.obs.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """A copy of every game's current action mask."""
        return self.masks.copy()

    def restart(self, games: Any) -> None:
        """Deal the games `games` (indexes) afresh now and show them in the buffers, as
        the next step would have (see `cubegames.rl.vector`). Each runs the compiled
        `reset_all` on one-row views of the arrays, so nothing new is compiled."""
        for i in np.asarray(games, dtype=np.int64).reshape(-1):
            batch, deal, io = self._one(int(i))
            reset_all(batch, self.ed, self.tb, deal, io)

    def _one(self, i: int) -> tuple[k.Game, tuple[Any, ...], tuple[Any, ...]]:
        """Game `i`'s one-row views of the batch, its deal and its buffers, as the
        compiled `reset_all` and `step_all` take them."""
        row = slice(i, i + 1)
        batch = k.Game(*(a[row] for a in self.batch))
        deal = (self.box, self.window, self.rngs[row])
        io = (
            self.obs[row], self.masks[row], self.listed[row], self.to_move[row],
            self.placeable[row], self.ended[row], self.buf,
        )  # fmt: skip
        return batch, deal, io

    def step_rows(self, actions: Any, rows: Any) -> StepResult:
        """`step` for the games `rows` only (their actions are read from `actions`, one per
        game); the others are left as they are, with reward 0. A factored action space
        (`cubegames.rl.factored`) steps a game only once its move is whole."""
        # copied into the environment's own array: the caller's may be strided or of
        # another dtype, and `_step_all` is the kernel compiled for this one's type
        self._actions[:] = batch_actions(actions, self.num_envs)
        everything = isinstance(rows, range) and rows == range(self.num_envs)  # (`step`)
        picked = np.zeros(self.num_envs, dtype=bool)
        if not everything:
            picked[np.asarray(list(rows), dtype=np.int64)] = True
        if everything or picked.all():
            self._step_all(*self._step_args)
            return self.obs, self.rewards, self.terminations, self.truncations, self._info()
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.illegal[:] = False
        self.seat_rewards[:] = 0.0
        for i in np.flatnonzero(picked):
            row = slice(int(i), int(i) + 1)
            batch, deal, io = self._one(int(i))
            part = (
                self._actions[row], self.rewards[row], self.terminations[row],
                self.illegal[row], self.seat_rewards[row],
            )  # fmt: skip
            step_all(batch, self.ed, self.tb, deal, io, part, self.work)
        return self.obs, self.rewards, self.terminations, self.truncations, self._info()

    def game_arrays(self, i: int) -> k.Game:
        """The kernel arrays of game `i` (views), e.g. for `kernel_bridge.decode_into`."""
        return k.Game(*(a[i] for a in self.batch))


def compiled(kernel: Any, args: tuple[Any, ...]) -> Callable[..., None]:
    """`kernel` (a jitted function) compiled for arguments of the types of `args`, loaded
    from numba's cache or compiled now, as a function that skips numba's dispatch.

    A call of a jitted function types every argument first to pick its compiled version,
    which for the named tuples of arrays a step passes (`k.Game`, `k.Tables`, `Lookup`) costs
    more than unpacking them: the environment resolves its kernels once, for its own arrays,
    and calls them with those same arrays at every step. The function returned does not
    check its arguments' types: call it only with `args` themselves (or arrays of exactly
    their types). Under `NUMBA_DISABLE_JIT` (`kernel` a plain function) it is `kernel`."""
    if not isinstance(kernel, Dispatcher):
        return cast(Callable[..., None], kernel)
    types = tuple(kernel.typeof_pyval(a) for a in args)
    return cast(Callable[..., None], kernel.compile(types))


def tables(
    game: Cubed, codec: Codec, observer: Observer, *, opponent: int, budget: int = 0
) -> Lookup:
    """What the kernel needs of the codec, the observer and the opponent (a kind of
    `kit.vector`, and the mcts opponent's `budget`): `(pattern_of, pattern_code,
    wcell, wcell_k, poff, pidx, copies, consts)` as a `Lookup`."""
    ed = game.edition
    pattern_of = np.full(512, -1, dtype=np.int64)
    pattern_code = np.zeros(len(codec.patterns), dtype=np.int64)
    for i, text in enumerate(codec.patterns):
        piece = (ed.index[text[0]], ed.index[text[1]], ed.index[text[2]])
        pattern_of[kernel_bridge.code(piece)] = i
        pattern_code[i] = kernel_bridge.code(piece)
    wcell = np.full(k.CELLS, -1, dtype=np.int64)
    wcell_k = np.zeros(len(codec.cells), dtype=np.int64)
    poff = np.full(k.CELLS, -1, dtype=np.int64)
    radius = observer.radius
    side = 2 * radius + 1
    for i, (q, r) in enumerate(codec.cells):
        cell = (q + k.OFF) * k.W + (r + k.OFF)
        wcell[cell] = i
        wcell_k[i] = cell
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if distance(q, r) <= radius:
                poff[(q + k.OFF) * k.W + (r + k.OFF)] = (r + radius) * side + (q + radius)
    pidx = np.zeros(512, dtype=np.int64)
    for piece in ed.pieces:
        for rot in rotations(canonical(piece)):
            pidx[kernel_bridge.code(rot)] = observer.piece_index[least_rotation(ed.text(rot))]
    copies = observer.copies.astype(np.float64)
    consts = np.zeros(C_BUDGET + 1, dtype=np.int64)
    consts[C_PATTERNS] = len(codec.patterns)
    consts[C_DRAW] = codec.draw
    consts[C_PLANE] = side * side
    consts[C_COLOURS] = observer.colours
    consts[C_PIECES] = len(observer.pieces)
    consts[C_BOX] = len(ed.pieces)
    consts[C_BOX_POINTS] = int(observer.box_points * game.rounds)
    consts[C_RANDOM] = int(opponent != SELF)
    consts[C_OPPONENT] = opponent
    consts[C_BUDGET] = budget
    consts[C_HAND] = ed.hand_size[game.players]
    consts[C_OBS] = observer.shape[0]
    return Lookup(pattern_of, pattern_code, wcell, wcell_k, poff, pidx, copies, consts)
