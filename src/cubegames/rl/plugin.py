"""The learning capability of a game without an `rl` part, and two helpers to write it.

A game's codec and observer are `Codec` and `Observer` in its own `rl` part
(`cubegames.kit.parts`: the module `rl` beside its game module, `cubegames.games.cubed.rl`
for CUBED). A game without one is learnable when its `Game` class has the `Learnable`
capability (a protocol: name it among the class's bases so mypy checks it). Without it,
`cubegames.rl` falls back on `LegalIndexCodec` (action i: the i-th legal move) and
`ViewObserver` (the view's JSON text as numbers): every environment works, fit for baselines
and API checks, not for serious learning.

- `ListCodec(game, moves)`: a codec over a fixed list of every move the game could ever
  make with its options (Nim with piles up to 3: `take 1`, `take 2`, `take 3`);
- `VectorObserver(game, size, features)`: an observer of `size` floats in [0, 1] made by
  `features(view)`, with no spatial planes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cubegames.core.game import Game, Move
from cubegames.rl.encoding import ActionCodec, ActionEncodingError
from cubegames.rl.observation import Array, Observer

View = Mapping[str, Any]


@runtime_checkable
class Learnable(Protocol):
    """A game that gives its own action codec and observer."""

    def action_codec(self, **settings: Any) -> ActionCodec:
        """The game's codec for its options (`settings`: the codec's own, if any)."""
        ...

    def observer(self, **settings: Any) -> Observer:
        """The game's observer for its options (`settings`: the observer's own, if any)."""
        ...


def plug_in_codec(game: Game[Any], **settings: Any) -> ActionCodec:
    """The codec of a plug-in game: its own (`Learnable`), else `LegalIndexCodec`."""
    if isinstance(game, Learnable):
        return game.action_codec(**settings)
    _no_settings(game, settings)
    return LegalIndexCodec(game)


def plug_in_observer(game: Game[Any], **settings: Any) -> Observer:
    """The observer of a plug-in game: its own (`Learnable`), else `ViewObserver`."""
    if isinstance(game, Learnable):
        return game.observer(**settings)
    _no_settings(game, settings)
    return ViewObserver(game)


def _no_settings(game: Game[Any], settings: dict[str, Any]) -> None:
    if settings:
        raise ValueError(f"{game.id}'s generic encoding takes no settings ({', '.join(settings)})")


class LegalIndexCodec(ActionCodec):
    """The fallback codec of a game without `Learnable`: action `i` is the `i`-th legal move
    (in `legal_moves()` order) of the position the view shows, for at most `size` legal moves.

    Legal moves depend only on the mover's view (the conformance test checks it), so `decode`
    finds them from a determinization of the view. The same action means different moves in
    different positions: enough for random and masked baselines and for `api_test`; a game
    meant for learning should give a codec of its own (`Learnable`).
    """

    #: the most legal moves a position may have
    SIZE = 512

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.size = self.SIZE

    def _legal(self, view: View | None) -> list[Move]:
        if view is None or not isinstance(view.get("seat"), int):
            raise ActionEncodingError("this codec needs the mover's view")
        state = self.game.determinize(view, view["seat"], random.Random(0))
        return state.legal_moves()

    def indexes(self, moves: Iterable[Move], view: View | None = None) -> npt.NDArray[np.int64]:
        """Each of `moves` (the legal moves, in their order) by its place in the list."""
        count = len(list(moves))
        if count > self.size:
            raise ActionEncodingError(f"{count} legal moves; this codec holds {self.size}")
        return np.arange(count, dtype=np.int64)

    def encode(self, move: Move, view: View | None = None) -> int:
        legal = self._legal(view)
        if move not in legal or legal.index(move) >= self.size:
            raise ActionEncodingError(f"{move} is not a legal move here")
        return legal.index(move)

    def decode(self, index: int, view: View | None = None) -> Move:
        legal = self._legal(view)
        value = self.check_index(index)
        if value >= len(legal):
            raise ActionEncodingError(f"action {value}: there are {len(legal)} legal moves")
        return legal[value]


class ViewObserver(Observer):
    """The fallback observer of a game without `Learnable`: the view's JSON text (keys
    sorted) as bytes scaled to [0, 1], zero-padded or cut to `SIZE`. It reads the view alone,
    so it never tells a seat more than it may see; a game meant for learning should give an
    observer of its own (`Learnable`)."""

    SIZE = 2048

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.plane_shape = (0,)
        self.vector_size = self.SIZE

    def fill_planes(self, view: View, out: Array) -> None:
        """No planes."""

    def vector(self, view: View) -> Array:
        text = json.dumps(view, sort_keys=True, separators=(",", ":")).encode("utf-8")
        out = np.zeros(self.SIZE, dtype=np.float32)
        raw = np.frombuffer(text[: self.SIZE], dtype=np.uint8)
        out[: len(raw)] = raw / 255.0
        return out


class ListCodec(ActionCodec):
    """Actions numbered by their place in a fixed list of moves.

    >>> import cubegames
    >>> from cubegames.games.cubes import Roll
    >>> codec = ListCodec(cubegames.make("cubes"), [Roll()])
    >>> codec.size, codec.encode(Roll()), codec.decode(0)
    (1, 0, Roll(faces=None))
    """

    def __init__(self, game: Game[Any], moves: Sequence[Move]) -> None:
        self.game = game
        self.moves = list(moves)
        self.size = len(self.moves)
        self._index = {m: i for i, m in enumerate(self.moves)}
        if len(self._index) != self.size:
            raise ValueError("ListCodec: a move is listed twice")

    def encode(self, move: Move, view: View | None = None) -> int:
        found = self._index.get(move)
        if found is None:
            raise ActionEncodingError(f"{move} is not among the codec's moves")
        return found

    def decode(self, index: int, view: View | None = None) -> Move:
        return self.moves[self.check_index(index)]


class VectorObserver(Observer):
    """An observer with no planes and a vector of `size` features from `features(view)`."""

    def __init__(
        self, game: Game[Any], size: int, features: Callable[[View], Sequence[float]]
    ) -> None:
        self.game = game
        self.plane_shape = (0,)
        self.vector_size = size
        self._features = features

    def fill_planes(self, view: View, out: Array) -> None:
        """No planes."""

    def vector(self, view: View) -> Array:
        out = np.asarray(self._features(view), dtype=np.float32)
        if out.shape != (self.vector_size,):
            raise ValueError(f"the features of {self.game.id} must be {self.vector_size} numbers")
        return out
