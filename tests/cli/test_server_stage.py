#!/usr/bin/env python3
"""SPEC 10's server stage through its driver, tests/tools/server_tool, on
the fixtures of testdata/server:
  * the text pages (made by make_pages.py with the servers' own client
    library): the window of each engine's pages, worked out by hand from
    the counts make_pages.py writes (stated below); both text formats
    agree, a scrape loop's intervals and restart, pages cut short, and
    reading in pieces or without the template changes nothing;
  * SPEC 10.1's JSON shapes (aiperf/, trtllm/, sglang/, and prometheus/,
    which a real Prometheus answered), read --as jsonl (each line's shape
    found and fed) and --as document (AIPerf's server_metrics_export.json
    whole). The windows are worked out by hand from the counts the
    fixtures hold (testdata/server/README.md states them); the doubles are
    Python's own division of those integers.

SERVER_TOOL names the driver (default: tests/tools/server_tool beside the
SPECSCAN binary of sslib). The same inputs through specscan itself are in
test_server_cli.py.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, server_tool, td  # noqa: E402


def page(name):
    return td("server", name)



def family(doc, engine, counters="prometheus"):
    for f in doc["server"]["families"]:
        if f["engine"] == engine and f["counters"] == counters:
            return f
    raise AssertionError("no %s/%s family in %r" % (engine, counters, doc["server"]))


class Fixtures(Case):
    maxDiff = None

    def window(self, *names, args=()):
        rc, doc, err = server_tool(*args, *[page(n) for n in names])
        self.assertEqual(rc, 0, err)
        for i in doc["inputs"]:
            self.assertEqual(i["bad_lines"], 0, "%s: %s" % (i["name"], err))
        return doc

    def test_vllm_two_engines(self):
        """Engine "0" is SPEC 10.6's first vector (Δ 4, 6, 3, ΔP 2, 1, 0,
        ΔDP 4, 2, 0); engine "1" its survival counts (Δ 87, 261, 167,
        ΔP 70, 55, 42, ΔDP 87 each). Summed: 91, 267, 170; ΔP 72, 56, 42;
        ΔDP 91, 89, 87 (drafting varied: no histogram)."""
        for before, after in (("vllm_before.prom", "vllm_after.prom"),
                              ("vllm_before.om.prom", "vllm_after.om.prom"),
                              ("vllm_before.prom", "vllm_after.om.prom")):
            doc = self.window(before, after)
            self.assertEqual(doc["server"]["snapshots"], 2)
            self.assertEqual(len(doc["server"]["families"]), 1)
            f = family(doc, "vllm")
            self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (91, 267, 170))
            self.assertEqual(f["series"], 2)
            self.assertEqual(f["acceptance_length"], 1 + 170 / 91)
            self.assertEqual(f["draft_acceptance_rate"], 170 / 267 * 100.0)
            self.assertEqual([(p["accepted"], p["drafted"]) for p in f["positions"]],
                             [(72, 91), (56, 89), (42, 87)])
            self.assertEqual([p["rate"] for p in f["positions"]], [72 / 91, 56 / 89, 42 / 87])
            self.assertEqual([p["conditional"] for p in f["positions"]], [72 / 91, 56 / 72, 42 / 56])
            self.assertTrue(f["consistent"])  # 72 + 56 + 42 = 170
            self.assertNotIn("histogram", f)
            self.assertFalse(f["since_start"] or f["inexact"] or f["estimated"])

    def test_vllm_odd_model_name(self):
        """A model name with quotes, a backslash, a newline and UTF-8: the
        escapes read back to one series; SPEC 10.6's first vector."""
        f = family(self.window("vllm_odd_model_before.prom", "vllm_odd_model_after.prom"), "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"], f["series"]),
                         (4, 6, 3, 1))
        self.assertEqual(f["acceptance_length"], 1.75)
        self.assertEqual(f["draft_acceptance_rate"], 50.0)
        self.assertEqual([p["rate"] for p in f["positions"]], [0.5, 0.5, None])

    def test_scrape_loop(self):
        """Five pages 10 s apart, a restart before the fourth: intervals
        S 100, 150, 30 (the values themselves), 100; A 200, 250, 60, 200;
        D three times S. ΔP = 90+120+25+90, 70+80+20+65, 40+50+15+45 =
        325, 235, 150; drafted per position = S each: the histogram is
        {380-325, 325-235, 235-150, 150}."""
        doc = self.window("vllm_scrapes.prom")
        self.assertEqual(doc["inputs"][0]["snapshots"], 5)
        f = family(doc, "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (380, 1140, 710))
        self.assertEqual(f["resets"], 1)
        self.assertEqual(f["window"], {"start_ns": 1765039200 * 10**9, "end_ns": 1765039240 * 10**9})
        self.assertEqual(f["acceptance_length"], 1 + 710 / 380)
        self.assertEqual(f["histogram"], {"0": 55, "1": 90, "2": 85, "3": 150})
        self.assertEqual([(i["steps"], i["accepted_tokens"], i["draft_tokens"]) for i in f["intervals"]],
                         [(100, 200, 300), (150, 250, 450), (30, 60, 90), (100, 200, 300)])
        self.assertEqual([i["start_ns"] // 10**9 for i in f["intervals"]],
                         [1765039200, 1765039210, 1765039220, 1765039230])
        self.assertEqual([i["acceptance_length"] for i in f["intervals"]],
                         [3.0, 1 + 250 / 150, 3.0, 3.0])
        # what-if on the histogram: τ(k') = 1 + A(k')/380, A = 325, 560, 710
        self.assertEqual([w["acceptance_length"] for w in f["what_if"]],
                         [1 + 325 / 380, 1 + 560 / 380, 1 + 710 / 380])

    def test_scrape_loop_pieces(self):
        """The same loop in pieces of 1, 7 and 4096 bytes, and without the
        template: the same JSON."""
        want = self.window("vllm_scrapes.prom")
        for args in (("--piece", "1"), ("--piece", "7"), ("--piece", "4096"), ("--no-template",)):
            self.assertEqual(self.window("vllm_scrapes.prom", args=args), want, args)

    def test_sglang(self):
        """Rank 0 only: ΔS 2000, ΔG 8250, ΔR 50: A = 8250 - 50 - 2000 =
        6200, an estimate; gauges of the after page."""
        f = family(self.window("sglang_before.prom", "sglang_after.prom"), "sglang")
        self.assertEqual((f["steps"], f["accepted_tokens"]), (2000, 6200))
        self.assertTrue(f["estimated"])
        self.assertEqual(f["acceptance_length"], 4.1)
        self.assertNotIn("draft_tokens", f)
        self.assertEqual(f["gauges"], {"sglang:spec_accept_length": 2.9, "sglang:spec_accept_rate": 0.65})

    def test_trtllm(self):
        """S = ΔDP_1 = 87; D 261, A 167; ΔP 70, 55, 42 with fixed drafting:
        the histogram {17, 15, 13, 42} (SPEC 10.6's survival counts)."""
        for after in ("trtllm_after.prom", "trtllm_after.om.prom"):
            f = family(self.window("trtllm_before.prom", after), "tensorrt_llm")
            self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (87, 261, 167))
            self.assertEqual(f["histogram"], {"0": 17, "1": 15, "2": 13, "3": 42})
            self.assertEqual([p["rate"] for p in f["positions"]],
                             [0.8045977011494253, 0.632183908045977, 0.4827586206896552])
            self.assertEqual(f["gauges"], {"trtllm_spec_decode_acceptance_length": 2.92})

    def test_llamacpp(self):
        """SPEC 10.6's llama.cpp vector (Δ 70, 98, 25: 3.8, 71.43%); per
        position Δ 22, 20, 16, 12 (sum 70): H = {3, 2, 4, 4, 12}."""
        f = family(self.window("llamacpp_before.prom", "llamacpp_after.prom"), "llamacpp")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (25, 98, 70))
        self.assertEqual(f["acceptance_length"], 3.8)
        self.assertEqual(f["draft_acceptance_rate"], 71.42857142857143)
        self.assertEqual(f["histogram"], {"0": 3, "1": 2, "2": 4, "3": 4, "4": 12})
        self.assertFalse(f["inexact"])

    def test_llamacpp_big(self):
        """Counters past 10^6 in %g: 1e+06 to 1.0001e+06 etc.: Δ 100, 400,
        250, inexact."""
        f = family(self.window("llamacpp_big_before.prom", "llamacpp_big_after.prom"), "llamacpp")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (100, 400, 250))
        self.assertTrue(f["inexact"])
        self.assertEqual(f["acceptance_length"], 3.5)

    def test_all_engines_one_stream(self):
        """Every before page, then every after page, in one input: four
        families in engine order, each with its own window."""
        names = ["vllm", "trtllm", "llamacpp", "sglang"]
        text = b"".join(open(page(n + "_before.prom"), "rb").read() for n in names)
        text += b"".join(open(page(n + "_after.prom"), "rb").read() for n in names)
        rc, doc, err = server_tool("-", stdin=text)
        self.assertEqual(rc, 0, err)
        got = [(f["engine"], f["steps"], f["accepted_tokens"]) for f in doc["server"]["families"]]
        self.assertEqual(got, [("vllm", 91, 170), ("tensorrt_llm", 87, 167),
                               ("llamacpp", 25, 70), ("sglang", 2000, 6200)])
        self.assertEqual(doc["inputs"][0]["bad_lines"], 0)
        self.assertEqual(doc["inputs"][0]["snapshots"], 2)

    def test_captured_exporter_pages(self):
        """The pages test_prometheus.py saved with curl around its three
        steps (testdata/server/prometheus): its known totals, S 62, D 186,
        A 92, ΔP 45, 32, 15 (every position drafted: the histogram
        {62-45, 45-32, 32-15, 15})."""
        f = family(self.window("prometheus/exporter_before.prom", "prometheus/exporter_after.prom"),
                   "vllm")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (62, 186, 92))
        self.assertEqual([p["accepted"] for p in f["positions"]], [45, 32, 15])
        self.assertEqual(f["histogram"], {"0": 17, "1": 13, "2": 17, "3": 15})
        self.assertEqual(f["series"], 2)

    def test_cut_page(self):
        """A page cut mid-line (inside a label): the cut line is one bad
        line, named, read as any last line without its line end (SPEC 13);
        the rest of the page counts."""
        with TempDir() as d:
            text = open(page("vllm_after.prom"), "rb").read()
            cut = text[:text.index(b"\nvllm:spec_decode_num_accepted_tokens_total{") + 60]
            path = os.path.join(d, "cut.prom")
            with open(path, "wb") as f:
                f.write(cut)
            rc, doc, err = server_tool(page("vllm_before.prom"), path)
            self.assertEqual(rc, 0)
            self.assertEqual(doc["inputs"][1]["bad_lines"], 1)
            self.assertIn("cut.prom:%d: bad line: a label without" % (cut.count(b"\n") + 1), err)
            f = family(doc, "vllm")
            # drafts and draft tokens were read; the accepted counters were not
            self.assertEqual((f["steps"], f["draft_tokens"]), (91, 267))


