"""Compile the numba kernels ahead of their first use.

A kernel compiles on its first call on a machine (seconds each, about a minute for all of
them) and is loaded from numba's cache after that (`cubegames.core.compiled` keeps that
cache true to the sources). Paying it when nobody waits is kinder than paying it inside a
bot's first move: `make play` and `make test` run `cubegames compile` before they start,
and `cubegames serve` warms the bots' kernels on a thread of their own as it starts.
Each part below runs the real code paths on tiny games, so whatever they compile is what
the next real call would have compiled: the games each game's `kernels` part names
(`cubegames.kit.parts`; `cubegames/games/cubed/kernels.py` for CUBED), its positions for
the bots, its random games for the simulator, its vector environments for learning.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, runtime_checkable

from cubegames.bots import bot
from cubegames.core.game import State
from cubegames.core.registry import GAMES, PluginError, PluginWarning
from cubegames.kit.parts import part


@runtime_checkable
class BotWarmUps(Protocol):
    """A game's `kernels` part whose bots compile kernels."""

    def bot_positions(self) -> list[tuple[State[Any], tuple[str, ...]]]:
        """Positions, each with the bots (by name) to choose a move from it."""
        ...


@runtime_checkable
class RandomGames(Protocol):
    """A game's `kernels` part whose random games are played by a batch kernel."""

    def random_games(self) -> list[dict[str, Any]]:
        """Options of random-bot games to simulate (one each)."""
        ...


@runtime_checkable
class VectorWarmUps(Protocol):
    """A game's `kernels` part whose vector environment is compiled."""

    def vector_envs(self) -> list[dict[str, Any]]:
        """Options (and `opponent`) of vector environments to reset and step once."""
        ...


def _parts() -> Iterator[tuple[str, object]]:
    """Each registered game's `kernels` part (a plug-in that does not load has none)."""
    for game_id in GAMES:
        try:
            module = part(game_id, "kernels")
        except PluginError as error:
            warnings.warn(str(error), PluginWarning, stacklevel=2)
            continue
        if module is not None:
            yield game_id, module


def _bots() -> None:
    """The bots' kernels: each position of a game's `kernels` part, each of its bots."""
    for _, module in _parts():
        if isinstance(module, BotWarmUps):
            for state, specs in module.bot_positions():
                for spec in specs:
                    bot(spec, seed=1).choose(state)


def warm_bots(game_id: str, names: Iterable[str]) -> None:
    """Compile (or load) the kernels that the bots called `names` (base names: `mcts`,
    not `mcts:iterations=200`) use in `game_id`: each position of the game's `kernels`
    part, each of its bots of those names. Bots and games without one are left alone."""
    wanted = set(names)
    try:
        module = part(game_id, "kernels")
    except PluginError:
        return
    if not isinstance(module, BotWarmUps):
        return
    for state, specs in module.bot_positions():
        for spec in specs:
            if spec.split(":", 1)[0] in wanted:
                bot(spec, seed=1).choose(state)


def _simulator() -> None:
    """The batched random games of `cubegames simulate`."""
    from cubegames.sim.batch import play_items
    from cubegames.sim.play import Match

    for game_id, module in _parts():
        if isinstance(module, RandomGames):
            for options in module.random_games():
                players = int(options.get("players", 2))
                match = Match(game_id, ("random",) * players, 0, options)
                list(play_items([(0, match)]))


def _learning() -> None:
    """The compiled vector environments."""
    import numpy as np

    from cubegames.rl import vector_env

    for game_id, module in _parts():
        if isinstance(module, VectorWarmUps):
            for options in module.vector_envs():
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
    for name in parts:
        PARTS[name]()
