"""The protocol every game follows: a `Game` (rules plus options) makes `State`s.

Rules are pure: nothing here does I/O, prints, or touches global random state.
Chance comes from the seed given to `Game.new_state` and from the position itself.
"""

from __future__ import annotations

import functools
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from cubegames.core import splitmix
from cubegames.core.errors import ILLEGAL, IllegalMove, Refusal, cut, is_whole, plain, shown
from cubegames.core.info import GameInfo

JSON = dict[str, Any]


def seat_of(seat: object, players: int) -> int:
    """`seat` as a seat of a game of `players` seats (an int or numpy's), else a
    ValueError: `view(seat)` of every built-in game reads its seat through this, so that
    `view(True)`, `view(1.0)`, `view("0")` or `view(None)` are refused as `view(9)` is.

    >>> seat_of(1, 2)
    1
    >>> seat_of(True, 2)
    Traceback (most recent call last):
    ...
    ValueError: there is no seat True
    """
    if is_whole(seat):
        number = operator.index(seat)
        if 0 <= number < players:
            return number
    raise ValueError(f"there is no seat {shown(seat)}")


def _is_seat(seat: object, to_move: int) -> bool:
    """True when `seat` names seat `to_move`: a whole number (an int or numpy's), not a
    bool (`play(move, seat=True)` is not seat 1's move)."""
    return is_whole(seat) and operator.index(seat) == to_move


class Move(ABC):
    """A move is a small hashable value; `str(move)` is its notation."""

    __slots__ = ()

    @abstractmethod
    def __str__(self) -> str: ...


M = TypeVar("M", bound=Move)


