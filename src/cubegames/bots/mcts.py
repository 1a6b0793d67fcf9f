"""Monte Carlo search: a flat search over compiled playouts where the game has them, else
information-set Monte Carlo tree search (single-observer ISMCTS).

Flat search (CUBED with any number of players, solo too, and any variants; Unstackable;
STAKD once the bases are down): the game's compiled playouts (`Game.playouts`, from the
bot's view only) give the root moves worth trying; they are
compared by sequential halving (`halving`): in each of `ceil(log2 n)` rounds every move
still in is played out equally often, all moves on the same fresh deals of the hidden parts,
and the worse half by mean reward is dropped. A playout (`Playouts.run`) plays the move and
a short stretch of the game's light policy and scores the position. The best move of the
last round is played. Default budget 300 playouts, or the game's own (`Playouts.budget`:
Unstackable's playouts are cheap, so it runs 1000).

ISMCTS (every other game, or `tree=true`): each iteration deals the hidden parts afresh,
consistently with what the bot's seat has seen (`Game.sampler` over `state.view(seat)`: it
never looks at the real hands), walks one shared tree of moves with UCB counted over the
iterations in which a move was available, adds one node, finishes with the game's rollout
(`Game.rollout`, a lean path with a light policy up to its horizon) and backs up the game's
rewards (`Game.rewards`) to every seat that moved: each node is scored for the player who
made its move, so any number of players works. Default budget 1000 iterations.

Budget: `iterations=N` (deterministic for a seed; in the flat search the number of
playouts, which halving may round down, but at least one per move still in per round) or
`seconds=S` (wall clock).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from cubegames.bots import params
from cubegames.bots.base import Bot
from cubegames.core.game import Move, Playouts, State
from cubegames.core.phrase import Worded

#: iterations when no budget is given: flat search over compiled playouts, and tree search
FLAT_ITERATIONS = 300
TREE_ITERATIONS = 1000
_TRUE = (True, 1, "true", "yes", "on")
_FALSE = (False, 0, "false", "no", "off")


class _Node:
    __slots__ = ("allowed", "avail", "children", "move", "player", "total", "visits")

    def __init__(self, move: Move | None, player: int) -> None:
        self.move = move
        self.player = player
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        #: at the root, the moves the game asks the search to consider (None: all)
        self.allowed: set[Move] | None = None


class MctsBot(Bot):
    """Flat search over compiled playouts, or ISMCTS, with a budget of iterations or
    seconds; `c` is the UCB exploration weight of the tree search; `tree=true` asks for
    ISMCTS always."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.35,
        tree: bool | int | str = False,
        **extra: Any,
    ) -> None:
        super().__init__(seed, **extra)
        if iterations is not None and seconds is not None:
            raise Worded(
                "error-bot-budget-twice",
                "bot 'mcts': give iterations or seconds, not both",
                bot="mcts",
            )
        flag = tree.lower() if isinstance(tree, str) else tree
        if flag not in _TRUE and flag not in _FALSE:
            raise Worded(
                "error-bot-flag", "bot 'mcts': tree must be true or false", bot="mcts", key="tree"
            )
        self.tree = flag in _TRUE
        #: no budget given: the default of whichever search runs
        self.default_budget = iterations is None and seconds is None
        if iterations is not None:
            iterations = params.whole("mcts", "iterations", iterations, 1, params.MAX_ITERATIONS)
        self.iterations = iterations
        self.seconds = None if seconds is None else params.seconds("mcts", seconds)
        self.c = params.number("mcts", "c", c, 0.0, params.MAX_C, above=False)
        self.rng = random.Random(seed)
        #: iterations run for the last choice (for benchmarks and curious people)
        self.last_iterations = 0
        #: which search made the last choice: "flat", "tree", or "" (one move, no search)
        self.last_search = ""

    def budget(self, default: int) -> int | None:
        """The iterations to run (None: run for `seconds`)."""
        if self.default_budget:
            return default
        return self.iterations

    def flat_playouts(self, default: int | None) -> int | None:
        """The playouts a move of this bot's flat search runs: its `iterations`, else the
        game's default for the rules in play (`default`: `Playouts.budget`, or
        `Game.flat_budget`), else `FLAT_ITERATIONS`; None when it runs for `seconds`."""
        return self.budget(FLAT_ITERATIONS if default is None else default)

    def choose(self, state: State[Any]) -> Move:
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no move to choose")
        game = state.game
        if not self.tree:
            playouts = game.playouts(state.view(seat), seat, self.rng)
            if playouts is not None:
                self.last_search = "flat"
                return self._flat(playouts, seat)
        sample = game.sampler(state.view(seat), seat)
        rng = self.rng
        first = sample(rng)
        allowed: list[Move] = game.root_moves(first)
        if len(allowed) == 1:
            self.last_iterations = 0
            self.last_search = ""
            return allowed[0]
        self.last_search = "tree"
        root = _Node(None, seat)
        root.allowed = set(allowed)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        iterations = self.budget(TREE_ITERATIONS)
        done = 0
        while not _spent(deadline, done, iterations):
            self._iterate(root, sample(rng), rng)
            done += 1
        self.last_iterations = done
        best = max(root.children.values(), key=lambda n: (n.visits, n.total))
        assert best.move is not None
        return best.move

    def _flat(self, playouts: Playouts[Any], seat: int) -> Move:
        moves = playouts.moves
        if len(moves) == 1:
            self.last_iterations = 0
            only: Move = moves[0]
            return only
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        best, self.last_iterations = halving(
            playouts, seat, self.flat_playouts(playouts.budget), deadline, self.rng
        )
        chosen: Move = moves[best]
        return chosen

    def _iterate(self, root: _Node, state: State[Any], rng: random.Random) -> None:
        game = state.game
        node = root
        path = [root]
        c = self.c
        while (player := state.to_move) is not None:
            moves = state.legal_moves()
            if node.allowed is not None:
                moves = [m for m in moves if m in node.allowed]
            children = node.children
            untried = [m for m in moves if m not in children]
            for m in moves:
                child = children.get(m)
                if child is not None:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                node = children[move] = _Node(move, player)
                state._apply(move)
                path.append(node)
                break
            best_score = -1.0
            best: _Node | None = None
            for m in moves:
                child = children[m]
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_score, best = score, child
            assert best is not None and best.move is not None
            node = best
            state._apply(best.move)
            path.append(node)
        game.rollout(state, rng)
        rewards = game.rewards(state)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.player]


