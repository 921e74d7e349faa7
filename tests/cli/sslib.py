"""Shared helpers of the whole-program tests (tests/cli/test_*.py).

Environment (set by tests/local.mk; sensible defaults when run by hand from
the top of a built tree):
    SPECSCAN  the built binary        (default: <top>/specscan)
    SRCDIR    the top of the source tree (default: two levels above this file)
    SERVER_TOOL, REPR_TOOL, CHART_DEMO
              the test tools (default: tests/tools/NAME beside SPECSCAN)
    SPECSCAN_SYSTEM
              1 under `make check-system`: the checks that start a real
              component (Chromium) run; otherwise they are left out

The expected values of the tests are stated by hand in the tests or computed
here from the per-request values the fixtures were built from, with the
formulas of SPEC 3.1 written out plainly; nothing is taken from specscan's
own output.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(HERE))
SPECSCAN = os.environ.get("SPECSCAN") or os.path.join(SRCDIR, "specscan")
TESTDATA = os.path.join(SRCDIR, "testdata")


SYSTEM = os.environ.get("SPECSCAN_SYSTEM") == "1"


def td(*parts):
    """Path of a fixture under testdata/."""
    return os.path.join(TESTDATA, *parts)


def tool_path(name):
    """A test tool of tests/tools/ (built beside specscan), or $NAME."""
    return os.environ.get(name.upper()) or os.path.join(
        os.path.dirname(os.path.abspath(SPECSCAN)), "tests", "tools", name)


def server_tool(*args, stdin=None):
    """Run the server stage's driver: (exit status, its JSON, its stderr)."""
    p = subprocess.run([tool_path("server_tool")] + list(args), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, json.loads(p.stdout.decode("utf-8")), p.stderr.decode("utf-8", "replace")


# Every text fixture that is a request source, with the extra arguments it is
# run with.  (name, path relative to testdata, extra args)
FIXTURES = [
    ("sample", "sample/aiperf_raw_vllm.jsonl", []),
    ("vllm_bodies", "engines/vllm_bodies.jsonl", []),
    ("trtllm_sse", "engines/trtllm_streams.sse", []),
    ("comment_sse", "engines/sse_comment_first.sse", []),
    ("llamacpp_bodies", "engines/llamacpp_bodies.jsonl", []),
    ("llamacpp_sse", "engines/llamacpp_stream.sse", []),
    ("sglang_bodies", "engines/sglang_bodies.jsonl", []),
    ("records", "records/profile_export.jsonl", []),
    ("mixed", "mixed/mixed_garbage.jsonl", []),
    ("mixed_1k", "mixed/mixed_garbage.jsonl", ["--max-record-size", "1K"]),
    ("artifacts_run1", "artifacts/run1", []),
    ("artifacts_tree", "artifacts", ["-r"]),
]

STATUSES = ["ok", "zero_step", "no_stats", "unrecognized", "ambiguous", "multi_choice",
            "malformed", "error", "cancelled", "no_content", "unparsable", "oversize"]

PER_REQUEST = [  # (tag, header, unit), SPEC 3
    ("spec_decode_acceptance_length", "Acceptance Length", "ratio"),
    ("spec_decode_draft_acceptance_rate", "Draft Acceptance Rate", "%"),
    ("spec_decode_accepted_per_verified", "Accepted per Verified", "ratio"),
    ("spec_decode_steps", "Spec Decode Steps", "count"),
    ("spec_decode_accepted_draft_tokens", "Accepted Draft Tokens", "tokens"),
    ("spec_decode_draft_tokens", "Draft Tokens", "tokens"),
]
RUN_LEVEL = [
    ("total_spec_decode_steps", "Total Spec Decode Steps", "count"),
    ("total_accepted_draft_tokens", "Total Accepted Draft Tokens", "tokens"),
    ("total_draft_tokens", "Total Draft Tokens", "tokens"),
    ("spec_decode_token_weighted_acceptance_length", "Token-Weighted Acceptance Length", "ratio"),
    ("spec_decode_overall_draft_acceptance_rate", "Overall Draft Acceptance Rate", "%"),
    ("spec_decode_zero_step_requests", "Zero-Step Requests", "requests"),
]
UNITS = {t: u for t, _, u in PER_REQUEST + RUN_LEVEL}
HEADERS = {t: h for t, h, _ in PER_REQUEST + RUN_LEVEL}
METRIC_ORDER = [  # SPEC 4.1, item 3
    "spec_decode_acceptance_length", "spec_decode_token_weighted_acceptance_length",
    "spec_decode_draft_acceptance_rate", "spec_decode_overall_draft_acceptance_rate",
    "spec_decode_accepted_per_verified", "spec_decode_steps",
    "spec_decode_zero_step_requests", "spec_decode_accepted_draft_tokens",
    "spec_decode_draft_tokens", "total_spec_decode_steps", "total_accepted_draft_tokens",
    "total_draft_tokens",
]
STAT_KEYS = ["unit", "avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
             "min", "max", "std", "count", "sum"]
RECORD_KEYS = ["engine", "mean_acceptance_length", "draft_acceptance_rate",
               "acceptance_histogram", "num_accepted_draft_tokens", "num_draft_tokens",
               "num_spec_steps", "num_spec_tokens", "completion_tokens", "prompt_tokens",
               "per_step_accepted", "per_step_drafted", "acceptance_histogram_by_draft_length"]


# --------------------------------------------------------------------------
# Running the program

class Result:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err

    @property
    def text(self):
        return self.out.decode("utf-8")

    @property
    def errtext(self):
        return self.err.decode("utf-8", "replace")

    def __repr__(self):
        return "Result(rc=%r, stderr=%r)" % (self.rc, self.errtext[-2000:])


def run(args, stdin=None, env=None, cwd=None, timeout=60):
    e = dict(os.environ)
    e.pop("SPECSCAN_SIMD", None)
    e.pop("SPECSCAN_FULL_PARSE", None)
    e.setdefault("LC_ALL", "C.UTF-8")
    e["NO_COLOR"] = "1"
    # the console's width is the test's to give (a caller's COLUMNS would
    # fit the tables and wrap the prose the tests read)
    e.pop("COLUMNS", None)
    if env:
        e.update(env)
    p = subprocess.run([SPECSCAN] + list(args), input=stdin,
                       stdin=None if stdin is not None else subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, cwd=cwd,
                       timeout=timeout)
    return Result(p.returncode, p.stdout, p.stderr)


def have_tool(name):
    return shutil.which(name) is not None


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="specscan-test-")
        return self.path

    def __exit__(self, *a):
        shutil.rmtree(self.path, ignore_errors=True)


