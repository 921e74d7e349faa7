#!/usr/bin/env python3
"""The HTML report (SPEC 9.1): --html FILE and spec_decode.html in -o DIR.

Pages rendered and checked in headless Chromium (tests/cli/htmlcheck.py: no
console error, no request, the expected SVG charts by title, no horizontal
scrolling at 1280 px, a non-blank 1280x900 screenshot):

  - the bundled testdata, every fixture at once (screenshot kept at
    <build>/test-artifacts/html/testdata.png, and -full.png for the page);
  - SPEC 6's two records (numbers of the histogram and distribution tables
    worked out by hand below);
  - a run with no spec-decode stats at all (no chart, a sentence instead);
  - llama.cpp records only (no histogram: the page says what is missing);
  - an input whose name is markup (escaped; the browser shows it as text).

Without Chromium the browser checks are skipped (exit 77) after the checks
that need no browser (bytes, determinism, escaping) have run.
"""

import html.parser
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htmlcheck  # noqa: E402
from sslib import FIXTURES, SPECSCAN, Case, TempDir, main, run, td  # noqa: E402

BUILD = os.path.dirname(os.path.abspath(SPECSCAN))
ARTIFACTS = os.environ.get("SPECSCAN_ARTIFACTS") or os.path.join(BUILD, "test-artifacts", "html")

HIST_TITLE = "Accepted drafts per step (% of steps)"
DIST_TITLE = "Acceptance length per request"

BROWSER = True
try:
    htmlcheck.chromium_path()
except htmlcheck.BrowserMissing:
    BROWSER = False


def records_line(per_step, k, phase="profiling", engine="vllm"):
    """An AIPerf records line of one vLLM request from its per-step accepted
    counts (SPEC 6 style): histogram, totals and mean worked out here."""
    steps = len(per_step)
    acc = sum(per_step)
    drafted = k * steps
    hist = {}
    for a in per_step:
        hist[a] = hist.get(a, 0) + 1
    hist = ",".join('"%d":%d' % (j, hist[j]) for j in sorted(hist))
    mean = 1 + acc / steps
    return ('{"metadata":{"benchmark_phase":"%s"},"metrics":{},"spec_decode_acceptance":'
            '{"engine":"%s","mean_acceptance_length":%r,"draft_acceptance_rate":%r,'
            '"acceptance_histogram":{%s},"num_accepted_draft_tokens":%d,"num_draft_tokens":%d,'
            '"num_spec_steps":%d,"num_spec_tokens":%d}}\n'
            % (phase, engine, mean, acc / drafted, hist, acc, drafted, steps, k))


