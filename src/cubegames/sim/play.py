"""One simulated game: a match description in, a flat record out."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, cast

import cubegames
from cubegames.bots.random import RandomBot
from cubegames.core.capabilities import FinalDigest
from cubegames.core.game import Game, State
from cubegames.sim.metrics import Trace
from cubegames.sim.moves import MoveKinds
from cubegames.sim.summaries import summary_for
from cubegames.symmetry import canonical, position_key

#: the moves a simulated game may last: one that goes on longer is a game that never ends
#: (a plug-in's bug), refused instead of holding its process for ever. The built-in games
#: end within a few hundred moves.
MAX_MOVES = 1_000_000


@dataclass(frozen=True)
class Match:
    """A game to play: which game, its options, the bot in each seat, and the seed.

    Seat `s`'s bot is seeded with `seed * 1000 + s`, so a match is reproducible on its own.
    """

    game: str
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def bot_seed(self, seat: int) -> int:
        """The seed of the bot in `seat`."""
        return self.seed * 1000 + seat


def play_match(match: Match) -> dict[str, Any]:
    """Play `match` to the end and describe how it went.

    The record holds `game`, `options`, `seed`, `bots` (one per seat), `winners`, `scores`,
    `moves` (every move played), `turns` (runs of consecutive moves by one seat: a draw and
    the placement after it are one turn; a round opened by the seat that ended the last one
    continues its run, and in solo play the whole game is one run), `extras` (the game's own
    columns, see `cubegames.sim.summaries`, and unless every seat is the random bot the
    moves by kind and seat, `kind_<kind>_s<seat>`, see `cubegames.sim.moves`, and the
    per-game design metrics, `m_<name>`, see `cubegames.sim.metrics`), `final` (a
    digest of the final position's canonical image under the game's symmetries: two games
    that end in symmetric positions share it, which `cubegames report --dedupe` uses),
    `seconds` (time spent playing) and
    `think` (per seat, the seconds its bot spent choosing moves; `choices` counts them).
    Everything but `seconds` and `think` depends only on the match. When every seat is the
    random bot, the game's compiled path (`Game.random_playout`), if it has one, plays the
    very same moves, and `think` shares its time among the seats by their moves.

    >>> record = play_match(Match("cubes", ("random", "random"), seed=3))
    >>> record["moves"] == record["extras"]["rolls"], record["turns"] <= record["moves"]
    (True, True)
    """
    game = cubegames.make(match.game, **match.options)
    if len(match.bots) != game.players:
        raise ValueError(f"{len(match.bots)} bots for {game.players} seats")
    bots = [
        cubegames.bot(spec, seed=match.bot_seed(s), game=match.game)
        for s, spec in enumerate(match.bots)
    ]
    _warm(match)
    summary = summary_for(game)
    watch = summary.observe if summary.per_move else None
    # moves by kind (`sim.moves`), counted wherever bots choose the moves one by one
    # and the design metrics' trace (`sim.metrics`)
    kinds = None if all(type(b) is RandomBot for b in bots) else MoveKinds(game)
    trace = None if kinds is None else Trace(game)
    state = game.new_state(seed=match.seed)
    moves = turns = 0
    last = None
    think = [0.0] * len(bots)
    choices = [0] * len(bots)
    start = time.perf_counter()
    if watch is None and all(type(b) is RandomBot for b in bots):
        # the game's compiled path plays the very same moves, if it has one; the time of
        # the whole playout is shared among the seats by their number of moves
        seats = game.random_playout(state, [cast(RandomBot, b).rng for b in bots])
        for mover in seats or ():
            choices[mover] += 1
            moves += 1
            if mover != last:
                turns += 1
                last = mover
        if seats:
            spent = time.perf_counter() - start
            think = [spent * c / moves for c in choices]
    while (seat := state.to_move) is not None:
        if moves >= MAX_MOVES:
            raise ValueError(
                f"game {match.game} (seed {match.seed}) did not end after {MAX_MOVES:,} moves"
            )
        if trace is not None:
            trace.observe(state)
        asked = time.perf_counter()
        move = bots[seat].choose(state)
        think[seat] += time.perf_counter() - asked
        choices[seat] += 1
        state.play(move)
        if kinds is not None:
            kinds.note(seat, str(move))
        moves += 1
        if seat != last:
            turns += 1
            last = seat
        if watch is not None:
            watch(state)
    seconds = time.perf_counter() - start
    return {
        "game": match.game,
        "options": dict(match.options),
        "seed": match.seed,
        "bots": list(match.bots),
        "winners": state.winners(),
        "scores": state.scores(),
        "moves": moves,
        "turns": turns,
        "extras": summary.finish(state)
        | (kinds.columns() if kinds is not None else {})
        | (trace.columns(state) if trace is not None else {}),
        "final": final_key(game, state),
        "seconds": seconds,
        "think": think,
        "choices": choices,
    }


#: (game, bot name) pairs whose kernels this process has loaded (`_warm`)
_WARMED: set[tuple[str, str]] = set()


def _warm(match: Match) -> None:
    """Load the kernels of `match`'s bots in its game before its first game in this process
    is timed: loading them from numba's cache (or compiling them) takes seconds, which the
    first move of each process otherwise counted as that bot's thinking time (2 s to 10 s
    against a few hundredths for a whole STAKD game), making a short run's `think` and
    `seconds` a measure of the kernels' loading."""
    names = {spec.split(":", 1)[0] for spec in match.bots} - {"random"}
    new = {name for name in names if (match.game, name) not in _WARMED}
    if new:
        from cubegames.kernels import warm_bots

        warm_bots(match.game, new)
        _WARMED.update((match.game, name) for name in new)


def final_key(game: Game[Any], state: State[Any]) -> str:
    """A short digest of `state`'s least image under `game`'s symmetries: the game's own
    (`FinalDigest`: CUBED's, which its batch kernel makes too), else of the JSON text.

    >>> import cubegames
    >>> game = cubegames.make("unstackable")
    >>> a, b = game.new_state(), game.new_state()
    >>> for state, second in ((a, "K@1,0,0"), (b, "K@0,1,0")):  # mirror images
    ...     state.play("K@0,0,0"); state.play(second)
    >>> a.to_dict() != b.to_dict(), final_key(game, a) == final_key(game, b)
    (True, True)
    """
    if isinstance(game, FinalDigest):
        return game.final_digest(state)
    image = canonical(game, state.to_dict())[1]
    return hashlib.blake2b(position_key(image).encode(), digest_size=8).hexdigest()
