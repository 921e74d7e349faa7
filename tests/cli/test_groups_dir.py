#!/usr/bin/env python3
"""The `dir` key and --compare with several keys (SPEC 7.3, 7.4; issue 34
item 2): testdata/groups/ (make_groups.py) holds two runs, base/ and
eagle/, one request per category, each a vLLM body with k = 2. Expected
values worked by hand from the histograms there (h0, h1, h2 steps that
accepted 0, 1, 2 drafts; AL = 1 + (h1 + 2 h2) / steps, DAR = accepted /
(2 steps)):

  base  coding [1,1,2]: 4 steps, 5 accepted: AL 2.25, DAR 62.5 %
  base  chat   [2,1,1]: 4 steps, 3 accepted: AL 1.75, DAR 37.5 %
  eagle coding [0,1,3]: 4 steps, 7 accepted: AL 2.75, DAR 87.5 %
  eagle chat   [1,2,1]: 4 steps, 4 accepted: AL 2.00, DAR 50 %
  eagle math   [0,0,4]: 4 steps, 8 accepted: AL 3.00, DAR 100 %

By dir: base AL avg (2.25 + 1.75) / 2 = 2.0; eagle (2.75 + 2 + 3) / 3 =
31/12. eagle - base = 7/12.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td  # noqa: E402

AL = "spec_decode_acceptance_length"
DAR = "spec_decode_draft_acceptance_rate"


def inputs():
    return [td("groups", "base", "requests.jsonl"), td("groups", "eagle", "requests.jsonl")]


def row_of(doc, **key):
    for r in doc["analysis"]["groups"]["rows"]:
        if r["key"] == key:
            return r
    raise AssertionError("no group %r" % (key,))


class DirKey(Case):
    def test_dir_groups(self):
        res = run(["-f", "json", "--group-by", "dir"] + inputs())
        self.assertRan(res)
        doc = loads(res.out)
        keys = [r["key"]["dir"] for r in doc["analysis"]["groups"]["rows"]]
        self.assertEqual(keys, [td("groups", "base"), td("groups", "eagle")])
        base = row_of(doc, dir=td("groups", "base"))
        eagle = row_of(doc, dir=td("groups", "eagle"))
        self.assertAlmostEqual(float(base[AL]["avg"]), 2.0, places=12)
        self.assertAlmostEqual(float(eagle[AL]["avg"]), 31 / 12, places=12)
        self.assertEqual(base["requests"]["total"], 2)
        self.assertEqual(eagle["requests"]["total"], 3)

    def test_dir_of_names(self):
        # SPEC 7.3: a name without '/' is in "."; <stdin> too
        with open(inputs()[0], "rb") as f:
            data = f.read()
        res = run(["-f", "json", "--group-by", "dir", "-"], stdin=data)
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        self.assertEqual([r["key"] for r in rows], [{"dir": "."}])
        res = run(["-f", "json", "--group-by", "dir", "requests.jsonl"],
                  cwd=td("groups", "base"))
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        self.assertEqual([r["key"] for r in rows], [{"dir": "."}])

    def test_dir_in_archive(self):
        import tarfile
        with TempDir() as tmp:
            tar = os.path.join(tmp, "runs.tar")
            with tarfile.open(tar, "w") as tf:
                tf.add(inputs()[0], arcname="coding/x.jsonl")
                tf.add(inputs()[1], arcname="y.jsonl")
            res = run(["-f", "json", "--group-by", "dir", tar])
            self.assertRan(res)
            rows = loads(res.out)["analysis"]["groups"]["rows"]
            self.assertEqual([r["key"]["dir"] for r in rows],
                             [tar + ":.", tar + ":coding"])
            self.assertEqual([r["requests"]["total"] for r in rows], [3, 2])

    def test_compare_trailing_slash(self):
        for value in (td("groups", "base"), td("groups", "base") + "/",
                      td("groups", "base") + "//"):
            res = run(["-f", "json", "--group-by", "dir", "--compare", value] + inputs())
            self.assertRan(res)
            g = loads(res.out)["analysis"]["groups"]
            self.assertEqual(g["baseline"], {"dir": td("groups", "base")})
            eagle = row_of(loads(res.out), dir=td("groups", "eagle"))
            self.assertAlmostEqual(float(eagle["vs_baseline"][AL]["delta"]), 7 / 12, places=12)
            # DAR: base (62.5 + 37.5) / 2 = 50; eagle (87.5 + 50 + 100) / 3 = 79.1666..
            self.assertAlmostEqual(float(eagle["vs_baseline"][DAR]["delta"]),
                                   237.5 / 3 - 50, places=10)

    def test_input_names_its_directory(self):
        # issue 34 item 2: --group-by input --compare DIR/ with one input in DIR
        res = run(["-f", "json", "--group-by", "input", "--compare",
                   td("groups", "base") + "/"] + inputs())
        self.assertRan(res)
        g = loads(res.out)["analysis"]["groups"]
        self.assertEqual(g["baseline"], {"input": inputs()[0]})
        res = run(["-f", "json", "--group-by", "input", "--compare", td("groups")] + inputs())
        self.assertRan(res, 2)   # no input's dir is testdata/groups itself
        self.assertIn("no group", res.errtext)


class SeveralKeys(Case):
    def test_each_category_against_the_baseline_run(self):
        res = run(["-f", "json", "--group-by", "dir,meta.category", "--compare",
                   td("groups", "base")] + inputs())
        self.assertRan(res)
        doc = loads(res.out)
        g = doc["analysis"]["groups"]
        self.assertEqual(g["by"], ["dir", "meta.category"])
        self.assertEqual(g["baseline"], {"dir": td("groups", "base")})
        e = td("groups", "eagle")
        b = td("groups", "base")
        coding = row_of(doc, **{"dir": e, "meta.category": "coding"})
        chat = row_of(doc, **{"dir": e, "meta.category": "chat"})
        math = row_of(doc, **{"dir": e, "meta.category": "math"})
        self.assertAlmostEqual(float(coding["vs_baseline"][AL]["delta"]), 0.5, places=12)
        self.assertAlmostEqual(float(coding["vs_baseline"][DAR]["delta"]), 25.0, places=10)
        self.assertAlmostEqual(float(chat["vs_baseline"][AL]["delta"]), 0.25, places=12)
        self.assertAlmostEqual(float(chat["vs_baseline"][DAR]["delta"]), 12.5, places=10)
        self.assertNotIn("vs_baseline", math)   # no math in the baseline run
        for cat in ("coding", "chat"):
            self.assertNotIn("vs_baseline", row_of(doc, **{"dir": b, "meta.category": cat}))

    def test_csv_and_console(self):
        args = ["--group-by", "dir,meta.category", "--compare", td("groups", "base")] + inputs()
        res = run(["-f", "csv"] + args)
        self.assertRan(res)
        text = res.out.decode()
        head = "dir,meta.category,Difference from the baseline,Delta,Low,High,Significant"
        self.assertIn(head, text)
        rows = text.split(head, 1)[1].strip().splitlines()
        # two partnered groups (eagle chat, eagle coding), four tags each
        self.assertEqual(len(rows), 8)
        self.assertTrue(rows[0].startswith(td("groups", "eagle") + ",chat,Acceptance Length"))
        self.assertIn(",0.25,", rows[0])
        res = run(["-f", "table"] + args)
        self.assertRan(res)
        out = res.out.decode()
        # issue 34: the comparison first, then the pooled table, said to be pooled
        self.assertLess(out.index("Spec Decode by dir, meta.category"), out.index("Pooled:"))
        self.assertLess(out.index("Pooled:"), out.index("Acceptance Length (ratio)"))
        self.assertIn("no baseline", out)          # eagle math
        self.assertIn("+0.50", out)                # eagle coding
        self.assertNotIn("*", out.split("Pooled:")[0].split("AL: Acceptance")[0])
        self.assertEqual(out.count("needs --ci"), 1)

    def test_with_ci_the_star(self):
        res = run(["-f", "table", "--ci", "95", "--bootstrap", "50", "--group-by",
                   "dir,meta.category", "--compare", td("groups", "base")] + inputs())
        self.assertRan(res)
        out = res.out.decode()
        self.assertNotIn("needs --ci", out)
        # one request a group: every resample is that request, so the
        # interval of the difference is the difference: significant
        self.assertIn("+0.50*", out)

    def test_no_such_first_key(self):
        res = run(["-f", "json", "--group-by", "dir,meta.category", "--compare", "nope"]
                  + inputs())
        self.assertRan(res, 2)
        # the first key's values, each once
        self.assertEqual(res.errtext.count(td("groups", "eagle")), 1)


if __name__ == "__main__":
    main()
