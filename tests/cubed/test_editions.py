"""Edition data files: the two editions' boxes, and bad files refused naming the field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import cubegames
from cubegames.core.phrase import Worded
from cubegames.games.cubed import EditionError, load_edition
from cubegames.games.cubed.pieces import PieceKind, canonical, mirror
from cubegames.kit.words import say

EN = load_edition("en")
JA = load_edition("ja")


def test_english_box() -> None:
    counts = Counter(EN.kind(p) for p in EN.pieces)
    assert counts == {
        PieceKind.SINGLE: 20,
        PieceKind.DOUBLE: 24,
        PieceKind.TRIPLE: 6,
        PieceKind.BLOCKING: 6,
        PieceKind.WILD: 6,
    }
    assert len({canonical(p) for p in EN.pieces}) == 62  # every piece differs
    assert EN.letters == "GPLNYBWK"
    for piece in EN.pieces:
        kind = EN.kind(piece)
        if kind is PieceKind.SINGLE:  # ascending colour order, counter-clockwise
            assert list(piece) == sorted(piece)
        if kind is PieceKind.DOUBLE:
            c, _, d = piece
            assert d not in (c, (c + 3) % 6)
        if kind is PieceKind.WILD:
            assert piece == (piece[0], (piece[0] + 1) % 6, EN.wild)
    assert EN.points == {
        PieceKind.SINGLE: 1,
        PieceKind.DOUBLE: 2,
        PieceKind.TRIPLE: 3,
        PieceKind.BLOCKING: 5,
        PieceKind.WILD: 10,
    }


def test_japanese_box() -> None:
    counts = Counter(JA.kind(p) for p in JA.pieces)
    assert counts == {
        PieceKind.SINGLE: 40,
        PieceKind.DOUBLE: 30,
        PieceKind.TRIPLE: 6,
        PieceKind.BLOCKING: 12,
    }
    assert JA.wild is None
    assert JA.letters == "ACOLEHK"
    singles = {canonical(p) for p in JA.pieces if JA.kind(p) is PieceKind.SINGLE}
    assert all(canonical(mirror(p)) in singles for p in singles)  # both mirror orders
    blocking = Counter(canonical(p) for p in JA.pieces if JA.kind(p) is PieceKind.BLOCKING)
    assert set(blocking.values()) == {2}


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return str(path)


GOOD = (Path(cubegames.__file__).parent / "games/cubed/editions/en.toml").read_text()


def test_a_designer_can_load_a_changed_copy(tmp_path: Path) -> None:
    changed = GOOD.replace("wild = 10", "wild = 4")
    game = cubegames.make("cubed", edition=write(tmp_path, changed))
    assert game.edition.points[PieceKind.WILD] == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("wild = 10", ""), "points: missing field 'wild'"),
        (('G = { name = "green"', 'G = { nom = "green"'), "colours.G: missing field 'name'"),
        (('"GGP",', '"GGG",'), r"pieces.double\[0\]: 'GGG' is a triple, not a double"),
        (('"GGP",', '"GXP",'), r"pieces.double\[0\]: 'GXP' uses unknown colour 'X'"),
        (("2 = 25", "2 = 40"), "hand_size.2: 2 hands of 40 need more than the 62 pieces"),
        (("[pieces]", "[pieces]\nquintuple = []"), "pieces.quintuple: unknown kind of piece"),
        (("id = ", "id = 3 #"), "mine.toml: id: must be text"),
        (("solo = true", "solo = 1"), "solo: must be true or false"),
        (("G = {", "g = {"), "colours.g: a colour is named by one capital letter"),
        (("K = {", "K = 5 #"), "blocking_colour.K: must be a table with name and rgb"),
        (("2 = 25", "2 = 0"), "hand_size.2: must be at least 1"),
        (("2 = 25", "two = 25"), "hand_size.two: keys are numbers of players"),
        (('"GGP",', '"GG",'), r"pieces.double\[0\]: a piece is three colour letters"),
        (('W = { name = "white"', 'K = { name = "white"'), "colours: a letter is used twice"),
        (("[colours]", "[colours"), "not valid TOML"),
    ],
)
def test_bad_edition_files_name_the_field(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    old, new = change
    assert old in GOOD
    with pytest.raises(EditionError, match=message):
        load_edition(write(tmp_path, GOOD.replace(old, new, 1)))


def test_unknown_editions_and_files(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="unknown edition 'fr'"):
        load_edition("fr")
    binary = tmp_path / "box.toml"
    binary.write_bytes(b"\x80\xff")  # was the codec's complaint, naming no file
    with pytest.raises(EditionError, match=r"box\.toml: not a text file"):
        load_edition(str(binary))
    with pytest.raises(EditionError, match=r"cannot read edition file /nope\.toml"):
        load_edition("/nope.toml")
    # it was read whole: a name for an endless file (a link to /dev/zero) filled the memory
    endless = tmp_path / "endless.toml"
    endless.write_text("#" * 1_000_001)
    with pytest.raises(EditionError, match=r"endless\.toml: too large to read \(more than") as big:
        load_edition(str(endless))
    # worded by code as its neighbours are, so that `--lang ja` tells it in Japanese
    assert isinstance(big.value, Worded) and big.value.phrase.key == "error-edition-too-large"
    assert say("ja", big.value.phrase.key, **big.value.phrase.params).endswith("バイトまで）")
    with pytest.raises(ValueError, match="the ja edition plays 1 to 11 players, not 12"):
        cubegames.make("cubed", edition="ja", players=12)
    with pytest.raises(ValueError, match="the en edition plays 1 to 6 players, not 7"):
        cubegames.make("cubed", players=7)
