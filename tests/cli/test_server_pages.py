#!/usr/bin/env python3
"""The server fixture pages (testdata/server/*.prom) are what their script
makes: testdata/server/make_pages.py, run with the servers' client library
(prometheus_client), writes the same bytes again. A page edited by hand, or
a client library that changed its output, fails here.

Needs prometheus_client (Debian: python3-prometheus-client), imported from
the Python running this test or from /usr/bin/python3; without it the test
is skipped (exit 77).
"""

import filecmp
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
from sslib import td  # noqa: E402


def python_with_client():
    """A Python that imports prometheus_client, or None."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.access(py, os.X_OK) and subprocess.run(
                [py, "-c", "import prometheus_client"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def main():
    py = python_with_client()
    if not py:
        sys.stderr.write("test_server_pages: skipped: prometheus_client is not installed "
                         "(python3-prometheus-client)\n")
        return 77
    committed = sorted(n for n in os.listdir(td("server")) if n.endswith(".prom"))
    with sslib.TempDir() as d:
        p = subprocess.run([py, td("server", "make_pages.py"), d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        if p.returncode != 0:
            sys.stderr.write(p.stderr.decode("utf-8", "replace"))
            return 1
        made = sorted(n for n in os.listdir(d) if n.endswith(".prom"))
        bad = 0
        if made != committed:
            print("FAIL: the script makes %s, testdata/server holds %s" % (made, committed))
            bad += 1
        for n in made:
            if n in committed and not filecmp.cmp(os.path.join(d, n), td("server", n), shallow=False):
                print("FAIL: %s differs from what make_pages.py writes" % n)
                bad += 1
            else:
                print("ok: %s" % n)
    print("%d pages, %d differ" % (len(made), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
