"""Every word in two languages: the catalogs (static/locales/*.ftl) hold the same messages
with the same parameters in English and Japanese, every key the code uses is in them, and
the server words its errors and its rules pages in the language the page asks for."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from cubegames.server import i18n
from cubegames.server.app import create_app
from cubegames.server.catalog import catalog
from cubegames.server.limits import Limits
from tests.server.helpers import TestClient

STATIC = Path(i18n.__file__).parent / "static"
SERVER = STATIC.parent
#: a key in the page's code: t("key"...), say("key"...) (t's other name where t is a local),
#: tOr("key"...), data-i18n="key"; in the server's: Said(status, "key"...)
USES = re.compile(r'\b(?:t|say|tOr)\(\s*"([a-z0-9_-]+)"|data-i18n="([a-z0-9_-]+)"')
PY_USES = re.compile(
    r'(?:Said\(\s*\d+,|\bsay\(\s*[^,()]+(?:\([^()]*\))?,|\bworded\(\s*\w+,|\b(?:Worded|WordedProtocolError|PluginError|Unstorable|Phrase|t|__init__)\()\s*"([a-z0-9_-]+)"'
)


def _messages(lang: str) -> dict[str, ast.Message]:
    resource = FluentParser().parse((i18n.LOCALES / f"{lang}.ftl").read_text("utf-8"))
    junk = [entry.content for entry in resource.body if isinstance(entry, ast.Junk)]
    assert junk == [], f"{lang}.ftl does not parse: {junk}"
    ids = [e.id.name for e in resource.body if isinstance(e, ast.Message)]
    # a message written twice (two branches adding one key) would keep one of the two
    # silently: the first, in fluent.runtime
    assert sorted({i for i in ids if ids.count(i) > 1}) == [], f"written twice in {lang}.ftl"
    return {e.id.name: e for e in resource.body if isinstance(e, ast.Message)}


def _variables(node: object) -> set[str]:
    """The $variables a message reads, wherever they stand (selectors, placeables)."""
    found: set[str] = set()

    class Reader(Visitor):
        def visit_VariableReference(self, ref: ast.VariableReference) -> None:
            found.add(ref.id.name)

    Reader().visit(node)
    return found


def _references(node: object) -> set[str]:
    """The messages a message refers to (`{ words-seat }`)."""
    found: set[str] = set()

    class Refs(Visitor):
        def visit_MessageReference(self, ref: ast.MessageReference) -> None:
            found.add(ref.id.name)

    Refs().visit(node)
    return found


def _all_variables(messages: dict[str, ast.Message], key: str) -> set[str]:
    """The $variables a message reads, with those of the messages it refers to (a message
    reference is worded with the same parameters: `{ words-seat }` reads `$who`)."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [key]
    while todo:
        name = todo.pop()
        if name in seen or name not in messages:
            continue
        seen.add(name)
        found |= _variables(messages[name])
        todo += _references(messages[name])
    return found


def test_every_message_is_in_both_languages_with_the_same_parameters() -> None:
    english, japanese = _messages("en"), _messages("ja")
    assert sorted(set(english) - set(japanese)) == [], "missing in ja.ftl"
    assert sorted(set(japanese) - set(english)) == [], "missing in en.ftl"
    for key in english:
        assert _all_variables(english, key) == _all_variables(japanese, key), key


def test_the_japanese_catalog_is_japanese() -> None:
    """A message copied over in English would pass the key test: each Japanese message
    holds Japanese script unless it is a name or notation, the same in both."""
    japanese = _messages("ja")
    args = {v: "1" for message in japanese.values() for v in _variables(message)}
    for key in japanese:
        text = i18n.say("ja", key, **args)
        if re.search(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]", text):
            continue
        assert text == i18n.say("en", key, **args), key


def _code_keys() -> dict[str, set[str]]:
    uses: dict[str, set[str]] = {}
    for path in [*STATIC.rglob("*.js"), *STATIC.glob("*.html"), *SERVER.parent.rglob("*.py")]:
        if "vendor" in path.parts:
            continue
        scan = PY_USES if path.suffix == ".py" else USES
        for match in scan.finditer(path.read_text("utf-8")):
            key = next(g for g in match.groups() if g)
            uses.setdefault(key, set()).add(path.name)
    return uses


