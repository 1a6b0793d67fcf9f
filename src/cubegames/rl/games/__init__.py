"""Per-game action codecs and observers: `Codec` and `Observer` in one module per game id.

`cubegames.rl.encoding.codec(game)` and `cubegames.rl.observation.observer(game)` find them
by the game's id, so a new game adds a module here and nothing else changes.
"""
