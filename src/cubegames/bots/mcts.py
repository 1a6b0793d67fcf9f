"""Monte Carlo search: a flat search over compiled playouts where the game has them, else
information-set Monte Carlo tree search (single-observer ISMCTS).

Flat search (CUBED without variants, two or more players): the game's compiled playouts
(`Game.playouts`, from the bot's view only) give the root moves worth trying; each iteration
picks one by UCB1 (every move once first, then the highest mean reward plus
`c * sqrt(ln N / n)`), deals the hidden parts afresh, plays the move and a short playout of
the game's light policy, and scores the position (`Playouts.run`). The move tried most often
is played. Default budget 300 iterations.

ISMCTS (every other game, or `tree=true`): each iteration deals the hidden parts afresh,
consistently with what the bot's seat has seen (`Game.sampler` over `state.view(seat)`: it
never looks at the real hands), walks one shared tree of moves with UCB counted over the
iterations in which a move was available, adds one node, finishes with the game's rollout
(`Game.rollout`, a lean path with a light policy up to its horizon) and backs up the game's
rewards (`Game.rewards`) to every seat that moved: each node is scored for the player who
made its move, so any number of players works. Default budget 1000 iterations.

Budget: `iterations=N` (deterministic for a seed) or `seconds=S` (wall clock).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from cubegames.bots.base import Bot
from cubegames.core.game import Move, Playouts, State

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
    seconds; `c` is the UCB exploration weight; `tree=true` asks for ISMCTS always."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.35,
        tree: bool | int | str = False,
        **params: Any,
    ) -> None:
        super().__init__(seed, **params)
        if iterations is not None and seconds is not None:
            raise ValueError("bot 'mcts': give iterations or seconds, not both")
        flag = tree.lower() if isinstance(tree, str) else tree
        if flag not in _TRUE and flag not in _FALSE:
            raise ValueError("bot 'mcts': tree must be true or false")
        self.tree = flag in _TRUE
        #: no budget given: the default of whichever search runs
        self.default_budget = iterations is None and seconds is None
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError("bot 'mcts': iterations must be a whole number of at least 1")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds <= 0):
            raise ValueError("bot 'mcts': seconds must be a positive number")
        if not isinstance(c, int | float) or c < 0:
            raise ValueError("bot 'mcts': c must be a number of at least 0")
        self.iterations = iterations
        self.seconds = seconds
        self.c = float(c)
        self.rng = random.Random(seed)
        #: iterations run for the last choice (for benchmarks and curious people)
        self.last_iterations = 0

    def budget(self, default: int) -> int | None:
        """The iterations to run (None: run for `seconds`)."""
        if self.default_budget:
            return default
        return self.iterations

    def choose(self, state: State[Any]) -> Move:
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no move to choose")
        game = state.game
        if not self.tree:
            playouts = game.playouts(state.view(seat), seat, self.rng)
            if playouts is not None:
                return self._flat(playouts, seat)
        sample = game.sampler(state.view(seat), seat)
        rng = self.rng
        first = sample(rng)
        allowed: list[Move] = game.root_moves(first)
        if len(allowed) == 1:
            self.last_iterations = 0
            return allowed[0]
        root = _Node(None, seat)
        root.allowed = set(allowed)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        iterations = self.budget(TREE_ITERATIONS)
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done > 0:
                    break
            elif done >= (iterations or 0):
                break
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
        n = len(moves)
        visits = [0] * n
        totals = [0.0] * n
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        iterations = self.budget(FLAT_ITERATIONS)
        rng, c = self.rng, self.c
        done = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and done > 0:
                    break
            elif done >= (iterations or 0):
                break
            if done < n:
                arm = done
            else:
                log_done = math.log(done)
                arm = max(
                    range(n),
                    key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_done / visits[i]),
                )
            visits[arm] += 1
            totals[arm] += playouts.run(arm, rng.getrandbits(63))[seat]
            done += 1
        self.last_iterations = done
        best = max(range(n), key=lambda i: (visits[i], totals[i]))
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
