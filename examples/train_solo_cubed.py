"""Train a small masked softmax policy on solo CUBED, in numpy, and plot its win rate.

    .venv/bin/python examples/train_solo_cubed.py                # about 3 minutes
    .venv/bin/python examples/train_solo_cubed.py --minutes 0.5 --out /tmp/solo.png

The environment is `cubegames.rl.single_agent("cubed", players=1)`: one learner, 219,416
discrete actions of which `info["action_mask"]` marks the legal ones (a few dozen).

The policy scores each legal action by a linear function of a few features of the move
(below), so it has 11 weights instead of one logit per action, and samples from the softmax
of the scores over the legal actions only (the mask). It learns by REINFORCE with a running
baseline from the environment's "shaped" reward at the end of each game (1 for a win,
otherwise up to 0.5 for few points left in hand).

Features of a placement, worked out from the learner's view (its hand and the table; in
solo play nothing else is hidden but the order of the bag): the points of the piece laid
and its kind, whether it empties the hand, how many placements the rest of the hand has
afterwards, how many cells stay playable, how many pieces the cell touches, and whether the
cell was already touching 3 or more. (The greedy bot scores moves by a hand-made mix of
the first few; the policy has to find its own weights.)

Every `--eval-every` seconds of training the current policy plays `--eval-games` fixed deals
taking its most likely move; the plot shows its win rate beside those of the `random` and
`greedy` bots on the same deals. `--minutes` counts training time only, so a run takes
about half as long again with the evaluations and the baselines.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

import cubegames
from cubegames.core.hexgrid import pack
from cubegames.games.cubed import Cubed, CubedState, Place
from cubegames.games.cubed.pieces import PieceKind
from cubegames.rl import single_agent
from cubegames.rl.gym import SingleAgentEnv

KINDS = tuple(PieceKind)
FEATURES = 11
Features = npt.NDArray[np.float64]


def features(env: SingleAgentEnv, legal: Sequence[int], rng: random.Random) -> Features:
    """One row of features per legal action, from the learner's view alone."""
    game = env.session.game
    assert isinstance(game, Cubed)
    ed = game.edition
    view = env.session.state.view(env.seat)
    seen = game.determinize(view, env.seat, rng)  # the view as a state (bag order sampled)
    assert isinstance(seen, CubedState)
    out = np.zeros((len(legal), FEATURES))
    for row, index in enumerate(legal):
        move = env.codec.decode(index, view)
        if not isinstance(move, Place):  # solo: a draw is offered only when nothing fits
            continue
        piece = (ed.index[move.slots[0]], ed.index[move.slots[1]], ed.index[move.slots[2]])
        cell = pack(move.q, move.r)
        touches = game.frontier.info(seen.front[cell]).touches
        after = seen.clone()
        after.apply_placement(piece, cell)
        out[row, 0] = ed.piece_points(piece) / 10.0
        out[row, 1 + KINDS.index(ed.kind(piece))] = 1.0
        out[row, 6] = not after.hands[0]
        out[row, 7] = len(after.placements()) / 50.0
        out[row, 8] = len(after.playable) / 20.0
        out[row, 9] = touches / 6.0
        out[row, 10] = touches >= 3
    return out


def softmax(scores: Features) -> Features:
    z = np.exp(scores - scores.max())
    probs: Features = z / z.sum()
    return probs


@dataclass
class Policy:
    """Linear scores over move features, masked softmax over the legal actions."""

    weights: Features

    def act(self, feats: Features, rng: np.random.Generator, *, best: bool) -> tuple[int, Features]:
        """The chosen row and the gradient of its log-probability."""
        probs = softmax(feats @ self.weights)
        row = int(np.argmax(probs)) if best else int(rng.choice(len(probs), p=probs))
        return row, feats[row] - probs @ feats


def play(
    env: SingleAgentEnv, policy: Policy, seed: int, rng: np.random.Generator, *, best: bool
) -> tuple[float, bool, list[Features]]:
    """One game: its reward, whether it was won, and the log-probability gradients."""
    feature_rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    grads: list[Features] = []
    while True:
        legal = np.flatnonzero(info["action_mask"]).tolist()
        if len(legal) == 1:
            row = 0
        else:
            row, grad = policy.act(features(env, legal, feature_rng), rng, best=best)
            grads.append(grad)
        _, reward, terminated, _, info = env.step(legal[row])
        if terminated:
            state = env.session.state
            return float(reward), state.winners() == [0], grads


def evaluate(env: SingleAgentEnv, policy: Policy, seeds: Sequence[int]) -> float:
    rng = np.random.default_rng(0)
    return float(np.mean([play(env, policy, s, rng, best=True)[1] for s in seeds]))


def bot_rate(name: str, seeds: Sequence[int]) -> float:
    """The solo win rate of a named bot on the deals of `seeds` (as the environment deals
    them: the environment's own generator, seeded with each seed, picks the deal)."""
    env = single_agent("cubed", players=1)
    wins = 0
    for seed in seeds:
        env.reset(seed=seed)
        bot = cubegames.bot(name, seed=seed)
        state = env.session.state
        while not state.is_over:
            state.play(bot.choose(state))
        wins += state.winners() == [0]
    return wins / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (no evals)")
    parser.add_argument("--eval-every", type=float, default=30.0, help="training seconds per eval")
    parser.add_argument("--eval-games", type=int, default=100, help="deals per evaluation")
    parser.add_argument("--lr", type=float, default=3.0, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("solo_cubed_win_rate.png"))
    args = parser.parse_args()

    eval_seeds = list(range(10_000, 10_000 + args.eval_games))
    print(f"baselines on {args.eval_games} deals ...", flush=True)
    baselines = {name: bot_rate(name, eval_seeds) for name in ("random", "greedy")}
    print("  " + ", ".join(f"{k} {v:.0%}" for k, v in baselines.items()), flush=True)

    env = single_agent("cubed", players=1, reward="shaped")
    policy = Policy(np.zeros(FEATURES))
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    games = 0
    history: list[tuple[float, int, float]] = []  # (training minutes, games, eval win rate)
    trained = 0.0  # seconds spent training (evaluations not counted)
    next_eval = 0.0
    while True:
        if trained >= next_eval or trained >= args.minutes * 60:
            rate = evaluate(env, policy, eval_seeds)
            history.append((trained / 60.0, games, rate))
            print(f"{trained / 60:5.2f} min  {games:5d} games  win rate {rate:.0%}", flush=True)
            next_eval = trained + args.eval_every
            if trained >= args.minutes * 60:
                break
        start = time.perf_counter()
        reward, _, grads = play(env, policy, args.seed * 1_000_003 + games, rng, best=False)
        if grads:
            # REINFORCE: move every chosen action's log-probability by the advantage
            policy.weights += args.lr * (reward - baseline) * np.mean(grads, axis=0)
        baseline += 0.05 * (reward - baseline)
        games += 1
        trained += time.perf_counter() - start

    print("weights:", np.round(policy.weights, 2).tolist())
    plot(history, baselines, args.out)
    print(f"plot written to {args.out}")


def plot(history: list[tuple[float, int, float]], baselines: dict[str, float], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([h[1] for h in history], [h[2] for h in history], marker="o", label="learned policy")
    styles = {"random": ":", "greedy": "--"}
    for name, rate in baselines.items():
        ax.axhline(rate, linestyle=styles[name], color="grey", label=f"{name} bot ({rate:.0%})")
    ax.set_xlabel("training games")
    ax.set_ylabel("solo win rate on the evaluation deals")
    ax.set_ylim(0, 1)
    ax.set_title("Solo CUBED: masked linear softmax policy, REINFORCE")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
