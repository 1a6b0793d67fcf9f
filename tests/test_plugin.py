"""A game from another installed package plugs in: Nim, written only in tests/plugin_game and
registered by its own pyproject.toml in the entry-point group `cubegames.games`, is a game like
the built-in four (made, simulated, learned, listed by the catalog); a broken plug-in breaks
only itself. The browser side is in tests/server/test_browser_plugin.py."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from rich.console import Console

import cubegames
from cubegames import rulebook
from cubegames.cli import cli
from cubegames.core import registry
from cubegames.core.game import Game
from cubegames.core.options import check_form, form
from cubegames.core.registry import (
    GAMES,
    PluginError,
    PluginWarning,
    game_class,
    games,
    info,
    make,
)
from cubegames.kit.parts import PARTS, part
from cubegames.render import terminal
from cubegames.sim.summaries import summary_for
from tests.server.helpers import TestClient

ROOT = Path(__file__).resolve().parents[1]


def test_the_plug_in_is_found_through_its_entry_point_and_listed_after_the_four() -> None:
    assert GAMES[:4] == ("cubed", "unstackable", "stakd", "cubes")
    assert "nim" in GAMES
    found = {e.name: e.value for e in metadata.entry_points(group="cubegames.games")}
    assert found["nim"] == "nimplugin:Nim"
    assert found["cubed"] == "cubegames.games.cubed.game:Cubed"


def test_no_line_of_the_plug_in_is_in_the_package() -> None:
    for path in (ROOT / "src").rglob("*"):
        if path.suffix in (".py", ".js", ".toml", ".html", ".css"):
            text = path.read_text("utf-8")
            assert "nimplugin" not in text and not re.search(r"""["']nim["']""", text), path


def test_make_plays_and_reads_the_plug_in_game() -> None:
    game = cubegames.make("nim", players=3, stones=7)
    state = game.new_state(seed=1)
    bot = cubegames.bot("mcts:iterations=60", seed=1)
    while not state.is_over:
        state.play(bot.choose(state))
    assert len(state.winners()) == 1
    again = cubegames.game_from_dict(state.to_dict()).state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    with pytest.raises(ValueError, match="nim has no option 'colour'; it takes players, stones"):
        cubegames.make("nim", colour=1)
    with pytest.raises(ValueError, match="stones must be from 1 to 40"):
        cubegames.make("nim", stones=41)
    with pytest.raises(ValueError, match="players must be a whole number"):
        cubegames.make("nim", players="2")


def test_a_plug_ins_plain_refusal_is_carried_as_the_rules_refusal() -> None:
    """A plug-in written to the plainer contract gives its reasons as plain sentences: play
    raises IllegalMove with that sentence, code `illegal`, and leaves the state as it was."""
    game = cubegames.make("nim", players=2, stones=2)
    state = game.new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(cubegames.IllegalMove, match="only 2 stones are left") as caught:
        state.play(game.parse_move(str(state.legal_moves()[0]).replace("1", "3")))
    assert caught.value.refusal.code == "illegal"
    assert state.to_dict() == before


def test_a_plug_in_is_never_given_a_non_move_to_judge() -> None:
    """None, a number, a dict or bytes offered to a plug-in's state are refused by `play`
    (and `is_legal` says no) before the game's `refusal`, which expects a move of its own,
    sees them: an IllegalMove, code `not-a-move`, and the state as it was."""
    game = cubegames.make("nim", players=2, stones=5)
    state = game.new_state(seed=1)
    before = state.to_dict()
    things: list[Any] = [None, 1, {"count": 1}, b"take 1", 1.5]
    for thing in things:
        with pytest.raises(cubegames.IllegalMove, match="is not a nim move") as caught:
            state.play(thing)
        assert caught.value.refusal.code == "not-a-move"
        assert not state.is_legal(thing)
        assert state.to_dict() == before


def test_a_plug_in_is_given_only_its_own_moves_and_whole_seeds() -> None:
    """A move of another game, or a hand-built move whose notation the plug-in cannot read,
    is refused before its rules see it; a seed that is no whole number is refused before
    its `new_state` sees it (Nim's own took None, 1.5, "7", True and NaN)."""
    from cubegames.games.cubed.notation import Place

    game = cubegames.make("nim", players=2, stones=5)
    state = game.new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(cubegames.IllegalMove):
        state.play(Place("GPY", 0, 0))
    assert state.to_dict() == before
    for seed in [None, 1.5, "7", True, float("nan")]:
        with pytest.raises(ValueError, match=r"^seed must be a whole number, not "):
            game.new_state(seed)
        with pytest.raises(ValueError, match=r"^seed must be a whole number, not "):
            game.new_state(seed=seed)
    assert game.new_state(np.int64(4)).to_dict() == game.new_state(4).to_dict()


def test_a_plug_in_reads_only_its_own_positions_and_views_only_its_seats() -> None:
    """`Game` guards every game's `state_from_dict` (a position of another game, one without
    "game" or "options", or with other options, never reaches the plug-in's reader) and
    `State` every game's `view` (a seat that is not one of the game's is refused; numpy's
    integers arrive as ints). Nim's own reader checks none of this."""
    game = cubegames.make("nim", players=2, stones=5)
    good = game.new_state().to_dict()
    assert game.state_from_dict(good).to_dict() == good
    assert game.state_from_dict({**good, "options": {"stones": 5}}).to_dict() == good
    refused = {
        '^field "game": this position is not a Nim game$': {**good, "game": "cubed"},
        '^field "game" is missing$': {k: v for k, v in good.items() if k != "game"},
        '^field "options" is missing$': {k: v for k, v in good.items() if k != "options"},
        '^field "options": they differ': {**good, "options": {"players": 2, "stones": 7}},
        '^field "options": they differ ': {**good, "options": {"players": 2.0, "stones": 5}},
        "^a position must be a JSON object$": [good],
    }
    for message, data in refused.items():
        with pytest.raises(ValueError, match=message):
            game.state_from_dict(data)  # type: ignore[arg-type]
    state = game.new_state()
    for seat in [2, -1, True, 1.0, "0", None]:
        with pytest.raises(ValueError, match=r"^there is no seat "):
            state.view(seat)  # type: ignore[arg-type]
    seen = state.view(np.int64(1))  # type: ignore[arg-type]
    assert type(seen["seat"]) is int and json.dumps(seen)


def test_cubegames_simulate_runs_the_plug_in(tmp_path: Path) -> None:
    out = tmp_path / "nim.csv"
    command = ["simulate", "nim", "--bots", "random,greedy", "-n", "12", "-o", "stones=8"]
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", *command, "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with out.open() as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 12
    # the game's own summary columns (declared in its facts) are in every row
    assert all(int(r["took_s0"]) + int(r["took_s1"]) == 8 for r in rows)


# api_test warns about an observation space that is a Dict (the PettingZoo convention for
# action masks), as in tests/rl/test_pz.py
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box"
)
def test_the_plug_in_passes_pettingzoos_api_test_through_cubegames_rl() -> None:
    from pettingzoo.test import api_test

    import cubegames.rl

    aec = cubegames.rl.env("nim", render_mode="ansi", stones=12)
    api_test(aec, num_cycles=200)
    solo = cubegames.rl.single_agent("nim", stones=5)
    obs, info_ = solo.reset(seed=1)
    assert obs.shape == (3,) and info_["action_mask"].tolist() == [1, 1, 1]
    envs = cubegames.rl.vector_env("nim", 2, seed=1)
    assert type(envs).__name__ == "SessionVectorEnv"


