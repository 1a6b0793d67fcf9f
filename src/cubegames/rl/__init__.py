"""Learning environments for the four games: action encodings, observations, PettingZoo
and Gymnasium environments, and the games' symmetries.

Layers, each usable alone (the games never import this package):

- `encoding`: `codec(game)`, a fixed-size integer encoding of one game's moves for one set of
  options, with `encode(move, view)`, `decode(index, view)` and `mask(moves, view)`;
- `observation`: `observer(game)`, float32 tensors for one seat built from `view(seat)` alone;
- `symmetry`: `symmetries(game)`, the maps of positions and moves that keep the rules, and
  `map_actions` for data augmentation (a re-export of `cubegames.symmetry`, which lives
  beside the games: search code imports it from there, without this package);
- `pz`: `env(game_id, **options)`, a PettingZoo AEC environment (agents `player_0`, ...);
- `gym`: `single_agent(game_id, opponents=..., seat=..., **options)`, a Gymnasium
  environment for one learner with bots in the other seats;
- `vector`: `vector_env(game_id, num_envs, seed=..., opponent=..., **options)`, N games
  stepped together (a `gymnasium.vector.VectorEnv`), compiled where the game has a kernel;
  opponents "self", a bot by name or a frozen policy; every seat's end reward;
- `factored`: CUBED's factored action space (pattern, then cell) and Dict observations,
  chosen with `vector_env(..., action_space="factored", observation="dict")`;
- `sb3`: `SB3VecEnv`, Stable-Baselines3's `VecEnv` over a batched environment;
- `picture`: RGB frames of a view (`render_mode="rgb_array"`);
- `registration`: the Gymnasium ids (`cubegames/Cubed-v0`, ...).

docs/rl.md explains every space and convention.

Importing registers the Gymnasium ids (`cubegames/Cubed-v0`, ..., see
`cubegames.rl.registration`), which loads gymnasium's registry when gymnasium is installed;
nothing else heavy is imported until it is used (pettingzoo, numba, the environments).

>>> import cubegames
>>> from cubegames.rl import codec, observer
>>> game = cubegames.make("unstackable")
>>> codec(game).size, observer(game).shape
(281, (356,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cubegames.rl.registration import register as _register

if TYPE_CHECKING:
    from cubegames.core.game import Game
    from cubegames.rl.encoding import ActionCodec
    from cubegames.rl.gym import SingleAgentEnv
    from cubegames.rl.observation import Observer
    from cubegames.rl.pz import CubegamesAEC
    from cubegames.symmetry import Symmetry

__all__ = ["codec", "env", "observer", "single_agent", "symmetries", "vector_env"]

_register()


def codec(game: Game[Any], **settings: Any) -> ActionCodec:
    """The action codec of `game` (see `cubegames.rl.encoding`)."""
    from cubegames.rl.encoding import codec as make_codec

    return make_codec(game, **settings)


def observer(game: Game[Any], **settings: Any) -> Observer:
    """The observer of `game` (see `cubegames.rl.observation`)."""
    from cubegames.rl.observation import observer as make_observer

    return make_observer(game, **settings)


def symmetries(game: Game[Any]) -> list[Symmetry]:
    """The symmetries of `game`, identity first (see `cubegames.symmetry`)."""
    from cubegames.symmetry import symmetries as find

    return find(game)


def env(game_id: str, **options: Any) -> CubegamesAEC:
    """A PettingZoo AEC environment for `game_id`; see `cubegames.rl.pz.CubegamesAEC`.

    >>> aec = env("cubed", players=3, rounds=1)
    >>> aec.possible_agents
    ['player_0', 'player_1', 'player_2']
    """
    from cubegames.rl.pz import CubegamesAEC

    return CubegamesAEC(game_id, **options)


def single_agent(
    game_id: str,
    opponents: tuple[str, ...] | list[str] = ("random",),
    seat: int | str = 0,
    **options: Any,
) -> SingleAgentEnv:
    """A Gymnasium environment: the learner plays `seat`, bots named by `opponents` play the
    other seats in seat order (the last name fills the rest); see `cubegames.rl.gym`.

    >>> solo = single_agent("cubed", players=1)
    >>> int(solo.action_space.n)
    219416
    """
    from cubegames.rl.gym import SingleAgentEnv

    return SingleAgentEnv(game_id, opponents=opponents, seat=seat, **options)


def vector_env(
    game_id: str, num_envs: int, *, seed: int | None = None, opponent: Any = "self", **options: Any
) -> Any:
    """`num_envs` games of `game_id` stepped together; see `cubegames.rl.vector`.

    >>> envs = vector_env("cubed", 2, seed=1, players=2, rounds=1)
    >>> type(envs).__module__, int(envs.single_action_space.n)
    ('cubegames.games.cubed.vector', 219416)
    """
    from cubegames.rl.vector import vector_env as make_vector_env

    return make_vector_env(game_id, num_envs, seed=seed, opponent=opponent, **options)
