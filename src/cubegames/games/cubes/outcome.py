"""What a roll did, as data for position files and as words for people.

`Outcome` is the record a position keeps of its last roll (fields `"last_roll"` and
`"last"`); `describe` turns it into a sentence for any front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cubegames.core.phrase import Param, Phrase, Seat, Seats
from cubegames.games.cubes.dice import Row, number, tally
from cubegames.games.cubes.edition import Edition


@dataclass(frozen=True, slots=True)
class Outcome:
    """One roll: who rolled, the faces, the pot before it, each seat's gain (negative: paid),
    and the seat that could not pay in full (ending the set), if any."""

    seat: int
    faces: tuple[str, ...]
    pot: int
    changes: tuple[int, ...]
    bust: int | None

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Outcome | None:
        """The last roll as a position or view records it (`"last"`, `"last_roll"`), or
        None before the first roll."""
        last = view.get("last")
        if last is None:
            return None
        return cls(
            last["seat"],
            tuple(view["last_roll"].split()),
            last["pot"],
            tuple(last["changes"]),
            last["bust"],
        )


@dataclass(frozen=True, slots=True)
class SetResult:
    """A finished set: each seat's score, and the seat whose failure to pay ended it."""

    scores: tuple[int, ...]
    bust: int


def _who(seat: int, you: int | None) -> str:
    return "you" if seat == you else f"seat {seat}"


def _verb(seat: int, you: int | None, plain: str, third: str) -> str:
    return f"{_who(seat, you)} {plain if seat == you else third}"


def describe(out: Outcome, edition: Edition, you: int | None = None) -> str:
    """The roll in words; `you` names the seat reading it.

    >>> from cubegames.games.cubes.edition import load_edition
    >>> ed = load_edition("standard")
    >>> faces = ("C", "5", ".", "4", ".", ".")
    >>> describe(Outcome(0, faces, 20, (18, -5), None), ed, you=0)
    'CUBES and 1 or 2 numbers (5 + 4 = 9): each opponent pays 5, then you take 2×9 = 18.'
    >>> describe(Outcome(1, (".",) * 6, 3, (0, -1), 1), ed)
    'All blank: seat 1 owes 2 but has only 1, puts it in and scores 0 for the set.'
    """
    return str(described(out, edition, you))


def described(out: Outcome, edition: Edition, you: int | None = None) -> Phrase:
    """`describe` as a phrase (`words-cubes-*`), which a page words in its reader's
    language; seats are `Seat`s, so the reader's own is "you" whoever reads it."""
    t = tally(out.faces)
    row = t.row
    roller = out.seat
    numbers = [str(number(f)) for f in out.faces if number(f) is not None]
    title = row.title[0].upper() + row.title[1:]
    head = Phrase(f"words-cubes-row-{row.value}", {}, title)
    if len(numbers) > 1:
        total = f"{' + '.join(numbers)} = {t.total}"
        head = Phrase("words-cubes-head-sum", {"row": head, "sum": total}, f"{title} ({total})")
    parts: list[Phrase] = []
    pot = out.pot
    players = len(out.changes)
    if row in (Row.CUBES_FEW, Row.CUBES_MANY, Row.CUBES_ONLY):
        order = [(roller + k) % players for k in range(1, players)]
        if out.bust is not None and out.bust != roller:
            paid = order[: order.index(out.bust)]
            if paid:
                verb = "pays" if len(paid) == 1 and paid[0] != you else "pay"
                names = _names([_who(s, you) for s in paid])
                parts.append(
                    Phrase(
                        "words-cubes-paid",
                        {"who": Seats(tuple(paid)), "chips": edition.opponent_pays},
                        f"{names} {verb} {edition.opponent_pays}",
                    )
                )
            parts.append(_owes_broke(out.bust, you, edition.opponent_pays, -out.changes[out.bust]))
            return _joined(head, parts)
        parts.append(
            Phrase(
                "words-cubes-each-pays",
                {"chips": edition.opponent_pays},
                f"each opponent pays {edition.opponent_pays}",
            )
        )
        pot += edition.opponent_pays * (players - 1)
    change = out.changes[roller]
    if row in (Row.NUMBERS, Row.CUBES_FEW):
        claim = t.total if row is Row.NUMBERS else edition.multiplier * t.total
        named = str(claim) if row is Row.NUMBERS else f"{edition.multiplier}×{t.total} = {claim}"
        who = Seat(roller)
        if pot >= claim:
            text = f"{_verb(roller, you, 'take', 'takes')} {named}"
            parts.append(Phrase("words-cubes-takes", {"who": who, "claim": named}, text))
        else:
            short = claim - pot
            held = "the pot is empty" if pot == 0 else f"the pot holds only {pot}"
            text = f"{held}, so {_verb(roller, you, 'owe', 'owes')} {short}"
            params: dict[str, Param] = {"who": who, "pot": pot, "short": short}
            if out.bust == roller:
                params["left"] = -change
                text += _broke(roller, you, -change)
                parts.append(Phrase("words-cubes-short-broke", params, text))
            else:
                params["claim"] = claim
                text += f" to bring it to {claim}"
                parts.append(Phrase("words-cubes-short", params, text))
    elif row is Row.CUBES_MANY:
        text = f"{_verb(roller, you, 'take', 'takes')} the whole pot ({change})"
        parts.append(Phrase("words-cubes-whole-pot", {"who": Seat(roller), "chips": change}, text))
    elif row is Row.BLANK:
        if out.bust == roller:
            parts.append(_owes_broke(roller, you, edition.blank_pays, -change))
        else:
            text = f"{_verb(roller, you, 'pay', 'pays')} {edition.blank_pays}"
            parts.append(
                Phrase("words-cubes-pays", {"who": Seat(roller), "chips": edition.blank_pays}, text)
            )
    return _joined(head, parts)


def _owes_broke(seat: int, you: int | None, owed: int, left: int) -> Phrase:
    text = f"{_verb(seat, you, 'owe', 'owes')} {owed}{_broke(seat, you, left)}"
    return Phrase("words-cubes-owes-broke", {"who": Seat(seat), "owed": owed, "left": left}, text)


def _joined(head: Phrase, parts: list[Phrase]) -> Phrase:
    text = f"{head}: {', then '.join(str(p) for p in parts)}."
    if len(parts) == 1:
        return Phrase("words-cubes-roll-one", {"head": head, "first": parts[0]}, text)
    assert len(parts) == 2, "a roll is told in one or two parts"
    return Phrase("words-cubes-roll-two", {"head": head, "first": parts[0], "then": parts[1]}, text)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _broke(seat: int, you: int | None, left: int) -> str:
    if seat == you:
        return f" but have only {left}, put it in and score 0 for the set"
    return f" but has only {left}, puts it in and scores 0 for the set"
