#!/usr/bin/env python3
"""Every long option of the option table (as `specscan --help` prints it)
is documented in man/specscan.1, outside comments, each in an entry of its
own; the table holds every option of SPEC 5; `--help` fits 80 columns; and
the page renders with `groff -ww` without a warning (issue 23)."""

import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SRCDIR, Case, main, run

SPEC5 = ["format", "json", "csv", "records", "html", "output-dir", "table", "no-table", "phase",
         "engine", "input-kind", "recursive", "max-record-size", "threads", "progress",
         "no-progress", "strict", "force", "quiet", "verbose", "help", "version",
         # SPEC 7.7
         "positions", "draft-cost", "ci", "bootstrap", "seed", "group-by", "compare", "expect",
         "windows", "outliers",
         "definitions",
         # SPEC 11.2
         "speedup",
         # SPEC 11.5
         "acceptance-profile",
         # issue 13 (docs/BEHAVIOUR.md "Reliability"): resource limits
         "memory-limit", "spool-limit", "zstd-window-log",
         # SPEC 8.2
         "shard", "list-inputs",
         # issue 34 item 6: -o without its records file
         "no-records",
         # issue 34 item 4: the flat per-request table
         "table-csv"]


def help_options():
    res = run(["--help"])
    assert res.rc == 0, res
    opts = []
    for line in res.text.split("\n"):
        m = re.match(r"  (?:-\w, |    )--([a-z][a-z0-9-]*)", line)
        if m:
            opts.append(m.group(1))
    return opts


def man_text():
    with open(os.path.join(SRCDIR, "man", "specscan.1"), encoding="utf-8") as f:
        lines = [l for l in f if not l.lstrip().startswith(('.\\"', '\\"', "'\\\""))]
    # roff: \- is a minus sign, \f[BIR]...\fR are fonts
    text = "".join(lines).replace("\\-", "-")
    return re.sub(r"\\f[BIRP]", "", text)


class ManPage(Case):
    def test_help_lists_spec_options(self):
        self.assertEqual(sorted(help_options()), sorted(SPEC5))

    def test_every_long_option_in_man_page(self):
        text = man_text()
        missing = [o for o in help_options()
                   if not re.search(r"--%s(?![a-z0-9-])" % re.escape(o), text)]
        self.assertEqual(missing, [], "long options missing from man/specscan.1")

    def test_help_fits_80_columns(self):
        res = run(["--help"])
        wide = [l for l in res.text.split("\n") if len(l) > 79]
        self.assertEqual(wide, [])

    def rendered(self):
        if not shutil.which("groff"):
            raise unittest.SkipTest("groff is not installed")
        return subprocess.run(["groff", "-ww", "-man", "-Tutf8", "-P-cbou",
                               os.path.join(SRCDIR, "man", "specscan.1")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def test_groff_without_warnings(self):
        res = self.rendered()
        self.assertEqual(res.returncode, 0)
        self.assertEqual(res.stderr.decode(), "")

    def test_every_option_has_its_own_entry(self):
        # an entry's tag is a line of its own at the paragraph indent (a
        # missing .TP runs the option into the paragraph before it)
        text = self.rendered().stdout.decode("utf-8", "replace").replace("\u2010", "-")
        tags = set()
        for line in text.split("\n"):
            if re.match(r"^ {7}-", line):
                tags.update(re.findall(r"--([a-z][a-z0-9-]*)", line))
        missing = [o for o in help_options() if o not in tags]
        self.assertEqual(missing, [], "options without an entry of their own")


if __name__ == "__main__":
    main()
