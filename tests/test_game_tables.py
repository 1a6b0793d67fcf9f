"""One game, one package (issue #22): no shared layer keeps a table of the built-in games,
and what the shared layers ask of a game comes from its own parts, or from their fallback,
for a plug-in game as for the four (`tests/plugin_game/`, Nim)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pandas as pd
import pytest

import cubegames
from cubegames.kit import lab
from cubegames.openspiel.rules import own_rules
from cubegames.rl.session import Session, encoding_settings
from cubegames.sim.analysis import settings
from cubegames.sim.job import make_job
from cubegames.sim.metrics import Evaluator, coverage
from cubegames.sim.simulate import simulate

SRC = Path(cubegames.__file__).resolve().parent
BUILT_IN = ("cubed", "unstackable", "stakd", "cubes")
PAGE = SRC / "server" / "static"

#: what may name a built-in game outside its package, and why it must
MUST_STAY = {
    # the registry lists the built-in four first in `GAMES` (api.md: "the built-in four
    # first, then every other game alphabetically")
    ("core/registry.py", "cubed"): "GAMES lists the built-in games first",
    ("core/registry.py", "unstackable"): "GAMES lists the built-in games first",
    ("core/registry.py", "stakd"): "GAMES lists the built-in games first",
    ("core/registry.py", "cubes"): "GAMES lists the built-in games first",
    # the project's trained baselines are recipes of its own training runs, not game facts
    ("rl/baselines.py", "cubed"): "a trained baseline's recipe names its game",
    ("rl/baselines.py", "unstackable"): "a trained baseline's recipe names its game",
    # the page's own list of the built-in games' page modules (`tableFor`): plain ES modules
    # with no build step are imported by their paths; every other script asks `tableFor`
    **{("server/static/play.js", g): "the page imports its games' modules" for g in BUILT_IN},
}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module (documentation and doctests may name
    the games: they show what the code does, they are not tables)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def python_names(path: Path) -> set[str]:
    """The built-in game ids a module writes as a string (outside docstrings), and the
    built-in games' modules it imports."""
    tree = ast.parse(path.read_text("utf-8"))
    docs = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docs and node.value in BUILT_IN:
            found.add(str(node.value))
        modules = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        for module in modules:
            if re.fullmatch(rf"cubegames\.games\.({'|'.join(BUILT_IN)})(\..*)?", module):
                found.add(module)
    return found


#: a game id written in JavaScript as a string, as an object's key or a method's name, or
#: a built-in game's page module imported by its path
_IDS = "|".join(BUILT_IN)
JS_NAME = re.compile(
    rf"""["'`]({_IDS})["'`]|^\s*({_IDS})\s*(?::|\([^)]*\)\s*\{{)|["'`][./]*games/({_IDS})\.js["'`]""",
    re.M,
)


def page_names(path: Path) -> set[str]:
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text("utf-8"), flags=re.S)
    return {a or b or c for a, b, c in JS_NAME.findall(text)}


def shared_names() -> set[tuple[str, str]]:
    """(file, what it names) for every shared module and page script: Python of src/
    outside games/, the page's scripts outside games/ (each game's drawing) and vendor/."""
    found = set()
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] != "games" and "migrations" not in rel.parts:
            found |= {(rel.as_posix(), name) for name in python_names(path)}
    for path in PAGE.rglob("*.js"):
        rel = path.relative_to(PAGE)
        if rel.parts[0] not in ("games", "vendor"):
            found |= {(path.relative_to(SRC).as_posix(), n) for n in page_names(path)}
    return found


def test_no_shared_layer_names_a_built_in_game() -> None:
    found = shared_names()
    allowed = set(MUST_STAY)
    assert sorted(found - allowed) == [], "a per-game table belongs in games/<id>/ (a part)"
    assert sorted(allowed - found) == [], "gone from the code: delete it from the list"


