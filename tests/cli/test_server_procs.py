#!/usr/bin/env python3
"""SPEC 10.3 (revised) through specscan: the pages of several server
processes in any input order. Dynamo-style workers, each with its own
`/metrics` (the same label sets, prometheus_client's
process_start_time_seconds on every page), saved as per-worker files and
as one interleaved loop file, given in glob order and reversed; workers
named by `# endpoint:` lines alone; a worker restarted in a timed loop;
SGLang pages without spec_verify_calls (the missing counter named, no
derived value); AIPerf's timeslices (SPEC 10.6's vector). promtool checks
every page written here when it is installed.

Expected windows are worked out by hand in the comments (SPEC 10.6's
two-worker vector: W1 drafts 10 -> 14, draft tokens 20 -> 26, accepted
10 -> 13; W2 50 -> 57, 100 -> 114, 40 -> 47: ΔS 11, ΔD 20, ΔA 10).
"""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run  # noqa: E402

DYNAMO = 'dynamo_namespace="ns",dynamo_component="backend",dynamo_endpoint="generate"'


def page(start, drafts, draft_tokens, accepted, worker, time=None, endpoint=None,
         with_start=True):
    """A vLLM worker's page as prometheus_client writes it (process collector on)."""
    lines = []
    if endpoint is not None:
        lines.append("# endpoint: %s" % endpoint)
    if time is not None:
        lines.append("# time: %s" % time)
    if with_start:
        lines += ["# HELP process_start_time_seconds Start time of the process since unix "
                  "epoch in seconds.",
                  "# TYPE process_start_time_seconds gauge",
                  "process_start_time_seconds %r" % float(start)]
    labels = '%s,engine="0",model_name="m",worker_id="%s"' % (DYNAMO, worker)
    for name, v in (("drafts", drafts), ("draft_tokens", draft_tokens),
                    ("accepted_tokens", accepted)):
        if v is None:
            continue
        lines.append("# HELP vllm:spec_decode_num_%s_total Spec decode %s." % (name, name))
        lines.append("# TYPE vllm:spec_decode_num_%s_total counter" % name)
        lines.append("vllm:spec_decode_num_%s_total{%s} %r" % (name, labels, float(v)))
    return "\n".join(lines) + "\n"


W1, W2 = 1765039000.5, 1765039100.25
PAGES = {
    "w1-before.prom": page(W1, 10, 20, 10, "1"),
    "w2-before.prom": page(W2, 50, 100, 40, "2"),
    "w1-after.prom": page(W1, 14, 26, 13, "1"),
    "w2-after.prom": page(W2, 57, 114, 47, "2"),
}


def window(res):
    assert res.rc == 0, res
    doc = json.loads(res.out.decode("utf-8"))
    fams = doc["server"]["families"]
    assert len(fams) == 1, fams
    return doc, fams[0]