def test_every_key_the_code_uses_is_in_the_catalogs() -> None:
    uses = _code_keys()
    assert len(uses) > 80, "the scan finds the keys"
    english = _messages("en")
    assert {k: sorted(v) for k, v in uses.items() if k not in english} == {}


def test_the_scan_sees_a_missing_key(tmp_path: Path) -> None:
    sample = 'h("p", {}, t("no-such-key"), tOr(`x-${a}`, b), say("k2"), data-i18n="k3")'
    found = [next(g for g in m.groups() if g) for m in USES.finditer(sample)]
    assert found == ["no-such-key", "k2", "k3"]
    assert PY_USES.findall('raise Said(404, "error-zz", game=x)') == ["error-zz"]
    assert PY_USES.findall('raise Worded(\n "error-yy", "english")') == ["error-yy"]
    assert PY_USES.findall('Phrase("words-xx", {}, "")') == ["words-xx"]
    assert PY_USES.findall('super().__init__("error-ww", text)') == ["error-ww"]
    # an edition's error that is also Worded (core.data.worded)
    assert PY_USES.findall('raise worded(\n error, "error-ww", "english")') == ["error-ww"]
    assert PY_USES.findall('Text(t("term-xx", z=1))') == ["term-xx"]  # the terminal's


def test_the_built_in_games_are_worded_in_the_catalogs() -> None:
    """The page words a built-in game's pitch, options, choices, bots and short rules by key
    (pitch-GAME, option-GAME-NAME or option-NAME, choice-GAME-NAME-VALUE, bot-NAME,
    howto-GAME-N), and the English catalog says exactly what /api/catalog says, so a change
    of the server's words shows here."""
    english = _messages("en")

    def same(key: str, words: str, **args: Any) -> None:
        assert key in english, key
        assert i18n.say("en", key, **args) == words, key

    def either(own: str, shared: str, words: str) -> None:
        same(own if own in english else shared, words)

    menu = catalog()
    for game in menu["games"]:
        gid = game["id"]
        if gid not in ("cubed", "unstackable", "stakd", "cubes"):
            continue
        same(f"pitch-{gid}", game["pitch"])
        for option in game["options"]:
            own, shared = f"option-{gid}-{option['name']}", f"option-{option['name']}"
            either(own, shared, option["label"])
            if option.get("help"):
                either(f"{own}-help", f"{shared}-help", option["help"])
            for value, label in option.get("choices") or []:
                same(f"choice-{gid}-{option['name']}-{value}", label)
        defaults = {option["name"]: option["default"] for option in game["options"]}
        for n, line in enumerate(game["rules"], 1):
            same(f"howto-{gid}-{n}", line, **defaults)
        assert f"howto-{gid}-{len(game['rules']) + 1}" not in english
    for bot in menu["bots"]:
        same(f"bot-{bot['spec'].split(':')[0]}", bot["label"])


