"""The built-in games, one subpackage each, registered in the entry-point group
`cubegames.games` (pyproject.toml); each game module declares its facts at its top."""
