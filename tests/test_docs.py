"""The project's own documents: links stay inside the repository, every reading the specs
mark [assumed] is written in docs/rules, docs/api.md runs, and the rules reach users through
`cubegames rules` and `GET /api/rules/{game}`."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import cubegames
from cubegames import rulebook
from cubegames.server.app import create_app
from tests.helpers import BUILT_IN
from tests.server.helpers import TestClient

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SPECS = ROOT.parent / "shared" / "rules"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ASSUMED = "## Readings we assumed"


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    text = page.read_text("utf-8")
    assert "../shared" not in text and "shared/rules" not in text, "a link leaves the repo"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{target} leaves the repository"
        assert path.exists(), f"{page.name}: {target} does not exist"


def test_source_files_point_to_the_projects_own_rules() -> None:
    for path in (ROOT / "src").rglob("*"):
        if path.suffix in (".py", ".toml", ".js", ".html"):
            text = path.read_text("utf-8")
            assert "shared/rules" not in text and "shared/api" not in text, path


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_game_has_a_rules_page_with_its_readings(game: str) -> None:
    page = (DOCS / "rules" / f"{game}.md").read_text("utf-8")
    assert ASSUMED in page
    assert rulebook.text(game) == page


#: the Japanese pages' heading for the readings (docs/rules/ja/<game>.md)
ASSUMED_JA = "## ルールの解釈について"
CODE = re.compile(r"`[^`]+`")
HEADING = re.compile(r"^#+ ", re.M)
ROW = re.compile(r"^\|", re.M)


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_rules_page_is_in_japanese_too_with_the_same_sections(game: str) -> None:
    """A Japanese page for every English one, with as many headings and table rows, the
    readings' section at the same place, and the same notation, options and file names (the
    code spans), so a section or a rule left out shows; its prose is Japanese."""
    english = (DOCS / "rules" / f"{game}.md").read_text("utf-8")
    japanese = (DOCS / "rules" / "ja" / f"{game}.md").read_text("utf-8")
    assert rulebook.text(game, "ja") == japanese
    assert len(HEADING.findall(english)) == len(HEADING.findall(japanese))
    assert len(ROW.findall(english)) == len(ROW.findall(japanese))
    headings = [line for line in japanese.splitlines() if HEADING.match(line)]
    assert headings.index(ASSUMED_JA) == [
        line for line in english.splitlines() if HEADING.match(line)
    ].index(ASSUMED)
    assert set(CODE.findall(japanese.replace(" --lang ja`", "`"))) == set(CODE.findall(english))
    prose = CODE.sub("", japanese)
    kana = len(re.findall(r"[\u3040-\u30ff]", prose))
    assert kana > len(re.findall(r"[A-Za-z]", prose)), "the page is written in Japanese"


#: for each [assumed] mark in ../shared/rules: (spec, words around the mark) -> words that
#: must be in the "Readings we assumed" section of docs/rules/<spec>; None for the line
#: that only explains the marking
READINGS: dict[tuple[str, str], str | None] = {
    ("cubed", "marks it"): None,
    ("cubed", "white almond is a sixth colour"): "white almond is a sixth ordinary colour",
    ("cubed", "Exact sets"): "The exact pieces",
    ("cubed", "assumed for JA"): "scores leftover pieces like the English one",
    ("cubed", "match at least two (2)"): "option `strict_colors=false`",
    ("cubed", "so that a round always ends"): "whole circle of turns laid nothing",
    ("cubed", "its lowest scorer starts"): "its lowest scorer begins the next",
    ("cubed", '"discard" read as'): "go back into the bag",
    ("cubed", "either reading is plausible"): '"3 or more"',
    ("cubes", "sheet does not give"): None,
    ("cubes", "mix of the 50 chips"): "40 white, 8 red and 2 blue",
    ("cubes", "assumed faces"): "The dice faces",
    ("cubes", "opened by the seat after the one"): "begun by the seat after the one",
    ("stakd", "only in the pictures"): "The piece shapes above",
    ("stakd", "assumed shape"): "The piece shapes above",
    ("stakd", "rest on a BLUE BOMBER"): "may rest on a BLUE BOMBER",
    ("unstackable", "Gaps are fixed here"): None,
    ("unstackable", "completed over the grid's cells"): "completed over the grid's cells 0 to 3",
    ("unstackable", "black can place 3"): "option `exact_counts=false`",
    ("unstackable", "between other blocks"): "option `bag_counts_as_exposed=true`",
}


def _marks(text: str) -> Iterator[str]:
    """Each [assumed] mark with its context: from the start of its bullet, table row or
    paragraph to the line where the mark closes."""
    lines = text.splitlines()
    starts = re.compile(r"^\s*(- |\| |\d+\. )")
    for i, line in enumerate(lines):
        for _ in re.finditer(r"\[assumed", line):
            first = i
            while first > 0 and lines[first - 1].strip() and not starts.match(lines[first]):
                first -= 1
            last = i
            while "]" not in line[line.index("[assumed") :] and last + 1 < len(lines):
                last += 1
                if "]" in lines[last]:
                    break
            yield " ".join(lines[first : last + 1])


def test_every_assumed_reading_of_the_specs_is_in_docs_rules() -> None:
    if not SPECS.is_dir():
        pytest.skip("the specs (../shared/rules) are not beside this checkout")
    used: set[tuple[str, str]] = set()
    for spec in sorted(SPECS.glob("*.md")):
        game = spec.stem
        page = (DOCS / "rules" / f"{game}.md").read_text("utf-8")
        readings = page[page.index(ASSUMED) :]
        for context in _marks(spec.read_text("utf-8")):
            keys = [k for k in READINGS if k[0] == game and k[1] in context]
            assert keys, f"{spec.name}: an [assumed] reading docs/rules lacks: {context}"
            used.update(keys)
            for key in keys:
                words = READINGS[key]
                assert words is None or words in readings, f"docs/rules/{game}.md: {words}"
    assert used == set(READINGS), f"marks no longer in the specs: {set(READINGS) - used}"


def test_the_games_page_names_every_option_that_changes_a_reading() -> None:
    page = (DOCS / "games.md").read_text("utf-8")
    section = page[page.index("## Readings the rulebooks left open") :]
    for game in BUILT_IN:
        page = rulebook.text(game)
        for option in re.findall(r"option `(\w+)=", page[page.index(ASSUMED) :]):
            assert option in section, f"docs/games.md's readings lack {game}'s option {option}"
        assert f"rules/{game}.md" in section


def test_the_api_page_runs() -> None:
    result = doctest.testfile(
        str(DOCS / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 10 and result.failed == 0


def test_the_api_pages_positions_load_as_written() -> None:
    text = (DOCS / "api.md").read_text("utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    for block in blocks:
        data = json.loads(block)
        state = cubegames.game_from_dict(data).state_from_dict(data)
        assert state.to_dict() == data


def test_the_wheel_carries_the_pages_where_rulebook_looks() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    included = project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert included == {
        "docs/rules": "cubegames/docs/rules",
        "docs/api.md": "cubegames/docs/api.md",
    }
    # from a source checkout, the pages are the repository's own
    assert Path(str(rulebook.docs())) == DOCS
    assert rulebook.api() == (DOCS / "api.md").read_text("utf-8")


def test_an_installed_wheel_reads_its_own_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a wheel's package folder holds docs/ beside the modules; rulebook prefers that copy
    package = tmp_path / "cubegames"
    (package / "docs" / "rules").mkdir(parents=True)
    (package / "docs" / "api.md").write_text("# the packaged API page\n", "utf-8")
    (package / "docs" / "rules" / "cubes.md").write_text("# packaged CUBES\n", "utf-8")
    (package / "docs" / "rules" / "ja").mkdir()
    (package / "docs" / "rules" / "ja" / "cubes.md").write_text("# 同梱の CUBES\n", "utf-8")
    monkeypatch.setattr(rulebook.resources, "files", lambda name: package)
    assert rulebook.text("cubes") == "# packaged CUBES\n"
    assert rulebook.text("cubes", "ja") == "# 同梱の CUBES\n"
    assert rulebook.api() == "# the packaged API page\n"


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`cubegames ARGS`, in English unless `env` asks for another language."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "cubegames", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, "CUBEGAMES_LANG": "en", "LANG": "C.UTF-8", **env},
    )


def test_the_rules_command_prints_the_page() -> None:
    done = _cli("rules", "stakd")  # piped: plain markdown
    assert done.returncode == 0
    assert done.stdout == (DOCS / "rules" / "stakd.md").read_text("utf-8")
    laid_out = _cli("rules", "cubes", "--rich")
    assert laid_out.returncode == 0 and "CUBES" in laid_out.stdout
    assert "## " not in laid_out.stdout  # headings are drawn, not shown as markdown
    assert "rules of GAME" in _cli("rules", "--help").stdout


def test_the_rules_command_prints_the_japanese_page() -> None:
    done = _cli("rules", "cubed", "--lang", "ja")
    assert done.returncode == 0
    assert done.stdout == (DOCS / "rules" / "ja" / "cubed.md").read_text("utf-8")
    wrong = _cli("rules", "cubed", "--lang", "fr")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert "'fr' is not one of 'en', 'ja'" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) == 1


def test_the_rules_command_follows_the_locale() -> None:
    """Without --lang, CUBEGAMES_LANG or the locale picks the page, as for `play`."""
    japanese = (DOCS / "rules" / "ja" / "cubes.md").read_text("utf-8")
    assert _cli("rules", "cubes", CUBEGAMES_LANG="", LANG="ja_JP.UTF-8").stdout == japanese
    assert _cli("rules", "cubes", CUBEGAMES_LANG="ja", LANG="C").stdout == japanese
    english = _cli("rules", "cubes", "--lang", "en", CUBEGAMES_LANG="ja")
    assert english.stdout == (DOCS / "rules" / "cubes.md").read_text("utf-8")


def test_the_rules_command_refuses_an_unknown_game() -> None:
    done = _cli("rules", "chess")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().startswith(
        "cubegames: no rules for 'chess'; the games are cubed, unstackable, stakd, cubes"
    )


def test_the_rules_endpoint(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        answer = client.get("/api/rules/unstackable")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/markdown")
        assert answer.text == (DOCS / "rules" / "unstackable.md").read_text("utf-8")
        japanese = client.get("/api/rules/unstackable?lang=ja")
        assert japanese.status_code == 200
        assert japanese.text == (DOCS / "rules" / "ja" / "unstackable.md").read_text("utf-8")
        missing = client.get("/api/rules/chess")
        assert missing.status_code == 404
        assert missing.json()["detail"].startswith("no rules for 'chess'")
