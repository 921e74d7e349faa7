#!/usr/bin/env python3
"""What docs/BEHAVIOUR.md's "Reliability" promises (issue 24): one output on standard
output, every other that names `-` a usage error; exit 3 means nothing was
written (the outputs all together or not at all, stdout after every file is
complete); the default spool limit enforced; stale temporary files named;
and SPEC's rulings of 1.2, 4.4, 7.3, 7.4 and 8.1 kept. Also: no input
overwritten however it was reached, closed standard descriptors at start.
The memory and spool bounds are in test_limits.py."""

import csv
import gzip
import io
import json
import os
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subprocess

import faults  # noqa: E402
from faults import GOOD, FaultCase, counts, llama_body, want, want_rc  # noqa: E402
from sslib import SPECSCAN, Case, TempDir, loads, main, run, td  # noqa: E402

SAMPLE = td("sample", "aiperf_raw_vllm.jsonl")


def sda(hist, steps, acc, drafts, k=4):
    """A valid record (SPEC 2.4), its mean worked out: 1 + acc / steps."""
    return {"engine": "vllm", "mean_acceptance_length": 1 + acc / steps,
            "draft_acceptance_rate": acc / drafts, "acceptance_histogram": hist,
            "num_accepted_draft_tokens": acc, "num_draft_tokens": drafts,
            "num_spec_steps": steps, "num_spec_tokens": k}


# 2 steps, 3 of 8 drafts accepted: AL 2.5, rate 37.5 %
REC_A = sda({"0": 1, "3": 1}, 2, 3, 8)
# 2 steps, 1 of 8 accepted: AL 1.5, rate 12.5 %
REC_C = sda({"0": 1, "1": 1}, 2, 1, 8)


def records_line(rec, metadata=None, metrics=None):
    d = {"metadata": dict({"benchmark_phase": "profiling"}, **(metadata or {}))}
    d["metrics"] = {} if metrics is None else metrics
    d["spec_decode_acceptance"] = rec
    return json.dumps(d) + "\n"


# One llama.cpp native stream (SPEC 2.6): 3 of 6 drafts accepted; 4 lines.
SSE_STREAM = ('data: {"content":"a","stop":false}\n\n'
              'data: {"content":"","stop":true,"timings":{"draft_n":6,"draft_n_accepted":3}}\n\n'
              'data: [DONE]\n\n')


def write(path, text):
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


def listing(d):
    return sorted(os.listdir(d))


class OneStdout(Case):
    """SPEC 4/5: exactly one output goes to stdout."""

    def test_html_dash_with_default_json(self):
        # stdout is a pipe here, so -f defaults to json: two on stdout
        res = run(["--html", "-", SAMPLE])
        self.assertRan(res, 2)
        self.assertEqual(res.out, b"")
        self.assertIn("-f json and --html - both name standard output", res.errtext)

    def test_every_pair_refused_naming_both(self):
        dashes = ["--json", "--csv", "--records", "--html"]
        for i, a in enumerate(dashes):
            for b in dashes[i + 1:]:
                res = run(["-f", "none", a, "-", b, "-", SAMPLE])
                self.assertRan(res, 2)
                self.assertEqual(res.out, b"", (a, b))
                self.assertIn("%s - and %s - both name standard output" % (a, b), res.errtext)
        for fmt in ("csv", "table", "markdown", "jsonl"):
            res = run(["-f", fmt, "--html", "-", SAMPLE])
            self.assertRan(res, 2)
            self.assertIn("-f %s and --html -" % fmt, res.errtext)

    def test_html_dash_alone(self):
        res = run(["-f", "none", "--html", "-", SAMPLE])
        self.assertRan(res)
        self.assertTrue(res.out.startswith(b"<!DOCTYPE html>"), res.out[:40])
        self.assertTrue(res.out.rstrip().endswith(b"</html>"))


