#!/usr/bin/env python3
"""Hostile JSON, whole program (issue 20, faults 1-4; issue 24, faults 7-9).

Every line is checked whole when it is read (SPEC 1.2): a line that is not
JSON is `unparsable` whatever part of it is broken, and a line that is JSON
is read, however large its numbers or odd its escapes. Each fault is a
line in the three JSONL forms (an AIPerf raw line, a records line, a
response body), and each must also give the same as a line of more than
256 KiB (the same line with a long unread string added: long lines once
took another path through the shim; the suite's portable pass, built
with --disable-fast-paths, runs all of them On-Demand). The enriched line
written for every request must be JSON (Python's json reads it), and a
partial holding such lines must merge into the single run's report
(SPEC 8.1), grouped by every key of SPEC 7.3 too.

Expected statuses come from SPEC (1.2, 1.3, 2.1, 2.6, 4.4), worked out by
hand for each line: never from the program's own output.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SPECSCAN, Case, TempDir, jsonl_lines, main, run, td

# A vLLM payload by hand: histogram [0, 1] is one step that accepted one
# draft; one draft proposed: mean 2.0, rate 1.0 (SPEC 2.5's identities hold).
VLLM_SD = ('{"acceptance_histogram":[0,1],"num_spec_steps":1,"mean_acceptance_length":2.0,'
           '"draft_acceptance_rate":1.0,"num_accepted_draft_tokens":1,"num_draft_tokens":1}')
CHUNK = '{"choices":[{"index":0,"delta":{"content":"hi"}}],"metrics":{"speculative_decoding":%s}}'
# A records line's own record: one step, one of two drafts accepted.
RECORD = ('{"engine":"vllm","num_accepted_draft_tokens":1,"num_draft_tokens":2,'
          '"num_spec_steps":1,"draft_acceptance_rate":0.5,"acceptance_histogram":{"1":1}}')

META = '{"benchmark_phase":"profiling","note":"n"}'


def raw(meta=META, extra=""):
    chunk = json.dumps(CHUNK % VLLM_SD)
    return ('{"metadata":%s,"responses":[{"perf_ns":1,"packets":[{"name":"data","value":%s}]}]%s}'
            % (meta, chunk, extra))


def records(meta=META, extra=""):
    return '{"metadata":%s,"metrics":{},"spec_decode_acceptance":%s%s}' % (meta, RECORD, extra)


def body(meta=META, extra=""):
    # llama.cpp: 4 drafts, 2 accepted, no step count: ok (SPEC 2.6). (With
    # `metrics` beside its metadata it would be a records line, SPEC 1.3.)
    return ('{"metadata":%s,"content":"x","timings":{"draft_n":4,"draft_n_accepted":2}%s}'
            % (meta, extra))


FORMS = {"raw": raw, "records": records, "body": body}

# A field nobody reads, valid JSON, to make a line of more than 256 KiB.
LONG = ',"long":"%s"' % ("y" * (300 << 10))


def enriched(t, lines, args=(), fmt="jsonl"):
    """Run -f FMT over the lines; with jsonl each output line must be JSON."""
    path = os.path.join(t, "in.jsonl")
    with open(path, "wb") as f:
        f.write(b"".join(l.encode("latin-1") if isinstance(l, str) else l for l in lines))
    res = run(["-q", "-f", fmt] + list(args) + [path])
    assert res.rc in (0, 1), res
    assert b"\x00" not in res.out, "a NUL byte in the output"
    if fmt == "jsonl":
        for raw_line in res.out.decode("utf-8").splitlines():
            json.loads(raw_line)  # raises when specscan wrote a line that is not JSON
    else:
        json.loads(res.out)
    return res


def as_bytes(s):
    return s.encode("latin-1") if isinstance(s, str) else s


class Faults(Case):
    def statuses(self, lines, want, where):
        """Each line alone and all together: the statuses of `want`."""
        with TempDir() as t:
            for longer in ("", LONG):
                got = [as_bytes(l) for l in lines]
                if longer:
                    # the long field just before the root's closing brace
                    got = [g[:-1] + longer.encode() + b"}" for g in got]
                res = enriched(t, [g + b"\n" for g in got])
                recs = jsonl_lines(res)
                self.assertEqual([r["spec_decode_status"] for r in recs], want,
                                 "%s%s" % (where, " (a long line)" if longer else ""))
                for r in recs:
                    if r["spec_decode_status"] == "unparsable":
                        self.assertEqual(r["source"]["kind"], "unknown", where)
                        self.assertNotIn("metadata", r, where)

    def test_controls(self):
        """The three forms as written here are ok (by hand: SPEC 2.1-2.6)."""
        self.statuses([f() for f in FORMS.values()], ["ok"] * 3, "controls")

    def test_literal_followed_by_junk(self):
        """Fault 1: `false` (or true, null) followed by any byte that is not
        white space is not JSON (SPEC 1.2), as the whole metadata value or
        in a field nobody reads: unparsable, and nothing of it copied."""
        junk = [b"falsee", b"false1", b"false\x00", b"truee", b"true1", b"nullx", b"false?"]
        for name, form in FORMS.items():
            for j in junk:
                bad_meta = as_bytes(form(meta="@")).replace(b"@", j)
                bad_extra = as_bytes(form(extra=',"x":@')).replace(b"@", j)
                self.statuses([bad_meta, bad_extra], ["unparsable", "unparsable"],
                              "%s, %r" % (name, j))

    def test_broken_structure_in_unread_parts(self):
        """Fault 2: broken structure anywhere is not JSON; SPEC 1.2's one
        exception (a bad number or literal in unread parts) does not cover
        it: unparsable, counted in no metric."""
        broken = ['"id":[1 2]', '"id":[1,,2]', '"id":{"a" 1}', '"id":{1:2}', '"id":["a":1]',
                  '"id":"v1":1', '"x":', '"id"::"v1"', '"x":[[[}}}}', '"extra":[1 2}',
                  '"payload":{"messages":[{"role":"user","content":"a"} {"role":"user"}]}']
        for name, form in FORMS.items():
            lines = [form(extra="," + b) for b in broken]
            self.statuses(lines, ["unparsable"] * len(lines), name)
        with TempDir() as t:
            res = enriched(t, [raw(extra="," + b) + "\n" for b in broken] + [raw() + "\n"],
                           fmt="json")
            doc = json.loads(res.out)
            req = doc["specscan"]["requests"]
            self.assertEqual((req["total"], req["unparsable"], req["ok"]),
                             (len(broken) + 1, len(broken), 1))
            # the one ok request alone makes the metrics: one step
            self.assertEqual(doc["spec_decode_steps"]["count"], 1)

    def test_numbers_past_double_range(self):
        """Fault 3: a number past the double range is JSON; as the whole
        metadata value it stays as written (SPEC 4.4). A raw line and a body
        are still what they are (ok); a records line needs a metadata
        object (SPEC 1.3), so that one is of no known kind: unrecognized."""
        for num in ("1e400", "-1e999", "9223371e06854775808"):
            with TempDir() as t:
                res = enriched(t, [f(meta=num) + "\n" for f in FORMS.values()])
                text = res.out.decode("utf-8").splitlines()
                recs = [json.loads(l) for l in text]
                self.assertEqual([r["spec_decode_status"] for r in recs],
                                 ["ok", "unrecognized", "ok"], num)
                for line in text:
                    self.assertIn('"metadata":%s,' % num, line)
            self.statuses([records(meta='{"a":%s}' % num)], ["ok"], "nested " + num)

    def test_lone_surrogate_in_metadata(self):
        """Fault 4: a lone surrogate escape is JSON as Python and jq read it:
        the line is read (ok), its metadata copied as written, and where
        specscan needs the string's text (--group-by meta.note) it is
        U+FFFD, as jq decodes it (docs/BEHAVIOUR.md, Where SPEC is silent)."""
        meta = '{"benchmark_phase":"profiling","note":"\\ud800"}'
        self.statuses([f(meta=meta) for f in FORMS.values()], ["ok"] * 3, "lone surrogate")
        self.statuses([f(extra=',"other":"\\udc00x"') for f in FORMS.values()], ["ok"] * 3,
                      "elsewhere")
        with TempDir() as t:
            res = enriched(t, [f(meta=meta) + "\n" for f in FORMS.values()])
            for line in res.out.decode("utf-8").splitlines():
                self.assertIn('"note":"\\ud800"', line)
            res = enriched(t, [f(meta=meta) + "\n" for f in FORMS.values()],
                           ["--group-by", "meta.note"], fmt="json")
            rows = json.loads(res.out)["analysis"]["groups"]["rows"]
            self.assertEqual([r["key"] for r in rows], [{"meta.note": "\ufffd"}])
            self.assertEqual(rows[0]["requests"]["ok"], 3)

    def test_nesting_deeper_than_1024(self):
        """Issue 24, fault 9: nesting deeper than 1024 levels is unparsable
        (SPEC 1.2) also in a part nobody reads; 1024 levels are JSON. The
        root object is the first level, the extra field's value the second."""
        def nested(levels):
            return ',"deep":' + "[" * (levels - 1) + "]" * (levels - 1)
        for name, form in FORMS.items():
            self.statuses([form(extra=nested(1024)), form(extra=nested(1025))],
                          ["ok", "unparsable"], name)
        with TempDir() as t:
            res = enriched(t, [raw(extra=nested(5000)) + "\n"])
            self.assertEqual(jsonl_lines(res)[0]["spec_decode_reason"], "JSON nested too deeply")

    def test_merge_of_a_partial_with_such_lines(self):
        """SPEC 8.1: the partial written for these lines merges into the
        single run's report, byte for byte, in every format."""
        lines = [as_bytes(f()) for f in FORMS.values()]
        lines += [as_bytes(f(meta="@")).replace(b"@", b"false\x00") for f in FORMS.values()]
        lines += [as_bytes(f(extra=',"id":[1 2]')) for f in FORMS.values()]
        lines += [as_bytes(f(meta="1e400")) for f in FORMS.values()]
        lines += [as_bytes(f(meta='{"benchmark_phase":"warmup","note":"\\ud800"}'))
                  for f in FORMS.values()]
        with TempDir() as t:
            src = os.path.join(t, "faults.jsonl")
            with open(src, "wb") as f:
                f.write(b"".join(l + b"\n" for l in lines))
            part = os.path.join(t, "part.jsonl")
            self.assertRan(run(["-q", "-f", "none", "--records", part, src]))
            for extra in ([], ["--group-by", "meta.note"], ["--group-by", "phase,model"]):
                for fmt in ("json", "csv", "table", "jsonl"):
                    want = run(["-q", "-f", fmt] + extra + [src])
                    got = run(["-q", "-f", fmt] + extra + [part])
                    self.assertEqual(got.rc, want.rc, (fmt, extra))
                    self.assertEqual(got.out, want.out, (fmt, extra))

    def test_version_says_how_json_is_read(self):
        """--version names the JSON path the build has (configure's
        SSJ_HAVE_WHOLE, in config.h next to the binary)."""
        res = run(["--version"])
        self.assertRan(res)
        lines = [l for l in res.text.splitlines() if l.startswith("JSON reading: ")]
        self.assertEqual(len(lines), 1, res.text)
        config = os.path.join(os.path.dirname(SPECSCAN), "config.h")
        if not os.path.exists(config):
            self.skipTest("no config.h next to %s" % SPECSCAN)
        with open(config) as f:
            whole = "#define SSJ_HAVE_WHOLE 1" in f.read()
        self.assertEqual(lines[0].startswith("JSON reading: whole-text path"), whole, lines[0])


