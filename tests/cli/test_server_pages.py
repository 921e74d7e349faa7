#!/usr/bin/env python3
"""The server fixture pages (testdata/server/*.prom) themselves:

  * they are what their script makes: testdata/server/make_pages.py, run
    with the servers' client library (prometheus_client), writes the same
    bytes again. A page edited by hand, or a client library that changed
    its output, fails here. Needs prometheus_client (Debian:
    python3-prometheus-client), imported from the Python running this test
    or from /usr/bin/python3.
  * every one is a page Prometheus reads: `promtool check metrics`
    (Debian: prometheus) parses each one (testdata/server/*.prom and the
    pages test_prometheus.py captured, testdata/server/prometheus/*.prom;
    each page of a scrape loop on its own, split at its `# time:` lines).
    promtool's lint remarks (names with ':', as vLLM's and SGLang's are;
    counters without `_total`, as llama.cpp's n_tokens_max) are reported,
    not failures: a parse error is.

Each check is skipped when its tool is missing (all skipped: exit 77).
"""

import filecmp
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, python_with_client, td  # noqa: E402


def pages(path):
    """The pages of a fixture: split at `# time:` lines (a scrape loop)."""
    text = open(path, "rb").read()
    out, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith(b"# time:") and cur:
            out.append(b"".join(cur))
            cur = []
        cur.append(line)
    if cur:
        out.append(b"".join(cur))
    return out


class Pages(Case):
    def test_made_by_their_script(self):
        py = python_with_client()
        if not py:
            self.skipTest("prometheus_client is not installed (python3-prometheus-client)")
        committed = sorted(n for n in os.listdir(td("server")) if n.endswith(".prom"))
        with TempDir() as d:
            p = subprocess.run([py, td("server", "make_pages.py"), d], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr.decode("utf-8", "replace"))
            made = sorted(n for n in os.listdir(d) if n.endswith(".prom"))
            self.assertEqual(made, committed, "the script makes these, testdata/server holds those")
            differ = []
            for n in made:
                if not filecmp.cmp(os.path.join(d, n), td("server", n), shallow=False):
                    differ.append(n)
                else:
                    print("ok: %s" % n)
            self.assertEqual(differ, [], "differ from what make_pages.py writes")

    def test_promtool_reads_them(self):
        promtool = shutil.which("promtool")
        if not promtool:
            self.skipTest("promtool is not installed (prometheus)")
        names = sorted(n for n in os.listdir(td("server")) if n.endswith(".prom"))
        names += sorted(os.path.join("prometheus", n) for n in os.listdir(td("server", "prometheus"))
                        if n.endswith(".prom"))
        bad, checked = [], 0
        for n in names:
            for i, text in enumerate(pages(td("server", n))):
                p = subprocess.run([promtool, "check", "metrics"], input=text,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
                out = p.stdout.decode("utf-8", "replace")
                checked += 1
                # 0: clean; 3: lint remarks only; anything else (1: a parse error) fails
                if p.returncode not in (0, 3) or "error" in out.lower():
                    bad.append("%s page %d: promtool exit %d:\n%s" % (n, i + 1, p.returncode, out))
                else:
                    print("ok: %s page %d (%s)" % (n, i + 1, "clean" if p.returncode == 0 else
                                                   "%d lint remarks" % len(out.splitlines())))
        self.assertGreater(checked, 0)
        self.assertEqual(bad, [])
        # promtool must be able to fail: a page cut inside a label value
        p = subprocess.run([promtool, "check", "metrics"], input=b'vllm:x{engine="0} 1\n',
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        self.assertNotIn(p.returncode, (0, 3), "promtool took a broken page")


if __name__ == "__main__":
    main()
