#!/usr/bin/env python3
"""SPEC 13's rulings of issue 35 items 9 and 10 (the parts outside the
exposition grammar) through specscan, on the fixtures of
testdata/server/rulings (their counts are stated in each test; every
expected value is worked out by hand from them):
  * 10.5: an interval leaves out what the family would leave out;
  * 10.3: reconciliation sums the `ok` and `zero_step` records;
  * 7.9: `drafted` is present when every record with by-length rows is
    inconsistent (requests 0);
  * 10.1: TensorRT-LLM iterations whose stats are null or absent are no
    increment; AIPerf's record form with `samples`; a document of two
    endpoints; a document over --max-record-size; the document's name rule
    under --input-kind scrape;
  * 10.2: a gauge of several series is their mean (finite near the double
    maximum), and a number text of 128 bytes and more is read as any other;
  * 10.4: the Engine cell of a second family of one engine in CSV;
  * 10.5: --shard leaves AIPerf's server_metrics_export.jsonl out before
    the split; 10.8: the exports' names count with a compression suffix.
Each test failed on the binary before issue 35's fixes, but for those
named as already right there (kept so they stay right).
"""

import csv
import gzip
import io
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td  # noqa: E402


def rulings(name):
    return td("server", "rulings", name)


def doc_of(res):
    return loads(res.out)


def family(doc, engine, counters="prometheus"):
    fams = [f for f in doc["server"]["families"]
            if f["engine"] == engine and f["counters"] == counters]
    if len(fams) != 1:
        raise AssertionError("no single %s/%s family in %r" % (engine, counters, doc["server"]))
    return fams[0]


