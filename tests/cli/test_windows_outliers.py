#!/usr/bin/env python3
"""SPEC 7.8 (--windows) and 7.11 (--outliers) end to end: the windows and
their summary, the request's time (request_end_ns, else request_start_ns,
integers in 0..2^63-1 only), untimed requests, empty windows, the limit of
100,000 windows, the outlier lists and counts, the --expect values, each
output (JSON, CSV, console, Markdown, HTML) with names escaped for it,
-j1 against -j2, and partial results merged (SPEC 8) against one run.

The fixtures are written by the test; the expected numbers are computed
here from the records they are made of, by the formulas of SPEC 7.8 and
7.11 written out plainly (or worked out by hand), never taken from
specscan's output."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td

S = 10 ** 9
T0 = 1787366173 * S        # an AIPerf-like wall clock, in ns


def record_line(hist, k, t_end=None, t_start=None, model=None, comp=None, meta=None,
                phase="profiling", prompt=None):
    """An AIPerf records line whose spec_decode_acceptance is a vLLM record."""
    steps = sum(hist)
    acc = sum(j * c for j, c in enumerate(hist))
    rec = {"engine": "vllm", "mean_acceptance_length": 1 + acc / steps,
           "draft_acceptance_rate": acc / (k * steps),
           "acceptance_histogram": {str(j): c for j, c in enumerate(hist) if c},
           "num_accepted_draft_tokens": acc, "num_draft_tokens": k * steps,
           "num_spec_steps": steps, "num_spec_tokens": k}
    if comp is not None:
        rec["completion_tokens"] = comp
    if prompt is not None:
        rec["prompt_tokens"] = prompt
    md = dict(meta or {})
    md["benchmark_phase"] = phase
    if t_start is not None:
        md["request_start_ns"] = t_start
    if t_end is not None:
        md["request_end_ns"] = t_end
    line = {"metadata": md, "metrics": {}, "spec_decode_acceptance": rec}
    if model is not None:
        line["model"] = model
    return json.dumps(line)


def soak(n=60, seed=7):
    """n requests over about 10 minutes, acceptance sinking, some untimed,
    a gap of more than a minute with no request (an empty 60 s window)."""
    x = seed
    out = []
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        k = 4
        steps = 5 + (x >> 40) % 20
        # acceptance falls with time: the later, the fewer accepted drafts
        hi = max(0, 4 - (5 * i) // n)     # the last fifth accepts nothing
        hist = [0] * (k + 1)
        y = x
        for _ in range(steps):
            y = (y * 2862933555777941757 + 3037000493) % (1 << 64)
            hist[(y >> 33) % (hi + 1)] += 1
        if i % 17 == 2:
            hist = [0] * k + [steps]        # every draft accepted: a repetition loop?
        t = T0 + i * 10 * S + (x >> 20) % S
        if 30 <= i < 38:
            t += 200 * S if i >= 34 else 0  # requests 34.. come after a pause
        if i >= 34:
            t += 200 * S
        ts = {"t_end": t}
        if i % 11 == 3:
            ts = {"t_start": t}            # only a start time
        if i % 13 == 5:
            ts = {}                         # untimed
        extra = {"prompt": 100 + 37 * i} if i % 4 else {}   # some without prompt tokens
        out.append(dict(hist=hist, k=k, model="m%d" % (i % 3), comp=steps * 2 + i % 5, **ts,
                        **extra))
    return out


def t_of(r):
    return r.get("t_end", r.get("t_start"))


def write(path, recs):
    with open(path, "w") as f:
        for r in recs:
            f.write(record_line(**r) + "\n")


def expected_windows(recs, D):
    """SPEC 7.8 written out: the windows of the ok records with steps."""
    timed = [r for r in recs if t_of(r) is not None]
    untimed = len(recs) - len(timed)
    if not timed:
        return {"duration_ns": D, "t0_ns": None, "untimed": untimed, "summary": {},
                "windows": []}
    t0 = min(t_of(r) for r in timed)
    W = max((t_of(r) - t0) // D for r in timed) + 1
    ws = [dict(window=w, start_ns=t0 + w * D, requests=0, steps=0, accepted=0, drafted=0,
               al_sum=0.0) for w in range(W)]
    for r in timed:  # input order
        w = ws[(t_of(r) - t0) // D]
        steps = sum(r["hist"])
        acc = sum(j * c for j, c in enumerate(r["hist"]))
        w["requests"] += 1
        w["steps"] += steps
        w["accepted"] += acc
        w["drafted"] += r["k"] * steps
        w["al_sum"] += 1 + acc / steps
    out = []
    for w in ws:
        al_sum = w.pop("al_sum")
        w["acceptance_length"] = 1 + w["accepted"] / w["steps"] if w["steps"] else None
        w["draft_acceptance_rate"] = (w["accepted"] / w["drafted"] * 100.0
                                      if w["drafted"] else None)
        w["mean_acceptance_length"] = al_sum / w["requests"] if w["requests"] else None
        out.append(w)
    full = [w for w in out if w["steps"] > 0]
    als = [w["acceptance_length"] for w in full]
    mn = min(als)
    summary = {"min": mn, "min_window": next(w["window"] for w in full
                                             if w["acceptance_length"] == mn),
               "max": max(als), "first": als[0], "last": als[-1]}
    return {"duration_ns": D, "t0_ns": t0, "untimed": untimed, "summary": summary,
            "windows": out}


def expected_outliers(recs, names, n):
    """SPEC 7.11: the n lowest and highest by acceptance length, ties in input order."""
    rows = []
    for i, (r, (inp, line)) in enumerate(zip(recs, names)):
        steps = sum(r["hist"])
        acc = sum(j * c for j, c in enumerate(r["hist"]))
        row = {"input": inp, "line": line}
        if r.get("model") is not None:
            row["model"] = r["model"]
        row["acceptance_length"] = 1 + acc / steps
        row["steps"] = steps
        if r.get("comp") is not None:
            row["completion_tokens"] = r["comp"]
        if r.get("prompt") is not None:
            row["prompt_tokens"] = r["prompt"]
        rows.append((i, row, acc, steps, r))
    low = [row for _, row, _, _, _ in sorted(rows, key=lambda t: (t[1]["acceptance_length"],
                                                                   t[0]))[:n]]
    high = [row for _, row, _, _, _ in sorted(rows, key=lambda t: (-t[1]["acceptance_length"],
                                                                    t[0]))[:n]]
    rej = sum(1 for _, _, acc, steps, _ in rows if acc == 0 and steps > 0)
    full = sum(1 for _, _, _, steps, r in rows if r["hist"][r["k"]] == steps)
    return {"lowest": low, "highest": high, "all_rejected": rej, "all_accepted": full}


def analysis(res):
    return loads(res.out)["analysis"]


def plain(x):
    """Doubles as floats again (loads keeps their text)."""
    return json.loads(json.dumps(x))


class Windows(Case):
    def test_vector_by_hand(self):
        """Worked out by hand: 60 s windows; a request exactly on a window's
        start, an empty window, a start time only, an untimed request."""
        recs = [dict(hist=[0, 0, 4], k=2, t_end=1000 * S, comp=10),           # AL 3.0
                dict(hist=[2, 0, 0], k=2, t_end=1060 * S, comp=5),            # AL 1.0, w1
                dict(hist=[1, 1, 0], k=2, t_start=1030 * S),                  # AL 1.5, w0
                dict(hist=[1, 0, 1], k=2),                                    # untimed
                dict(hist=[0, 1, 1], k=2, t_end=1185 * S)]                    # AL 2.5, w3
        with TempDir() as d:
            p = os.path.join(d, "a.jsonl")
            write(p, recs)
            res = run(["--windows", "60", p])
            self.assertRan(res)
            w = analysis(res)["windows"]
            self.assertEqual(list(w), ["duration_ns", "t0_ns", "untimed", "summary", "windows"])
            self.assertEqual(w["duration_ns"], 60 * S)
            self.assertEqual(w["t0_ns"], 1000 * S)
            self.assertEqual(w["untimed"], 1)
            self.assertEqual(plain(w["summary"]), {"min": 1.0, "min_window": 1, "max": 2.5,
                                                   "first": 2.5, "last": 2.5})
            self.assertEqual(list(w["summary"]), ["min", "min_window", "max", "first", "last"])
            ws = w["windows"]
            self.assertEqual([x["window"] for x in ws], [0, 1, 2, 3])
            self.assertEqual([x["start_ns"] for x in ws], [1000 * S, 1060 * S, 1120 * S, 1180 * S])
            self.assertEqual(list(ws[0]), ["window", "start_ns", "requests", "steps", "accepted",
                                           "drafted", "acceptance_length",
                                           "draft_acceptance_rate", "mean_acceptance_length"])
            # window 0: AL 3.0 (4 steps, 8 accepted) and 1.5 (2 steps, 1 accepted)
            self.assertEqual(plain(ws[0]), {"window": 0, "start_ns": 1000 * S, "requests": 2,
                                            "steps": 6, "accepted": 9, "drafted": 12,
                                            "acceptance_length": 2.5,
                                            "draft_acceptance_rate": 75.0,
                                            "mean_acceptance_length": 2.25})
            self.assertEqual(ws[1]["acceptance_length"].text, "1.0")
            self.assertEqual(plain(ws[2]), {"window": 2, "start_ns": 1120 * S, "requests": 0,
                                            "steps": 0, "accepted": 0, "drafted": 0,
                                            "acceptance_length": None,
                                            "draft_acceptance_rate": None,
                                            "mean_acceptance_length": None})
            # the console line and the CSV section
            res = run(["--windows", "1m", "-f", "table", p])
            self.assertRan(res)
            self.assertIn("  Acceptance length over time (1 min windows, 4 windows): first 2.50, "
                          "last 2.50, min 1.00 (window 1), max 2.50; 1 request untimed\n",
                          res.text)
            res = run(["--windows", "60s", "-f", "csv", p])
            self.assertRan(res)
            self.assertIn("\r\n\r\nWindow,Start (ns),Requests,Steps,Acceptance Length,"
                          "Draft Acceptance Rate (%)\r\n"
                          "0,1000000000000,2,6,2.50,75.00\r\n"
                          "1,1060000000000,1,2,1.00,0.00\r\n"
                          "2,1120000000000,0,0,,\r\n"
                          "3,1180000000000,1,2,2.50,75.00\r\n", res.text)
            # --expect on the summary
            for expr, rc in (("window_min>=1", 0), ("window_min>1", 4), ("window_last>=2.5", 0),
                             ("window_last<2.5", 4)):
                res = run(["--windows", "60", "-f", "none", "--expect", expr, p])
                self.assertEqual(res.rc, rc, (expr, res))
            # without --windows the values are absent: the expectation fails
            res = run(["-f", "none", "--expect", "window_min>=0", p])
            self.assertEqual(res.rc, 4, res)
            self.assertIn("window_min>=0 (no such value", res.errtext)

    def test_soak(self):
        recs = soak()
        with TempDir() as d:
            p = os.path.join(d, "soak.jsonl")
            write(p, recs)
            for dur, D in (("60", 60 * S), ("2m", 120 * S), ("7s", 7 * S), ("1h", 3600 * S)):
                res = run(["--windows", dur, p])
                self.assertRan(res)
                got = plain(analysis(res)["windows"])
                want = expected_windows(recs, D)
                self.assertEqual(got, want, dur)
            w = expected_windows(recs, 60 * S)
            self.assertTrue(any(x["requests"] == 0 for x in w["windows"]))  # the fixture's gap
            self.assertGreater(w["untimed"], 0)
            self.assertLess(w["summary"]["last"], w["summary"]["first"])    # it sinks

    def test_times(self):
        """SPEC 7.13: request_start_ns only when it passes the same test as
        request_end_ns; a negative, fractional, exponent, oversized or
        string time is no time."""
        h = [1, 1]
        lines = [
            record_line(h, 1, meta={"request_end_ns": 5 * S}),                       # 5
            record_line(h, 1, meta={"request_end_ns": -1, "request_start_ns": 7 * S}),  # 7
            record_line(h, 1, meta={"request_end_ns": 1.5e10}),                       # untimed
            record_line(h, 1, meta={"request_end_ns": 2 ** 63}),                      # untimed
            record_line(h, 1, meta={"request_end_ns": "9000000000"}),                 # untimed
            record_line(h, 1, meta={"request_end_ns": None, "request_start_ns": 2 ** 63 - 1 - 0}),
            record_line(h, 1, meta={"request_start_ns": -3}),                         # untimed
            record_line(h, 1, meta={"request_end_ns": 0}),                            # 0
        ]
        with TempDir() as d:
            p = os.path.join(d, "t.jsonl")
            with open(p, "w") as f:
                f.write("\n".join(lines) + "\n")
            # the largest time (2^63-1 ns) makes too many 1 s windows ...
            res = run(["--windows", "1", p])
            self.assertEqual(res.rc, 2, res)
            # ... so it is left out here (its line dropped), the rest kept
            with open(p, "w") as f:
                f.write("\n".join(lines[:5] + lines[6:]) + "\n")
            res = run(["--windows", "1", p])
            self.assertRan(res)
            w = analysis(res)["windows"]
            self.assertEqual(w["t0_ns"], 0)
            self.assertEqual(w["untimed"], 4)
            self.assertEqual(len(w["windows"]), 8)
            self.assertEqual([x["requests"] for x in w["windows"]], [1, 0, 0, 0, 0, 1, 0, 1])

    def test_rulings_of_13(self):
        """SPEC 13, 7.8: `-0` is the integer 0, a time; an ok record with
        steps and a time is in its window whether or not it carries a
        mean_acceptance_length (the window's mean is over those that do:
        null when none does). Worked by hand: t0 = 0, 1 s windows 0, 1, 2;
        window 2 holds the record without a mean (3 of 8 accepted in 2
        steps: 1 + 3/2 = 2.5)."""
        sda = ('"spec_decode_acceptance":{"engine":"vllm","mean_acceptance_length":%s,'
               '"draft_acceptance_rate":%s,"acceptance_histogram":%s,'
               '"num_accepted_draft_tokens":%d,"num_draft_tokens":8,"num_spec_steps":2,'
               '"num_spec_tokens":4}')
        lines = [
            '{"metadata":{"benchmark_phase":"profiling","request_end_ns":-0},"metrics":{},'
            + sda % ("2.5", "0.375", '{"0":1,"3":1}', 3) + "}",
            '{"metadata":{"benchmark_phase":"profiling","request_end_ns":2000000000},'
            '"metrics":{},' + sda % ("null", "0.375", '{"0":1,"3":1}', 3) + "}",
            '{"metadata":{"benchmark_phase":"profiling","request_end_ns":1000000000},'
            '"metrics":{},' + sda % ("3.5", "0.625", '{"1":1,"4":1}', 5) + "}",
        ]
        with TempDir() as d:
            p = os.path.join(d, "r.jsonl")
            with open(p, "w") as f:
                f.write("\n".join(lines) + "\n")
            res = run(["--windows", "1s", p])
            self.assertRan(res)
            w = analysis(res)["windows"]
            self.assertEqual((w["t0_ns"], w["untimed"]), (0, 0))
            self.assertEqual([(x["requests"], x["steps"], x["accepted"]) for x in w["windows"]],
                             [(1, 2, 3), (1, 2, 5), (1, 2, 3)])
            self.assertEqual([x["acceptance_length"] for x in w["windows"]], [2.5, 3.5, 2.5])
            self.assertEqual([x["mean_acceptance_length"] for x in w["windows"]],
                             [2.5, 3.5, None])

    def test_nothing_timed(self):
        with TempDir() as d:
            p = os.path.join(d, "u.jsonl")
            write(p, [dict(hist=[1, 2], k=1), dict(hist=[3, 0], k=1)])
            res = run(["--windows", "60", p])
            self.assertRan(res)
            self.assertEqual(plain(analysis(res)["windows"]),
                             {"duration_ns": 60 * S, "t0_ns": None, "untimed": 2, "summary": {},
                              "windows": []})
            res = run(["--windows", "60", "-f", "csv", p])
            self.assertNotIn("Window,", res.text)
            res = run(["--windows", "60", "-f", "table", p])
            self.assertIn("Acceptance length over time (60 s windows): no request with stats "
                          "has a time", res.text)
            res = run(["--windows", "60", "-f", "none", "--expect", "window_last>0", p])
            self.assertEqual(res.rc, 4)

    def test_usage(self):
        with TempDir() as d:
            p = os.path.join(d, "a.jsonl")
            write(p, [dict(hist=[1, 1], k=1, t_end=5), dict(hist=[1, 1], k=1, t_end=5 + 100000 * S)])
            for bad in ("0", "0s", "", "5M", "5d", "1.5", "-1", "60 ", "9223372037",
                        "153722868m", "2562048h", "99999999999999999999"):
                res = run(["--windows", bad, "-f", "none", p])
                self.assertEqual(res.rc, 2, (bad, res))
                self.assertIn("--windows", res.errtext, bad)
            res = run(["--windows", "9223372036", "-f", "none", p])
            self.assertRan(res)
            # 100,001 one-second windows: a usage error naming 2 s, and nothing written
            out = os.path.join(d, "r.json")
            res = run(["--windows", "1", "--json", out, "-f", "none", p])
            self.assertEqual(res.rc, 2, res)
            self.assertIn("100,001 windows", res.errtext)
            self.assertIn("--windows 2s", res.errtext)
            self.assertFalse(os.path.exists(out))
            self.assertEqual(len(analysis(run(["--windows", "2s", p]))["windows"]["windows"]),
                             50001)
            for bad in ("0", "1001", "-1", "x", ""):
                res = run(["--outliers", bad, "-f", "none", p])
                self.assertEqual(res.rc, 2, (bad, res))
                self.assertIn("--outliers", res.errtext)


class Outliers(Case):
    def test_soak(self):
        recs = soak()
        with TempDir() as d:
            p = os.path.join(d, "soak.jsonl")
            write(p, recs)
            names = [(p, i + 1) for i in range(len(recs))]
            for n in (1, 5, 1000):
                res = run(["--outliers", str(n), p])
                self.assertRan(res)
                o = analysis(res)["outliers"]
                self.assertEqual(list(o), ["lowest", "highest", "all_rejected", "all_accepted"])
                self.assertEqual(plain(o), expected_outliers(recs, names, n), n)
                for e in o["lowest"] + o["highest"]:
                    keys = ["input", "line", "model", "acceptance_length", "steps",
                            "completion_tokens"] + (["prompt_tokens"] if "prompt_tokens" in e
                                                    else [])
                    self.assertEqual(list(e), keys)
                if n == 1000:
                    self.assertTrue(any("prompt_tokens" in e for e in o["lowest"]))
                    self.assertTrue(any("prompt_tokens" not in e for e in o["lowest"]))
            self.assertGreater(expected_outliers(recs, names, 1)["all_rejected"], 0)
            self.assertGreater(expected_outliers(recs, names, 1)["all_accepted"], 0)

    def test_ties_counts_and_gates(self):
        """By hand: AL 2, 1, 3, 1, 3 (lines 1-5); a warmup line is left out."""
        recs = [dict(hist=[0, 2, 0], k=2, model="a"),          # 2.0
                dict(hist=[3, 0, 0], k=2, comp=7),             # 1.0, all rejected
                dict(hist=[0, 0, 2], k=2, model="c"),          # 3.0, all accepted
                dict(hist=[2, 0, 0], k=2, prompt=900),         # 1.0, all rejected
                dict(hist=[0, 0, 5], k=2),                     # 3.0, all accepted
                dict(hist=[9, 0, 0], k=2, phase="warmup")]     # not in the main results
        with TempDir() as d:
            p = os.path.join(d, "t.jsonl")
            write(p, recs)
            o = analysis(run(["--outliers", "2", p]))["outliers"]
            self.assertEqual([(x["line"], x["acceptance_length"]) for x in o["lowest"]],
                             [(2, 1.0), (4, 1.0)])
            self.assertEqual([(x["line"], x["acceptance_length"]) for x in o["highest"]],
                             [(3, 3.0), (5, 3.0)])
            self.assertEqual(plain(o["lowest"][0]), {"input": p, "line": 2,
                                                     "acceptance_length": 1.0, "steps": 3,
                                                     "completion_tokens": 7})
            self.assertEqual(plain(o["lowest"][1]), {"input": p, "line": 4,
                                                     "acceptance_length": 1.0, "steps": 2,
                                                     "prompt_tokens": 900})
            self.assertEqual(o["all_rejected"], 2)
            self.assertEqual(o["all_accepted"], 2)
            o = analysis(run(["--outliers", "3", p]))["outliers"]
            self.assertEqual([x["line"] for x in o["lowest"]], [2, 4, 1])
            self.assertEqual([x["line"] for x in o["highest"]], [3, 5, 1])
            # the counts' gates, with and without --outliers
            for extra in ([], ["--outliers", "1"]):
                for expr, rc in (("all_rejected_requests<=2", 0), ("all_rejected_requests<2", 4),
                                 ("all_accepted_requests>=2", 0), ("all_accepted_requests>2", 4)):
                    res = run(extra + ["-f", "none", "--expect", expr, p])
                    self.assertEqual(res.rc, rc, (extra, expr, res))
            res = run(["-f", "none", "--expect", "all_rejected_requests<1", p])
            self.assertIn("expectation failed: all_rejected_requests<1 (the value is 2)\n",
                          res.errtext)
            res = run(["--outliers", "2", "-f", "csv", p])
            self.assertIn("\r\n\r\nOutliers,Rank,Input,Line,Model,Acceptance Length,Steps,"
                          "Completion Tokens,Prompt Tokens\r\n"
                          "lowest,1,%s,2,,1.00,3,7,\r\n"
                          "lowest,2,%s,4,,1.00,2,,900\r\n"
                          "highest,1,%s,3,c,3.00,2,,\r\n"
                          "highest,2,%s,5,,3.00,5,,\r\n"
                          "\r\nRequests,Count\r\nAll Rejected,2\r\nAll Accepted,2\r\n"
                          % (p, p, p, p), res.text)
            res = run(["--outliers", "2", "-f", "table", p])
            self.assertIn("Lowest acceptance length", res.text)
            self.assertIn("  2 requests with every draft token rejected, 2 with every draft "
                          "token accepted", res.text)

    def test_names_escaped(self):
        model = "<img src=x onerror=alert(1)>|\x1b]0;owned\x07*_x_*"
        with TempDir() as d:
            p = os.path.join(d, "n.jsonl")
            write(p, [dict(hist=[1, 1], k=1, model=model, t_end=S)])
            o = analysis(run(["--outliers", "1", p]))["outliers"]
            self.assertEqual(o["lowest"][0]["model"], model)        # data: as it is
            table = run(["--outliers", "1", "--windows", "1", "-f", "table", p]).text
            self.assertNotIn("\x1b", table)
            self.assertNotIn("\x07", table)
            self.assertIn("\\033]0;owned\\a", table)
            md = run(["--outliers", "1", "-f", "markdown", p]).text
            self.assertNotIn("<img", md)
            self.assertIn("&lt;img src=x onerror=alert(1)&gt;\\|", md)
            self.assertIn("\\*\\_x\\_\\*", md)
            html = os.path.join(d, "r.html")
            self.assertRan(run(["--outliers", "1", "--windows", "1", "-f", "none", "--html",
                                html, p]))
            with open(html, encoding="utf-8") as f:
                page = f.read()
            self.assertNotIn("<img", page)
            self.assertIn("&lt;img src=x onerror=alert(1)&gt;|", page)
            self.assertIn('<section id="windows">', page)
            self.assertIn('<section id="outliers">', page)


class Tutorial(Case):
    def test_soak_fixture(self):
        """testdata/analysis/soak.jsonl as make_runs.py builds it: 360
        requests 20 s apart (two hours: twelve 10-minute windows), loops at
        requests 97 and 301 (lines 98, 302: AL 5 with k 4), garbled replies
        at 150 and 222 (lines 151, 223: AL 1), acceptance sinking after
        the first hour."""
        p = td("analysis", "soak.jsonl")
        a = analysis(run(["--windows", "10m", "--outliers", "2", p]))
        w, o = a["windows"], a["outliers"]
        self.assertEqual(len(w["windows"]), 12)
        self.assertEqual(sum(x["requests"] for x in w["windows"]), 360)
        self.assertEqual(w["untimed"], 0)
        self.assertEqual(w["summary"]["min_window"], 11)
        self.assertLess(w["summary"]["last"], w["summary"]["first"] - 0.5)
        self.assertEqual([(x["line"], x["acceptance_length"]) for x in o["lowest"]],
                         [(151, 1.0), (223, 1.0)])
        self.assertEqual([(x["line"], x["acceptance_length"]) for x in o["highest"]],
                         [(98, 5.0), (302, 5.0)])
        self.assertEqual((o["all_rejected"], o["all_accepted"]), (2, 2))
        self.assertEqual(o["lowest"][0]["model"], "Qwen/Qwen3-8B")



class WithServer(Case):
    def test_one_time_axis(self):
        """SPEC 7.8 with 10.3: the server's intervals are drawn on the windows'
        time axis. Requests every 10 s from T0 (AL 3 each: 4 steps, 8
        accepted); scrapes at T0 + 0, 40, 80, 120 s with drafts 0, 10, 30, 40
        and accepted 0, 20, 30, 70: intervals of 10, 20, 10 steps and 20, 10,
        40 accepted, so AL 3.00 at 0 s, 1.50 at 40 s, 5.00 at 80 s."""
        import re
        with TempDir() as d:
            req = os.path.join(d, "r.jsonl")
            write(req, [dict(hist=[0, 2, 0, 2, 0], k=4, t_end=T0 + i * 10 * S)
                        for i in range(12)])
            srv = os.path.join(d, "s.prom")
            with open(srv, "w") as f:
                for j, (n, a) in enumerate([(0, 0), (10, 20), (30, 30), (40, 70)]):
                    f.write("# time: %d\n" % (T0 // S + 40 * j))
                    f.write("vllm:spec_decode_num_drafts_total %d\n" % n)
                    f.write("vllm:spec_decode_num_draft_tokens_total %d\n" % (4 * n))
                    f.write("vllm:spec_decode_num_accepted_tokens_total %d\n" % a)
            page = os.path.join(d, "p.html")
            res = run(["-f", "none", "--windows", "30s", "--html", page, req, srv])
            self.assertRan(res)
            with open(page, encoding="utf-8") as f:
                html = f.read()
            sec = html[html.index('<section id="windows">'):]
            sec = sec[:sec.index("</svg>")]
            titles = re.findall(r"<title>([^<]*) at ([0-9.]+): ([0-9.]+)</title>", sec)
            self.assertEqual([t for t in titles if t[0] == "Requests"],
                             [("Requests", "0", "3.00"), ("Requests", "30", "3.00"),
                              ("Requests", "60", "3.00"), ("Requests", "90", "3.00")])
            self.assertEqual([t for t in titles if t[0] != "Requests"],
                             [("Server counters (vllm)", "0", "3.00"),
                              ("Server counters (vllm)", "40", "1.50"),
                              ("Server counters (vllm)", "80", "5.00")])
            # without a server input, the requests' series alone
            page2 = os.path.join(d, "p2.html")
            self.assertRan(run(["-f", "none", "--windows", "30s", "--html", page2, req]))
            with open(page2, encoding="utf-8") as f:
                self.assertNotIn("Server counters", f.read())

class Together(Case):
    ARGS = ["--windows", "60", "--outliers", "7"]

    def test_threads(self):
        """-j1 and -j2 give the same bytes, over many batches."""
        recs = soak(n=12000, seed=11)
        with TempDir() as d:
            p = os.path.join(d, "big.jsonl")
            write(p, recs)
            for fmt in ("json", "csv", "table", "markdown"):
                a = run(self.ARGS + ["-j1", "-f", fmt, p], timeout=120)
                b = run(self.ARGS + ["-j2", "-f", fmt, p], timeout=120)
                self.assertRan(a)
                self.assertEqual(a.out, b.out, fmt)
            pages = []
            for j in ("-j1", "-j2"):
                h = os.path.join(d, "p%s.html" % j)
                self.assertRan(run(self.ARGS + [j, "-f", "none", "--html", h, p], timeout=120))
                with open(h, "rb") as f:
                    pages.append(f.read())
            self.assertEqual(pages[0], pages[1])
            o = plain(analysis(run(self.ARGS + [p], timeout=120))["outliers"])
            self.assertEqual(o, expected_outliers(recs, [(p, i + 1) for i in range(len(recs))], 7))

    def test_merge(self):
        """Partials merged give the single run's windows and outliers; an
        outlier keeps the input and line of its original request."""
        recs = soak(n=90, seed=3)
        with TempDir() as d:
            files = []
            for i in range(3):
                p = os.path.join(d, "run-%d.jsonl" % i)
                write(p, recs[i * 30:(i + 1) * 30])
                files.append(p)
            parts = []
            for i in range(2):
                part = os.path.join(d, "part-%d.jsonl.zst" % i)
                self.assertRan(run(["--shard", "%d/2" % i, "-f", "none", "--records", part]
                                   + files))
                parts.append(part)
            for fmt in ("json", "csv", "table", "markdown"):
                want = run(self.ARGS + ["-f", fmt] + files)
                got = run(self.ARGS + ["-f", fmt] + parts)
                self.assertRan(want)
                self.assertEqual(got.out.decode(), want.out.decode(), fmt)
            o = analysis(run(self.ARGS + parts))["outliers"]
            names = [(files[i // 30], i % 30 + 1) for i in range(90)]
            self.assertEqual(plain(o), expected_outliers(recs, names, 7))


if __name__ == "__main__":
    main()
