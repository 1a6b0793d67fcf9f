"""The page's ES modules, without a browser: each one parses, every module it imports is
shipped, it loads nothing from outside, and the page's patch code (static/protocol.js)
rebuilds exactly what the server's `diff` describes. Needs Node.js; skipped without it."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cubegames.server.protocol import diff

STATIC = Path(__file__).resolve().parents[2] / "src" / "cubegames" / "server" / "static"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
OWN = sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.parts)


@needs_node
@pytest.mark.parametrize("module", OWN, ids=lambda p: str(p.relative_to(STATIC)))
def test_each_module_parses(module: Path) -> None:
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--check", "--input-type=module"],
        input=module.read_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_every_import_is_a_shipped_file_and_nothing_comes_from_outside() -> None:
    for module in [*OWN, *sorted((STATIC / "vendor").rglob("*.js"))]:
        text = re.sub(r"/\*.*?\*/", "", module.read_text(), flags=re.S)  # not comments
        for target in re.findall(r"""(?:from|import)\s*["']([^"']+)["']""", text):
            assert target.startswith("."), f"{module.name} imports {target!r}"
            assert (module.parent / target).resolve().is_file(), f"{module.name}: {target}"
        assert (
            not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text) or "vendor" in module.parts
        )


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(5)
    if kind == 1:
        return rng.choice(["a", "b", None, True])
    if kind == 2:
        return rng.choice(["x", "yy", 0])
    if kind in (3, 4):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("pqrs"): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate(rng: random.Random, value: Any) -> Any:
    if isinstance(value, list) and value and rng.random() < 0.7:
        out = list(value)
        i = rng.randrange(len(out))
        choice = rng.randrange(3)
        if choice == 0:
            del out[i]
        elif choice == 1:
            out.insert(i, random_value(rng, 2))
        else:
            out[i] = mutate(rng, out[i])
        return out
    if isinstance(value, dict) and value and rng.random() < 0.7:
        out = dict(value)
        key = rng.choice(list(out))
        out[key] = mutate(rng, out[key])
        if rng.random() < 0.3:
            out.pop(rng.choice(list(out)))
        return out
    return random_value(rng, 1)


@needs_node
def test_the_page_applies_the_servers_patches_exactly() -> None:
    assert NODE is not None
    rng = random.Random(12)
    cases = []
    for _ in range(300):
        old = random_value(rng)
        new = mutate(rng, old)
        cases.append({"old": old, "new": new, "ops": diff(old, new)})
    script = (
        f"import {{ applyPatch }} from {json.dumps((STATIC / 'protocol.js').as_uri())};\n"
        "let text = ''; process.stdin.on('data', (d) => { text += d; });\n"
        "process.stdin.on('end', () => {\n"
        "  const out = JSON.parse(text).map((c) => applyPatch(c.old, c.ops));\n"
        "  process.stdout.write(JSON.stringify(out));\n"
        "});\n"
    )
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    rebuilt = json.loads(run.stdout)
    for case, got in zip(cases, rebuilt, strict=True):
        assert got == case["new"], case
