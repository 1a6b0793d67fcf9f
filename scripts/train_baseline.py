"""Train a shipped baseline policy again, from its seed, and save it into the package.

    .venv/bin/python scripts/train_baseline.py unstackable-ppo            # as BASELINES says
    .venv/bin/python scripts/train_baseline.py unstackable-ppo --steps 20000 --out /tmp/p.npz
    .venv/bin/python scripts/train_baseline.py cubed-ppo         # factored actions, 2 players

The policy is written as numpy arrays (`src/cubegames/rl/policies/NAME.npz`), so playing it
needs no torch; then it plays `--games` games against the random and greedy bots through
the ordinary rules (seats alternating) and prints its win rates.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cubegames
from cubegames.rl import baselines

ROOT = Path(__file__).resolve().parents[1]


def win_rate(name: str, opponent: str, games: int, policy_file: Path) -> float:
    """The share of `games` the policy wins against `opponent` (seats alternating)."""
    made = baselines.baseline(name)
    net, _meta = baselines.Network.from_bytes(policy_file.read_bytes(), str(policy_file))
    baselines.use(name, net)
    wins = 0.0
    for g in range(games):
        game = cubegames.make(made.game, **dict(made.options))
        state = game.new_state(seed=g)
        me = cubegames.bot(f"policy:{name}", seed=g)
        other = cubegames.bot(opponent, seed=g)
        seat = g % 2
        while not state.is_over:
            bot = me if state.to_move == seat else other
            state.play(bot.choose(state))
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
    return wins / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=sorted(baselines.BASELINES))
    parser.add_argument("--steps", type=int, help="training steps (default: the baseline's)")
    parser.add_argument("--seed", type=int, help="training seed (default: the baseline's)")
    parser.add_argument("--out", type=Path, help="where to write (default: into the package)")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    args = parser.parse_args()
    made = baselines.baseline(args.name)
    out = args.out or ROOT / "src/cubegames/rl" / baselines.path_of(args.name)
    started, cpu = time.time(), time.process_time()
    model = baselines.train(args.name, steps=args.steps, seed=args.seed)
    net = baselines.from_sb3(model.policy)
    meta = {
        "game": made.game,
        "steps": args.steps or made.steps,
        "seed": made.seed if args.seed is None else args.seed,
        "opponent": made.opponent,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(net.to_bytes(meta))
    print(
        f"trained {args.name}: {meta['steps']:,} steps, seed {meta['seed']}, "
        f"{time.process_time() - cpu:.0f} s CPU ({time.time() - started:.0f} s wall); {out}",
        file=sys.stderr,
    )
    for opponent in ("random", "greedy"):
        rate = win_rate(args.name, opponent, args.games, out)
        print(f"| {args.name} | {opponent} | {args.games} | {rate:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
