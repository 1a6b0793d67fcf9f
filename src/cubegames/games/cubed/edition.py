"""Edition data files: the pieces, colours, hand sizes and points of one edition.

Each edition is a TOML file in `editions/`; a designer may also pass the path of a file of
their own to `make("cubed", edition="my.toml")`. A file is validated once when loaded, by
one pydantic model (`EditionFile`) and the rules across its fields, and a bad one fails
with a message that names the field.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, StrictBool

from cubegames.core.data import Positive, Rgb, Text, Whole, read_data_file, validated
from cubegames.core.errors import shown
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
                f"{where}: {shown(text)} is not a piece of the {self.id} edition "
                f"(three letters from {self.letters})"
            )
        piece: Piece = (self.index[text[0]], self.index[text[1]], self.index[text[2]])
        if classify(piece, self.ordinary, self.wild, self.black) is None:
            raise ValueError(f"{where}: {shown(text)} is no kind of CUBED piece")
        self._read[text] = piece
        return piece

    def max_players(self) -> int:
        return max(self.hand_size)


def _letter(key: str) -> str:
    if len(key) != 1 or not key.isupper():
        raise ValueError("a colour is named by one capital letter")
    return key


def _table(value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError("must be a table with name and rgb")
    return value


def _one(table: dict[str, Any]) -> dict[str, Any]:
    if len(table) != 1:
        raise ValueError("must name exactly one colour")
    return table


def _three(table: dict[str, Any]) -> dict[str, Any]:
    if len(table) < 3:
        raise ValueError("an edition needs at least 3 ordinary colours")
    return table


def _seats(key: str) -> int:
    if not key.isdigit() or int(key) < 1:
        raise ValueError("keys are numbers of players")
    return int(key)


def _two_players(sizes: dict[int, int]) -> dict[int, int]:
    if 2 not in sizes:
        raise ValueError("must at least give the 2-player deal")
    return sizes


def _kind(key: str) -> PieceKind:
    try:
        return PieceKind(key)
    except ValueError:
        raise ValueError("unknown kind of piece") from None


def _piece_text(text: Any) -> Any:
    if not isinstance(text, str) or len(text) != 3:
        raise ValueError("a piece is three colour letters")
    return text


class ColourFile(BaseModel):
    """One colour: its name and screen colour."""

    name: Text
    rgb: Rgb


Colours = dict[
    Annotated[str, AfterValidator(_letter)], Annotated[ColourFile, BeforeValidator(_table)]
]


class PointsFile(BaseModel):
    """`[points]`: what a piece left in hand scores, by kind."""

    single: Whole
    double: Whole
    triple: Whole
    blocking: Whole
    wild: Whole | None = None


class EditionFile(BaseModel):
    """A CUBED edition file (`editions/en.toml`): the model that checks each field; the
    checks across fields (pieces against colours, hands against the box) are
    `parse_edition`'s."""

    id: Text
    name: Text
    solo: StrictBool = False
    colours: Annotated[Colours, AfterValidator(_three)]
    wild_colour: Annotated[Colours, AfterValidator(_one)] | None = None
    blocking_colour: Annotated[Colours, AfterValidator(_one)]
    points: PointsFile
    hand_size: Annotated[
        dict[Annotated[int, BeforeValidator(_seats)], Positive],
        AfterValidator(_two_players),
    ]
    pieces: dict[
        Annotated[PieceKind, BeforeValidator(_kind)],
        list[Annotated[str, BeforeValidator(_piece_text)]],
    ]


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file with `EditionFile`, then the rules across its
    fields; `where` names it in error messages, which name the field."""
    read = validated(EditionFile, data, where, EditionError)

    def listed(table: Colours | None) -> list[Colour]:
        return [Colour(letter, c.name, c.rgb) for letter, c in (table or {}).items()]

    ordinary, wild, black = (
        listed(read.colours),
        listed(read.wild_colour),
        listed(read.blocking_colour),
    )
    colours = (*ordinary, *wild, *black)
    letters = [c.letter for c in colours]
    if len(set(letters)) != len(letters):
        raise EditionError(f"{where}: colours: a letter is used twice")
    index = {c.letter: i for i, c in enumerate(colours)}
    n = len(ordinary)
    wild_index = n if wild else None
    black_index = len(colours) - 1

    points: dict[PieceKind, int] = {}
    for kind in PieceKind:
        value = getattr(read.points, kind.value)
        if kind is PieceKind.WILD and not wild:
            if value is not None:
                raise EditionError(f"{where}: points.wild given but the edition has no wild")
            continue
        if value is None:
            raise EditionError(f"{where}: points: missing field {kind.value!r}")
        points[kind] = value

    hand_size = dict(read.hand_size)
    if read.solo and 1 not in hand_size:
        raise EditionError(f"{where}: hand_size.1 is needed for solo play")

    pieces: list[Piece] = []
    kind_counts: Counter[PieceKind] = Counter()
    for kind, texts in read.pieces.items():
        for i, text in enumerate(texts):
            spot = f"{where}: pieces.{kind.value}[{i}]"
            unknown = [ch for ch in text if ch not in index]
            if unknown:
                raise EditionError(f"{spot}: {shown(text)} uses unknown colour {shown(unknown[0])}")
            piece: Piece = (index[text[0]], index[text[1]], index[text[2]])
            actual = classify(piece, n, wild_index, black_index)
            if actual is None:
                raise EditionError(f"{spot}: {shown(text)} is no kind of CUBED piece")
            if actual is not kind:
                raise EditionError(f"{spot}: {shown(text)} is a {actual.value}, not a {kind.value}")
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
        id=read.id,
        name=read.name,
        solo=read.solo,
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