class AllOrNothing(Case):
    """SPEC 5: exit 3 means nothing was written."""

    def full_stdout(self, args, cwd):
        with open("/dev/full", "wb") as full:
            return subprocess.run([SPECSCAN] + args, stdout=full, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, cwd=cwd,
                                  env=dict(os.environ, LC_ALL="C.UTF-8"), timeout=60)

    def test_device_fails_stdout_untouched(self):
        with TempDir() as d:
            res = run(["--json", "/dev/full", "--csv", os.path.join(d, "a.csv"), SAMPLE])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"", "the stdout report is not written either")
            self.assertIn("cannot write '/dev/full': No space left on device", res.errtext)
            self.assertIn("nothing written", res.errtext)
            self.assertEqual(listing(d), [], "no file, no temporary file")

    def test_stdout_fails_no_file_in_place(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        with TempDir() as d:
            for fmt in ("json", "table", "markdown", "csv"):
                p = self.full_stdout(["-f", fmt, "--json", "o.json", "--csv", "o.csv",
                                      "--html", "o.html", SAMPLE], d)
                self.assertEqual(p.returncode, 3, fmt)
                self.assertIn(b"cannot write to standard output: No space left on device",
                              p.stderr)
                self.assertEqual(listing(d), [], fmt + ": no file is put in place")

    def test_every_file_or_none(self):
        with TempDir() as d:
            # a target that is a directory fails at once, before the run
            os.mkdir(os.path.join(d, "x.csv"))
            res = run(["--json", os.path.join(d, "x.json"), "--csv", os.path.join(d, "x.csv"),
                       SAMPLE])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"")
            self.assertEqual(listing(d), ["x.csv"])

    def test_success_puts_all(self):
        with TempDir() as d:
            res = run(["--json", os.path.join(d, "a.json"), "--csv", os.path.join(d, "a.csv"),
                       SAMPLE])
            self.assertRan(res)
            self.assertEqual(listing(d), ["a.csv", "a.json"])
            with open(os.path.join(d, "a.json"), "rb") as f:
                self.assertEqual(f.read(), res.out)


class GroupCells(Case):
    """SPEC 7.3: a null key value is an empty CSV cell, true/false as written."""

    def test_null_true_false_in_csv(self):
        with TempDir() as d:
            path = write(os.path.join(d, "t.jsonl"),
                         records_line(REC_A, {"tag": True}) + records_line(REC_A) +
                         records_line(REC_A, {"tag": "null"}) +
                         records_line(REC_A, {"tag": False}))
            res = run(["-f", "csv", "--group-by", "meta.tag", path])
        self.assertRan(res)
        text = res.text
        section = text[text.index("meta.tag,Metric,avg,"):]
        rows = list(csv.reader(io.StringIO(section.replace("\r\n", "\n"))))[1:]
        firsts = []
        for r in rows:
            if r and (not firsts or firsts[-1] != r[0]):
                firsts.append(r[0])
        # null < false < true < strings; the string "null" stays as written
        self.assertEqual(firsts, ["", "false", "true", "null"])
        al = [r for r in rows if r[1] == "Acceptance Length (ratio)"]
        self.assertEqual([(r[0], r[2]) for r in al],
                         [("", "2.50"), ("false", "2.50"), ("true", "2.50"), ("null", "2.50")])


class VsBaseline(Case):
    """SPEC 7.4: a row with nothing to compare, and the baseline row, have
    no vs_baseline."""

    def test_left_out(self):
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), records_line(REC_A))
            b = write(os.path.join(d, "b.jsonl"), '{"no": "record"}\n')
            c = write(os.path.join(d, "c.jsonl"), records_line(REC_C))
            res = run(["--group-by", "input", "--compare", a, a, b, c])
        # SPEC 5: b's one line is no request, so b could not be read (exit 1);
        # it is still a row, with nothing to compare
        self.assertRan(res, 1)
        g = loads(res.out)["analysis"]["groups"]
        self.assertEqual(g["baseline"], {"input": a})
        rows = {r["key"]["input"]: r for r in g["rows"]}
        self.assertEqual(sorted(rows), sorted([a, b, c]))
        self.assertNotIn("vs_baseline", rows[a], "the baseline row")
        self.assertNotIn("vs_baseline", rows[b], "nothing to compare")
        vs = rows[c]["vs_baseline"]
        # 1.5 - 2.5 for both lengths; 12.5 % - 37.5 % for both rates
        self.assertEqual(float(vs["spec_decode_acceptance_length"]["delta"]), -1.0)
        self.assertEqual(float(vs["spec_decode_token_weighted_acceptance_length"]["delta"]), -1.0)
        self.assertEqual(float(vs["spec_decode_draft_acceptance_rate"]["delta"]), -25.0)
        self.assertEqual(float(vs["spec_decode_overall_draft_acceptance_rate"]["delta"]), -25.0)


