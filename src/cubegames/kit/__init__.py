"""What a game's own parts are built on: the layer between the shared core and the games.

A game package holds its rules and, beside them, its own parts (drawings, learning
encodings, batched environments, symmetries), found by `cubegames.kit.parts`. Those parts
import the helpers and base classes here, never the layers that use them (`render`, `rl`,
`sim`, `server`), so the arrows keep pointing one way: games -> kit -> core.

- `parts`: a game's own modules, found beside its game class;
- `terminal`: colours for rich drawings;
- `svg`: the SVG helpers every web drawing writes with;
- `encoding`, `observation`: the bases of action codecs and observers;
- `vector`: what the batched environments share (the step over every game, end rewards);
- `symmetry`: the base of symmetries and the identity; `square`: the group of the square
  (D4) that Unstackable and STAKD share;
- `report`, `stats`, `plots`: what a game's own sections of a simulation report are written
  with (win rates and spreads with their intervals, tables, matplotlib figures).
"""
