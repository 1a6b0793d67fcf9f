"""A game's facts, declared once at the top of its game module (as OpenSpiel declares its
`GameType`): what the start page, the simulator's report and the registry need to know about
a game without playing it.

>>> import cubegames
>>> from cubegames.core.registry import info
>>> facts = info("cubes")
>>> facts.title, facts.min_players, facts.max_players, facts.score_better
('CUBES', 2, 10, 'higher')
>>> info("cubed").score_better
'lower'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

if TYPE_CHECKING:
    from cubegames.core.summary import Summary

#: which way a number is better
Better = Literal["higher", "lower"]


@dataclass(frozen=True)
class Column:
    """One column (or family of columns) that a game's `Summary` adds to a simulation row.

    `name` is the column's name, with `<word>` standing for a part that varies
    (`left_<kind>_s<seat>`); `better` says which way is better for the seat or the
    designer, or None when neither is (a count, a seat number).
    """

    name: str
    meaning: str
    better: Better | None = None


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once at the top of its game module and set as its class's
    `info`. Every shared part (registry, catalog, command line, simulator report, page
    titles) reads a game's facts from here and nowhere else."""

    #: the game id: the entry point's name, `make`'s first argument, `"game"` in files
    id: str
    #: the game's name as players write it ("CUBED", "Unstackable")
    title: str
    #: one line saying what the game is, for the start page
    pitch: str
    min_players: int
    max_players: int
    #: the options model: one pydantic model whose fields are the options `make` takes,
    #: with their types, defaults and single-field limits; the start page's form is built
    #: from its JSON Schema (see `cubegames.core.options`)
    options: type[BaseModel]
    #: the rules in a few lines, shown beside the table
    rules: tuple[str, ...] = ()
    #: which way a seat's score is better (CUBED counts penalty points: "lower")
    score_better: Better = "higher"
    #: the columns the game's `summary` adds to each simulated game, and what they mean
    columns: tuple[Column, ...] = ()
    #: the game's own simulation columns (`cubegames.core.summary.Summary`), if any
    summary: type[Summary] | None = None
    #: the function adding the game's own sections to a simulation report, as
    #: "module:function" (it takes a `cubegames.kit.report.Section`); "" for none
    report: str = ""
    #: option sets worth exercising: the shared conformance test plays each of them
    example_options: tuple[Mapping[str, Any], ...] = ({},)
    #: whether the package holding the game module also holds the game's own parts
    #: (modules named `terminal`, `web`, `rl`, `vector`, `symmetry` beside it, found by
    #: `cubegames.kit.parts`); facts worked out from a bare class say False
    parts: bool = True
    #: whether a move can ever be taken back at the web app's tables; False for a game
    #: whose every move draws on chance (CUBES: every move is a roll), so that its page
    #: offers no take-back the server would only refuse (see `cubegames.server.takeback`)
    takebacks: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: min_players and max_players must make a range")
        if not self.example_options:
            raise ValueError(f"{self.id}: example_options needs at least one option set")