# --------------------------------------------------------------------------
# JSON that keeps the text of every double

class F(float):
    """A double read from JSON, remembering how it was written."""

    def __new__(cls, text):
        o = float.__new__(cls, text)
        o.text = text
        return o


def loads(text):
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text, parse_float=F)


def pyrepr(x):
    """How SPEC 4 writes a double: Python's repr."""
    return repr(float(x))


# --------------------------------------------------------------------------
# SPEC 3.1, written out plainly

def percentile(sorted_v, q):
    """SPEC 3.1: x = q/100 * (n-1), lo = floor(x), hi = min(lo+1, n-1), and
    v[lo] + (x-lo) * (v[hi]-v[lo]) -- evaluated the way numpy's "linear"
    method (and so AIPerf) evaluates it: from the upper end when the
    fraction is >= 0.5 (numpy's _lerp), which can differ in the last bit."""
    n = len(sorted_v)
    x = q / 100 * (n - 1)
    lo = math.floor(x)
    hi = min(lo + 1, n - 1)
    t = x - lo
    a, b = sorted_v[lo], sorted_v[hi]
    if t >= 0.5:
        return b - (b - a) * (1 - t)
    return a + (b - a) * t


def stats(values):
    """Statistics of one per-request metric, values in input order."""
    v = [float(x) for x in values]
    n = len(v)
    s = 0.0
    for x in v:
        s += x
    avg = s / n
    sv = sorted(v)
    out = {"avg": avg}
    for q in (1, 5, 10, 25, 50, 75, 90, 95, 99):
        out["p%d" % q] = percentile(sv, q)
    out["min"] = sv[0]
    out["max"] = sv[-1]
    sq = 0.0
    for x in v:
        sq += (x - avg) * (x - avg)
    out["std"] = math.sqrt(sq / n)
    out["count"] = n
    out["sum"] = s
    return out


