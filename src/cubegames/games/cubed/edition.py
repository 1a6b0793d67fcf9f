"""Edition data files: the pieces, colours, hand sizes and points of one edition.

Each edition is a TOML file in `editions/`; a designer may also pass the path of a file of
their own to `make("cubed", edition="my.toml")`. A file is validated once when loaded, and
a bad one fails with a message that names the field.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from cubegames.core.data import need, read_data_file
from cubegames.games.cubed.pieces import Piece, PieceKind, classify


class EditionError(ValueError):
    """A CUBED edition file that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Colour:
    """One colour of an edition: its letter, name and screen colour."""

    letter: str
    name: str
    rgb: str


@dataclass(frozen=True)
class Edition:
    """Everything about one edition that the rules need, validated.

    Colour indexes: ordinary colours 0..n-1 in file order, then the wild colour (if the
    edition has one), then the blocking colour.
    """

    id: str
    name: str
    solo: bool
    colours: tuple[Colour, ...]
    ordinary: int
    wild: int | None
    black: int
    points: dict[PieceKind, int]
    hand_size: dict[int, int]
    pieces: tuple[Piece, ...]
    index: dict[str, int] = field(repr=False)
    kind_counts: dict[PieceKind, int] = field(repr=False)

    @cached_property
    def letters(self) -> str:
        """All colour letters, by index."""
        return "".join(c.letter for c in self.colours)

    def kind(self, piece: Piece) -> PieceKind:
        """The kind of a piece already known to be well formed."""
        found = classify(piece, self.ordinary, self.wild, self.black)
        assert found is not None, piece
        return found

    def piece_points(self, piece: Piece) -> int:
        """Points for `piece` left in hand."""
        return self.points[self.kind(piece)]

    def letter(self, colour: int) -> str:
        """The letter of one colour index."""
        return self.colours[colour].letter

    def text(self, piece: Piece) -> str:
        """Letters of a piece, in the order given."""
        letters = self.letters
        return letters[piece[0]] + letters[piece[1]] + letters[piece[2]]

    @cached_property
    def _read(self) -> dict[str, Piece]:
        """Texts already read into pieces (positions repeat the same few dozen)."""
        return {}

    def read_piece(self, text: str, where: str) -> Piece:
        """A piece from three colour letters; ValueError naming `where` if it is not one."""
        known = self._read.get(text) if isinstance(text, str) else None
        if known is not None:
            return known
        if len(text) != 3 or any(ch not in self.index for ch in text):
            raise ValueError(
                f"{where}: {text!r} is not a piece of the {self.id} edition "
                f"(three letters from {self.letters})"
            )
        piece: Piece = (self.index[text[0]], self.index[text[1]], self.index[text[2]])
        if classify(piece, self.ordinary, self.wild, self.black) is None:
            raise ValueError(f"{where}: {text!r} is no kind of CUBED piece")
        self._read[text] = piece
        return piece

    def max_players(self) -> int:
        return max(self.hand_size)


