"""Pretrained baseline policies that play as bots: `cubegames.bot("policy:unstackable-ppo")`.

A baseline is a small network that MaskablePPO (sb3-contrib) trained through this
package's own environments, shipped as numpy arrays (`rl/policies/<name>.npz`) so that
playing needs numpy alone, never torch. The bot reads only its seat's view: it turns the
view into the observation the network learned on (`cubegames.rl.observer`), scores every
action, and plays the best-scored legal move (or samples among the legal moves by the
policy's probabilities with `sample=1`).

    >>> import cubegames
    >>> game = cubegames.make("unstackable")
    >>> state = game.new_state()
    >>> bot = cubegames.bot("policy:unstackable-ppo", seed=1)
    >>> bot.choose(state) in state.legal_moves()
    True

Each baseline says how it was made (`BASELINES`); `scripts/train_baseline.py NAME` makes
it again from its seed, and benchmarks/strength.md rates it beside the built-in bots.

CUBED's baseline (`cubed-ppo`, 2 players, 1 round) learns on the factored action space
(`cubegames.rl.factored`: first a slot pattern or a move that is no placement, then a cell
for the pattern) and on a small observation (`Features`): the observer's planes averaged
over a `pool` x `pool` grid of blocks, then its vector part and the factor block. The bot
asks its network twice for a placement, as the environment did.
"""

from __future__ import annotations

import functools
import io
import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.game import Game, Move, State
from cubegames.rl.encoding import codec
from cubegames.rl.observation import observer

#: the format of a policy file; a file of another format is refused in words
FORMAT = 1


