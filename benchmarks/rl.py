"""Speed of the learning environments beside the raw engine, as a Markdown table.

    .venv/bin/python benchmarks/rl.py [--games N] [--repeats R] [--vector-only]

For each game, N seeded games of uniformly random legal moves are played three ways, all
in this one run so that the ratios hold on any machine:

- engine: `state.legal_moves()`, a random choice, `state.play(move)`; moves per second;
- PettingZoo AEC (`cubegames.rl.env`): `last()` (observation and mask of the agent to
  move), a random action of `info["legal_actions"]`, `step(action)`; agent steps per
  second;
- Gymnasium (`cubegames.rl.single_agent`, learner in seat 0, `random` bots elsewhere):
  a random action of `info["legal_actions"]`, `step(action)`; learner steps per second,
  and all moves per second (the bots' moves happen inside `step`).

An environment step does what the engine's move does plus the observation (from
`view(seat)`) and the mask (every legal move encoded), so the ratio is the price of the
tensors. Each figure is the best of R runs (default 3).

The batched Unstackable environment (`cubegames.rl.vector.unstackable`, numba) is timed
first: 200,000 steps (of N games each) of a uniformly random legal policy drawn with numpy
from the masks, the policy's time included, and the environment's `step` alone. Numba runs
on one thread here, so these are one-core figures; compile time is paid before timing.

The batched CUBED environment (`cubegames.rl.vector_env`, N games a step, one process):
steps per second summed over the N games, timing `step` alone (the random legal actions
are drawn from the masks outside the timer), for the compiled environment and for the
Python `SessionVectorEnv` of the same game in the same run.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cubegames
from cubegames.rl import env, single_agent, vector_env
from cubegames.rl.vector import SessionVectorEnv

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("cubed", {"players": 2, "rounds": 1}),
    ("cubed", {"players": 1}),
    ("unstackable", {}),
    ("stakd", {"players": 2}),
    ("stakd", {"players": 1}),
    ("cubes", {"players": 4}),
]


def engine_rate(game_id: str, options: dict[str, Any], games: int) -> float:
    """Moves per second of random play through the public API."""
    game = cubegames.make(game_id, **options)
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (time.perf_counter() - start)


def aec_rate(game_id: str, options: dict[str, Any], games: int) -> float:
    """Agent steps per second of masked random play in the AEC environment."""
    aec = env(game_id, **options)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        aec.reset(seed=seed)
        for _ in aec.agent_iter():
            _, _, terminated, _, info = aec.last()
            if terminated:
                aec.step(None)
                continue
            aec.step(int(rng.choice(info["legal_actions"])))
            steps += 1
    return steps / (time.perf_counter() - start)


def gym_rate(game_id: str, options: dict[str, Any], games: int) -> tuple[float, float]:
    """Learner steps and all moves per second in the Gymnasium wrapper against random bots."""
    gym = single_agent(game_id, opponents=("random",), **options)
    rng = np.random.default_rng(0)
    steps = moves = 0
    start = time.perf_counter()
    for seed in range(games):
        _, info = gym.reset(seed=seed)
        terminated = False
        while not terminated:
            action = int(rng.choice(info["legal_actions"]))
            _, _, terminated, _, info = gym.step(action)
            steps += 1
        moves += gym.session.moves
    elapsed = time.perf_counter() - start
    return steps / elapsed, moves / elapsed


def best(repeats: int, measure: Callable[..., Any], *args: Any) -> Any:
    """The best of `repeats` runs of `measure(*args)`: other work on the machine only slows
    a run down, so the fastest is the least disturbed."""
    return max(measure(*args) for _ in range(repeats))


def table(games: int, repeats: int) -> str:
    rows = [
        "| game | options | engine moves/s | AEC steps/s | AEC ÷ engine "
        "| Gym learner steps/s | Gym all moves/s | Gym ÷ engine |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game_id, options in GAMES:
        raw = best(repeats, engine_rate, game_id, options, games)
        aec = best(repeats, aec_rate, game_id, options, games)
        steps, moves = best(repeats, gym_rate, game_id, options, games)
        text = ", ".join(f"{k}={v}" for k, v in options.items()) or "default"
        rows.append(
            f"| {game_id} | {text} | {raw:,.0f} | {aec:,.0f} | {aec / raw:.2f} "
            f"| {steps:,.0f} | {moves:,.0f} | {moves / raw:.2f} |"
        )
    return "\n".join(rows)


#: (game, options, games stepped together) for the batched environments
VECTOR: list[tuple[str, dict[str, Any], int]] = [
    ("cubed", {"players": 2, "rounds": 1}, 64),
]


def cubed_vector_rate(envs: Any, steps: int) -> float:
    """Steps per second of `envs.step` over at least `steps` game steps (random legal
    actions, drawn outside the timer)."""
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    n = envs.num_envs
    done = 0
    spent = 0.0
    while done < steps:
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        start = time.perf_counter()
        _, _, _, _, info = envs.step(actions)
        spent += time.perf_counter() - start
        done += n
    return done / spent


def cubed_vector_table(steps: int, repeats: int) -> str:
    rows = [
        "| game | options | games per step | opponent | compiled steps/s | Python steps/s "
        "| compiled ÷ Python |",
        "|---|---|---|---|---|---|---|",
    ]
    for game_id, options, n in VECTOR:
        for opponent in ("self", "random"):
            fast = vector_env(game_id, n, opponent=opponent, **options)
            slow = SessionVectorEnv(game_id, n, opponent=opponent, **options)
            fast.reset(seed=0)  # compile or load the kernel outside the timer
            rate = best(repeats, cubed_vector_rate, fast, steps)
            python = best(repeats, cubed_vector_rate, slow, max(steps // 50, n))
            text = ", ".join(f"{k}={v}" for k, v in options.items()) or "default"
            rows.append(
                f"| {game_id} | {text} | {n} | {opponent} | {rate:,.0f} | {python:,.0f} "
                f"| {rate / python:,.0f}× |"
            )
    return "\n".join(rows)


def vector_rate(num_envs: int, opponent: str, steps: int) -> tuple[float, float]:
    """Steps per second of the batched Unstackable environment under a uniformly random
    legal policy (drawn with numpy from the masks, and timed with the steps), and of the
    environment's `step` alone."""
    from cubegames.rl.vector.unstackable import VectorEnv

    envs = VectorEnv(num_envs, seed=0, opponent=opponent)
    _, info = envs.reset()
    rng = np.random.default_rng(0)
    envs.step(np.argmax(info["action_mask"] * rng.random(info["action_mask"].shape), axis=1))
    inside = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        mask = info["action_mask"]
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        before = time.perf_counter()
        _, _, _, _, info = envs.step(actions)
        inside += time.perf_counter() - before
    elapsed = time.perf_counter() - start
    return num_envs * steps / elapsed, num_envs * steps / inside


def vector_table(repeats: int) -> str:
    """The batched Unstackable environment (`cubegames.rl.vector.unstackable`)."""
    rows = [
        "| game | opponent | envs | steps/s with the random policy | steps/s in `step` |",
        "|---|---|---|---|---|",
    ]
    for opponent in ("self", "random"):
        for num_envs in (256, 1024):
            steps = 200_000 // num_envs
            policy, alone = best(repeats, vector_rate, num_envs, opponent, steps)
            rows.append(f"| unstackable | {opponent} | {num_envs} | {policy:,.0f} | {alone:,.0f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per figure")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the best)")
    parser.add_argument(
        "--vector-steps", type=int, default=20000, help="game steps per batched figure"
    )
    parser.add_argument(
        "--vector-only", action="store_true", help="only the batched environments' table"
    )
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.games} games, "
        f"best of {args.repeats}\n"
    )
    print("### Batched environments: steps per second on one core\n")
    print(vector_table(args.repeats))
    print("\n### Batched CUBED environment against the Python one, steps per second\n")
    print(cubed_vector_table(args.vector_steps, args.repeats))
    if args.vector_only:
        return
    print("\n### Learning environments: random play, steps per second\n")
    print(table(args.games, args.repeats))


if __name__ == "__main__":
    main()
