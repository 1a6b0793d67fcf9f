"""The report on simulation results: one self-contained HTML page, and the same numbers as
tables in the terminal.

The page embeds its plots as PNG data, so it can be mailed or opened offline. It starts with
the answer ("who wins more, and by how much"), then, when the results hold several settings,
compares them side by side, then gives each setting its seat, bot, score and length tables
and plots, and the game's own section (CUBED leftovers against the points chart; CUBES exact
odds beside the simulated rolls).
"""

from __future__ import annotations

import base64
import datetime
import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cubegames.core.registry import title as game_title
from cubegames.sim import analysis, plots
from cubegames.sim.analysis import Setting, Table
from cubegames.sim.lab import seat_balance_table

if TYPE_CHECKING:
    from rich.console import Console


STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; color: #212529; max-width: 70rem;
       margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.4rem;
     border-bottom: 2px solid #dee2e6; padding-bottom: .2rem; }
h3 { margin-top: 1.8rem; font-size: 1.2rem; } h4 { margin: 1.2rem 0 .2rem; }
.meta { color: #868e96; } .headline { background: #f1f3f5; border-left: 4px solid #1c7ed6;
     padding: .6rem 1rem; } .headline p { margin: .3rem 0; }
table { border-collapse: collapse; margin: .6rem 0; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .7rem; border-bottom: 1px solid #e9ecef; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; min-width: 9rem;
         max-width: 40rem; overflow-wrap: anywhere; } th { background: #f8f9fa; }
.wide { overflow-x: auto; max-width: 100%; }
.note { color: #868e96; font-size: .85rem; margin-top: 0; } img { max-width: 100%; }
"""


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table.rows
    )
    note = f'<p class="note">{html.escape(table.note)}</p>' if table.note else ""
    # a table wider than the page scrolls inside its own box instead of being cut off
    table_html = f"<div class='wide'><table><tr>{head}</tr>{body}</table></div>"
    return f"<h4>{html.escape(table.title)}</h4>{table_html}{note}"


def _image(data: bytes, alt: str) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return f'<p><img alt="{html.escape(alt)}" src="data:image/png;base64,{encoded}"></p>'


#: the parts of a setting's report, in order, and their headings
TOPICS = {
    "wins": "Who wins",
    "length": "Scores and game length",
    "game": "{game} in detail",
    "moves": "Moves played",
    "metrics": "Design metrics",
    "time": "Thinking time",
}


def _plots(setting: Setting) -> list[tuple[str, str, Callable[[Setting], bytes]]]:
    """(topic, description, drawing function) of each plot of a setting."""
    out: list[tuple[str, str, Callable[[Setting], bytes]]] = [
        ("wins", "win rate by seat", plots.seats)
    ]
    if len(setting.bots) > 1:
        out.append(("wins", "win rate of each bot in each seat", plots.bot_seats))
    out.append(("length", "scores and game length", plots.distributions))
    # the game's own, listed by its report section (`GameInfo.report`)
    out += [("game", caption, draw) for caption, draw in setting.extras.get("plots", ())]
    return out


def _setting_html(setting: Setting) -> list[str]:
    parts = []
    drawn = _plots(setting)
    for topic, heading in TOPICS.items():
        tables = [t for t in setting.tables if t.topic == topic]
        images = [(alt, draw) for t, alt, draw in drawn if t == topic]
        if not tables and not images:
            continue
        name = game_title(setting.game)
        parts.append(f"<h3>{html.escape(heading.format(game=name))}</h3>")
        parts.extend(_image(draw(setting), alt) for alt, draw in images)
        parts.extend(_table_html(t) for t in tables)
    return parts


def title(items: Sequence[Setting]) -> str:
    """`CUBED: 10,000 games` or `CUBED: 4 settings, 12,000 games`."""
    games = sorted({game_title(s.game) for s in items})
    total = sum(s.games for s in items)
    what = f"{len(items)} settings, " if len(items) > 1 else ""
    return f"{' and '.join(games)}: {what}{total:,} games"


def html_report(
    items: Sequence[Setting], sources: Sequence[str], extra: Sequence[Table] = ()
) -> str:
    """The whole page; `extra` tables (such as a sweep's) come right after the answer."""
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title(items))}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title(items))}</h1>",
        f"<p class='meta'>From {html.escape(', '.join(sources))} · made "
        f"{datetime.date.today().isoformat()} by cubegames report</p>",
        "<div class='headline'>",
    ]
    for s in items:
        prefix = f"<strong>{html.escape(s.label)}</strong>: " if len(items) > 1 else ""
        for line in s.headline:
            parts.append(f"<p>{prefix}{html.escape(line)}</p>")
    parts.append("</div>")
    parts.extend(_table_html(t) for t in extra)
    if len(items) > 1:
        parts.append("<h2 id='comparison'>Comparison</h2>")
        parts.append(_image(plots.comparison(items), "settings compared"))
        parts.append(_table_html(analysis.comparison(list(items))))
        parts.append(_image(plots.seat_balance(items), "seat balance of every setting"))
        parts.append(_table_html(seat_balance_table(items)))
    for i, s in enumerate(items, 1):
        parts.append(f"<h2 id='setting-{i}'>{html.escape(s.label)}</h2>")
        parts.append(f"<p class='meta'>{html.escape(s.description)} · {s.games:,} games</p>")
        parts.extend(_setting_html(s))
    parts.append(
        "<h2 id='reading'>Reading this report</h2><p>A win counts 1, a win shared by k "
        "players 1/k each. Win rates carry 95% Wilson score intervals; means carry "
        "normal-approximation 95% intervals. Two rates whose intervals do not overlap differ "
        "beyond reasonable doubt; overlapping intervals call for more games. With seats "
        "rotating, every bot sits in every seat equally often, so the seat figures measure "
        "the seats and the bot figures the bots.</p></body></html>"
    )
    return "\n".join(parts)


def _rich_table(table: Table) -> object:
    from rich.table import Table as RichTable

    out = RichTable(title=table.title, caption=table.note or None, title_justify="left")
    for i, column in enumerate(table.columns):
        out.add_column(column, justify="left" if i == 0 else "right", overflow="fold")
    for row in table.rows:
        out.add_row(*row)
    return out


def print_report(items: Sequence[Setting], console: Console, extra: Sequence[Table] = ()) -> None:
    """The report's numbers as terminal tables (no plots)."""
    console.print(f"[bold]{title(items)}[/bold]")
    for s in items:
        prefix = f"[bold]{s.label}[/bold]: " if len(items) > 1 else ""
        for line in s.headline:
            console.print(prefix + line, highlight=False)
    for table in extra:
        console.print(_rich_table(table))
    if len(items) > 1:
        console.print(_rich_table(analysis.comparison(list(items))))
        console.print(_rich_table(seat_balance_table(items)))
    for s in items:
        console.rule(s.label)
        console.print(s.description, style="dim", highlight=False)
        for table in s.tables:
            console.print(_rich_table(table))
