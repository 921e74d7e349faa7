#!/usr/bin/env python3
"""SPEC 10 through specscan itself: server inputs detected by content (or
forced), listed as kind `scrape`, the `server` key last, the `Server Spec
Decode` section of -f table and -f markdown, the CSV section, the --expect
tags, --draft-cost on the rebuilt histogram, the reconciliation with the
requests of the same run, bad pages counted and named, --shard leaving
server inputs out, and memory that does not grow with a long soak.

SPEC 10.1's JSON server shapes too: each shape's lines detected among
JSONL (AIPerf's server_metrics_export.jsonl lines, TensorRT-LLM's
iterations, SGLang's server info, a Prometheus API result), AIPerf's
server_metrics_export.json by its name (whatever --input-kind says, up to
--max-record-size), an input of requests with a server line in it listed
as `mixed`, an AIPerf artifact directory contributing its server-metrics
export (SPEC 10.4) on disk and in an archive, --shard leaving them out
with a note (10.5), and -j1 = -j2 (class ServerWire).

Expected windows are worked out by hand from the counts testdata/server/
make_pages.py writes and the JSON fixtures hold (testdata/server/README.md
states them; test_server_stage.py derives the same windows through the
stage's own driver, restated here); hand-written pages are built in the
tests.
"""

import gzip
import json
import os
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampled  # noqa: E402
import sslib  # noqa: E402
from sslib import Case, main, run, td  # noqa: E402

FAMILY_KEYS = ["engine", "counters", "series", "processes", "resets", "since_start", "inexact", "estimated",
               "window", "steps", "draft_tokens", "accepted_tokens", "acceptance_length",
               "draft_acceptance_rate", "positions", "consistent", "histogram", "what_if",
               "draft_cost", "suggested_k", "gauges", "intervals", "reconciliation"]

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

def page(name):
    return td("server", name)


def doc_of(res):
    return json.loads(res.out.decode("utf-8"))


def family(doc, engine, counters="prometheus"):
    for f in doc["server"]["families"]:
        if f["engine"] == engine and f["counters"] == counters:
            return f
    raise AssertionError("no %s/%s family in %r" % (engine, counters, doc.get("server")))


def vllm_page(drafts, draft_tokens, accepted, time=None):
    """A minimal vLLM page (names with _total, as prometheus_client writes them)."""
    lines = []
    if time is not None:
        lines.append("# time: %s" % time)
    lines.append("# HELP vllm:spec_decode_num_drafts Number of spec decoding drafts.")
    lines.append("# TYPE vllm:spec_decode_num_drafts counter")
    for name, v in (("drafts", drafts), ("draft_tokens", draft_tokens),
                    ("accepted_tokens", accepted)):
        if v is not None:
            lines.append('vllm:spec_decode_num_%s_total{engine="0",model_name="m"} %s' % (name, v))
    return ("\n".join(lines) + "\n").encode()


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