class State(ABC, Generic[M]):
    """A position of a game, with everything needed to continue it."""

    game: Game[Any]

    #: True for a game whose seats all see the same thing (nothing hidden): its spectators
    #: see `view(0)` as it is, not compared field by field with every other seat's
    views_alike: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("view")
        if callable(own) and not getattr(own, "seat_checked", False):
            cls.view = _seat_checked(own)  # type: ignore[method-assign]

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or None once the game is over."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.to_move is None

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move, in a fixed order."""

    @abstractmethod
    def refusal(self, move: M) -> str | None:
        """Why `move` is illegal here, or None if it is legal. The game must not be over.

        A `Refusal` (a `str` with a code and parameters) lets pages word the reason in their
        own language; a game that gives a plain sentence (a plug-in written to the plainer
        contract) has it carried as the rules' refusal, code `illegal`."""

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Play a move already known to be legal."""

    def play(self, move: M | str, *, seat: int | None = None) -> None:
        """Play `move` (a move or its notation) for the seat to move.

        Raises `IllegalMove` with the reason, leaving the state untouched, when the move
        cannot be read or breaks the rules; `seat`, if given, must be the seat to move.
        """
        parsed = self._parsed(move)
        if self.to_move is None:
            raise IllegalMove(Refusal("over", "the game is over"))
        if seat is not None and not _is_seat(seat, self.to_move):
            raise IllegalMove(
                Refusal(
                    "turn",
                    f"it is seat {self.to_move}'s turn, not seat {plain(seat)}'s",
                    to_move=self.to_move,
                    seat=plain(seat),
                )
            )
        reason = self.refusal(parsed)
        if reason is not None:
            raise IllegalMove(reason if isinstance(reason, Refusal) else Refusal(ILLEGAL, reason))
        self._apply(parsed)

    def is_legal(self, move: M | str) -> bool:
        """True when `move` could be played now."""
        if self.to_move is None:
            return False
        try:
            parsed = self._parsed(move)
        except IllegalMove:
            return False
        return self.refusal(parsed) is None

    def _parsed(self, move: M | str) -> M:
        """`move` read as a move of this game: its notation parsed; a move object read back
        from its own notation (`parse_move(str(move))`), so that one built by hand with
        fields of the wrong kind (`Place(q="X")`, `Stack(x=False, ...)`) or one of another
        game is refused here and never half played. Anything else (None, a number, a dict)
        is refused too: `refusal` (a plug-in's too) is only ever given this game's `Move`."""
        if isinstance(move, str):
            read: M = self.game.parse_move(move)
            return read
        rebuilt: M | None = None
        if isinstance(move, Move):
            try:
                rebuilt = self.game.parse_move(str(move))
            except IllegalMove:
                raise  # what is wrong with it, as its notation says (`roll C`: 1 face of 6)
            except Exception:  # a move that cannot say itself is no move
                rebuilt = None
            else:
                if rebuilt != move:  # its notation says another move than it holds
                    rebuilt = None
        if rebuilt is None:
            named = cut(move)
            raise IllegalMove(
                Refusal("not-a-move", f"{named} is not a {self.game.id} move", move=named)
            )
        return rebuilt

    @abstractmethod
    def scores(self) -> list[float]:
        """One score per seat, in the game's own scoring."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats once the game is over; [] before (and for a lost solo game)."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def view(self, seat: int) -> JSON:
        """A JSON-able dict of everything `seat` may see, and nothing more."""

    def public_view(self) -> JSON:
        """What a spectator may see: the fields of `view(0)` that every seat's view shows
        alike, with `"seat": None`. For a game with nothing hidden that is the whole view;
        a field that differs between seats (a hand of their own) is left out, so a game
        whose spectators may know something of it (each hand's size) overrides this; one
        that hides nothing says `views_alike` and is not compared."""
        if self.views_alike:
            out = self.view(0)
            out["seat"] = None
            return out
        views = [self.view(seat) for seat in range(self.game.players)]
        out = {
            key: value
            for key, value in views[0].items()
            if key == "seat" or all(key in other and other[key] == value for other in views[1:])
        }
        out["seat"] = None
        return out

    @abstractmethod
    def to_dict(self) -> JSON:
        """A JSON-able dict of the whole state, hidden parts included."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} to_move={self.to_move}>"


class Playouts(ABC, Generic[M]):
    """A game's compiled playouts from one position, for a flat search (see
    `Game.playouts`): the moves worth trying at the root, and one playout after any of them
    on a fresh deal of what the searching seat cannot see."""

    #: the root moves, in a fixed order
    moves: list[M]
    #: the playouts a search runs when its bot is given no budget (None: the bot's own)
    budget: int | None = None

    @abstractmethod
    def run(self, move: int, seed: int) -> list[float]:
        """Play `moves[move]`, then a short playout with the game's own light policy, on a
        deal of the hidden parts drawn from `seed`; rewards in [0, 1] for every seat."""

    def batch(self, moves: Sequence[int], seeds: Sequence[int], seat: int) -> list[float]:
        """`run(moves[i], seeds[i])` for every `i`, keeping `seat`'s reward: a search's
        batch of playouts, which compiled playouts make in one call. The same seed deals
        the hidden parts the same way whatever the move."""
        return [self.run(m, s)[seat] for m, s in zip(moves, seeds, strict=True)]


def _seat_checked(view: Callable[..., JSON]) -> Callable[..., JSON]:
    """`view` refusing a seat that is not one of the game's (`seat_of`'s ValueError: 9, -1,
    True, 1.0, "0", None) before the game sees it, and giving it a plain int (numpy's
    too): every game's views, a plug-in's included, take seats alike."""

    @functools.wraps(view)
    def checked(self: State[Any], seat: object) -> JSON:
        return view(self, seat_of(seat, self.game.players))

    checked.seat_checked = True  # type: ignore[attr-defined]
    return checked


def _position_checked(read: Callable[..., Any]) -> Callable[..., Any]:
    """`state_from_dict` refusing, before the game reads it, what is not a position of this
    game: not a JSON object, no `"game"` or another game's, no `"options"` or options that
    are not this game's (`core.data.check_position_options`). Every game's, a plug-in's
    included, so that a file of one game is never read by another, nor with other options
    than its state would write."""
    from cubegames.core.data import check_position_options

    @functools.wraps(read)
    def checked(self: Game[Any], data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        game_id = getattr(self, "id", None)
        if isinstance(game_id, str):  # (a bare class made outside the registry has none)
            if "game" not in data:
                raise ValueError('field "game" is missing')
            if not (isinstance(data["game"], str) and data["game"] == game_id):
                raise ValueError(f'field "game": this position is not {_a(self)} game')
            check_position_options(data, self)
        return read(self, data)

    checked.position_checked = True  # type: ignore[attr-defined]
    return checked


def _a(game: Game[Any]) -> str:
    """The game's title with its article: "a CUBED", "an Unstackable"."""
    info = getattr(game, "info", None)
    title = info.title if isinstance(info, GameInfo) else game.id
    return f"{'an' if title[:1].lower() in 'aeiou' else 'a'} {title}"


