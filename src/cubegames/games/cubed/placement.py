"""The placement rules exactly as the spec states them, with the reason for a refusal.

This module reads the table directly and knows nothing of the incremental frontier in
`frontier.py`. It is what `play()` consults to explain a refusal, and, through
`plain_placements`, the deliberately plain reference generator that the fast one is
tested against move for move.

Slots: a placed piece shows diamonds top (edges 1, 2), left (edges 3, 4) and right
(edges 5, 0), so the diamond behind edge `d` is `SLOT[d] = ((d - 1) % 6) // 2`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum

from cubegames.core.errors import Refusal
from cubegames.core.hexgrid import ORIGIN, STEP, label, unpack
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.pieces import Piece, canonical, mirror, rotations

SLOT: tuple[int, ...] = tuple(((d - 1) % 6) // 2 for d in range(6))
SLOT_NAMES = ("top", "left", "right")
#: the two edges behind each slot
SLOT_EDGES: tuple[tuple[int, int], ...] = ((1, 2), (3, 4), (5, 0))


class Contact(Enum):
    """What happens where two diamonds meet."""

    MATCH = "match"
    MISMATCH = "mismatch"
    BLACK = "black"


def contact(
    mine: int, theirs: int, mine_blocking: bool, theirs_blocking: bool, ed: Edition
) -> Contact:
    """Judge my diamond `mine` against a neighbour's diamond `theirs`.

    Black may touch nothing. Equal colours match. White matches any colour, but only
    between two pieces that are not blocking pieces.
    """
    if mine == ed.black or theirs == ed.black:
        return Contact.BLACK
    if mine == theirs:
        return Contact.MATCH
    if mine_blocking or theirs_blocking:
        return Contact.MISMATCH
    if ed.wild is not None and ed.wild in (mine, theirs):
        return Contact.MATCH
    return Contact.MISMATCH


def hand_refusal(hand: Iterable[Piece], placed: Piece, ed: Edition) -> Refusal | None:
    """Why the placed colours are no rotation of a piece in `hand`, or None."""
    keys = {canonical(p) for p in hand}
    if canonical(placed) in keys:
        return None
    text = ed.text(placed)
    flipped = canonical(mirror(placed))
    if flipped in keys:
        held = ed.text(flipped)
        return Refusal(
            "flipped",
            f"a piece cannot be flipped: {text} is the mirror image of {held} in your hand",
            piece=text,
            held=held,
        )
    return Refusal(
        "not-in-hand", f"no piece in your hand shows {text} in some rotation", piece=text
    )


#: what `placement_refusal(..., why=False)` gives for any refused placement
REFUSED = Refusal("refused", "this placement breaks the table rules")


def placement_refusal(
    table: Mapping[int, Piece],
    placed: Piece,
    cell: int,
    *,
    strict: bool,
    ed: Edition,
    why: bool = True,
) -> Refusal | None:
    """Why laying `placed` (top, left, right) on `cell` breaks the table rules, or None.

    The hand is not consulted here: see `hand_refusal`. With `why=False` a refused
    placement gives `REFUSED` and no reason is put into words (the plain search asks this
    of every piece in every rotation on every cell, and only needs yes or no).
    """
    if cell in table:
        return (
            REFUSED
            if not why
            else Refusal(
                "occupied", f"cell {label(cell)} is already taken", cell=list(unpack(cell))
            )
        )
    blocking = ed.black in placed
    n = len(table)
    if blocking and n < 3:
        return (
            REFUSED
            if not why
            else Refusal(
                "blocking-early",
                f"a blocking piece may be played only once 3 pieces are on the table (now {n})",
                on_table=n,
            )
        )
    if n == 0:
        if cell == ORIGIN:
            return None
        return (
            REFUSED
            if not why
            else Refusal("first-at-origin", "the first piece goes on 0,0", cell=list(unpack(cell)))
        )

    contacts: list[tuple[int, int, int, int, Contact]] = []  # edge, neighbour, mine, theirs
    for d in range(6):
        other = cell + STEP[d]
        piece = table.get(other)
        if piece is None:
            continue
        mine = placed[SLOT[d]]
        theirs = piece[SLOT[(d + 3) % 6]]
        judged = contact(mine, theirs, blocking, ed.black in piece, ed)
        contacts.append((d, other, mine, theirs, judged))
    for _, other, _, theirs, judged in contacts:
        if judged is Contact.BLACK and theirs == ed.black:
            return (
                REFUSED
                if not why
                else Refusal(
                    "dead-cell",
                    f"cell {label(cell)} is dead: it touches a black side at {label(other)}",
                    cell=list(unpack(cell)),
                    black_at=list(unpack(other)),
                )
            )
    for _, other, _, _, judged in contacts:
        if judged is Contact.BLACK:
            return (
                REFUSED
                if not why
                else Refusal(
                    "black-contact",
                    f"contact with a black side at {label(other)}",
                    cell=list(unpack(cell)),
                    black_at=list(unpack(other)),
                )
            )

    touches = len(contacts)
    if n == 1 and touches == 0:
        return (
            REFUSED
            if not why
            else Refusal(
                "no-touch-first",
                f"cell {label(cell)} does not touch the piece on the table",
                cell=list(unpack(cell)),
            )
        )
    if n >= 2 and touches < 2:
        said = "no piece" if touches == 0 else "only 1 piece"
        return (
            REFUSED
            if not why
            else Refusal(
                "too-few-touches",
                f"cell {label(cell)} touches {said}; from the third piece on, a piece must touch 2",
                cell=list(unpack(cell)),
                touches=touches,
            )
        )

    if blocking:
        # Black touches nothing and a piece touches two, so both contacts are the coloured
        # diamond's two edges: it only remains to match them exactly.
        for _, other, mine, theirs, _ in contacts:
            if mine != theirs:
                return (
                    REFUSED
                    if not why
                    else Refusal(
                        "blocking-mismatch",
                        f"a blocking piece's colour must match exactly: its {ed.letter(mine)} "
                        f"meets {ed.letter(theirs)} at {label(other)}",
                        mine=ed.letter(mine),
                        theirs=ed.letter(theirs),
                        at=list(unpack(other)),
                    )
                )
        return None

    matches = sum(1 for c in contacts if c[4] is Contact.MATCH)
    if strict or n == 1:
        if matches < touches:
            d, other, mine, theirs, _ = next(c for c in contacts if c[4] is not Contact.MATCH)
            return (
                REFUSED
                if not why
                else Refusal(
                    "mismatch",
                    f"only {matches} of {touches} contacts match: your {SLOT_NAMES[SLOT[d]]} "
                    f"{ed.letter(mine)} meets {ed.letter(theirs)} at {label(other)}",
                    slot=SLOT_NAMES[SLOT[d]],
                    mine=ed.letter(mine),
                    theirs=ed.letter(theirs),
                    at=list(unpack(other)),
                    matches=matches,
                    touches=touches,
                )
            )
    elif matches < 2:
        return (
            REFUSED
            if not why
            else Refusal(
                "too-few-matches",
                f"only {matches} of {touches} contacts match; at least 2 must",
                matches=matches,
                touches=touches,
            )
        )
    return None


def candidate_cells(table: Mapping[int, Piece]) -> set[int]:
    """Every empty cell next to the table (or the origin, on an empty table)."""
    if not table:
        return {ORIGIN}
    return {cell + step for cell in table for step in STEP} - set(table)


def plain_placements(
    table: Mapping[int, Piece], hand: Iterable[Piece], *, strict: bool, ed: Edition
) -> list[tuple[Piece, int]]:
    """Every legal placement, found the slow and obvious way: try everything.

    The reference the fast generator in `frontier.py` must agree with.
    """
    out = []
    seen: set[Piece] = set()
    cells = candidate_cells(table)
    for piece in hand:
        key = canonical(piece)
        if key in seen:
            continue
        seen.add(key)
        for rot in rotations(key):
            for cell in cells:
                if placement_refusal(table, rot, cell, strict=strict, ed=ed, why=False) is None:
                    out.append((rot, cell))
    return out
