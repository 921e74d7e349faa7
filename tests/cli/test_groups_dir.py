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

The server's pages (before, after; counters drafts, draft tokens,
accepted): base 100/200/100 -> 200/400/200, a window of 100 steps, 100
accepted of 200 drafted: AL 1 + 100/100 = 2.00, DAR 50 %; eagle 50/100/60
-> 150/300/210: 100 steps, 150 of 200: AL 2.50, DAR 75 %. eagle - base:
AL +0.50, DAR +25 pp (SPEC 10.7).

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


def pages():
    return [td("groups", r, p + ".prom") for r in ("base", "eagle") for p in ("before", "after")]


class ServerByDir(Case):
    def page_of(self, args):
        """The page written by `-f none --html` with args, as text."""
        with TempDir() as tmp:
            page = os.path.join(tmp, "p.html")
            res = run(["-f", "none", "--html", page] + args)
            self.assertRan(res)
            with open(page, encoding="utf-8") as f:
                return f.read()

    def test_matrix_beside_the_requests(self):
        res = run(["-f", "json", "--group-by", "dir", "--compare", td("groups", "base") + "/"]
                  + pages() + inputs())
        self.assertRan(res)
        doc = loads(res.out)
        g = doc["server"]["groups"]
        self.assertEqual(g["by"], ["dir"])
        self.assertEqual(g["baseline"], {"dir": td("groups", "base")})
        self.assertEqual([r["key"]["dir"] for r in g["rows"]],
                         [td("groups", "base"), td("groups", "eagle")])
        base, eagle = [r["families"][0] for r in g["rows"]]
        self.assertEqual((base["steps"], base["draft_tokens"], base["accepted_tokens"]),
                         (100, 200, 100))
        self.assertEqual((eagle["steps"], eagle["draft_tokens"], eagle["accepted_tokens"]),
                         (100, 200, 150))
        self.assertNum(base["acceptance_length"], 2.0)
        self.assertNum(eagle["acceptance_length"], 2.5)
        self.assertNum(eagle["draft_acceptance_rate"], 75.0)
        self.assertNotIn("vs_baseline", g["rows"][0])
        vs = g["rows"][1]["vs_baseline"]
        self.assertEqual(len(vs), 1)
        self.assertEqual((vs[0]["engine"], vs[0]["counters"]), ("vllm", "prometheus"))
        self.assertNum(vs[0]["acceptance_length"]["delta"], 0.5)
        self.assertNum(vs[0]["draft_acceptance_rate"]["delta"], 25.0)
        # the per-request groups of the same runs, side by side
        rows = doc["analysis"]["groups"]["rows"]
        self.assertEqual([r["key"]["dir"] for r in rows],
                         [td("groups", "base"), td("groups", "eagle")])
        # families (pooled) come first, groups after them
        keys = list(doc["server"])
        self.assertLess(keys.index("families"), keys.index("groups"))

    def test_server_only_compare_and_formats(self):
        args = ["--group-by", "dir", "--compare", td("groups", "base")] + pages()
        res = run(["-f", "json"] + args)
        self.assertRan(res)
        self.assertEqual(loads(res.out)["server"]["groups"]["baseline"],
                         {"dir": td("groups", "base")})
        res = run(["-f", "csv"] + args)
        self.assertRan(res)
        text = res.out.decode()
        self.assertIn("\r\ndir,Engine,Metric,Value\r\n", text)
        self.assertIn(td("groups", "eagle") + ",vllm,Acceptance Length (ratio),2.50\r\n", text)
        self.assertIn(td("groups", "base") + ",vllm,Steps,100.00\r\n", text)
        # (a console wide enough for the long dir names: the row on one line)
        res = run(["-f", "table"] + args, env={"COLUMNS": "300"})
        self.assertRan(res)
        out = res.out.decode()
        self.assertIn("Server Spec Decode by dir", out)
        line = [l for l in out.splitlines() if td("groups", "eagle") in l and "vllm" in l][0]
        self.assertIn("+0.50", line)
        self.assertIn("+25.00", line)
        res = run(["-f", "markdown"] + args)
        self.assertRan(res)
        self.assertIn("## Server Spec Decode by dir", res.out.decode())
        html = self.page_of(args)
        self.assertIn('id="server-groups"', html)
        self.assertIn("Server acceptance length by dir", html)

    def test_baseline_only_among_server_groups(self):
        # SPEC 10.8: a VALUE naming only a server group is found, even when
        # request groups exist (here eagle's requests alone: no request
        # group is named base). The server's eagle row gets its deltas by
        # hand (AL 2.50 - 2.00, DAR 75 - 50 pp); the request group none.
        args = ["--group-by", "dir", "--compare", td("groups", "base")] + pages() + [
            td("groups", "eagle", "requests.jsonl")]
        res = run(["-f", "json"] + args)
        self.assertRan(res)
        self.assertIn("names a server group only", res.errtext)
        doc = loads(res.out)
        g = doc["server"]["groups"]
        self.assertEqual(g["baseline"], {"dir": td("groups", "base")})
        vs = g["rows"][1]["vs_baseline"][0]
        self.assertNum(vs["acceptance_length"]["delta"], 0.5)
        self.assertNum(vs["draft_acceptance_rate"]["delta"], 25.0)
        rows = doc["analysis"]["groups"]["rows"]
        self.assertEqual([r["key"]["dir"] for r in rows], [td("groups", "eagle")])
        self.assertNotIn("vs_baseline", rows[0])
        self.assertNotIn("baseline", doc["analysis"]["groups"])
        self.assertAlmostEqual(float(rows[0][AL]["avg"]), 31 / 12, places=12)
        # the page has both parts, the server's groups compared
        html = self.page_of(args)
        self.assertIn('id="server-groups"', html)
        self.assertIn('id="groups"', html)
        # a value naming no group at all is still refused; the message
        # lists the request groups (eagle) and the server's dirs (both)
        res = run(["-f", "json", "--group-by", "dir", "--compare", "nope"] + pages() + [
            td("groups", "eagle", "requests.jsonl")])
        self.assertEqual(res.rc, 2)
        self.assertIn("no group 'nope'; the groups are: " + td("groups", "eagle") +
                      "; the server's directories are: " + td("groups", "base") + ", " +
                      td("groups", "eagle") + "\n", res.errtext)

    def test_other_keys_pool_with_a_note(self):
        res = run(["-f", "json", "--group-by", "dir,k"] + pages())
        self.assertRan(res)
        self.assertNotIn("groups", loads(res.out)["server"])
        self.assertIn("only --group-by dir", res.errtext)


if __name__ == "__main__":
    main()
