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
  - --windows and --outliers on the soak fixture (windows.png).

The browser checks run under `make check-system` (SPECSCAN_SYSTEM=1);
`make check` runs the checks that need no browser (bytes, determinism,
escaping). Without Chromium under check-system the browser checks are
skipped (exit 77) after the others have run.
"""

import html.parser
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htmlcheck  # noqa: E402
from sslib import FIXTURES, SPECSCAN, SYSTEM, Case, TempDir, main, run, td  # noqa: E402

BUILD = os.path.dirname(os.path.abspath(SPECSCAN))
ARTIFACTS = os.environ.get("SPECSCAN_ARTIFACTS") or os.path.join(BUILD, "test-artifacts", "html")

HIST_TITLE = "Accepted drafts per step (% of steps)"
DIST_TITLE = "Acceptance length per request"
POS4_TITLE = "Acceptance by draft position (k=4)"
WHATIF4_TITLE = "If the draft were shorter (k=4)"
SPEEDUP_TITLE = "Expected speedup by draft length"
CMP_POS = "Acceptance by draft position, per group"
CMP_WHATIF = "If the draft were shorter, per group"

BROWSER = SYSTEM
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
        elif tag == "br" and self.cell is not None:
            self.cell += " "
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
    def test_groups_answer_first(self):
        """--group-by without --compare (issue 34 item 3): the group chart
        and table open the page, right after the key figures; the pooled
        sections follow, folded in one <details>."""
        with TempDir() as tmp:
            _, data = self.page(["--group-by", "meta.category",
                                 td("flat", "categories.jsonl")], tmp)
        text = data.decode("utf-8")
        cards, groups = text.index('class="cards"'), text.index('<section id="groups">')
        fold = text.index('<details class="rest">')
        self.assertLess(cards, groups)
        self.assertLess(groups, fold)
        end = text.index("</details>", fold)
        for sec in ("read", "spec-decode", "histogram", "distribution"):
            at = text.index('<section id="%s">' % sec)
            self.assertTrue(fold < at < end, sec)
        self.assertIn("<summary>All requests pooled:", text)

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
            # the fixtures hold records of draft lengths 1 to 5 (their
            # num_spec_tokens): each k its own charts (SPEC 9.1), titled
            # by k, in k order, with its heading and its own table; records
            # with per-step arrays (vllm_bodies line 2, the sample's) add the
            # per-drafted-token chart after them
            per_k = []
            for k in range(1, 6):
                per_k += ["Acceptance by draft position (k=%d)" % k,
                          "If the draft were shorter (k=%d)" % k]
                self.assertIn('<h3 id="pos-k%d">k = %d: ' % (k, k), text)
                self.assertIn("<caption>Numbers of the charts (k = %d)</caption>" % k, text)
            self.browser(path, png="testdata.png", svg_titles=[HIST_TITLE] + per_k +
                         ["Acceptance per drafted token", DIST_TITLE])

    def test_spec6_numbers(self):
        a = [2, 3, 1, 4, 2, 0, 3, 3]
        b = [1, 1, 0]
        with TempDir() as tmp:
            src = os.path.join(tmp, "spec6.jsonl")
            with open(src, "w") as f:
                f.write(records_line(a, 4) + records_line(b, 4))
            path, data = self.page(["--draft-cost", "0.1", src], tmp)
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
            # SPEC 7.1's vector: S = 9, 6, 4, 1 of 11 steps; rates 81.82,
            # 54.55, 36.36, 9.09 %; conditional 9/11, 6/9, 4/6, 1/4
            pos, whatif = doc.sections["positions"][0], doc.sections["positions"][1]
            self.assertEqual(pos[0], ["k", "Position", "Steps accepted", "Rate (%)",
                                      "Conditional (%)"])
            self.assertEqual(pos[1:], [["4", "1", "9", "81.82", "81.82"],
                                       ["4", "2", "6", "54.55", "66.67"],
                                       ["4", "3", "4", "36.36", "66.67"],
                                       ["4", "4", "1", "9.09", "25.00"]])
            # tau 1 + 9/11, 1 + 15/11, 1 + 19/11, 1 + 20/11; rates 9/11,
            # 15/22, 19/33, 20/44; speedups tau / (1 + 0.1 k')
            self.assertEqual(whatif[1:], [["4", "1", "1.82", "81.82", "1.65"],
                                          ["4", "2", "2.36", "68.18", "1.97"],
                                          ["4", "3", "2.73", "57.58", "2.10"],
                                          ["4", "4", "2.82", "45.45", "2.01"]])
            self.assertIn("The best draft length is k&prime; = 3 (speedup 2.10&times;)",
                          data.decode("utf-8"))
            self.browser(path, png="spec6.png",
                         svg_titles=[HIST_TITLE, POS4_TITLE, WHATIF4_TITLE, SPEEDUP_TITLE,
                                     DIST_TITLE])

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
            # no position chart either, and why: 7 ok records... as counted
            # by the accounting table, all without a histogram
            doc = parse(text)
            ok = [r for r in doc.sections["read"][1] if r[0].startswith("with stats")][0][1]
            self.assertIn("No acceptance by position", text)
            self.assertIn("Not pooled: %s requests without a histogram." % ok, text)
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
            facts = self.browser(path, svg_titles=[HIST_TITLE, "Acceptance by draft position (k=2)",
                                                   "If the draft were shorter (k=2)", DIST_TITLE])
            if facts:
                # the browser shows the name as text, exactly
                self.assertEqual(facts["title"], "Spec Decode report: " + name)

    def test_windows_and_outliers(self):
        """SPEC 7.8 and 7.11 on the page: the soak fixture (make_runs.py:
        360 requests 20 s apart, so twelve 10-minute windows of 29 to 31
        requests; every draft rejected on lines 151 and 223, every draft
        accepted on lines 98 and 302)."""
        with TempDir() as tmp:
            path, data = self.page(["--windows", "10m", "--outliers", "2",
                                    td("analysis", "soak.jsonl")], tmp)
            doc = parse(data.decode("utf-8"))
            rows = doc.sections["windows"][0][1:]
            self.assertEqual([r[0] for r in rows], [str(i) for i in range(12)])
            self.assertEqual([r[1] for r in rows], ["%d.00" % (10 * i) for i in range(12)])
            self.assertEqual(sum(int(r[2]) for r in rows), 360)
            self.assertEqual(doc.sections["windows"][0][0][1], "Start (min)")
            low, high = doc.sections["outliers"]
            self.assertEqual([(r[2], r[4]) for r in low[1:]], [("151", "1.00"), ("223", "1.00")])
            self.assertEqual([(r[2], r[4]) for r in high[1:]], [("98", "5.00"), ("302", "5.00")])
            self.browser(path, png="windows.png",
                         svg_titles=[HIST_TITLE, POS4_TITLE, WHATIF4_TITLE, DIST_TITLE,
                                     "Acceptance length over time"])

    def test_twenty_groups(self):
        """20 inputs, --group-by input: one bar per group with its interval,
        no overlapping labels (checked by the browser), the group table with
        each group's mean acceptance length worked out here; --compare adds
        the differences; the JSON is the same with and without --html."""
        import random
        rnd = random.Random(11)
        with TempDir() as tmp:
            d = os.path.join(tmp, "runs")
            os.mkdir(d)
            names, means = [], {}
            for g in range(20):
                name = os.path.join(d, "qwen3-8b-eagle3-temperature-0.%d-run-%02d.jsonl" % (g % 10, g))
                lines, al = [], []
                p = 0.3 + 0.03 * g
                for _ in range(12):
                    steps = []
                    for _ in range(rnd.randint(3, 20)):
                        a = 0
                        while a < 4 and rnd.random() < p:
                            a += 1
                        steps.append(a)
                    lines.append(records_line(steps, 4))
                    al.append(1 + sum(steps) / len(steps))
                with open(name, "w") as f:
                    f.writelines(lines)
                s = 0.0
                for x in al:
                    s += x
                names.append(name)
                means[name] = s / len(al)
            args = ["--group-by", "input"] + names
            json_alone = run(["-f", "json"] + args)
            self.assertRan(json_alone, 0)
            path = os.path.join(tmp, "groups.html")
            res = run(["-f", "json", "--html", path] + args)
            self.assertRan(res, 0)
            self.assertEqual(res.out, json_alone.out, "--html changed the JSON")
            with open(path, encoding="utf-8") as f:
                doc = parse(f.read())
            table = doc.sections["groups"][0]
            self.assertEqual(table[0][:5], ["input", "Requests", "With stats", "AL avg", "AL p50"])
            self.assertEqual([r[0] for r in table[1:]], sorted(names))
            for r in table[1:]:
                self.assertEqual(r[3], "%.2f" % means[r[0]], r[0])
                self.assertRegex(r[5], r"^\d\.\d\d\u2013\d\.\d\d$")   # the interval
            # without --compare the group chart answers first (issue 34
            # item 3); the pooled charts follow, folded
            titles = ["Acceptance length by input (95% intervals)",
                      HIST_TITLE, POS4_TITLE, WHATIF4_TITLE, DIST_TITLE]
            self.browser(path, png="groups20.png", svg_titles=titles)

            # against the first group: more than six groups, so no cards
            # and no charts of each group; the one table of the figures and
            # their differences, the first eight groups' curves in one chart
            base = sorted(names)[0]
            res = run(["-f", "none", "--html", path, "--force", "--compare", base] + args)
            self.assertRan(res, 0)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            doc = parse(text)
            self.assertNotIn('<section id="group-positions">', text)
            self.assertNotIn('<div class="grp">', text)
            self.assertIn("The charts draw the first 8 groups", text)
            deltas = doc.sections["answer"][1]
            self.assertEqual(deltas[1][0], base)
            self.assertEqual(deltas[1][3], "baseline")
            self.assertEqual([r[0] for r in deltas[1:]], sorted(names))
            for r in deltas[2:]:
                want = means[r[0]] - means[base]
                self.assertTrue(r[3].startswith("%+.2f" % want), (r, want))
            # shown once: no second table of differences under the groups
            self.assertEqual(len(doc.sections["groups"]), 1)
            self.assertEqual(text.count("Key figures and differences from the baseline"), 1)
            self.browser(path, svg_titles=[CMP_POS, CMP_WHATIF] + titles)

    def test_compare_opens_with_the_answer(self):
        """SPEC 9.1, issue 34 item 3: with --compare the page opens with the
        answer: a sentence per group, each group's key figures side by side
        (the baseline first), the groups' acceptance by position in one
        chart and their shorter-draft curves in another, the table of the
        figures and differences (once); then each group's own charts; then,
        folded, the groups' chart and table and the pooled sections, which
        say they are pooled.
        A: k=3, accepted 3,3,2,1 in 4 steps: AL 1 + 9/4 = 3.25, DAR 9/12 =
        75%; S1..S3 = 4, 3, 2 of 4 steps: rates 100, 75, 50 %, conditional
        4/4, 3/4, 2/3; tau(k') = 1 + (S1+..+Sk')/4 = 2.00, 2.75, 3.25.
        B: 0,0,1,2: AL 1.75, DAR 25%; S = 2, 1, 0: rates 50, 25, 0 %,
        conditional 2/4, 1/2, 0/1; tau 1.50, 1.75, 1.75.  One request a
        group: every resample is that request, so each interval is the
        value itself."""
        with TempDir() as tmp:
            a, b = os.path.join(tmp, "a.jsonl"), os.path.join(tmp, "b.jsonl")
            with open(a, "w") as f:
                f.write(records_line([3, 3, 2, 1], 3))
            with open(b, "w") as f:
                f.write(records_line([0, 0, 1, 2], 3))
            path, data = self.page(["--group-by", "input", "--compare", a, a, b], tmp,
                                   "compare.html")
            text = data.decode("utf-8")
            at = [text.index(x) for x in (
                '<section id="answer">', '<div class="grp">', CMP_POS, CMP_WHATIF,
                "<caption>Key figures and differences from the baseline",
                '<section id="group-positions">', '<details class="rest">',
                '<section id="groups">', '<div class="pooled">',
                "Acceptance length, all groups pooled", '<section id="read">',
                '<section id="spec-decode">', '<section id="histogram">',
                '<section id="positions">', '<section id="distribution">', "</div>\n</details>\n<footer")]
            self.assertEqual(at, sorted(at), "page order")
            self.assertIn("acceptance length 1.75 against 3.25, <strong>-1.50</strong> tokens "
                          "per step (95% interval of the difference -1.50 to -1.50): "
                          "<strong>significant</strong>.", text)
            # the cards: the baseline's, then B's with its differences
            grp = text.split('<div class="grp">')
            self.assertEqual(len(grp), 1 + 2 + 2)   # cards, then each group's charts
            self.assertIn('<span class="tag">baseline</span> %s</h3>' % a, grp[1])
            self.assertIn('<span class="v">3.25</span>', grp[1])
            self.assertIn('<span class="v">75.0%</span>', grp[1])
            self.assertNotIn("&Delta;", grp[1])
            self.assertIn("<h3>%s</h3>" % b, grp[2])
            self.assertIn('<span class="v">1.75</span>', grp[2])
            self.assertIn('<span class="d sig">&Delta; -1.50*</span>', grp[2])
            self.assertIn('<span class="d sig">&Delta; -50.0 pp*</span>', grp[2])
            # the comparison is shown once
            self.assertEqual(text.count("<caption>Key figures and differences"), 1)
            self.assertEqual(text.count("<th>&Delta; AL</th>"), 1)
            self.assertNotIn("Differences from the baseline</caption>", text)
            self.assertNotIn("Acceptance length minus the baseline", text)
            self.assertIn(".pooled h2::after{content:", text)
            self.assertIn("pools the requests of all groups together (2 groups)", text)
            doc = parse(text)
            over, rows = doc.sections["answer"]
            self.assertEqual(over[0], ["i = k\u2032", "a (baseline): rate (%)",
                                       "a (baseline): \u03c4(k\u2032)", "b: rate (%)",
                                       "b: \u03c4(k\u2032)"])
            self.assertEqual(over[1:], [["1", "100.00", "2.00", "50.00", "1.50"],
                                        ["2", "75.00", "2.75", "25.00", "1.75"],
                                        ["3", "50.00", "3.25", "0.00", "1.75"]])
            self.assertEqual(rows[0], ["Group", "With stats", "AL avg", "\u0394 AL", "TWAL",
                                       "\u0394 TWAL", "DAR avg (%)", "\u0394 DAR (pp)",
                                       "ODAR (%)", "\u0394 ODAR (pp)"])
            self.assertEqual(rows[1], [a, "1", "3.25 3.25\u20133.25", "baseline",
                                       "3.25 3.25\u20133.25", "", "75.00 75.00\u201375.00", "",
                                       "75.00 75.00\u201375.00", ""])
            self.assertEqual(rows[2], [b, "1", "1.75 1.75\u20131.75", "-1.50* -1.50 to -1.50",
                                       "1.75 1.75\u20131.75", "-1.50* -1.50 to -1.50",
                                       "25.00 25.00\u201325.00", "-50.00* -50.00 to -50.00",
                                       "25.00 25.00\u201325.00", "-50.00* -50.00 to -50.00"])
            # each group's own numbers, baseline first
            ga, gb = doc.sections["group-positions"]
            self.assertEqual(ga[0], ["i = k\u2032", "Rate (%)", "Conditional (%)",
                                     "\u03c4(k\u2032)"])
            self.assertEqual(ga[1:], [["1", "100.00", "100.00", "2.00"],
                                      ["2", "75.00", "75.00", "2.75"],
                                      ["3", "50.00", "66.67", "3.25"]])
            self.assertEqual(gb[1:], [["1", "50.00", "50.00", "1.50"],
                                      ["2", "25.00", "50.00", "1.75"],
                                      ["3", "0.00", "0.00", "1.75"]])
            # the groups' table, folded, without the differences
            self.assertEqual(len(doc.sections["groups"]), 1)
            k3 = ["Acceptance by draft position (k=3)", "If the draft were shorter (k=3)"]
            self.browser(path, png="compare.png",
                         svg_titles=[CMP_POS, CMP_WHATIF] + k3 + k3 +
                         ["Acceptance length by input (95% intervals)", HIST_TITLE] + k3 +
                         [DIST_TITLE])

    def test_compare_dirs_hostile_names(self):
        """--group-by dir --compare with names that are markup: every
        place a group's name reaches (the heading, the sentence, the cards,
        the legends, the tables) escapes it; a trailing / on the VALUE is
        ignored (SPEC 7.4).  Base: k=2, accepted 2,1: AL 2.50; other:
        1,0: AL 1.50, difference -1.00."""
        with TempDir() as tmp:
            base = os.path.join(tmp, "<b>base")
            other = os.path.join(tmp, "x\"><script>alert(1)")
            for d, steps in ((base, [2, 1]), (other, [1, 0])):
                os.mkdir(d)
                with open(os.path.join(d, "r.jsonl"), "w") as f:
                    f.write(records_line(steps, 2))
            path, data = self.page(["--group-by", "dir", "--compare", base + "/",
                                    os.path.join(base, "r.jsonl"), os.path.join(other, "r.jsonl")],
                                   tmp, "dirs.html")
            text = data.decode("utf-8")
            self.assertNotIn("<script", text)
            self.assertNotIn("<b>base", text)
            self.assertIn('<span class="tag">baseline</span> %s&lt;b&gt;base</h3>' % (tmp + "/"),
                          text)
            self.assertIn("x&quot;&gt;&lt;script&gt;alert(1)", text)
            self.assertIn("acceptance length 1.50 against 2.50, <strong>-1.00</strong>", text)
            self.assertEqual(text.count('<div class="grp">'), 4)
            facts = self.browser(path, png="compare_dirs.png")
            if facts:
                self.assertEqual(facts["svg_titles"][:2], [CMP_POS, CMP_WHATIF])

    def test_several_draft_lengths(self):
        """SPEC 9.1 (issue 23 item 6): with several k, each k's curves on
        their own charts under a heading with its suggested k', one table
        per k (the bold row explained); past six, the k with the fewest
        steps in a table.  Draft cost 0.5.  k=2, accepted 2,2,1,0: position
        rates 3/4, 2/4; tau(1) = 1.75, tau(2) = 2.25; speedups 1.75/1.5 =
        1.17, 2.25/2 = 1.125: k'=1.  k=3, accepted 3,3,3,1: tau 2, 2.75, 3.5;
        speedups 1.33, 1.375, 1.40: k'=3.  k=4..8 accepted 1,0: two steps
        each, fewer than k=2 and 3; k=8 comes last and is not drawn (a tie
        keeps the earlier k); its speedups are 1.5/1.5 = 1.0 and less: none
        pays."""
        with TempDir() as tmp:
            src = os.path.join(tmp, "ks.jsonl")
            with open(src, "w") as f:
                f.write(records_line([2, 2, 1, 0], 2))
                f.write(records_line([3, 3, 3, 1], 3))
                for k in range(4, 9):
                    f.write(records_line([1, 0], k))
            path, data = self.page(["--draft-cost", "0.5", src], tmp, "ks.html")
            text = data.decode("utf-8")
            self.assertIn('<h3 id="pos-k2">k = 2: 4 steps of 1 request, acceptance length '
                          '2.25, suggested k&prime; = 1 (1.17&times;)</h3>', text)
            self.assertIn('<h3 id="pos-k3">k = 3: 4 steps of 1 request, acceptance length '
                          '3.50, suggested k&prime; = 3 (1.40&times;)</h3>', text)
            self.assertIn('<h3 id="pos-k7">k = 7: 2 steps of 1 request, acceptance length '
                          '1.50, no draft length pays at this cost</h3>', text)
            self.assertNotIn('id="pos-k8"', text)
            self.assertIn("<caption>Numbers of the charts (k = 2; bold: the suggested "
                          "k&prime;)</caption>", text)
            self.assertIn('<tr class="total"><td>1</td><td>3</td><td>75.00</td><td>75.00</td>'
                          '<td>1.75</td><td>75.00</td><td>1.17</td></tr>', text)
            self.assertIn('<tr class="total"><td>3</td><td>3</td><td>75.00</td><td>100.00</td>'
                          '<td>3.50</td><td>83.33</td><td>1.40</td></tr>', text)
            self.assertIn('<tr><td>8</td><td>2</td><td>1.50</td><td class="l">50.00 0.00 0.00 '
                          '0.00 0.00 0.00 0.00 0.00</td><td></td></tr>', text)
            titles = [HIST_TITLE]
            for k in range(2, 8):
                titles += ["Acceptance by draft position (k=%d)" % k,
                           "If the draft were shorter (k=%d)" % k, "Expected speedup (k=%d)" % k]
            self.browser(path, png="several_k.png", svg_titles=titles + [DIST_TITLE])

    def test_same_bytes(self):
        paths = [td(rel) for _, rel, extra in FIXTURES if not extra]
        with TempDir() as tmp:
            _, one = self.page(["-j1"] + paths, tmp, "a.html")
            _, two = self.page(["-j4"] + paths, tmp, "b.html")
            _, three = self.page(["-j2"] + paths, tmp, "c.html")
            self.assertEqual(one, two)
            self.assertEqual(one, three)
            # the analysis of the page (bootstrap over groups) too
            ab = ["--group-by", "input", "--compare", td("analysis", "run-a.jsonl"),
                  "--draft-cost", "0.15", td("analysis", "run-a.jsonl"), td("analysis", "run-b.jsonl")]
            _, g1 = self.page(["-j1"] + ab, tmp, "g1.html")
            _, g4 = self.page(["-j4"] + ab, tmp, "g4.html")
            self.assertEqual(g1, g4)
            # asking for the defaults (95%, positions) changes nothing: the
            # run's own analysis then serves the page
            _, g2 = self.page(["-j2", "--ci", "95", "--positions"] + ab, tmp, "g2.html")
            self.assertEqual(g1, g2)
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


    def test_server_section(self):
        """The page's server section (SPEC 10, last): each family's figures,
        its position chart, and with a scrape loop the chart over the
        window; in the browser: no console error, no request, the charts
        titled."""
        with TempDir() as d:
            out = os.path.join(d, "r.html")
            res = run(["-f", "none", "--html", out, td("server", "vllm_scrapes.prom"),
                       td("server", "trtllm_before.prom"), td("server", "trtllm_after.prom")])
            self.assertRan(res)
            with open(out, encoding="utf-8") as f:
                html = f.read()
            self.assertIn('<section id="server">', html)
            self.assertLess(html.index('id="read"'), html.index('id="server"'))
            self.assertIn("scrape (5 snapshots)", html)
            # vLLM: S 380, A 710 (1 + 710/380 = 2.87); trtllm: 87 steps
            self.assertIn("<td>2.87</td>", html)
            self.assertIn("<td>380</td>", html)
            titles = ["The server's acceptance by draft position",
                      "The server's acceptance length over the window",
                      "The server's acceptance by draft position"]
            self.assertEqual(html.count("-t\">The server&#39;s"), 3)
            self.assertIn("Prometheus&#39; increase()", html)   # the reset note, escaped
            res = run(["-f", "none", "--html", os.path.join(d, "none.html"), td("engines", "vllm_bodies.jsonl")])
            with open(os.path.join(d, "none.html"), encoding="utf-8") as f:
                self.assertNotIn('id="server"', f.read())
            if not BROWSER:
                return
            problems, facts = htmlcheck.check_page(out, svgs=3, svg_titles=titles, full_png=False)
            self.assertEqual(problems, [])
            self.assertEqual(facts["resources"], 0)

if __name__ == "__main__":
    if BROWSER:
        main()
    import unittest
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    if not SYSTEM:
        print("browser checks: under make check-system", file=sys.stderr)
        sys.exit(0)
    print("SKIP: browser checks: %s not found (Debian package 'chromium')" % htmlcheck.CHROMIUM,
          file=sys.stderr)
    sys.exit(77)
