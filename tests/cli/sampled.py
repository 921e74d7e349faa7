"""Runs of specscan with their peak memory sampled while they run, shared
by the hostile-input tests (stdlib only).

The peak is the process's VmHWM, read from /proc every few milliseconds:
unlike wait4's ru_maxrss it is of specscan's own image, not of the Python
that forked it.
"""
import json
import os
import subprocess
import tempfile
import threading
import time


def sanitized(specscan):
    """True for an ASan build, which reserves and touches far more memory."""
    try:
        with open(specscan, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


class Result:
    def __init__(self, rc, out, err, rss_kb, secs):
        self.rc, self.out, self.err, self.rss_kb, self.secs = rc, out, err, rss_kb, secs

    def json(self):
        return json.loads(self.out)

    def lines(self):
        return [json.loads(ln) for ln in self.out.decode().splitlines()]

    def __repr__(self):
        return "rc=%d rss=%d KiB %.1f s stderr=%r" % (self.rc, self.rss_kb, self.secs,
                                                     self.err[-600:])


def hwm_kb(pid):
    """The process's peak RSS so far, in KiB (0 when unknown)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run(argv, timeout, stdin=None, stdin_data=None, cwd=None, preexec=None,
        on_start=None, stdout=None, env=None):
    """Run argv to its end or for `timeout` seconds (then killed), sampling
    its peak RSS. stdin: a file object or None (/dev/null); stdin_data:
    bytes fed through a pipe by a thread; on_start(p): called once it runs;
    stdout: a file object instead of the captured output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(argv, stdout=stdout or out, stderr=err,
                             stdin=subprocess.PIPE if stdin_data is not None
                             else (stdin or subprocess.DEVNULL),
                             cwd=cwd, preexec_fn=preexec, env=env)
        if stdin_data is not None:
            def feed():
                try:
                    p.stdin.write(stdin_data)
                    p.stdin.close()
                except OSError:
                    pass
            threading.Thread(target=feed, daemon=True).start()
        if on_start:
            on_start(p)
        deadline = start + timeout
        peak = 0
        while True:
            peak = max(peak, hwm_kb(p.pid))
            pid, status, _ = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, _ = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        rc = os.waitstatus_to_exitcode(status)
        secs = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Result(rc, out.read(), err.read().decode("utf-8", "replace"), peak, secs)
