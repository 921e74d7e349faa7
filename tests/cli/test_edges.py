#!/usr/bin/env python3
"""Edge cases on small inputs written at test time: the console histogram
line (SPEC 6's rounding and >=8 vectors), number formatting at the repr
boundaries, input names that need JSON escaping, empty inputs, zero-step-only
runs, overflowing per-step sums, lines longer than the read window, a
truncated compressed input; and SPEC's agreement fixes of issue 13 (long
doubles, duplicate keys, engine names, NaN in payloads and streams, ...)."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults  # noqa: E402
from faults import GOOD, CaseFailed, FaultCase, records_line, want, want_rc  # noqa: E402
from sslib import (Case, Rec, TempDir, expected_metrics, have_tool, jsonl_lines, loads, main,
                   run, td)


def js(o):
    return json.dumps(o, separators=(",", ":"))


def vllm_body(hist, steps, acc, drafted, mean, rate, k=None, content="ok", **extra):
    sd = {"mean_acceptance_length": mean, "draft_acceptance_rate": rate,
          "acceptance_histogram": hist, "num_spec_steps": steps,
          "num_accepted_draft_tokens": acc, "num_draft_tokens": drafted}
    if k is not None:
        sd["num_spec_tokens"] = k
    sd.update(extra)
    return js({"id": "x", "object": "chat.completion",
               "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop"}],
               "metrics": {"speculative_decoding": sd}})


def llama_body(dn, dna, content="ok"):
    return js({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
               "object": "chat.completion", "timings": {"draft_n": dn, "draft_n_accepted": dna}})


class Edges(Case):
    def write(self, d, name, lines, end="\n"):
        p = os.path.join(d, name)
        with open(p, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + end)
        return p

    def hist_line(self, text):
        lines = [l.strip() for l in text.split("\n") if "Accepted drafts per step" in l]
        self.assertEqual(len(lines), 1, text)
        return lines[0].split(":", 1)[1].strip()

    def test_histogram_ties_round_to_even(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [vllm_body([2, 2, 4, 6, 2], 16, 36, 64, 3.25, 0.5625, 4)])
            r = run(["-f", "table", p])
            self.assertRan(r)
            self.assertEqual(self.hist_line(r.text), "0: 12%   1: 12%   2: 25%   3: 38%   4: 12%")

    def test_histogram_eight_and_more(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [vllm_body([1] * 12, 12, 66, 132, 6.5, 0.5, 11)])
            r = run(["-f", "table", p])
            self.assertRan(r)
            self.assertEqual(self.hist_line(r.text),
                             "   ".join("%d: 8%%" % j for j in range(8)) + "   >=8: 33%")
            doc = loads(run([p]).out)
            self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"],
                             {str(j): 1 for j in range(12)})

    def test_number_formats(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [
                llama_body(100000, 1),
                vllm_body([1, 0], 1, 0, 10 ** 16, 1.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            lines = r.text.split("\n")
            self.assertIn('"draft_acceptance_rate":1e-05', lines[0])
            self.assertIn('"spec_decode_draft_acceptance_rate":{"value":0.001,"unit":"%"}', lines[0])
            self.assertIn('"num_draft_tokens":10000000000000000', lines[1])
            doc = loads(run([p]).out)
            dt = doc["spec_decode_draft_tokens"]
            self.assertEqual(dt["max"].text, "1e+16")
            self.assertEqual(dt["sum"].text, "1.00000000001e+16")
            self.assertEqual(dt["min"].text, "100000.0")
            self.assertEqual(doc["total_draft_tokens"]["avg"], 10 ** 16 + 100000)
            self.assertEqual(doc["spec_decode_draft_acceptance_rate"]["max"].text, "0.001")

    def test_big_counts_divide_exactly(self):
        """Counts above 2^53: specscan's own divisions must give the double
        nearest the exact quotient, as AIPerf's Python int / int does
        (not the quotient of the two counts each first rounded to a double)."""
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [
                llama_body(2 ** 53 + 1, 3),
                vllm_body([1, 0], 1, 0, 10 ** 16, 1.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            out = jsonl_lines(r)
            self.assertEqual(out[0]["spec_decode_acceptance"]["draft_acceptance_rate"].text,
                             repr(3 / (2 ** 53 + 1)))
            self.assertEqual(out[1]["metrics"]["spec_decode_accepted_per_verified"]["value"].text,
                             repr(1 / (10 ** 16 + 1)))
            want = expected_metrics([Rec("llamacpp", 3, 2 ** 53 + 1),
                                     Rec("vllm", 0, 10 ** 16, 1, mean=1.0, rate=0.0, hist={0: 1}, k=1)])
            self.assertMetrics(loads(run([p]).out), want)

    def test_names_that_need_escaping(self):
        with TempDir() as d:
            name = os.path.join(d, 'we"ird\\na me\t\u00e9.jsonl')
            with open(td("sample", "aiperf_raw_vllm.jsonl"), "rb") as f, open(name, "wb") as g:
                g.write(f.read())
            r = run([name])
            self.assertRan(r)
            self.assertEqual(loads(r.out)["specscan"]["inputs"][0]["name"], name)
            r = run(["-f", "jsonl", name])
            self.assertRan(r)
            self.assertEqual({o["source"]["input"] for o in jsonl_lines(r)}, {name})

    def test_empty_inputs(self):
        with TempDir() as d:
            empty = self.write(d, "empty.jsonl", [], end="")
            blank = self.write(d, "blank.jsonl", ["", "  ", "\r"])
            for p in (empty, blank):
                r = run([p])
                self.assertRan(r)
                doc = loads(r.out)
                self.assertAccounting(doc, {}, total=0)
                self.assertEqual(doc["specscan"]["inputs"],
                                 [{"name": p, "kind": "unknown", "requests": 0}])
                self.assertEqual(list(doc), ["specscan"])
                self.assertEqual(run(["-f", "jsonl", p]).out, b"")
                self.assertEqual(run(["-f", "csv", p]).out, b"")
            r = run([], stdin=b"")
            self.assertRan(r)
            self.assertEqual(loads(r.out)["specscan"]["requests"]["total"], 0)

    def test_zero_step_only(self):
        with TempDir() as d:
            p = self.write(d, "z.jsonl", [llama_body(0, 0), llama_body(0, 0)])
            doc = loads(run([p]).out)
            self.assertAccounting(doc, {"zero_step": 2}, total=2)
            self.assertMetrics(doc, {"spec_decode_zero_step_requests": {"avg": 2}})
            r = run(["-f", "table", p])
            rows = [l for l in r.text.split("\n") if "Zero-Step Requests" in l]
            self.assertEqual(len(rows), 1, r.text)
            self.assertIn("2.00", rows[0])
            self.assertNotIn("Acceptance Length", r.text)
            self.assertEqual(run(["-f", "csv", p]).text,
                             "Metric,Value\r\nZero-Step Requests,2.00\r\n")

    def test_overflowing_sums_are_malformed(self):
        big = 2 ** 63 - 1
        with TempDir() as d:
            p = self.write(d, "o.jsonl", [
                vllm_body([1, 1], 2, 1, 2, 1.5, 0.5, 1, per_step_accepted=[big, 1]),
                vllm_body([1, 1], 2, 1, big, 1.5, 0.0, 1, per_step_drafted=[big, 1]),
                vllm_body([1, big], big, big, big, 2.0, 1.0, 1),
                vllm_body([0, 1], 1, 1, big, 2.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            self.assertEqual([o["spec_decode_status"] for o in jsonl_lines(r)],
                             ["malformed", "malformed", "malformed", "ok"])

    def test_line_longer_than_read_window(self):
        with TempDir() as d:
            long = vllm_body([0, 1], 1, 1, 1, 2.0, 1.0, 1, content="y" * (9 << 20))
            p = self.write(d, "long.jsonl", [long, llama_body(4, 2), long, llama_body(4, 3)])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            self.assertEqual([(o["source"]["line"], o["spec_decode_status"]) for o in jsonl_lines(r)],
                             [(1, "ok"), (2, "ok"), (3, "ok"), (4, "ok")])
            r = run(["-f", "jsonl", "--max-record-size", "4M", p])
            self.assertRan(r)
            self.assertEqual([(o["source"]["line"], o["spec_decode_status"]) for o in jsonl_lines(r)],
                             [(1, "oversize"), (2, "ok"), (3, "oversize"), (4, "ok")])

    def test_truncated_compressed_input(self):
        if not have_tool("zstd"):
            self.skipTest("zstd not installed")
        with TempDir() as d:
            z = os.path.join(d, "cut.zst")
            data = subprocess.run(["zstd", "-q", "-c", td("sample", "aiperf_raw_vllm.jsonl")],
                                  stdout=subprocess.PIPE, check=True).stdout
            with open(z, "wb") as f:
                f.write(data[:len(data) * 2 // 3])
            good = td("engines", "llamacpp_stream.sse")
            r = run([z, good])
            self.assertRan(r, 1)
            self.assertIn("specscan: ", r.errtext)
            self.assertIn(z, r.errtext)
            doc = loads(r.out)
            self.assertEqual(doc["specscan"]["inputs"][-1], {"name": good, "kind": "sse", "requests": 2})
            self.assertAccounting(doc)


def one_jsonl(t, line, args=(), name="l.jsonl"):
    p = t.file(name, line if line.endswith("\n") else line + "\n")
    r = faults.run(["-f", "jsonl"] + list(args) + [p])
    want(r.rc in (0, 1), "report written", r)
    ln = r.lines()
    want(len(ln) == 1, "one request", r)
    return ln[0]


def raw_chunks(*chunks):
    """A raw line whose elements are streams of one data packet each."""
    els = ['{"perf_ns":%d,"packets":[{"name":"data","value":%s}]}' % (i + 1, json.dumps(c))
           for i, c in enumerate(chunks)]
    return '{"metadata":{},"responses":[%s]}' % ",".join(els)


def sse_stream(*events):
    return "".join("data: %s\n\n" % e for e in events) + "data: [DONE]\n\n"


ROLE = '{"choices":[{"index":0,"delta":{"role":"assistant"}}]}'


HI = '{"choices":[{"index":0,"delta":{"content":"hi"}}]}'


TIMINGS = '{"choices":[{"index":0,"delta":{}}],"timings":{"draft_n":%s,"draft_n_accepted":1}}'


HI_TIMINGS = ('{"choices":[{"index":0,"delta":{"content":"hi"}}],'
              '"timings":{"draft_n":%s,"draft_n_accepted":1}}')


VLLM_SD = ('{"choices":[],"metrics":{"speculative_decoding":{"acceptance_histogram":[0,1],'
           '"num_spec_steps":%s,"mean_acceptance_length":2.0,"draft_acceptance_rate":1.0,'
           '"num_accepted_draft_tokens":1,"num_draft_tokens":1}}}')


def nan_cases():
    """(what, objects, expected status), worked out by hand from SPEC 1.4 and
    2.1: an object whose text is not valid JSON is skipped whole, so it
    carries neither content nor a payload."""
    return [
        ("control: valid timings", [ROLE, HI, TIMINGS % "4"], "ok"),
        ("NaN payload chunk, valid content chunk", [ROLE, HI, TIMINGS % "NaN"], "no_stats"),
        ("Infinity payload chunk", [HI, TIMINGS % "Infinity"], "no_stats"),
        ("NaN in metrics.speculative_decoding", [HI, VLLM_SD % "NaN"], "no_stats"),
        ("control: valid vLLM payload", [HI, VLLM_SD % "1"], "ok"),
        ("NaN chunk the only one with content", [ROLE, HI_TIMINGS % "NaN"], "no_content"),
        ("NaN outside any field read, only content",
         [ROLE, HI[:-1] + ',"x":[1,NaN]}'], "no_content"),
        ("bad literal outside any field read, only content",
         [HI[:-1] + ',"x":tru}', TIMINGS % "4"], "no_content"),
    ]


class SpecAgreement(FaultCase):
    """SPEC's agreement fixes (issue 13: SPEC 1.1, 1.2, 1.4, 1.5, 2.5, 2.6,
    3, 3.1, 4.4) and two faults fuzz_request found, on inputs written here."""

    def test_spec_long_doubles(self):
        """SPEC 1.2: every double correctly rounded whatever its length. vLLM's
        mean_acceptance_length is taken as sent, so the record shows the double
        read; Python's float() is the reference."""
        t = self.t
        for text in ("0.33333333333333333333333333333", "2.44444444444444444444444",
                     "1.00000000000000011102230246251565404236316680908203126",
                     "1.00000000000000011102230246251565404236316680908203125",
                     "3.14159265358979323846264338327950288",
                     "0.000000000000000000000000000000000000000000012345678901234567890123",
                     "12345678901234567890123.5e-20", "-0.0000000000000000000000000001"):
            rec = one_jsonl(t, faults.vllm_body("[1]", 1, 0, 1, text, "0.5"))
            want(rec["spec_decode_status"] == "ok", "ok for %s" % text, rec)
            got = rec["spec_decode_acceptance"]["mean_acceptance_length"]
            want(got == float(text) and repr(got) == repr(float(text)),
                 "%s read as %r, want %r" % (text, got, float(text)))

    def test_spec_engine_before_fields(self):
        """SPEC 2.6: --engine vllm and a records line of engine sglang with a
        mistyped field: unrecognized, not malformed."""
        t = self.t
        sda = ('{"engine":"sglang","mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
               '"num_accepted_draft_tokens":"two","num_draft_tokens":4,"num_spec_steps":2}')
        rec = one_jsonl(t, records_line(sda), ["--engine", "vllm"])
        want(rec["spec_decode_status"] == "unrecognized", "unrecognized", rec)

    def test_spec_long_engine_name(self):
        """SPEC 2.6: a records line's engine string is kept whatever its
        length (100 bytes here)."""
        t = self.t
        eng = "e" * 100
        sda = ('{"engine":"%s","mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
               '"num_accepted_draft_tokens":2,"num_draft_tokens":4,"num_spec_steps":2}' % eng)
        rec = one_jsonl(t, records_line(sda))
        want(rec["spec_decode_status"] == "ok", "ok", rec)
        want(rec["spec_decode_acceptance"]["engine"] == eng, "engine kept", rec)

    def test_spec_duplicate_keys(self):
        """SPEC 1.2: the last of a repeated key counts, everywhere. A raw line
        with `responses` twice reads only the second; a body with `timings`
        twice reads the second."""
        t = self.t
        def resp(drafted, acc):
            body = json.dumps(json.loads(faults.llama_body(drafted, acc)))
            return '[{"perf_ns":1,"text":%s}]' % json.dumps(body)
        vresp = '[{"perf_ns":1,"text":%s}]' % json.dumps(GOOD.strip())
        raw = ('{"metadata":{"benchmark_phase":"warmup"},"responses":%s,'
               '"metadata":{"benchmark_phase":"profiling"},"responses":%s}' % (vresp, resp(4, 1)))
        # Both read: two payloads (vLLM, llama.cpp) would be ambiguous.
        rec = one_jsonl(t, raw)
        want(rec["spec_decode_status"] == "ok", "ok", rec)
        sda = rec["spec_decode_acceptance"]
        want(sda["engine"] == "llamacpp" and sda["num_draft_tokens"] == 4
             and sda["num_accepted_draft_tokens"] == 1, "second responses read", rec)
        want(rec.get("metadata") == {"benchmark_phase": "profiling"}, "second metadata", rec)
        body = ('{"content":"x","timings":{"draft_n":10,"draft_n_accepted":5},'
                '"timings":{"draft_n":4,"draft_n_accepted":1}}')
        rec = one_jsonl(t, body, name="b.jsonl")
        sda = rec.get("spec_decode_acceptance", {})
        want(sda.get("num_draft_tokens") == 4 and sda.get("num_accepted_draft_tokens") == 1,
             "second timings read", rec)

    def test_spec_sglang_empty_histogram(self):
        """SPEC 2.6: an empty SGLang histogram array counts as absent: steps 2,
        accepted 3, drafted 6 -> ok, no histogram, no k."""
        t = self.t
        body = ('{"text":"x","meta_info":{"spec_verify_ct":2,"spec_accept_token_num":3,'
                '"spec_draft_token_num":6,"spec_accept_histogram":[]}}')
        rec = one_jsonl(t, body)
        want(rec["spec_decode_status"] == "ok", "ok", rec)
        sda = rec["spec_decode_acceptance"]
        want("acceptance_histogram" not in sda and "num_spec_tokens" not in sda,
             "no histogram, no k", rec)
        want(sda["num_spec_steps"] == 2 and sda["mean_acceptance_length"] == 2.5, "1 + 3/2", rec)

    def test_spec_records_histogram_keys(self):
        """SPEC 2.6: records-line histogram keys are canonical decimals: "00"
        is malformed ("0" is fine)."""
        t = self.t
        base = ('{"engine":"vllm","mean_acceptance_length":1.5,"draft_acceptance_rate":0.25,'
                '"acceptance_histogram":{%s},"num_accepted_draft_tokens":1,'
                '"num_draft_tokens":4,"num_spec_steps":2}')
        rec = one_jsonl(t, records_line(base % '"0":1,"1":1'))
        want(rec["spec_decode_status"] == "ok", "canonical keys ok", rec)
        for keys in ('"00":1,"1":1', '"0":1,"+1":1', '"0":1,"01":1'):
            rec = one_jsonl(t, records_line(base % keys))
            want(rec["spec_decode_status"] == "malformed", "%s malformed" % keys, rec)

    def test_spec_per_step_without_steps(self):
        """SPEC 2.5 (4): per-step arrays without num_spec_steps are malformed,
        and the reason says num_spec_steps is missing (not that it "is 0")."""
        t = self.t
        sda = ('{"engine":"vllm","mean_acceptance_length":2.5,"draft_acceptance_rate":0.75,'
               '"num_accepted_draft_tokens":3,"num_draft_tokens":4,"per_step_accepted":[1,2]}')
        rec = one_jsonl(t, records_line(sda))
        want(rec["spec_decode_status"] == "malformed", "malformed", rec)
        reason = rec.get("spec_decode_reason", "")
        want("num_spec_steps" in reason and "is 0" not in reason, "reason: %r" % reason)

    def test_spec_metadata_any_type(self):
        """SPEC 4.4: metadata is copied verbatim whatever its JSON type."""
        t = self.t
        for meta in ('"hello"', '[1, 2]', '12.50', 'true'):
            line = '{"metadata":%s,"responses":[{"perf_ns":1,"text":%s}]}' % (
                meta, json.dumps(faults.llama_body(4, 2)))
            p = t.file("m.jsonl", line + "\n")
            r = faults.run(["-f", "jsonl", p])
            want_rc(r, 0)
            want(b'"metadata":' + meta.encode() + b',' in r.out, "metadata %s verbatim" % meta, r)

    def test_spec_packets_and_text(self):
        """SPEC 1.4: an element with both `packets` and `text` is streaming:
        the packets' body (drafted 4, accepted 1) counts, not the text's."""
        t = self.t
        pk = json.dumps(faults.llama_body(4, 1))
        tx = json.dumps(faults.llama_body(10, 5))
        line = ('{"metadata":{},"responses":[{"perf_ns":1,"text":%s,'
                '"packets":[{"name":"data","value":%s}]}]}' % (tx, pk))
        rec = one_jsonl(t, line)
        sda = rec.get("spec_decode_acceptance", {})
        want(sda.get("num_draft_tokens") == 4, "packets read", rec)

    def test_spec_total_steps_absent(self):
        """SPEC 3: total_spec_decode_steps is absent when no ok record has
        steps (llama.cpp without draft_rounds)."""
        t = self.t
        p = t.file("ll.jsonl", faults.llama_body(4, 2) + "\n" + faults.llama_body(6, 3) + "\n")
        r = faults.run([p])
        want_rc(r, 0)
        j = r.json()
        want("total_spec_decode_steps" not in j, "absent", r)
        want(j["total_draft_tokens"]["avg"] == 10.0, "drafted 10")

    def test_spec_negative_zero(self):
        """SPEC 1.2: an integer literal in a double field is converted exactly:
        draft_acceptance_rate -0 is 0.0, so the CSV says 0.00, not -0.00."""
        t = self.t
        body = faults.vllm_body("[1]", 1, 0, 1, "1", "-0")
        p = t.file("z.jsonl", body + "\n")
        r = faults.run(["-f", "csv", p])
        want_rc(r, 0)
        rows = [ln for ln in r.out.decode().split("\r\n") if ln.startswith("Draft Acceptance Rate")]
        want(rows and rows[0].split(",")[1] == "0.00", "0.00: %r" % rows)
        want(b"-0.00" not in r.out, "no -0.00", r)

    def test_spec_sse_size(self):
        """SPEC 1.2: a stream's size is the bytes of its events' lines, line
        ends and each event's closing blank line included, keep-alives
        excluded. Stream = `data: J` LF LF `data: [DONE]` LF LF = len(J)+6+1+1
        +12+1+1 = len(J)+22 bytes. With --max-record-size 100, len(J) = 78 fits
        exactly (with a keep-alive event between), 79 is oversize; 63 is a
        usage error and 64 is not."""
        t = self.t
        def stream(jlen):
            j = faults.llama_body(4, 2)
            j = j[:-1] + " " * (jlen - len(j)) + "}"
            assert len(j) == jlen
            return "data: %s\n\ndata:\n\ndata: [DONE]\n\n" % j
        rec = one_jsonl(t, stream(78), ["--max-record-size", "100"], name="s.sse")
        want(rec["spec_decode_status"] == "ok", "100 bytes: ok", rec)
        rec = one_jsonl(t, stream(79), ["--max-record-size", "100"], name="s.sse")
        want(rec["spec_decode_status"] == "oversize", "101 bytes: oversize", rec)
        p = t.file("g.jsonl", GOOD)
        want_rc(faults.run(["--max-record-size", "63", p]), 2)
        # its one line oversize: SPEC 5 and 13, an input that could not be read
        want_rc(faults.run(["--max-record-size", "64", "-f", "none", p]), 1)

    def test_spec_walk_only_artifacts(self):
        """SPEC 1.1: with -r, loose files outside artifact directories are not
        inputs; a walk that finds no artifact directory is an input error that
        says so (exit 3: nothing readable)."""
        t = self.t
        d = t.sub()
        t.file(os.path.join(d, "README.md"), "# notes\n")
        t.file(os.path.join(d, "plot.png"), b"\x89PNG\r\n\x1a\n....")
        t.file(os.path.join(d, "run1", "profile_export_raw.jsonl"), GOOD)
        r = faults.run(["-r", d])
        want_rc(r, 0)
        j = r.json()
        names = [i["name"] for i in j["specscan"]["inputs"]]
        want(len(names) == 1 and names[0].endswith("run1/profile_export_raw.jsonl"),
             "only the artifact: %s" % names)
        want(j["specscan"]["requests"]["total"] == 1, "one request")
        e = t.sub()
        t.file(os.path.join(e, "notes.txt"), "hello\n")
        r = faults.run(["-r", e])
        want_rc(r, 3)
        want("artifact director" in r.err, "says no artifact directory", r)

    def test_spec_nan_in_payload(self):
        """SPEC 1.2: a line that is not valid JSON is unparsable even when the
        fault is in a payload that is read (NaN, a leading zero, a bad literal
        in timings)."""
        t = self.t
        for bad in ('{"content":"x","timings":{"draft_n":NaN,"draft_n_accepted":1}}',
                    '{"content":"x","timings":{"draft_n":04,"draft_n_accepted":1}}',
                    '{"content":"x","timings":{"draft_n":4,"draft_n_accepted":1,"draft_rounds":tru}}'):
            rec = one_jsonl(t, bad)
            want(rec["spec_decode_status"] == "unparsable", "unparsable: %s" % bad, rec)

    def test_spec_nan_in_raw_chunk(self):
        """SPEC 1.4: a raw element's TEXT that is not valid JSON (a NaN in its
        timings or metrics) is skipped, not an error: the status comes from the
        other chunks (no_stats, no_content), never malformed or unparsable."""
        t = self.t
        for what, objs, want_st in nan_cases():
            rec = one_jsonl(t, raw_chunks(*objs))
            want(rec["spec_decode_status"] == want_st, "raw, %s: %s" % (what, want_st), rec)

    def test_spec_nan_in_sse_event(self):
        """The same rule for an SSE event whose data is not valid JSON: the
        event is skipped like a raw chunk (SPEC 1.2 reads an event's data as
        one of the request's objects, 1.4's TEXT)."""
        t = self.t
        for what, objs, want_st in nan_cases():
            p = t.file("s.txt", sse_stream(*objs))
            r = faults.run(["-f", "jsonl", p])
            want(r.rc in (0, 1), "report written", r)
            ln = r.lines()
            want(len(ln) == 1 and ln[0]["source"]["line"] == 1, "one SSE stream", r)
            want(ln[0]["spec_decode_status"] == want_st, "sse, %s: %s" % (what, want_st), ln[0])

    def test_stale_model_after_invalid_enriched(self):
        """Found by fuzz_records: a line that starts like an enriched line but
        is not valid JSON must not inherit the previous line's model (its
        walk's spans pointed into the previous line, or freed memory)."""
        t = self.t
        body = '{"model":"m1","content":"x","timings":{"draft_n":4,"draft_n_accepted":2}}'
        p = t.file("m.jsonl", body + '\n{"source":{"input":"a"}, bad\n')
        r = faults.run(["-f", "jsonl", "-q", p])
        want_rc(r, 0)
        ln = r.lines()
        want(len(ln) == 2 and ln[0].get("model") == "m1", "line 1 has its model", r)
        want(ln[1]["spec_decode_status"] == "unparsable" and "model" not in ln[1],
             "line 2 has no model", r)

    def test_metadata_null_with_junk(self):
        """Found by fuzz_request: `"metadata":null?` (or `nullx`) is not valid
        JSON, so the line is unparsable; it was taken for null and copied
        verbatim, and the enriched line written was not valid JSON."""
        t = self.t
        for junk in ("null?", "nullx", "nulll", "null!"):
            line = '{"metadata":%s,"specx":{"a":1}}' % junk
            p = t.file("n.jsonl", line + "\n")
            r = faults.run(["-f", "jsonl", "-q", p])
            want(r.rc in (0, 1), "report written", r)
            raw = r.out.decode("utf-8").splitlines()
            want(len(raw) == 1, "one request", r)
            try:
                rec = json.loads(raw[0])
            except ValueError:
                raise CaseFailed("metadata %s: output line is not JSON: %r" % (junk, raw[0]))
            want(rec["spec_decode_status"] == "unparsable", "metadata %s: unparsable" % junk, rec)

if __name__ == "__main__":
    main()