class Tables(html.parser.HTMLParser):
    """The tables of a page: section id -> list of tables, each a list of
    rows (lists of cell texts); the <title>; every <svg> title."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections, self.section = {}, None
        self.table = self.row = self.cell = None
        self.title, self.in_title = "", False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
            self.sections.setdefault(self.section, [])
        elif tag == "table":
            self.table = []
            self.sections.setdefault(self.section, []).append(self.table)
        elif tag == "tr" and self.table is not None:
            self.row = []
            self.table.append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "title" and self.section is None and self.table is None:
            self.in_title = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "table":
            self.table = self.row = None
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.in_title:
            self.title += data


def parse(page_text):
    p = Tables()
    p.feed(page_text)
    return p


class Html(Case):
    def page(self, args, tmp, name="page.html", rc=0):
        path = os.path.join(tmp, name)
        res = run(["-f", "none", "--html", path] + args)
        self.assertRan(res, rc)
        with open(path, "rb") as f:
            data = f.read()
        return path, data

    def browser(self, path, png=None, svg_titles=None):
        """The page in Chromium; svg_titles: the exact list expected."""
        if not BROWSER:
            return None
        problems, facts = htmlcheck.check_page(
            path, png=os.path.join(ARTIFACTS, png) if png else None,
            svgs=len(svg_titles) if svg_titles is not None else None,
            svg_titles=svg_titles or (), full_png=bool(png))
        self.assertEqual(problems, [], "\n".join(problems))
        if svg_titles is not None:
            self.assertEqual(facts["svg_titles"], svg_titles)
        self.assertEqual(facts["scripts"], 0)
        return facts

    def test_bundled_testdata(self):
        paths = [td(rel) for _, rel, extra in FIXTURES if not extra]
        with TempDir() as tmp:
            path, data = self.page(paths, tmp, rc=0)
            text = data.decode("utf-8")
            self.assertTrue(text.startswith("<!DOCTYPE html>\n"))
            for p in paths:
                self.assertIn(p, text)
            self.assertNotIn("http://", text.replace('xmlns="http://www.w3.org/2000/svg"', ""))
            self.assertNotIn("https://", text)
            self.assertNotIn("<script", text)
            self.browser(path, png="testdata.png", svg_titles=[HIST_TITLE, DIST_TITLE])

    def test_spec6_numbers(self):
        a = [2, 3, 1, 4, 2, 0, 3, 3]
        b = [1, 1, 0]
        with TempDir() as tmp:
            src = os.path.join(tmp, "spec6.jsonl")
            with open(src, "w") as f:
                f.write(records_line(a, 4) + records_line(b, 4))
            path, data = self.page([src], tmp)
            doc = parse(data.decode("utf-8"))
            # pooled histogram {0:2, 1:3, 2:2, 3:3, 4:1}, 11 steps:
            # 2/11 = 18.2%, 3/11 = 27.3%, 1/11 = 9.1%
            hist = doc.sections["histogram"][0]
            self.assertEqual(hist[0], ["Accepted drafts", "Steps", "% of steps"])
            self.assertEqual(hist[1:], [["0", "2", "18.2"], ["1", "3", "27.3"], ["2", "2", "18.2"],
                                        ["3", "3", "27.3"], ["4", "1", "9.1"],
                                        ["total", "11", "100.0"]])
            # acceptance lengths 3.25 and 1 + 2/3: 2 values -> 2 bins wanted,
            # (3.25 - 1.667) / 2 = 0.79 -> width 1; [1,2) [2,3) [3,4)
            dist = doc.sections["distribution"][0]
            self.assertEqual(dist[1:], [["1", "2", "1", "50.0"], ["2", "3", "0", "0.0"],
                                        ["3", "4", "1", "50.0"]])
            # the Spec Decode table: SPEC 6's avg 2.458.. -> 2.46, token
            # weighted 2.818.. -> 2.82, overall rate 45.45
            table = {r[0]: r[1:] for r in doc.sections["spec-decode"][0]}
            self.assertEqual(table["Acceptance Length (ratio)"][:3], ["2.46", "1.67", "3.25"])
            self.assertEqual(table["Token-Weighted Acceptance Length (ratio)"],
                             ["2.82"] + ["N/A"] * 6)
            self.assertEqual(table["Overall Draft Acceptance Rate (%)"][0], "45.45")
            self.browser(path, svg_titles=[HIST_TITLE, DIST_TITLE])

    def test_long_histogram(self):
        # buckets 0..30 one bar each, 31 and above share ">=31": steps with
        # 0, 35, 40, 40 accepted drafts (k 40): 1 of 4 = 25.0%, 3 of 4 = 75.0%
        with TempDir() as tmp:
            src = os.path.join(tmp, "long.jsonl")
            with open(src, "w") as f:
                f.write(records_line([0, 35, 40, 40], 40))
            path, data = self.page([src], tmp)
            hist = parse(data.decode("utf-8")).sections["histogram"][0]
            self.assertEqual(len(hist), 1 + 32 + 1)
            self.assertEqual(hist[1], ["0", "1", "25.0"])
            self.assertEqual(hist[2:32], [[str(j), "0", "0.0"] for j in range(1, 31)])
            self.assertEqual(hist[32], [">=31", "3", "75.0"])

    def test_no_stats(self):
        with TempDir() as tmp:
            src = os.path.join(tmp, "plain.jsonl")
            with open(src, "w") as f:
                f.write('{"model":"m","choices":[{"text":"hi"}]}\n{"foo":1}\n')
            path, data = self.page([src], tmp)
            text = data.decode("utf-8")
            self.assertIn("No request of the main results carried speculative-decoding statistics",
                          text)
            self.assertNotIn("<svg", text)
            doc = parse(text)
            status = doc.sections["read"][1]
            self.assertEqual(status[-1], ["total", "2", "100.0"])
            self.browser(path, png="no_stats.png", svg_titles=[])

    def test_llamacpp_only(self):
        srcs = [td("engines", "llamacpp_bodies.jsonl"), td("engines", "llamacpp_stream.sse")]
        with TempDir() as tmp:
            path, data = self.page(srcs, tmp, rc=0)
            text = data.decode("utf-8")
            self.assertIn("No histogram: none of the requests with stats carries a per-step "
                          "acceptance histogram", text)
            self.assertIn("llama.cpp", text)
            self.assertNotIn(HIST_TITLE, text)
            self.browser(path, png="llamacpp.png", svg_titles=[DIST_TITLE])

    def test_hostile_name(self):
        with TempDir() as tmp:
            # no "/" in a file name: the markup is unclosed, which is worse
            name = os.path.join(tmp, "<script>alert(\"&amp;\")'<b>x.jsonl")
            with open(name, "w") as f:
                f.write(records_line([1, 2], 2))
            path, data = self.page([name], tmp)
            text = data.decode("utf-8")
            self.assertNotIn("<script", text)
            self.assertNotIn("<b>x", text)
            self.assertIn("&lt;script&gt;alert(&quot;&amp;amp;&quot;)&#39;&lt;b&gt;x.jsonl", text)
            facts = self.browser(path, svg_titles=[HIST_TITLE, DIST_TITLE])
            if facts:
                # the browser shows the name as text, exactly
                self.assertEqual(facts["title"], "Spec Decode report: " + name)

    def test_same_bytes(self):
        paths = [td(rel) for _, rel, extra in FIXTURES if not extra]
        with TempDir() as tmp:
            _, one = self.page(["-j1"] + paths, tmp, "a.html")
            _, two = self.page(["-j4"] + paths, tmp, "b.html")
            _, three = self.page(["-j2"] + paths, tmp, "c.html")
            self.assertEqual(one, two)
            self.assertEqual(one, three)
            # -o DIR writes the same page
            res = run(["-f", "none", "-j3", "-o", os.path.join(tmp, "out")] + paths)
            self.assertRan(res, 0)
            with open(os.path.join(tmp, "out", "spec_decode.html"), "rb") as f:
                self.assertEqual(f.read(), one)

    def test_refuses_to_overwrite(self):
        with TempDir() as tmp:
            path = os.path.join(tmp, "r.html")
            with open(path, "w") as f:
                f.write("keep")
            res = run(["-f", "none", "--html", path, td("sample", "aiperf_raw_vllm.jsonl")])
            self.assertEqual(res.rc, 3)
            with open(path) as f:
                self.assertEqual(f.read(), "keep")
            self.assertEqual(sorted(os.listdir(tmp)), ["r.html"])


if __name__ == "__main__":
    if BROWSER:
        main()
    import unittest
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    print("SKIP: browser checks: %s not found (Debian package 'chromium')" % htmlcheck.CHROMIUM,
          file=sys.stderr)
    sys.exit(77)
