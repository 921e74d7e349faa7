#!/usr/bin/env python3
"""Every server fixture page is a page Prometheus reads: `promtool check
metrics` (Debian: prometheus) parses each one (testdata/server/*.prom and
the pages test_prometheus.py captured, testdata/server/prometheus/*.prom) (each page of a scrape loop
on its own, split at its `# time:` lines). promtool's lint remarks (names
with ':', as vLLM's and SGLang's are; counters without `_total`, as
llama.cpp's n_tokens_max) are reported, not failures: a parse error is.

Without promtool the test is skipped (exit 77).
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import td  # noqa: E402


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


def main():
    promtool = shutil.which("promtool")
    if not promtool:
        sys.stderr.write("test_server_promtool: skipped: promtool is not installed (prometheus)\n")
        return 77
    names = sorted(n for n in os.listdir(td("server")) if n.endswith(".prom"))
    names += sorted(os.path.join("prometheus", n) for n in os.listdir(td("server", "prometheus"))
                    if n.endswith(".prom"))
    bad = checked = 0
    for n in names:
        for i, text in enumerate(pages(td("server", n))):
            p = subprocess.run([promtool, "check", "metrics"], input=text, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=60)
            out = p.stdout.decode("utf-8", "replace")
            checked += 1
            # 0: clean; 3: lint remarks only; anything else (1: a parse error) fails
            if p.returncode not in (0, 3) or "error" in out.lower():
                print("FAIL: %s page %d: promtool exit %d:\n%s" % (n, i + 1, p.returncode, out))
                bad += 1
            else:
                print("ok: %s page %d (%s)" % (n, i + 1, "clean" if p.returncode == 0 else
                                               "%d lint remarks" % len(out.splitlines())))
    # promtool must be able to fail: a page cut inside a label value
    p = subprocess.run([promtool, "check", "metrics"], input=b'vllm:x{engine="0} 1\n',
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    if p.returncode in (0, 3):
        print("FAIL: promtool took a broken page")
        bad += 1
    print("%d pages checked, %d failed" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
