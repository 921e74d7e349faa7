#!/usr/bin/env python3
"""SPEC 10 against a real Prometheus server: the window of vLLM-named
counters from saved pages and from what Prometheus kept of them.

The test starts, on 127.0.0.1 and free ports:
  * an exporter: prometheus_client's HTTP server (the library vLLM exports
    with), serving vLLM's speculative-decoding counters for two
    data-parallel engines (engine="0", "1"; drafts, draft tokens, accepted
    tokens, accepted and drafted per position), advanced on command by
    amounts this test knows;
  * Debian's `prometheus`, with a temporary data directory and a config
    that scrapes the exporter every second.
It advances the counters to a baseline, waits until Prometheus has
scraped it, saves the exporter's page with curl (before), advances three
steps (waiting for Prometheus to see each), saves the page again (after),
and saves Prometheus' answers over that window: `/api/v1/query_range` (a
matrix, one sample a second) and `/api/v1/query` (a vector at the end).

Checked:
  * the two pages read by the server stage (tests/tools/server_tool), and
    by specscan itself (inputs of kind scrape, the `server` key), give the
    known totals of the three steps;
  * the query_range answer gives them too: last minus first value of each
    series (Python, here); read as SPEC 10.1's JSON shape (the driver's
    --as jsonl: one snapshot per sample time); and the same snapshots
    written out as `# time:` pages of text, for the driver and specscan
    (whose run reads only text until the JSON shapes are connected);
  * the instant query holds the after page's values.

Every process is stopped by its pid (also on failure or interruption),
with timeouts everywhere; the logs of both are printed on failure. Without
prometheus, curl or prometheus_client the test is skipped (exit 77) and
says why.

SPECSCAN_SAVE_PROMETHEUS=DIR copies the captured files to DIR (the
fixtures of testdata/server/prometheus/ were made so).
"""

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402

WAIT = 60  # seconds for anything to happen

# Per step and engine: drafts d (3 drafted tokens each, every position
# drafted), accepted per position P (steps that accepted >= i).
STEPS = [
    {"0": (100, (80, 60, 40)), "1": (50, (40, 30, 20))},   # the baseline, before the window
    {"0": (10, (8, 5, 2)), "1": (20, (15, 10, 4))},
    {"0": (7, (6, 3, 1)), "1": (5, (5, 5, 5))},
    {"0": (12, (9, 9, 3)), "1": (8, (2, 0, 0))},
]
# The window, steps 1-3 summed by hand: engine 0 S 29, A 15+10+21 = 46,
# P 23, 17, 6; engine 1 S 33, A 29+15+2 = 46, P 22, 15, 9.
WINDOW = {"steps": 62, "draft_tokens": 186, "accepted_tokens": 92,
          "positions": [45, 32, 15], "histogram": {"0": 17, "1": 13, "2": 17, "3": 15}}