class Rulings(Case):
    """Four places SPEC now rules the way specscan reads them."""

    def test_bom_at_start_skipped(self):
        """1.2: a BOM at an input's start is skipped (an SSE capture's too);
        anywhere else it is an ordinary byte."""
        bom = "\ufeff"
        with TempDir() as d:
            p = write(os.path.join(d, "r.jsonl"), bom + records_line(REC_A) +
                      bom + records_line(REC_A))
            res = run(["-f", "jsonl", p])
            self.assertRan(res)
            lines = [json.loads(x) for x in res.out.splitlines()]
            self.assertEqual([x["spec_decode_status"] for x in lines], ["ok", "unparsable"])
            self.assertEqual(lines[0]["source"]["kind"], "records")
            sse = write(os.path.join(d, "s.sse"), bom + SSE_STREAM)
            res = run([sse])
            self.assertRan(res)
            doc = loads(res.out)
            self.assertEqual(doc["specscan"]["inputs"][0]["kind"], "sse")
            self.assertEqual(doc["specscan"]["requests"]["ok"], 1)

    def test_oversize_sse_stream_keeps_kind(self):
        """4.4: a stream of an SSE capture is `sse`, also when oversize."""
        pad = "data: " + json.dumps({"choices": [{"delta": {"content": "x" * 600}}]}) + "\n\n"
        with TempDir() as d:
            sse = write(os.path.join(d, "big.sse"), pad * 3 + "data: [DONE]\n\n" + SSE_STREAM)
            res = run(["-f", "jsonl", "--max-record-size", "1K", sse])
        self.assertRan(res)
        lines = [json.loads(x) for x in res.out.splitlines()]
        self.assertEqual([(x["spec_decode_status"], x["source"]["kind"], x["source"]["line"])
                          for x in lines], [("oversize", "sse", 1), ("ok", "sse", 9)])

    def test_empty_partial_not_listed(self):
        """8.1: an enriched file that holds no line is not listed after a merge."""
        with TempDir() as d:
            src = write(os.path.join(d, "run.jsonl"), records_line(REC_A))
            part = os.path.join(d, "p1.jsonl")
            self.assertRan(run(["-f", "none", "--records", part, src]))
            empty = write(os.path.join(d, "p2.jsonl"), b"")
            for args in ([part, empty], [empty, part], ["--input-kind", "enriched", part, empty]):
                res = run(args)
                self.assertRan(res)
                ins = loads(res.out)["specscan"]["inputs"]
                self.assertEqual(ins, [{"name": src, "kind": "records", "requests": 1}], args)

    def test_empty_metrics_left_out(self):
        """4.4: an empty `metrics` object is left out, except a records line's own."""
        body = {"id": "x", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        with TempDir() as d:
            p = write(os.path.join(d, "b.jsonl"), json.dumps(body) + "\n")
            r = write(os.path.join(d, "r.jsonl"), json.dumps(
                {"metadata": {"benchmark_phase": "profiling"}, "metrics": {}}) + "\n")
            res = run(["-f", "jsonl", p, r])
        self.assertRan(res)
        lines = [json.loads(x) for x in res.out.splitlines()]
        self.assertEqual(len(lines), 2)
        self.assertNotEqual(lines[0]["spec_decode_status"], "ok")
        self.assertNotIn("metrics", lines[0], "no spec-decode metric: left out")
        self.assertEqual(lines[1]["source"]["kind"], "records")
        self.assertEqual(lines[1]["metrics"], {}, "a records line's own, copied")


def tar_bytes(members):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


class TmpfsCase(Case):
    """A test on a small tmpfs of SIZE at self.mnt: root and mount needed,
    else SKIP."""

    SIZE = "1m"

    def setUp(self):
        if os.geteuid() != 0:
            self.skipTest("needs root to mount a small tmpfs")
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()
        self.mnt = os.path.join(self.dir, "mnt")
        os.mkdir(self.mnt)
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + self.SIZE, "tmpfs",
                            self.mnt], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            self.tmp.__exit__()
            self.skipTest("cannot mount a tmpfs here: %s" % p.stderr.decode().strip())

    def tearDown(self):
        subprocess.run(["umount", self.mnt])
        self.tmp.__exit__()


