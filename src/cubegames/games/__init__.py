"""One subpackage per game; each exposes `GAME_CLASS`."""
