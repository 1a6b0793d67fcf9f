"""A game's tutorial: a fixed deal, a few guided moves, then a free game against a bot.

A tutorial is data that travels inside its game's package, `tutorial.json` beside the
game's module (`cubegames/games/cubed/tutorial.json`; a plug-in game ships its own the
same way). It names the options and the seed of the deal, the moves played before the
learner sits down (`setup`), and the guided `steps`: each is one move of one seat, in
order, with the sentence a player reads (a catalog key of the page's `locales/*.ftl`,
`tutorial-...`, or for a plug-in game, whose words the catalogs do not hold, its own
English `text`). The learner plays their steps; the other seats' steps are played for
them, then those seats are handed to the `opponent` bot and the game goes on freely.

`check` replays every step through the game's rules from the deal of `seed` in the
tutorial's chance version (`chance`, by default the current one, `core.chance`: naming it
keeps a deal chosen for its pieces when a later version deals otherwise), so a change of the
rules (or of the deal) that breaks a tutorial fails the tests instead of a newcomer's first
game.

>>> from cubegames.core.registry import make
>>> tutorial = load(make("cubes"))
>>> tutorial is not None and tutorial.steps[0].move
'roll'
>>> check(tutorial).is_over
False
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from cubegames.core import chance
from cubegames.core.game import Game, State
from cubegames.core.registry import make

#: the file a game's package holds its tutorial in
FILE = "tutorial.json"
#: the largest seed a tutorial may name (the deals a person may pick, as on the server)
MAX_SEED = 2**63 - 1

Key = Annotated[str, StringConstraints(pattern=r"^tutorial-[a-z0-9]+(-[a-z0-9]+)*$")]
Words = Annotated[str, StringConstraints(min_length=1, max_length=300)]
Move = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class Step(BaseModel):
    """One guided move: `seat` plays `move`; the page lights it and says `say` (or
    `text`) before it is played. `rule` names the rule the step meets (free words for
    the script's readers and the tests, never shown)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    seat: int = Field(ge=0, le=63)
    move: Move
    say: Key | None = None
    text: Words | None = None
    rule: str | None = Field(default=None, max_length=40)

    @model_validator(mode="after")
    def _worded(self) -> Step:
        if self.say is None and self.text is None:
            raise ValueError("a step needs its words: 'say' (a catalog key) or 'text'")
        return self


class Tutorial(BaseModel):
    """A game's tutorial (see the module's docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    game: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, le=MAX_SEED)
    #: the chance version the seed is dealt in (`core.chance.new_state`)
    chance: int = Field(default=chance.CURRENT, ge=chance.VERSIONS[0], le=chance.VERSIONS[-1])
    #: the seat the learner plays
    learner: int = Field(default=0, ge=0, le=63)
    #: moves played before the tutorial begins (reaching a hand-picked position)
    setup: list[Move] = Field(default_factory=list, max_length=400)
    #: the first words, before the first step
    intro: Key | None = None
    intro_text: Words | None = None
    steps: list[Step] = Field(min_length=1, max_length=60)
    #: the words when the guided moves are over and the free game begins
    free: Key | None = None
    free_text: Words | None = None
    #: the bot that takes the other seats for the free game
    opponent: str = Field(default="random", max_length=60)

    @model_validator(mode="after")
    def _worded(self) -> Tutorial:
        if self.intro is None and self.intro_text is None:
            raise ValueError("a tutorial needs its first words: 'intro' or 'intro_text'")
        if self.free is None and self.free_text is None:
            raise ValueError("a tutorial needs its last words: 'free' or 'free_text'")
        return self

    def catalog_keys(self) -> list[str]:
        """Every catalog key the tutorial's words use, in order."""
        keys = [self.intro, *(s.say for s in self.steps), self.free]
        return [k for k in keys if k is not None]


def parse(text: str, where: str = FILE) -> Tutorial:
    """A tutorial from its JSON text; ValueError naming the file and the bad field."""
    try:
        return Tutorial.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "the file"
        raise ValueError(f"{where}: {field}: {first['msg']}") from None


def load(game: Game[Any]) -> Tutorial | None:
    """The tutorial in the package of `game`'s class, or None if it has none. ValueError
    if its file is not a valid tutorial of this game."""
    package = type(game).__module__.rpartition(".")[0] or type(game).__module__
    try:
        text = resources.files(package).joinpath(FILE).read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return None
    where = f"{package}/{FILE}"
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc})") from None
    tutorial = parse(text, where)
    if tutorial.game != game.id:
        raise ValueError(f"{where}: game: {tutorial.game!r} is not {game.id!r}")
    return tutorial


def deal(game: Game[Any], tutorial: Tutorial) -> State[Any]:
    """The tutorial's deal: its seed in its chance version."""
    return chance.new_state(game, tutorial.seed, tutorial.chance)


def start(tutorial: Tutorial) -> tuple[Game[Any], State[Any]]:
    """The game and the position the learner sits down to: the deal, and the setup moves
    played. ValueError naming the setup move the rules refuse."""
    game = make(tutorial.game, **tutorial.options)
    if tutorial.learner >= game.players:
        raise ValueError(
            f"learner: seat {tutorial.learner} is not a seat of a {game.players}-seat game"
        )
    state = deal(game, tutorial)
    for i, move in enumerate(tutorial.setup):
        try:
            state.play(move)
        except ValueError as exc:
            raise ValueError(f"setup.{i} ({move}): {exc}") from None
    return game, state


def check(tutorial: Tutorial) -> State[Any]:
    """Replay the tutorial through the rules: every setup move and step legal, each step
    played by the seat to move, the learner playing at least one, and the game not over at
    the end (the free game follows). Returns the position the free game starts from;
    ValueError naming the first step that fails."""
    _, state = start(tutorial)
    if not any(s.seat == tutorial.learner for s in tutorial.steps):
        raise ValueError("steps: the learner plays none of them")
    for i, step in enumerate(tutorial.steps):
        written = {str(m) for m in state.legal_moves()}
        if state.to_move != step.seat:
            raise ValueError(
                f"steps.{i} ({step.move}): seat {step.seat} plays it, "
                f"but seat {state.to_move} is to move"
            )
        try:
            state.play(step.move)
        except ValueError as exc:
            raise ValueError(f"steps.{i} ({step.move}): {exc}") from None
        if step.move not in written:
            # the page matches the learner's move to the step's as the server writes it
            raise ValueError(
                f"steps.{i} ({step.move}): write it as the game does, one of its legal moves"
            )
    if state.is_over:
        raise ValueError("steps: the game is over after them, leaving no free game")
    return state


__all__ = ["FILE", "Step", "Tutorial", "check", "load", "parse", "start"]
