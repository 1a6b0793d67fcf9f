"""Numba's on-disk cache, kept true to the sources of every kernel.

numba (`cache=True`) checks a cached function against its own file only. A kernel that
calls a function of another file compiles that function into itself, so when only the
other file changes (a `git pull`, a merge, an edit), the caller's cache would go on running
the old copy. Importing this module, which every kernel module does first, compares a
digest of all the kernel sources with the one written beside their caches; when it differs
(or none was written) it drops numba's cache indexes of those modules, so each kernel is
compiled afresh on its first call, once.

An installed wheel is replaced whole on an upgrade, which changes every file's stamp, so
this matters for checkouts. With `NUMBA_CACHE_DIR` set, numba keeps its caches there and
this module leaves them alone.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: every module with numba functions, relative to the package (tests/test_layers.py checks
#: that no other module compiles anything)
KERNELS = (
    "games/cubed/compiled_rules.py",
    "games/cubed/search_kernel.py",
    "games/cubed/batch_games.py",
    "games/stakd/playout_kernel.py",
    "games/unstackable/solver_kernel.py",
    "games/unstackable/vector_rules.py",
    "games/unstackable/playout_kernel.py",
    "rl/vector/cubed.py",
)
STAMP = "cubegames-kernels.stamp"
PACKAGE = Path(__file__).resolve().parent.parent


def digest(root: Path = PACKAGE) -> str:
    """A digest of the text of every kernel source under `root`."""
    h = hashlib.sha256()
    for name in KERNELS:
        h.update(name.encode())
        try:
            h.update((root / name).read_bytes())
        except OSError:
            h.update(b"-")
    return h.hexdigest()


def refresh(root: Path = PACKAGE) -> list[Path]:
    """Drop the cache indexes of the kernels under `root` unless they were written for
    the sources as they are now; returns the indexes dropped. Never raises: a cache that
    cannot be written (a read-only install) is numba's to handle."""
    stamp = digest(root)
    dropped: list[Path] = []
    for folder in sorted({(root / name).parent / "__pycache__" for name in KERNELS}):
        mark = folder / STAMP
        try:
            if not folder.is_dir() or mark.read_text() == stamp:
                continue
        except OSError:
            pass  # no stamp yet: the caches there are of unknown sources
        stems = {Path(n).stem for n in KERNELS if (root / n).parent / "__pycache__" == folder}
        try:
            for index in folder.glob("*.nbi"):
                if index.name.split(".", 1)[0] in stems:
                    index.unlink(missing_ok=True)
                    dropped.append(index)
            mark.write_text(stamp)
        except OSError:
            continue
    return dropped


def _cache_dir_set() -> bool:
    from numba.core import config

    return bool(getattr(config, "CACHE_DIR", ""))


if not _cache_dir_set():
    refresh()
