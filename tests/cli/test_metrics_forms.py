#!/usr/bin/env python3
"""A records line's timing metrics (SPEC 11.1) read the same whatever the
spelling of each {value, unit} object: AIPerf's own compact form (read from
the object's text) and every other form of the same JSON (visited), with
--speedup, as the flat table's request_latency_ms shows them. Expected
values are worked out by hand in the table below.
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run  # noqa: E402

# (request_latency's JSON text as written, its ms by hand; None: absent)
FORMS = [
    ('{"value":250,"unit":"ms"}', 250.0),             # AIPerf's compact form
    ('{"value":0.25,"unit":"s"}', 250.0),
    ('{"value":2.5e2,"unit":"ms"}', 250.0),
    ('{"value":-0,"unit":"ms"}', 0.0),
    ('{"unit":"ms","value":250}', 250.0),             # keys the other way
    ('{"value" : 250 , "unit" : "ms"}', 250.0),       # white space
    ('{ "value":250,"unit":"ms" }', 250.0),
    ('{"value":250,"unit":"m\\u0073"}', 250.0),       # an escaped unit: "ms"
    ('{"value":1,"unit":"ms","value":2}', 2.0),       # a repeated key: the last
    ('{"value":250,"unit":"ms","unit":"s"}', 250000.0),
    ('{"value":250,"unit":"ms","x":1}', 250.0),       # another key
    ('{"value":"250","unit":"ms"}', None),            # a string value
    ('{"value":1e400,"unit":"ms"}', None),            # out of the double range
    ('{"value":-5,"unit":"ms"}', None),               # negative
    ('{"value":250,"unit":""}', None),                # no unit
    ('{"value":250,"unit":"ms\\""}', None),           # the unit ms"
    ('{"value":{"a":1},"unit":"ms"}', None),          # an object value
    ('{"value":[1,2],"unit":"ms"}', None),
    ('{"value":250}', None),
    ('{"unit":"ms"}', None),
    ('{}', None),
    ('250', None),                                    # not an object
]


class MetricsForms(Case):
    def test_each_form(self):
        with TempDir() as d:
            path = os.path.join(d, "forms.jsonl")
            with open(path, "w") as f:
                for text, _ in FORMS:
                    f.write('{"metadata":{"benchmark_phase":"profiling"},'
                            '"metrics":{"request_latency":' + text + '}}\n')
                # a repeated metrics key: the last object's times only
                f.write('{"metadata":{},"metrics":{"request_latency":'
                        '{"value":1,"unit":"s"}},"metrics":{"time_to_first_token":'
                        '{"value":3,"unit":"ms"}}}\n')
            res = run(["-f", "none", "--speedup", "--table-csv", "-", path])
            self.assertRan(res, 0)
            rows = list(csv.DictReader(io.StringIO(res.text, newline="")))
            self.assertEqual(len(rows), len(FORMS) + 1)
            for (text, want), row in zip(FORMS, rows):
                self.assertEqual(row["kind"], "records", text)
                got = row["request_latency_ms"]
                if want is None:
                    self.assertEqual(got, "", text)
                else:
                    self.assertEqual(float(got), want, text)
            last = rows[-1]
            self.assertEqual(last["request_latency_ms"], "")
            self.assertEqual(float(last["time_to_first_token_ms"]), 3.0)


if __name__ == "__main__":
    main()
