#!/usr/bin/env python3
"""The rooms of src/ stay small enough to read (docs/ARCHITECTURE.md).

- no source file over 900 lines;
- no function over 150 lines, measured as Universal Ctags measures it
  (its `line:` and `end:` fields); without ctags this part is skipped with
  a SKIP (exit 77) that says so, unless the other checks found a problem;
- every header opens with a comment that names it (`name.h - ...`), the
  place where it says what the module is for and who owns what it hands
  out.

Run by `make check`; by hand: tests/check_sizes.py [SRCDIR].
"""
import os
import re
import shutil
import subprocess
import sys

MAX_FILE_LINES = 900
MAX_FUNCTION_LINES = 150
SOURCES = (".c", ".h", ".cpp", ".cxx", ".hpp")
HEAD = re.compile(r"\A(?://[^\n]*\n|/\*)")


def sources(src):
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCES):
                yield os.path.join(folder, name)


def functions(src, paths):
    """(path, name, length) of every function ctags finds."""
    out = subprocess.run(
        ["ctags", "--fields=+ne", "-o", "-", "--kinds-C=f", "--kinds-C++=f",
         "--languages=C,C++"] + paths,
        capture_output=True, text=True, check=True).stdout
    for row in out.splitlines():
        cols = row.split("\t")
        line = end = None
        for c in cols[3:]:
            if c.startswith("line:"):
                line = int(c[5:])
            elif c.startswith("end:"):
                end = int(c[4:])
        if line and end:
            yield cols[1], cols[0], end - line + 1


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SRCDIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    src = os.path.join(top, "src")
    paths = list(sources(src))
    problems = []
    for p in paths:
        rel = os.path.relpath(p, top)
        with open(p, encoding="utf-8", errors="replace") as f:
            text = f.read()
        n = text.count("\n")
        if n > MAX_FILE_LINES:
            problems.append(f"{rel}: {n} lines (at most {MAX_FILE_LINES})")
        base = os.path.basename(p)
        if base.endswith((".h", ".hpp")):
            first = text.lstrip("\n")
            if not HEAD.match(first) or base not in first[:200]:
                problems.append(f"{rel}: does not open with a comment naming it "
                                f"('{base} - what it is for')")
    if shutil.which("ctags"):
        for path, name, length in functions(src, paths):
            if length > MAX_FUNCTION_LINES:
                problems.append(f"{os.path.relpath(path, top)}: {name}() is "
                                f"{length} lines (at most {MAX_FUNCTION_LINES})")
    for p in problems:
        print("check_sizes:", p)
    print(f"check_sizes: {len(paths)} files, {len(problems)} problems")
    if problems:
        return 1
    if not shutil.which("ctags"):
        print("SKIP: no ctags (apt-get install universal-ctags): function lengths not checked")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
