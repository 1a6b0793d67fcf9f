"""Optional capabilities a game may have, declared as `typing.Protocol`s.

A game must write the abstract methods of `Game` and `State` (see docs/plugins.md); each
protocol here is something more it may offer, and each shared part works without it. A class
that has a capability says so by naming the protocol among its bases (so mypy checks its
signature); the parts ask with `conforms` (where it is asked often) or `isinstance`, which
the `runtime_checkable` protocols answer.

On a `State`:

- `LegalTexts`: the legal moves' notation without making the moves (the server sends
  these to the seat to move); without it, `[str(m) for m in legal_moves()]`.
- `SharedViews`: `view(seat)` made with a cache shared between the seats (CUBED's table
  entries); without it, `view(seat)`.

On a `Game` (what the web app, the terminal and the simulator may ask of a game that has
no drawing module of its own in `cubegames.render`):

- `MoveWords`: a move in plain words for a viewer; without it, "seat 1 played take 2".
- `SecretMoves`: whether a viewer may read a move's notation; without it every move is
  public (a game whose moves carry hidden information must have it).
- `Telling`: the last move in fuller words, from a view; without it, nothing more.
- `WebHints`: what a page needs besides a view to draw it; without it, none.
- `TextDrawing`: a seat's view drawn as plain text for the terminal; without it, the view
  as an indented tree.
- `EndgameSolving`: an exact solver for the end of a game (Unstackable's stage 2); the
  `alphabeta` bot plays every game that has it, and no game without it.
- `FinalDigest`: the simulator's digest of a position up to symmetry (a row's `final`)
  made by the game (CUBED's, from numbers its batch kernel writes too); without it, the
  digest of the least symmetric image's JSON text (`cubegames.sim.play.final_key`).

Search hooks (`Game.sampler`, `rollout`, `rewards`, `root_moves`, `playouts`,
`random_playout`, `greedy_move`) are methods of `Game` with generic defaults that a game
overrides; learning environments need the `cubegames.rl.encoding.Learnable` capability.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from cubegames.core.game import JSON, Move, State

_ANSWERS: dict[tuple[object, type], bool] = {}


def conforms(thing: object, protocol: type) -> bool:
    """`isinstance(thing, protocol)` for a runtime-checkable protocol, answered once per
    class (per module, for a module) and remembered. Python 3.11 works a protocol's check
    out afresh at every call (tens of microseconds: it lists the protocol's members each
    time), and the server asks several of them for every move. A capability is the
    methods and attributes of a class or a module, never of one instance, so the class
    (or the module) decides the answer.

    >>> conforms([], LegalTexts), conforms(type("T", (), {"legal_texts": len})(), LegalTexts)
    (False, True)
    """
    owner = thing if isinstance(thing, ModuleType) else type(thing)
    key = (owner, protocol)
    found = _ANSWERS.get(key)
    if found is None:
        found = _ANSWERS[key] = isinstance(thing, protocol)
    return found


@runtime_checkable
class LegalTexts(Protocol):
    """A state that writes its legal moves' notation without making the moves."""

    def legal_texts(self) -> list[str]:
        """`[str(m) for m in self.legal_moves()]`, in the same order."""
        ...


@runtime_checkable
class SharedViews(Protocol):
    """A state whose views can share work between seats."""

    def view_sharing(self, seat: int, entries: Any) -> JSON:
        """`view(seat)`, using and filling `entries`, a cache the caller keeps for this
        state's game (None: no cache)."""
        ...


@runtime_checkable
class MoveWords(Protocol):
    """A game that says its moves in words."""

    def move_words(self, move: str, mover: int, viewer: int | None) -> str:
        """`move` (notation, played by seat `mover`) in words for seat `viewer` (None: a
        spectator), saying nothing `viewer` may not know."""
        ...


@runtime_checkable
class SecretMoves(Protocol):
    """A game some of whose moves must not be shown to every seat."""

    def move_visible(self, move: str, mover: int, viewer: int | None) -> bool:
        """Whether `viewer` may read `move`'s notation."""
        ...


@runtime_checkable
class Telling(Protocol):
    """A game that can say more about the last move than its words."""

    def tell(self, view: Mapping[str, Any]) -> str | None:
        """The last move in words for the seat whose view this is, or None."""
        ...


@runtime_checkable
class WebHints(Protocol):
    """A game whose page needs facts that only the engine can work out from a view."""

    def web_hints(self, view: Mapping[str, Any]) -> JSON:
        """Those facts, JSON-able, made from `view` alone."""
        ...


@runtime_checkable
class TextDrawing(Protocol):
    """A game that draws a view as text for the terminal."""

    def draw_text(self, view: Mapping[str, Any], legal: Sequence[Move]) -> str:
        """`view` as plain text; `legal` are the viewer's legal moves now (or none)."""
        ...


class SolvedChoice(Protocol):
    """An endgame solver's answer (`EndgameSolving.endgame_choice`)."""

    @property
    def move(self) -> Move:
        """The move chosen."""
        ...

    @property
    def value(self) -> int:
        """The final point difference (mover minus opponent) the search expects."""
        ...

    @property
    def exact(self) -> bool:
        """Whether `value` is exact (the search went to the end of the game)."""
        ...

    @property
    def depth(self) -> int:
        """The plies of the deepest search that finished."""
        ...


@runtime_checkable
class EndgameSolving(Protocol):
    """A game with a search that solves its endgame exactly (what `alphabeta` plays)."""

    def solver_key(self) -> Hashable:
        """What a solver depends on in these rules: a caller keeps one solver (and its
        table) per key, between moves and games."""
        ...

    def endgame_solver(self, *, compiled: bool = True, symmetry: bool = False) -> Any:
        """A solver for these rules, whose table lives as long as it does: `compiled` for
        the compiled search, `symmetry` to share table entries between mirrored positions
        (where the game can)."""
        ...

    def endgame_size(self, state: State[Any]) -> int | None:
        """How much is left to solve in `state` (pieces left), or None before the stage
        the solver plays (the caller plays that part otherwise)."""
        ...

    def endgame_choice(
        self,
        solver: Any,
        state: State[Any],
        depth: int | None = None,
        deadline: float | None = None,
    ) -> SolvedChoice:
        """The move `solver` (from `endgame_solver`) picks in `state`: to the end of the game
        when `depth` is None, else `depth` plies by iterative deepening, stopping at
        `deadline` (a `time.perf_counter()` reading) with the deepest search that finished."""


@runtime_checkable
class FinalDigest(Protocol):
    """A game that digests its positions up to symmetry itself."""

    def final_digest(self, state: Any) -> str:
        """A short digest of `state` that every symmetric image of it shares (and, but for
        hash collisions, no other position)."""
        ...
