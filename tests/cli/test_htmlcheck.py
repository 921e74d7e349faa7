#!/usr/bin/env python3
"""The browser harness itself (tests/cli/htmlcheck.py) and the chart module
in a real browser.

- The PNG decoder of the harness reads back images written here with each of
  the five row filters (filtered by an encoder written independently below).
- A hand-written page with two SVG charts passes; a page with a console error,
  a missing stylesheet, a remote image and a too-wide block fails, naming each.
- The page of tests/tools/chart_demo (one chart of each kind: bars, lines,
  histogram, 20 groups with long and hostile names, one group) loads with no
  console error and no request, has its six charts with titles, and its
  1280x900 screenshot is not blank.  The screenshot is kept at
  <build>/test-artifacts/html/chart_demo.png (and chart_demo-full.png).

Skips (77) when /usr/bin/chromium is missing.
"""

import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import htmlcheck  # noqa: E402
from sslib import SPECSCAN, Case, TempDir, main, td  # noqa: E402

BUILD = os.path.dirname(os.path.abspath(SPECSCAN))
ARTIFACTS = os.environ.get("SPECSCAN_ARTIFACTS") or os.path.join(BUILD, "test-artifacts", "html")


def png_encode(width, height, pixels, filters):
    """An RGB PNG; row y filtered with filters[y]; pixels[y] a list of bytes."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    raw = b""
    prev = bytes(width * 3)
    for y in range(height):
        row = bytes(pixels[y])
        f = filters[y]
        out = bytearray()
        for i, x in enumerate(row):
            a = row[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out.append((x - pred) % 256)
        raw += bytes([f]) + bytes(out)
        prev = row
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Harness(Case):
    def test_png_decoder(self):
        w, h = 4, 5
        pixels = [[(x * 53 + y * 97 + c * 31) % 256 for x in range(w) for c in range(3)]
                  for y in range(h)]
        data = png_encode(w, h, pixels, [0, 1, 2, 3, 4])
        width, height, channels, rows = htmlcheck.png_decode(data)
        self.assertEqual((width, height, channels), (w, h, 3))
        self.assertEqual([list(r) for r in rows], pixels)
        # all white: no non-white pixel, one colour, no spread
        white = png_encode(3, 2, [[255] * 9, [255] * 9], [0, 2])
        st = htmlcheck.png_stats(white)
        self.assertEqual((st["nonwhite"], st["colours"], st["std"]), (0.0, 1, 0.0))

    def browser_or_skip(self):
        try:
            htmlcheck.chromium_path()
        except htmlcheck.BrowserMissing as e:
            self.skipTest(str(e))

    def test_good_page(self):
        self.browser_or_skip()
        problems, facts = htmlcheck.check_page(td("html", "sample.html"), svgs=2,
                                               svg_titles=["Bars", "Line"], full_png=False)
        self.assertEqual(problems, [])
        self.assertEqual(facts["svg_titles"], ["Bars", "Line"])
        self.assertEqual(facts["resources"], 0)

    def test_bad_page(self):
        self.browser_or_skip()
        problems, _ = htmlcheck.check_page(td("html", "bad.html"), svgs=1, full_png=False)
        text = "\n".join(problems)
        self.assertIn("console error", text)
        self.assertIn("network request: http://example.invalid/x.png", text)
        self.assertIn("missing.css", text)
        self.assertIn("horizontal scrolling", text)
        self.assertIn("0 SVG charts, expected 1", text)

    def test_chart_demo(self):
        self.browser_or_skip()
        demo = os.path.join(BUILD, "tests", "tools", "chart_demo")
        if not os.path.exists(demo):
            self.skipTest("tests/tools/chart_demo is not built")
        with TempDir() as tmp:
            page = os.path.join(tmp, "chart_demo.html")
            with open(page, "wb") as f:
                f.write(subprocess.run([demo], check=True, stdout=subprocess.PIPE).stdout)
            with open(page, encoding="utf-8") as f:
                html = f.read()
            # the hostile group name is text, never markup
            self.assertNotIn("<script", html)
            self.assertIn("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;", html)
            titles = ["Accepted drafts per step", "Acceptance by position (k=4)",
                      "If the draft were shorter (k=4)", "Acceptance length per request",
                      "Acceptance length by input (95% intervals)",
                      "Acceptance length, one group"]
            problems, facts = htmlcheck.check_page(
                page, png=os.path.join(ARTIFACTS, "chart_demo.png"), svgs=6,
                svg_titles=titles)
            self.assertEqual(problems, [])
            self.assertEqual(facts["svg_titles"], titles)
            self.assertEqual(facts["scripts"], 0)


if __name__ == "__main__":
    try:
        htmlcheck.chromium_path()
    except htmlcheck.BrowserMissing as e:
        print("SKIP: %s" % e, file=sys.stderr)
        sys.exit(77)
    main()
