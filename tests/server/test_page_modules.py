"""The page's ES modules, without a browser: each one parses, every module it imports is
shipped, it loads nothing from outside, and the page's patch code (static/protocol.js)
rebuilds exactly what the server's `diff` describes. Needs Node.js; skipped without it."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core.errors import UNREADABLE, IllegalMove, Refusal
from cubegames.core.registry import info as game_info
from cubegames.render import web
from cubegames.server.protocol import diff, error

STATIC = Path(__file__).resolve().parents[2] / "src" / "cubegames" / "server" / "static"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
OWN = sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.parts)


@needs_node
@pytest.mark.parametrize("module", OWN, ids=lambda p: str(p.relative_to(STATIC)))
def test_each_module_parses(module: Path) -> None:
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--check", "--input-type=module"],
        input=module.read_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_every_import_is_a_shipped_file_and_nothing_comes_from_outside() -> None:
    for module in [*OWN, *sorted((STATIC / "vendor").rglob("*.js"))]:
        text = re.sub(r"/\*.*?\*/", "", module.read_text(), flags=re.S)  # not comments
        for target in re.findall(r"""(?:from|import)\s*["']([^"']+)["']""", text):
            assert target.startswith("."), f"{module.name} imports {target!r}"
            assert (module.parent / target).resolve().is_file(), f"{module.name}: {target}"
        assert (
            not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text) or "vendor" in module.parts
        )


def _in_node(imports: str, answer: str, data: Any) -> Any:
    """The JSON value of the JavaScript expression `answer`, worked out by Node after
    `imports` (the page's own modules), with `data` (sent as JSON) as `input`."""
    assert NODE is not None
    script = (
        f"{imports}\n"
        "let text = ''; process.stdin.on('data', (d) => { text += d; });\n"
        "process.stdin.on('end', () => {\n"
        "  const input = JSON.parse(text);\n"
        f"  process.stdout.write(JSON.stringify({answer}));\n"
        "});\n"
    )
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(5)
    if kind == 1:
        return rng.choice(["a", "b", None, True])
    if kind == 2:
        return rng.choice(["x", "yy", 0])
    if kind in (3, 4):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("pqrs"): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate(rng: random.Random, value: Any) -> Any:
    if isinstance(value, list) and value and rng.random() < 0.7:
        out = list(value)
        i = rng.randrange(len(out))
        choice = rng.randrange(3)
        if choice == 0:
            del out[i]
        elif choice == 1:
            out.insert(i, random_value(rng, 2))
        else:
            out[i] = mutate(rng, out[i])
        return out
    if isinstance(value, dict) and value and rng.random() < 0.7:
        out = dict(value)
        key = rng.choice(list(out))
        out[key] = mutate(rng, out[key])
        if rng.random() < 0.3:
            out.pop(rng.choice(list(out)))
        return out
    return random_value(rng, 1)


@needs_node
def test_the_page_applies_the_servers_patches_exactly() -> None:
    assert NODE is not None
    rng = random.Random(12)
    cases = []
    for _ in range(300):
        old = random_value(rng)
        new = mutate(rng, old)
        cases.append({"old": old, "new": new, "ops": diff(old, new)})
    rebuilt = _in_node(
        f"import {{ applyPatch }} from {json.dumps((STATIC / 'protocol.js').as_uri())};",
        "input.map((c) => applyPatch(c.old, c.ops))",
        cases,
    )
    for case, got in zip(cases, rebuilt, strict=True):
        assert got == case["new"], case


# -- refusals in words -------------------------------------------------------------------


def _tries(state: Any) -> list[str]:
    """Moves to offer `state` (most of them refused): near and far cells, every colour,
    piece and rotation, and a few that cannot be read."""
    game_id = state.game.id
    seat = state.to_move
    view = state.view(seat)
    if game_id == "cubed":
        cells = {tuple(e["cell"]) for e in view["table"]} | {(0, 0), (6, 6)}
        cells |= {(q + dq, r + dr) for q, r in list(cells) for dq, dr in ((1, 0), (0, 1), (-1, 1))}
        hand = view["hands"][seat] or []
        pieces = [*hand[:4], "KKK", "WWW", "GPY", "GYP"]
        moves = [f"{p[k:] + p[:k]}@{q},{r}" for p in pieces for k in range(3) for q, r in cells]
        mine = hand[0] if hand else "GPY"
        return [*moves, "draw", "pass", "skip", "draw3:2", "draw3:3", f"keep:{mine}"]
    if game_id == "unstackable":
        span = range(-1, 5)
        stacks = [f"{c}@{x},{y},{z}" for c in "YRK" for x in span for y in span for z in span]
        return [*stacks, *(f"{x},{y},{z}" for x in span for y in span for z in span), "end"]
    if game_id == "stakd":
        tries = []
        for move in state.legal_moves()[:6]:
            for kind in ("BASE", "UNI", "DUO", "TRIO", "QUAD", "BOMBER"):
                for dz in (-1, 0, 1, 2):
                    for dx, dy in ((0, 0), (1, 0), (0, 3), (40, 0)):
                        nodes = "+".join(f"{x + dx},{y + dy}" for x, y in move.nodes)
                        tries.append(f"{kind}@{move.z + dz}:{nodes}")
        return tries
    return ["roll", "roll 1 2 3 4 5 6", "roll C C C C C C", "roll . . ."]


def _refusals(game_id: str) -> list[dict[str, Any]]:
    """The reasons the rules give for refused moves along seeded random games of every
    example option, as the server sends them (`message`, and `refusal`: code and
    parameters): each with `rules` (False: the move could not be read) and the game's
    `info` (its colour names)."""
    found: dict[str, dict[str, Any]] = {}
    for options in game_info(game_id).example_options:
        game = cubegames.make(game_id, **options)
        info = web.info(game)
        state = game.new_state(seed=5)
        rng = random.Random(6)
        for ply in range(400):
            if state.is_over:
                break
            if ply % 9 == 0:
                for text in [*_tries(state), "zz", "Q@0,0", "FOO@0:0,0"]:
                    try:
                        move = game.parse_move(text)
                    except IllegalMove as exc:
                        readable = exc.refusal.code != UNREADABLE
                        found.setdefault(
                            str(exc), {"rules": readable, "info": info, **_sent(exc.refusal)}
                        )
                        continue
                    reason = state.refusal(move)
                    if reason is not None:
                        found.setdefault(reason, {"rules": True, "info": info, **_sent(reason)})
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
    return [{"message": reason, **case} for reason, case in sorted(found.items())]


def _sent(reason: Refusal) -> dict[str, Any]:
    """A refusal as the server's error message carries it (`protocol.error`)."""
    return {"refusal": error(str(reason), "illegal", reason)["refusal"]}


@needs_node
@pytest.mark.parametrize("game_id", ["cubed", "unstackable", "stakd", "cubes"])
def test_every_refusal_of_the_rules_is_told_in_the_games_own_words(game_id: str) -> None:
    """Each reason the rules give (static/refusals.js) gets a sentence of its game: not the
    fallback, no notation, no cells. A move that cannot be read points to the notation."""
    assert NODE is not None
    cases = _refusals(game_id)
    assert sum(c["rules"] for c in cases) >= (2 if game_id == "cubes" else 10), cases
    out = _in_node(
        f"import * as r from {json.dumps((STATIC / 'refusals.js').as_uri())};"
        f"import * as g from {json.dumps((STATIC / 'games' / f'{game_id}.js').as_uri())};"
        f"import {{ t }} from {json.dumps((STATIC / 'i18n.js').as_uri())};",
        "{ said: input.map((c) => r.friendly("
        f"{json.dumps(game_id)}, {{ code: 'illegal', message: c.message, refusal: c.refusal }}, "
        "c.info, g.refusalParams)), "
        "fallback: t('refusal-not-allowed'), unknown: t('refusal-unknown-move') }",
        cases,
    )
    for case, said in zip(cases, out["said"], strict=True):
        reason = case["message"]
        assert said != out["fallback"], f"no words for the {game_id} refusal {reason!r}"
        if case["rules"]:
            assert said != out["unknown"], f"{reason!r} is a rule, not a misreading"
        assert not re.search(r"-?\d+,-?\d+|@|\w:\w|another colour", said), (reason, said)


# -- Unstackable's places in words -------------------------------------------------------

_PLACE = r"(?:the bottom layer|layer (?P<z>[1-3])) at (?P<col>[A-G])(?P<row>[1-7])$"


_CUBE = r"A (?P<name>\w+) cube(?P<may> you may take out)?: "


def _cell_of(
    title: str, pattern: str, frame: tuple[int, int] = (0, 0)
) -> tuple[re.Match[str], tuple[int, int, int]]:
    """The match of `pattern` + a place in words, and the grid cell the place names on the
    board fixed for the game (columns A-G, rows 1-7, the first cube on D4), the structure
    having shifted by `frame` since its first cube."""
    found = re.match(pattern + _PLACE, title)
    assert found, title
    x = "ABCDEFG".index(found["col"]) - 3 + frame[0]
    y = int(found["row"]) - 4 + frame[1]
    return found, (x, y, int(found["z"] or 0))


@needs_node
def test_unstackable_names_cubes_and_spots_in_words_not_coordinates() -> None:
    """What pointing at a cube or a free spot says (games/unstackable.js, the hover titles
    of the layers and of the 3-D table): the colour and the place in words, which read back
    to exactly that cube's cell (layer, column and row on the board fixed for the game, the
    new row or column before the structure included), whether you may take it out, and
    which colours may go on a spot; never a coordinate or a move's notation."""
    from cubegames.games.unstackable.web import frame_of

    assert NODE is not None
    game = cubegames.make("unstackable")
    palette = web.info(game)["palette"]
    positions: list[dict[str, Any]] = []
    for seed in (3, 4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        ply = 0
        played: list[str] = []
        while not state.is_over:
            if ply % 4 == 0:
                seat = state.to_move
                assert seat is not None
                moves = [str(m) for m in state.legal_moves()]
                spots: dict[str, list[str]] = {}
                for m in moves:
                    if "@" in m:
                        colour, where = m.split("@")
                        spots.setdefault(where, []).append(colour)
                positions.append(
                    {
                        "frame": list(frame_of(played)),
                        "view": state.view(seat),
                        "removable": [m for m in moves if "@" not in m and "," in m],
                        "spots": [
                            {"cell": [int(v) for v in k.split(",")], "colours": v}
                            for k, v in spots.items()
                        ],
                    }
                )
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            state.play(move)
            played.append(str(move))
            ply += 1
    out = _in_node(
        f"import * as u from {json.dumps((STATIC / 'games' / 'unstackable.js').as_uri())};",
        "{ example: u.cubeTitle(input.palette, { x: 0, y: 2, z: 2, c: 'R' }), "
        "positions: input.positions.map((p) => ({"
        " cubes: u.cubesOf(p.view).map((c) => ({ cell: [c.x, c.y, c.z], letter: c.c,"
        "   title: u.cubeTitle(input.palette, c, p.removable.includes(`${c.x},${c.y},${c.z}`),"
        "     p.frame) })),"
        " spots: p.spots.map((s) => ({ cell: s.cell, colours: s.colours,"
        "   title: u.spotTitle(input.palette, s.cell, new Set(s.colours), p.frame) })) })) }",
        {"palette": palette, "positions": positions},
    )
    assert out["example"] == "A red cube: layer 2 at D6"
    taken = before = 0
    for position, got in zip(positions, out["positions"], strict=True):
        titles = [c["title"] for c in got["cubes"]] + [s["title"] for s in got["spots"]]
        for title in titles:
            assert not re.search(r"-?\d+\s*,\s*-?\d+|@", title), title
        grid = position["view"]["grid"]
        assert len(got["cubes"]) == len(grid) - grid.count(".")
        for cube in got["cubes"]:
            x, y, z = cube["cell"]
            assert grid[x + 4 * y + 16 * z] == cube["letter"]
            found, named = _cell_of(cube["title"], _CUBE, position["frame"])
            assert named == (x, y, z), cube
            assert found["name"] == palette[cube["letter"]]["name"], cube
            may = f"{x},{y},{z}" in position["removable"]
            assert bool(found["may"]) == may, cube
            taken += may
        for spot in got["spots"]:
            found, named = _cell_of(
                spot["title"], r"A (?P<names>[\w, ]+?) cube may go here: ", position["frame"]
            )
            assert list(named) == spot["cell"], spot
            names = re.split(r", | or ", found["names"])
            assert sorted(names) == sorted(palette[c]["name"] for c in spot["colours"]), spot
            before += min(named[:2]) < 0
    assert taken and before, (taken, before)  # both stages, and spots before the structure


#: cells of the grid, the structure's shift since its first cube, and how a player names
#: them; the server's log (games/unstackable/web.py `place_words`,
#: tests/server/test_render.py) says the same
_SAME_WORDS = {
    (0, 0, 0, 0, 0): "the bottom layer at D4",
    (0, 2, 2, 0, 0): "layer 2 at D6",
    (1, 0, 2, 1, 0): "layer 2 at D4",
    (2, 1, 3, 2, 1): "layer 3 at D4",
    (3, 3, 0, 0, 0): "the bottom layer at G7",
    (0, 0, 1, 3, 3): "layer 1 at A1",
    (-1, 2, 0, 1, 0): "the bottom layer at B6",
}


@needs_node
def test_unstackable_log_and_hovers_name_a_cell_alike() -> None:
    """The log's words for a move (the server's) and a hover's words (the page's) name each
    cell the same way on the board fixed for the game, so a player can find in the drawing
    the cube the log tells of, however far the structure has shifted."""
    from cubegames.games.unstackable.web import place_words

    cells = sorted(_SAME_WORDS)
    page = _in_node(
        f"import * as u from {json.dumps((STATIC / 'games' / 'unstackable.js').as_uri())};",
        "input.map(([x, y, z, sx, sy]) => u.placeWords(x, y, z, [sx, sy]))",
        cells,
    )
    assert page == [_SAME_WORDS[c] for c in cells]
    assert [place_words(x, y, z, (sx, sy)) for x, y, z, sx, sy in cells] == page
    game = cubegames.make("unstackable")
    # the moves that shifted the structure by (1, 0): one cube stacked before it
    for (x, y, z, sx, sy), said in _SAME_WORDS.items():
        if (sx, sy) == (1, 0):
            earlier = ["R@0,0,0", "K@-1,0,0"]
            assert web.words(game, f"R@{x},{y},{z}", 0, None, earlier).endswith(f" on {said}.")
            out = web.words(game, f"{x},{y},{z}", 0, None, earlier)
            assert out.endswith(f" out of {said}.")


@needs_node
def test_unstackable_cubes_keep_their_names_when_the_structure_shifts() -> None:
    """A cube stacked in the new column left of the structure shifts it by one; the page's
    words for every cube stay what they were (issue #23: two cubes were named alike, and a
    cube's name changed as the structure grew)."""
    from cubegames.games.unstackable.web import frame_of

    game = cubegames.make("unstackable")
    state = game.new_state(seed=1)
    played = ["K@0,0,0", "K@0,1,0", "K@0,2,0", "K@0,3,0"]  # a row 4 deep, 1 wide
    for move in played:
        state.play(game.parse_move(move))
    before = state.view(0)
    state.play(game.parse_move("K@-1,3,0"))
    after = state.view(0)
    out = _in_node(
        f"import * as u from {json.dumps((STATIC / 'games' / 'unstackable.js').as_uri())};",
        "input.views.map(([view, frame]) => u.cubesOf(view)"
        ".map((c) => u.cubeTitle(input.palette, c, false, frame)).sort())",
        {
            "views": [[before, frame_of(played)], [after, frame_of([*played, "K@-1,3,0"])]],
            "palette": web.info(game)["palette"],
        },
    )
    named = [f"A black cube: the bottom layer at D{row}" for row in (4, 5, 6, 7)]
    assert out[0] == named
    assert out[1] == sorted([*named, "A black cube: the bottom layer at C7"])


# -- CUBED's colour rule on the page -------------------------------------------------------


def test_cubed_info_names_the_editions_blocking_and_wild_letters() -> None:
    en = web.info(cubegames.make("cubed"))
    assert (en["black"], en["wild"], en["strict_colors"]) == ("K", "W", True)
    ja = web.info(cubegames.make("cubed", edition="ja", strict_colors=False))
    assert (ja["black"], ja["wild"], ja["strict_colors"]) == ("K", None, False)


@needs_node
def test_the_pages_colour_rule_reads_the_editions_letters() -> None:
    """games/cubed.js `misfit`: black, wild and the strict rule come from the game's info,
    so an edition whose blocking colour is X and wild colour Z is checked with X and Z (and
    K, W are ordinary colours there)."""
    palette = {c: {"name": f"colour {c}"} for c in "GKWXZ"}
    odd = {"palette": palette, "black": "X", "wild": "Z", "strict_colors": True}
    en = {**web.info(cubegames.make("cubed")), "palette": palette}
    cases = [
        # (info, table, my letters top/left/right, cell): the origin's right slot meets my
        # left slot when I am at 1,0
        (odd, {"0,0": "GGX"}, "GGG", [1, 0]),  # its black side X touches
        (odd, {"0,0": "GGZ"}, "GGG", [1, 0]),  # wild Z against green: fits
        (odd, {"0,0": "GGK"}, "GKG", [1, 0]),  # K is an ordinary colour here: K meets K
        (odd, {"0,0": "GGK"}, "GGG", [1, 0]),  # ... and K against G is a mismatch
        (en, {"0,0": "GGK"}, "GGG", [1, 0]),  # in the English box K is the black side
        (en, {"0,0": "GGW"}, "GGG", [1, 0]),  # and W is wild
        ({**odd, "strict_colors": False}, {"0,0": "GGK"}, "GGG", [1, 0]),  # loose rule
    ]
    said = _in_node(
        f"import {{ misfit }} from {json.dumps((STATIC / 'games' / 'cubed.js').as_uri())};",
        "input.map(([info, table, mine, [q, r]]) => "
        "misfit(new Map(Object.entries(table)), mine, q, r, info))",
        cases,
    )
    black = "The piece beside it has a black side here: nothing may touch it."
    assert said == [
        black,
        None,
        None,
        "This side is colour G, the piece beside it is colour K.",
        black,
        None,
        None,
    ]


@needs_node
def test_a_refusal_is_worded_by_its_code_and_parameters_not_its_english() -> None:
    """The page's table is keyed by code: the engine's sentence is not read at all."""
    info = web.info(cubegames.make("cubed"))
    cases = [
        ("cubed", {"code": "mismatch", "params": {"slot": "left", "mine": "G", "theirs": "Y"}}),
        ("unstackable", {"code": "turn-colour", "params": {"colour": "red", "left": 1}}),
        ("unstackable", {"code": "turn-colour", "params": {"colour": "red", "left": 2}}),
        ("stakd", {"code": "none-left", "params": {"piece": "TRIO"}}),
        ("cubed", {"code": "unreadable", "params": {}}),
        ("cubed", {"code": "turn", "params": {"to_move": 1, "seat": 0}}),
        ("cubed", {"code": "no-such-code", "params": {}}),
    ]
    out = _in_node(
        f"import * as r from {json.dumps((STATIC / 'refusals.js').as_uri())};"
        + "".join(
            f"import * as {g} from {json.dumps((STATIC / 'games' / f'{g}.js').as_uri())};"
            for g in ("cubed", "unstackable", "stakd")
        )
        + "const pages = { cubed, unstackable, stakd };",
        "input.map(([game, refusal]) => r.friendly(game, "
        "{ code: 'illegal', message: 'words nobody reads', refusal }, "
        f"{json.dumps(info)}, pages[game].refusalParams))",
        cases,
    )
    assert out[:4] == [
        "The colours do not match: the left of your piece is green, the piece beside it is yellow.",
        "This turn is red: stack 1 more red cube.",
        "This turn is red: stack 2 more red cubes.",
        "You have no TRIO left.",
    ]
    assert out[4].startswith("That is not a move this game knows")
    assert out[5] == "It is not your turn yet."
    assert out[6] == "The rules do not allow that move here."


@needs_node
def test_each_games_page_module_says_its_sounds_and_tutorial_help() -> None:
    """What play.js and tutorial.js ask a game's page module (static/games/<id>.js): the
    sound a move makes (`soundOf`), whether the tutorial guides on the layers
    (`tutorialOnLayers`), CUBED's hint for a piece turned otherwise (`tutorialHint`); the
    generic table (a plug-in game) has none of them, so a move there is silent."""
    moves = {
        "cubed": ["GKY@0,0", "draw", "pass"],
        "unstackable": ["K@1,2,0", "3,2,1", "end"],
        "stakd": ["TRIO@0:1+2+3"],
        "cubes": ["roll", "stop"],
        "generic": ["take 2"],
    }
    out = _in_node(
        "".join(
            f"import * as {g} from {json.dumps((STATIC / 'games' / f'{g}.js').as_uri())};"
            for g in moves
        )
        + "const pages = { cubed, unstackable, stakd, cubes, generic };",
        "{ sounds: Object.fromEntries(Object.entries(input).map(([g, ms]) => [g, "
        "ms.map((m) => (pages[g].soundOf ? pages[g].soundOf(m) : 'none'))])), "
        "layers: Object.keys(input).filter((g) => pages[g].tutorialOnLayers), "
        "hints: Object.keys(input).filter((g) => pages[g].tutorialHint), "
        "turned: ['GYK@1,0', 'KGY@1,0', 'YKG@1,0', 'GYK@2,0', 'draw']"
        ".map((m) => cubed.tutorialHint(m, 'YKG@1,0')) }",
        moves,
    )
    assert out["sounds"] == {
        "cubed": ["laid", None, None],
        "unstackable": ["laid", "removed", None],
        "stakd": ["laid"],
        "cubes": ["rolled", None],
        "generic": ["none"],
    }
    assert out["layers"] == ["unstackable", "stakd"]
    assert out["hints"] == ["cubed"]
    once, twice, right, elsewhere, draw = out["turned"]
    assert once.startswith("Right place! Press Turn once")
    assert twice.startswith("Right place! Press Turn twice")
    assert right is None and elsewhere is None and draw is None


@needs_node
def test_every_refusal_code_the_server_raises_has_a_sentence_on_the_page() -> None:
    """The codes of the server's own refusals (`Refused(..., "code")` in server/*.py: not
    your turn, late, paused, the take-back and claim rules...) each have a sentence from
    the catalogs (`refusal-CODE`, tests/server/test_i18n.py checks both languages have
    it), instead of the page's "could not take that"."""
    server = STATIC.parent
    codes = sorted(
        {
            code
            for path in server.glob("*.py")
            for code in re.findall(
                r'Refused\((?:[^()]|\([^()]*\))*?,\s*"([a-z-]+)"\s*,?\s*\)', path.read_text("utf-8")
            )
        }
    )
    assert {"turn", "late", "paused", "undo-chance", "claim-early"} <= set(codes)
    out = _in_node(
        f"import * as r from {json.dumps((STATIC / 'refusals.js').as_uri())};",
        "input.map((code) => [code, r.friendly('cubed', { code, message: 'unread' })])",
        codes,
    )
    taken = "The server could not take that. If it happens again, reload the page."
    assert [code for code, said in out if said == taken] == []


@needs_node
def test_a_connection_closed_for_good_is_told_in_the_catalogs_words() -> None:
    """The page words why the server closed its connection (a game that is not there, a
    credential that opens nothing, a seat reissued, no `auth`, a damaged game) from its
    catalogs, by the codes: never the server's English `message`, which is for programs
    (a Japanese page showed it as it was)."""
    assert NODE is not None
    english = "this credential does not open any seat of this game"
    cases = [
        [4404, {"type": "error", "code": "closed", "message": "there is no game 'x'"}],
        [4403, {"type": "error", "code": "closed", "message": english}],
        [4403, {"type": "error", "code": "reissued", "message": "the host reissued it"}],
        [4401, {"type": "error", "code": "closed", "message": "no auth message"}],
        [4500, None],
        [4999, None],
    ]
    out = _in_node(
        f"import {{ closedWords }} from {json.dumps((STATIC / 'refusals.js').as_uri())};"
        f"import {{ t }} from {json.dumps((STATIC / 'i18n.js').as_uri())};",
        "{ said: input.map(([code, last]) => closedWords(code, last)), "
        "reissued: t('refusal-reissued') }",
        cases,
    )
    said = out["said"]
    assert len(set(said)) == len(cases)
    for (_code, last), words in zip(cases, said, strict=True):
        assert words and not words.startswith("closed-"), words  # a key the catalogs lack
        assert last is None or words != last["message"]
    assert said[2] == out["reissued"] and "4999" in said[5]


@needs_node
def test_a_rematch_invites_a_person_the_bot_played_for_and_keeps_the_bots() -> None:
    """A rematch (static/seats.js `rematchSeats`, from the hello's seats): a bot stays a
    bot, a seat played here stays here, another person is invited again, and so is a
    person whose seat the bot played on (it was made a greedy bot under their name)."""
    assert NODE is not None
    seats = [
        {"seat": 0, "kind": "human", "bot": None, "name": "Ana", "zombie_from": None},
        {"seat": 1, "kind": "bot", "bot": "greedy", "name": "Bo", "zombie_from": 7},
        {"seat": 2, "kind": "bot", "bot": "mcts", "name": None, "zombie_from": None},
        {"seat": 3, "kind": "human", "bot": None, "name": "Cy", "zombie_from": None},
    ]
    out = _in_node(
        f"import {{ rematchSeats }} from {json.dumps((STATIC / 'seats.js').as_uri())};",
        "rematchSeats(input, new Set([0]))",
        seats,
    )
    assert out == [
        {"kind": "human", "name": "Ana", "invite": False},
        {"kind": "human", "name": "Bo", "invite": True},
        {"kind": "bot", "bot": "mcts", "name": None},
        {"kind": "human", "name": "Cy", "invite": True},
    ]


@needs_node
def test_a_seat_the_bot_plays_on_is_not_your_turn_on_the_start_page() -> None:
    """The start page's "your turn" list (clocks.yourTurnFirst, through seats.seatsToPlay)
    leaves out a seat this browser held that the bot now plays for it: the bot's turn there
    was listed as the player's."""
    assert NODE is not None
    game = {
        "seats": [
            {"seat": 0, "kind": "bot", "bot": "greedy", "zombie_from": 5},
            {"seat": 1, "kind": "human", "bot": None, "zombie_from": None},
            {"seat": 2, "kind": "human", "bot": None, "zombie_from": None},
        ]
    }
    out = _in_node(
        f"import {{ seatsToPlay }} from {json.dumps((STATIC / 'seats.js').as_uri())};",
        "[seatsToPlay(input, [0, 1]), seatsToPlay(input, [2]), seatsToPlay({}, [0])]",
        game,
    )
    assert out == [[1], [2], [0]]


@needs_node
def test_at_one_screen_the_device_is_not_passed_to_a_seat_the_bot_plays_on() -> None:
    """Three seats at one screen, seat 0's player resigned (the bot plays it on): when
    seat 0 is to move the page keeps showing the seat it showed (it asked to pass the
    device to seat 0, behind which the bot played); a person's seat to move is shown."""
    assert NODE is not None
    seats = [
        {"seat": 0, "kind": "bot", "bot": "greedy", "zombie_from": 4},
        {"seat": 1, "kind": "human", "bot": None, "zombie_from": None},
        {"seat": 2, "kind": "human", "bot": None, "zombie_from": None},
    ]
    out = _in_node(
        f"import {{ seatToShow }} from {json.dumps((STATIC / 'seats.js').as_uri())};",
        "[seatToShow([0, 1, 2], 0, 2, input), seatToShow([0, 1, 2], 1, 2, input), "
        "seatToShow([1, 2], 0, null, input), seatToShow([0, 1], 0, 1, null)]",
        seats,
    )
    assert out == [2, 1, 1, 0]
