"""CUBED position formats: the version `to_dict` writes, and how older files are read.

Format 2 (field `"version": 2`) keeps the generator of every draw after the first deal in
the position (`"rng"`, a `core.splitmix` state written as hex digits, hidden from every
seat), so a later round's deal and a draw3 return depend on that state alone and not on
how the rest of the position is written.

Format 1 (no `"version"` field) kept no generator: those draws were taken from a hash of
the position's JSON text at the moment of the draw (with its hidden `"secret"`, if it had
one). A format 1 file still loads, and writes back exactly as it was read (`to_dict` of it
is the file) until its first draw after the first deal: then, once, the state takes a
generator derived from the position as it stands at that moment (`v1_generator`), and from
there on it plays and saves as format 2. The derivation is fixed, so a format 1 position
always continues the same way, however often it is saved and loaded before that draw, but
not with the draws the old code would have made. docs/positions.md describes both formats.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from cubegames.core import splitmix

#: the format `to_dict` writes
VERSION = 2
#: the formats `state_from_dict` reads (format 1: files without a "version")
READS = (1, 2)


def v1_generator(data: Mapping[str, Any]) -> int:
    """The generator state a format 1 position takes at its first draw, `data` being the
    position then (`to_dict()`, format 1): BLAKE2b over its JSON text (keys sorted, no
    spaces) with the personalisation `cubed-format-1`.
    A file with a `"secret"` (a deal of the web server, whose later draws no seat may work
    out) gets a keyed state, its 128-bit key the digest, so the secret's entropy carries
    over; any other file a SplitMix64 state, the digest's first 8 bytes (big-endian).

    >>> old = {"game": "cubed", "round": 1}
    >>> v1_generator(old) == v1_generator(dict(old)), v1_generator(old) < splitmix.KEYED
    (True, True)
    >>> v1_generator(dict(old, secret="0" * 32)) >= splitmix.KEYED
    True
    """
    secret = data.get("secret")
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=16, person=b"cubed-format-1").digest()
    if secret is None:
        return int.from_bytes(digest[:8], "big")
    return (int.from_bytes(digest, "big") or 1) << 64


def read_chance(data: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """The generator state of a position file of any format `READS` (None for format 1,
    whose generator is derived at its first draw) and its `"secret"` (format 1 only);
    ValueError names a bad `"version"`, `"rng"` or `"secret"` field."""
    version = data.get("version", 1)
    if "version" in data and (type(version) is not int or version != VERSION):
        # format 1 files have no "version" field at all
        raise ValueError(
            f'field "version": {version!r} is not a CUBED position format this version reads '
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
