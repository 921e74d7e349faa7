#!/usr/bin/env python3
"""AIPerf artifact directories, on disk and inside archives (SPEC 1.1):
profile_export_raw.jsonl is preferred over profile_export.jsonl, nothing
else of the directory is read, -r walks a tree in byte-wise sorted order,
a held-back profile_export.jsonl keeps its archive position.

testdata/artifacts:
  run1/profile_export_raw.jsonl  X1 (steps 4, acc 6, drafted 12, mean 2.5),
                                 X2 (steps 2, acc 4, drafted 6, mean 3.0)
  run1/profile_export.jsonl      3 decoys (mean 9.0): must never be read
  run1/profile_export_aiperf.json, inputs.json, logs/aiperf.log: never read
  run2/profile_export.jsonl      R1 profiling (steps 2, acc 2, drafted 6),
                                 R2 warmup via the old credit_phase key
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import (Case, Rec, TempDir, expected_metrics, have_tool, jsonl_lines, loads, main,
                   pooled, run, td)

ART = td("artifacts")
X1 = Rec("vllm", 6, 12, 4, mean=2.5, rate=0.5, hist={0: 1, 1: 1, 2: 1, 3: 1}, k=3, comp=5, prompt=20)
X2 = Rec("vllm", 4, 6, 2, mean=3.0, rate=0.6666666666666666, hist={2: 2}, k=3, comp=3, prompt=20)
R1 = Rec("vllm", 2, 6, 2, mean=2.0, rate=1 / 3, hist={0: 1, 2: 1}, k=3)
R2 = Rec("vllm", 2, 4, 2, mean=2.0, rate=0.5, hist={1: 2}, k=2)
RAW1 = "run1/profile_export_raw.jsonl"
REC2 = "run2/profile_export.jsonl"


class Artifacts(Case):
    def test_one_dir_prefers_raw(self):
        d = os.path.join(ART, "run1")
        res = run([d])
        self.assertRan(res)
        doc = loads(res.out)
        (inp,) = doc["specscan"]["inputs"]
        self.assertTrue(inp["name"].startswith(d), inp)
        self.assertTrue(inp["name"].endswith("profile_export_raw.jsonl"), inp)
        self.assertEqual((inp["kind"], inp["requests"]), ("raw", 2))
        self.assertAccounting(doc, {"ok": 2}, total=2)
        self.assertMetrics(doc, expected_metrics([X1, X2]))

    def test_records_only_dir(self):
        res = run([os.path.join(ART, "run2")])
        self.assertRan(res)
        doc = loads(res.out)
        self.assertEqual([(i["kind"], i["requests"]) for i in doc["specscan"]["inputs"]],
                         [("records", 2)])
        self.assertEqual(doc["specscan"]["phases"], {"profiling": 1, "warmup": 1})
        self.assertMetrics(doc, expected_metrics([R1]))
        self.assertMetrics(doc["warmup_metrics"], expected_metrics([R2]), "warmup_metrics")

    def test_not_an_artifact_dir_without_r(self):
        res = run([ART])
        self.assertRan(res, 3)
        self.assertEqual(res.out, b"")
        self.assertIn("specscan: ", res.errtext)

    def test_recursive(self):
        for args in (["-r", ART], ["--recursive", ART + "/"]):
            res = run(args)
            self.assertRan(res)
            doc = loads(res.out)
            ins = doc["specscan"]["inputs"]
            self.assertEqual(len(ins), 2, ins)
            self.assertTrue(ins[0]["name"].endswith(RAW1), ins)
            self.assertTrue(ins[1]["name"].endswith(REC2), ins)
            self.assertEqual([(i["kind"], i["requests"]) for i in ins], [("raw", 2), ("records", 2)])
            self.assertAccounting(doc, {"ok": 4}, total=4)
            self.assertEqual(doc["specscan"]["phases"], {"profiling": 3, "warmup": 1})
            self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"], pooled([X1, X2, R1]))
            self.assertMetrics(doc, expected_metrics([X1, X2, R1]))
            self.assertMetrics(doc["warmup_metrics"], expected_metrics([R2]), "warmup_metrics")

    def test_recursive_sorted_bytewise(self):
        """Artifact directories give their one file, sorted byte-wise by
        path; loose files outside them are not inputs of a walk (SPEC 1.1)."""
        with TempDir() as d:
            t = os.path.join(d, "t")
            for sub in ("z/run", "a/b/run", "B", "a/plain"):
                os.makedirs(os.path.join(t, sub))
            shutil.copy(os.path.join(ART, REC2), os.path.join(t, "z/run/profile_export.jsonl"))
            shutil.copy(os.path.join(ART, RAW1), os.path.join(t, "a/b/run/profile_export_raw.jsonl"))
            shutil.copy(os.path.join(ART, REC2), os.path.join(t, "B/profile_export.jsonl"))
            shutil.copy(td("engines", "vllm_bodies.jsonl"), os.path.join(t, "a/plain/x.jsonl"))
            for loc in ("en_US.UTF-8", "C.UTF-8"):
                res = run(["-r", t], env={"LC_ALL": loc})
                self.assertRan(res)
                names = [i["name"] for i in loads(res.out)["specscan"]["inputs"]]
                self.assertEqual([n[len(t):].lstrip("/") for n in names],
                                 ["B/profile_export.jsonl", "a/b/run/profile_export_raw.jsonl",
                                  "z/run/profile_export.jsonl"])

    def tar(self, arc, members, cwd=None):
        subprocess.run(["tar", "-cf", arc, "-C", cwd or td(), "--no-recursion"] + members,
                       check=True)

    def test_in_archive_raw_after_records(self):
        if not have_tool("tar"):
            self.skipTest("tar not installed")
        with TempDir() as d:
            arc = os.path.join(d, "art.tar")
            self.tar(arc, ["artifacts/run1/profile_export.jsonl", "artifacts/run1/inputs.json",
                           "artifacts/run1/profile_export_raw.jsonl",
                           "artifacts/run1/profile_export_aiperf.json",
                           "artifacts/run1/logs/aiperf.log",
                           "artifacts/run2/profile_export.jsonl"])
            variants = [arc]
            if have_tool("zstd"):
                subprocess.run(["zstd", "-q", arc, "-o", arc + ".zst"], check=True)
                variants.append(arc + ".zst")
            for a in variants:
                for extra in ([], ["-r"]):
                    res = run(extra + [a])
                    self.assertRan(res)
                    doc = loads(res.out)
                    self.assertEqual([(i["name"], i["kind"], i["requests"])
                                      for i in doc["specscan"]["inputs"]],
                                     [("%s:artifacts/%s" % (a, RAW1), "raw", 2),
                                      ("%s:artifacts/%s" % (a, REC2), "records", 2)], extra)
                    self.assertMetrics(doc, expected_metrics([X1, X2, R1]))

    def test_in_archive_held_member_keeps_its_position(self):
        if not have_tool("tar"):
            self.skipTest("tar not installed")
        with TempDir() as d:
            t = os.path.join(d, "t")
            os.makedirs(os.path.join(t, "run2"))
            os.makedirs(os.path.join(t, "other"))
            shutil.copy(os.path.join(ART, REC2), os.path.join(t, "run2/profile_export.jsonl"))
            shutil.copy(td("engines", "llamacpp_stream.sse"), os.path.join(t, "other/s.sse"))
            arc = os.path.join(d, "held.tar")
            self.tar(arc, ["run2/profile_export.jsonl", "other/s.sse"], cwd=t)
            res = run(["-f", "jsonl", arc])
            self.assertRan(res)
            self.assertEqual([o["source"]["input"] for o in jsonl_lines(res)],
                             ["%s:run2/profile_export.jsonl" % arc] * 2 + ["%s:other/s.sse" % arc] * 2)
            doc = loads(run([arc]).out)
            self.assertEqual([i["name"] for i in doc["specscan"]["inputs"]],
                             ["%s:run2/profile_export.jsonl" % arc, "%s:other/s.sse" % arc])


if __name__ == "__main__":
    main()
