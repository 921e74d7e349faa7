#!/usr/bin/env python3
"""Compressed and archived inputs, built at test time with the CLI tools
(a variant is skipped when its tool is missing): the reports equal those of
the plain files apart from the input names; archive members are inputs named
ARCHIVE:MEMBER, in archive order (SPEC 1.1)."""

import os
import shutil
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, have_tool, jsonl_lines, loads, main, run, td

PLAIN = ["sample/aiperf_raw_vllm.jsonl", "engines/trtllm_streams.sse",
         "records/profile_export.jsonl", "mixed/mixed_garbage.jsonl"]
FORMATS = ("json", "csv", "table", "jsonl")

COMPRESSORS = {  # tool -> argv writing stdout
    "zstd": ["zstd", "-q", "-c"],
    "gzip": ["gzip", "-c", "-n"],
    "xz": ["xz", "-c"],
    "bzip2": ["bzip2", "-c"],
    "lz4": ["lz4", "-q", "-c"],
}


def compress(tool, src, dst):
    with open(dst, "wb") as out:
        subprocess.run(COMPRESSORS[tool] + [src], stdout=out, check=True)


def outputs(paths, extra=()):
    return {f: run(list(extra) + ["-f", f] + paths) for f in FORMATS}


def renamed(data, names):
    """Replace input names (longest first) by placeholders."""
    text = data.decode("utf-8")
    for i, n in sorted(enumerate(names), key=lambda x: -len(x[1])):
        text = text.replace(n, "@INPUT%d@" % i)
    return text