class ServerProcesses(Case):
    def promtool(self, text):
        tool = shutil.which("promtool")
        if not tool:
            return
        # `# time:` and `# endpoint:` are comments to Prometheus
        p = subprocess.run([tool, "check", "metrics"], input=text.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = (p.stdout + p.stderr).decode()
        self.assertNotIn("error", out.lower(), out)

    def write(self, d, name, text, pages=None):
        """Write a file; promtool reads each of its pages (one page: the text)."""
        for one in pages or [text]:
            self.promtool(one)
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def check_two(self, f):
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (11, 20, 10))
        self.assertEqual(f["acceptance_length"], 1 + 10 / 11)
        self.assertEqual(f["draft_acceptance_rate"], 50.0)
        self.assertEqual(f["processes"], 2)
        self.assertEqual(f["resets"], 0)
        self.assertNotIn("unordered", f)
        self.assertFalse(f["since_start"])

    def test_workers_any_order(self):
        with TempDir() as d:
            files = [self.write(d, n, t) for n, t in sorted(PAGES.items())]
            for order in (files, files[::-1], [files[2], files[0], files[3], files[1]]):
                doc, f = window(run(["-f", "json"] + order))
                self.check_two(f)
                self.assertEqual(doc["server"]["endpoints"], 2)

    def test_interleaved_loop_file(self):
        with TempDir() as d:
            order = ["w1-before.prom", "w2-before.prom", "w1-after.prom", "w2-after.prom"]
            loop = self.write(d, "loop.prom", "".join(PAGES[n] for n in order),
                              list(PAGES.values()))
            _, f = window(run(["-f", "json", loop]))
            self.check_two(f)
            back = self.write(d, "back.prom", "".join(PAGES[n] for n in order[::-1]),
                              list(PAGES.values()))
            _, f = window(run(["-f", "json", back]))
            self.check_two(f)

    def test_untimed_note(self):
        with TempDir() as d:
            files = [self.write(d, n, t) for n, t in sorted(PAGES.items())]
            res = run(["-f", "table"] + files)
            self.assertEqual(res.rc, 0, res)
            self.assertIn("2 processes, not all timed", res.text)
            self.assertIn("`# time:` lines make them exact", res.text)

    def test_endpoint_lines(self):
        # no process collector (llama.cpp-like): `# endpoint:` names the workers
        pages = [page(0, *v, endpoint=e, with_start=False) for e, v in (
            ("w1", (10, 20, 10, "1")), ("w2", (50, 100, 40, "2")),
            ("w1", (14, 26, 13, "1")), ("w2", (57, 114, 47, "2")))]
        with TempDir() as d:
            _, f = window(run(["-f", "json", self.write(d, "eps.prom", "".join(pages), pages)]))
            self.check_two(f)

    def test_restart_in_timed_loop(self):
        # process 1000 at 2000 s and 2100 s: drafts 100, 150; restarted as process
        # 2150, at 2200 s and 2300 s: 20, 60 -> 50 + 20 + 40 = 110 (SPEC 10.6)
        rows = [(1000, 2000, 100), (1000, 2100, 150), (2150, 2200, 20), (2150, 2300, 60)]
        pages = [page(st, dr, 3 * dr, dr, "1", time=t) for st, t, dr in rows]
        with TempDir() as d:
            for name, t in (("loop.prom", pages), ("back.prom", pages[::-1])):
                _, f = window(run(["-f", "json", self.write(d, name, "".join(t), t)]))
                self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]),
                                 (110, 330, 110))
                self.assertEqual(f["resets"], 0)
                self.assertEqual(f["started_in_window"], 1)
                self.assertEqual(f["processes"], 2)
                self.assertEqual(f["window"], {"start_ns": 2000 * 10**9,
                                               "end_ns": 2300 * 10**9})

    def test_restart_unnamed_any_order(self):
        # one server without process_start_time_seconds, timed pages at
        # 100, 200 and 300 s: drafts 10, 30, then 5 after a restart; draft
        # tokens 30, 90, 15; accepted 10, 25, 4. In time order: S 20 + 5 = 25,
        # D 60 + 15 = 75, A 15 + 4 = 19, one reset (SPEC 10.3), whatever the
        # order of the pages or the files; intervals 20/60/15 and 5/15/4.
        rows = [(100, 10, 30, 10), (200, 30, 90, 25), (300, 5, 15, 4)]
        pages = [page(0, s, dt, a, "1", time=t, with_start=False) for t, s, dt, a in rows]
        perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        with TempDir() as d:
            files = [self.write(d, "p%d.prom" % i, p) for i, p in enumerate(pages)]
            for n, perm in enumerate(perms):
                loop = self.write(d, "loop%d.prom" % n, "".join(pages[i] for i in perm),
                                  pages)
                for args in ([loop], [files[i] for i in perm]):
                    _, f = window(run(["-f", "json"] + args))
                    self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]),
                                     (25, 75, 19))
                    self.assertEqual(f["resets"], 1)
                    self.assertEqual(f["acceptance_length"], 1 + 19 / 25)
                    self.assertEqual(f["window"], {"start_ns": 100 * 10**9,
                                                   "end_ns": 300 * 10**9})
                    got = [(i["start_ns"], i["end_ns"], i["steps"], i["draft_tokens"],
                            i["accepted_tokens"]) for i in f["intervals"]]
                    self.assertEqual(got, [(100 * 10**9, 200 * 10**9, 20, 60, 15),
                                           (200 * 10**9, 300 * 10**9, 5, 15, 4)])

    def test_sglang_missing_counter(self):
        def sg(gen, req, al):
            return ("# TYPE sglang:generation_tokens_total counter\n"
                    "sglang:generation_tokens_total{model_name=\"m\"} %r\n"
                    "# TYPE sglang:num_requests_total counter\n"
                    "sglang:num_requests_total{model_name=\"m\"} %r\n"
                    "# TYPE sglang:spec_accept_length gauge\n"
                    "sglang:spec_accept_length{model_name=\"m\"} %r\n" % (gen, req, al))
        with TempDir() as d:
            a = self.write(d, "a.prom", sg(1000.0, 10.0, 2.5))
            b = self.write(d, "b.prom", sg(248000.0, 1010.0, 3.25))
            _, f = window(run(["-f", "json", a, b]))
            self.assertEqual(f["engine"], "sglang")
            self.assertEqual(f["missing"], ["sglang:spec_verify_calls"])
            self.assertEqual(f["gauges"], {"sglang:spec_accept_length": 3.25})
            self.assertNotIn("acceptance_length", f)
            res = run(["-f", "table", a, b])
            self.assertIn("missing counter sglang:spec_verify_calls", res.text)

    def test_aiperf_timeslices(self):
        # SPEC 10.6: drafts 30 = 10 + 20, draft tokens 60 = 20 + 40, accepted 12 = 3 + 9
        def fam(total, a, b):
            return {"type": "counter", "series": [{
                "endpoint_url": "http://w1:8000/metrics", "labels": {},
                "stats": {"total": total},
                "timeslices": [{"start_ns": 0, "end_ns": 10, "total": a},
                               {"start_ns": 10, "end_ns": 20, "total": b}]}]}
        doc = {"metrics": {"vllm:spec_decode_num_drafts": fam(30, 10, 20),
                           "vllm:spec_decode_num_draft_tokens": fam(60, 20, 40),
                           "vllm:spec_decode_num_accepted_tokens": fam(12, 3, 9)}}
        with TempDir() as d:
            path = os.path.join(d, "server_metrics_export.json")
            with open(path, "w") as fh:
                json.dump(doc, fh)
            _, f = window(run(["-f", "json", path]))
            self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (30, 60, 12))
            self.assertEqual(f["acceptance_length"], 1.4)
            self.assertEqual(f["draft_acceptance_rate"], 20.0)
            iv = f["intervals"]
            self.assertEqual([(i["start_ns"], i["end_ns"]) for i in iv], [(0, 10), (10, 20)])
            self.assertEqual([i["acceptance_length"] for i in iv], [1.3, 1.45])
            self.assertEqual([i["draft_acceptance_rate"] for i in iv], [15.0, 22.5])
            self.assertEqual([i["process"] for i in iv], ["http://w1:8000/metrics"] * 2)


if __name__ == "__main__":
    main()
