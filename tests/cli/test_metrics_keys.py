#!/usr/bin/env python3
"""Where a records line's timing keys are found in `metrics` (SPEC 11.1,
1.2) and how their numbers are read, with --speedup: AIPerf's own compact
form is read from the line's text where the key lies, every other form is
walked; both must find the same fields and the same nearest double. Each
expected value is worked out by hand in the table (a time in ms as its
decimal; a unit other than ms converted by hand; None: absent).
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run  # noqa: E402


def vu(value, unit="ms"):
    return '{"value":%s,"unit":"%s"}' % (value, unit)


# (the metrics object's text, request_latency in ms, time_to_first_token
# in ms, output_tokens; None: absent)
LINES = [
    # AIPerf's 17 significant digits, above 2^53: the nearest double
    ('{"request_latency":%s}' % vu("241.63621701857465"), 241.63621701857465, None, None),
    ('{"request_latency":%s,"time_to_first_token":%s}'
     % (vu("0.30000000000000004"), vu("76.3684502281602")),
     0.30000000000000004, 76.3684502281602, None),
    # 2^53 + 1 ms: halfway between two doubles, the even one (2^53)
    ('{"request_latency":%s}' % vu("9007199254740993"), 9007199254740992.0, None, None),
    # 19 digits, and more digits than a double holds (the general reader)
    ('{"request_latency":%s}' % vu("1234567890.123456789"), 1234567890.123456789, None, None),
    ('{"request_latency":%s}' % vu("241.636217018574650000001"), 241.63621701857465, None, None),
    # a repeated key: the last field counts, even when it cannot be read
    ('{"request_latency":%s,"request_latency":%s}' % (vu("1"), vu("2.5", "s")), 2500.0, None, None),
    ('{"request_latency":%s,"request_latency":%s}' % (vu("1"), vu('"2"')), None, None, None),
    ('{"request_latency":%s,"x":1,"request_latency":%s}' % (vu("7"), vu("8")), 8.0, None, None),
    # an escaped key is its decoded name
    ('{"request\\u005flatency":%s}' % vu("7.25"), 7.25, None, None),
    ('{"request_latency":%s,"request\\u005flatency":%s}' % (vu("1"), vu("2")), 2.0, None, None),
    # the key's name inside a nested value or a string is not the key
    ('{"other":{"request_latency":%s},"time_to_first_token":%s}' % (vu("9"), vu("1.5")),
     None, 1.5, None),
    ('{"x":{"value":1,"unit":"request_latency"},"request_latency":%s}' % vu("3"), 3.0, None, None),
    ('{"x":{"value":1,"unit":"\\"request_latency\\":{\\"value\\":5}"}}', None, None, None),
    ('{"x":"\\"request_latency\\":%s","request_latency":%s}'
     % (vu("5").replace('"', '\\"'), vu("6")), 6.0, None, None),
    # values that are not a plain number
    ('{"request_latency":%s}' % vu('"250"'), None, None, None),
    ('{"request_latency":%s}' % vu("2.5e2"), 250.0, None, None),
    ('{"request_latency":%s}' % vu("25E-1", "s"), 2500.0, None, None),
    ('{"request_latency":%s}' % vu("1e400"), None, None, None),
    ('{"request_latency":%s}' % vu("-0"), 0.0, None, None),
    ('{"request_latency":%s}' % vu("-0.0"), 0.0, None, None),
    ('{"request_latency":%s}' % vu("-1.5"), None, None, None),
    ('{"request_latency":%s}' % vu("0.000"), 0.0, None, None),
    ('{"request_latency":%s}' % vu("1500000", "ns"), 1.5, None, None),
    ('{"request_latency":null}', None, None, None),
    # white space anywhere: walked, the same values
    ('{ "request_latency" : {"value":5,"unit":"ms"} }', 5.0, None, None),
    ('{"request_latency":{"value":5 ,"unit":"ms"}}', 5.0, None, None),
    # the output length: an integral value in tokens
    ('{"output_sequence_length":%s}' % vu("150", "tokens"), None, None, 150),
    ('{"output_sequence_length":%s}' % vu("150.0", "tokens"), None, None, 150),
    ('{"output_sequence_length":%s}' % vu("150.5", "tokens"), None, None, None),
    ('{"output_sequence_length":%s}' % vu("150", "ms"), None, None, None),
    ('{"output_sequence_length":%s}' % vu("0", "tokens"), None, None, 0),
    # 10^19 - 1 tokens: its double, 10^19, is not below 2^63
    ('{"output_sequence_length":%s}' % vu("9999999999999999999", "tokens"), None, None, None),
    # each unit AIPerf writes, read in one pass, and units it does not
    ('{"request_latency":%s,"time_to_first_token":%s}' % (vu("250", "us"), vu("0.5", "s")),
     0.25, 500.0, None),
    ('{"request_latency":%s,"time_to_first_token":%s}' % (vu("2", "tokens"), vu("2", "m")),
     None, None, None),
    ('{"request_latency":%s,"time_to_first_token":%s}' % (vu("2", "msx"), vu("2", "MS")),
     None, None, None),
    ('{"request_latency":%s}' % vu("2", "ms\\u0022"), None, None, None),
    # 17 digits, no point: halfway between ...566 and ...568, the even one
    ('{"request_latency":%s}' % vu("12345678901234567"), 12345678901234568.0, None, None),
    # a repeated key read the fast way, then another way, then the fast way
    ('{"request_latency":%s,"request_latency":%s,"request_latency":%s}'
     % (vu("1"), vu("2e0"), vu("3.25", "s")), 3250.0, None, None),
]


class MetricsKeys(Case):
    def check(self, rows):
        self.assertEqual(len(rows), len(LINES))
        for (text, lat, ttft, out), row in zip(LINES, rows):
            self.assertEqual(row["kind"], "records", text)
            for col, want in (("request_latency_ms", lat), ("time_to_first_token_ms", ttft),
                              ("output_tokens", out)):
                got = row[col]
                if want is None:
                    self.assertEqual(got, "", (text, col))
                else:
                    self.assertEqual(float(got), want, (text, col))

    def test_each_line(self):
        with TempDir() as d:
            path = os.path.join(d, "keys.jsonl")
            with open(path, "w") as f:
                for text, _, _, _ in LINES:
                    f.write('{"metadata":{"benchmark_phase":"profiling"},"metrics":'
                            + text + '}\n')
            for jobs in ("-j1", "-j2"):
                res = run([jobs, "-f", "none", "--speedup", "--table-csv", "-", path])
                self.assertRan(res, 0)
                self.check(list(csv.DictReader(io.StringIO(res.text, newline=""))))

    def test_escape_elsewhere_in_the_line(self):
        """A backslash anywhere in the line makes the parser decode keys
        apart from the text: the same values."""
        with TempDir() as d:
            path = os.path.join(d, "keys.jsonl")
            with open(path, "w") as f:
                for text, _, _, _ in LINES:
                    f.write('{"metadata":{"benchmark_phase":"pro\\u0066iling"},"metrics":'
                            + text + '}\n')
            res = run(["-f", "none", "--speedup", "--table-csv", "-", path])
            self.assertRan(res, 0)
            self.check(list(csv.DictReader(io.StringIO(res.text, newline=""))))


if __name__ == "__main__":
    main()