def test_numbers_and_plurals_follow_the_language() -> None:
    assert i18n.say("en", "games-moves", moves=1) == "1 move"
    assert i18n.say("en", "games-moves", moves=1200) == "1,200 moves"
    assert i18n.say("ja", "games-moves", moves=1200) == "1,200手"
    assert i18n.say("en", "error-seat-count", seats=1, given=2).startswith("this game has 1 seat;")
    assert i18n.say("en", "howto-cubes-5", sets=1).endswith("One set; the most points wins.")
    assert i18n.say("en", "howto-cubes-5", sets=4).endswith("Four sets; the most points wins.")
    assert i18n.say("ja", "howto-cubes-5", sets=1).endswith("1セットで、得点の最も多い人の勝ち。")
    assert i18n.say("fr", "games-finished") == "Finished", "an unknown language falls back"
    assert i18n.say("en", "error-too-many-games", count=5, wait=timedelta(seconds=1)).endswith(
        "at most 5 a minute; try again in 1 second"
    )
    assert i18n.say("ja", "error-too-many-games", count=5, wait=timedelta(minutes=2)).endswith(
        "2 分後にやり直してください"
    )
    with pytest.raises(KeyError):
        i18n.say("en", "no-such-message")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en-US;q=0.8", "ja"),
        ("en-US,en;q=0.9,ja;q=0.8", "en"),
        ("fr, de;q=0.9", "en"),
        ("en;q=0.2, ja;q=0.7", "ja"),
        ("ja;q=nonsense, en", "en"),
        ("ja;q=0", "en"),
        ("x" * 10_000 + ",ja", "en"),
    ],
)
def test_accept_language_is_read_with_its_weights(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_errors_are_worded_in_the_asked_language(client: TestClient) -> None:
    english = client.get("/api/games/nope")
    assert english.status_code == 404
    assert english.json()["detail"] == "there is no game 'nope'"
    japanese = client.get("/api/games/nope", headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert japanese.status_code == 404
    assert japanese.json()["detail"] == "ゲーム「nope」はありません"
    by_query = client.get("/api/games/nope/replay?seat=9&lang=ja")
    assert by_query.json()["detail"] == "ゲーム「nope」はありません"


def test_a_refusal_with_counts_in_japanese(client: TestClient) -> None:
    body = {"game": "cubes", "options": {}, "seats": [{"kind": "bot"}]}
    made = client.post("/api/games", json=body, headers={"Accept-Language": "ja"})
    assert made.status_code == 400
    assert made.json()["detail"] == "このゲームの席は2つですが、1人分が指定されました"


def test_a_refusal_with_headers_keeps_them_in_either_language(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0, limits=Limits(games_per_minute=1)
    )
    body = {"game": "cubes", "options": {}, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    with TestClient(app) as client:
        assert client.post("/api/games", json=body).status_code == 201
        english = client.post("/api/games", json=body)
        japanese = client.post("/api/games", json=body, headers={"Accept-Language": "ja"})
    assert english.status_code == japanese.status_code == 429
    wait = int(english.headers["retry-after"])
    assert 0 < wait <= 60 and japanese.headers["retry-after"]
    assert english.json()["detail"].startswith("too many games made from your address: at most 1")
    assert japanese.json()["detail"].startswith(
        "このアドレスからのゲーム作成が多すぎます（1分間に1件まで）"
    )


def test_rules_pages_in_either_language(client: TestClient) -> None:
    english = client.get("/api/rules/cubed")
    assert english.status_code == 200 and english.text.startswith("# CUBED")
    assert "ブロッキングピース" not in english.text
    by_query = client.get("/api/rules/cubed?lang=ja")
    by_header = client.get("/api/rules/cubed", headers={"Accept-Language": "ja"})
    for japanese in (by_query, by_header):
        assert japanese.status_code == 200
        assert "ブロッキングピース" in japanese.text
    html = client.get("/api/rules/cubed?lang=ja&format=html")
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert html.text.startswith("<h1>CUBED</h1>") and "<table>" in html.text
    assert "ブロッキングピース" in html.text and "|---" not in html.text and "<a " not in html.text
    assert client.get("/api/rules/cubed?format=pdf").status_code == 400
    missing = client.get("/api/rules/chess", headers={"Accept-Language": "ja"})
    assert missing.status_code == 404
    assert missing.json()["detail"].startswith("「chess」のルールはありません")


#: families of keys the code builds from data (a game id, an option, a colour's name, a
#: refused name's `names.BadName` code)
BUILT_KEYS = (
    "pitch-", "option-", "choice-", "bot-", "howto-", "cubed-colour-", "unst-colour-",
    "cubes-colour-", "error-name-", "refusal-", "words-", "term-cubed-end-",
    "edition-", "error-field-", "variant-",
    "cli-click-", "cli-help-",  # click's words and the commands' help (tests/test_cli_words.py)
)  # fmt: skip


def _tutorial_keys() -> set[str]:
    """The keys the games' tutorial scripts word their steps with (games/*/tutorial.json)."""
    import cubegames
    from cubegames.core import tutorial

    found = (tutorial.load(cubegames.make(g)) for g in cubegames.GAMES)
    return {key for t in found if t is not None for key in t.catalog_keys()}


def test_every_message_is_used() -> None:
    """No dead words: each message is used by the code, referenced by another message, or
    one of a family the code builds from data."""
    english = _messages("en")
    source = (i18n.LOCALES / "en.ftl").read_text("utf-8")
    referenced = set(re.findall(r"\{ ([a-z][a-z0-9-]+) \}", source))
    unused = set(english) - set(_code_keys()) - referenced - _tutorial_keys()
    assert sorted(k for k in unused if not k.startswith(BUILT_KEYS)) == []


# -- refusals: every code the server and the games can give has its words ------------------

SRC = SERVER.parent
#: a server refusal: Refused(..., "code") or an error message error(..., "code"); a rule's
#: reason: Refusal("code", ...)
REFUSED = re.compile(
    r'\b(?:Refused|ChatRefused|error)\((?:[^()]|\([^()]*\))*?,\s*"([a-z-]+)"\s*,?\s*\)'
)
REASON = re.compile(r'\bRefusal\(\s*"([a-z0-9-]+)"')
#: codes worded for every game alike (refusals.js: the notation, the turn, the end)
SHARED = {"unreadable", "not-a-move", "turn", "over"}


def _server_codes() -> set[str]:
    """The codes of the server's refusals and error messages, but `closed` (the page says
    a closed connection itself) and `illegal` (a rule's reason, worded by its own code);
    and `spectator`, which the page gives itself too, and `chat`, a chat line's refusal
    when it names no other code (`chat.ChatRefused`)."""
    found = {c for path in SERVER.glob("*.py") for c in REFUSED.findall(path.read_text("utf-8"))}
    return (found - {"closed", "illegal"}) | {"spectator", "chat"}


def _rule_codes(game: str) -> set[str]:
    folder = SRC / "games" / game
    return {c for path in folder.rglob("*.py") for c in REASON.findall(path.read_text("utf-8"))}


def test_every_refusal_code_has_its_words_in_both_catalogs() -> None:
    """Every `Refused(..., "code")` of the server is `refusal-CODE`, every `Refusal("code",
    ...)` of a built-in game's rules `refusal-GAME-CODE` (static/refusals.js words them),
    in English and in Japanese; and nothing else is worded as a refusal."""
    server = _server_codes()
    assert {"turn", "late", "slow-down", "abandoned", "claim-early"} <= server, "the scan works"
    expected = {f"refusal-{c}" for c in server | (SHARED - {"unreadable", "not-a-move"})}
    for game in ("cubed", "unstackable", "stakd", "cubes"):
        codes = _rule_codes(game) - SHARED
        assert len(codes) >= 3, game
        expected |= {f"refusal-{game}-{c}" for c in codes}
    for lang in ("en", "ja"):
        messages = _messages(lang)
        assert sorted(expected - set(messages)) == [], f"missing in {lang}.ftl"
    worded = {k for k in _messages("en") if k.startswith("refusal-")}
    general = {"refusal-unknown-move", "refusal-not-allowed", "refusal-not-taken"}
    assert sorted(worded - expected - general - {"refusal-another-colour"}) == [], "unused"


def test_the_refusal_scan_sees_a_code(tmp_path: Path) -> None:
    text = 'raise Refused(seat, "too-soon")\nreturn Refusal(\n    "no-way", "x")'
    assert REFUSED.findall(text) == ["too-soon"] and REASON.findall(text) == ["no-way"]
    assert REFUSED.findall('send(error(f"no {x} now", "gone"))') == ["gone"]


# -- the engines' refusals of a request, worded by code ------------------------------------

JA = {"Accept-Language": "ja"}


@pytest.mark.parametrize(
    ("body", "english", "japanese"),
    [
        (
            {"game": "cubes", "options": {"players": 99}},
            "option players: must be from 2 to ",
            "」は2から",
        ),
        (
            {"game": "cubes", "options": {"colour": 1}},
            "cubes has no option 'colour' here; it takes ",
            "cubesには「colour」という設定はありません。",
        ),
        (
            {
                "game": "cubes",
                "options": {},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "nosuch"}],
            },
            "seats.1: unknown bot 'nosuch'; choose from ",
            "席1: 「nosuch」というボットはありません。",
        ),
        (
            {"game": "cubes", "options": {}, "clock": {"kind": "turn", "days": 2}},
            "clock.days: a turn-based game gives 1, 3 or 7 days a move (got 2)",
            "持ち時間（clock.days）: ターン制の1手の日数は1日、3日、7日のどれかです（指定: 2）",
        ),
        (
            {"game": "cubes", "options": {}, "clock": {"kind": "realtime", "minutes": -1}},
            "clock.minutes: cannot be negative (got -1)",
            "持ち時間（clock.minutes）に負の数は使えません（指定: -1）",
        ),
    ],
)
def test_an_engine_refusal_is_worded_in_the_asked_language(
    client: TestClient, body: dict[str, Any], english: str, japanese: str
) -> None:
    """A bad option, bot or time control: the engine's own English for an English
    request (as before), the catalog's Japanese by its code for a Japanese one, with the
    option named by its label, no engine English in it."""
    body = {"seats": [{"kind": "human"}, {"kind": "bot"}], **body}
    en = client.post("/api/games", json=body)
    ja = client.post("/api/games", json=body, headers=JA)
    assert en.status_code == ja.status_code == 400
    assert en.json()["detail"].startswith(english)
    said = ja.json()["detail"]
    assert japanese in said
    assert not re.search(r"\b(?:must|option|choose|unknown|got|seats)\b", said), said


def test_an_option_is_named_by_its_label() -> None:
    from cubegames.core.phrase import Worded
    from cubegames.server.i18n import Said

    exc = Worded("error-option-whole", "option players: must be a whole number", option="players")
    made = Said.of(400, exc, game="cubes")
    assert isinstance(made, Said) and made.phrase is not None
    assert (
        i18n.phrase("ja", made.phrase)
        == f"「{i18n.say('ja', 'option-players')}」は整数で指定してください"
    )
    plain = Said.of(400, ValueError("a game's own words"))
    assert not isinstance(plain, Said) and plain.detail == "a game's own words"
    theirs = Said.of(400, Worded("nim-too-many", "take at most 3"))  # a plug-in's own key
    assert not isinstance(theirs, Said) and theirs.detail == "take at most 3"


def test_a_bad_record_file_is_worded_in_the_asked_language(client: TestClient) -> None:
    """A file that is not JSON, not a record, or a record whose move the rules refuse: the
    engine's English for an English request, the catalog's Japanese for a Japanese one."""
    from tests.server.test_api import finished_record

    record = finished_record("cubed", {"players": 2, "rounds": 1})
    refused = {**record, "moves": ["pass", *record["moves"][1:]]}
    cases = [
        (b"{nope", "not valid JSON", "JSONとして読めません（1行2列）"),
        (b'{"game": "cubed"}', "this is not a game record", "これはゲームの記録ではありません"),
        (json.dumps(refused).encode(), "move 1 (pass) is refused: ", "1手目（pass）はルール上"),
    ]
    for raw, english, japanese in cases:
        en = client.post("/api/records", content=raw)
        ja = client.post("/api/records", content=raw, headers=JA)
        assert en.status_code == ja.status_code == 400
        assert en.json()["detail"].startswith(english), en.json()
        assert ja.json()["detail"].startswith(japanese), ja.json()


# -- nested reasons: a game's checks across options, a bot's own complaint, a request the
# -- models refuse, a record whose moves or result do not hold: by code and parameters ----

#: English words an engine's or pydantic's reason would bring into a Japanese answer
ENGLISH = re.compile(
    r"\b(?:must|the|is|needs|not|plays|players|variant|solo|rounds|takes|whole|number|"
    r"finite|field|required|Input|should|result|match|moves|refused|only|drawing|"
    r"after|or|and|of|game)\b"
)


def _refused(client: TestClient, path: str, **kwargs: Any) -> tuple[dict[str, Any], str]:
    """The English answer's body, and the Japanese answer's words, of a refused request; the
    two carry the same code and parameters."""
    en = client.post(path, **kwargs)
    ja = client.post(path, headers=JA, **kwargs)
    assert en.status_code == ja.status_code == 400, (en.json(), ja.json())
    assert en.json()["code"] == ja.json()["code"]
    assert en.json()["args"] == ja.json()["args"]
    said = ja.json()["detail"]
    assert not ENGLISH.search(said), said
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", said), said
    return en.json(), said


@pytest.mark.parametrize(
    ("options", "code", "english", "japanese"),
    [
        (
            {"players": 1, "variants": ["bridging"]},
            "error-variant-solo",
            "the bridging variant needs other players; solo has none",
            "ソロでは使えません",
        ),
        (
            {"players": 1, "rounds": 3},
            "error-solo-rounds",
            "solo play is a single game: rounds must be 1",
            "ラウンド数は1にしてください",
        ),
        (
            {"players": 9, "edition": "en"},
            "error-players-edition",
            "the en edition plays 1 to 6 players, not 9",
            "英語版で遊べるのは1〜6人です（指定: 9人）",
        ),
    ],
)
def test_a_games_check_across_options_is_worded_by_code(
    client: TestClient, options: dict[str, Any], code: str, english: str, japanese: str
) -> None:
    """CUBED's checks across options (a variant solo play lacks, solo's single round, the
    edition's seats): the engine's English in English, the catalog's Japanese by code."""
    players = options["players"]
    seats = [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)
    body = {"game": "cubed", "options": options, "seats": seats}
    en, said = _refused(client, "/api/games", json=body)
    assert (en["code"], en["detail"]) == (code, english)
    assert japanese in said


def test_a_stakd_solo_check_and_cubes_seats_are_worded_by_code(client: TestClient) -> None:
    body = {"game": "stakd", "options": {"players": 1, "points_to_win": 3}}
    en, said = _refused(client, "/api/games", json={**body, "seats": [{"kind": "human"}]})
    assert en["code"] == "error-solo-points" and "勝利に必要な得点は1" in said
    assert i18n.say("ja", "error-players-range", game="CUBES", low=2, high=10, players=11) == (
        "CUBESは2〜10人で遊ぶゲームです（指定: 11人）"
    )


@pytest.mark.parametrize(
    ("bot", "english", "japanese"),
    [
        (
            "mcts:iterations=0",
            "bot 'mcts:iterations=0': bot 'mcts': iterations must be a whole number from 1 to ",
            "iterations は1から10,000,000までの整数で指定してください",
        ),
        ("mcts:seconds=-1", "seconds must be a finite number above 0", "0より大きく"),
        ("mcts:iterations=5,seconds=1", "give iterations or seconds, not both", "どちらか一方"),
        ("mcts:tree=maybe", "tree must be true or false", "tree は true か false"),
        ("random:depth=3", "bot 'random' takes no parameter 'depth'", "「depth」という設定"),
    ],
)
def test_a_bots_own_complaint_is_worded_by_code(
    client: TestClient, bot: str, english: str, japanese: str
) -> None:
    """A bot's complaint about its settings (made by the bot itself) reaches a Japanese
    page in Japanese, inside the seat's and the settings' words."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
    body = {"game": "cubes", "options": {}, "seats": seats}
    en, said = _refused(client, "/api/games", json=body)
    assert en["code"] == "error-seat-bot" and english in en["detail"], en
    assert en["args"]["reason"]["say"][0] == "error-bot-settings"
    assert said.startswith("席1: ボット「") and japanese in said, said


@pytest.mark.parametrize(
    ("body", "code", "args", "japanese"),
    [
        (
            {"game": "cubes", "seats": [{"kind": "robot"}]},
            "error-field-choice",
            {"field": "seats.0.kind", "expected": "human, bot"},
            "項目 seats.0.kind は次のどれかにしてください: human, bot",
        ),
        (
            {"game": "cubes"},
            "error-field-missing",
            {"field": "seats"},
            "項目 seats がありません",
        ),
        (
            {"game": "cubes", "seats": [{"kind": "human", "name": "x" * 41}]},
            "error-field-long",
            {"field": "seats.0.name", "max-length": 40},
            "項目 seats.0.name は40文字までです",
        ),
        (
            {"game": "cubes", "seats": [{"kind": "human"}], "seed": "soon"},
            "error-field-kind",
            {"field": "seed", "kind": "whole"},
            "項目 seed は整数にしてください",
        ),
        (
            {"game": "cubes", "seats": [{"kind": "human"}], "colour": 3},
            "error-field-extra",
            {"field": "colour"},
            "colour という項目はありません",
        ),
        (
            {"game": "cubes", "seats": [{"kind": "human"}], "seed": -1},
            "error-field-at-least",
            {"field": "seed", "ge": 0},
            "項目 seed は0以上にしてください",
        ),
    ],
)
def test_a_request_the_models_refuse_is_worded_by_code(
    client: TestClient, body: dict[str, Any], code: str, args: dict[str, Any], japanese: str
) -> None:
    """What pydantic refuses (`seats.0.kind: Input should be 'human' or 'bot'`) reaches
    the page by code and parameters: pydantic's English for an English request (as before),
    the catalog's Japanese for a Japanese one."""
    en, said = _refused(client, "/api/games", json=body)
    assert (en["code"], en["args"]) == (code, args)
    assert en["detail"].startswith(f"{args['field']}: ")
    assert said == japanese


def test_every_pydantic_error_has_words() -> None:
    """Each error kind the handler words has its message, and an unknown kind falls back."""
    for key, _ in i18n.FIELD_ERRORS.values():
        assert i18n.bundle("ja").has_message(key), key
    odd = i18n.field_error({"type": "url_scheme", "loc": ("body", "x"), "msg": "bad"})
    assert odd.key == "error-field-invalid" and str(odd) == "x: bad"


def test_a_records_nested_reasons_are_worded_by_code(client: TestClient) -> None:
    """A record whose move the rules refuse (the rules' reason inside, by its code), whose
    result does not match its moves, or whose bot seat the bot refuses: Japanese through
    and through on a Japanese page."""
    from tests.server.test_api import finished_record

    record = finished_record("cubed", {"players": 2, "rounds": 1})
    refused = {**record, "moves": ["pass", *record["moves"][1:]]}
    en, said = _refused(client, "/api/records", content=json.dumps(refused).encode())
    assert en["code"] == "error-record-move-refused"
    assert en["args"]["reason"]["say"][0] == "refusal-cubed-pass-before-draw"
    assert "you may pass only after drawing" in en["detail"]
    assert said.startswith("1手目（pass）はルール上指せない手です: 先にピースを引いてください")
    wrong = {
        **record,
        "result": {**record["result"], "winners": [1 - record["result"]["winners"][0]]},
    }
    en, said = _refused(client, "/api/records", content=json.dumps(wrong).encode())
    assert en["code"] == "error-record-result" and "does not match its moves" in en["detail"]
    assert said == "記録が正しくありません。記録された結果が手順と合いません"
    bad_bot = {**record, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random:depth=2"}]}
    en, said = _refused(client, "/api/records", content=json.dumps(bad_bot).encode())
    assert en["code"] == "error-record-seat-bot"
    assert "「depth」という設定はありません" in said, said


def test_text_no_database_can_hold_is_worded_by_code(client: TestClient) -> None:
    """A name with a NUL character, in a new game and in a record: by code, the field named."""
    seats = [{"kind": "human", "name": "An\x00a"}, {"kind": "human"}]
    en, said = _refused(client, "/api/games", json={"game": "cubes", "seats": seats})
    assert (en["code"], en["args"]) == ("error-unstorable-nul", {"field": "seats.0.name"})
    assert said == "項目 seats.0.name には NUL 文字（\\u0000）を保存できません"
    from tests.server.test_api import finished_record

    record = finished_record()
    record["seats"][1] = {"kind": "bot", "bot": "random", "name": "\x00"}
    en, said = _refused(client, "/api/records", content=json.dumps(record).encode())
    assert en["code"] == "error-record-unstorable"
    assert en["detail"].startswith("bad record: seats.1.name: a NUL character")
    assert said.startswith("記録が正しくありません: 項目 seats.1.name には NUL 文字"), said


def test_a_game_that_no_longer_replays_is_worded_by_code(client: TestClient) -> None:
    """A stored game whose moves no longer replay (a row written behind the app's back):
    which move in English, the catalog's words in Japanese, by code."""
    from cubegames.server.storage import HUMAN, NewSeat, Store

    store: Store = client.app.state.server.store
    game_id, _tokens = store.create("unstackable", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    store.add_move(game_id, 1, 0, "K@2,2,2", None)
    en = client.get(f"/api/games/{game_id}/turn")
    ja = client.get(f"/api/games/{game_id}/turn", headers=JA)
    assert en.status_code == ja.status_code == 409
    assert en.json()["code"] == ja.json()["code"] == "error-game-broken"
    assert "no longer replays" in en.json()["detail"]
    assert ja.json()["detail"] == f"ゲーム「{game_id}」は保存された手順から再現できなくなっています"


def test_a_bot_spec_that_cannot_be_read_is_worded_by_code(client: TestClient) -> None:
    """Settings not written key=value, at a new table and in a record; a record's bot the
    project does not know."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "mcts:iterations"}]
    en, said = _refused(client, "/api/games", json={"game": "cubes", "seats": seats})
    assert en["args"]["reason"]["say"][0] == "error-bot-pairs"
    assert said == "席1: ボット「mcts:iterations」: 設定は key=value の形で書いてください"
    from tests.server.test_api import finished_record

    record = finished_record()
    for spec, japanese in [
        ("mcts:iterations", "設定は key=value の形で書いてください"),
        ("wizard", "「wizard」というボットはありません"),
    ]:
        record["seats"][1] = {"kind": "bot", "bot": spec}
        en, said = _refused(client, "/api/records", content=json.dumps(record).encode())
        assert en["code"] == "error-record-seat-bot", en
        assert japanese in said, said
