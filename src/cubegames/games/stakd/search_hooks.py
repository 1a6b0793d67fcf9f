"""What search bots need from STAKD: cheap samples, a rollout to the end of the round,
rewards, and the greedy one-ply heuristic.

STAKD has perfect information, so a "determinization" is the position itself: the sampler
reads the view once and hands out clones. A round is the natural horizon for a rollout:
its winner is known the moment the last seat is out. Pure rules code; the bots reach it
through the hooks of `cubegames.core.game.Game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.state import StakdState

#: greedy values: ending the round as its winner (or loser) outweighs everything else ...
ROUND_WON = 1000.0
#: ... and laying big pieces early matters more than a few placements more or less: the
#: small ones fit the crowded top layers late in the round (SIZE 10 won 39 of 40 two-player
#: rounds against the random bot, against about half for mobility alone)
SIZE = 10.0


def sampler(template: StakdState) -> Callable[[random.Random], StakdState]:
    """Clones of the one state the view describes (`template`, from `Stakd.determinize`:
    nothing is hidden to sample)."""
    return lambda rng: template.clone()


def rollout(state: StakdState, rng: random.Random) -> None:
    """Play uniformly random legal moves until the current round (or the match) ends."""
    start = len(state.round_winners)
    while state.to_move is not None and len(state.round_winners) == start:
        moves = state.legal_moves()
        state._apply(moves[rng.randrange(len(moves))])


def rewards(state: StakdState) -> list[float]:
    """Rewards in [0, 1] per seat where a rollout stopped.

    Match: 0.8 to the winner of the last finished round (all of it once the match is won),
    plus up to 0.2 for points towards the target. Solo: 1 for a win, else up to 0.5 for the
    share of pieces laid.
    """
    game = state.game
    if state.solo:
        if state.winners() == [0]:
            return [1.0]
        total = sum(state.ed.counts[1].values())
        return [0.5 * len(state.board.pieces) / total]
    if not state.round_winners:
        return [1.0 / game.players] * game.players
    last = state.round_winners[-1]
    target = game.points_to_win
    return [(0.8 if s == last else 0.0) + 0.2 * p / target for s, p in enumerate(state.points)]


def greedy_move(state: StakdState, rng: random.Random) -> Place:
    """The move that ends the round in the mover's favour; else the biggest piece, placed
    to leave the mover the most placements and the next seat the fewest (ties at random).
    """
    seat = state.to_move
    assert seat is not None
    won_before = len(state.round_winners)
    best: list[Place] = []
    best_value = float("-inf")
    for move in state.legal_moves():
        after = state.clone()
        after._apply(move)
        if len(after.round_winners) > won_before:
            value = ROUND_WON if after.round_winners[-1] == seat else -ROUND_WON
        else:
            mine = len(after.moves_for(seat)) if seat not in after.out else 0
            theirs = len(after.legal_moves()) if after.to_move != seat else 0
            value = mine - theirs + SIZE * len(move.nodes)
        if value > best_value:
            best_value, best = value, [move]
        elif value == best_value:
            best.append(move)
    return best[rng.randrange(len(best))]
