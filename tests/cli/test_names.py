#!/usr/bin/env python3
"""Untrusted names (docs/BEHAVIOUR.md, Reliability): whole-program cases.

Names: one archive whose members, models and metadata values are hostile
(an OSC title sequence, BEL, CSI colour and clear-screen, CR and LF, the
C1 controls U+0080-U+009F, U+202E, invalid UTF-8, a NUL in a JSON string,
raw HTML, a pipe and backquotes), read with every writer of people's
outputs: `-f table`, `--table` on stderr, `-f markdown`, `--html`, the
messages, the `--compare` error that lists the groups, `--list-inputs` on
a terminal; the data outputs (JSON) carry the names exactly. Every output
is checked for raw control bytes and markup, and for each name in the
form its destination's rule gives (docs/BEHAVIOUR.md, Reliability), written out
here by hand.

The generated inputs are built at test time (no blobs in the tree).
"""

import csv
import io
import json
import os
import pty
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults  # noqa: E402
from faults import FaultCase, want, want_rc  # noqa: E402
from sslib import SPECSCAN, Case, TempDir, main, run  # noqa: E402


def sda(al=2.5):
    """A valid record (SPEC 2.4): 2 steps, 3 of 8 drafts accepted."""
    return ('{"engine":"vllm","mean_acceptance_length":%s,"draft_acceptance_rate":0.375,'
            '"acceptance_histogram":{"0":1,"3":1},"num_accepted_draft_tokens":3,'
            '"num_draft_tokens":8,"num_spec_steps":2,"num_spec_tokens":4}' % al)


def records_line(model, tag):
    return ('{"model":%s,"metadata":{"benchmark_phase":"profiling","tag":%s},"metrics":{},'
            '"spec_decode_acceptance":%s}\n' % (json.dumps(model), json.dumps(tag), sda()))


def tar_bytes(members):
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as tf:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


C1 = "".join(chr(c) for c in range(0x80, 0xA0))

# (name, as the terminal shows it, as Markdown writes it): the terminal's
# rule is git's quoting (\a \r \n, three octal digits per byte of C1 and
# bidi code points and of invalid bytes, \\); Markdown's writes that text
# with its own markup escaped (\ before \ ` * _ [ ] | ~ $, < > & as
# entities), CR and LF as spaces.
NAMES = [
    ("osc\x1b]0;title\x07", r"osc\033]0;title\a", r"osc\\033\]0;title\\a"),
    ("csi\x1b[31mred\x1b[2J\x1b[H", r"csi\033[31mred\033[2J\033[H",
     r"csi\\033\[31mred\\033\[2J\\033\[H"),
    ("bel\x07cr\rlf\nrow", r"bel\acr\rlf\nrow", r"bel\\acr lf row"),
    ("c1" + C1, "c1" + "".join("\\302\\%03o" % c for c in range(0x80, 0xA0)),
     "c1" + "".join("\\\\302\\\\%03o" % c for c in range(0x80, 0xA0))),
    ("rlo\u202egnp.exe", r"rlo\342\200\256gnp.exe", r"rlo\\342\\200\\256gnp.exe"),
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>",
     "&lt;img src=x onerror=alert(1)&gt;"),
    ('<a href="javascript:x">y</a>', '<a href="javascript:x">y</a>',
     '&lt;a href="javascript:x"&gt;y&lt;/a&gt;'),
    ("<details>", "<details>", "&lt;details&gt;"),
    ("pipe|tick`", "pipe|tick`", r"pipe\|tick\`"),
]
# Only in JSON strings (models, metadata): a NUL.
NUL = ("nul\x00byte", r"nul\000byte", r"nul\\000byte")
# Only a member name: invalid UTF-8 (a JSON text cannot hold it).
BAD = (b"bad\xff\xfe".decode("utf-8", "surrogateescape"), r"bad\377\376", r"bad\\377\\376")

# the name "<details>" itself (the page folds its pooled part in <details class="rest">)
RAW_MARKUP = [b"<img", b"<a href", b"<details>", b"<b>"]