def test_the_catalog_lists_the_plug_in_with_its_form(tmp_path: Path) -> None:
    from cubegames.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        menu = client.get("/api/catalog").json()
        nim = next(g for g in menu["games"] if g["id"] == "nim")
        assert nim["title"] == "Nim" and (nim["min_players"], nim["max_players"]) == (2, 4)
        stones = next(o for o in nim["options"] if o["name"] == "stones")
        assert (stones["kind"], stones["low"], stones["high"], stones["default"]) == (
            "int",
            1,
            40,
            10,
        )
        assert nim["schema"]["properties"]["stones"]["maximum"] == 40
        rules = client.get("/api/rules/nim")
        assert rules.status_code == 200 and rules.text.startswith("# Nim")


def test_a_plug_in_that_cannot_deal_the_web_apps_seeds_is_refused_when_the_game_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web app deals from 128-bit seeds: a game whose new_state refuses them (a plug-in
    on numpy's legacy RandomState, say) is refused by POST /api/games, not stored to close
    every page that opens it."""
    from nimplugin import Nim, NimState

    from cubegames.server.app import create_app

    def small_seeds_only(self: Nim, seed: int = 0) -> NimState:
        if seed >= 2**32:
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        return NimState(self)

    monkeypatch.setattr(Nim, "new_state", small_seeds_only)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        refused = client.post("/api/games", json={"game": "nim", "seats": seats})
        assert refused.status_code == 400
        assert refused.json()["detail"] == (
            "game 'nim' cannot be dealt: Seed must be between 0 and 2**32 - 1"
        )
        picked = client.post("/api/games", json={"game": "nim", "seats": seats, "seed": 7})
        assert picked.status_code == 201


def test_a_plug_in_whose_deal_the_pages_cannot_be_sent_is_refused_when_the_game_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in whose view is not JSON, or whose new_state fails with an error of its own
    (not a ValueError), is refused by POST /api/games in one line, not stored to close every
    page that opens it with no word (and a 500 from its replay)."""
    from nimplugin import Nim, NimState

    from cubegames.server.app import create_app

    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    plain_view = NimState.view
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        with monkeypatch.context() as patch:
            patch.setattr(NimState, "view", lambda self, seat: {**plain_view(self, seat), "x": {1}})
            refused = client.post("/api/games", json={"game": "nim", "seats": seats})
        assert refused.status_code == 400
        assert refused.json()["detail"] == (
            "game 'nim' cannot be dealt: seat 0's view is not JSON "
            "(Object of type set is not JSON serializable)"
        )

        def broken(self: Nim, seed: int = 0) -> NimState:
            raise KeyError("the deck's order")

        with monkeypatch.context() as patch:
            patch.setattr(Nim, "new_state", broken)
            refused = client.post("/api/games", json={"game": "nim", "seats": seats})
        assert refused.status_code == 400
        assert refused.json()["detail"] == "game 'nim' cannot be dealt: KeyError"
        assert client.post("/api/games", json={"game": "nim", "seats": seats}).status_code == 201


def test_every_games_form_is_built_from_its_options_model() -> None:
    for facts in games():
        names = [o["name"] for o in form(facts.options)]
        assert names == list(facts.options.model_fields), facts.id
    cubed = info("cubed").options
    with pytest.raises(ValueError, match="option edition: choose from en, ja"):
        check_form("cubed", cubed, {"edition": "mine.toml"})  # make would read the file
    with pytest.raises(ValueError, match="option variants: a list of names"):
        check_form("cubed", cubed, {"variants": ["teleport"]})
    assert check_form("cubed", cubed, {"players": 3, "rounds": None}) == {"players": 3}


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"<\w+>", r"\\w+", name) + "$")