class ServerCli(Case):
    maxDiff = None

    def write(self, d, name, data):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_vllm_pages_json(self):
        """SPEC 10.6's vLLM vector (engine 0) plus its survival counts
        (engine 1): summed Δ 91, 267, 170; ΔP 72, 56, 42; ΔDP 91, 89, 87."""
        res = run([page("vllm_before.prom"), page("vllm_after.prom")])
        self.assertRan(res)
        doc = doc_of(res)
        self.assertEqual(list(doc), ["specscan", "server"])
        self.assertEqual(doc["specscan"]["inputs"], [
            {"name": page("vllm_before.prom"), "kind": "scrape", "requests": 0, "snapshots": 1},
            {"name": page("vllm_after.prom"), "kind": "scrape", "requests": 0, "snapshots": 1}])
        self.assertEqual(doc["specscan"]["requests"]["total"], 0)
        srv = doc["server"]
        self.assertEqual(list(srv), ["endpoints", "snapshots", "bad_lines", "families"])
        self.assertEqual((srv["endpoints"], srv["snapshots"], srv["bad_lines"]), (1, 2, 0))
        f = family(doc, "vllm")
        self.assertEqual(list(f), [k for k in FAMILY_KEYS if k in f])
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (91, 267, 170))
        self.assertEqual(f["acceptance_length"], 1 + 170 / 91)
        self.assertEqual(f["draft_acceptance_rate"], 170 / 267 * 100.0)
        self.assertEqual(f["window"], {"start_ns": None, "end_ns": None})
        self.assertEqual([list(p) for p in f["positions"]][0],
                         ["position", "accepted", "drafted", "rate", "conditional"])
        self.assertEqual([(p["accepted"], p["drafted"]) for p in f["positions"]],
                         [(72, 91), (56, 89), (42, 87)])
        self.assertTrue(f["consistent"])
        self.assertNotIn("histogram", f)   # drafting varied

    def test_openmetrics_and_stdin(self):
        """The OpenMetrics pages (ending in # EOF) give the same window, also
        both pages on standard input one after the other."""
        res = run([page("vllm_before.om.prom"), page("vllm_after.om.prom")])
        self.assertRan(res)
        f = family(doc_of(res), "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (91, 267, 170))
        with open(page("vllm_before.om.prom"), "rb") as a, open(page("vllm_after.om.prom"), "rb") as b:
            data = a.read() + b.read()
        res = run(["-"], stdin=data)
        self.assertRan(res)
        doc = doc_of(res)
        self.assertEqual(doc["specscan"]["inputs"],
                         [{"name": "<stdin>", "kind": "scrape", "requests": 0, "snapshots": 2}])
        self.assertEqual(family(doc, "vllm")["steps"], 91)

    def test_all_engines_one_stream(self):
        """Every before page, then every after page, on standard input:
        one input of two snapshots, four families in engine order (vLLM,
        TensorRT-LLM, llama.cpp, SGLang), each its own window."""
        names = ["sglang", "llamacpp", "vllm", "trtllm"]   # not engine order
        text = b""
        for when in ("before", "after"):
            for n in names:
                with open(page("%s_%s.prom" % (n, when)), "rb") as f:
                    text += f.read()
        res = run(["-"], stdin=text)
        self.assertRan(res)
        doc = doc_of(res)
        self.assertEqual(doc["specscan"]["inputs"],
                         [{"name": "<stdin>", "kind": "scrape", "requests": 0, "snapshots": 2}])
        self.assertEqual([(f["engine"], f["steps"], f["accepted_tokens"]) for f in doc["server"]["families"]],
                         [("vllm", 91, 170), ("tensorrt_llm", 87, 167), ("llamacpp", 25, 70),
                          ("sglang", 2000, 6200)])
        self.assertEqual(doc["server"]["bad_lines"], 0)

    def test_compressed_and_archive(self):
        """Detection after decompression, and archive members each an input."""
        with sslib.TempDir() as d:
            with open(page("llamacpp_after.prom"), "rb") as f:
                gz = self.write(d, "after.prom.gz", gzip.compress(f.read()))
            tar = os.path.join(d, "pages.tar")
            with tarfile.open(tar, "w") as t:
                t.add(page("trtllm_before.prom"), arcname="b.prom")
                t.add(page("trtllm_after.prom"), arcname="a.prom")
            res = run([page("llamacpp_before.prom"), gz, tar])
            self.assertRan(res)
            doc = doc_of(res)
            self.assertEqual([(i["name"], i["kind"], i["snapshots"]) for i in doc["specscan"]["inputs"]],
                             [(page("llamacpp_before.prom"), "scrape", 1), (gz, "scrape", 1),
                              (tar + ":b.prom", "scrape", 1), (tar + ":a.prom", "scrape", 1)])
            # llama.cpp: SPEC 10.6 (Δ 70, 98, 25); trtllm: S 87, D 261, A 167
            self.assertEqual([(f["engine"], f["steps"], f["draft_tokens"], f["accepted_tokens"])
                              for f in doc["server"]["families"]],
                             [("tensorrt_llm", 87, 261, 167), ("llamacpp", 25, 98, 70)])
            self.assertEqual(family(doc, "llamacpp")["acceptance_length"], 3.8)
            self.assertEqual(family(doc, "llamacpp")["draft_acceptance_rate"], 71.42857142857143)

    def test_trtllm_draft_cost(self):
        """Fixed drafting: H = {17, 15, 13, 42}; τ(k') = 1 + A(k')/87 with
        A = 70, 125, 167; speedup τ/(1 + 0.1 k'); the best k' is suggested."""
        res = run(["--draft-cost", "0.1", page("trtllm_before.prom"), page("trtllm_after.prom")])
        self.assertRan(res)
        f = family(doc_of(res), "tensorrt_llm")
        self.assertEqual(f["histogram"], {"0": 17, "1": 15, "2": 13, "3": 42})
        taus = [1 + 70 / 87, 1 + 125 / 87, 1 + 167 / 87]
        self.assertEqual([w["acceptance_length"] for w in f["what_if"]], taus)
        self.assertEqual([w["draft_acceptance_rate"] for w in f["what_if"]],
                         [70 / 87 * 100.0, 125 / (2 * 87) * 100.0, 167 / (3 * 87) * 100.0])
        speedups = [t / (1.0 + 0.1 * (k + 1)) for k, t in enumerate(taus)]
        self.assertEqual([w["speedup"] for w in f["what_if"]], speedups)
        self.assertEqual(f["draft_cost"], 0.1)
        self.assertEqual(f["suggested_k"], speedups.index(max(speedups)) + 1)
        self.assertEqual(f["gauges"], {"trtllm_spec_decode_acceptance_length": 2.92})

    def test_sglang_estimated(self):
        """Rank 0 only: A = 8250 - 50 - 2000 = 6200, estimated; no D."""
        res = run(["-f", "table", page("sglang_before.prom"), page("sglang_after.prom")])
        self.assertRan(res)
        self.assertIn("  sglang, 2 snapshots, 1 series: acceptance length 4.10, 2,000 steps, "
                      "6,200 accepted (estimated)\n", res.text)
        self.assertIn("  note: estimated: accepted tokens = generated tokens - requests", res.text)
        self.assertIn("  note: gauge sglang:spec_accept_length: 2.90", res.text)

    def test_scrape_loop(self):
        """Five pages 10 s apart, a restart before the fourth: intervals
        S 100, 150, 30, 100 (A 200, 250, 60, 200), one reset."""
        res = run([page("vllm_scrapes.prom")])
        self.assertRan(res)
        doc = doc_of(res)
        self.assertEqual(doc["specscan"]["inputs"][0]["snapshots"], 5)
        f = family(doc, "vllm")
        self.assertEqual(f["resets"], 1)
        self.assertEqual(f["window"], {"start_ns": 1765039200 * 10**9, "end_ns": 1765039240 * 10**9})
        self.assertEqual([(i["steps"], i["accepted_tokens"]) for i in f["intervals"]],
                         [(100, 200), (150, 250), (30, 60), (100, 200)])
        self.assertEqual(list(f["intervals"][0]),
                         ["process", "start_ns", "end_ns", "steps", "draft_tokens", "accepted_tokens",
                          "acceptance_length", "draft_acceptance_rate"])
        self.assertEqual(f["intervals"][1]["acceptance_length"], 1 + 250 / 150)

    def test_table(self):
        """The section after the others: the family line (1 + 170/91 =
        2.87, 170/267 = 63.67%), positions with their drafted counts."""
        res = run(["-f", "table", page("vllm_before.prom"), page("vllm_after.prom")])
        self.assertRan(res)
        lines = res.text.split("\n")
        i = lines.index("Server Spec Decode")
        self.assertIn("0 requests", "\n".join(lines[:i]))
        self.assertEqual(lines[i + 1], "  vllm, 2 snapshots, 2 series: acceptance length 2.87, "
                         "draft acceptance rate 63.67%, 91 steps, 267 drafted, 170 accepted")
        self.assertEqual(lines[i + 2], "  Acceptance by position (k=3, 91 steps):  "
                         "1: 79% of 91  2: 63% of 89  3: 48% of 87")

    def test_table_fixed_drafting(self):
        """TensorRT-LLM's pages: 7.1's two lines (70/87 = 80%, 55/87 = 63%,
        42/87 = 48%; τ 1.80, 2.44, 2.92), then the gauge note."""
        res = run(["-f", "table", page("trtllm_before.prom"), page("trtllm_after.prom")])
        self.assertRan(res)
        self.assertIn("\n  tensorrt_llm, 2 snapshots, 1 series: acceptance length 2.92, draft "
                      "acceptance rate 63.98%, 87 steps, 261 drafted, 167 accepted\n"
                      "  Acceptance by position (k=3, 87 steps):  1: 80%  2: 63%  3: 48%\n"
                      "  If the draft were shorter (k=3):  k=1: 1.80  k=2: 2.44  k=3: 2.92 "
                      "tokens/step\n", res.text)

    def test_markdown(self):
        """After the Spec Decode section: the positions table, and the
        shorter-draft table (k' = 2: τ 1 + 125/87 = 2.44, rate 125/174 =
        71.84%, speedup 2.4368/1.2 = 2.03x)."""
        res = run(["-f", "markdown", "--draft-cost", "0.1", page("trtllm_before.prom"),
                   page("trtllm_after.prom")])
        self.assertRan(res)
        text = res.text
        self.assertIn("\n## Server Spec Decode\n", text)
        self.assertLess(text.index("## Spec Decode"), text.index("## Server Spec Decode"))
        self.assertRegex(text, r"\| Position \| +Accepted \| +Drafted \| +Rate \| +Conditional \|")
        # position 2: 55 of 87 (63%), given position 1's 70 (79%)
        self.assertRegex(text, r"\| +2 \| +55 \| +87 \| +63% \| +79% \|")
        self.assertRegex(text, r"\| +2 \| +2\.44 \| +71\.84 \| +2\.03x \|")

    def test_csv(self):
        """The section Engine,Metric,Value after the others, %.2f, CRLF."""
        with sslib.TempDir() as d:
            body = self.write(d, "bodies.jsonl", VLLM_BODY)
            res = run(["-f", "csv", body, page("llamacpp_before.prom"), page("llamacpp_after.prom")])
            self.assertRan(res)
            text = res.out.decode()
            tail = text[text.index("Engine,Metric,Value"):]
            self.assertTrue(text[:text.index("Engine,Metric,Value")].endswith("\r\n\r\n"))
            self.assertEqual(tail, "Engine,Metric,Value\r\n"
                             "llamacpp,Acceptance Length (ratio),3.80\r\n"
                             "llamacpp,Draft Acceptance Rate (%),71.43\r\n"
                             "llamacpp,Steps,25.00\r\n"
                             "llamacpp,Draft Tokens (tokens),98.00\r\n"
                             "llamacpp,Accepted Draft Tokens (tokens),70.00\r\n")

    def test_reconciliation_and_key_order(self):
        """One vLLM body (steps 43, accepted 10, drafted 129) beside the
        pages (ΔS 91, ΔA 170): ratios 91/43 and 170/10, both off by more
        than 1%: the note. The server key comes after analysis."""
        with sslib.TempDir() as d:
            body = self.write(d, "bodies.jsonl", VLLM_BODY)
            res = run(["--positions", body, page("vllm_before.prom"), page("vllm_after.prom")])
            self.assertRan(res)
            doc = doc_of(res)
            keys = list(doc)
            self.assertEqual(keys[-2:], ["analysis", "server"])
            self.assertEqual([i["kind"] for i in doc["specscan"]["inputs"]], ["body", "scrape", "scrape"])
            self.assertNotIn("snapshots", doc["specscan"]["inputs"][0])
            self.assertEqual(family(doc, "vllm")["reconciliation"], {
                "requests": {"steps": 43, "accepted": 10, "drafted": 129},
                "steps_ratio": 91 / 43, "accepted_ratio": 170 / 10})
            res = run(["-f", "table", body, page("vllm_before.prom"), page("vllm_after.prom")])
            self.assertIn("  vllm: server 91 steps, 170 accepted; requests 43 steps (ratio 2.12), "
                          "10 accepted (ratio 17.00)\n", res.text)
            self.assertIn("  note: the server and the requests differ by more than 1%", res.text)

    def test_expect(self):
        both = [page("vllm_before.prom"), page("vllm_after.prom")]
        self.assertRan(run(["-f", "none", "--expect", "server_acceptance_length >= 2.86"] + both))
        self.assertRan(run(["-f", "none", "--expect", "server_draft_acceptance_rate > 63.6"] + both))
        res = run(["-f", "none", "--expect", "server_acceptance_length >= 2.87"] + both)
        self.assertEqual(res.rc, 4, res)
        self.assertIn("expectation failed: server_acceptance_length >= 2.87 (the value is "
                      "2.868131868131868)", res.errtext)
        # two families with a value: absent, so failing
        res = run(["-f", "none", "--expect", "server_acceptance_length > 0"] + both +
                  [page("llamacpp_before.prom"), page("llamacpp_after.prom")])
        self.assertEqual(res.rc, 4, res)
        self.assertIn("no such value", res.errtext)
        # no server input: absent too
        res = run(["-f", "none", "--expect", "server_acceptance_length > 0", td("engines", "vllm_bodies.jsonl")])
        self.assertEqual(res.rc, 4, res)

    def test_forced_kinds(self):
        """A page whose first line is another comment is not detected: it
        reads as JSONL (unparsable lines) unless --input-kind scrape; a
        forced request kind turns detection off for a real page."""
        with sslib.TempDir() as d:
            with open(page("llamacpp_after.prom"), "rb") as f:
                data = b"# saved from host:8000\n" + f.read()
            p = self.write(d, "odd.prom", data)
            doc = doc_of(run([p]))
            self.assertNotIn("server", doc)
            self.assertGreater(doc["specscan"]["requests"]["unparsable"], 0)
            res = run(["--input-kind", "scrape", p])
            self.assertRan(res)
            doc = doc_of(res)
            self.assertEqual(doc["specscan"]["inputs"][0]["kind"], "scrape")
            self.assertTrue(family(doc, "llamacpp")["since_start"])
            doc = doc_of(run(["--input-kind", "body", page("llamacpp_after.prom")]))
            self.assertNotIn("server", doc)
            self.assertEqual(doc["specscan"]["requests"]["total"],
                             doc["specscan"]["requests"]["unparsable"])

    def test_bad_pages(self):
        """Counted and named, never a stop: a NaN on a counter holds its
        series (10, NaN, 14: Δ 4); a counter going down is a reset (100,
        150, 20, 60: Δ 50 + 20 + 40 = 110, SPEC 10.6); a page cut mid-line."""
        with sslib.TempDir() as d:
            nan = self.write(d, "nan.prom", vllm_page(10, 20, 10, 1) + vllm_page("NaN", 23, 12, 2) +
                             vllm_page(14, 26, 13, 3))
            reset = self.write(d, "reset.prom", b"".join(
                vllm_page(v, 2 * v, v // 2, t) for t, v in enumerate((100, 150, 20, 60))))
            cut = self.write(d, "cut.prom", vllm_page(10, 20, 10)[:-9])
            res = run([nan])
            self.assertRan(res)
            doc = doc_of(res)
            self.assertEqual(doc["server"]["bad_lines"], 1)
            self.assertRegex(res.errtext, r"nan\.prom:\d+: ")
            self.assertEqual((family(doc, "vllm")["steps"], family(doc, "vllm")["accepted_tokens"]), (4, 3))
            res = run([reset])
            self.assertRan(res)
            f = family(doc_of(res), "vllm")
            self.assertEqual((f["steps"], f["resets"]), (110, 1))
            self.assertEqual(f["draft_tokens"], 220)   # 2x each value: one reset too
            res = run([cut, page("vllm_before.prom")])
            self.assertRan(res)
            doc = doc_of(res)
            self.assertEqual(doc["server"]["bad_lines"], 1)
            self.assertIn("cut.prom:", res.errtext)
            self.assertEqual(doc["specscan"]["inputs"][0]["snapshots"], 1)

    def test_series_disappearing(self):
        """A series missing from a snapshot is diffed between the snapshots
        that hold it (SPEC 10.3): drafts 10, missing, 14: Δ 4, no reset;
        draft tokens 20, 22, 26: Δ 6; accepted 10, 12, 13: Δ 3."""
        with sslib.TempDir() as d:
            p = self.write(d, "gone.prom", vllm_page(10, 20, 10, 1) + vllm_page(None, 22, 12, 2) +
                           vllm_page(14, 26, 13, 3))
            res = run([p])
            self.assertRan(res)
            f = family(doc_of(res), "vllm")
            self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (4, 6, 3))
            self.assertEqual(f["resets"], 0)

    def test_no_counters(self):
        """A page of a server without spec decoding: listed, no family."""
        with sslib.TempDir() as d:
            p = self.write(d, "plain.prom", b"# HELP up Up.\n# TYPE up gauge\nup 1\n")
            res = run(["-f", "table", p])
            self.assertRan(res)
            self.assertIn("Server Spec Decode\n  no spec-decode counters in 1 snapshot\n", res.text)

    def test_shard(self):
        """Under --shard server inputs are left out, with a note; the merge
        run reads them beside the parts."""
        with sslib.TempDir() as d:
            body = self.write(d, "bodies.jsonl", VLLM_BODY)
            part = os.path.join(d, "part.jsonl")
            res = run(["--shard", "0/1", "-f", "none", "--records", part, body,
                       page("vllm_before.prom"), page("vllm_after.prom")])
            self.assertRan(res)
            self.assertIn("vllm_before.prom: a server input, left out under --shard", res.errtext)
            res = run([part, page("vllm_before.prom"), page("vllm_after.prom")])
            self.assertRan(res)
            doc = doc_of(res)
            self.assertEqual(family(doc, "vllm")["reconciliation"]["requests"]["steps"], 43)
            # before the split: of four units two are pages, so each of two
            # shards gets one request file (not a body and a page)
            other = self.write(d, "other.jsonl", VLLM_BODY)
            units = [body, page("vllm_before.prom"), page("vllm_after.prom"), other]
            for i, want in ((0, body), (1, other)):
                res = run(["--list-inputs", "--shard", "%d/2" % i] + units)
                self.assertRan(res)
                self.assertEqual(res.text, want + "\n")
                self.assertEqual(res.errtext.count("left out under --shard"), 2)
            # a page inside an archive (one unit) is left out when read
            tar = os.path.join(d, "pages.tar")
            with tarfile.open(tar, "w") as t:
                t.add(page("vllm_after.prom"), arcname="a.prom")
            res = run(["--shard", "0/1", tar])
            self.assertRan(res)
            self.assertIn("pages.tar:a.prom: a server input, left out under --shard", res.errtext)
            self.assertNotIn("server", doc_of(res))


    def test_memory_bounded(self):
        """Two soaks of 400 and 4000 pages (a real vLLM page and counters
        that grow, so every interval is kept): the longer one (55 MB) does
        not keep its pages; its peak RSS stays within 16 MiB of the shorter
        one's (what grows is the intervals, under 100 bytes each, capped
        at SS_SERVER_MAX_INTERVALS). The counts prove every page was read."""
        with open(page("vllm_after.prom"), "rb") as f:
            one = f.read()
        rss = []
        with sslib.TempDir() as d:
            for n in (400, 4000):
                p = os.path.join(d, "soak%d.prom" % n)
                with open(p, "wb") as f:
                    for t in range(n):
                        f.write(b"# time: %d\n" % (1765039000 + 10 * t))
                        f.write(one)
                        f.write(vllm_page(4 * t, 12 * t, 7 * t))
                out = os.path.join(d, "out%d.json" % n)
                proc = subprocess.Popen([sslib.SPECSCAN, "-f", "none", "-j", "1", "--json", out, p],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                self.assertEqual(proc.returncode, 0)
                rss.append(usage.ru_maxrss)   # KiB
                with open(out) as f:
                    doc = json.load(f)
                # the real page's vLLM counters do not move; the small one's
                # grow by 4, 12, 7 a page
                fam = family(doc, "vllm")
                self.assertEqual(doc["server"]["snapshots"], n)
                self.assertEqual((fam["steps"], fam["accepted_tokens"]), (4 * (n - 1), 7 * (n - 1)))
                self.assertEqual(len(fam["intervals"]), n - 1)
        self.assertLess(rss[1], rss[0] + 16 * 1024, rss)



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

def measured(args, specscan=None):
    """Run specscan alone: (exit status, stderr, peak RSS in KiB, user CPU s)."""
    proc = subprocess.Popen([specscan or sslib.SPECSCAN] + args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), err, usage.ru_maxrss, usage.ru_utime


class Bounds(Case):
    """Issue 35: the server stage within --memory-limit, and linear in its input.

    Memory is the child's own peak RSS (wait4); CPU is the ratio of user
    time for an input and one four times its size, with a generous bound
    (linear work gives about 4, work of series x snapshots about 16)."""

    ASAN = sampled.sanitized(sslib.SPECSCAN)

    def test_endpoints_bounded(self):
        """AIPerf lines of 20,000 distinct endpoints, each with drafts and a
        counter at position 4096 (sums by position for each), under --memory-limit
        256M: the peak stays under 256 MiB, the run ends 0, a message names
        the bound, and the kept endpoints' counts are right (each line is
        one snapshot of its endpoint: since start, 1 each)."""
        if self.ASAN:
            self.skipTest("sanitizer build: its own memory")
        with sslib.TempDir() as d:
            p = os.path.join(d, "server_metrics_export.jsonl")
            with open(p, "w") as f:
                for i in range(20000):
                    f.write('{"endpoint_url":"http://h%d/metrics","timestamp_ns":1,"metrics":'
                            '{"vllm:spec_decode_num_drafts":[{"labels":{},"value":1}],'
                            '"vllm:spec_decode_num_accepted_tokens_per_pos":[{"labels":'
                            '{"position":"4095"},"value":1}]}}\n' % i)
            out = os.path.join(d, "o.json")
            rc, err, rss, _ = measured(["-f", "none", "--memory-limit", "256M", "--json", out, p])
            self.assertEqual(rc, 0, err)
            self.assertLess(rss, 256 * 1024, rss)
            self.assertIn(b"see --memory-limit", err)
            with open(out) as f:
                doc = json.load(f)
            fam = family(doc, "vllm")
            kept = doc["server"]["endpoints"]
            self.assertGreater(kept, 0)
            self.assertLess(kept, 20000)
            # every snapshot of a kept endpoint adds its drafts, unless the
            # budget refused that series (a bad sample then)
            self.assertGreater(fam["steps"], 0)
            self.assertLessEqual(fam["steps"], kept)
            self.assertEqual(doc["server"]["snapshots"], kept)
            self.assertGreaterEqual(doc["server"]["bad_lines"], 20000 - kept)

    def test_dir_groups_share_the_budget(self):
        """Issue 35 item 2 with --group-by dir (SPEC 5's one memory bound,
        10.7): 48 directories, each an AIPerf export of 400 endpoints with
        drafts and a counter at position 4096 (about 200 KB of sums by
        position each, 78 MB a directory). The directories' states share
        one budget (16 MiB under --memory-limit 256M): the peak stays under
        256 MiB (each with a budget of its own, 48 budgets, it was 304 MiB;
        measured 18 MiB shared), the run
        ends 0, every directory has its row, and a message says the groups
        reached their bound."""
        if self.ASAN:
            self.skipTest("sanitizer build: its own memory")
        with sslib.TempDir() as d:
            files = []
            for g in range(48):
                os.mkdir(os.path.join(d, "g%02d" % g))
                p = os.path.join(d, "g%02d" % g, "server_metrics_export.jsonl")
                with open(p, "w") as f:
                    for i in range(400):
                        f.write('{"endpoint_url":"http://h%d/metrics","timestamp_ns":1,"metrics":'
                                '{"vllm:spec_decode_num_drafts":[{"labels":{},"value":1}],'
                                '"vllm:spec_decode_num_accepted_tokens_per_pos":[{"labels":'
                                '{"position":"4095"},"value":1}]}}\n' % i)
                files.append(p)
            out = os.path.join(d, "o.json")
            rc, err, rss, _ = measured(["-f", "none", "--memory-limit", "256M", "--group-by", "dir",
                                        "--json", out] + files)
            self.assertEqual(rc, 0, err)
            self.assertLess(rss, 256 * 1024, rss)
            self.assertIn(b"--group-by dir: the directories' server counters reached their bound",
                          err)
            with open(out) as f:
                doc = json.load(f)
            rows = doc["server"]["groups"]["rows"]
            self.assertEqual(len(rows), 48)
            self.assertEqual(sorted(r["key"]["dir"] for r in rows),
                             sorted(os.path.join(d, "g%02d" % g) for g in range(48)))

    def test_long_labels_bounded(self):
        """400 series whose labels are 1 MB each: a kept series' label set
        is at most 4 KiB, so each is a bad sample and the peak stays small
        under --memory-limit 256M."""
        if self.ASAN:
            self.skipTest("sanitizer build: its own memory")
        with sslib.TempDir() as d:
            p = os.path.join(d, "big.prom")
            with open(p, "w") as f:
                f.write("vllm:spec_decode_num_drafts 1\n")
                for i in range(400):
                    f.write('vllm:spec_decode_num_drafts{m="%d%s"} 1\n' % (i, "x" * 1000000))
            out = os.path.join(d, "o.json")
            rc, err, rss, _ = measured(["-f", "none", "--memory-limit", "256M", "--json", out, p])
            self.assertEqual(rc, 0, err)
            self.assertLess(rss, 200 * 1024, rss)
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual(doc["server"]["bad_lines"], 400)
            self.assertEqual(family(doc, "vllm")["series"], 1)

    def cpu_ratio(self, make):
        """User CPU of make(4n) over make(n), each the best of two runs."""
        times = []
        with sslib.TempDir() as d:
            for n in (1, 4):
                p = os.path.join(d, "in%d.prom" % n)
                with open(p, "w") as f:
                    make(f, n)
                best = None
                for _ in range(2):
                    rc, err, _, cpu = measured(["-f", "none", "-j", "1", "--json",
                                                os.path.join(d, "o.json"), "--force", p])
                    self.assertEqual(rc, 0, err)
                    best = cpu if best is None else min(best, cpu)
                times.append(best)
        return times[1] / max(times[0], 0.05), times

    def test_cpu_linear_in_pages(self):
        """n x 15,000 series of vLLM's drafts on one page, then n x 15,000
        one-line pages (`# time:` and a drafts line): with a walk over
        every series per snapshot the work grows 16-fold for 4n, linearly
        about 4-fold (the bound: 8)."""
        def make(f, n):
            k = 15000 * n
            f.write("".join('vllm:spec_decode_num_drafts{w="%d"} 1\n' % i for i in range(k)))
            f.write("".join("# time: %d\nvllm:spec_decode_num_drafts{w=\"0\"} %d\n" % (t + 1, t + 2)
                            for t in range(k)))
        ratio, times = self.cpu_ratio(make)
        self.assertLess(ratio, 8.0, times)

    def test_cpu_linear_query_range(self):
        """One Prometheus answer of n x 15,000 series of vLLM's drafts, each
        at its own time (a snapshot per time): linear about 4-fold for 4n
        (the bound: 8), where a walk over every series per snapshot would
        grow 16-fold (issue 35 class 3: 40,000 such series took 6 s)."""
        def make(f, n):
            k = 15000 * n
            res = [{"metric": {"__name__": "vllm:spec_decode_num_drafts_total", "w": str(i)},
                    "values": [[1000 + i, "1"]]} for i in range(k)]
            f.write(json.dumps({"status": "success",
                                "data": {"resultType": "matrix", "result": res}}) + "\n")
        ratio, times = self.cpu_ratio(make)
        self.assertLess(ratio, 8.0, times)

    def test_cpu_linear_server_info(self):
        """SGLang server info: one answer of n x 15,000 states, then
        n x 15,000 answers of one state: linear (issue 35 class 3: 23 s
        for 40,000 before the fix)."""
        def make(f, n):
            k = 15000 * n
            f.write(json.dumps({"internal_states": [{"spec_cumulative_num_forward_ct": 1,
                                                     "spec_cumulative_num_accept_tokens": 2}] * k})
                    + "\n")
            f.write("".join('{"internal_states":[{"spec_cumulative_num_forward_ct":%d,'
                            '"spec_cumulative_num_accept_tokens":%d}]}\n' % (t + 2, t + 3)
                            for t in range(k)))
        ratio, times = self.cpu_ratio(make)
        self.assertLess(ratio, 8.0, times)


if __name__ == "__main__":
    main()
