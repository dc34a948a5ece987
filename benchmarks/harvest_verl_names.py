"""Write src/verl_doctor/data/verl_names.txt: the functions and classes verl defines at module
level, across its releases, read from a git checkout of verl (no verl is imported).

A TypeError about how one of them was called (`apply_monkey_patch() got an unexpected keyword
argument 'model'`) means the caller was written for another verl release. Names too generic to
say that (`main`, `forward`, a name shorter than six letters, one with neither `_` nor a capital
inside) are left out.

    python benchmarks/harvest_verl_names.py --git-dir /path/to/verl/.git [--refs v0.3.0.post1 ... HEAD]
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "verl_doctor" / "data" / "verl_names.txt"
REFS = ["v0.3.0.post1", "v0.4.1", "v0.5.0", "v0.6.1", "v0.7.1", "v0.8.0", "v0.9.0", "HEAD"]
GENERIC = {"forward", "generate", "compute", "update", "initialize", "register", "validate", "configure"}


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True
    ).stdout


def distinctive(name: str) -> bool:
    inner = name.strip("_")
    return (
        len(inner) >= 6
        and inner not in GENERIC
        and not name.startswith("__")
        and ("_" in inner or any(c.isupper() for c in inner[1:]))
    )


def names_at(git_dir: str, ref: str) -> set[str]:
    found: set[str] = set()
    files = [
        f for f in _git(git_dir, "ls-tree", "-r", "--name-only", ref, "verl/").split() if f.endswith(".py")
    ]
    for path in files:
        try:
            tree = ast.parse(_git(git_dir, "show", f"{ref}:{path}"))
        except (SyntaxError, subprocess.CalledProcessError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and distinctive(
                node.name
            ):
                found.add(node.name)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--refs", nargs="*", default=REFS)
    args = ap.parse_args()
    names: set[str] = set()
    for ref in args.refs:
        names |= names_at(args.git_dir, ref)
    header = "# Module-level functions and classes of verl " + ", ".join(args.refs) + "\n"
    OUT.write_text(header + "".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    print(f"{len(names)} names -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