@pytest.mark.parametrize("facts", games(), ids=lambda f: f.id)
def test_every_summary_column_is_declared_in_the_games_facts(facts: Any) -> None:
    """The facts say what each summary column means: a column nobody declared fails."""
    patterns = [_pattern(c.name) for c in facts.columns]
    for options in facts.example_options[:2]:
        game = make(facts.id, **options)
        summary = summary_for(game)
        state = game.new_state(seed=3)
        bot = cubegames.bot("random", seed=3)
        while not state.is_over:
            state.play(bot.choose(state))
            if summary.per_move:
                summary.observe(state)
        columns = summary.finish(state)
        assert columns or facts.summary is None
        for column in columns:
            assert any(p.match(column) for p in patterns), f"{facts.id}: {column} undeclared"


def test_titles_and_score_direction_come_from_the_facts() -> None:
    assert registry.title("cubed") == "CUBED" and registry.title("nim") == "Nim"
    assert registry.lower_is_better("cubed") and not registry.lower_is_better("nim")


def test_the_greedy_bot_reads_which_way_a_plug_ins_score_is_better(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nim without a heuristic of its own, scored by the stones each seat took: greedy's
    one-ply look takes the most where more is better, the fewest where less is."""
    from nimplugin import Nim, NimState

    monkeypatch.setattr(NimState, "scores", lambda self: [float(n) for n in self.taken])
    state = make("nim", stones=20).new_state()
    assert str(cubegames.bot("greedy").choose(state)) == "take 3"
    monkeypatch.setattr(Nim, "info", replace(Nim.info, score_better="lower"))
    assert str(cubegames.bot("greedy").choose(state)) == "take 1"


# -- broken plug-ins ----------------------------------------------------------------------


class NotAGame:
    """Registered by a broken plug-in in place of a game class."""


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three broken plug-ins beside the real games: a module that fails to import, a value
    that is not a Game class, and a class that calls itself by another id."""
    group = registry.GROUP
    extra = {
        "ghost": metadata.EntryPoint("ghost", "no_such_module_here:Ghost", group),
        "junk": metadata.EntryPoint("junk", "tests.test_plugin:NotAGame", group),
        "alias": metadata.EntryPoint("alias", "nimplugin:Nim", group),
    }
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, **extra})
    monkeypatch.setattr(registry, "GAMES", registry._order(set(registry._ENTRIES)))
    registry._load.cache_clear()
    yield
    registry._load.cache_clear()


