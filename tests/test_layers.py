"""The house stays as docs/design.md draws it: layers import only downwards, no module imports
another that imports it back, the engine and catalog never reach the CLI, typer or rich, and
`explain` on a file imports none of the heavy libraries."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from conftest import isolated_env

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "verl_doctor"
# Lowest first; a module may import its own layer and those before it.
LAYERS = ("common", "catalog", "engine", "render", "authoring", "check", "env", "cli")
# Same height, but neither may import the other.
SIBLINGS = {("check", "env"), ("env", "check")}
UI_LIBRARIES = {"typer", "click", "rich"}
# Layers that never print with rich nor parse a command line (env draws its own table).
NO_UI = ("common", "catalog", "engine", "authoring", "check")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every module of the package -> the modules it imports, at any depth of its code."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.level == 0, f"{name}: relative import (the package imports absolutely)"
                found.add(node.module)
                # `from verl_doctor.catalog import verl_keys` imports a module too
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = found
    return graph


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "verl_doctor" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


def test_layers_import_only_downwards() -> None:
    wrong = []
    for module, imported in _imports().items():
        mine = _layer(module)
        if mine is None:
            continue
        for target in imported:
            theirs = _layer(target)
            if theirs is None:
                if mine in NO_UI and target.split(".")[0] in UI_LIBRARIES:
                    wrong.append(f"{module} imports {target}")
                continue
            if LAYERS.index(theirs) > LAYERS.index(mine) or (mine, theirs) in SIBLINGS:
                wrong.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_import_circles() -> None:
    graph = _imports()
    modules = set(graph)
    edges = {m: {t for t in graph[m] if t in modules and t != m} for m in modules}
    circles = []
    for start in sorted(modules):
        stack = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                if nxt == start:
                    circles.append(" -> ".join([*path, start]))
                elif nxt not in seen and nxt > start:  # each circle once, from its smallest module
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    # A package's __init__ importing its own submodules is not a circle of responsibilities.
    circles = [c for c in circles if not all(p.startswith(c.split(" -> ")[0]) for p in c.split(" -> "))]
    assert not circles, "\n".join(circles)


def test_explain_on_a_file_imports_no_heavy_library(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(
        "(WorkerDict pid=5151) Traceback (most recent call last):\n"
        "(WorkerDict pid=5151) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
        encoding="utf-8",
    )
    probe = (
        "import json, sys\n"
        "from verl_doctor.cli.main import main\n"
        f"code = main(['explain', '--format', 'json', {str(log)!r}])\n"
        "sys.stderr.write(json.dumps({'code': code, 'modules': sorted(sys.modules)}))\n"
    )
    env = isolated_env(tmp_path)
    # The first run validates the rules (yaml, pydantic) and caches them; later runs read the cache.
    subprocess.run([sys.executable, "-c", probe], capture_output=True, env=env, timeout=120)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert result["code"] == 1 and json.loads(done.stdout)["findings"][0]["rule"] == "FLOW004"
    loaded = {m.split(".")[0] for m in result["modules"]}
    assert not loaded & {"typer", "click", "pydantic", "yaml", "rich"}, sorted(loaded)
