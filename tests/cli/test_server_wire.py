#!/usr/bin/env python3
"""SPEC 10.1's JSON server shapes through specscan itself: each shape's
lines detected among JSONL (AIPerf's server_metrics_export.jsonl lines,
TensorRT-LLM's iterations, SGLang's server info, a Prometheus API
result), AIPerf's server_metrics_export.json by its name (whatever
--input-kind says, up to --max-record-size), an input of requests with a
server line in it listed as `mixed`, an AIPerf artifact directory
contributing its server-metrics export (SPEC 10.4) on disk and in an
archive, --shard leaving them out with a note (10.5), and -j1 = -j2.

The windows are worked out by hand from the counts the fixtures hold
(testdata/server/README.md states them; test_server_json.py derives the
same windows through the shapes' own driver).
"""

import json
import os
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
from sslib import Case, main, run, td  # noqa: E402

# SPEC 6's first vLLM body: steps 43, accepted 10, drafted 129.
VLLM_BODY = (b'{"id":"v1","object":"chat.completion","model":"m","choices":[{"index":0,'
             b'"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}],'
             b'"usage":{"prompt_tokens":12,"total_tokens":62,"completion_tokens":50},'
             b'"metrics":{"speculative_decoding":{"mean_acceptance_length":1.2325581395348837,'
             b'"draft_acceptance_rate":0.07751937984496124,"acceptance_histogram":[39,1,0,3],'
             b'"num_spec_steps":43,"num_accepted_draft_tokens":10,"num_draft_tokens":129,'
             b'"num_spec_tokens":3}}}\n')

AIPERF = td("server", "aiperf")
DOC = os.path.join(AIPERF, "server_metrics_export.json")
LINES = os.path.join(AIPERF, "server_metrics_export.jsonl")

# The AIPerf scrapes (README): engine 0 drafts 100, 130, 150, three
# draft tokens each, accepted 150, 195, 225; engine 1 drafts 40, 60, 70,
# accepted 50, 74, 86. Window over the three: S 50 + 30, D 3 x 80, A 75 + 36.
AIPERF_LINES = (80, 240, 111)
# The document: scrapes 2 -> 3 as stats.total: S 20 + 10, D 3 x 30, A 30 + 12.
AIPERF_DOC = (30, 90, 42)
# The first scrape alone, counted since the start: S 100 + 40, D 3 x 140, A 150 + 50.
AIPERF_FIRST = (140, 420, 200)


def doc_of(res):
    return json.loads(res.out.decode("utf-8"))


def counts(f):
    return (f["steps"], f.get("draft_tokens"), f["accepted_tokens"])


def only_family(doc, engine, counters):
    fams = doc["server"]["families"]
    assert len(fams) == 1, fams
    assert (fams[0]["engine"], fams[0]["counters"]) == (engine, counters), fams[0]
    return fams[0]


def lines_of(path):
    with open(path, "rb") as f:
        return [l for l in f.read().split(b"\n") if l.strip()]