@pytest.mark.usefixtures("broken")
def test_a_broken_plug_in_breaks_only_itself() -> None:
    with pytest.raises(PluginError, match=r"game 'ghost' .* cannot be loaded: ModuleNotFound"):
        make("ghost")
    with pytest.raises(PluginError, match=r"game 'junk' .* is not a cubegames Game class"):
        make("junk")
    with pytest.raises(PluginError, match=r"game 'alias' .* calls itself 'nim', not 'alias'"):
        make("alias")
    with pytest.warns(PluginWarning) as caught:
        listed = [f.id for f in games()]
    assert listed == ["cubed", "unstackable", "stakd", "cubes", "nim"]
    assert {str(w.message).split()[1] for w in caught} == {"'alias'", "'ghost'", "'junk'"}
    assert make("nim").players == 2 and make("cubes").players == 2


@pytest.mark.usefixtures("broken")
def test_a_broken_plug_in_is_told_in_the_language_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cubegames --lang ja games` names each plug-in that cannot be loaded in Japanese,
    from the catalogs' `error-plugin-…` (the plug-in's own error text stays as it is)."""
    monkeypatch.setattr(cubegames, "GAMES", registry.GAMES)
    listing = CliRunner().invoke(cli, ["--lang", "ja", "games"])
    assert listing.exit_code == 0, listing.output
    told = sorted(listing.stderr.splitlines())
    assert told == [
        "ゲーム「alias」（nimplugin:Nim）は自分を 'nim' と名乗っており、「alias」ではありません",
        "ゲーム「ghost」（no_such_module_here:Ghost）を読み込めません: "
        "ModuleNotFoundError: No module named 'no_such_module_here'",
        "ゲーム「junk」（tests.test_plugin:NotAGame）は cubegames の Game クラスではありません",
    ]
    english = CliRunner().invoke(cli, ["--lang", "en", "games"])
    assert "game 'junk' (tests.test_plugin:NotAGame) is not a cubegames Game class" in (
        english.stderr
    )


def test_a_positions_unknown_option_is_told_in_japanese(tmp_path: Path) -> None:
    """An option no game has, in a position file, is refused in the language asked (it was
    the generic "not a correct position file" in Japanese, the reason lost)."""
    path = tmp_path / "bogus.json"
    path.write_text(json.dumps({"game": "nim", "options": {"players": 2, "size": 3}}))
    said = CliRunner().invoke(cli, ["--lang", "ja", "moves", str(path)])
    assert said.exit_code == 2
    assert said.stderr.strip() == (
        f"cubegames: {path}: nimには「size」という設定はありません。"
        "設定できるのは players, stones, max_take です"
    )
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({"game": "cubes", "options": {"players": 2}}))
    said = CliRunner().invoke(cli, ["--lang", "ja", "moves", str(missing)])
    assert said.exit_code == 2
    assert said.stderr.strip() == f"cubegames: {missing}: 局面ファイルに「faces」がありません"


@pytest.mark.usefixtures("broken")
def test_the_catalog_leaves_a_broken_plug_in_out(caplog: pytest.LogCaptureFixture) -> None:
    from cubegames.server.catalog import build, catalog

    ids = [g["id"] for g in catalog()["games"]]
    assert ids == ["cubed", "unstackable", "stakd", "cubes", "nim"]
    assert "cannot be loaded" in caplog.text
    with pytest.raises(ValueError, match="the game 'ghost' is not available on this server"):
        build("ghost", {})


def test_a_registration_left_out_is_told_where_games_are_listed_not_on_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An id that is not a lower-case word, and an id another package took first: reading
    the entry points says nothing (importing cubegames under -W error, or in a test suite
    that turns warnings into errors, as this one does, must work); `games()` warns of each,
    and `make` of the bad id names why instead of calling it unknown."""
    group = registry.GROUP
    found = [
        *metadata.entry_points(group=group),
        metadata.EntryPoint("Nim-2", "nimplugin:Nim", group),
        metadata.EntryPoint("nim", "tests.test_plugin:Legacy", group),
    ]
    monkeypatch.setattr(metadata, "entry_points", lambda group: found)
    entries, left_out = registry._entry_points()  # a warning here would fail the test
    assert entries["nim"].value == "nimplugin:Nim" and "Nim-2" not in entries
    monkeypatch.setattr(registry, "_ENTRIES", entries)
    monkeypatch.setattr(registry, "_LEFT_OUT", left_out)
    with pytest.raises(PluginError, match=r"game id 'Nim-2' \(nimplugin:Nim\) is not a lower-"):
        make("Nim-2")
    with pytest.warns(PluginWarning) as caught:
        listed = [f.id for f in games()]
    assert listed == ["cubed", "unstackable", "stakd", "cubes", "nim"]
    told = [
        "game 'nim' is registered twice (nimplugin:Nim and tests.test_plugin:Legacy); "
        "using nimplugin:Nim",
        "game id 'Nim-2' (nimplugin:Nim) is not a lower-case word ([a-z][a-z0-9_]*, at most 32 "
        "characters); left out",
    ]
    assert sorted(str(w.message) for w in caught) == told
    listing = CliRunner().invoke(cli, ["games"])  # `cubegames games` names them on stderr
    assert listing.exit_code == 0 and sorted(listing.stderr.splitlines()) == told
    assert "nim: options players, stones, max_take" in listing.stdout


# -- capabilities -------------------------------------------------------------------------


def test_the_command_line_reads_options_by_the_models_kinds() -> None:
    from cubegames.core.registry import options_from_text as parse_options

    assert parse_options("nim", ("stones=5", "max_take=2"), 3) == {
        "stones": 5,
        "max_take": 2,
        "players": 3,
    }
    assert parse_options("cubed", ("variants=void,draw3", "strict_colors=false"), None) == {
        "variants": ["void", "draw3"],
        "strict_colors": False,
    }
    with pytest.raises(ValueError, match="nim has no option 'size'"):
        parse_options("nim", ("size=3",), None)
    with pytest.raises(ValueError, match="max_take must be a whole number"):
        make("nim", **parse_options("nim", ("max_take=many",), None))


def _wordy() -> Any:
    """Nim with every drawing capability, as a plug-in with page words of its own would be."""
    import dataclasses

    from nimplugin import INFO, Nim

    from cubegames.core.capabilities import (
        MoveWords,
        SecretMoves,
        Telling,
        TextDrawing,
        WebHints,
    )

    class Wordy(Nim, MoveWords, SecretMoves, Telling, WebHints, TextDrawing):
        info = dataclasses.replace(INFO, id="wordy")

        def move_words(self, move: str, mover: int, viewer: int | None) -> str:
            return "You took some stones." if mover == viewer else "Someone took stones."

        def move_visible(self, move: str, mover: int, viewer: int | None) -> bool:
            return mover == viewer

        def tell(self, view: Any) -> str | None:
            return f"{view['pile']} stones are left."

        def web_hints(self, view: Any) -> dict[str, Any]:
            return {"safe": view["pile"] % (self.max_take + 1) == 0}

        def draw_text(self, view: Any, legal: Any) -> str:
            return f"PILE {view['pile']}"

    return Wordy(stones=8)


def test_a_plug_in_games_capabilities_are_used_and_their_absence_falls_back() -> None:
    from rich.console import Console

    from cubegames.render import terminal, web

    wordy, plain = _wordy(), make("nim", stones=8)
    view = wordy.new_state().view(0)
    assert web.words(wordy, "take 2", 1, 0) == "Someone took stones."
    assert web.words(plain, "take 2", 1, 0) == "Seat 1 played take 2."
    assert web.words(plain, "take 2", 1, 1) == "You played take 2."
    assert not web.visible(wordy, "take 2", 1, 0) and web.visible(wordy, "take 2", 1, 1)
    assert web.visible(plain, "take 2", 1, None)
    assert web.tell(wordy, view) == "8 stones are left." and web.tell(plain, view) is None
    assert web.hints(wordy, view) == {"safe": True} and web.hints(plain, view) is None
    assert web.info(plain) == {"generic": True, "title": "Nim", "hidden_hands": False}
    assert web.draw(plain, view).startswith("<svg")

    def text(game: Any) -> str:
        console = Console(width=80, record=True)
        console.print(terminal.draw(game, view))
        return console.export_text()

    assert text(wordy).strip() == "PILE 8"  # its capability comes before its module
    # plain Nim: its own terminal part, nimplugin/terminal.py, found beside its game module
    assert text(plain).splitlines()[:2] == [
        "Nim: 8 stones  " + " o " * 8,
        "seat 0: took 0  seat 1: took 0",
    ]
    assert terminal.tell(wordy, view) == "8 stones are left." and terminal.tell(plain, view) is None


def test_the_terminal_tells_a_plug_ins_moves_in_its_own_words_secret_ones_too() -> None:
    """A game with `MoveWords` gives no phrase of the catalogs: the terminal's log says its
    own words, and a move secret from the reader (`SecretMoves`) is told in those words
    alone (it was not told at all: the bot's turn passed in silence)."""
    from io import StringIO

    from cubegames.terminal import TerminalGame

    class Quits(Console):
        def input(self, prompt: object = "", **kwargs: Any) -> str:
            return "quit"

    out = StringIO()
    console = Quits(file=out, width=100, highlight=False)
    TerminalGame(_wordy(), {1}, ["random"], 3, console).run()
    said = out.getvalue()
    assert "Someone took stones." in said and "plays take" not in said, said


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box"
)
def test_a_game_without_the_learnable_capability_gets_the_generic_encoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pettingzoo.test import api_test

    import cubegames.rl
    from cubegames.rl.plugin import LegalIndexCodec, ViewObserver

    entry = metadata.EntryPoint("legacy", "tests.test_plugin:Legacy", registry.GROUP)
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, "legacy": entry})
    registry._load.cache_clear()
    try:
        game = make("legacy", stones=9)
        codec, observer = cubegames.rl.codec(game), cubegames.rl.observer(game)
        assert isinstance(codec, LegalIndexCodec) and isinstance(observer, ViewObserver)
        state = game.new_state()
        state.play("take 2")
        view = state.view(1)
        assert [codec.encode(m, view) for m in state.legal_moves()] == [0, 1, 2]
        assert str(codec.decode(2, view)) == "take 3"
        assert codec.mask(state.legal_moves(), view).tolist()[:4] == [1, 1, 1, 0]
        obs = observer.observe(view)
        assert obs.shape == (2048,) and 0 < obs.max() <= 1
        assert observer.observe(state.view(0)).tolist() != obs.tolist()  # "seat" differs
        with pytest.raises(ValueError, match="no settings"):
            cubegames.rl.codec(game, radius=3)
        api_test(cubegames.rl.env("legacy", render_mode="ansi", stones=7), num_cycles=100)
    finally:
        registry._load.cache_clear()


class Plain(Game[Any]):
    """Nim, written to the bare Game contract with the least: no facts, no option_names (its
    options are its constructor's keyword arguments)."""

    id = "plain"

    def __init__(self, stones: int = 10, last_loses: bool = False) -> None:
        self.legacy = Legacy(players=2, stones=stones)
        self.players, self.last_loses = 2, last_loses

    @property
    def options(self) -> dict[str, Any]:
        return {"stones": self.legacy.options["stones"], "last_loses": self.last_loses}

    def new_state(self, seed: int = 0) -> Any:
        return self.legacy.new_state(seed)

    def parse_move(self, text: str) -> Any:
        return self.legacy.parse_move(text)

    def state_from_dict(self, data: Any) -> Any:
        return self.legacy.state_from_dict(data)

    def determinize(self, view: Any, seat: int, rng: Any) -> Any:
        return self.legacy.determinize(view, seat, rng)


def test_a_bare_plug_in_without_option_names_takes_its_constructors_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The command line (`-o`, `cubegames games`) and the simulator read a game class's
    `option_names`, which a bare class may leave out: the registry gives it the options it
    worked out from the constructor (a traceback before)."""
    entry = metadata.EntryPoint("plain", "tests.test_plugin:Plain", registry.GROUP)
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, "plain": entry})
    monkeypatch.setattr(registry, "GAMES", registry._order(set(registry._ENTRIES)))
    monkeypatch.setattr(cubegames, "GAMES", registry.GAMES)
    registry._load.cache_clear()
    try:
        facts = info("plain")
        assert (facts.min_players, facts.max_players) == (2, 2)
        assert game_class("plain").option_names == ("stones", "last_loses")
        assert registry.options_from_text("plain", ["stones=5", "last_loses=true"]) == {
            "stones": 5,
            "last_loses": True,
        }
        listing = CliRunner().invoke(cli, ["games"])
        assert listing.exit_code == 0, listing.output
        assert "plain: options stones, last_loses" in listing.stdout
        out = tmp_path / "plain.csv"
        args = ["simulate", "plain", "-o", "stones=6", "-n", "4", "--jobs", "1", "--out", str(out)]
        run = CliRunner().invoke(cli, args)
        assert run.exit_code == 0, run.output
        assert out.exists()
    finally:
        registry._load.cache_clear()


class Undocumented(Plain):
    id = "undocumented"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["wrote no rules", "- 2 players", "- stones: 10 unless you choose"]),
        ("ja", ["ルールを書いていません", "- 2人", "- last_loses: 指定しなければ false"]),
    ],
)
def test_a_plug_in_with_no_words_of_its_own_still_has_a_rules_page(
    monkeypatch: pytest.MonkeyPatch, lang: str, words: list[str]
) -> None:
    """`cubegames rules` (and the page's "Full rules") of a bare class with no docstring
    printed its title alone: the page says no rules were written, how many play and its
    settings with their defaults, in the reader's language."""
    entry = metadata.EntryPoint("undocumented", "tests.test_plugin:Undocumented", registry.GROUP)
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, "undocumented": entry})
    monkeypatch.setattr(registry, "GAMES", registry._order(set(registry._ENTRIES)))
    monkeypatch.setattr(cubegames, "GAMES", registry.GAMES)
    monkeypatch.setattr(rulebook, "GAMES", registry.GAMES)
    registry._load.cache_clear()
    try:
        run = CliRunner().invoke(cli, ["--lang", lang, "rules", "undocumented", "--plain"])
        assert run.exit_code == 0, run.output
        assert run.stdout.startswith("# Undocumented\n")
        for said in words:
            assert said in run.stdout
    finally:
        registry._load.cache_clear()


class Legacy(Game[Any]):
    """Nim, written to the bare Game contract: no declared facts."""

    id = "legacy"
    option_names = ("players", "stones")

    def __init__(self, players: int = 2, stones: int = 10) -> None:
        from nimplugin import Nim

        self._nim = Nim(players=players, stones=stones)
        self.players = players

    @property
    def options(self) -> dict[str, Any]:
        return {"players": self.players, "stones": self._nim.stones}

    def new_state(self, seed: int = 0) -> Any:
        return self._nim.new_state(seed)

    def parse_move(self, text: str) -> Any:
        return self._nim.parse_move(text)

    def state_from_dict(self, data: Any) -> Any:
        return self._nim.state_from_dict(data)

    def determinize(self, view: Any, seat: int, rng: Any) -> Any:
        return self._nim.determinize(view, seat, rng)


def test_a_plug_ins_parts_are_found_beside_its_game_module() -> None:
    assert registry.package("nim") == "nimplugin" and info("nim").parts
    assert part("nim", "terminal").__name__ == "nimplugin.terminal"
    assert part("nim", "web") is None and part("nim", "symmetry") is None
    assert part("cubed", "terminal").__name__ == "cubegames.games.cubed.terminal"
    with pytest.raises(ValueError, match="no part 'sound'; the parts are terminal, web"):
        part("nim", "sound")
    assert part("chess", "terminal") is None  # a game made outside the registry has none


def test_a_plug_in_without_declared_facts_gets_them_from_its_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    entry = metadata.EntryPoint("legacy", "tests.test_plugin:Legacy", registry.GROUP)
    monkeypatch.setattr(registry, "_ENTRIES", {**registry._ENTRIES, "legacy": entry})
    monkeypatch.setattr(registry, "GAMES", registry._order(set(registry._ENTRIES)))
    registry._load.cache_clear()
    try:
        facts = info("legacy")
        assert (facts.title, facts.pitch) == ("Legacy", Legacy.__doc__.splitlines()[0])
        state = make("legacy", stones=4).new_state()
        state.play("take 3")
        assert state.to_dict()["pile"] == 1
        with pytest.raises(ValueError, match="stones must be a whole number"):
            make("legacy", stones="4")
        with pytest.raises(ValueError, match="legacy has no option 'max_take'"):
            make("legacy", max_take=2)
        assert [o["kind"] for o in form(facts.options)] == ["int", "int"]
        assert "legacy" in [f.id for f in games()]
        # no parts: its module's package (`tests`) is not a game's own, though it holds `rl`
        assert not facts.parts and registry.package("legacy") is None
        assert all(part("legacy", name) is None for name in PARTS)
        console = Console(width=80, record=True)
        console.print(terminal.draw(make("legacy", stones=4), state.view(0), state.legal_moves()))
        drawn = console.export_text()  # the view as a tree, the legal moves under it
        assert "Legacy" in drawn and "'pile': 1" in drawn and "moves: take 1" in drawn
    finally:
        registry._load.cache_clear()


# -- a plug-in whose rules fail while a command runs ----------------------------------------

BUGGY = '''
"""Nim whose legal moves fail once fewer than 8 stones are left (a plug-in's own bug)."""
from dataclasses import replace

from nimplugin import INFO, Nim, NimState


class BuggyState(NimState):
    def legal_moves(self):
        if self.pile < 8:
            raise KeyError("stones")
        return super().legal_moves()

    def refusal(self, move):
        self.legal_moves()  # checks the move against them
        return super().refusal(move)

    def clone(self):
        other = BuggyState(self.game)
        other.__dict__.update(vars(super().clone()))
        return other


class Buggy(Nim):
    info = replace(INFO, id="buggy")

    def new_state(self, seed=0):
        return BuggyState(self)

    def state_from_dict(self, data):
        state = BuggyState(self)
        state.__dict__.update(vars(super().state_from_dict(data)))
        return state
'''


def buggy_env(tmp_path: Path) -> dict[str, str]:
    """An environment where the game `buggy` is installed: a module and its package's
    metadata (entry point included) on PYTHONPATH, as `pip install` would leave them."""
    (tmp_path / "buggyplugin.py").write_text(BUGGY)
    info = tmp_path / "buggyplugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: buggyplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[cubegames.games]\nbuggy = buggyplugin:Buggy\n")
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "CUBEGAMES_LANG": "en"}


def test_a_plug_ins_own_bug_ends_a_command_in_one_line_not_a_traceback(tmp_path: Path) -> None:
    """Its `legal_moves` raising KeyError in `moves`, `check`, `play` and `simulate` (in
    this process and in workers) gave Python's traceback and exit status 1: now one line
    naming the error and the plug-in's file, and status 2, in English and Japanese."""
    env = buggy_env(tmp_path)
    position = tmp_path / "position.json"
    data = {"game": "buggy", "options": {"players": 2, "stones": 10, "max_take": 3}}
    position.write_text(json.dumps({**data, "pile": 5, "turn": 0, "taken": [5, 0], "to_move": 0}))
    out = tmp_path / "games.csv"
    commands = [
        (["moves", str(position)], ""),
        (["check", str(position), "take 1"], ""),
        (["play", "buggy", "--seed", "1"], "take 3\n"),
        (["simulate", "buggy", "-n", "2", "--jobs", "1", "--quiet"], ""),
        (["simulate", "buggy", "-n", "2", "--jobs", "2", "--quiet", "--out", str(out)], ""),
    ]
    for args, stdin in commands:
        for lang, said in (
            ("en", "the command failed: KeyError"),
            ("ja", "コマンドが失敗しました"),
        ):
            spoken = [] if args[0] == "simulate" else ["--lang", lang]
            done = subprocess.run(
                [sys.executable, "-m", "cubegames", *args, *spoken],
                input=stdin,
                capture_output=True,
                text=True,
                timeout=120,
                env=env,
                check=False,
            )
            last = done.stderr.strip().splitlines()[-1]
            assert "Traceback" not in done.stderr, (args, done.stderr)
            assert done.returncode == 2, (args, done.stderr)
            if lang == "en" or args[0] != "simulate":
                assert last.startswith(f"cubegames: {said}"), (args, last)
            assert "KeyError: 'stones'" in last and "/buggyplugin.py:11, in legal_moves" in last
            if args[0] == "simulate":
                break  # the lab's commands speak English


def test_a_plug_in_game_that_never_ends_is_stopped_by_the_simulator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Nim whose take leaves the pile as it was never ends: `simulate` held its process
    for ever; past `MAX_MOVES` the game is refused, naming it and its seed."""
    from nimplugin import NimState

    from cubegames.sim import play

    def take_nothing(self: Any, move: Any) -> None:
        self.turn = (self.turn + 1) % self.game.players

    monkeypatch.setattr(NimState, "_apply", take_nothing)
    monkeypatch.setattr(play, "MAX_MOVES", 200)
    for bots in (("random", "random"), ("greedy", "random")):
        with pytest.raises(ValueError, match=r"game nim \(seed 3\) did not end after 200 moves"):
            play.play_match(play.Match("nim", bots, seed=3))
