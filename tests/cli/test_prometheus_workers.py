#!/usr/bin/env python3
"""SPEC 10.3 (revised) against real components: several server processes.

The test starts, on 127.0.0.1 and free ports, three exporters written with
prometheus_client (its default registry: the process collector on, as
vLLM, SGLang and Dynamo workers run it), each serving vLLM's
speculative-decoding counters with the same label set (Dynamo's
dynamo_namespace, dynamo_component, dynamo_endpoint, one engine, one
model: the workers cannot be told apart by labels), advanced on command by
amounts this test knows; and Debian's `prometheus`, scraping the three
every second. Checked, each against totals worked out by hand (TOTALS):
  * per-worker before/after pages (urllib, as curl saves them) given to
    specscan in glob order and reversed;
  * the same pages as one interleaved loop file, in order and reversed;
  * a timed loop file (`# time:`) in which worker 3 is restarted (a new
    process) between two scrapes: the new process counts from zero;
  * Prometheus' query_range over the window (its `instance` label keeps
    the targets apart) read by specscan: the same totals;
  * promtool reads every page saved here.
Every process is stopped by its pid (test_prometheus.py's Proc); the logs
are printed on failure. Without prometheus or prometheus_client the test
is skipped and says why.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
import test_prometheus as tp  # noqa: E402

EXPORTER = r'''
import sys
from prometheus_client import Counter, start_http_server
L = ["dynamo_namespace", "dynamo_component", "dynamo_endpoint", "engine", "model_name"]
V = ("dynamo", "backend", "generate", "0", "Qwen/Qwen3-8B")
c = {n: Counter("vllm:spec_decode_num_" + n, n, L) for n in ("drafts", "draft_tokens", "accepted_tokens")}
for x in c.values():
    x.labels(*V)
start_http_server(int(sys.argv[1]), addr="127.0.0.1")
print("ready", flush=True)
for line in sys.stdin:
    d, a = (int(v) for v in line.split())
    c["drafts"].labels(*V).inc(d)
    c["draft_tokens"].labels(*V).inc(3 * d)
    c["accepted_tokens"].labels(*V).inc(a)
    print("done", flush=True)
'''

# Per worker: (drafts, accepted) of the baseline, then of the window.
BASE = [(100, 150), (40, 30), (7, 9)]
STEP = [(11, 13), (5, 8), (3, 1)]
# The window by hand: S 11 + 5 + 3 = 19, D 3 x 19 = 57, A 13 + 8 + 1 = 22.
TOTALS = (19, 57, 22)
# Worker 3 restarted inside the timed loop: its old process adds its step
# (3, 1); the new one starts at 0 and takes (4, 2) before the last scrape,
# counted from zero: S 19 + 4, A 22 + 2.
RESTART = (4, 2)
RESTART_TOTALS = (23, 69, 24)


def start_exporter(tmp, py, procs, name, port):
    script = os.path.join(tmp, "exporter.py")
    with open(script, "w") as f:
        f.write(EXPORTER)
    p = tp.Proc(name, [py, script, str(port)], os.path.join(tmp, name + ".log"),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    procs.append(p)
    if p.p.stdout.readline().strip() != b"ready":
        raise AssertionError(name + " did not start")
    return p


def advance(p, d, a):
    p.p.stdin.write(b"%d %d\n" % (d, a))
    p.p.stdin.flush()
    if p.p.stdout.readline().strip() != b"done":
        raise AssertionError(p.name + " did not advance")


def page(port):
    text = tp.get("http://127.0.0.1:%d/metrics" % port).decode()
    tool = shutil.which("promtool")
    if tool:
        r = subprocess.run([tool, "check", "metrics"], input=text.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=tp.WAIT)
        out = (r.stdout + r.stderr).decode()
        assert "error" not in out.lower(), out
    assert "process_start_time_seconds" in text, "no process collector on the page"
    return text


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def totals(paths, want, where, started=0):
    doc = tp.specscan(*paths)
    fams = doc["server"]["families"]
    assert len(fams) == 1, (where, fams)
    f = fams[0]
    got = (f["steps"], f["draft_tokens"], f["accepted_tokens"])
    assert got == want, "%s: %r, expected %r (%r)" % (where, got, want, f)
    assert f["resets"] == 0 and "unordered" not in f, (where, f)
    assert f.get("started_in_window", 0) == started, (where, f)
    print("ok: %s: S %d, D %d, A %d, %d processes" % ((where,) + got + (f["processes"],)))
    return f


def run(tmp, py, procs):
    ports = [tp.free_port() for _ in range(3)]
    # one after the other: each process starts after the one before is up,
    # so their start times differ
    ws = [start_exporter(tmp, py, procs, "w%d" % (i + 1), port) for i, port in enumerate(ports)]
    pport = tp.free_port()
    cfg = write(tmp, "prometheus.yml",
                "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                "scrape_configs:\n  - job_name: vllm\n    static_configs:\n"
                "      - targets: [%s]\n" % ", ".join("'127.0.0.1:%d'" % p for p in ports))
    prom = tp.Proc("prometheus", ["prometheus", "--config.file=" + cfg,
                                  "--storage.tsdb.path=" + os.path.join(tmp, "data"),
                                  "--web.listen-address=127.0.0.1:%d" % pport],
                   os.path.join(tmp, "prometheus.log"))
    procs.append(prom)
    api = "http://127.0.0.1:%d" % pport
    tp.until("prometheus to be ready", lambda: tp.get(api + "/-/ready") is not None)

    for w, (d, a) in zip(ws, BASE):
        advance(w, d, a)
    total = sum(d for d, _ in BASE)
    first = tp.last_sample(api, total)
    tp.until("two more scrapes", lambda: tp.last_sample(api, total) >= first + 1500)
    t0 = tp.last_sample(api, total)
    loop = []
    before = [page(p) for p in ports]
    for i, text in enumerate(before):
        loop.append("# time: %.3f\n%s" % (time.time(), text))
    for w, (d, a) in zip(ws, STEP):
        advance(w, d, a)
    total += sum(d for d, _ in STEP)
    t1 = tp.last_sample(api, total)
    after = [page(p) for p in ports]
    start = t1 - -(-(t1 - t0) // 1000) * 1000
    sel = '{__name__=~"vllm:spec_decode_num_.*_total"}'
    tp.curl(api + "/api/v1/query_range", os.path.join(tmp, "query_range.json"),
            [("query", sel), ("start", tp.ms_text(start)), ("end", tp.ms_text(t1)),
             ("step", "1")])

    files = []
    for i in range(3):
        files.append(write(tmp, "w%d-before.prom" % (i + 1), before[i]))
        files.append(write(tmp, "w%d-after.prom" % (i + 1), after[i]))
    files.sort()  # the shell's glob order: after before before
    totals(files, TOTALS, "per-worker pages, glob order")
    totals(files[::-1], TOTALS, "per-worker pages, reversed")
    inter = "".join(before) + "".join(after)
    totals([write(tmp, "loop.prom", inter)], TOTALS, "interleaved loop file")
    inter = "".join(after[::-1]) + "".join(before[::-1])
    totals([write(tmp, "back.prom", inter)], TOTALS, "interleaved loop file, reversed")
    f = totals([os.path.join(tmp, "query_range.json")], TOTALS, "prometheus query_range")
    assert f["processes"] == 1, f  # SPEC 13: the API results are one process

    # the timed loop: worker 3 restarted (a new process on the same port)
    for i, text in enumerate(after):
        if i < 2:
            loop.append("# time: %.3f\n%s" % (time.time(), text))
    loop.append("# time: %.3f\n%s" % (time.time(), after[2]))
    ws[2].stop()
    time.sleep(1.1)  # the new process's start time is after every scrape so far
    ws[2] = start_exporter(tmp, py, procs, "w3-restarted", ports[2])
    advance(ws[2], *RESTART)
    loop.append("# time: %.3f\n%s" % (time.time(), page(ports[2])))
    totals([write(tmp, "timed.prom", "".join(loop))], RESTART_TOTALS,
           "timed loop with a restart", started=1)


class RealWorkers(sslib.Case):
    def test_workers_and_prometheus(self):
        if not os.environ.get("SPECSCAN_SYSTEM") == "1" and not os.environ.get("SPECSCAN_WORKERS"):
            self.skipTest("a system test: make check-system runs it")
        if not shutil.which("prometheus"):
            self.skipTest("prometheus is not installed")
        py = sslib.python_with_client()
        if not py:
            self.skipTest("prometheus_client is not installed (python3-prometheus-client)")
        tmp = tempfile.mkdtemp(prefix="specscan-workers-")
        procs = []
        try:
            run(tmp, py, procs)
        except (AssertionError, subprocess.SubprocessError, OSError):
            for p in procs:
                p.stop()
                p.dump()
            raise
        finally:
            for p in procs:
                p.stop()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sslib.main()
