"""The terminal game loop: people type moves, bots answer, the table is redrawn."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.game import Game, State
from cubegames.render.terminal import draw, tell

HELP = """Type a move in notation, or the number of a move in the list.
  ?        list the legal moves        help   this text
  quit     leave the game"""


class TerminalGame:
    """One game at one keyboard: `humans` are seats typed here, the rest are bots."""

    def __init__(
        self,
        game: Game[Any],
        humans: set[int],
        bots: Sequence[str],
        seed: int | None = None,
        console: Console | None = None,
    ) -> None:
        self.game = game
        self.humans = humans
        self.seed = random.randrange(1_000_000) if seed is None else seed
        self.console = console or Console(highlight=False)
        others = [s for s in range(game.players) if s not in humans]
        self.bots: dict[int, Bot] = {}
        self.bot_names: dict[int, str] = {}
        for i, seat in enumerate(others):
            name = bots[min(i, len(bots) - 1)]
            self.bots[seat] = cubegames.bot(name, seed=self.seed + seat)
            self.bot_names[seat] = name

    def run(self) -> State[Any]:
        state = self.game.new_state(seed=self.seed)
        out = self.console
        out.print(f"[bold]{self.game.id}[/] · seed {self.seed} · type [bold]help[/] for help")
        last_human: int | None = None
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if seat in self.bots:
                move = self.bots[seat].choose(state)
                state.play(move)
                out.print(f"Seat {seat} ({self.bot_names[seat]}) plays [bold]{move}[/]")
                self._tell(state)
                continue
            if len(self.humans) > 1 and last_human != seat:
                out.print(f"\n[bold]Seat {seat}[/], your turn. Others look away; press Enter.")
                if self._ask("") is None:
                    return state
            last_human = seat
            if not self._human_turn(state, seat):
                out.print("Game left unfinished.")
                return state
        self._final(state)
        return state

    def _ask(self, prompt: str) -> str | None:
        try:
            return self.console.input(prompt)
        except EOFError:
            return None

    def _human_turn(self, state: State[Any], seat: int) -> bool:
        out = self.console
        moves = state.legal_moves()
        out.print()
        out.print(draw(self.game, state.view(seat), moves))
        if len(moves) <= 30:
            self._list(moves)
        else:
            out.print(f"{len(moves)} legal moves; type [bold]?[/] to list them.")
        while True:
            text = self._ask(f"Seat {seat} move> ")
            if text is None:
                return False
            text = text.strip()
            if text in ("quit", "exit"):
                return False
            if text in ("help", "h"):
                out.print(HELP)
                continue
            if text in ("?", "moves", "list"):
                self._list(moves)
                continue
            if not text:
                continue
            if text.isdigit():
                index = int(text)
                if not 1 <= index <= len(moves):
                    out.print(f"[red]There is no move {index}; choose 1 to {len(moves)}.[/]")
                    continue
                text = str(moves[index - 1])
            try:
                state.play(text, seat=seat)
            except cubegames.IllegalMove as refusal:
                out.print(f"[red]Not allowed:[/] {refusal}")
                continue
            out.print(f"Seat {seat} plays [bold]{text}[/]")
            self._tell(state)
            return True

    def _tell(self, state: State[Any]) -> None:
        """Say what the last move did, when the game has more to say than its notation."""
        said = tell(self.game, state.view(min(self.humans)))
        if said:
            self.console.print(f"  {said}")

    def _list(self, moves: Sequence[Any]) -> None:
        cells = [Text(f"{i:>3} {m}") for i, m in enumerate(moves, 1)]
        self.console.print(Columns(cells, padding=(0, 2)))

    def _final(self, state: State[Any]) -> None:
        out = self.console
        seat = min(self.humans)
        out.print()
        out.print(draw(self.game, state.view(seat), ()))
        scores = ", ".join(f"seat {s}: {v:g}" for s, v in enumerate(state.scores()))
        winners = state.winners()
        out.print(f"\n[bold]Game over.[/] Scores: {scores}")
        if not winners:
            out.print("Nobody won.")
        else:
            names = " and ".join(f"seat {w}" for w in winners)
            out.print(f"[bold green]Winner: {names}[/]")
