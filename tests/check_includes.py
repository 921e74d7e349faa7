#!/usr/bin/env python3
"""The include graph of src/ follows the stage order (README, Project layout).

Every folder below src/ is a stage; a file may include headers of its own
stage and of stages below it, never of a stage above. The folder graph must
have no cycle (which the order already rules out; it is checked on its own
so that a message names the cycle). A folder that is not in the order fails
too: a new stage must be placed in it here and in the README.

Run by `make check`; by hand: tests/check_includes.py [SRCDIR].
"""
import os
import re
import sys

# Lowest first. analysis and run may not exist yet.
ORDER = ["util", "model", "json", "logs", "io", "engines", "metrics", "analysis",
         "server", "report", "run", "cli"]
RANK = {name: i for i, name in enumerate(ORDER)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"', re.M)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SRCDIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    src = os.path.join(top, "src")
    problems = []
    edges = {}
    for stage in sorted(os.listdir(src)):
        folder = os.path.join(src, stage)
        if not os.path.isdir(folder):
            continue
        if stage not in RANK:
            problems.append(f"src/{stage}: not a known stage (add it to ORDER "
                            f"in tests/check_includes.py and to the README)")
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h", ".cpp", ".cxx")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for target in INCLUDE.findall(text):
                if target == stage:
                    continue
                edges.setdefault(stage, set()).add(target)
                if target not in RANK:
                    problems.append(f"src/{stage}/{name}: includes from unknown "
                                    f"folder '{target}'")
                elif RANK[target] > RANK[stage]:
                    problems.append(f"src/{stage}/{name}: includes {target}/, a "
                                    f"stage above {stage}/")
    # A cycle between folders, found by depth-first search.
    state = {}

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cyc = trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
                problems.append("include cycle between folders: " +
                                " -> ".join(cyc))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    print("include graph: %d folders, %d edges, downward only" %
          (len(edges), sum(len(v) for v in edges.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
