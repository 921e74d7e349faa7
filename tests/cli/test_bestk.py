#!/usr/bin/env python3
"""Choosing k (issue 34 item 5): under --group-by k with --draft-cost C the
group table has an expected speedup TWAL / (1 + C k) per k (SPEC 7.1's
model) and one "Best k" line; without a draft cost a line says how to get
one; and the per-drafted-token position line says what its numbers are.

Hand-worked from testdata/flat/make_flat.py: the ok records at k = 4
(lines 1, 2) have 8 steps and 14 accepted tokens, TWAL = 1 + 14/8 = 2.75;
those at k = 2 (lines 3, 4, 9) 12 steps and 18 accepted, TWAL = 2.5. At
C = 0.1: k = 2 gives 2.5 / 1.2 = 2.0833 (2.08x), k = 4 gives 2.75 / 1.4 =
1.9643 (1.96x): best k = 2. At C = 1: 0.83x and 0.55x, none pays.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, main, run, td  # noqa: E402

FIX = td("flat", "categories.jsonl")


def table_rows(text):
    """{k: cells} of the `Spec Decode by k` table, and its heads."""
    lines = text.split("\n")
    start = [i for i, l in enumerate(lines) if l.strip() == "Spec Decode by k"][0]
    head = [c.strip() for c in lines[start + 2].split("┃")[1:-1]]
    rows = {}
    for l in lines[start + 4:]:
        if not l.startswith("│"):
            break
        cells = [c.strip() for c in l.split("│")[1:-1]]
        rows[cells[0]] = dict(zip(head, cells))
    return head, rows


class BestK(Case):
    def k_table(self, *extra):
        res = run(["-f", "table", "--group-by", "k"] + list(extra) + [FIX],
                  env={"COLUMNS": "300"})
        self.assertRan(res)
        return res.text

    def test_speedup_column_and_best_k(self):
        text = self.k_table("--draft-cost", "0.1")
        head, rows = table_rows(text)
        self.assertIn("exp. speedup", head)
        self.assertEqual(rows["2"]["TWAL"], "2.50")
        self.assertEqual(rows["4"]["TWAL"], "2.75")
        self.assertEqual(rows["2"]["exp. speedup"], "2.08x")
        self.assertEqual(rows["4"]["exp. speedup"], "1.96x")
        self.assertEqual(rows["null"]["exp. speedup"], "N/A")
        best = [l for l in text.split("\n") if l.startswith("  Best k")]
        self.assertEqual(best, ["  Best k: 2 (expected speedup 2.08x over no speculation at a "
                                "draft cost of 0.1 target passes per draft token)"])

    def test_none_pays(self):
        text = self.k_table("--draft-cost", "1")
        head, rows = table_rows(text)
        self.assertEqual(rows["2"]["exp. speedup"], "0.83x")
        self.assertEqual(rows["4"]["exp. speedup"], "0.55x")
        self.assertIn("  Best k: none; no k is expected to beat decoding without speculation "
                      "at a draft cost of 1.0\n", text)

    def test_without_cost(self):
        text = self.k_table()
        head, rows = table_rows(text)
        self.assertNotIn("exp. speedup", head)
        self.assertIn("  No best k without a draft cost: give --draft-cost C", text)
        self.assertNotIn("Best k:", text)

    def test_other_keys_no_line(self):
        res = run(["-f", "table", "--group-by", "meta.category", "--draft-cost", "0.1", FIX],
                  env={"COLUMNS": "300"})
        self.assertRan(res)
        self.assertNotIn("exp. speedup", res.text)
        self.assertNotIn("Best k", res.text)

    def test_markdown(self):
        res = run(["-f", "markdown", "--group-by", "k", "--draft-cost", "0.1", FIX])
        self.assertRan(res)
        self.assertIn("| exp. speedup |", res.text)
        self.assertIn("\nBest k: 2 (expected speedup 2.08x", res.text)

    def test_drafted_line_explained(self):
        res = run(["-f", "table", "--positions", td("engines", "vllm_variable.jsonl")])
        self.assertRan(res)
        lines = res.text.split("\n")
        at = [i for i, l in enumerate(lines) if "per drafted token" in l]
        self.assertEqual(len(at), 1)
        self.assertIn(" of ", lines[at[0]])
        self.assertEqual(lines[at[0] + 1], "  (i: P% of N: of the N steps that drafted an "
                                           "i-th token, P% had it accepted)")


if __name__ == "__main__":
    main()
