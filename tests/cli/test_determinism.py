#!/usr/bin/env python3
"""Output does not depend on the number of threads, on the parser variant
(SPECSCAN_SIMD) or on the key pre-filter (SPECSCAN_FULL_PARSE=1):
byte-identical stdout for every format over every fixture (SPEC 3.1)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import FIXTURES, Case, TempDir, loads, main, run, td

FORMATS = ("json", "csv", "table", "jsonl")
VARIANTS = [
    ("-j2", ["-j2"], None),
    ("-j4", ["-j4"], None),
    ("generic", ["-j2"], {"SPECSCAN_SIMD": "generic"}),
    ("avx2", ["-j1"], {"SPECSCAN_SIMD": "avx2"}),
    ("avx512", ["-j3"], {"SPECSCAN_SIMD": "avx512"}),
    ("full-parse", ["-j2"], {"SPECSCAN_FULL_PARSE": "1"}),
    ("generic+full-parse", ["-j4"], {"SPECSCAN_SIMD": "generic", "SPECSCAN_FULL_PARSE": "1"}),
]


class Determinism(Case):
    def compare(self, name, args):
        for fmt in FORMATS:
            base = run(["-j1", "-f", fmt] + args)
            self.assertIn(base.rc, (0, 1), "%s %s: %r" % (name, fmt, base))
            for label, extra, env in VARIANTS:
                got = run(extra + ["-f", fmt] + args, env=env)
                self.assertEqual(got.rc, base.rc, "%s %s %s" % (name, fmt, label))
                self.assertEqual(got.out, base.out, "%s -f %s: %s differs from -j1" % (name, fmt, label))

    def test_every_fixture(self):
        for name, rel, extra in FIXTURES:
            with self.subTest(fixture=name):
                self.compare(name, extra + [td(rel)])

    def test_all_fixtures_at_once(self):
        paths = [td(rel) for _, rel, extra in FIXTURES if not extra]
        self.compare("all", paths)

    def test_many_batches(self):
        """Enough lines for several batches per worker."""
        with TempDir() as d:
            big = os.path.join(d, "big.jsonl")
            sample = open(td("sample", "aiperf_raw_vllm.jsonl"), "rb").read()
            bodies = open(td("engines", "vllm_bodies.jsonl"), "rb").read()
            with open(big, "wb") as f:
                for _ in range(400):
                    f.write(sample)
                    f.write(bodies)
            self.compare("big", [big])
            doc = loads(run(["-j3", big]).out)
            self.assertEqual(doc["specscan"]["requests"]["total"], 400 * (9 + 15))
            self.assertEqual(doc["specscan"]["requests"]["ok"], 400 * (3 + 4))
            self.assertEqual(doc["spec_decode_steps"]["count"], 400 * (2 + 4))


if __name__ == "__main__":
    main()