class SpoolDefault(TmpfsCase):
    """docs/BEHAVIOUR.md, Disk: by default the spool holds at most half the free space
    of $TMPDIR. Measured on a 1 MiB tmpfs (tests/unit/test_spool.c checks
    the computation everywhere)."""

    def archive(self, held_bytes):
        line = records_line(REC_A)
        n = held_bytes // len(line) + 1
        tb = os.path.join(self.dir, "a.tar")
        write(tb, tar_bytes([("a/profile_export.jsonl", (line * n).encode()),
                             ("z.jsonl", line.encode())]))
        return tb, n

    def test_over_half_refused_naming_the_limit(self):
        tb, n = self.archive(600 * 1024)   # more than half of 1 MiB
        res = run([tb], env={"TMPDIR": self.mnt})
        self.assertRan(res, 1)
        self.assertIn("the spool limit (512K) is reached; see --spool-limit", res.errtext)
        self.assertNotIn("No space left on device", res.errtext)
        req = loads(res.out)["specscan"]["requests"]
        self.assertEqual((req["total"], req["ok"]), (1, 1), "z.jsonl is read")

    def test_under_half_held(self):
        tb, n = self.archive(300 * 1024)
        res = run([tb], env={"TMPDIR": self.mnt})
        self.assertRan(res)
        self.assertEqual(loads(res.out)["specscan"]["requests"]["ok"], n + 1)

    def test_explicit_limit_still_wins(self):
        tb, n = self.archive(300 * 1024)
        res = run(["--spool-limit", "100K", tb], env={"TMPDIR": self.mnt})
        self.assertRan(res, 1)
        self.assertIn("the spool limit (100K) is reached", res.errtext)

    def test_disk_full_names_the_limit(self):
        """A limit set above what the disk holds: the disk's error, with the
        limit named (the bytes before it are not kept)."""
        tb, n = self.archive(1536 * 1024)
        res = run(["--spool-limit", "10M", tb], env={"TMPDIR": self.mnt})
        self.assertRan(res, 1)
        self.assertIn("No space left on device (the spool limit is 10M; see --spool-limit)",
                      res.errtext)
        self.assertEqual(loads(res.out)["specscan"]["requests"]["ok"], 1)


