#!/usr/bin/env python3
"""Doubles as specscan writes them against Python's own repr(), the
reference AIPerf's JSON is written with: 30,000 doubles drawn with a fixed
seed (random bit patterns, ratios of small integers like the metrics,
values near powers of two and subnormals)."""
import os
import random
import struct
import subprocess
import sys

tool = os.path.join(os.path.dirname(os.environ.get("SPECSCAN", "./specscan")), "tests", "tools", "repr_tool")
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

out = subprocess.run([tool], input="\n".join(v.hex() for v in values) + "\n",
                     capture_output=True, text=True, check=True).stdout.split("\n")
bad = [(repr(v), got) for v, got in zip(values, out) if repr(v) != got]
if len(out) < len(values) or bad:
    print("%d of %d differ, e.g. %s" % (len(bad), len(values), bad[:5]))
    sys.exit(1)
print("%d doubles agree with repr()" % len(values))
