"""Unstackable: build a 4×4×4 cube of coloured cubes, then take it apart for points.

Rules in `docs/rules/unstackable.md`. Stage 1 stacks the cubes on the bag a turn at a
time (black 3, red 2, yellow 1); stage 2 removes them two a turn, the first to pile 1 and
the second to pile 2, which score differently.

>>> import cubegames
>>> state = cubegames.make("unstackable").new_state()
>>> state.play("K@0,0,0")
>>> [str(m) for m in state.legal_moves()]
['K@0,-1,0', 'K@-1,0,0', 'K@1,0,0', 'K@0,1,0', 'K@0,0,1']
"""

from cubegames.games.unstackable.box import Box, BoxError, Colour, load_box, parse_box
from cubegames.games.unstackable.game import Unstackable
from cubegames.games.unstackable.notation import End, Stack, Unstack, UnstackableMove
from cubegames.games.unstackable.state import Stage, UnstackableState

GAME_CLASS = Unstackable

__all__ = [
    "EXAMPLE_OPTIONS",
    "GAME_CLASS",
    "Box",
    "BoxError",
    "Colour",
    "End",
    "Stack",
    "Stage",
    "Unstack",
    "Unstackable",
    "UnstackableMove",
    "UnstackableState",
    "load_box",
    "parse_box",
]

#: option sets worth exercising (the game's `info.example_options`)
EXAMPLE_OPTIONS: list[dict[str, object]] = [dict(o) for o in Unstackable.info.example_options]
