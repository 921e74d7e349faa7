#!/usr/bin/env python3
"""The include graph of src/ follows the stage order (docs/ARCHITECTURE.md).

Every folder below src/ is a stage; a file may include headers of its own
stage and of stages below it, never of a stage above. The folder graph must
have no cycle (which the order already rules out; it is checked on its own
so that a message names the cycle). A folder that is not in the order fails
too: a new stage must be placed in it here and in docs/ARCHITECTURE.md.

Inside src/report/, a section file (sec_NAME.c, one SPEC section in every
format; sec_NAME_page.c its page when the section would pass the size
limit) includes no other section's file (sec_OTHER.h or .c): sections
share only the lower layer (the table model, the JSON writer, numbers,
escapes, charts) and section.h, through which one section may call
another's writers. The one exception is the server's section, which may
use the positions' writers (ALLOWED_SECTION_INCLUDES).

Inside src/server/, the JSON shapes are three layers, lowest first: the
base (server_json_util.c, server_json_int.h), the shapes
(server_json_aiperf.c, _engines.c, _prom.c, server_json_shapes.h) and
the top (server_json.c, server_json.h). A file includes no header of a
layer above its own (SERVER_JSON_LAYERS), so no call goes back up.

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
SECTION_INCLUDE = re.compile(r'^\s*#\s*include\s+"report/sec_([A-Za-z0-9_]+)\.[ch]"', re.M)
ALLOWED_SECTION_INCLUDES = {("server", "positions")}
# server/'s JSON files: each one's layer, and each layer's own header.
SERVER_JSON_LAYERS = {"server_json_util.c": 0, "server_json_int.h": 0,
                      "server_json_aiperf.c": 1, "server_json_engines.c": 1,
                      "server_json_prom.c": 1, "server_json_shapes.h": 1,
                      "server_json.c": 2, "server_json.h": 2}
SERVER_JSON_HEADERS = {"server_json_int.h": 0, "server_json_shapes.h": 1,
                       "server_json.h": 2}
SERVER_INCLUDE = re.compile(r'^\s*#\s*include\s+"server/([A-Za-z0-9_]+\.h)"', re.M)


def server_json_problems(name, text):
    """A JSON file of server/ that includes a header of a layer above its own."""
    layer = SERVER_JSON_LAYERS.get(name)
    if layer is None:
        return []
    return [f"src/server/{name}: includes {h}, a layer above its own "
            f"(server_json*.c: base, shapes, top; nothing calls back up)"
            for h in SERVER_INCLUDE.findall(text)
            if SERVER_JSON_HEADERS.get(h, -1) > layer]


def section_problems(name, text):
    """A report section file that includes another section's file."""
    m = re.match(r"sec_([A-Za-z0-9_]+)\.[ch]$", name)
    if not m:
        return []
    own = m.group(1)
    if own.endswith("_page"):
        own = own[:-len("_page")]   # a section's page is the section's
    return [f"src/report/{name}: includes sec_{other}, another section "
            f"(a section includes no other section)"
            for other in SECTION_INCLUDE.findall(text)
            if other not in (own, own + "_page")
            and (own, other) not in ALLOWED_SECTION_INCLUDES]


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
                            f"in tests/check_includes.py and to docs/ARCHITECTURE.md)")
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h", ".cpp", ".cxx")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if stage == "report":
                problems.extend(section_problems(name, text))
            if stage == "server":
                problems.extend(server_json_problems(name, text))
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
