"""numba's cache is checked against each function's own file only; `core.compiled` drops
the kernels' cache indexes whenever any kernel source changed since they were written."""

from __future__ import annotations

import re
from pathlib import Path

import cubegames
from cubegames.core import compiled

PACKAGE = Path(cubegames.__file__).parent


def _tree(root: Path) -> None:
    """A package-shaped tree holding every kernel source and an old cache beside each."""
    for name in compiled.KERNELS:
        source = root / name
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {name}\n")
        cache = source.parent / "__pycache__"
        cache.mkdir(exist_ok=True)
        (cache / f"{source.stem}.f-10.py311.nbi").write_bytes(b"index")
        (cache / f"{source.stem}.f-10.py311.1.nbc").write_bytes(b"data")
    (root / "games/cubed/__pycache__/state.cpython-311.pyc").write_bytes(b"pyc")


def _indexes(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*.nbi")}


def test_caches_of_unknown_sources_are_dropped_once(tmp_path: Path) -> None:
    _tree(tmp_path)
    dropped = compiled.refresh(tmp_path)
    assert len(dropped) == len(compiled.KERNELS)
    assert not _indexes(tmp_path)
    # the data files and Python's own caches are left; numba rewrites the data on a miss
    assert len(list(tmp_path.rglob("*.nbc"))) == len(compiled.KERNELS)
    assert (tmp_path / "games/cubed/__pycache__/state.cpython-311.pyc").exists()
    (tmp_path / "games/cubed/__pycache__/kernel.g-20.py311.nbi").write_bytes(b"new")
    assert compiled.refresh(tmp_path) == []
    assert _indexes(tmp_path) == {"games/cubed/__pycache__/kernel.g-20.py311.nbi"}


def test_a_fresh_checkout_keeps_the_caches_its_first_process_writes(tmp_path: Path) -> None:
    """No `__pycache__` yet: the first process stamps the folder before numba fills it, so
    the second keeps what the first compiled (`cubegames compile`, then the server or the
    test workers) instead of dropping it all and compiling everything again."""
    for name in compiled.KERNELS:
        source = tmp_path / name
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {name}\n")
    assert compiled.refresh(tmp_path) == []
    for name in compiled.KERNELS:  # what numba writes in the first process
        path = tmp_path / name
        (path.parent / "__pycache__" / f"{path.stem}.f-10.py311.nbi").write_bytes(b"index")
    assert compiled.refresh(tmp_path) == []
    assert len(_indexes(tmp_path)) == len(compiled.KERNELS)


def test_a_change_to_any_kernel_drops_every_kernels_cache(tmp_path: Path) -> None:
    """The case numba misses: only the callee's file changed (here the CUBED kernel), yet
    the batch and the RL environment, which compile its functions in, must recompile."""
    _tree(tmp_path)
    compiled.refresh(tmp_path)
    for name in compiled.KERNELS:
        path = tmp_path / name
        (path.parent / "__pycache__" / f"{path.stem}.h-30.py311.nbi").write_bytes(b"index")
    (tmp_path / "games/cubed/compiled_rules.py").write_text("# changed\n")
    dropped = {str(p.relative_to(tmp_path)) for p in compiled.refresh(tmp_path)}
    assert dropped == {
        str(Path(name).parent / "__pycache__" / f"{Path(name).stem}.h-30.py311.nbi")
        for name in compiled.KERNELS
    }


def test_every_module_that_compiles_is_a_listed_kernel() -> None:
    """A module with numba functions that `KERNELS` leaves out would not be refreshed."""
    compiling = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if re.search(r"^@(njit|jit|inline|k\.jit|k\.inline)\b", path.read_text(), re.M)
    }
    assert compiling == set(compiled.KERNELS)


def _probe(lock: Path) -> str:
    """How the lock file `lock` is held by others now: "exclusive", "shared" or "free"."""
    import fcntl

    with lock.open("a") as other:  # a second open file: flock sees another holder
        try:
            fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return "exclusive"
        fcntl.flock(other, fcntl.LOCK_UN)
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "shared"
        fcntl.flock(other, fcntl.LOCK_UN)
        return "free"


def test_numba_saves_a_cache_entry_under_an_exclusive_lock_and_loads_under_a_shared_one(
    tmp_path: Path,
) -> None:
    """Two processes compiling two signatures of one function at once would otherwise
    leave an index entry naming the other's data (the wrong code, a crash on its call)."""
    from numba.core.caching import IndexDataCacheFile

    cache = IndexDataCacheFile(str(tmp_path), "kernel.f-10.py311", ("stamp", 1))
    lock = tmp_path / "kernel.f-10.py311.nbi.lock"
    seen: list[str] = []
    save_data, load_data = cache._save_data, cache._load_data

    def saving(name: str, data: object) -> None:
        seen.append(_probe(lock))
        save_data(name, data)

    def loading(name: str) -> object:
        seen.append(_probe(lock))
        return load_data(name)

    cache._save_data = saving  # type: ignore[method-assign]
    cache._load_data = loading  # type: ignore[method-assign]
    cache.save("signature", {"code": b"machine code"})
    assert cache.load("signature") == {"code": b"machine code"}
    assert seen == ["exclusive", "shared"]
    assert _probe(lock) == "free"