def _seed_checked(new_state: Callable[..., Any]) -> Callable[..., Any]:
    """`new_state` refusing a seed that is not a whole number (None, 1.5, "7", True, NaN)
    with `chance.whole_seed`'s ValueError before the game sees it, and giving it a plain
    int (numpy's too): every game's, a plug-in's included, takes seeds alike."""
    from cubegames.core.chance import whole_seed

    @functools.wraps(new_state)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        if args:
            args = (whole_seed(args[0]), *args[1:])
        elif "seed" in kwargs:
            kwargs["seed"] = whole_seed(kwargs["seed"])
        return new_state(self, *args, **kwargs)

    checked.seed_checked = True  # type: ignore[attr-defined]
    return checked


class Game(ABC, Generic[M]):
    """A game's rules with one set of options; it makes, reads and checks states."""

    id: ClassVar[str]
    #: the game's facts (title, seats, options model, ...), declared at the top of its module
    info: ClassVar[GameInfo]
    #: option names `make` accepts for this game: the fields of `info.options`
    option_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        facts = cls.__dict__.get("info")
        if isinstance(facts, GameInfo):
            cls.id = facts.id
            cls.option_names = tuple(facts.options.model_fields)
        own = cls.__dict__.get("new_state")
        if callable(own) and not getattr(own, "seed_checked", False):
            cls.new_state = _seed_checked(own)  # type: ignore[method-assign]
        read = cls.__dict__.get("state_from_dict")
        if callable(read) and not getattr(read, "position_checked", False):
            cls.state_from_dict = _position_checked(read)  # type: ignore[method-assign]

    players: int

    @property
    @abstractmethod
    def options(self) -> JSON:
        """The options as written in position files."""

    @abstractmethod
    def new_state(self, seed: int = 0) -> State[M]:
        """A game set up and dealt; the same seed always gives the same game."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State[M]:
        """Read a state written by `State.to_dict`; ValueError names a bad field."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move's notation; `IllegalMove` says what is wrong with it."""

    @abstractmethod
    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> State[M]:
        """A full state consistent with `view` (what `seat` sees), hidden parts sampled."""

    # -- hooks for search bots: generic defaults that a game may override ------------------

    def sampler(self, view: Mapping[str, Any], seat: int) -> Callable[[random.Random], State[M]]:
        """A function drawing determinizations of `view`; games override it to do the
        set-up work once instead of once per sample."""
        return lambda rng: self.determinize(view, seat, rng)

    def rollout(self, state: State[M], rng: random.Random) -> None:
        """Play on with uniformly random legal moves up to the search horizon (here: the
        end of the game). Games override this with a leaner path or a better policy."""
        while state.to_move is not None:
            moves = state.legal_moves()
            state._apply(moves[rng.randrange(len(moves))])

    def rewards(self, state: State[M]) -> list[float]:
        """Search rewards in [0, 1], one per seat, where a rollout stopped.

        Default: at the end of the game a win is worth 1 (shared on a tie); before it every
        seat gets an equal share.
        """
        players = self.players
        if state.to_move is not None:
            return [1.0 / players] * players
        won = state.winners()
        return [1.0 / len(won) if s in won else 0.0 for s in range(players)]

    def root_moves(self, state: State[M]) -> list[M]:
        """The moves a search bot considers at its root: by default every legal move; a
        game may prune to its most promising ones so the budget is spent where it matters."""
        return state.legal_moves()

    def flat_budget(self) -> int | None:
        """The playouts a move of the default flat search runs in these rules, known from
        the options alone: a game whose default depends on its options (CUBED: seats and
        edition) returns it here and its `Playouts.budget` reads it, so that the search
        bot and the learning environments' compiled opponents
        (`cubegames.rl.kernel_opponents`) run the same. None (the default): the bot's own,
        unless the game's `Playouts` set their own `budget`."""
        return None

    def playouts(
        self, view: Mapping[str, Any], seat: int, rng: random.Random
    ) -> Playouts[M] | None:
        """Compiled playouts from what `seat` sees (`view`), for a flat search; None (the
        default) when the game has none for these rules, and the search builds a tree."""
        return None

    def random_playout(self, state: State[M], rngs: list[splitmix.Draws]) -> list[int] | None:
        """Play `state` to the end exactly as random bots would (seat `s` choosing
        `rngs[s].randrange(len(legal_moves()))` at every move, the bots' SplitMix64
        generators), leaving each generator where its bot's would be; return the seat of
        each move played.

        A game with a compiled path overrides this; None (the default) means it has none
        and nothing was played, so the caller asks the bots move by move.
        """
        return None

    def greedy_move(self, state: State[M], rng: random.Random) -> M | None:
        """This game's one-ply heuristic move for the seat to move, or None if it has none
        (the greedy bot then falls back on a generic one-ply look at `scores`)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.options}>"