def _need(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    return need(data, key, kind, where, EditionError)


def _colour_table(data: dict[str, Any], key: str, where: str, *, one: bool) -> list[Colour]:
    table = _need(data, key, dict, where)
    out = []
    for letter, spec in table.items():
        here = f"{where}: {key}.{letter}"
        if len(letter) != 1 or not letter.isupper():
            raise EditionError(f"{here}: a colour is named by one capital letter")
        if not isinstance(spec, dict):
            raise EditionError(f"{here}: must be a table with name and rgb")
        name = _need(spec, "name", str, here)
        rgb = _need(spec, "rgb", str, here)
        if len(rgb) != 7 or rgb[0] != "#":
            raise EditionError(f"{here}: rgb must look like #12ab3f")
        out.append(Colour(letter, name, rgb))
    if one and len(out) != 1:
        raise EditionError(f"{where}: {key} must name exactly one colour")
    return out


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file; `where` names it in error messages."""
    ident = _need(data, "id", str, where)
    name = _need(data, "name", str, where)
    solo = data.get("solo", False)
    if not isinstance(solo, bool):
        raise EditionError(f"{where}: field 'solo' must be true or false")
    ordinary = _colour_table(data, "colours", where, one=False)
    if len(ordinary) < 3:
        raise EditionError(f"{where}: colours: an edition needs at least 3 ordinary colours")
    wild = _colour_table(data, "wild_colour", where, one=True) if "wild_colour" in data else []
    black = _colour_table(data, "blocking_colour", where, one=True)
    colours = (*ordinary, *wild, *black)
    letters = [c.letter for c in colours]
    if len(set(letters)) != len(letters):
        raise EditionError(f"{where}: colours: a letter is used twice")
    index = {c.letter: i for i, c in enumerate(colours)}
    n = len(ordinary)
    wild_index = n if wild else None
    black_index = len(colours) - 1

    points_data = _need(data, "points", dict, where)
    points: dict[PieceKind, int] = {}
    for kind in PieceKind:
        if kind is PieceKind.WILD and not wild:
            if kind.value in points_data:
                raise EditionError(f"{where}: points.wild given but the edition has no wild")
            continue
        value = _need(points_data, kind.value, int, f"{where}: points")
        if value < 0:
            raise EditionError(f"{where}: points.{kind.value} must not be negative")
        points[kind] = value

    sizes_data = _need(data, "hand_size", dict, where)
    hand_size: dict[int, int] = {}
    for key, value in sizes_data.items():
        if not key.isdigit() or int(key) < 1:
            raise EditionError(f"{where}: hand_size.{key}: keys are numbers of players")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EditionError(f"{where}: hand_size.{key} must be a positive whole number")
        hand_size[int(key)] = value
    if 2 not in hand_size:
        raise EditionError(f"{where}: hand_size must at least give the 2-player deal")
    if solo and 1 not in hand_size:
        raise EditionError(f"{where}: hand_size.1 is needed for solo play")

    pieces_data = _need(data, "pieces", dict, where)
    pieces: list[Piece] = []
    kind_counts: Counter[PieceKind] = Counter()
    for kind_name, listed in pieces_data.items():
        here = f"{where}: pieces.{kind_name}"
        try:
            kind = PieceKind(kind_name)
        except ValueError:
            raise EditionError(f"{here}: unknown kind of piece") from None
        if not isinstance(listed, list):
            raise EditionError(f"{here}: must be a list of pieces")
        for i, text in enumerate(listed):
            spot = f"{here}[{i}]"
            if not isinstance(text, str) or len(text) != 3:
                raise EditionError(f"{spot}: a piece is three colour letters")
            unknown = [ch for ch in text if ch not in index]
            if unknown:
                raise EditionError(f"{spot}: {text!r} uses unknown colour {unknown[0]!r}")
            piece: Piece = (index[text[0]], index[text[1]], index[text[2]])
            actual = classify(piece, n, wild_index, black_index)
            if actual is None:
                raise EditionError(f"{spot}: {text!r} is no kind of CUBED piece")
            if actual is not kind:
                raise EditionError(f"{spot}: {text!r} is a {actual.value}, not a {kind.value}")
            pieces.append(piece)
            kind_counts[kind] += 1
    total = len(pieces)
    for players, size in sorted(hand_size.items()):
        if players * size + (1 if players == 1 else 0) > total:
            raise EditionError(
                f"{where}: hand_size.{players}: {players} hands of {size} need more than "
                f"the {total} pieces in the box"
            )
    if not any(classify(p, n, wild_index, black_index) is not PieceKind.BLOCKING for p in pieces):
        raise EditionError(f"{where}: pieces: the box needs pieces other than blocking ones")
    return Edition(
        id=ident,
        name=name,
        solo=solo,
        colours=colours,
        ordinary=n,
        wild=wild_index,
        black=black_index,
        points=points,
        hand_size=hand_size,
        pieces=tuple(pieces),
        index=index,
        kind_counts=dict(kind_counts),
    )


BUILT_IN = ("en", "ja")


@cache
def load_edition(name: str) -> Edition:
    """A built-in edition by id (`en`, `ja`), or an edition file by path (`*.toml`)."""
    data, where = read_data_file("cubegames.games.cubed", name, BUILT_IN, EditionError)
    return parse_edition(data, where)
