"""Write src/verl_doctor/data/verl_names.txt: the functions and classes verl defines at module
level, across its releases, read from a git checkout of verl (no verl is imported). With
`--package mbridge --qualified`, mbridge_names.txt: also `Class.method` for every public method,
since mbridge's API is its classes' methods (`Bridge.save_weights`).

A TypeError about how one of them was called (`apply_monkey_patch() got an unexpected keyword
argument 'model'`) means the caller was written for another verl release. Names too generic to
say that (`main`, `forward`, a name shorter than six letters, one with neither `_` nor a capital
inside) are left out.

    python benchmarks/harvest_verl_names.py --git-dir /path/to/verl/.git [--refs v0.3.0.post1 ... HEAD]
    python benchmarks/harvest_verl_names.py --git-dir /path/to/mbridge/.git --package mbridge --qualified \
        --refs v0.13.0 v0.15.1 HEAD
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "src" / "verl_doctor" / "data"
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


def names_at(git_dir: str, ref: str, package: str = "verl", qualified: bool = False) -> set[str]:
    found: set[str] = set()
    files = [
        f
        for f in _git(git_dir, "ls-tree", "-r", "--name-only", ref, f"{package}/").split()
        if f.endswith(".py")
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
            if qualified and isinstance(node, ast.ClassDef):
                found |= {
                    f"{node.name}.{m.name}"
                    for m in node.body
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not m.name.startswith("_")
                }
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--git-dir", required=True)
    ap.add_argument("--refs", nargs="*", default=REFS)
    ap.add_argument("--package", default="verl")
    ap.add_argument("--qualified", action="store_true", help="also Class.method for public methods")
    args = ap.parse_args()
    names: set[str] = set()
    for ref in args.refs:
        names |= names_at(args.git_dir, ref, args.package, args.qualified)
    what = "functions, classes and their public methods" if args.qualified else "functions and classes"
    header = f"# Module-level {what} of {args.package} " + ", ".join(args.refs) + "\n"
    out = DATA / f"{args.package}_names.txt"
    out.write_text(header + "".join(f"{n}\n" for n in sorted(names)), encoding="utf-8")
    print(f"{len(names)} names -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