def test_the_scan_sees_a_table_and_skips_the_docs(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Doc: `make("cubed")`."""\n'
        "from cubegames.games.stakd.board import Board\n"
        'SCALES = {"cubes": 1.0}\n'
        'def f(game):\n    """Only for "unstackable"."""\n    return game.id == "cubed"\n'
    )
    assert python_names(module) == {"cubes", "cubed", "cubegames.games.stakd.board"}
    page = tmp_path / "p.js"
    page.write_text(
        '// "stakd"\nconst SOUNDS = {\n  cubed: 1,\n};\nif (g === "cubes") f();\n'
        "const LIGHTS = {\n  unstackable(move, state) {\n    return [];\n  },\n};\n"
        "const MODULES = { stakd };\n"
        'import * as cubes from "./games/cubes.js";\nimport * as g from "./games/generic.js";\n'
    )
    assert page_names(page) == {"cubed", "cubes", "unstackable"}
    page.write_text('import * as stakd from "./games/stakd.js";\n')
    assert page_names(page) == {"stakd"}


# -- a plug-in game gets the lab's features: Nim's own lab part, and the fallback ------------


def test_nim_counts_its_moves_by_its_own_lab_part() -> None:
    game = cubegames.make("nim", max_take=2)
    assert lab.kinds(game) == ("take_1", "take_2")
    job = make_job("nim", ["greedy", "random"], seed=3)
    df = pd.DataFrame(simulate(job, 6).rows)
    kinds = [c for c in df.columns if c.startswith("kind_")]
    assert {c.rsplit("_s", 1)[0] for c in kinds} == {"kind_take_1", "kind_take_2", "kind_take_3"}
    assert (df[kinds].sum(axis=1) == df["moves"]).all()
    (setting,) = settings(df)
    table = next(t for t in setting.tables if t.title == "Moves played by kind")
    assert table.columns[2:] == ["takes of 1", "takes of 2", "takes of 3"]
    # the design metrics, from the fallback's evaluation (the scores) and no coverage
    assert df["m_decision"].notna().all() and df["m_coverage"].isna().all()


def test_a_game_without_a_lab_part_gets_the_fallback() -> None:
    game = cubegames.make("nim", stones=4)
    state = game.new_state()
    state.play("take 3")
    state.play("take 1")  # seat 1 takes the last stone
    assert Evaluator(game).standing(state) == [0.0, 1.0] == state.scores()
    assert Evaluator(game).scale == 1.0 and coverage(game, state) is None
    assert lab.distinctive("nim", {}) == {}
    # a game with no part at all: no kinds, its notation's first word, "<kind> moves"
    assert lab.kind_name("no_such_game", "take") == "take moves"


def test_a_lower_score_is_turned_into_a_lower_standing_by_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cubegames.make("cubed", rounds=1)
    state = game.new_state(seed=1)
    monkeypatch.setattr(lab, "_meets", lambda game_id, protocol: None)  # as if no lab part
    assert lab.standing(game, state) == [-s for s in state.scores()]
    assert lab.kinds(game) == () and lab.scale(game) == 1.0


def test_the_built_in_games_say_their_own_lab_facts() -> None:
    assert [lab.scale(cubegames.make(g)) for g in BUILT_IN] == [5.0, 5.0, 0.5, 10.0]
    assert lab.distinctive("cubed", {"variants": ["void", "draw3"]}) == {
        "void": "give",
        "draw3": "draw3",
    }
    assert lab.distinctive("stakd", {"variants": ["void"]}) == {}
    assert coverage(cubegames.make("cubes"), cubegames.make("cubes").new_state()) is None


# -- settings of a game's encoding, and its OpenSpiel rules ------------------------------------


def test_a_window_radius_is_a_setting_only_where_the_rl_part_declares_it() -> None:
    assert encoding_settings(cubegames.make("cubed")) == ("radius",)
    assert Session("cubed", radius=3, players=2).codec.size < Session("cubed", players=2).codec.size
    with pytest.raises(ValueError, match="radius is not a setting of Nim's encoding"):
        Session("nim", radius=3)
    with pytest.raises(ValueError, match="radius is not a setting of STAKD's encoding"):
        Session("stakd", radius=3)


def test_each_built_in_game_ships_its_openspiel_rules() -> None:
    found = {g: own_rules(g) for g in (*BUILT_IN, "nim")}
    assert [None if r is None else r.__module__ for r in found.values()] == [
        *(f"cubegames.games.{g}.openspiel" for g in BUILT_IN),
        None,  # the adapter's generic description (cubegames.openspiel.plugin)
    ]


def test_a_refusals_colour_is_named_by_the_games_web_part() -> None:
    from cubegames.core.errors import Refusal
    from cubegames.kit.words import refusal, refused
    from cubegames.render import web

    game = cubegames.make("unstackable")
    palette = web.info(game)["palette"]
    reason = Refusal("none-left", "there are no red cubes left", colour="red")
    assert refused("unstackable", reason, palette).said() == [
        "refusal-unstackable-none-left",
        {"colour": {"say": ["unst-colour-R", {}], "text": "red"}},
    ]
    assert "red" not in refusal("ja", "unstackable", reason, palette)
    # a game whose web part names nothing keeps the parameters as the rules gave them
    plain = Refusal("none-left", "x", colour="red")
    assert refused("stakd", plain, {}).said() == ["refusal-stakd-none-left", {"colour": "red"}]


def test_compile_warms_what_each_games_kernels_part_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from cubegames import kernels

    asked: list[tuple[str, str, bool]] = []

    class Spy:
        def __init__(self, spec: str) -> None:
            self.spec = spec

        def choose(self, state: object) -> None:
            assert isinstance(state, cubegames.core.game.State)
            asked.append((state.game.id, self.spec, state.to_move is not None))

    monkeypatch.setattr(kernels, "bot", lambda spec, seed: Spy(spec))
    kernels.warm(("bots",))
    assert asked == [
        ("cubed", "greedy", True),
        ("cubed", "mcts:iterations=20", True),
        ("cubed", "greedy", True),  # solo
        ("cubed", "mcts:iterations=20", True),
        ("unstackable", "mcts:iterations=20", True),
        ("unstackable", "alphabeta:depth=2", True),
        ("stakd", "greedy", True),
        ("stakd", "mcts:iterations=20", True),
    ]
    # the solver's position is past stacking, STAKD's past its bases
    positions = dict(
        (specs[0], state) for state, specs in kernels.part("unstackable", "kernels").bot_positions()
    )
    assert positions["alphabeta:depth=2"].to_dict()["stage"] != "stack"
    ((stakd, _),) = kernels.part("stakd", "kernels").bot_positions()
    assert not stakd.base_phase
