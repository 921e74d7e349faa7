#!/usr/bin/env python3
"""Console tables fit the terminal (issue 34 item 2, report/tabular.h):
COLUMNS, else the terminal's width, else 80. A group table wider than that
leaves out its least read columns (named in a note) or puts each row's key
on a line of its own above its numbers; it never wraps a row. A table
with prose columns (--definitions) wraps that prose within its cells
instead. The Spec Decode table (SPEC 4.3) keeps its fixed layout. Prose
lines (the server section's lines and notes, the legends) are wrapped at
the width, nothing cut. Checked with COLUMNS at 80 and 100, through a pipe
(80), and on pseudo-terminals of 80 and 100 columns made by `script`
(skipped without it).

Expected values: the two runs' mean acceptance lengths are computed here
from the fixture's own histograms (1 + accepted / steps per request,
averaged), not taken from specscan.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SPECSCAN, Case, TempDir, main, run, td  # noqa: E402

BASE = "baseline-draft-model-qwen3-0.6b/profile_export.jsonl"
OTHER = "eagle3-speculator-llama-3.1-8b/profile_export.jsonl"
ALL_HEADS = ["requests", "with stats", "AL avg", "AL p50", "AL interval", "TWAL",
             "DAR avg (%)", "ODAR (%)", "Δ AL", "Δ TWAL", "Δ DAR (pp)", "Δ ODAR (pp)"]


def mean_al(path):
    vals = []
    with open(path) as f:
        for line in f:
            sd = json.loads(line)["metrics"]["speculative_decoding"]
            vals.append(1 + sd["num_accepted_draft_tokens"] / sd["num_spec_steps"])
    return sum(vals) / len(vals)


def group_block(text):
    """The lines of the group table, its note and legend."""
    lines = text.split("\n")
    start = [i for i, l in enumerate(lines) if l.strip() == "Spec Decode by input"][0]
    # with --compare the group table leads; the pooled sections follow
    # from the "Pooled:" line on
    end = [i for i, l in enumerate(lines) if i > start and l.startswith("Pooled:")]
    return [l for l in lines[start:end[0] if end else None] if l]


class Width(Case):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.dir = cls.tmp.__enter__()
        for name, src in ((BASE, "run-a.jsonl"), (OTHER, "run-b.jsonl")):
            os.makedirs(os.path.join(cls.dir, os.path.dirname(name)))
            shutil.copy(td("analysis", src), os.path.join(cls.dir, name))
        cls.al = {BASE: mean_al(td("analysis", "run-a.jsonl")),
                  OTHER: mean_al(td("analysis", "run-b.jsonl"))}
        cls.args = ["-f", "table", "--group-by", "input", "--compare", BASE,
                    "--ci", "95", "--bootstrap", "50", BASE, OTHER]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def check_fits(self, text, width):
        block = group_block(text)
        for line in block:
            self.assertLessEqual(len(line), width, "wider than %d: %r" % (width, line))
        head = [c.strip() for c in block[2].split("┃")[1:-1]]
        note, inside = [], False
        for line in block:   # the note, from "Not shown" to "shows it/them)"
            inside = inside or line.startswith("  Not shown")
            if inside:
                note.append(line.strip())
                inside = not line.endswith(("shows them)", "shows it)"))
        note = " ".join(note)
        dropped = []
        if "Not shown" in note:
            listed = note.split("columns: ", 1)[1].split(" (a wider terminal")[0]
            dropped = [h.strip() for h in listed.split(", ")]
        # the answer stays; every column is shown or named as left out
        self.assertIn("AL avg", head)
        self.assertIn("Δ AL", head)
        self.assertEqual(sorted(head + dropped), sorted(ALL_HEADS), width)
        # each group: its name whole on a line of its own, its numbers under it
        for name in (BASE, OTHER):
            at = [i for i, l in enumerate(block) if l.startswith("│ input: " + name + " ")]
            self.assertEqual(len(at), 1, name)
            cells = [c.strip() for c in block[at[0] + 1].split("│")[1:-1]]
            self.assertEqual(cells[head.index("AL avg")], "%.2f" % self.al[name])
            self.assertEqual(cells[head.index("with stats")], "400")
        delta = self.al[OTHER] - self.al[BASE]
        row = [c.strip() for c in block[[i for i, l in enumerate(block)
                                         if l.startswith("│ input: " + OTHER)][0] + 1]
               .split("│")[1:-1]]
        self.assertEqual(row[head.index("Δ AL")].rstrip("*"), "%+.2f" % delta)
        return head

    def test_columns_80_and_100(self):
        heads = {}
        for width in (80, 100):
            res = run(self.args, cwd=self.dir, env={"COLUMNS": str(width)})
            self.assertRan(res)
            heads[width] = self.check_fits(res.text, width)
        # more room, more columns
        self.assertGreater(len(heads[100]), len(heads[80]))

    def test_wide_is_unchanged(self):
        res = run(self.args, cwd=self.dir, env={"COLUMNS": "400"})
        self.assertRan(res)
        block = group_block(res.text)
        head = [c.strip() for c in block[2].split("┃")[1:-1]]
        self.assertEqual(head, ["input"] + ALL_HEADS)
        self.assertFalse([l for l in block if "Not shown" in l])

    def test_pipe_is_80(self):
        # no COLUMNS (empty is none), stdout a pipe
        res = run(self.args, cwd=self.dir, env={"COLUMNS": ""})
        self.assertRan(res)
        self.check_fits(res.text, 80)

    def test_spec_decode_table_fixed(self):
        texts = [run(self.args, cwd=self.dir, env={"COLUMNS": w}).text for w in ("40", "400")]
        # the pooled Spec Decode table (after the comparison, which leads)
        def pooled(t):
            # SPEC 4.3's section: the box, its histogram line and the
            # accounting line (the prose of 7.2 between them may wrap)
            lines = t.split("\n")
            at = [i for i, l in enumerate(lines) if l.strip() == "Spec Decode"][0]
            end = [i for i, l in enumerate(lines) if i > at and l.startswith("\u2514")][0]
            count = [l for l in lines[end:] if l.startswith("  800 requests:")]
            return "\n".join(lines[at:end + 2] + count)
        tables = [pooled(t) for t in texts]
        self.assertIn("\n  800 requests: 800 with stats", tables[0])
        self.assertEqual(tables[0], tables[1])
        # SPEC 4.3's layout: the Metric column 33 wide at any width
        top = tables[0].split("\n")[1]
        self.assertTrue(top.startswith("┏" + "━" * 35 + "┳"), top)

    def test_terminal_width(self):
        if not shutil.which("script") or not shutil.which("stty"):
            self.skipTest("no script(1)")
        cmd = "stty cols 100 rows 50; exec %s --no-progress %s" % (
            SPECSCAN, " ".join(self.args))
        env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
        env.pop("COLUMNS", None)
        p = subprocess.run(["script", "-qec", cmd, "/dev/null"], cwd=self.dir, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        text = p.stdout.decode("utf-8").replace("\r\n", "\n")
        head = self.check_fits(text, 100)
        res = run(self.args, cwd=self.dir, env={"COLUMNS": "100"})
        self.assertEqual(head, self.check_fits(res.text, 100))


def on_terminal(args, cols, cwd=None):
    """specscan's stdout on a pseudo-terminal of `cols` columns (script(1));
    None without script."""
    if not shutil.which("script") or not shutil.which("stty"):
        return None
    cmd = "stty cols %d rows 50; exec %s --no-progress %s" % (
        cols, SPECSCAN, " ".join(shlex.quote(a) for a in args))
    env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
    env.pop("COLUMNS", None)
    p = subprocess.run(["script", "-qec", cmd, "/dev/null"], cwd=cwd, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    return p.stdout.decode("utf-8").replace("\r\n", "\n")


# SPEC 7.12's definitions (the table's prose, as the docs give it)
DEFS = {
    "request_mean": ("mean of 1 + a/s per request", "AIPerf (Acceptance Length avg)"),
    "step_pooled": ("1 + sum a / sum s", "vLLM /metrics and bench, Spec-Bench"),
    "output_weighted": ("1 + a/s weighted by completion tokens", "trtllm-bench"),
    "with_prefill": ("mean of completion tokens / s", "SGLang (spec_accept_length)"),
}


class Prose(Case):
    def definitions(self, text, width):
        """The definitions box: every line within `width`, all five
        columns, each row's prose whole once its lines are joined."""
        lines = text.split("\n")
        at = [i for i, l in enumerate(lines) if l.strip() == "Acceptance Length by Definition"][0]
        box = []
        for l in lines[at + 1:]:
            box.append(l)
            if l.startswith("└"):
                break
        for l in box:
            self.assertLessEqual(len(l), width, l)
        head = [c.strip() for c in box[1].split("┃")[1:-1]]
        self.assertEqual(head, ["Definition", "Value", "Requests", "What it is", "Reported by"])
        rows, cur = {}, None
        for l in box[3:-1]:
            cells = [c.strip() for c in l.split("│")[1:-1]]
            if cells[0]:
                cur = cells[0]
                rows[cur] = [[c] for c in cells[1:]]
            else:
                for k, c in enumerate(cells[1:]):
                    if c:
                        rows[cur][k].append(c)
        self.assertEqual(sorted(rows), sorted(DEFS))
        for name, (what, who) in DEFS.items():
            self.assertEqual(" ".join(rows[name][2]), what, (width, name))
            self.assertEqual(" ".join(rows[name][3]), who, (width, name))
            self.assertEqual(rows[name][1], ["400"])
        # request_mean: the mean of 1 + a/s, worked out from the fixture
        self.assertEqual(rows["request_mean"][0], ["%.2f" % mean_al(td("analysis", "run-a.jsonl"))])
        self.assertFalse([l for l in lines if "Not shown" in l])
        return box

    def test_definitions_80_100(self):
        args = ["-f", "table", "--definitions", td("analysis", "run-a.jsonl")]
        for width in (80, 100):
            res = run(args, env={"COLUMNS": str(width)})
            self.assertRan(res)
            box = self.definitions(res.text, width)
            # nothing stacked: every row's name in its own cell
            self.assertFalse([l for l in box if "Definition:" in l])
            term = on_terminal(args, width)
            if term is not None:
                self.assertEqual(self.definitions(term, width), box)
        # room enough: one line a row, as before
        res = run(args, env={"COLUMNS": "400"})
        self.assertEqual(len(self.definitions(res.text, 400)), 3 + 4 + 1)

    def test_server_and_prose_80_100(self):
        """The server section's lines and notes, the by-dir server table
        and the legends within the width; the words all kept (compared
        with a 400-column run); the by-dir table's columns shown or named
        as left out."""
        g = td("groups")
        args = ["-f", "table", "--group-by", "dir", "--compare", os.path.join(g, "base")]
        for d in ("base", "eagle"):
            args += [os.path.join(g, d, f) for f in ("requests.jsonl", "before.prom", "after.prom")]
        args.append(td("server", "vllm_scrapes.prom"))
        wide = run(args, env={"COLUMNS": "400"})
        self.assertRan(wide)

        def section(text):
            return text.split("\nServer Spec Decode\n", 1)[1].split("Server Spec Decode by dir")[0]

        def server_heads(text):
            lines = text.split("\n")
            at = [i for i, l in enumerate(lines) if l.strip() == "Server Spec Decode by dir"][0]
            head = [c.strip() for c in lines[at + 2].split("┃")[1:-1]]
            rest = " ".join(l.strip() for l in lines[at:])
            dropped = []
            if "Not shown" in rest:
                listed = rest.split("columns: ", 1)[1].split(" (a wider terminal")[0]
                dropped = [h.strip() for h in listed.split(", ")]
            return head, dropped, lines[at:]

        all_heads, none, _ = server_heads(wide.text)
        self.assertEqual(none, [])
        # series m goes 100, 200, 50, 150 (base's pages, then eagle's) and
        # the scrape loop's series 0, 100, 250, 30, 130: one fall each; m is
        # missing from the loop's pages, which keep its last value (SPEC 10.3)
        self.assertIn("note: 2 resets (a counter went down", wide.text)
        for width in (80, 100):
            for text in (run(args, env={"COLUMNS": str(width)}).text, on_terminal(args, width)):
                if text is None:
                    continue
                lines = text.split("\n")
                # the Spec Decode table (SPEC 4.3) keeps its layout
                at = [i for i, l in enumerate(lines) if l.strip() == "Spec Decode"][0]
                end = lines.index("", at)
                for l in lines[:at] + lines[end:]:
                    self.assertLessEqual(len(l), width, l)
                # the server lines: every word kept, in order
                self.assertEqual(section(text).split(), section(wide.text).split(), width)
                head, dropped, block = server_heads(text)
                # every column shown, named as left out, or stacked above
                # its row ("dir: …  engine: vllm")
                stacked = [h for h in all_heads if h not in head + dropped and
                           [l for l in block if l.startswith("│ ") and "%s: " % h in l]]
                self.assertEqual(sorted(head + dropped + stacked), sorted(all_heads), width)
                self.assertIn("acceptance length", head)
                # each dir's row: its name whole (stacked or in its cell)
                for d in ("base", "eagle"):
                    self.assertTrue([l for l in block if os.path.join(g, d) in l], (width, d))


if __name__ == "__main__":
    main()