class StaleTemporary(Case):
    """SIGKILL leaves a temporary file (nothing can catch it): its name says
    whose it is, and the next run writing beside it names it (docs/BEHAVIOUR.md,
    Reliability)."""

    def test_killed_run_named_by_the_next(self):
        import re
        import signal
        with TempDir() as d:
            fifo = os.path.join(d, "in.fifo")
            os.mkfifo(fifo)
            out = os.path.join(d, "o.json")
            p = subprocess.Popen([SPECSCAN, "-f", "none", "--json", out, fifo],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # the outputs are opened before the run reads (and blocks on) the FIFO
            w = os.open(fifo, os.O_WRONLY)
            deadline = time.time() + 20
            while time.time() < deadline and not [n for n in os.listdir(d) if n.startswith(".")]:
                time.sleep(0.05)
            p.send_signal(signal.SIGKILL)
            p.wait()
            os.close(w)
            left = [n for n in os.listdir(d) if n.startswith(".")]
            self.assertEqual(len(left), 1, left)
            self.assertRegex(left[0], r"^\.o\.json\.specscan\.[A-Za-z0-9]{6}$")
            stale = os.path.join(d, left[0])
            # a fresh one may be a run still writing: not named
            res = run(["-f", "none", "--json", out, SAMPLE])
            self.assertRan(res)
            self.assertNotIn("temporary file", res.errtext)
            os.utime(stale, (time.time() - 7200, time.time() - 7200))
            res = run(["-f", "none", "--force", "--json", out, SAMPLE])
            self.assertRan(res)
            self.assertIn("specscan: '%s' is a temporary file left by an earlier run that was "
                          "killed before it finished; remove it" % stale, res.errtext)
            self.assertTrue(os.path.exists(stale), "never removed by specscan")
            # another output's name, or a name specscan does not make: not named
            other = os.path.join(d, ".p.json.specscan.AbCdEf")
            odd = os.path.join(d, ".o.json.specscan.toolong")
            for f in (other, odd):
                write(f, b"")
                os.utime(f, (time.time() - 7200, time.time() - 7200))
            res = run(["-f", "none", "--force", "--json", out, SAMPLE])
            self.assertEqual(res.errtext.count("is a temporary file left"), 1)
            self.assertEqual(re.findall(r"'([^']*)' is a temporary", res.errtext), [stale])



class FileFullFirst(TmpfsCase):
    """Files are completed before stdout is written: a file that does not
    fit its disk (a 16 KiB tmpfs) leaves stdout empty, and no file or
    temporary file anywhere."""

    SIZE = "16k"

    def test_file_full_stdout_untouched(self):
        page = os.path.join(self.mnt, "p.html")
        res = run(["--html", page, "--csv", os.path.join(self.dir, "a.csv"), SAMPLE])
        self.assertRan(res, 3)
        self.assertIn("cannot write '%s': No space left on device" % page, res.errtext)
        self.assertEqual(res.out, b"", "the -f json report is not written")
        self.assertEqual(listing(self.mnt), [])
        self.assertEqual(listing(self.dir), ["mnt"])



def same_bytes(path, data):
    with open(path, "rb") as f:
        return f.read() == data


class InputsAndDescriptors(FaultCase):
    """No input is overwritten, however it was reached (walk, artifact
    directory, stdin, hard link; compared by device and inode); closed
    standard descriptors 0-2 at start; two outputs on stdout; a UTF-8 BOM."""

    def test_overwrite_walked_input(self):
        """`specscan -r tree --force --records tree/run/profile_export.jsonl`:
        the output is an input the walk found. Refused before anything is
        written (exit 3, as for an input typed on the command line), the input
        unchanged."""
        t = self.t
        d = t.sub()
        data = (faults.records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n").encode()
        inp = t.file(os.path.join(d, "run", "profile_export.jsonl"), data)
        r = faults.run(["-r", d, "--force", "--records", inp])
        want_rc(r, 3)
        want(same_bytes(inp, data), "input unchanged")
        want("one of the inputs" in r.err, "message says it is an input", r)

    def test_overwrite_artifact_member(self):
        """An artifact directory given by name; the output is the file chosen
        inside it."""
        t = self.t
        d = t.sub()
        inp = t.file(os.path.join(d, "run", "profile_export_raw.jsonl"), GOOD)
        r = faults.run([os.path.join(d, "run"), "--force", "--json", inp])
        want_rc(r, 3)
        want(same_bytes(inp, GOOD.encode()), "input unchanged")

    def test_overwrite_stdin_file(self):
        """stdin is a regular file that is also an output (`< x --json x`)."""
        t = self.t
        d = t.sub()
        inp = t.file(os.path.join(d, "x.jsonl"), GOOD)
        with open(inp, "rb") as f:
            r = faults.run(["--force", "--json", inp], stdin=f)
        want_rc(r, 3)
        want(same_bytes(inp, GOOD.encode()), "input unchanged")

    def test_overwrite_hard_link(self):
        """The output is a hard link (another name, same inode) to an input
        found inside an artifact directory by -r."""
        t = self.t
        d = t.sub()
        inp = t.file(os.path.join(d, "run", "profile_export_raw.jsonl"), GOOD)
        link = os.path.join(d, "link.jsonl")
        os.link(inp, link)
        r = faults.run(["-r", d, "--force", "--csv", link])
        want_rc(r, 3)
        want(same_bytes(inp, GOOD.encode()), "input unchanged")

    def test_overwrite_stdout_appending(self):
        """`specscan -f jsonl x >> x`: standard output is the input file (the
        report would be appended to what is being read): refused (exit 3),
        the input unchanged."""
        t = self.t
        d = t.sub()
        inp = t.file(os.path.join(d, "x.jsonl"), GOOD)
        with open(inp, "ab") as out:
            r = faults.run(["-f", "jsonl", inp], stdout=out, timeout=10)
        want_rc(r, 3)
        want(same_bytes(inp, GOOD.encode()), "input unchanged")

    def test_closed_stdout_with_file_output(self):
        """`specscan --json x.json in >&-`: x.json holds exactly one JSON
        document; stdout output was asked for (-f json) and cannot be written:
        an error (exit 3)."""
        t = self.t
        d = t.sub()
        inp = t.file(os.path.join(d, "in.jsonl"), GOOD)
        out = os.path.join(d, "x.json")
        r = faults.run(["--json", out, inp], preexec=lambda: os.close(1))
        want_rc(r, 3)
        want("standard output" in r.err or "stdout" in r.err, "names stdout", r)
        if os.path.exists(out):
            with open(out) as f:
                json.load(f)   # exactly one document, or this raises
        # Nothing asked of stdout: fine.
        r = faults.run(["-f", "none", "--json", out, "--force", inp], preexec=lambda: os.close(1))
        want_rc(r, 0)
        with open(out) as f:
            want(json.load(f)["specscan"]["requests"]["ok"] == 1, "x.json: one ok")

    def test_closed_stdin_with_spool(self):
        """stdin closed; an archive whose records-only member is spooled to a
        temporary file, then `-`: standard input must read as empty (fd 0 is
        /dev/null), not the temporary file. 1 request in all."""
        t = self.t
        line = (faults.records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n")
        tb = t.file("one.tar", faults.tar_bytes([("a/profile_export.jsonl", line.encode())]))
        r = faults.run([tb, "-"], preexec=lambda: os.close(0))
        want_rc(r, 0)
        req = counts(r)
        want(req["total"] == 1, "one request (the member's): %s" % req)
        # nothing but the hint that its one request carried no stats (SPEC 5)
        want(all(l.startswith(("specscan: no request carried", "specscan:   1 of them"))
                 for l in r.err.splitlines()), "no message", r)

    def test_usage_two_stdout_outputs(self):
        """Two outputs on stdout are a usage error: --json - with -f json
        (the default), --records - with -f jsonl, --json - with --csv -."""
        t = self.t
        p = t.file("u.jsonl", GOOD)
        for args in (["--json", "-"], ["-f", "jsonl", "--records", "-"],
                     ["-f", "none", "--json", "-", "--csv", "-"], ["-f", "csv", "--csv", "-"]):
            r = faults.run(args + [p])
            want_rc(r, 2)
            want("stdout" in r.err or "standard output" in r.err, "says why", r)
            want(r.out == b"", "nothing on stdout", r)
        r = faults.run(["-f", "none", "--json", "-", p])
        want_rc(r, 0)
        want(r.json()["specscan"]["requests"]["ok"] == 1, "one document")

    def test_usage_bom(self):
        """A UTF-8 BOM at the start of an input is skipped: a JSONL body line
        is ok; an SSE capture is still detected as SSE (also gzip-compressed)."""
        t = self.t
        bom = b"\xef\xbb\xbf"
        p = t.file("bom.jsonl", bom + GOOD.encode())
        r = faults.run(["-f", "jsonl", p])
        want_rc(r, 0)
        ln = r.lines()
        want(len(ln) == 1 and ln[0]["spec_decode_status"] == "ok", "one ok", r)
        sse = (bom + b"data: " + llama_body(4, 2).encode() + b"\n\ndata: [DONE]\n\n")
        for name, data in (("bom.sse", sse), ("bom.sse.gz", gzip.compress(sse))):
            r = faults.run([t.file(name, data)])
            want_rc(r, 0)
            j = r.json()
            want(j["specscan"]["requests"]["ok"] == 1 and j["specscan"]["requests"]["total"] == 1
                 and j["specscan"]["inputs"][0]["kind"] == "sse", "one ok sse request", r)

if __name__ == "__main__":
    main()
