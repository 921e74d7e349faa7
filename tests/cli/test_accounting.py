#!/usr/bin/env python3
"""The accounting invariant over every fixture, every phase selection and
all fixtures at once: status counts sum to total, per-input counts sum to
total, phases sum to total, the enriched JSONL has exactly `total` lines and
its statuses agree with the counts, the table's accounting line agrees."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import FIXTURES, STATUSES, Case, jsonl_lines, loads, main, run, td

LABELS = ["with stats", "zero-step", "without stats", "unrecognized", "ambiguous",
          "multi-choice", "malformed", "failed", "cancelled", "without content",
          "unparsable", "oversize"]


def accounting_line(req):
    parts = ["%d %s" % (req[s], l) for s, l in zip(STATUSES, LABELS) if req[s]]
    noun = "request" if req["total"] == 1 else "requests"
    return "{:,} {}: ".format(req["total"], noun) + ", ".join(parts)


class Accounting(Case):
    def check(self, where, args):
        res = run(args)
        self.assertIn(res.rc, (0, 1), "%s: %r" % (where, res))
        doc = loads(res.out)
        self.assertAccounting(doc)
        req = doc["specscan"]["requests"]
        total = req["total"]
        self.assertEqual(sum(i["requests"] for i in doc["specscan"]["inputs"]), total, where)
        out = jsonl_lines(run(["-f", "jsonl"] + args))
        self.assertEqual(len(out), total, where + ": JSONL lines")
        for s in STATUSES:
            self.assertEqual(sum(1 for o in out if o["spec_decode_status"] == s), req[s],
                             "%s: %s" % (where, s))
        ok_zero = sum(doc["specscan"]["engines"].values())
        self.assertEqual(ok_zero, req["ok"] + req["zero_step"], where + ": engines")
        table = run(["-f", "table"] + args).text
        self.assertIn(accounting_line(req), [l.strip() for l in table.split("\n")], where)
        return total

    def test_every_fixture(self):
        for name, rel, extra in FIXTURES:
            for phase in ("profiling", "warmup", "all"):
                with self.subTest(fixture=name, phase=phase):
                    self.check("%s --phase %s" % (name, phase), extra + ["--phase", phase, td(rel)])

    def test_all_at_once(self):
        totals = 0
        paths = []
        for name, rel, extra in FIXTURES:
            if not extra:
                totals += self.check(name, [td(rel)])
                paths.append(td(rel))
        self.assertEqual(self.check("all", paths), totals)


if __name__ == "__main__":
    main()