class GroupedMerge(Case):
    """Issue 24, fault 7: specscan's own lines read back keep their model
    and metadata for grouping (SPEC 8.1: taken as written), so the merge
    of shards equals one run for every group key of SPEC 7.3."""

    INPUTS = [td("sample/aiperf_raw_vllm.jsonl"), td("records/profile_export.jsonl"),
              td("engines/vllm_bodies.jsonl"), td("engines/llamacpp_bodies.jsonl"),
              td("engines/trtllm_streams.sse"), td("mixed/mixed_garbage.jsonl")]
    KEYS = ["input", "engine", "k", "phase", "model", "meta.worker_id",
            "meta.benchmark_phase", "osl"]

    def test_every_key(self):
        with TempDir() as d:
            parts = []
            for i in range(3):
                p = os.path.join(d, "part-%d.jsonl" % i)
                self.assertRan(run(["-q", "--shard", "%d/3" % i, "-f", "none", "--records", p]
                                   + self.INPUTS))
                parts.append(p)
            for key in self.KEYS:
                want = run(["-q", "-f", "json", "--group-by", key] + self.INPUTS)
                got = run(["-q", "-f", "json", "--group-by", key] + parts)
                self.assertRan(want)
                self.assertEqual(got.out.decode(), want.out.decode(), key)
                rows = json.loads(want.out)["analysis"]["groups"]["rows"]
                # each key of these inputs has groups beyond the null one
                self.assertTrue(any(None not in r["key"].values() for r in rows), key)


class EmptyEngine(Case):
    def test_records_line_with_empty_engine(self):
        """Issue 24, fault 8: SPEC 2.6 keeps a records line's engine string
        whatever its length, the empty one too: the line is ok, written
        with "engine":"" and read back the same; --group-by engine puts it
        in the group "" (not null)."""
        line = records().replace('"engine":"vllm"', '"engine":""')
        with TempDir() as t:
            res = enriched(t, [line + "\n"])
            rec = jsonl_lines(res)[0]
            self.assertEqual(rec["spec_decode_status"], "ok")
            self.assertEqual(rec["spec_decode_acceptance"]["engine"], "")
            part = os.path.join(t, "part.jsonl")
            with open(part, "wb") as f:
                f.write(res.out)
            back = jsonl_lines(run(["-q", "-f", "jsonl", part]))
            self.assertEqual(back, [rec])
            res = enriched(t, [line + "\n"], ["--group-by", "engine"], fmt="json")
            rows = json.loads(res.out)["analysis"]["groups"]["rows"]
            self.assertEqual([r["key"] for r in rows], [{"engine": ""}])


if __name__ == "__main__":
    main()
