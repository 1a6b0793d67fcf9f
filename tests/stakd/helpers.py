"""Hand-built STAKD positions for rule tests.

Bases used throughout (x to the right, y up), each 3 nodes wide and 2 tall:

    y 3  B2 B2 B2 B3 B3 B3      B0, B2 belong to seat 0, B1, B3 to seat 1;
    y 2  B2 B2 B2 B3 B3 B3      TWO_BASES is the bottom row only,
    y 1  B0 B0 B0 B1 B1 B1      FOUR_BASES all four
    y 0  B0 B0 B0 B1 B1 B1
         x0 x1 x2 x3 x4 x5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import cubegames
from cubegames.games.stakd import StakdState
from cubegames.games.stakd.notation import parse

Laid = tuple[int, str]

B0 = "BASE@0:0,0+1,0+2,0+0,1+1,1+2,1"
B1 = "BASE@0:3,0+4,0+5,0+3,1+4,1+5,1"
B2 = "BASE@0:0,2+1,2+2,2+0,3+1,3+2,3"
B3 = "BASE@0:3,2+4,2+5,2+3,3+4,3+5,3"
TWO_BASES: list[Laid] = [(0, B0), (1, B1)]
FOUR_BASES: list[Laid] = [(0, B0), (1, B1), (0, B2), (1, B3)]

#: six pieces on layer 1 over FOUR_BASES, laid in this order (so layer 2 may start)
SIX_ON_LAYER_1: list[Laid] = [
    (0, "TRIO@1:0,0+1,0+2,0"),
    (1, "TRIO@1:3,0+4,0+5,0"),
    (0, "DUO@1:0,1+1,1"),
    (1, "DUO@1:3,1+4,1"),
    (0, "UNI@1:2,1"),
    (1, "QUAD@1:0,2+1,2+0,3+1,3"),
]

ALL = ("BASE", "UNI", "DUO", "TRIO", "QUAD", "BOMBER")


def piece_entry(owner: int, text: str) -> dict[str, Any]:
    """A `pieces` entry of a position file from a seat and a move's notation."""
    move = parse(text)
    return {
        "type": move.piece.value,
        "owner": owner,
        "z": move.z,
        "nodes": [list(n) for n in move.nodes],
    }


def position_data(
    laid: Sequence[Laid] = (),
    *,
    players: int = 2,
    hands: Sequence[Mapping[str, int] | None] | None = None,
    to_move: int | None = 0,
    out: Sequence[int] = (),
    round_winners: Sequence[int] = (),
    **options: Any,
) -> dict[str, Any]:
    """A position file. Each hand defaults to the box minus what the seat laid, with no
    bases left; a mapping in `hands` replaces the counts it names (others drop to 0)."""
    game = cubegames.make("stakd", players=players, **options)
    pieces = [piece_entry(owner, text) for owner, text in laid]
    full: list[dict[str, int]] = []
    for seat in range(players):
        if hands is not None and hands[seat] is not None:
            given = hands[seat]
            assert given is not None
            full.append({t: given.get(t, 0) for t in ALL})
            continue
        box = {t.value: n for t, n in game.edition.counts[players].items()}
        for p in pieces:
            if p["owner"] == seat:
                box[p["type"]] -= 1
        box["BASE"] = 0
        full.append(box)
    points = [list(round_winners).count(s) for s in range(players)]
    over = to_move is None and players > 1
    return {
        "game": "stakd",
        "options": game.options,
        "round": len(round_winners) + (0 if over else 1),
        "points": points,
        "round_winners": list(round_winners),
        "layer": max((p["z"] for p in pieces), default=0),
        "to_move": to_move,
        "out": sorted(out),
        "hands": full,
        "pieces": pieces,
    }


def position(laid: Sequence[Laid] = (), **kwargs: Any) -> StakdState:
    """A position built by `position_data` and read back through `state_from_dict`."""
    data = position_data(laid, **kwargs)
    game = cubegames.make("stakd", **data["options"])
    state = game.state_from_dict(data)
    assert isinstance(state, StakdState)
    return state


def refusal(state: StakdState, text: str) -> str | None:
    """Why the seat to move may not play `text`, or None."""
    return state.refusal(parse(text))


def moves(state: StakdState) -> list[str]:
    """The legal moves as text."""
    return [str(m) for m in state.legal_moves()]
