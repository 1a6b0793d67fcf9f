"""The terminal game loop: people type moves, bots answer, the table is redrawn.

Every sentence is the catalogs' (`kit.terminal`), in the language the game was
started in (`TerminalGame(..., lang="ja")`, `cubegames play --lang ja`); move notation,
the commands typed (`?`, `help`, `quit`) and bot names as given stay as they are.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.game import Game, State
from cubegames.kit.terminal import bot as bot_name
from cubegames.kit.terminal import listed, refused, seat, speaking, t, worded
from cubegames.render import web
from cubegames.render.terminal import draw, tell

#: full-width ASCII (U+FF01 to U+FF5E) and the ideographic space, as a Japanese input
#: method types them, to ASCII: `？`, `１２`, `ｑｕｉｔ`, `ＧＰＹ＠１，－１` are read as typed
#: in ASCII (nothing else is changed: `²` is still no number)
FULL_WIDTH = {0xFF01 + i: 0x21 + i for i in range(0x5E)} | {0x3000: 0x20}


class TerminalGame:
    """One game at one keyboard: `humans` are seats typed here, the rest are bots; every
    sentence in `lang` (one of `cubegames.kit.words.LANGUAGES`)."""

    def __init__(
        self,
        game: Game[Any],
        humans: set[int],
        bots: Sequence[str],
        seed: int | None = None,
        console: Console | None = None,
        lang: str = "en",
    ) -> None:
        self.game = game
        self.humans = humans
        self.lang = lang
        self.seed = random.randrange(1_000_000) if seed is None else seed
        self.console = console or Console(highlight=False)
        others = [s for s in range(game.players) if s not in humans]
        self.bots: dict[int, Bot] = {}
        self.bot_names: dict[int, str] = {}
        for i, s in enumerate(others):
            name = bots[min(i, len(bots) - 1)]
            self.bots[s] = cubegames.bot(name, seed=self.seed + s)
            self.bot_names[s] = name
        # the one seat that reads what is said at this keyboard ("you"), or None when
        # several people take turns at it: then the log tells the moves as a spectator
        # would see them, keeping each hand from the others
        self.reader = min(humans) if len(humans) == 1 else None
        self.played: list[str] = []
        # the log's lines since the last person's turn began, said again to the next person
        # after the screen is cleared for them (hot-seat)
        self.recent: list[tuple[str, str]] = []

    def run(self) -> State[Any]:
        with speaking(self.lang):
            return self._run()

    def _say(self, text: str, style: str = "") -> None:
        """A line as it is (catalog words are never read as rich markup)."""
        self.console.print(Text(text, style=style))

    def _run(self) -> State[Any]:
        state = self.game.new_state(seed=self.seed)
        # The seed fixes every hand and the bag's order: told only once the game is over.
        self._say(t("term-start", game=self.game.id), "bold")
        try:
            return self._play(state)
        except KeyboardInterrupt:  # Ctrl-C: a line of its own after "^C", then the end
            self.console.print()
            self._say(t("term-game-left"))
            raise
        finally:
            self._say(t("term-seed", seed=str(self.seed)))

    def _play(self, state: State[Any]) -> State[Any]:
        last_human: int | None = None
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            if mover in self.bots:
                move = self.bots[mover].choose(state)
                state.play(move)
                self._log(state, mover, str(move), self.bot_names[mover])
                continue
            if len(self.humans) > 1 and last_human != mover:
                self._hand_over(cleared=last_human is not None)
                self._say(t("term-hand-over", who=seat(mover)), "bold")
                if self._ask("") is None:
                    return state
                for text, style in self.recent:  # what was played since, all public
                    self._say(text, style)
            last_human = mover
            if not self._human_turn(state, mover):
                self._say(t("term-game-left"))
                return state
        self._final(state)
        return state

    def _hand_over(self, cleared: bool) -> None:
        """Before the keyboard passes to another person: with `cleared`, clear the screen,
        and the scrollback where the terminal keeps one (the last person's hand must not
        stay in sight); else, or where the output is no terminal, a blank line."""
        out = self.console
        if cleared and out.is_terminal and not out.is_dumb_terminal:
            out.clear()
            out.file.write("\x1b[3J")  # the scrollback (xterm and its kin)
            out.file.flush()
        else:
            out.print()

    def _ask(self, prompt: str) -> str | None:
        """A line typed, or None at the end of the input: also when there is no standard
        input at all (`cubegames play GAME <&-`), where `input()` raises RuntimeError."""
        if sys.stdin is None:
            return None
        try:
            return self.console.input(prompt, markup=False)
        except EOFError:
            return None

    def _human_turn(self, state: State[Any], mover: int) -> bool:
        out = self.console
        moves = state.legal_moves()
        self.recent = []
        out.print()
        out.print(draw(self.game, state.view(mover), moves))
        if len(moves) <= 30:
            self._list(moves)
        else:
            self._say(t("term-many-moves", count=len(moves)))
        while True:
            text = self._ask(t("term-prompt", who=seat(mover)) + " ")
            if text is None:
                return False
            text = text.translate(FULL_WIDTH).strip()
            if text in ("quit", "exit"):
                return False
            if text in ("help", "h"):
                self._help()
                continue
            if text in ("?", "moves", "list"):
                self._list(moves)
                continue
            if not text:
                continue
            if text.isascii() and text.isdigit():  # "²" is a digit too, but no number
                index = int(text) if len(text) <= 9 else 0  # Python reads no 5000 digits
                if not 1 <= index <= len(moves):
                    typed = index if index else f"{text[:9]}…"
                    self._say(t("term-no-such-move", index=typed, count=len(moves)), "red")
                    continue
                text = str(moves[index - 1])
            try:
                state.play(text, seat=mover)
            except cubegames.IllegalMove as exc:
                why = refused(self.game.id, exc.refusal, self._palette())
                self._say(t("term-not-allowed", reason=why), "red")
                continue
            self._log(state, mover, str(self.game.parse_move(text)), None)
            return True

    def _help(self) -> None:
        self._say(t("term-help"))
        commands = [
            ("?", t("term-help-list")),
            ("help", t("term-help-help")),
            ("quit", t("term-help-quit")),
        ]
        for command, words in commands:
            self._say(f"  {command:<8} {words}")

    def _palette(self) -> dict[str, Any]:
        """The game's colours by letter (the rules' reasons name colours by them)."""
        try:
            palette = web.info(self.game).get("palette")
        except Exception:  # a plug-in game's drawing may know no colours
            return {}
        return palette if isinstance(palette, dict) else {}

    def _log(self, state: State[Any], mover: int, move: str, bot: str | None) -> None:
        """The move just played, in the log: who played what (its notation where the reader
        may see it), then what it did in words."""
        earlier = list(self.played)
        self.played.append(move)
        said = web.described(self.game, move, mover, self.reader, earlier)
        # a plug-in that words its moves itself (`MoveWords`) gives no phrase: its words
        words = (
            worded(said, self.reader)
            if said is not None
            else web.words(self.game, move, mover, self.reader, earlier)
        )
        if web.visible(self.game, move, mover, self.reader):
            who = seat(mover)
            if bot is None:
                self._logged(t("term-plays", who=who, move=move))
            else:
                self._logged(t("term-bot-plays", who=who, bot=bot_name(bot), move=move))
            self._logged(f"  {words}", "grey50")
        else:  # a secret move: only what the reader may know of it
            self._logged(words)
        self._tell(state)

    def _logged(self, text: str, style: str = "") -> None:
        """A line of the log: said, and kept for the next person at this keyboard."""
        self._say(text, style)
        self.recent.append((text, style))

    def _tell(self, state: State[Any]) -> None:
        """Say what the last move did, when the game has more to say than its notation."""
        view = state.public_view() if self.reader is None else state.view(self.reader)
        told = tell(self.game, view)
        if told:
            self._logged(f"  {told}")

    def _list(self, moves: Sequence[Any]) -> None:
        cells = [Text(f"{i:>3} {m}") for i, m in enumerate(moves, 1)]
        self.console.print(Columns(cells, padding=(0, 2)))

    def _final(self, state: State[Any]) -> None:
        out = self.console
        reader = min(self.humans)
        out.print()
        out.print(draw(self.game, state.view(reader), ()))
        scores = listed(
            [t("term-score", who=seat(s), points=v) for s, v in enumerate(state.scores())]
        )
        winners = state.winners()
        out.print()
        self._say(t("term-game-over", scores=scores), "bold")
        if not winners:
            self._say(t("term-nobody-won"))
        else:
            names = listed([seat(w) for w in winners])
            self._say(t("term-winners", names=names, count=len(winners)), "bold green")
