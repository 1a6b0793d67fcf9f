"""CUBES moves and their notation.

There is one move, `roll`: the dice decide the rest. A roll's outcome is written as the
six faces showing, in die order (`C` the word CUBES, `.` a blank, numbers as digits), for
example `roll 1 C . 6 . 3`; the position keeps it in `"last_roll"`. (The rules' own
example, `1 C . 4 . 3`, has the right form but is no roll of the standard dice: die 4
shows 1 or 6.)

The same text also reads as a move: a *forced* roll, whose outcome is given rather than
drawn. Only a refereed game (option `referee=true`) plays it: that is how a referee records
dice thrown at a real table, and how tests and analysis set up an exact outcome. There it
is legal when every face is a face of its die, and the position's generator still advances,
so later rolls are the same as after a drawn roll. An ordinary game rolls its own dice and
refuses it, so nobody can choose their dice against a bot. Either way `legal_moves()` lists
only the plain `roll`; in a refereed game it stands for "a roll, whose faces the referee may
type".
"""

from __future__ import annotations

from dataclasses import dataclass

from cubegames.core.errors import IllegalMove, Refusal, typed
from cubegames.core.game import Move
from cubegames.games.cubes.dice import WORD, is_face
from cubegames.games.cubes.edition import DICE


class CubesMove(Move):
    """Any CUBES move."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Roll(CubesMove):
    """Roll the six dice; `faces`, if given, force the outcome.

    >>> str(Roll())
    'roll'
    >>> str(Roll(("1", "C", ".", "6", ".", "3")))
    'roll 1 C . 6 . 3'
    """

    faces: tuple[str, ...] | None = None

    def __str__(self) -> str:
        if self.faces is None:
            return "roll"
        return "roll " + " ".join(self.faces)


FORMS = "roll, or roll with six faces such as roll 1 C . 6 . 3"


def parse(text: str) -> CubesMove:
    """Read a move.

    >>> parse("ROLL")
    Roll(faces=None)
    >>> parse("roll 1 c . 6 . 3")
    Roll(faces=('1', 'C', '.', '6', '.', '3'))
    >>> parse("roll 1 C x 4 . 3")
    Traceback (most recent call last):
    ...
    cubegames.core.errors.IllegalMove: 'x' is not a face: write C, . or a number
    """
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text: {FORMS}")
    words = text.split()
    if not words or words[0].lower() != "roll":
        raise IllegalMove(f"cannot read {typed(text)}: the move is {FORMS}")
    if len(words) == 1:
        return Roll()
    faces = tuple(WORD if w.lower() == WORD.lower() else w for w in words[1:])
    if len(faces) != DICE:
        raise IllegalMove(
            Refusal(
                "face-count",
                f"a forced roll names {DICE} faces, one per die, not {len(faces)}",
                dice=DICE,
                given=len(faces),
            )
        )
    for face in faces:
        if not is_face(face):
            raise IllegalMove(f"{typed(face)} is not a face: write {WORD}, . or a number")
    return Roll(faces)