class Rec:
    """One ok record as the tests see it (engine-neutral)."""

    def __init__(self, engine, acc, drafted, steps=None, mean=None, rate=None, hist=None,
                 k=None, comp=None, psa=None, psd=None, prompt=None, bdl=None):
        self.engine, self.acc, self.drafted, self.steps = engine, acc, drafted, steps
        self.hist, self.k, self.comp, self.psa, self.psd = hist, k, comp, psa, psd
        self.prompt, self.bdl = prompt, bdl
        # Doubles: as sent when given, else computed as SPEC 2.4/2.6 says.
        if mean is None and steps:
            mean = 1 + acc / steps
        if rate is None:
            rate = acc / drafted if drafted else 0.0
        self.mean, self.rate = mean, rate

    def per_request(self):
        """The per-request metric values of SPEC 3 (tag -> value)."""
        m = {}
        if self.steps is not None:
            m["spec_decode_acceptance_length"] = self.mean
        m["spec_decode_draft_acceptance_rate"] = self.rate * 100.0
        if self.steps is not None and self.drafted + self.steps != 0:
            m["spec_decode_accepted_per_verified"] = (self.acc + self.steps) / (self.drafted + self.steps)
        if self.steps is not None:
            m["spec_decode_steps"] = self.steps
        m["spec_decode_accepted_draft_tokens"] = self.acc
        m["spec_decode_draft_tokens"] = self.drafted
        return m


def expected_metrics(recs, zero_steps=0):
    """tag -> expected metric object (per-request: stats; run-level: avg)."""
    out = {}
    vals = {}
    for r in recs:
        for t, v in r.per_request().items():
            vals.setdefault(t, []).append(v)
    for t, _, _ in PER_REQUEST:
        if t in vals:
            out[t] = stats(vals[t])
    tot_steps = sum(r.steps for r in recs if r.steps is not None)
    tot_acc = sum(r.acc for r in recs)
    tot_dr = sum(r.drafted for r in recs)
    acc_steps = sum(r.acc for r in recs if r.steps is not None)
    # SPEC 3: absent when no ok record has steps (llama.cpp without
    # draft_rounds), as AIPerf omits it.
    if any(r.steps is not None for r in recs):
        out["total_spec_decode_steps"] = {"avg": tot_steps}
    if recs:
        out["total_accepted_draft_tokens"] = {"avg": tot_acc}
        out["total_draft_tokens"] = {"avg": tot_dr}
    if tot_steps:
        out["spec_decode_token_weighted_acceptance_length"] = {"avg": 1 + acc_steps / tot_steps}
    if tot_dr:
        out["spec_decode_overall_draft_acceptance_rate"] = {"avg": tot_acc / tot_dr * 100.0}
    if zero_steps:
        out["spec_decode_zero_step_requests"] = {"avg": zero_steps}
    return out


def pooled(recs):
    h = {}
    for r in recs:
        for j, c in (r.hist or {}).items():
            h[int(j)] = h.get(int(j), 0) + c
    return {str(j): h[j] for j in sorted(h) if h[j]}


# --------------------------------------------------------------------------
# Assertions

