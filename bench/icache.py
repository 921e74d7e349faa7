#!/usr/bin/env python3
"""How the code a record runs through sits in the L1 instruction cache.

Reads a callgrind profile written with instruction-level positions and
prints the "hot" code (every 64-byte line holding an instruction executed at
least --min times, typically about the number of records), per object, and
how those lines fall into the cache's sets. A line-set holding more lines
than the cache has ways is thrashed on every record, whatever the total
size: that is what moved round 7's records and bodies (bench/HISTORY.md,
"The instruction cache is a layout lottery").

    valgrind --tool=callgrind --dump-instr=yes --dump-line=no \\
        --compress-strings=no --compress-pos=no --callgrind-out-file=cg.out \\
        build/specscan -j1 -q --no-progress --no-table -f none records-10M.jsonl
    bench/icache.py cg.out --min 7000

The default geometry is 32 KiB, 8 ways, 64-byte lines (64 sets), the L1i of
the x86-64 machines this was measured on; --sets and --ways change it.
"""
import argparse
import collections
import re
import sys


def hot_lines(path, minimum):
    """{object: {function: set of line numbers}} of the instructions run
    at least `minimum` times (self cost, calls excluded)."""
    hot = collections.defaultdict(lambda: collections.defaultdict(set))
    obj = fn = None
    skip_next = False  # the cost line after calls= is the call's, not ours
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line:
                continue
            if line.startswith("0x"):
                if skip_next:
                    skip_next = False
                    continue
                parts = line.split()
                if len(parts) > 1 and int(parts[1]) >= minimum:
                    hot[obj][fn].add(int(parts[0], 16) >> 6)
                continue
            if line[0] in "+-*" or line[0].isdigit():
                sys.exit("icache.py: run callgrind with --compress-pos=no --dump-line=no")
            if line.startswith("calls="):
                skip_next = True
                continue
            m = re.match(r"(ob|fn)=(.*)", line)
            if m:
                if re.match(r"\(\d+\)", m.group(2)):
                    sys.exit("icache.py: run callgrind with --compress-strings=no")
                if m.group(1) == "ob":
                    obj = m.group(2)
                else:
                    fn = re.sub(r"'\d+$", "", m.group(2))  # recursion marks
    return hot


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", help="callgrind output (see the module's doc)")
    ap.add_argument("--min", type=int, required=True,
                    help="executions that make an instruction hot (about the records)")
    ap.add_argument("--sets", type=int, default=64)
    ap.add_argument("--ways", type=int, default=8)
    ap.add_argument("--top", type=int, default=20, help="functions listed")
    a = ap.parse_args()

    hot = hot_lines(a.profile, a.min)
    per_set = collections.Counter()
    total = 0
    print(f"hot code (instructions run >= {a.min} times), 64-byte lines:")
    for obj, fns in sorted(hot.items(), key=lambda kv: str(kv[0])):
        lines = set().union(*fns.values())
        total += len(lines)
        for ln in lines:
            per_set[ln % a.sets] += 1
        print(f"  {len(lines):5d} lines {len(lines) * 64:7d} B  {obj}")
    cap = a.sets * a.ways
    over = {s: n for s, n in per_set.items() if n > a.ways}
    print(f"  {total:5d} lines in all, {100.0 * total / cap:.0f}% of {cap} "
          f"({a.sets} sets x {a.ways} ways)")
    print(f"sets holding more than {a.ways} hot lines: {len(over)} "
          f"(largest {max(per_set.values(), default=0)}), "
          f"{sum(over.values())} lines in them, each a miss per record")
    funcs = [(len(ls), fn, obj) for obj, fns in hot.items() for fn, ls in fns.items()]
    print(f"functions with the most hot lines (of {len(funcs)}):")
    for n, fn, obj in sorted(funcs, key=lambda t: -t[0])[:a.top]:
        print(f"  {n:4d}  {fn[:90]}  [{str(obj).rsplit('/', 1)[-1]}]")


if __name__ == "__main__":
    main()
