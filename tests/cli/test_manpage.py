#!/usr/bin/env python3
"""Every long option of the option table (as `specscan --help` prints it)
is documented in man/specscan.1, outside comments; and the table holds every
option of SPEC 5."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SRCDIR, Case, main, run

SPEC5 = ["format", "json", "csv", "records", "html", "output-dir", "table", "no-table", "phase",
         "engine", "input-kind", "recursive", "max-record-size", "threads", "progress",
         "no-progress", "strict", "force", "quiet", "verbose", "help", "version",
         # SPEC 7.7
         "positions", "draft-cost", "ci", "bootstrap", "seed", "group-by", "compare", "expect",
         "windows", "outliers",
         "definitions",
         # issue 13 (README "Reliability"): resource limits
         "memory-limit", "spool-limit", "zstd-window-log",
         # SPEC 8.2
         "shard", "list-inputs"]


def help_options():
    res = run(["--help"])
    assert res.rc == 0, res
    opts = []
    for line in res.text.split("\n"):
        m = re.match(r"\s+(?:-\w,\s+)?--([a-z][a-z0-9-]*)", line)
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


if __name__ == "__main__":
    main()