EXPORTER = r'''
import sys
import threading
from prometheus_client import CollectorRegistry, Counter, start_http_server


class Registry(CollectorRegistry):
    """A page is read whole between two steps, never in the middle of one."""

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()

    def collect(self):
        with self.lock:
            metrics = list(super().collect())
        yield from metrics


STEPS = %r
r = Registry()
lab = ["engine", "model_name"]
drafts = Counter("vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", lab, registry=r)
dtok = Counter("vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", lab, registry=r)
acc = Counter("vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.", lab, registry=r)
acc_pos = Counter("vllm:spec_decode_num_accepted_tokens_per_pos",
                  "Accepted tokens per draft position.", lab + ["position"], registry=r)
dtok_pos = Counter("vllm:spec_decode_num_draft_tokens_per_pos",
                   "Draft tokens per draft position.", lab + ["position"], registry=r)
for e in ("0", "1"):
    for c in (drafts, dtok, acc):
        c.labels(e, "Qwen/Qwen3-8B")
    for p in range(3):
        acc_pos.labels(e, "Qwen/Qwen3-8B", str(p))
        dtok_pos.labels(e, "Qwen/Qwen3-8B", str(p))
start_http_server(int(sys.argv[1]), addr="127.0.0.1", registry=r)
print("ready", flush=True)
def advance(step):
    for e, (d, ps) in step.items():
        m = (e, "Qwen/Qwen3-8B")
        drafts.labels(*m).inc(d)
        dtok.labels(*m).inc(3 * d)
        acc.labels(*m).inc(sum(ps))
        for p, n in enumerate(ps):
            acc_pos.labels(*m, str(p)).inc(n)
            dtok_pos.labels(*m, str(p)).inc(d)


for line in sys.stdin:
    with r.lock:
        advance(STEPS[int(line)])
    print("done", line.strip(), flush=True)
'''


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    """In the child before exec: SIGKILL when the test process dies, so a test
    killed from outside (a timeout, SIGKILL) leaves no daemon behind."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Proc:
    """A child started by the test, stopped by its pid; its log kept in a file."""

    def __init__(self, name, args, log, **kw):
        self.name, self.log = name, log
        self.out = open(log, "wb")
        self.p = subprocess.Popen(args, stdout=kw.pop("stdout", self.out), stderr=self.out,
                                  start_new_session=True, preexec_fn=die_with_parent, **kw)
        atexit.register(self.stop)

    def stop(self):
        if self.p.poll() is None:
            os.kill(self.p.pid, signal.SIGTERM)
            try:
                self.p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(self.p.pid, signal.SIGKILL)
                self.p.wait(timeout=15)
        self.out.close()

    def dump(self):
        sys.stderr.write("---- %s log (%s) ----\n" % (self.name, self.log))
        try:
            sys.stderr.write(open(self.log, "rb").read()[-8000:].decode("utf-8", "replace"))
        except OSError:
            pass


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


def until(what, fn):
    """Poll fn() until it is true, at most WAIT seconds."""
    end = time.time() + WAIT
    while time.time() < end:
        try:
            if fn():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("timed out waiting for " + what)


def ms_text(ms):
    """Unix milliseconds as the API's seconds with three decimals."""
    return "%d.%03d" % (ms // 1000, ms % 1000)


def curl(url, out, params=None):
    args = ["curl", "-sS", "--fail", "--max-time", "20", "-o", out]
    if params:
        args += ["-G"] + [a for k, v in params for a in ("--data-urlencode", "%s=%s" % (k, v))]
    subprocess.run(args + [url], check=True, timeout=WAIT)


def from_range(doc):
    """The window of a query_range matrix, by hand: last - first of each
    series (no counter went down here), summed per name and position."""
    assert doc["status"] == "success" and doc["data"]["resultType"] == "matrix", doc["status"]
    sums = {}
    for series in doc["data"]["result"]:
        m = series["metric"]
        vals = [float(v) for _, v in series["values"]]
        key = (m["__name__"], m.get("position"))
        sums[key] = sums.get(key, 0) + vals[-1] - vals[0]
    name = "vllm:spec_decode_num_%s_total"
    return {
        "steps": sums[(name % "drafts", None)],
        "draft_tokens": sums[(name % "draft_tokens", None)],
        "accepted_tokens": sums[(name % "accepted_tokens", None)],
        "positions": [sums[(name % "accepted_tokens_per_pos", str(p))] for p in range(3)],
    }


def range_as_pages(doc):
    """One `# time:` page per sample time of the matrix: a snapshot each."""
    at = {}
    for series in doc["data"]["result"]:
        m = dict(series["metric"])
        name = m.pop("__name__")
        labels = ",".join('%s="%s"' % (k, m[k]) for k in sorted(m))
        for t, v in series["values"]:
            at.setdefault(t, []).append("%s{%s} %s\n" % (name, labels, v))
    return "".join("# time: %r\n%s" % (t, "".join(lines)) for t, lines in sorted(at.items()))


def tool(*paths):
    rc, doc, err = sslib.server_tool(*paths)
    if rc != 0:
        raise AssertionError("server_tool failed: %s" % err)
    return doc


def specscan(*paths):
    """specscan itself on saved pages: its JSON, with every input a scrape."""
    p = subprocess.run([sslib.SPECSCAN, "-f", "json"] + list(paths), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=WAIT)
    if p.returncode != 0:
        raise AssertionError("specscan failed (%d): %s" % (p.returncode,
                                                           p.stderr.decode("utf-8", "replace")))
    doc = json.loads(p.stdout)
    kinds = [i["kind"] for i in doc["specscan"]["inputs"]]
    assert kinds == ["scrape"] * len(paths), kinds
    assert doc["specscan"]["requests"]["total"] == 0, doc["specscan"]["requests"]
    return doc


def check_window(doc, where):
    fams = doc["server"]["families"]
    assert len(fams) == 1 and fams[0]["engine"] == "vllm", (where, fams)
    f = fams[0]
    got = {"steps": f["steps"], "draft_tokens": f["draft_tokens"],
           "accepted_tokens": f["accepted_tokens"],
           "positions": [p["accepted"] for p in f["positions"]], "histogram": f.get("histogram")}
    assert got == WINDOW, "%s: window %r, expected %r" % (where, got, WINDOW)
    assert f["series"] == 2, (where, f["series"])  # two engines
    assert f["resets"] == 0 and f["consistent"], (where, f)
    print("ok: %s: S %d, D %d, A %d, P %r" % (where, f["steps"], f["draft_tokens"],
                                              f["accepted_tokens"], got["positions"]))


def query(api, q, at=None):
    """One value of an instant query of the Prometheus at `api`, or None."""
    args = {"query": q}
    if at is not None:
        args["time"] = ms_text(at)
    r = json.loads(get(api + "/api/v1/query?" + urllib.parse.urlencode(args)))["data"]["result"]
    return float(r[0]["value"][1]) if r else None


def last_sample(api, total):
    """The time (ms) of Prometheus' latest scrape, once it holds `total` drafts."""
    until("prometheus to scrape %d drafts" % total,
          lambda: query(api, "sum(vllm:spec_decode_num_drafts_total)") == total)
    t = round(query(api, "max(timestamp(vllm:spec_decode_num_drafts_total))") * 1000)
    assert query(api, "sum(vllm:spec_decode_num_drafts_total)", t) == total
    return t


def run(tmp, py, procs):
    eport, pport = free_port(), free_port()
    script = os.path.join(tmp, "exporter.py")
    with open(script, "w") as f:
        f.write(EXPORTER % (STEPS,))
    exp = Proc("exporter", [py, script, str(eport)], os.path.join(tmp, "exporter.log"),
               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    procs.append(exp)
    if exp.p.stdout.readline().strip() != b"ready":
        raise AssertionError("the exporter did not start")
    cfg = os.path.join(tmp, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                "scrape_configs:\n  - job_name: vllm\n    static_configs:\n"
                "      - targets: ['127.0.0.1:%d']\n" % eport)
    prom = Proc("prometheus", ["prometheus", "--config.file=" + cfg,
                               "--storage.tsdb.path=" + os.path.join(tmp, "data"),
                               "--web.listen-address=127.0.0.1:%d" % pport],
                os.path.join(tmp, "prometheus.log"))
    procs.append(prom)
    api = "http://127.0.0.1:%d" % pport
    until("prometheus to be ready", lambda: get(api + "/-/ready") is not None)

    total = 0
    for i, step in enumerate(STEPS):
        exp.p.stdin.write(b"%d\n" % i)
        exp.p.stdin.flush()
        if exp.p.stdout.readline().strip() != b"done %d" % i:
            raise AssertionError("the exporter did not take step %d" % i)
        total += sum(d for d, _ in step.values())
        if i == 0:
            # two more scrapes of the baseline: the range may start up to a step before t0
            first = last_sample(api, total)
            until("two more scrapes", lambda: last_sample(api, total) >= first + 1500)
            t0 = last_sample(api, total)
            curl("http://127.0.0.1:%d/metrics" % eport, os.path.join(tmp, "before.prom"))
        else:
            t1 = last_sample(api, total)
    curl("http://127.0.0.1:%d/metrics" % eport, os.path.join(tmp, "after.prom"))
    # whole steps back from t1 to t0 or just before: the last point is t1's scrape
    start = t1 - -(-(t1 - t0) // 1000) * 1000
    sel = '{__name__=~"vllm:spec_decode_num_.*_total"}'
    curl(api + "/api/v1/query_range", os.path.join(tmp, "query_range.json"),
         [("query", sel), ("start", ms_text(start)), ("end", ms_text(t1)), ("step", "1")])
    curl(api + "/api/v1/query", os.path.join(tmp, "query.json"), [("query", sel), ("time", ms_text(t1))])

    check_window(tool(os.path.join(tmp, "before.prom"), os.path.join(tmp, "after.prom")),
                 "exporter pages (curl)")
    check_window(specscan(os.path.join(tmp, "before.prom"), os.path.join(tmp, "after.prom")),
                 "exporter pages through specscan")
    rng = json.load(open(os.path.join(tmp, "query_range.json")))
    by_hand = from_range(rng)
    want = {k: v for k, v in WINDOW.items() if k != "histogram"}
    assert by_hand == want, "query_range by hand: %r, expected %r" % (by_hand, want)
    print("ok: query_range by hand: %r" % (by_hand,))
    with open(os.path.join(tmp, "query_range.prom"), "w") as f:
        f.write(range_as_pages(rng))
    check_window(tool(os.path.join(tmp, "query_range.prom")), "query_range as snapshots")
    check_window(specscan(os.path.join(tmp, "query_range.prom")),
                 "query_range as snapshots through specscan")
    check_window(tool("--as", "jsonl", os.path.join(tmp, "query_range.json")),
                 "query_range as the JSON shape")
    inst = json.load(open(os.path.join(tmp, "query.json")))
    assert inst["data"]["resultType"] == "vector"
    drafts = sum(float(s["value"][1]) for s in inst["data"]["result"]
                 if s["metric"]["__name__"] == "vllm:spec_decode_num_drafts_total")
    assert drafts == total, (drafts, total)
    print("ok: the instant query holds the after page's drafts (%d)" % drafts)
    save = os.environ.get("SPECSCAN_SAVE_PROMETHEUS")
    if save:
        os.makedirs(save, exist_ok=True)
        for n in ("before.prom", "after.prom", "query_range.json", "query.json"):
            shutil.copy(os.path.join(tmp, n), os.path.join(save, "exporter_" + n
                                                           if n.endswith(".prom") else n))


class RealPrometheus(sslib.Case):
    def test_window_from_pages_and_from_prometheus(self):
        for prog in ("prometheus", "curl"):
            if not shutil.which(prog):
                self.skipTest("%s is not installed" % prog)
        py = sslib.python_with_client()
        if not py:
            self.skipTest("prometheus_client is not installed (python3-prometheus-client)")
        tmp = tempfile.mkdtemp(prefix="specscan-prom-")
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
    sslib.main(tools=("server_tool",))