def only_family(doc, engine, counters):
    fams = doc["server"]["families"]
    assert len(fams) == 1, fams
    f = fams[0]
    assert (f["engine"], f["counters"]) == (engine, counters), f
    return f


class JsonShapes(Case):
    maxDiff = None

    def read(self, *args):
        rc, doc, err = server_tool(*args)
        self.assertEqual(rc, 0, err)
        self.assertEqual(doc["server"]["bad_lines"], 0, err)
        self.assertEqual(err, "")
        return doc

    def test_aiperf_jsonl(self):
        """Three scrapes of one endpoint, two engines. Engine 0: drafts
        100, 130, 150; draft tokens 300, 390, 450; accepted 150, 195, 225;
        P 70/50/30, 90/65/40, 104/75/46; DP = drafts. Engine 1: 40, 60,
        70; 120, 180, 210; 50, 74, 86; P 25/15/10, 37/23/14, 43/27/16.
        Window: S 50 + 30 = 80, D 150 + 90 = 240, A 75 + 36 = 111; P 52,
        37, 22; every position drafted each step, so H = 80-52, 52-37,
        37-22, 22. Intervals: S 50, D 150, A 45+24; S 30, D 90, A 30+12."""
        doc = self.read("--as", "jsonl", td("server", "aiperf", "server_metrics_export.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["aiperf"], 3)
        self.assertEqual(doc["inputs"][0]["snapshots"], 3)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["snapshots"], f["series"], f["resets"]), (3, 2, 0))
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (80, 240, 111))
        self.assertEqual(f["acceptance_length"], 1 + 111 / 80)
        self.assertEqual(f["draft_acceptance_rate"], 111 / 240 * 100)
        self.assertEqual([p["accepted"] for p in f["positions"]], [52, 37, 22])
        self.assertEqual([p["drafted"] for p in f["positions"]], [80, 80, 80])
        self.assertTrue(f["consistent"])
        self.assertEqual(f["histogram"], {"0": 28, "1": 15, "2": 15, "3": 22})
        self.assertEqual(f["window"], {"start_ns": 1765793061967310848,
                                       "end_ns": 1765793062633000000})
        self.assertEqual([(i["steps"], i["draft_tokens"], i["accepted_tokens"])
                          for i in f["intervals"]], [(50, 150, 69), (30, 90, 42)])
        self.assertEqual(doc["server"]["endpoints"], 1)

    def test_aiperf_document(self):
        """The profiling window (scrapes 2 -> 3) as stats.total: S 20 + 10,
        D 60 + 30, A 30 + 12; P 14+6, 10+4, 6+2; DP 30 each = S, so
        H = 30-20, 20-14, 14-8, 8. One endpoint: one increment."""
        path = td("server", "aiperf", "server_metrics_export.json")
        doc = self.read("--as", "document", path)
        self.assertTrue(doc["inputs"][0]["document_name"])
        self.assertEqual(doc["inputs"][0]["snapshots"], 1)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (30, 90, 42))
        self.assertEqual(f["acceptance_length"], 1 + 42 / 30)
        self.assertEqual(f["draft_acceptance_rate"], 42 / 90 * 100)
        self.assertEqual([p["accepted"] for p in f["positions"]], [20, 14, 8])
        self.assertEqual(f["histogram"], {"0": 10, "1": 6, "2": 6, "3": 8})
        self.assertEqual(f["window"], {"start_ns": None, "end_ns": None})
        self.assertFalse(f["since_start"])

    def test_trtllm_iterations(self):
        """Three polls: iterations (D, A, requests with drafts) 12/7/4,
        9/5/3; none; 6/6/2, one without statistics, 3/0/1. S 10, D 30,
        A 18: 1 + 18/10, 18/30 x 100. Four increments."""
        doc = self.read("--as", "jsonl", td("server", "trtllm", "iterations.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["iterations"], 3)
        self.assertEqual(doc["inputs"][0]["snapshots"], 4)
        f = only_family(doc, "tensorrt_llm", "iterations")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (10, 30, 18))
        self.assertEqual(f["acceptance_length"], 1 + 18 / 10)
        self.assertEqual(f["draft_acceptance_rate"], 18 / 30 * 100)

    def test_sglang_server_info(self):
        """Two polls, two data-parallel ranks: forward counts 200 -> 260
        and 180 -> 230 (S 110), accept counts 520 -> 700 and 450 -> 590
        (320, the bonus tokens included): A = 320 - 110 = 210."""
        doc = self.read("--as", "jsonl", td("server", "sglang", "server_info.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["server_info"], 2)
        f = only_family(doc, "sglang", "server_info")
        self.assertEqual((f["series"], f["steps"], f["accepted_tokens"]), (2, 110, 210))
        self.assertEqual(f["acceptance_length"], 1 + 210 / 110)
        self.assertNotIn("draft_tokens", f)
        self.assertNotIn("draft_acceptance_rate", f)

    def test_prometheus_query_range(self):
        """What a real Prometheus kept of tests/cli/test_prometheus.py's
        exporter (its STEPS, summed by hand there): S 62, D 186, A 92,
        P 45, 32, 15, H 17, 13, 17, 15; a sample a second, four times."""
        doc = self.read("--as", "jsonl", td("server", "prometheus", "query_range.json"))
        self.assertEqual(doc["inputs"][0]["shapes"]["prometheus_api"], 1)
        self.assertEqual(doc["inputs"][0]["snapshots"], 4)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (62, 186, 92))
        self.assertEqual([p["accepted"] for p in f["positions"]], [45, 32, 15])
        self.assertEqual(f["histogram"], {"0": 17, "1": 13, "2": 17, "3": 15})
        self.assertEqual((f["series"], f["resets"]), (2, 0))
        self.assertEqual(len(f["intervals"]), 3)

    def test_prometheus_query(self):
        """The instant query at the window's end: one snapshot, the counts
        since the exporter started: every step of test_prometheus.py's
        STEPS, the baseline's (drafts 100 + 50; accepted per position
        80+40, 60+30, 40+20) and the window's (62; 45, 32, 15): S 212,
        D 3 x 212, P 165, 122, 75, A their sum 362."""
        doc = self.read("--as", "jsonl", td("server", "prometheus", "query.json"))
        f = only_family(doc, "vllm", "prometheus")
        self.assertTrue(f["since_start"])
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (212, 636, 362))
        self.assertEqual([p["accepted"] for p in f["positions"]], [165, 122, 75])

    def test_other_lines_and_bad_parts(self):
        """Lines of no server shape are left to the caller; a bad value is
        a counted bad sample named by its place, never a stop."""
        with TempDir() as d:
            path = os.path.join(d, "mixed.jsonl")
            with open(path, "w") as f:
                f.write('{"responses":[]}\n\n')
                f.write('{"status":"success","data":{"resultType":"scalar","result":[1,"2"]}}\n')
                f.write('{"iter":1,"specDecodingStats":{"numDraftTokens":4,'
                        '"numAcceptedTokens":-1,"numRequestsWithDraftTokens":2}}\n')
                f.write('{"iter":2,"specDecodingStats":{"numDraftTokens":4,'
                        '"numAcceptedTokens":3,"numRequestsWithDraftTokens":2}}\n')
            rc, doc, err = server_tool("--as", "jsonl", path)
        self.assertEqual(rc, 0, err)
        self.assertEqual(doc["inputs"][0]["shapes"]["none"], 2)
        self.assertEqual(doc["inputs"][0]["shapes"]["iterations"], 2)
        self.assertEqual(doc["server"]["bad_lines"], 1)
        self.assertIn("mixed.jsonl:4: bad sample of numAcceptedTokens: ", err)
        f = only_family(doc, "tensorrt_llm", "iterations")
        # the bad value is left out; the rest of its iteration counts
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (4, 8, 3))


if __name__ == "__main__":
    main(tools=("server_tool",))