class Compressed(Case):
    def assertSameReports(self, got, want, got_names, want_names, where):
        for f in FORMATS:
            self.assertEqual(got[f].rc, want[f].rc, "%s -f %s: %r" % (where, f, got[f]))
            self.assertEqual(renamed(got[f].out, got_names), renamed(want[f].out, want_names),
                             "%s -f %s" % (where, f))

    def test_compressors(self):
        for tool in COMPRESSORS:
            with self.subTest(tool=tool):
                if not have_tool(tool):
                    self.skipTest("%s not installed" % tool)
                with TempDir() as d:
                    for rel in PLAIN:
                        src = td(rel)
                        # detected by content: a name without any extension
                        dst = os.path.join(d, os.path.basename(rel) + "-" + tool)
                        compress(tool, src, dst)
                        self.assertSameReports(outputs([dst]), outputs([src]), [dst], [src],
                                               "%s %s" % (tool, rel))

    def test_misleading_extension(self):
        """A plain file named .zst or .gz is read as plain text."""
        with TempDir() as d:
            for ext in (".zst", ".gz", ".tar"):
                dst = os.path.join(d, "plain" + ext)
                shutil.copy(td(PLAIN[0]), dst)
                self.assertSameReports(outputs([dst]), outputs([td(PLAIN[0])]), [dst],
                                       [td(PLAIN[0])], ext)

    def test_concatenated_zstd_frames(self):
        if not have_tool("zstd"):
            self.skipTest("zstd not installed")
        with TempDir() as d:
            data = open(td(PLAIN[0]), "rb").read()
            cut = len(data) // 2 + 7  # in the middle of a line
            parts = [os.path.join(d, "p1"), os.path.join(d, "p2")]
            for p, chunk in zip(parts, (data[:cut], data[cut:])):
                with open(p, "wb") as f:
                    f.write(chunk)
            dst = os.path.join(d, "two-frames.zst")
            with open(dst, "wb") as out:
                for p in parts:
                    subprocess.run(["zstd", "-q", "-c", p], stdout=out, check=True)
            self.assertSameReports(outputs([dst]), outputs([td(PLAIN[0])]), [dst],
                                   [td(PLAIN[0])], "two frames")

    def test_stdin_compressed(self):
        if not have_tool("zstd"):
            self.skipTest("zstd not installed")
        data = subprocess.run(["zstd", "-q", "-c", td(PLAIN[1])], stdout=subprocess.PIPE,
                              check=True).stdout
        got = run(["-f", "jsonl"], stdin=data)
        want = run(["-f", "jsonl", td(PLAIN[1])])
        self.assertRan(got)
        self.assertEqual(renamed(got.out, ["<stdin>"]), renamed(want.out, [td(PLAIN[1])]))

    def make_tree(self, d):
        """d/tree/a/sample.jsonl, d/tree/a/sub/streams.sse, d/tree/b/records.jsonl,
        a symlink and empty directory that must be skipped."""
        t = os.path.join(d, "tree")
        os.makedirs(os.path.join(t, "a", "sub"))
        os.makedirs(os.path.join(t, "b"))
        os.makedirs(os.path.join(t, "empty"))
        shutil.copy(td(PLAIN[0]), os.path.join(t, "a", "sample.jsonl"))
        shutil.copy(td(PLAIN[1]), os.path.join(t, "a", "sub", "streams.sse"))
        shutil.copy(td(PLAIN[2]), os.path.join(t, "b", "records.jsonl"))
        os.symlink("sample.jsonl", os.path.join(t, "a", "link.jsonl"))
        return t, ["a/sample.jsonl", "a/sub/streams.sse", "b/records.jsonl"]

    def check_archive(self, arc, members, tree):
        got = outputs([arc])
        names = ["%s:%s" % (arc, m) for m in members]
        doc = loads(got["json"].out)
        self.assertEqual([i["name"] for i in doc["specscan"]["inputs"]], names)
        kinds = {"a/sample.jsonl": "raw", "a/sub/streams.sse": "sse", "b/records.jsonl": "records"}
        self.assertEqual([i["kind"] for i in doc["specscan"]["inputs"]], [kinds[m] for m in members])
        self.assertEqual({o["source"]["input"] for o in jsonl_lines(got["jsonl"])}, set(names))
        plain = [os.path.join(tree, m) for m in members]
        self.assertSameReports(got, outputs(plain), names, plain, arc)

    def tar_members(self, arc):
        out = subprocess.run(["tar", "-tf", arc], stdout=subprocess.PIPE, check=True).stdout
        return [m for m in out.decode().split("\n") if m and not m.endswith("/")]

    def test_tar(self):
        if not have_tool("tar"):
            self.skipTest("tar not installed")
        with TempDir() as d:
            tree, members = self.make_tree(d)
            arc = os.path.join(d, "runs.tar")
            # explicit order: not sorted, with a directory entry and a symlink
            subprocess.run(["tar", "-cf", arc, "-C", tree, "--no-recursion", "b",
                            "b/records.jsonl", "a/sub/streams.sse", "a/link.jsonl",
                            "a/sample.jsonl", "empty"], check=True)
            order = ["b/records.jsonl", "a/sub/streams.sse", "a/sample.jsonl"]
            got = outputs([arc])
            doc = loads(got["json"].out)
            self.assertRan(got["json"])
            self.assertEqual([i["name"] for i in doc["specscan"]["inputs"]],
                             ["%s:%s" % (arc, m) for m in order])
            plain = [os.path.join(tree, m) for m in order]
            self.assertSameReports(got, outputs(plain), ["%s:%s" % (arc, m) for m in order],
                                   plain, "tar")

    def test_compressed_tars(self):
        if not have_tool("tar"):
            self.skipTest("tar not installed")
        for tool in COMPRESSORS:
            with self.subTest(tool=tool):
                if not have_tool(tool):
                    self.skipTest("%s not installed" % tool)
                with TempDir() as d:
                    tree, members = self.make_tree(d)
                    tarf = os.path.join(d, "runs.tar")
                    subprocess.run(["tar", "-cf", tarf, "-C", tree] + members, check=True)
                    arc = os.path.join(d, "runs.tar.%s" % tool)
                    compress(tool, tarf, arc)
                    self.check_archive(arc, self.tar_members(tarf), tree)

    def test_zip(self):
        if not have_tool("zip"):
            self.skipTest("zip not installed")
        with TempDir() as d:
            tree, members = self.make_tree(d)
            arc = os.path.join(d, "runs.zip")
            subprocess.run(["zip", "-q", "-r", "-y", arc, "a", "b", "empty"], cwd=tree, check=True)
            with zipfile.ZipFile(arc) as z:
                order = [m for m in z.namelist() if m in members]
            self.assertEqual(sorted(order), sorted(members))
            self.check_archive(arc, order, tree)

    def test_libarchive_opened_when_needed(self):
        """libarchive is opened on first use (src/io/archive_lib.c), not
        linked: a plain or zstd input leaves it unloaded, an xz one loads it
        and is read as the plain file is. The dynamic linker's own trace
        (LD_DEBUG=files) names each library it opens."""
        if not have_tool("xz"):
            self.skipTest("xz not installed")
        src = td("records", "profile_export.jsonl")
        trace = {"LD_DEBUG": "files"}
        plain = run(["-f", "json", src], env=trace)
        self.assertRan(plain)
        self.assertIn(b"libsimdjson", plain.err)  # the trace is there
        self.assertNotIn(b"libarchive", plain.err)
        with TempDir() as d:
            dst = os.path.join(d, "records.jsonl.xz")
            compress("xz", src, dst)
            got = run(["-f", "json", dst], env=trace)
            self.assertRan(got)
            self.assertIn(b"libarchive", got.err)
            self.assertEqual(renamed(got.out, [dst]), renamed(plain.out, [src]))
        version = run(["--version"])
        self.assertRan(version)
        self.assertRegex(version.text, r"(?m)^libarchive \d+\.\d+")


if __name__ == "__main__":
    main()