def _spent(deadline: float | None, done: int, iterations: int | None) -> bool:
    """Whether a search that has run `done` iterations stops: at its deadline (once it has
    run at least one), or else at its iteration budget."""
    if deadline is not None:
        return time.perf_counter() >= deadline and done > 0
    return done >= (iterations or 0)


def halving(
    playouts: Playouts[Any],
    seat: int,
    iterations: int | None,
    deadline: float | None,
    rng: random.Random,
) -> tuple[int, int]:
    """Sequential halving over the root moves of `playouts`: in each of `ceil(log2 n)`
    rounds every move still in gets an equal share of the round's playouts, all of them on
    the same deals of the hidden parts (so moves are compared on equal luck), then the better
    half by mean reward goes on (ties: the earlier move). With `iterations` the budget is
    split evenly over the rounds, at least one playout a move; with a `deadline` each round
    runs batches of one playout a move until its share of the time is over. Returns the
    index of the best move left and the number of playouts run."""
    n = len(playouts.moves)
    alive = list(range(n))
    totals = [0.0] * n
    visits = [0] * n
    rounds = max(1, math.ceil(math.log2(n)))
    start = time.perf_counter()
    done = 0
    for r in range(rounds):
        left = rounds - r
        if deadline is None:
            per = max(1, ((iterations or 0) - done) // (len(alive) * left))
            done += _round(playouts, seat, alive, per, rng, totals, visits)
        else:
            until = start + (deadline - start) * (r + 1) / rounds
            while True:
                done += _round(playouts, seat, alive, 1, rng, totals, visits)
                if time.perf_counter() >= until:
                    break
        alive.sort(key=lambda i: -totals[i] / visits[i])  # stable: ties keep move order
        alive = sorted(alive[: (len(alive) + 1) // 2])
    best = max(alive, key=lambda i: (totals[i] / visits[i], -i))
    return best, done


def _round(
    playouts: Playouts[Any],
    seat: int,
    alive: list[int],
    per: int,
    rng: random.Random,
    totals: list[float],
    visits: list[int],
) -> int:
    """`per` playouts of every move in `alive`, all on the same `per` deals; returns how
    many ran."""
    seeds = [rng.getrandbits(63) for _ in range(per)]
    arms = [i for i in alive for _ in range(per)]
    rewards = playouts.batch(arms, seeds * len(alive), seat)
    for i, reward in zip(arms, rewards, strict=True):
        totals[i] += reward
        visits[i] += 1
    return len(arms)
