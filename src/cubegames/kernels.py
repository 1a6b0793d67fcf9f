"""Compile the numba kernels ahead of their first use.

A kernel compiles on its first call on a machine (seconds each, about a minute for all of
them) and is loaded from numba's cache after that (`cubegames.core.compiled` keeps that
cache true to the sources). Paying it when nobody waits is kinder than paying it inside a
bot's first move: `make play` and `make test` run `cubegames compile` before they start,
and `cubegames serve` warms the bots' kernels on a thread of their own as it starts.
Each part below runs the real code paths on a tiny game, so whatever they compile is what
the next real call would have compiled.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import cubegames
from cubegames.bots import bot


def _bots() -> None:
    """`greedy` and `mcts` in CUBED and STAKD, `mcts` and `alphabeta` in Unstackable."""
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=1)
    for spec in ("greedy", "mcts:iterations=20"):
        bot(spec, seed=1).choose(state)
    game = cubegames.make("unstackable")
    position = game.new_state(seed=1)
    bot("mcts:iterations=20", seed=1).choose(position)
    stakd = cubegames.make("stakd", players=2, points_to_win=1).new_state(seed=1)
    while stakd.to_move is not None and getattr(stakd, "base_phase", False):
        stakd.play(stakd.legal_moves()[0])
    for spec in ("greedy", "mcts:iterations=20"):
        bot(spec, seed=1).choose(stakd)
    rng = random.Random(1)
    while getattr(position, "stage", None) == "stack" and not position.is_over:
        moves = position.legal_moves()
        position.play(moves[rng.randrange(len(moves))])
    if not position.is_over:
        bot("alphabeta:depth=2", seed=1).choose(position)


def _simulator() -> None:
    """The batched random games of `cubegames simulate`, one round and three."""
    from cubegames.sim.batch import play_items
    from cubegames.sim.play import Match

    for rounds in (1, 3):
        match = Match("cubed", ("random", "random"), 0, {"players": 2, "rounds": rounds})
        list(play_items([(0, match)]))


def _learning() -> None:
    """The compiled vector environments (CUBED and Unstackable)."""
    from typing import Any

    import numpy as np

    from cubegames.rl import vector_env

    setups: tuple[tuple[str, dict[str, Any]], ...] = (
        ("cubed", {"players": 2, "rounds": 1}),
        ("unstackable", {}),
        ("unstackable", {"opponent": "greedy"}),  # its own step (games/unstackable/opponents.py)
    )
    for game_id, options in setups:
        envs = vector_env(game_id, 1, seed=1, **options)
        _, info = envs.reset()
        envs.step(np.array([int(np.flatnonzero(info["action_mask"][0])[0])]))


PARTS: dict[str, Callable[[], None]] = {
    "bots": _bots,
    "simulator": _simulator,
    "learning": _learning,
}


def warm(parts: tuple[str, ...] = tuple(PARTS)) -> None:
    """Compile (or load from the cache) the kernels of `parts` (names of `PARTS`)."""
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ValueError(f"no such part: {', '.join(unknown)} (parts: {', '.join(PARTS)})")
    for part in parts:
        PARTS[part]()