class Rulings(Case):
    maxDiff = None

    def ok(self, args, rc=0):
        res = run(args)
        self.assertEqual(res.rc, rc, res.errtext)
        return res

    def test_interval_values_left_out(self):
        """drafts 10, 14, 14, 16; draft tokens 20, 26, 26, 26; accepted 10,
        13, 13, 13 at 100, 200, 300, 400 s: intervals (4, 6, 3: length
        1.75, rate 50.0), (0, 0, 0: neither), (2, 0, 0: length 1.0, no
        rate, ΔD is 0); the window ΔS 6, ΔD 6, ΔA 3: 1.5 and 50.0."""
        f = family(doc_of(self.ok([rulings("intervals_zero.prom")])), "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (6, 6, 3))
        self.assertEqual((f["acceptance_length"], f["draft_acceptance_rate"]), (1.5, 50.0))
        iv = f["intervals"]
        self.assertEqual(len(iv), 3)
        self.assertEqual([(i["start_ns"], i["end_ns"]) for i in iv],
                         [(100 * 10**9, 200 * 10**9), (200 * 10**9, 300 * 10**9),
                          (300 * 10**9, 400 * 10**9)])
        self.assertEqual([(i["steps"], i["draft_tokens"], i["accepted_tokens"]) for i in iv],
                         [(4, 6, 3), (0, 0, 0), (2, 0, 0)])
        self.assertEqual((iv[0]["acceptance_length"], iv[0]["draft_acceptance_rate"]), (1.75, 50.0))
        self.assertNotIn("acceptance_length", iv[1])
        self.assertNotIn("draft_acceptance_rate", iv[1])
        self.assertEqual(iv[2]["acceptance_length"], 1.0)
        self.assertNotIn("draft_acceptance_rate", iv[2])

    def test_reconciliation_sums_zero_step(self):
        """An ok record (4 steps, 4 accepted, 8 drafted) and a zero_step one
        (0 steps, 0 accepted, 5 drafted) beside the two-engine vLLM pages
        (ΔS 91, ΔA 170): Σ steps 4, accepted 4, drafted 8 + 5 = 13."""
        res = self.ok([rulings("requests_zero_step.jsonl"), td("server", "vllm_before.prom"),
                       td("server", "vllm_after.prom")])
        doc = doc_of(res)
        self.assertEqual(doc["specscan"]["requests"]["ok"], 1)
        self.assertEqual(doc["specscan"]["requests"]["zero_step"], 1)
        r = family(doc, "vllm")["reconciliation"]
        self.assertEqual(r["requests"], {"steps": 4, "accepted": 4, "drafted": 13})
        self.assertEqual(r["steps_ratio"], 91 / 4)
        self.assertEqual(r["accepted_ratio"], 170 / 4)

    def test_drafted_present_all_inconsistent(self):
        """One record of 3 steps whose rows by draft length hold 2 steps:
        inconsistent, so `drafted` is {requests 0, steps 0, no position}."""
        doc = doc_of(self.ok(["--positions", rulings("requests_inconsistent_rows.jsonl")]))
        pos = doc["analysis"]["positions"]
        self.assertEqual(pos["excluded"]["inconsistent_by_draft_length"], 1)
        self.assertEqual(pos["drafted"], {"requests": 0, "steps": 0, "positions": []})
        for fmt in ("table", "csv", "markdown"):
            self.ok(["-f", fmt, "--positions", rulings("requests_inconsistent_rows.jsonl")])
        with TempDir() as d:
            self.ok(["--html", os.path.join(d, "r.html"), "--positions",
                     rulings("requests_inconsistent_rows.jsonl")])

    def test_trtllm_null_stats(self):
        """Iterations 1 (4 requests, 12 drafted, 7 accepted) and 4 (3, 9,
        5); 2 has null stats, 3 none: two increments, ΔS 7, ΔD 21, ΔA 12."""
        doc = doc_of(self.ok([rulings("trtllm_null_stats.jsonl")]))
        self.assertEqual(doc["server"]["snapshots"], 2)
        self.assertEqual(doc["server"]["bad_lines"], 0)
        f = family(doc, "tensorrt_llm", "iterations")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (7, 21, 12))
        self.assertEqual(f["acceptance_length"], 1 + 12 / 7)
        self.assertEqual(f["draft_acceptance_rate"], 12 / 21 * 100.0)

    def test_aiperf_samples_form(self):
        """Two lines of one endpoint, drafts and draft tokens in the record
        form (`samples`), accepted in the slim form: 10, 20, 10 then 14,
        26, 13: ΔS 4, ΔD 6, ΔA 3 (SPEC 10.6's first vector)."""
        doc = doc_of(self.ok([rulings("aiperf_samples.jsonl")]))
        self.assertEqual(doc["server"]["bad_lines"], 0)
        f = family(doc, "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (4, 6, 3))
        self.assertEqual(f["acceptance_length"], 1.75)

    def test_document_two_endpoints(self):
        """Endpoint a: totals 30, 60, 12; b: 10, 20, 5: one increment each
        (2 snapshots, 2 endpoints), ΔS 40, ΔD 80, ΔA 17."""
        doc = doc_of(self.ok([os.path.join(rulings("two_endpoints"), "server_metrics_export.json")]))
        self.assertEqual(doc["server"]["snapshots"], 2)
        self.assertEqual(doc["server"]["endpoints"], 2)
        f = family(doc, "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (40, 80, 17))
        self.assertEqual(f["acceptance_length"], 1 + 17 / 40)

    def test_document_name_rule_under_scrape(self):
        """--input-kind scrape still reads a server_metrics_export.json as
        AIPerf's document: the same window as without it."""
        path = os.path.join(rulings("two_endpoints"), "server_metrics_export.json")
        doc = doc_of(self.ok(["--input-kind", "scrape", path]))
        f = family(doc, "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (40, 80, 17))
        self.assertEqual(doc["server"]["bad_lines"], 0)

    def test_compressed_document_by_name(self):
        """SPEC 10.8: the document's name counts with a compression suffix:
        server_metrics_export.json.gz is read as the document (the two
        endpoints' window above), and under --shard it is left out before
        the split, as are server_metrics_export.jsonl.zst and .json.xz."""
        src = os.path.join(rulings("two_endpoints"), "server_metrics_export.json")
        with TempDir() as d:
            gz = os.path.join(d, "server_metrics_export.json.gz")
            with open(src, "rb") as f, gzip.open(gz, "wb") as g:
                g.write(f.read())
            f = family(doc_of(self.ok([gz])), "vllm")
            self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (40, 80, 17))
            zst = os.path.join(d, "server_metrics_export.jsonl.zst")
            with open(zst, "wb") as g:
                g.write(b"")
            req = os.path.join(d, "a.jsonl")
            shutil.copy(td("engines", "vllm_bodies.jsonl"), req)
            res = self.ok(["--shard", "0/1", "--list-inputs", gz, zst, req])
            listed = [ln for ln in res.out.decode("utf-8").splitlines() if ln]
            self.assertEqual([os.path.basename(x) for x in listed], ["a.jsonl"])

    def test_document_over_the_limit(self):
        """The document (over 1 KiB) under --max-record-size 128 is an
        input that could not be read: exit 1 and a message, the vLLM pages
        beside it still read."""
        path = os.path.join(rulings("two_endpoints"), "server_metrics_export.json")
        self.assertGreater(os.path.getsize(path), 1024)
        res = self.ok(["--max-record-size", "128", path, td("server", "vllm_before.prom"),
                       td("server", "vllm_after.prom")], rc=1)
        self.assertIn("server_metrics_export.json", res.errtext)
        f = family(doc_of(res), "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (91, 267, 170))

    def test_gauges_of_several_series(self):
        """The last snapshot holds spec_accept_length 2.0 (203 bytes of
        text) and 3.5: mean 2.75; spec_accept_rate twice the double maximum:
        mean the maximum (no overflow). spec_verify_calls 10 then 14 (the
        second written with 200 leading zeros): ΔS 4; one counter series."""
        doc = doc_of(self.ok([rulings("gauges.prom")]))
        self.assertEqual(doc["server"]["bad_lines"], 0)
        f = family(doc, "sglang")
        self.assertEqual(f["steps"], 4)
        self.assertEqual(f["series"], 1)
        self.assertEqual(f["gauges"], {"sglang:spec_accept_length": 2.75,
                                       "sglang:spec_accept_rate": 1.7976931348623157e308})

    def test_csv_engine_cell_of_second_family(self):
        """TensorRT-LLM's Prometheus pages and its iterations: two
        families; the second's Engine cell is `tensorrt_llm (iterations)`."""
        res = self.ok(["-f", "csv", td("server", "trtllm_before.prom"), td("server", "trtllm_after.prom"),
                       rulings("trtllm_null_stats.jsonl")])
        rows = list(csv.reader(io.StringIO(res.out.decode("utf-8"))))
        engines = set(r[0] for r in rows if len(r) == 3 and r[1] == "Steps")
        self.assertEqual(engines, {"tensorrt_llm", "tensorrt_llm (iterations)"})
        steps = [r for r in rows if len(r) == 3 and r[:2] == ["tensorrt_llm (iterations)", "Steps"]]
        self.assertEqual(steps, [["tensorrt_llm (iterations)", "Steps", "7.00"]])

    def test_shard_leaves_out_aiperf_jsonl(self):
        """An artifact-like folder with a request file and AIPerf's
        server_metrics_export.jsonl: under --shard 0/1 --list-inputs only
        the request file is listed."""
        with TempDir() as d:
            shutil.copy(td("engines", "vllm_bodies.jsonl"), os.path.join(d, "a.jsonl"))
            shutil.copy(td("server", "aiperf", "server_metrics_export.jsonl"),
                        os.path.join(d, "server_metrics_export.jsonl"))
            res = self.ok(["--shard", "0/1", "--list-inputs", os.path.join(d, "a.jsonl"),
                           os.path.join(d, "server_metrics_export.jsonl")])
            listed = [ln for ln in res.out.decode("utf-8").splitlines() if ln]
            self.assertEqual([os.path.basename(x) for x in listed], ["a.jsonl"])


if __name__ == "__main__":
    main()
