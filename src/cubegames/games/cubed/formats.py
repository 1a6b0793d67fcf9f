"""CUBED position formats: the version `to_dict` writes, and how older files are read.

Format 2 (field `"version": 2`) keeps the generator of every draw after the first deal in
the position (`"rng"`, a `core.splitmix` state written as hex digits, hidden from every
seat), so a later round's deal and a draw3 return depend on that state alone and not on
how the rest of the position is written. Games of chance versions 2 and 3 (`core.chance`)
write it alike: the versions differ only in the first deal, which a position file holds
already dealt, and draw every later number from that generator in the same way, so a
format 2 file written by either plays on the same (the format did not change with
version 3).

Format 1 (no `"version"` field) kept no generator: those draws are taken from a hash of the
position's JSON text at the moment of the draw (`core.chance.from_position`, with its hidden
`"secret"`, if it has one). That is chance version 1, which the web server's games made
before format 2 still play by: a format 1 file loads and stays format 1, every draw made as
the code before format 2 made it, so its future is the one it always had (`to_dict` writes
format 1 again, and `Cubed.new_state_as(seed, 1)` deals a game of that version).
docs/positions.md describes both formats.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cubegames.core import splitmix
from cubegames.core.errors import shown

#: the format `to_dict` writes for a game made today
VERSION = 2
#: the formats `state_from_dict` reads (format 1: files without a "version"; chance version
#: 1 writes format 1, versions 2 and 3 format 2)
READS = (1, 2)


def read_chance(data: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """The generator state of a position file of any format `READS` (None for format 1,
    which draws from its own hash) and its `"secret"` (format 1 only);
    ValueError names a bad `"version"`, `"rng"` or `"secret"` field."""
    version = data.get("version", 1)
    if "version" in data and (type(version) is not int or version != VERSION):
        # format 1 files have no "version" field at all
        raise ValueError(
            f'field "version": {shown(version)} is not a CUBED position format this version reads '
            f'({VERSION}, or no "version" for format 1)'
        )
    if version == 1:
        if "rng" in data:
            raise ValueError('field "rng": a format 1 position (no "version") has no generator')
        secret = data.get("secret")
        if secret is not None and not (
            isinstance(secret, str) and re.fullmatch(r"[0-9a-f]{32}", secret)
        ):
            raise ValueError('field "secret": must be 32 lowercase hex digits')
        return None, secret
    if "secret" in data:
        raise ValueError(
            'field "secret": only format 1 positions have one (format 2 keeps "rng" instead)'
        )
    text = data.get("rng")
    if not isinstance(text, str):
        raise ValueError('field "rng" is missing or not a string')
    try:
        return splitmix.from_text(text), None
    except ValueError as exc:
        raise ValueError(f'field "rng": {exc}') from None
