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

numba also reads a function's cache index, adds an entry and writes it back with no lock,
and writes the index before the data it names. Two processes compiling different
signatures of one function at once (two test workers, two `simulate --jobs` workers, a
server's bot processes) can leave an entry naming the other's data: the wrong machine code
for that signature, which crashes the process that loads it. Importing this module also
puts a lock file beside each index (`fcntl.flock`): held exclusively while numba saves an
entry and shared while it loads one (`lock_cache_files`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: every module with numba functions, relative to the package (tests/test_layers.py checks
#: that no other module compiles anything)
KERNELS = (
    "games/cubed/compiled_rules.py",
    "games/cubed/search_kernel.py",
    "games/cubed/batch_games.py",
    "games/stakd/playout_kernel.py",
    "games/unstackable/solver_kernel.py",
    "games/unstackable/vector_rules.py",
    "games/cubed/vector.py",
    "games/cubed/opponents.py",
    "games/unstackable/opponents.py",
    "games/unstackable/playout_kernel.py",
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
        if not folder.is_dir():
            # no cache yet (a fresh checkout): what numba writes here next is of these
            # sources, so stamp it now; else the next process would drop it all once
            with contextlib.suppress(OSError):
                folder.mkdir()
                mark.write_text(stamp)
            continue
        try:
            if mark.read_text() == stamp:
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


@contextlib.contextmanager
def _locked(cache_file: Any, exclusive: bool) -> Iterator[None]:
    """numba's `IndexDataCacheFile` `cache_file`'s lock, held for the block; no lock where
    the file cannot be made (a read-only install: numba saves nothing there either)."""
    import fcntl

    try:
        os.makedirs(cache_file._cache_path, exist_ok=True)
        handle = open(cache_file._index_path + ".lock", "a")  # noqa: SIM115 (held below)
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def lock_cache_files() -> None:
    """Make numba's cache saves and loads take the lock beside their index (once per
    process; nothing where `fcntl` is missing)."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return
    from numba.core.caching import IndexDataCacheFile

    if getattr(IndexDataCacheFile, "cubegames_locked", False):
        return
    save: Callable[..., None] = IndexDataCacheFile.save
    load: Callable[..., Any] = IndexDataCacheFile.load

    def locked_save(self: Any, key: Any, data: Any) -> None:
        with _locked(self, exclusive=True):
            save(self, key, data)

    def locked_load(self: Any, key: Any) -> Any:
        with _locked(self, exclusive=False):
            return load(self, key)

    IndexDataCacheFile.save = locked_save  # type: ignore[method-assign]
    IndexDataCacheFile.load = locked_load  # type: ignore[method-assign]
    IndexDataCacheFile.cubegames_locked = True  # type: ignore[attr-defined]


lock_cache_files()
if not _cache_dir_set():
    refresh()
