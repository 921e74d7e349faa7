#!/usr/bin/env python3
"""SPEC 10.3's order against a reading written here from the SPEC alone.

Random sets of timed vLLM pages (seeded, so every run is the same): one
to three processes named by `# endpoint:` lines, one to five pages each
at distinct `# time:`s, counters that grow or restart lower (a reset),
the pages shuffled and spread over one to three files. The reading: each
process's pages in time order, each counter diffed between neighbours
(d = v - prev, or v when it went down: a reset, one for each page where a
counter went down), the first page a baseline; when every process has
one page, the counters since the start (the sum of the values); intervals
for each process with three or more pages, processes in time order of
their first page. specscan must give the same steps, draft tokens,
accepted tokens, resets and intervals whatever the order of the pages.

The second set: workers known by process_start_time_seconds (with or
without `# endpoint:` names), a restart a new process, every page timed
or none. The reading: each process's pages in time order, else in
counter order; a process started after the earliest page counts from 0
at its first page; a process with one page adds nothing, unless every
process has one (the counters since the start: the sum), and then, when
some started inside the window, only those count.

The third set: one unnamed server, timed pages in any order, two label
sets of each counter (engine 0 and 1) that may be missing from a page,
and the accepted tokens by position (0 to 2): each series diffed between
the pages that hold it, one new after the family's first page counting
from 0, a page without any of the family's series no page of the family.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run  # noqa: E402

CASES = 150
NAMES = ("drafts", "draft_tokens", "accepted_tokens")


def make_case(rnd):
    """Pages [time, process, S, D, A] with values given in each process's time order."""
    pages, times = [], set()
    for p in range(rnd.randint(1, 3)):
        for _ in range(rnd.randint(1, 5)):
            t = rnd.randint(1, 10**6)
            while t in times:
                t = rnd.randint(1, 10**6)
            times.add(t)
            pages.append([t, p, 0, 0, 0])
    for p in {pg[1] for pg in pages}:
        s = rnd.randint(0, 50)
        for pg in sorted((pg for pg in pages if pg[1] == p), key=lambda x: x[0]):
            s = rnd.randint(0, 20) if rnd.random() < 0.25 else s + rnd.randint(0, 30)
            pg[2:] = [s, 3 * s, s - s // 3]
    return pages


def expected(pages):
    """(S, D, A, resets) and the intervals, as SPEC 10.3 reads the pages."""
    tot, resets, ivs = [0, 0, 0], 0, []
    procs = sorted({pg[1] for pg in pages})
    for p in procs:
        mine = sorted((pg for pg in pages if pg[1] == p), key=lambda x: x[0])
        piv = []
        for prev, pg in zip(mine, mine[1:]):
            d = [v if v < u else v - u for u, v in zip(prev[2:], pg[2:])]
            resets += any(v < u for u, v in zip(prev[2:], pg[2:]))
            tot = [a + b for a, b in zip(tot, d)]
            piv.append((prev[0] * 10**9, pg[0] * 10**9, *d))
        if len(mine) >= 3:
            ivs.append((mine[0][0], piv))
    if all(sum(pg[1] == p for pg in pages) == 1 for p in procs):
        tot = [sum(pg[k] for pg in pages) for k in (2, 3, 4)]  # since the start
    return (*tot, resets), [x for _, piv in sorted(ivs) for x in piv]


def write_page(f, t, p, values):
    f.write("# endpoint: w%d\n# time: %d\n" % (p, t))
    for name, v in zip(NAMES, values):
        f.write("# TYPE vllm:spec_decode_num_%s counter\n"
                "vllm:spec_decode_num_%s_total{model_name=\"m\"} %d\n" % (name, name, v))


class ServerOrder(Case):
    def test_random_orders(self):
        rnd = random.Random(20261206)
        with TempDir() as d:
            for case in range(CASES):
                pages = make_case(rnd)
                want, want_iv = expected(pages)
                rnd.shuffle(pages)
                files = [[] for _ in range(rnd.randint(1, 3))]
                for pg in pages:
                    files[rnd.randrange(len(files))].append(pg)
                args = []
                for i, fl in enumerate(f for f in files if f):
                    path = os.path.join(d, "c%d-%d.prom" % (case, i))
                    with open(path, "w") as f:
                        for t, p, *values in fl:
                            write_page(f, t, p, values)
                    args.append(path)
                res = run(["-q", "-f", "json"] + args)
                self.assertEqual(res.rc, 0, res)
                fam = json.loads(res.out.decode("utf-8"))["server"]["families"][0]
                got = (fam["steps"], fam["draft_tokens"], fam["accepted_tokens"], fam["resets"])
                self.assertEqual(got, want, "case %d" % case)
                if want[0] > 0:
                    got_iv = [(i["start_ns"], i["end_ns"], i["steps"], i["draft_tokens"],
                               i["accepted_tokens"]) for i in fam.get("intervals", [])]
                    self.assertEqual(got_iv, want_iv, "case %d" % case)

    def test_random_processes(self):
        rnd = random.Random(61206)
        with TempDir() as d:
            for case in range(CASES):
                timed, named = rnd.random() < 0.5, rnd.random() < 0.5
                pages, used = [], set()
                for w in range(rnd.randint(1, 3)):
                    start, s = rnd.randint(995000, 999990), rnd.randint(0, 40)
                    t = rnd.randint(10**6, 10**6 + 100)
                    for i in range(rnd.randint(1, 5)):
                        if i > 0 and rnd.random() < 0.25:  # a restart: a new process
                            start, s = t - rnd.randint(0, 5), rnd.randint(0, 10)
                        else:
                            s += rnd.randint(1, 30)
                        while t in used:
                            t += 1
                        used.add(t)
                        pages.append((t, "w%d" % w if named else None, start,
                                      (s, 3 * s, s - s // 3)))
                        t += rnd.randint(1, 200)
                want = processes_expected(pages, timed)
                rnd.shuffle(pages)
                path = os.path.join(d, "p%d.prom" % case)
                with open(path, "w") as f:
                    for t, name, start, values in pages:
                        f.write("# endpoint: %s\n" % (name or ""))
                        if timed:
                            f.write("# time: %d\n" % t)
                        f.write("process_start_time_seconds %d.0\n" % start)
                        for n, v in zip(NAMES, values):
                            f.write("vllm:spec_decode_num_%s_total{model_name=\"m\"} %d\n" % (n, v))
                        f.write("# EOF\n")
                res = run(["-q", "-f", "json", path])
                self.assertEqual(res.rc, 0, res)
                fam = json.loads(res.out.decode("utf-8"))["server"]["families"][0]
                got = (fam["steps"], fam["draft_tokens"], fam["accepted_tokens"], fam["resets"])
                self.assertEqual(got, want + (0,), "case %d" % case)

    def test_random_series(self):
        rnd = random.Random(1206)
        with TempDir() as d:
            for case in range(CASES):
                pages, cur = [], {}
                for i, t in enumerate(sorted(rnd.sample(range(1000, 100000), rnd.randint(2, 6)))):
                    restart, pg = i > 0 and rnd.random() < 0.15, {}
                    for e in (0, 1):
                        if rnd.random() < 0.3:
                            continue  # not on this page
                        old = [0] * 6 if restart or e not in cur else cur[e]
                        s = old[0] + rnd.randint(0, 20)
                        pos = [old[3 + k] + rnd.randint(0, 5) for k in range(3)]
                        vals = [s, 3 * s + rnd.randint(0, 3), sum(pos)] + pos
                        if not restart:
                            vals = [max(v, w) for v, w in zip(vals, old)]
                        cur[e] = pg[e] = vals
                    pages.append((t, pg))
                want = series_expected([p for p in pages if p[1]])
                if want is None:
                    continue
                rnd.shuffle(pages)
                path = os.path.join(d, "s%d.prom" % case)
                with open(path, "w") as f:
                    for t, pg in pages:
                        f.write("# time: %d\n" % t)
                        for e, vals in pg.items():
                            lab = 'model_name="m",engine="%d"' % e
                            for n, v in zip(NAMES, vals):
                                f.write("vllm:spec_decode_num_%s_total{%s} %d\n" % (n, lab, v))
                            for k in range(3):
                                f.write("vllm:spec_decode_num_accepted_tokens_per_pos_total"
                                        "{%s,position=\"%d\"} %d\n" % (lab, k, vals[3 + k]))
                        if not pg:
                            f.write("other_total 1\n")
                res = run(["-q", "-f", "json", path])
                self.assertEqual(res.rc, 0, res)
                fam = json.loads(res.out.decode("utf-8"))["server"]["families"][0]
                got = [fam["steps"], fam["draft_tokens"], fam["accepted_tokens"]]
                got += [p["accepted"] for p in fam.get("positions", [])]
                self.assertEqual((got, fam["resets"]), (want[0][:len(got)], want[1]),
                                 "case %d" % case)
                if want[0][0] > 0:
                    self.assertEqual(len(got), 6, "case %d" % case)


def series_expected(pages):
    """([S, D, A, P0, P1, P2], resets) of the family's pages in time order; None under two."""
    if len(pages) < 2:
        return None
    tot, prev, resets = [0] * 6, {}, 0
    for i, (_, pg) in enumerate(pages):
        down = False
        for e, vals in pg.items():
            for c, v in enumerate(vals):
                u = prev.get((c, e))
                if u is not None:
                    tot[c] += v - u if v >= u else v
                    down |= v < u
                elif i > 0:
                    tot[c] += v  # new after the family's first page: from 0
                prev[(c, e)] = v
        resets += down
    return tot, resets


def processes_expected(pages, timed):
    """(S, D, A) of pages (t, name, start, values) of processes known by their start."""
    procs = {}
    for pg in pages:
        procs.setdefault((pg[2], pg[1]), []).append(pg)
    first = min(pg[0] for pg in pages)
    inside = {k for k in procs if timed and k[0] > first}
    single = all(len(v) == 1 for v in procs.values())
    tot = [0, 0, 0]
    for k, mine in procs.items():
        mine.sort(key=lambda pg: pg[0] if timed else sum(pg[3]))
        if k in inside or (single and not inside):
            tot = [a + b for a, b in zip(tot, mine[0][3])]
        for prev, pg in zip(mine, mine[1:]):
            tot = [a + (v - u if v >= u else v) for a, u, v in zip(tot, prev[3], pg[3])]
    return tuple(tot)


if __name__ == "__main__":
    main()
