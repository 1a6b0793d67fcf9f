"""One game in progress seen through a codec and an observer: what both environments share.

A `Session` holds the state and answers, for a seat, its observation (from `view(seat)`),
its action mask (its legal moves while it is to move, else all zeros) and, at the end, its
reward.

Legal actions are worked out once per position, as indexes; masks are made from them.

Rewards come only at the end of the game (every step before gives 0):

- `"win"` (default): a winner gets 1, shared equally on a tie (two winners get 0.5 each),
  everyone else 0; a lost solo game is 0. Over seats this adds up to 1 whenever someone wins.
- `"shaped"`: the game's own search rewards (`game.rewards(state)`, in [0, 1]), which also
  grade a loss, e.g. solo CUBED gives up to 0.5 for few points left in hand.

Speed note: a CUBED step makes a few fresh arrays of about 200 KB (the mask, the
observation). With glibc's default malloc settings, freeing them can give the memory back
to the system at every step and fault it in again at the next, which costs more than
filling them; `MALLOC_TOP_PAD_=16777216` in the training process's environment keeps it
(benchmarks/README.md, "Learning environments", has the figures).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

import cubegames
from cubegames.core.game import JSON, Game, Move, State
from cubegames.kit.parts import part
from cubegames.rl.encoding import ActionCodec, codec
from cubegames.rl.observation import Observer, observer

REWARDS = ("win", "shaped")


class IllegalAction(ValueError):
    """An action that is not legal for the seat to move."""


def win_shares(state: State[Any]) -> list[float]:
    """1 for a winner, shared on a tie, 0 otherwise (all 0 while the game goes on).

    >>> import cubegames
    >>> state = cubegames.make("unstackable").new_state()
    >>> win_shares(state)
    [0.0, 0.0]
    """
    players = state.game.players
    won = state.winners()
    return [1.0 / len(won) if s in won else 0.0 for s in range(players)]


def draw_text(state: State[Any], seat: int | None) -> str:
    """The terminal drawing of `state` as `seat` sees it (None: a spectator), as plain text."""
    import io

    from rich.console import Console

    from cubegames.render.terminal import draw

    view = state.public_view() if seat is None else state.view(seat)
    legal = state.legal_moves() if seat is not None and state.to_move == seat else []
    out = io.StringIO()
    Console(file=out, width=120, color_system=None, force_terminal=False).print(
        draw(state.game, view, legal)
    )
    return out.getvalue()


@runtime_checkable
class Settled(Protocol):
    """An `rl` part whose codec and observer take settings of their own (CUBED's window
    `radius`), named in `SETTINGS`."""

    SETTINGS: tuple[str, ...]


def encoding_settings(game: Game[Any]) -> tuple[str, ...]:
    """The settings `game`'s codec and observer take (its `rl` part's `SETTINGS`; none for
    a game without one).

    >>> import cubegames
    >>> encoding_settings(cubegames.make("cubed")), encoding_settings(cubegames.make("cubes"))
    (('radius',), ())
    """
    module = part(game.id, "rl")
    return tuple(module.SETTINGS) if isinstance(module, Settled) else ()


class Session:
    """A game, its codec and observer, and the state being played."""

    def __init__(
        self, game_id: str, *, reward: str = "win", radius: int | str | None = None, **options: Any
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.reward_mode = reward
        self.game: Game[Any] = cubegames.make(game_id, **options)
        settings = {} if radius is None else {"radius": radius}
        for name in settings:
            if name not in encoding_settings(self.game):
                title = self.game.info.title
                raise ValueError(f"{name} is not a setting of {title}'s encoding")
        self.codec: ActionCodec = codec(self.game, **settings)
        self.observer: Observer = observer(self.game, **settings)
        self.state: State[Any] = self.game.new_state(0)
        #: moves played since the deal, by every seat
        self.moves = 0
        self._legal: npt.NDArray[np.int64] | None = None
        self._views: dict[int, JSON] = {}

    def reset(self, seed: int) -> None:
        """Deal a new game from `seed`."""
        self.state = self.game.new_state(seed)
        self.moves = 0
        self._changed()

    def _changed(self) -> None:
        self._legal = None
        self._views = {}

    def view(self, seat: int) -> JSON:
        """`state.view(seat)`, worked out once per position (do not change it)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self.state.view(seat)
        return found

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game is over."""
        return self.state.to_move

    def legal(self, seat: int) -> npt.NDArray[np.int64]:
        """A fresh int64 array of `seat`'s legal actions, in the order of `legal_moves()`
        (empty unless it is to move)."""
        if seat != self.state.to_move:
            return np.zeros(0, dtype=np.int64)
        if self._legal is None:
            self._legal = self.codec.indexes(self.state.legal_moves(), self.view(seat))
        return self._legal.copy()

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """A fresh int8 mask of `seat`'s legal actions (all 0 unless it is to move)."""
        return self.codec.mask_of(self.legal(seat))

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """`seat`'s observation, from `view(seat)` alone."""
        return self.observer.observe(self.view(seat))

    def move_of(self, action: Any) -> Move | None:
        """The legal move of `action` for the seat to move, or None if it is not legal."""
        seat = self.state.to_move
        if seat is None:
            return None
        try:
            index = self.codec.check_index(action)
        except (ValueError, TypeError):
            return None
        if index not in self.legal(seat):
            return None
        return self.codec.decode(index, self.view(seat))

    def play(self, action: Any) -> Move:
        """Play `action` for the seat to move; `IllegalAction` (nothing changes) if illegal."""
        move = self.move_of(action)
        if move is None:
            raise IllegalAction(
                f"action {action!r} is not legal for seat {self.state.to_move} here "
                f"(legal: {int(self.mask(self.state.to_move or 0).sum())} actions)"
            )
        self.play_move(move)
        return move

    def play_move(self, move: Move) -> None:
        """Play a move already known to be legal (a bot's choice)."""
        self.state.play(move)
        self.moves += 1
        self._changed()

    def rewards(self) -> list[float]:
        """The end-of-game reward of every seat (see the module docstring)."""
        if self.reward_mode == "shaped":
            return [float(r) for r in self.game.rewards(self.state)]
        return win_shares(self.state)