@dataclass(frozen=True)
class Baseline:
    """One shipped policy and how it was trained."""

    name: str
    game: str
    #: the game's options it was trained with
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the opponent of its training games (`cubegames.rl.vector_env`'s `opponent`)
    opponent: str = "random"
    steps: int = 0
    seed: int = 0
    #: hidden layers of the policy network
    layers: tuple[int, ...] = (64, 64)
    about: str = ""
    #: the action space learned on: "flat" or "factored" (CUBED)
    action_space: str = "flat"
    #: the planes averaged over a pool x pool grid of blocks (0: the observation as it is)
    pool: int = 0
    #: MaskablePPO's settings other than its defaults
    ppo: Mapping[str, Any] = field(default_factory=dict)


BASELINES: dict[str, Baseline] = {
    baseline.name: baseline
    for baseline in (
        Baseline(
            "unstackable-ppo",
            "unstackable",
            opponent="random",
            steps=400_000,
            seed=0,
            about="MaskablePPO, MLP 64-64 (tanh), 8 games a step against the random bot",
        ),
        Baseline(
            "cubed-ppo",
            "cubed",
            options={"players": 2, "rounds": 1},
            opponent="random",
            steps=150_000,
            seed=0,
            action_space="factored",
            pool=4,
            ppo={"n_steps": 512, "batch_size": 256},
            about="MaskablePPO, MLP 64-64 (tanh), factored actions, planes pooled 4x4, "
            "8 games a step against the random bot",
        ),
    )
}


class PolicyError(ValueError):
    """A policy that cannot be used: unknown, or its file does not fit its game."""


@dataclass(frozen=True)
class Network:
    """A multilayer perceptron: tanh between layers, the last layer's outputs are the
    action logits (SB3's `MlpPolicy` actor: `mlp_extractor.policy_net`, then
    `action_net`)."""

    weights: tuple[npt.NDArray[np.float32], ...]
    biases: tuple[npt.NDArray[np.float32], ...]

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[1])

    @property
    def outputs(self) -> int:
        return int(self.weights[-1].shape[0])

    def logits(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action logits of one observation (or of a batch, one row each)."""
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w.T + b
            if i < last:
                x = np.tanh(x)
        return x

    def to_bytes(self, meta: Mapping[str, Any]) -> bytes:
        """The network as an `.npz` file, with `meta` (strings and numbers) beside it."""
        arrays: dict[str, Any] = {"format": np.array(FORMAT)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        for key, value in meta.items():
            arrays[f"meta_{key}"] = np.array(value)
        out = io.BytesIO()
        np.savez_compressed(out, **arrays)
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, where: str) -> tuple[Network, dict[str, Any]]:
        """A network and its meta from `.npz` bytes; PolicyError naming `where` if the
        file is not a policy of this format."""
        try:
            loaded = np.load(io.BytesIO(data), allow_pickle=False)
            files = set(loaded.files)
            if "format" not in files or int(loaded["format"]) != FORMAT:
                raise PolicyError(f"{where}: not a cubegames policy of format {FORMAT}")
            count = sum(1 for name in files if name.startswith("w"))
            weights = tuple(loaded[f"w{i}"].astype(np.float32) for i in range(count))
            biases = tuple(loaded[f"b{i}"].astype(np.float32) for i in range(count))
            meta = {n[5:]: loaded[n].item() for n in files if n.startswith("meta_")}
        except (OSError, ValueError, KeyError) as exc:
            if isinstance(exc, PolicyError):
                raise
            raise PolicyError(f"{where}: cannot read the policy ({exc})") from None
        if not weights or any(
            w.ndim != 2 or b.shape != (w.shape[0],) for w, b in zip(weights, biases, strict=True)
        ):
            raise PolicyError(f"{where}: the layers do not fit together")
        for before, after in itertools.pairwise(weights):
            if after.shape[1] != before.shape[0]:
                raise PolicyError(f"{where}: the layers do not fit together")
        return cls(weights, biases), meta


def pooled(planes: npt.NDArray[np.float32], pool: int) -> npt.NDArray[np.float32]:
    """Planes `(..., C, H, W)` averaged over a `pool` x `pool` grid of blocks (as equal as
    the sides allow), flattened to `(..., C * pool * pool)`.

    >>> pooled(np.arange(16, dtype=np.float32).reshape(1, 4, 4), 2).tolist()
    [2.5, 4.5, 10.5, 12.5]
    """
    height, width = planes.shape[-2:]
    rows = np.linspace(0, height, pool + 1).astype(np.int64)
    cols = np.linspace(0, width, pool + 1).astype(np.int64)
    summed = np.add.reduceat(np.add.reduceat(planes, rows[:-1], axis=-2), cols[:-1], axis=-1)
    sizes = np.outer(np.diff(rows), np.diff(cols)).astype(np.float32)
    out: npt.NDArray[np.float32] = (summed / sizes).astype(np.float32)
    return out.reshape(*planes.shape[:-3], -1)


class Features:
    """What a baseline's network reads: the observer's observation as it is, or (with
    `pool`) its planes pooled, its vector part, and with factored actions the factor block
    (`cubegames.rl.factored`: 1 while choosing the cell, then the pattern chosen)."""

    def __init__(self, made: Baseline, game: Game[Any]) -> None:
        from cubegames.rl.factored import Factors

        self.baseline = made
        self.observer = observer(game)
        self.codec = codec(game)
        self.factors = Factors(self.codec, self.observer, made.action_space, "flat")
        self.cut = self.factors.cut
        planes = 0 if made.pool == 0 else self.observer.plane_shape[0] * made.pool**2
        self.size = (
            (self.cut if made.pool == 0 else planes)
            + self.observer.vector_size
            + self.factors.block
        )
        #: the network's outputs: the codec's actions, or the factored space's
        self.actions = self.factors.size

    def from_env(self, obs: Any) -> npt.NDArray[np.float32]:
        """The features of a batch of the environment's Dict observations (`planes`,
        `vector` with the factor block), or of flat ones when nothing is pooled."""
        if self.baseline.pool == 0:
            return np.asarray(obs, dtype=np.float32)
        planes = pooled(np.asarray(obs["planes"], dtype=np.float32), self.baseline.pool)
        return np.concatenate([planes, np.asarray(obs["vector"], dtype=np.float32)], axis=-1)

    def of_view(self, view: Mapping[str, Any], pending: int = -1) -> npt.NDArray[np.float32]:
        """The features of one seat's view, `pending` the pattern chosen (factored)."""
        self.factors.pending = pending
        flat = self.factors.observe(self.observer.observe(view))
        if self.baseline.pool == 0:
            return np.asarray(flat, dtype=np.float32)
        planes = flat[: self.cut].reshape(self.observer.plane_shape)
        return np.concatenate([pooled(planes, self.baseline.pool), flat[self.cut :]])