class Case(unittest.TestCase):
    maxDiff = None

    def assertRan(self, res, rc=0):
        self.assertEqual(res.rc, rc, "exit status %d, expected %d; stderr:\n%s"
                         % (res.rc, rc, res.errtext[-3000:]))

    def assertNum(self, got, want, where=""):
        """A number written by specscan equals `want`: a double written as
        Python's repr, or (for an int want) an integer literal or that
        integer as a double."""
        if isinstance(want, int) and not isinstance(want, bool):
            if isinstance(got, F):
                self.assertEqual(got.text, pyrepr(want), where)
            else:
                self.assertIsInstance(got, int, where)
                self.assertEqual(got, want, where)
        else:
            self.assertIsInstance(got, F, "%s: %r is not written as a double" % (where, got))
            self.assertEqual(got.text, pyrepr(want), where)

    def assertMetrics(self, doc, want, where="metrics"):
        """`doc` (a report object or warmup_metrics) holds exactly the metrics
        of `want`, in SPEC 4.1's order, with exact values."""
        tags = [k for k in doc if k in UNITS]
        self.assertEqual(tags, [t for t in METRIC_ORDER if t in want], where + ": metric tags/order")
        for t, w in want.items():
            m = doc[t]
            self.assertEqual(m["unit"], UNITS[t], "%s.%s unit" % (where, t))
            if "count" in w:
                self.assertEqual(list(m), STAT_KEYS, "%s.%s keys" % (where, t))
                for k in STAT_KEYS[1:]:
                    if k == "count":
                        self.assertIsInstance(m[k], int, "%s.%s.count" % (where, t))
                        self.assertNotIsInstance(m[k], F)
                        self.assertEqual(m[k], w[k], "%s.%s.count" % (where, t))
                    else:
                        self.assertIsInstance(m[k], F, "%s.%s.%s is a double" % (where, t, k))
                        self.assertEqual(m[k].text, pyrepr(w[k]), "%s.%s.%s" % (where, t, k))
            else:
                self.assertEqual(list(m), ["unit", "avg"], "%s.%s keys" % (where, t))
                self.assertNum(m["avg"], w["avg"], "%s.%s.avg" % (where, t))

    def assertAccounting(self, doc, counts=None, total=None):
        req = doc["specscan"]["requests"]
        self.assertEqual(list(req), ["total"] + STATUSES, "requests keys/order")
        self.assertEqual(sum(req[s] for s in STATUSES), req["total"], "statuses sum to total")
        if total is not None:
            self.assertEqual(req["total"], total)
        if counts is not None:
            want = {s: counts.get(s, 0) for s in STATUSES}
            self.assertEqual({s: req[s] for s in STATUSES}, want)
        self.assertEqual(sum(doc["specscan"]["phases"].values()), req["total"], "phases sum to total")

    def assertRecord(self, got, r, where=""):
        """An enriched JSONL spec_decode_acceptance equals the Rec `r`."""
        keys = list(got)
        self.assertEqual(keys, [k for k in RECORD_KEYS if k in got], where + ": record key order")
        self.assertEqual(got["engine"], r.engine, where)
        if r.steps is not None:
            self.assertNum(got["mean_acceptance_length"], r.mean, where + " mean")
        self.assertNum(got["draft_acceptance_rate"], r.rate, where + " rate")
        if r.hist is None:
            self.assertNotIn("acceptance_histogram", got, where)
        else:
            want = {str(j): c for j, c in sorted(((int(j), c) for j, c in r.hist.items())) if c}
            self.assertEqual(list(got["acceptance_histogram"].items()), list(want.items()),
                             where + " histogram")
        self.assertEqual(got["num_accepted_draft_tokens"], r.acc, where)
        self.assertEqual(got["num_draft_tokens"], r.drafted, where)
        for key, val in (("num_spec_steps", r.steps), ("num_spec_tokens", r.k),
                         ("completion_tokens", r.comp), ("prompt_tokens", r.prompt),
                         ("per_step_accepted", r.psa), ("per_step_drafted", r.psd),
                         ("acceptance_histogram_by_draft_length", r.bdl)):
            if val is None:
                self.assertNotIn(key, got, where)
            else:
                self.assertEqual(got.get(key), val, "%s %s" % (where, key))


def jsonl_lines(res_or_text):
    text = res_or_text.text if isinstance(res_or_text, Result) else res_or_text
    if text == "":
        return []
    assert text.endswith("\n"), "JSONL output does not end with a newline"
    return [loads(l) for l in text[:-1].split("\n")]


def main(tools=()):
    """Run the module's tests: exit 0 when they pass, 1 when one fails, 77
    (automake's skip) when every test was skipped; a missing binary or tool
    (tests/tools/) is a hard error (99)."""
    if not os.access(SPECSCAN, os.X_OK):
        sys.stderr.write("specscan binary not found at %s (set SPECSCAN)\n" % SPECSCAN)
        sys.exit(99)
    for name in tools:
        if not os.access(tool_path(name), os.X_OK):
            sys.stderr.write("%s not found at %s (set %s)\n" % (name, tool_path(name), name.upper()))
            sys.exit(99)
    result = unittest.main(verbosity=2, exit=False).result
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(77 if result.testsRun and len(result.skipped) == result.testsRun else 0)


def python_with_client():
    """A Python that imports prometheus_client (the library vLLM and SGLang
    export with), or None."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.access(py, os.X_OK) and subprocess.run(
                [py, "-c", "import prometheus_client"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None
