#!/usr/bin/env python3
"""Doubles as specscan writes them against Python's own repr(), the
reference AIPerf's JSON is written with: 30,000 doubles drawn with a fixed
seed (random bit patterns, ratios of small integers like the metrics,
values near powers of two and subnormals), written by tests/tools/repr_tool
(REPR_TOOL)."""
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, main, tool_path  # noqa: E402


def drawn():
    rng = random.Random(20261129)
    values = []
    for _ in range(10000):
        v = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if v == v and abs(v) != float("inf"):
            values.append(v)
    for _ in range(10000):
        values.append(rng.randint(0, 10**7) / rng.randint(1, 5000))
    for _ in range(5000):
        e = rng.randint(-1070, 1020)
        values.append(2.0 ** e * (1 + rng.choice([0, 2**-52, -2**-53, 2**-51])))
    for _ in range(5000):
        values.append(rng.randint(1, 2**52) * 2.0 ** -1074)
    values += [0.0, -0.0, 1e16, 1e-4, 9.999999999999999e-05, 1e22, 5e-324, 0.1, 2.0 / 3]
    return values


class Repr(Case):
    def test_doubles_agree_with_repr(self):
        values = drawn()
        out = subprocess.run([tool_path("repr_tool")],
                             input="\n".join(v.hex() for v in values) + "\n",
                             capture_output=True, text=True, check=True).stdout.split("\n")
        bad = [(repr(v), got) for v, got in zip(values, out) if repr(v) != got]
        self.assertGreaterEqual(len(out), len(values))
        self.assertEqual(bad[:5], [], "%d of %d differ" % (len(bad), len(values)))
        print("%d doubles agree with repr()" % len(values))


if __name__ == "__main__":
    main(tools=("repr_tool",))