class PooledEnv:
    """A batched environment with Dict observations (`vector_env(..., observation="dict")`)
    seen as flat `Features`: what a pooled baseline trains on (the same interface)."""

    def __init__(self, envs: Any, features: Features) -> None:
        from gymnasium import spaces

        self.envs = envs
        self.features = features
        self.num_envs = envs.num_envs
        self.opponent = envs.opponent
        self.single_action_space = envs.single_action_space
        self.render_mode = getattr(envs, "render_mode", None)
        self.single_observation_space = spaces.Box(0.0, 1.0, (features.size,), dtype=np.float32)

    def reset(self, *, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = self.envs.reset(seed=seed)
        return self.features.from_env(obs), info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        obs, rewards, terminations, truncations, info = self.envs.step(actions)
        return self.features.from_env(obs), rewards, terminations, truncations, info

    def restart(self, games: Any) -> None:
        self.envs.restart(games)

    def observations(self) -> npt.NDArray[np.float32]:
        return self.features.from_env(self.envs.observations())

    def action_masks(self) -> npt.NDArray[np.bool_]:
        masks: npt.NDArray[np.bool_] = self.envs.action_masks()
        return masks

    def close(self) -> None:
        self.envs.close()


def baseline(name: str) -> Baseline:
    """The shipped baseline called `name`; PolicyError naming the choices if none is."""
    found = BASELINES.get(name)
    if found is None:
        raise PolicyError(f"unknown policy {name!r}; choose from {', '.join(BASELINES)}")
    return found


def path_of(name: str) -> str:
    """Where the package keeps a baseline's file (inside the package)."""
    return f"policies/{name}.npz"


#: networks put in place of the shipped files (`use`)
_USED: dict[str, Network] = {}


def use(name: str, net: Network | None) -> None:
    """Play baseline `name` with `net` instead of its shipped file from now on (None: the
    file again): how `scripts/train_baseline.py` rates a network it has just trained."""
    baseline(name)
    if net is None:
        _USED.pop(name, None)
    else:
        _USED[name] = net
    _read.cache_clear()
    _cached_parts.cache_clear()


def network(name: str) -> Network:
    """The trained network of baseline `name` (its file, read once, unless `use` gave one)."""
    return _USED.get(name) or _read(name)


@functools.cache
def _read(name: str) -> Network:
    where = path_of(baseline(name).name)
    try:
        data = resources.files("cubegames.rl").joinpath(where).read_bytes()
    except OSError:
        raise PolicyError(
            f"policy {name!r} has no file ({where}); train it with scripts/train_baseline.py"
        ) from None
    made, _meta = Network.from_bytes(data, where)
    return made


class PolicyBot(Bot):
    """A learned baseline policy shipped in the package, as a bot.

    It is named `policy:NAME`, e.g. `policy:unstackable-ppo`. Parameters: `policy` (the
    baseline's name; `policy:NAME` is short for `policy:policy=NAME`) and `sample` (0:
    always the best-scored legal move, the default; 1: a legal move drawn by the policy's
    probabilities, from the bot's seed).
    """

    name = "policy"

    def __init__(self, seed: int = 0, policy: str = "", sample: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        if not isinstance(policy, str) or not policy:
            raise ValueError(f"bot 'policy' needs a policy name: policy:{next(iter(BASELINES))}")
        self.baseline = baseline(policy)
        if sample not in (0, 1) or isinstance(sample, bool):
            raise ValueError("bot 'policy': sample must be 0 or 1")
        self.sample = bool(sample)
        self.network = network(policy)
        self.rng = random.Random(seed)

    @classmethod
    def presets(cls) -> list[tuple[str, tuple[str, ...] | None]]:
        return [(f"policy:{b.name}", (b.game,)) for b in BASELINES.values()]

    def plays(self, game: str) -> bool:
        return game == self.baseline.game

    def game_parts(self, game: Game[Any]) -> Features:
        """The features (observer, codec) for `game`, checked against the network's sizes."""
        return _parts(self.baseline.name, game)

    def choose(self, state: State[Any]) -> Move:
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no move to choose")
        game = state.game
        if game.id != self.baseline.game:
            raise ValueError(
                f"policy {self.baseline.name!r} plays {self.baseline.game}, not {game.id}"
            )
        features = self.game_parts(game)
        view = state.view(seat)
        legal: list[Move] = state.legal_moves()
        indexes = features.codec.indexes(legal, view)
        if features.factors.factored:
            return self._two_steps(features, view, legal, indexes)
        return legal[self._pick(self.network.logits(features.of_view(view)), indexes)]

    def _pick(self, logits: npt.NDArray[np.float32], allowed: npt.NDArray[np.int64]) -> int:
        """The place in `allowed` (action indexes) of the action played: the best-scored,
        or one drawn by the policy's probabilities (`sample=1`)."""
        scores = logits[allowed].astype(np.float64)
        if not self.sample:
            return int(np.argmax(scores))
        weights = np.exp(scores - scores.max())
        pick: int = self.rng.choices(range(len(allowed)), weights=weights.tolist())[0]
        return pick

    def _two_steps(
        self,
        features: Features,
        view: Mapping[str, Any],
        legal: list[Move],
        flat: npt.NDArray[np.int64],
    ) -> Move:
        """A factored choice: the pattern (or a move that is no placement), then its cell."""
        factors = features.factors
        patterns, draw = factors.patterns, factors.draw
        first = np.where(flat < draw, flat % patterns, patterns + flat - draw)
        options = np.unique(first)
        chosen = int(options[self._pick(self.network.logits(features.of_view(view)), options)])
        if chosen >= patterns:
            return legal[int(np.flatnonzero(first == chosen)[0])]
        where = np.flatnonzero(first == chosen)
        cells = flat[where] // patterns
        logits = self.network.logits(features.of_view(view, chosen))
        return legal[int(where[self._pick(logits, cells)])]

    def __repr__(self) -> str:
        return f"<bot policy:{self.baseline.name}>"


@functools.cache
def _cached_parts(name: str, game_class: type, options: str) -> Features:
    game = cubegames.make(BASELINES[name].game, **_options(options))
    return _checked(name, game)


def _options(text: str) -> dict[str, Any]:
    import json

    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _parts(name: str, game: Game[Any]) -> Features:
    import json

    return _cached_parts(name, type(game), json.dumps(game.options, sort_keys=True))


def _checked(name: str, game: Game[Any]) -> Features:
    features = Features(BASELINES[name], game)
    net = network(name)
    if net.inputs != features.size or net.outputs != features.actions:
        raise PolicyError(
            f"policy {name!r} was trained on observations of {net.inputs} values and "
            f"{net.outputs} actions; {game.id} with options {game.options} has "
            f"{features.size} and {features.actions}"
        )
    return features


def from_sb3(policy: Any) -> Network:
    """The actor of an SB3 `MlpPolicy` (MaskablePPO's, flat observations, tanh) as a
    `Network`: `mlp_extractor.policy_net`'s linear layers, then `action_net`."""
    from torch import nn

    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    layers.append(policy.action_net)
    acts = [m for m in policy.mlp_extractor.policy_net if not isinstance(m, nn.Linear)]
    if any(not isinstance(m, nn.Tanh) for m in acts):
        raise PolicyError("only tanh between the layers is supported")
    weights = tuple(layer.weight.detach().cpu().numpy().astype(np.float32) for layer in layers)
    biases = tuple(layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers)
    return Network(weights, biases)


def train(name: str, *, steps: int | None = None, seed: int | None = None, envs: int = 8) -> Any:
    """Train baseline `name` as `BASELINES` says (its steps and seed unless given) with
    MaskablePPO on `cubegames.rl.vector_env` (factored and pooled as the baseline says), one
    torch thread; returns the SB3 model."""
    import torch
    from sb3_contrib import MaskablePPO

    from cubegames.rl import vector_env
    from cubegames.rl.sb3 import SB3VecEnv

    made = baseline(name)
    torch.set_num_threads(1)
    seed = made.seed if seed is None else seed
    options: dict[str, Any] = dict(made.options)
    if made.action_space != "flat":
        options["action_space"] = made.action_space
    if made.pool:
        options["observation"] = "dict"
    raw = vector_env(made.game, envs, seed=seed, opponent=made.opponent, **options)
    if made.pool:
        raw = PooledEnv(raw, Features(made, cubegames.make(made.game, **dict(made.options))))
    model = MaskablePPO(
        "MlpPolicy",
        SB3VecEnv(raw),
        seed=seed,
        device="cpu",
        policy_kwargs={"net_arch": {"pi": list(made.layers), "vf": list(made.layers)}},
        **dict(made.ppo),
    )
    return model.learn(made.steps if steps is None else steps)