class ServerWire(Case):
    maxDiff = None

    def write(self, d, name, data):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def read(self, args, rc=0):
        res = run(["-f", "json"] + args)
        self.assertRan(res, rc)
        return res, doc_of(res)

    def test_each_shape(self):
        """One input of each shape: listed as kind scrape with no request
        and its snapshots (increments count there), and its window.
        TensorRT-LLM: iterations 12/7/4, 9/5/3, 6/6/2, 3/0/1 (D, A,
        requests with drafts): S 10, D 30, A 18, four increments. SGLang:
        forward counts 200 -> 260 and 180 -> 230, accept counts 520 ->
        700 and 450 -> 590: S 110, A 320 - 110. query_range: drafts 100
        -> 129 and 50 -> 83 (S 62), draft tokens 300 -> 387 and 150 ->
        249 (D 186), accepted 180 -> 226 and 90 -> 136 (A 92), four
        samples one second apart from t = 1796157486.165."""
        cases = [
            (LINES, 3, ("vllm", "prometheus"), AIPERF_LINES,
             {"start_ns": 1765793061967310848, "end_ns": 1765793062633000000}),
            (DOC, 1, ("vllm", "prometheus"), AIPERF_DOC, {"start_ns": None, "end_ns": None}),
            (td("server", "trtllm", "iterations.jsonl"), 4, ("tensorrt_llm", "iterations"),
             (10, 30, 18), {"start_ns": None, "end_ns": None}),
            (td("server", "sglang", "server_info.jsonl"), 2, ("sglang", "server_info"),
             (110, None, 210), {"start_ns": None, "end_ns": None}),
            (td("server", "prometheus", "query_range.json"), 4, ("vllm", "prometheus"),
             (62, 186, 92), {"start_ns": 1796157486165000000, "end_ns": 1796157489165000000}),
        ]
        for path, snaps, (engine, ctr), want, window in cases:
            with self.subTest(path=os.path.basename(path)):
                res, doc = self.read([path])
                self.assertEqual(res.errtext, "")
                self.assertEqual(doc["specscan"]["inputs"],
                                 [{"name": path, "kind": "scrape", "requests": 0,
                                   "snapshots": snaps}])
                self.assertEqual(doc["specscan"]["requests"]["total"], 0)
                f = only_family(doc, engine, ctr)
                self.assertEqual(counts(f), want)
                self.assertEqual(f["window"], window)
                self.assertEqual(doc["server"]["bad_lines"], 0)
        # the acceptance figures of one: 1 + 111/80 and 111/240 x 100
        f = only_family(self.read([LINES])[1], "vllm", "prometheus")
        self.assertEqual(f["acceptance_length"], 1 + 111 / 80)
        self.assertEqual(f["draft_acceptance_rate"], 111 / 240 * 100)

    def test_mixed_input(self):
        """Two vLLM bodies around AIPerf's first scrape: the input is
        `mixed`, two requests and one snapshot; the scrape alone gives the
        counts since the start; the requests' numbers are the bodies'."""
        with sslib.TempDir() as d:
            p = self.write(d, "run.jsonl", VLLM_BODY + lines_of(LINES)[0] + b"\n" + VLLM_BODY)
            recs = os.path.join(d, "records.jsonl")
            res, doc = self.read(["--records", recs, p])
            # the server line is no request: not among the records
            self.assertEqual([json.loads(l)["source"]["line"] for l in lines_of(recs)], [1, 3])
        self.assertEqual(doc["specscan"]["inputs"],
                         [{"name": p, "kind": "mixed", "requests": 2, "snapshots": 1}])
        req = doc["specscan"]["requests"]
        self.assertEqual((req["total"], req["ok"], req["unrecognized"]), (2, 2, 0))
        self.assertEqual(doc["total_spec_decode_steps"]["avg"], 86)   # 43 + 43
        f = only_family(doc, "vllm", "prometheus")
        self.assertTrue(f["since_start"])
        self.assertEqual(counts(f), AIPERF_FIRST)
        self.assertEqual(f["reconciliation"]["requests"]["steps"], 86)
        self.assertNotIn("unrecognized", res.errtext)

    def test_forced_request_kind(self):
        """--input-kind raw reads every line as a request (no server
        line), but a file named server_metrics_export.json is still the
        document, as it is under --input-kind scrape."""
        res, doc = self.read(["--input-kind", "raw", LINES])
        self.assertNotIn("server", doc)
        self.assertEqual(doc["specscan"]["requests"]["total"], 3)
        self.assertEqual(doc["specscan"]["requests"]["ok"], 0)
        for kind in ("raw", "scrape"):
            res, doc = self.read(["--input-kind", kind, DOC])
            self.assertEqual(doc["specscan"]["inputs"][0]["kind"], "scrape")
            self.assertEqual(counts(only_family(doc, "vllm", "prometheus")), AIPERF_DOC)
            self.assertEqual(doc["server"]["bad_lines"], 0)

    def test_document_too_large(self):
        """The document is read whole, at most --max-record-size (8382
        bytes against 4K here): a failed input whose message names the
        limit; the run goes on with the other input (exit 1)."""
        with sslib.TempDir() as d:
            body = self.write(d, "bodies.jsonl", VLLM_BODY)
            res, doc = self.read(["--max-record-size", "4K", DOC, body], rc=1)
        self.assertIn("server_metrics_export.json: larger than --max-record-size (4096 bytes)",
                      res.errtext)
        self.assertNotIn("server", doc)
        self.assertEqual(doc["specscan"]["requests"]["ok"], 1)

    def test_artifact_directories(self):
        """A directory with profile_export.jsonl and both server exports
        gives the export and the document; one with only the lines gives
        them; -r over both sums their windows (two endpoints, one per
        directory): S 30 + 80, D 90 + 240, A 42 + 111."""
        with sslib.TempDir() as d:
            a, b = os.path.join(d, "a"), os.path.join(d, "b")
            self.write(d, "a/profile_export.jsonl", b"")
            self.write(d, "b/profile_export.jsonl", b"")
            for name in ("server_metrics_export.json", "server_metrics_export.jsonl"):
                with open(os.path.join(AIPERF, name), "rb") as f:
                    self.write(d, "a/" + name, f.read())
            with open(LINES, "rb") as f:
                self.write(d, "b/server_metrics_export.jsonl", f.read())
            res, doc = self.read([a])
            self.assertEqual([(i["name"], i["kind"]) for i in doc["specscan"]["inputs"]],
                             [(a + "/profile_export.jsonl", "unknown"),
                              (a + "/server_metrics_export.json", "scrape")])
            self.assertEqual(counts(only_family(doc, "vllm", "prometheus")), AIPERF_DOC)
            res, doc = self.read([b])
            self.assertEqual(doc["specscan"]["inputs"][1],
                             {"name": b + "/server_metrics_export.jsonl", "kind": "scrape",
                              "requests": 0, "snapshots": 3})
            self.assertEqual(counts(only_family(doc, "vllm", "prometheus")), AIPERF_LINES)
            res, doc = self.read(["-r", d])
            f = only_family(doc, "vllm", "prometheus")
            self.assertEqual(counts(f), (110, 330, 153))
            self.assertEqual(doc["server"]["endpoints"], 2)
            res = run(["--list-inputs", "-r", d])
            self.assertRan(res)
            self.assertEqual(res.text.split("\n"),
                             [a + "/profile_export.jsonl", a + "/server_metrics_export.json",
                              b + "/profile_export.jsonl", b + "/server_metrics_export.jsonl",
                              ""])

    def test_archive_rule(self):
        """In an archive, DIR/server_metrics_export.jsonl is not read when
        DIR/server_metrics_export.json is a member too, before or after
        it; a directory with the lines alone gives them."""
        with sslib.TempDir() as d:
            tar = os.path.join(d, "runs.tar")
            with tarfile.open(tar, "w") as t:
                t.add(LINES, arcname="a/server_metrics_export.jsonl")
                t.add(DOC, arcname="a/server_metrics_export.json")
                t.add(LINES, arcname="b/server_metrics_export.jsonl")
                t.add(DOC, arcname="c/server_metrics_export.json")
                t.add(LINES, arcname="c/server_metrics_export.jsonl")
            res, doc = self.read([tar])
        names = sorted(i["name"] for i in doc["specscan"]["inputs"])
        self.assertEqual(names, [tar + ":a/server_metrics_export.json",
                                 tar + ":b/server_metrics_export.jsonl",
                                 tar + ":c/server_metrics_export.json"])
        # three endpoints: two documents and b's lines
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual(counts(f), (30 + 80 + 30, 90 + 240 + 90, 42 + 111 + 42))

    def test_shard(self):
        """Under --shard a server line inside a request input is dropped
        with a note, and the document is left out before the split."""
        with sslib.TempDir() as d:
            p = self.write(d, "run.jsonl", VLLM_BODY + lines_of(LINES)[0] + b"\n" +
                           lines_of(LINES)[1] + b"\n" + VLLM_BODY)
            part = os.path.join(d, "part.jsonl")
            res = run(["--shard", "0/1", "-f", "none", "--records", part, p, DOC])
            self.assertRan(res)
            self.assertIn("run.jsonl:2: a server line, left out under --shard", res.errtext)
            self.assertEqual(res.errtext.count("a server line"), 1)
            self.assertIn("server_metrics_export.json: a server input, left out under --shard",
                          res.errtext)
            self.assertEqual(len(lines_of(part)), 2)
            other = self.write(d, "other.jsonl", VLLM_BODY)
            for i, want in ((0, p), (1, other)):
                res = run(["--list-inputs", "--shard", "%d/2" % i, p, DOC, other])
                self.assertRan(res)
                self.assertEqual(res.text, want + "\n")

    def test_threads_agree(self):
        """Many batches: 5000 bodies with AIPerf's three scrapes among
        them, far apart; the window needs them in input order, and -j1
        and -j2 write the same JSON."""
        scrapes = lines_of(LINES)
        data = b""
        for s in scrapes:
            data += VLLM_BODY * 1700 + s + b"\n"
        with sslib.TempDir() as d:
            p = self.write(d, "big.jsonl", data)
            outs = []
            for j in ("-j1", "-j2"):
                res = run(["-f", "json", j, p], timeout=120)
                self.assertRan(res)
                outs.append(res.out)
        self.assertEqual(outs[0], outs[1])
        doc = json.loads(outs[0])
        self.assertEqual(doc["specscan"]["inputs"][0]["snapshots"], 3)
        self.assertEqual(doc["specscan"]["requests"]["total"], 5100)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual(counts(f), AIPERF_LINES)
        self.assertEqual([(i["steps"], i["accepted_tokens"]) for i in f["intervals"]],
                         [(50, 69), (30, 42)])


if __name__ == "__main__":
    main()
