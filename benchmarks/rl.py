"""Speed of the learning environments beside the raw engine, as a Markdown table.

    .venv/bin/python benchmarks/rl.py [--games N] [--repeats R]
    .venv/bin/python benchmarks/rl.py --vector-only [--vector-game cubed] [--cpu]

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

Batched environments (`cubegames.rl.vector_env`, N games a step, one process): steps per
second summed over the N games, timing `step` alone (the random legal actions are drawn
from the masks outside the timer), for the compiled environment and for the Python
`SessionVectorEnv` of the same game in the same run. `--vector-only` prints that table
alone, `--vector-game ID` its rows of one game, and `--cpu` times the steps in CPU seconds
of this process (`time.process_time`) instead of wall-clock seconds, the steadier figure on
a shared machine.
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
    ("unstackable", {}, 256),
]


#: the clock of the batched figures (`--cpu`: `time.process_time`)
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def vector_rate(envs: Any, steps: int) -> float:
    """Steps per second of `envs.step` over at least `steps` game steps (random legal
    actions, drawn outside the timer), by the clock `CLOCK[0]`."""
    clock = CLOCK[0]
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    n = envs.num_envs
    done = 0
    spent = 0.0
    while done < steps:
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        start = clock()
        _, _, _, _, info = envs.step(actions)
        spent += clock() - start
        done += n
    return done / spent


def vector_table(steps: int, repeats: int, only: str | None = None) -> str:
    rows = [
        "| game | options | games per step | opponent | compiled steps/s | Python steps/s "
        "| compiled ÷ Python |",
        "|---|---|---|---|---|---|---|",
    ]
    for game_id, options, n in VECTOR:
        if only is not None and game_id != only:
            continue
        for opponent in ("self", "random"):
            fast = vector_env(game_id, n, opponent=opponent, **options)
            slow = SessionVectorEnv(game_id, n, opponent=opponent, **options)
            fast.reset(seed=0)  # compile or load the kernel outside the timer
            rate = best(repeats, vector_rate, fast, steps)
            python = best(repeats, vector_rate, slow, max(steps // 50, n))
            text = ", ".join(f"{k}={v}" for k, v in options.items()) or "default"
            rows.append(
                f"| {game_id} | {text} | {n} | {opponent} | {rate:,.0f} | {python:,.0f} "
                f"| {rate / python:,.0f}× |"
            )
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
    parser.add_argument(
        "--vector-game",
        choices=sorted({game_id for game_id, _, _ in VECTOR}),
        help="only this game's batched rows",
    )
    parser.add_argument(
        "--cpu", action="store_true", help="batched figures per CPU second of this process"
    )
    args = parser.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.games} games, "
        f"best of {args.repeats}\n"
    )
    if not args.vector_only:
        print("### Learning environments: random play, steps per second\n")
        print(table(args.games, args.repeats))
        print()
    per = "CPU second" if args.cpu else "second on one core"
    print(f"### Batched environments: random play, steps per {per}\n")
    print(vector_table(args.vector_steps, args.repeats, args.vector_game))


if __name__ == "__main__":
    main()
