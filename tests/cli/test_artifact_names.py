#!/usr/bin/env python3
"""Where exports and runs are found (SPEC 10.8): artifact names with a
compression suffix (the plain file wins, then .zst .gz .xz .bz2 .lz4), a
directory of a server-metrics export alone, AIPerf's per-phase files not
read. The runs are testdata/groups' request files (base: 2 requests,
eagle: 3), so the count says which file was read; the compressed copies
are made here with Python's own codecs (gzip, lzma, bz2).
"""

import bz2
import gzip
import lzma
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td  # noqa: E402

BASE = td("groups", "base", "requests.jsonl")    # 2 requests
EAGLE = td("groups", "eagle", "requests.jsonl")  # 3 requests
CODECS = {".gz": gzip.compress, ".xz": lzma.compress, ".bz2": bz2.compress}


def put(path, src, suffix=""):
    with open(src, "rb") as f:
        data = f.read()
    if suffix:
        data = CODECS[suffix](data)
    with open(path + suffix, "wb") as f:
        f.write(data)


def inputs_of(res):
    return [(i["name"], i["requests"]) for i in loads(res.out)["specscan"]["inputs"]]


class Suffixes(Case):
    def test_compressed_export_is_the_run(self):
        with TempDir() as tmp:
            put(os.path.join(tmp, "profile_export.jsonl"), EAGLE, ".gz")
            res = run(["-f", "json", tmp])
            self.assertRan(res)
            self.assertEqual(inputs_of(res),
                             [(os.path.join(tmp, "profile_export.jsonl.gz"), 3)])

    def test_plain_wins_then_the_suffix_order(self):
        with TempDir() as tmp:
            raw = os.path.join(tmp, "profile_export_raw.jsonl")
            put(raw, EAGLE, ".xz")
            put(raw, BASE, ".gz")     # .gz before .xz
            put(raw, EAGLE, ".bz2")
            res = run(["-f", "json", tmp])
            self.assertRan(res)
            self.assertEqual(inputs_of(res), [(raw + ".gz", 2)])
            put(raw, EAGLE)           # the plain file wins
            res = run(["-f", "json", tmp])
            self.assertRan(res)
            self.assertEqual(inputs_of(res), [(raw, 3)])

    def test_raw_before_records_whatever_the_suffix(self):
        with TempDir() as tmp:
            put(os.path.join(tmp, "profile_export.jsonl"), BASE)
            put(os.path.join(tmp, "profile_export_raw.jsonl"), EAGLE, ".bz2")
            res = run(["-f", "json", tmp])
            self.assertRan(res)
            self.assertEqual(inputs_of(res),
                             [(os.path.join(tmp, "profile_export_raw.jsonl.bz2"), 3)])


    def test_in_an_archive(self):
        import tarfile
        with TempDir() as tmp:
            d = os.path.join(tmp, "run")
            os.makedirs(d)
            put(os.path.join(d, "profile_export_raw.jsonl"), EAGLE, ".gz")
            tar = os.path.join(tmp, "t.tar")
            with tarfile.open(tar, "w") as tf:
                tf.add(d, arcname="run")
            res = run(["-f", "json", tar])
            self.assertRan(res)
            self.assertEqual(inputs_of(res), [(tar + ":run/profile_export_raw.jsonl.gz", 3)])


class ServerExportOnly(Case):
    def test_export_only_dir_and_walk(self):
        doc = td("server", "aiperf", "server_metrics_export.json")
        with TempDir() as tmp:
            srv = os.path.join(tmp, "srv")
            run_dir = os.path.join(tmp, "run")
            os.makedirs(os.path.join(srv, "phases", "profiling"))
            os.makedirs(run_dir)
            put(os.path.join(srv, "server_metrics_export.json"), doc, ".gz")
            # per-phase files are not read (10.8)
            shutil.copy(doc, os.path.join(srv, "phases", "profiling", "server_metrics.json"))
            put(os.path.join(run_dir, "profile_export_raw.jsonl"), BASE)
            res = run(["-f", "json", srv])
            self.assertRan(res)
            d = loads(res.out)
            self.assertEqual([(i["name"], i["kind"], i["snapshots"])
                              for i in d["specscan"]["inputs"]],
                             [(os.path.join(srv, "server_metrics_export.json.gz"), "scrape", 1)])
            self.assertEqual(len(d["server"]["families"]), 1)
            res = run(["-f", "json", "-r", tmp])
            self.assertRan(res)
            self.assertEqual([i["name"] for i in loads(res.out)["specscan"]["inputs"]],
                             [os.path.join(run_dir, "profile_export_raw.jsonl"),
                              os.path.join(srv, "server_metrics_export.json.gz")])


if __name__ == "__main__":
    main()
