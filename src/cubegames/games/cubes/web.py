"""CUBES as SVG: the six dice of the last roll, what it did, the pot and the score pad.

Each die is `<g class="die" data-die="i">` holding a `<text class="face">`, so the page can
spin the faces while a roll is under way. A die shows `CUBES`, its number, or nothing
(a blank face); its colour is named under it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from cubegames.core.game import Game, Move
from cubegames.core.phrase import Param, Phrase, Seat
from cubegames.games.cubes.dice import BLANK, WORD
from cubegames.games.cubes.game import Cubes
from cubegames.games.cubes.outcome import Outcome, describe
from cubegames.games.cubes.outcome import described as described_roll
from cubegames.kit.svg import capitalised, document, esc, fmt, ink, seat_name, text

DIE = 64.0
GAP = 18.0

STYLE = (
    "svg.cg-cubes .die rect{stroke:#333;stroke-width:1.5}"
    "svg.cg-cubes .pad-head{font-weight:bold}"
    "svg.cg-cubes .to-move{fill:#fff3bf}"
    "svg.cg-cubes text{pointer-events:none}"
)


def face_label(face: str) -> str:
    """What a die shows: `CUBES`, a number, or nothing for a blank."""
    return "CUBES" if face == WORD else "" if face == BLANK else face


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """The last roll in words for the seat whose view this is (None before any roll)."""
    assert isinstance(game, Cubes)
    out = Outcome.from_view(view)
    return None if out is None else describe(out, game.edition, you=view.get("seat"))


def svg(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The last roll, the pot, every seat's points and the score pad."""
    assert isinstance(game, Cubes)
    ed = game.edition
    seat = view.get("seat")
    to_move = view["to_move"]
    past = view.get("past_sets", [])
    width = max(6 * (DIE + GAP) + 220, 660.0)
    head = f"CUBES · set {view['set']} of {game.sets}"
    body = [text(width / 2, 14, head, size=15, weight="bold")]

    out = Outcome.from_view(view)
    y = 40.0
    who = None if out is None else ("You" if out.seat == seat else f"Seat {out.seat}")
    caption = "No roll yet." if out is None else f"{who} rolled:"
    body.append(text(20, y, caption, size=13, anchor="start", weight="bold"))
    y += 14
    faces = out.faces if out is not None else ("?",) * len(ed.dice)
    for i, (die, face) in enumerate(zip(ed.dice, faces, strict=True)):
        x = 20 + i * (DIE + GAP)
        label = "?" if face == "?" else face_label(face)
        size = 15 if label == "CUBES" else 30
        body.append(
            f'<g class="die" data-die="{i}"><title>{esc(die.name)} die</title>'
            f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(DIE)}" height="{fmt(DIE)}" rx="10" '
            f'fill="{die.rgb}"/>'
            + text(
                x + DIE / 2,
                y + DIE / 2,
                label,
                size=size,
                fill=ink(die.rgb),
                weight="bold",
                cls="face",
            )
            + "</g>"
        )
        body.append(text(x + DIE / 2, y + DIE + 12, die.name, size=11, fill="#555"))

    # the pot, right of the dice
    px = 20 + 6 * (DIE + GAP) + 70
    body.append(
        f'<circle cx="{fmt(px)}" cy="{fmt(y + DIE / 2)}" r="44" fill="#fff8e1" stroke="#e0a800" '
        'stroke-width="3" stroke-dasharray="8 5"/>'
    )
    body.append(text(px, y + DIE / 2 - 12, "pot", size=12, fill="#7a5b00"))
    body.append(text(px, y + DIE / 2 + 10, view["pot"], size=26, weight="bold", cls="pot"))
    y += DIE + 40

    said = tell(game, view)
    if said is not None:
        for line in textwrap.wrap(said, 90):
            body.append(text(20, y, line, size=13, anchor="start"))
            y += 18
        if out is not None and out.bust is not None and past:
            scores = ", ".join(
                f"{seat_name(s, seat)} {v}" for s, v in enumerate(past[-1]["scores"])
            )
            body.append(
                text(
                    20,
                    y,
                    f"Set {len(past)} is over: {scores}.",
                    size=13,
                    anchor="start",
                    weight="bold",
                    fill="#8a6100",
                )
            )
            y += 18
    y += 14

    # the score pad
    columns = ["seat", "points", *(f"set {k}" for k in range(1, len(past) + 1)), "total"]
    xs = [20 + 90 * i for i in range(len(columns))]
    for x, name in zip(xs, columns, strict=True):
        body.append(text(x, y, name, size=12, anchor="start", cls="pad-head"))
    y += 20
    for s, chips in enumerate(view["chips"]):
        if s == to_move:
            body.append(
                f'<rect class="to-move" x="12" y="{fmt(y - 10)}" width="{fmt(xs[-1] + 60)}" '
                'height="20" rx="4"/>'
            )
        name = f"{'▶ ' if s == to_move else ''}{'you' if s == seat else f'seat {s}'}"
        cells = [name, str(chips), *(str(p["scores"][s]) for p in past), str(view["totals"][s])]
        for x, value in zip(xs, cells, strict=True):
            weight = "bold" if s == seat else "normal"
            body.append(text(x, y, value, size=12, anchor="start", weight=weight))
        y += 20
    if to_move is None:
        best = max(view["totals"])
        won = [s for s, t in enumerate(view["totals"]) if t == best]
        names = " and ".join(seat_name(s, seat) for s in won)
        body.append(
            text(
                20,
                y + 8,
                capitalised(f"game over: {names} won with {best}."),
                size=14,
                anchor="start",
                weight="bold",
                fill="#1b7a36",
            )
        )
        y += 24
    return document("cubes", (0, 0, width, y + 8), body, label=head, style=STYLE)


def info(game: Game[Any]) -> dict[str, Any]:
    """The dice (name, colour, faces) and the payments, for the page's rolling dice."""
    assert isinstance(game, Cubes)
    ed = game.edition
    return {
        "dice": [
            {
                "name": d.name,
                "rgb": d.rgb,
                "ink": ink(d.rgb),
                "faces": [face_label(f) for f in d.faces],
            }
            for d in ed.dice
        ],
        "referee": game.referee,
        "sets": game.sets,
        "hidden_hands": False,
    }


def words(game: Game[Any], move: str, mover: int, viewer: int | None) -> str:
    """A roll in words (what it did is told by `tell`, from the position after it)."""
    return str(described(game, move, mover, viewer))


def described(game: Game[Any], move: str, mover: int, viewer: int | None) -> Phrase:
    """`words` as a phrase (`words-cubes-rolled`, `words-cubes-rolled-faces`)."""
    parsed = str(game.parse_move(move))
    who = capitalised(seat_name(mover, viewer))
    if parsed == "roll":
        return Phrase("words-cubes-rolled", {"who": Seat(mover)}, f"{who} rolled.")
    faces = parsed[5:]
    params: dict[str, Param] = {"who": Seat(mover), "faces": faces}
    return Phrase("words-cubes-rolled-faces", params, f"{who} rolled {faces}.")


def told(game: Game[Any], view: Mapping[str, Any]) -> Phrase | None:
    """`tell` as a phrase (None before any roll)."""
    assert isinstance(game, Cubes)
    out = Outcome.from_view(view)
    return None if out is None else described_roll(out, game.edition, you=view.get("seat"))