def safe_for_terminal(data, tab=False):
    """Problems of `data` on a terminal: invalid UTF-8, a control byte but
    LF (and tab), DEL, a C1 or bidi code point. [] when none."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ["invalid UTF-8 at %d" % e.start]
    bad = []
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch != "\n" and not (tab and ch == "\t")) or c == 0x7F or \
                0x80 <= c <= 0x9F or 0x202A <= c <= 0x202E or 0x2066 <= c <= 0x2069:
            bad.append("U+%04X at %d" % (c, i))
    return bad


def framed_rows(text, bar="│"):
    """The lines that are rows of a box table; each must end as it began
    (a name cannot split a row)."""
    rows = [ln for ln in text.split("\n") if ln.startswith(bar)]
    for ln in rows:
        assert ln.endswith(bar), "a row cut short: %r" % ln
    return rows


def on_pty(args):
    """Run specscan with stdout on a pseudo-terminal; (rc, bytes)."""
    master, slave = pty.openpty()
    env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
    proc = subprocess.Popen([SPECSCAN] + args, stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=subprocess.DEVNULL, close_fds=True, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    rc = proc.wait(timeout=60)
    os.close(master)
    # the pty turns LF into CR LF on output
    return rc, b"".join(chunks).replace(b"\r\n", b"\n")


class HostileNames(Case):
    # SPEC 5: the member BAD, one line of no request, could not be read: exit 1
    RC = 1

    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        d = cls.dir = cls.tmp.__enter__()
        members = []
        for name, _, _ in NAMES:
            members.append((name, records_line(name, name).encode()))
        members.append(("nul-model", records_line(NUL[0], NUL[0]).encode()))
        members.append((BAD[0], b"not json\n"))
        cls.tar = os.path.join(d, "h.tar")
        with open(cls.tar, "wb") as f:
            f.write(tar_bytes(members))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def names_for(self, key):
        """(name, terminal form, Markdown form) of the groups of `key`."""
        if key == "input":
            return [("h.tar:" + n, "h.tar:" + t, "h.tar:" + m)
                    for n, t, m in NAMES + [BAD]] + [("h.tar:nul-model",) * 3]
        return NAMES + [NUL]

    def check_table(self, text, key):
        for _, term, _ in self.names_for(key):
            self.assertIn(term, text, "%s: the name as the terminal shows it" % key)
        framed_rows(text)
        group_table = text[text.index("Spec Decode by"):]
        rows = [r for r in framed_rows(group_table) if r.count("│") == 9]
        self.assertEqual(len(rows), self.ngroups(key), "%s: one row per group" % key)

    def ngroups(self, key):
        # the unparsable line has no model and no metadata: a null group
        return len(self.names_for(key)) + (key != "input")

    def test_table_on_stdout(self):
        for key in ("input", "model", "meta.tag"):
            # wide: every name whole (a narrow console cuts long ones)
            res = run(["-f", "table", "--group-by", key, "h.tar"], cwd=self.dir,
                      env={"COLUMNS": "400"})
            self.assertRan(res, self.RC)
            self.assertEqual(safe_for_terminal(res.out), [], key)
            self.check_table(res.text, key)

    def test_table_on_stderr(self):
        """--table: the group table and the messages, on stderr."""
        res = run(["-f", "none", "--table", "--group-by", "input", "h.tar"], cwd=self.dir,
                  env={"COLUMNS": "400"})
        self.assertRan(res, self.RC)
        self.assertEqual(safe_for_terminal(res.err), [])
        self.check_table(res.errtext, "input")
        self.assertIn("specscan: h.tar:%s:1: unparsable" % BAD[1], res.errtext)

    def test_markdown(self):
        for key in ("input", "model", "meta.tag"):
            res = run(["-f", "markdown", "--group-by", key, "h.tar"], cwd=self.dir)
            self.assertRan(res, self.RC)
            self.assertEqual(safe_for_terminal(res.out), [], key)
            for tag in RAW_MARKUP:
                self.assertNotIn(tag, res.out, key)
            # no < or > anywhere: the writer's own text has none
            self.assertNotIn(b"<", res.out)
            self.assertNotIn(b">", res.out)
            for _, _, md in self.names_for(key):
                self.assertIn(md, res.text, "%s: the name escaped for Markdown" % key)
            # every row of the group table: 8 cells, 9 unescaped pipes
            group_table = res.text[res.text.index("Spec Decode by"):]
            rows = [ln for ln in group_table.split("\n")
                    if len(re.findall(r"(?<!\\)\|", re.sub(r"\\\\", "", ln))) == 9]
            self.assertEqual(len(rows), self.ngroups(key) + 2, key)

    def test_html(self):
        out = os.path.join(self.dir, "p.html")
        res = run(["-f", "none", "--force", "--html", out, "--group-by", "model", self.tar])
        self.assertRan(res, self.RC)
        with open(out, "rb") as f:
            page = f.read()
        self.assertEqual(safe_for_terminal(page, tab=True), [])
        for tag in RAW_MARKUP:
            self.assertNotIn(tag, page)
        for want in ("&lt;img src=x onerror=alert(1)&gt;",
                     "&lt;a href=&quot;javascript:x&quot;&gt;y&lt;/a&gt;",
                     "&lt;details&gt;", "rlo\ufffdgnp.exe", "osc\ufffd]0;title\ufffd",
                     "c1" + "\ufffd" * 32):
            self.assertIn(want.encode(), page)

    def test_json_carries_the_names(self):
        """JSON is data: each name exactly, as a JSON string."""
        res = run(["--group-by", "model", self.tar])
        self.assertRan(res, self.RC)
        keys = [r["key"]["model"] for r in json.loads(res.out)["analysis"]["groups"]["rows"]]
        self.assertEqual(sorted(k for k in keys if k is not None),
                         sorted(n for n, _, _ in NAMES + [NUL]))

    def test_compare_lists_groups_escaped(self):
        res = run(["--group-by", "model", "--compare", "no\x1b[2Jsuch", self.tar])
        self.assertRan(res, 2)
        self.assertEqual(safe_for_terminal(res.err), [])
        self.assertIn(r"no group 'no\033[2Jsuch'", res.errtext)
        for _, term, _ in NAMES + [NUL]:
            self.assertIn(term, res.errtext)

    def test_list_inputs(self):
        """--list-inputs: escaped on a terminal, raw into a pipe (the job
        array reads the list back)."""
        top = os.path.join(self.dir, "tree")
        run_dir = os.path.join(top, "run\x1b]0;t\x07")
        os.makedirs(run_dir, exist_ok=True)
        with open(os.path.join(run_dir, "profile_export.jsonl"), "w") as f:
            f.write(records_line("m", "t"))
        rc, out = on_pty(["--list-inputs", "-r", top])
        self.assertEqual(rc, 0)
        self.assertEqual(safe_for_terminal(out), [])
        self.assertIn(b"run\\033]0;t\\a", out)
        res = run(["--list-inputs", "-r", top])
        self.assertRan(res)
        self.assertIn(b"run\x1b]0;t\x07", res.out)




class CsvFormulas(Case):
    """SPEC 7.3: a name from an input that begins with =, +, -, @, a tab or
    a CR is written in CSV with a leading ' (a spreadsheet shows it as
    text and runs no formula); other names, and key values that are not
    text (an integer -3), are written as they are."""

    def test_group_keys_and_outlier_inputs(self):
        tags = ["=1+1", "+b", "-x", "@a", "\tt", "\rr", "ok", "a=b", -3]
        want_cells = {"'=1+1", "'+b", "'-x", "'@a", "'\tt", "'\rr", "ok", "a=b", "-3"}
        with TempDir() as d:
            with open(os.path.join(d, "=evil.jsonl"), "w") as f:
                for t in tags:
                    f.write(records_line("m", t))
            r = run(["-f", "csv", "--group-by", "meta.tag", "--outliers", "1", "=evil.jsonl"], cwd=d)
            self.assertEqual(r.rc, 0, r.err)
            rows = list(csv.reader(io.StringIO(r.out.decode("utf-8"), newline="")))
            metric = "Acceptance Length (ratio)"
            keys = {row[0] for row in rows if len(row) > 2 and row[1] == metric}
            self.assertEqual(keys, want_cells)
            # the outliers' Input column: the file's name, guarded
            inputs = {row[i] for row in rows for i, c in enumerate(row) if c.endswith("evil.jsonl")}
            self.assertEqual(inputs, {"'=evil.jsonl"})

class EscapedMessages(FaultCase):
    """Untrusted names in messages: an archive member, a path and the
    values of a usage error, each escaped (issue 13)."""

    def test_escaped_member_names(self):
        """An archive member named with an escape sequence and a newline that
        would forge a `specscan:` line; its one line is unparsable. The message
        shows the name escaped (ESC as \\033, LF as \\n), valid UTF-8 (é) kept,
        an invalid byte (\\xff) as \\377."""
        t = self.t
        name = "a\x1b[31mred\nspecscan: forged \u00e9.jsonl"
        tb = t.file("names.tar", faults.tar_bytes([(name, b"not json\n")], tarfile.GNU_FORMAT))
        r = faults.run([tb])
        want_rc(r, 1)   # SPEC 5: its one line is no request, it could not be read
        want("\x1b" not in r.err, "no raw ESC", r)
        want(not any(ln.startswith("specscan: forged") for ln in r.err.splitlines()),
             "no forged line", r)
        want("a\\033[31mred\\nspecscan: forged \u00e9.jsonl:1: unparsable" in r.err,
             "escaped name", r)
        # An invalid UTF-8 byte in a path on the command line.
        d = t.sub()
        bad = os.path.join(d.encode(), b"x\xff\x07.jsonl")
        r = faults.run([bad.decode("utf-8", "surrogateescape")])
        want_rc(r, 3)
        want("x\\377\\a.jsonl" in r.err, "invalid byte and BEL escaped", r)
        # Usage errors name what was typed: escaped too.
        r = faults.run(["--x\x1b[2J", bad.decode("utf-8", "surrogateescape")])
        want_rc(r, 2)
        want("\x1b" not in r.err and "--x\\033[2J" in r.err, "option escaped", r)
        r = faults.run(["--engine", "v\x1b]0;pwned\x07", bad.decode("utf-8", "surrogateescape")])
        want_rc(r, 2)
        want("\x1b" not in r.err and "v\\033]0;pwned\\a" in r.err, "value escaped", r)

if __name__ == "__main__":
    main()
