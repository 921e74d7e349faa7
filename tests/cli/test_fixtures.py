#!/usr/bin/env python3
"""testdata/make_fixtures.py rewrites the committed fixtures byte for byte
(they are generated, deterministic, and not edited by hand)."""

import filecmp
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import TESTDATA, Case, TempDir


class Fixtures(Case):
    def test_regenerate(self):
        with TempDir() as d:
            for _ in range(2):
                subprocess.run([sys.executable, os.path.join(TESTDATA, "make_fixtures.py"),
                                "--out", d], check=True)
                written = []
                for root, _, files in os.walk(d):
                    written += [os.path.relpath(os.path.join(root, f), d) for f in files]
                self.assertTrue(written)
                for rel in sorted(written):
                    self.assertTrue(filecmp.cmp(os.path.join(d, rel), os.path.join(TESTDATA, rel),
                                                shallow=False), rel + " differs from the generator")


if __name__ == "__main__":
    unittest.main(verbosity=2)
