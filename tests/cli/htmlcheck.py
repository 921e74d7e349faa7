#!/usr/bin/env python3
"""Check an HTML report in a real browser: Debian's headless Chromium.

    htmlcheck.py PAGE.html [--svgs N] [--svg-title TEXT ...] [--png OUT.png]

Starts /usr/bin/chromium (never a downloaded browser) with a fresh profile,
talks to it over the DevTools protocol on a pipe (--remote-debugging-pipe:
file descriptors 3 and 4, messages separated by NUL bytes, so no WebSocket
and no port), loads the page from a file:// URL in a 1280x900 window and
checks:

  - no console error, no uncaught exception, no error in the browser log;
  - no request for anything but the page itself (DevTools Network events
    and performance.getEntriesByType('resource'));
  - the SVG charts in the DOM (their number and titles, when asked), each
    with role="img", a <title> and a <desc>;
  - no two texts of a chart overlap, as the browser lays them out (each
    text's box through its transform, a separating-axis test per pair);
  - the page does not scroll horizontally at 1280 px;
  - a 1280x900 screenshot is not blank: the PNG is decoded here (zlib and
    the five PNG row filters written out) and must have enough non-white
    pixels and more than a few distinct colours.

The screenshot is kept at --png (and the whole page at OUT-full.png) so a
developer can look at it.  Used as a module by the whole-program tests
(check_page) and as a command for a look by hand.  Exit status: 0 pass,
1 fail, 77 when Chromium is not installed (automake's SKIP).

Every browser is started by this script in its own process group and ended
by its pid, with a timeout; its log is printed when something fails.
"""

import base64
import json
import os
import select
import shutil
import signal
import struct
import sys
import tempfile
import time
import zlib

CHROMIUM = os.environ.get("SPECSCAN_CHROMIUM", "/usr/bin/chromium")
WIDTH, HEIGHT = 1280, 900
TIMEOUT = float(os.environ.get("SPECSCAN_BROWSER_TIMEOUT", "60"))

SKIP = 77


class BrowserMissing(Exception):
    pass


class BrowserError(Exception):
    pass


def chromium_path():
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        raise BrowserMissing("%s not found (Debian package 'chromium')" % CHROMIUM)
    return CHROMIUM


class Browser:
    """One headless Chromium, driven over --remote-debugging-pipe."""

    def __init__(self):
        exe = chromium_path()
        self.profile = tempfile.mkdtemp(prefix="specscan-chromium-")
        self.log_path = os.path.join(self.profile, "browser.log")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        args = [
            exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-dev-shm-usage",
            "--disable-features=Translate,MediaRouter,OptimizationHints",
            "--metrics-recording-only", "--mute-audio", "--hide-scrollbars",
            # Nothing may reach the network, even by mistake: every host
            # name resolves to nothing.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--force-device-scale-factor=1",
            "--window-size=%d,%d" % (WIDTH, HEIGHT),
            "--user-data-dir=" + self.profile,
            "--remote-debugging-pipe", "about:blank",
        ]
        actions = [
            (os.POSIX_SPAWN_DUP2, to_child_r, 3),
            (os.POSIX_SPAWN_DUP2, from_child_w, 4),
            (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, self.log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
            (os.POSIX_SPAWN_DUP2, 1, 2),
        ]
        env = dict(os.environ)
        env.pop("DISPLAY", None)
        env["HOME"] = self.profile  # the launcher looks under $HOME
        env["LANG"] = env["LC_ALL"] = "C.UTF-8"
        try:
            self.pid = os.posix_spawn(exe, args, env, file_actions=actions, setpgroup=0)
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self.pending = b""
        self.next_id = 0
        self.events = []

    # -- the protocol ----------------------------------------------------

    def _read_message(self, deadline):
        while b"\0" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for the browser")
            ready, _, _ = select.select([self.from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed its DevTools pipe")
            self.pending += chunk
        msg, self.pending = self.pending.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=TIMEOUT):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self.to_child, data)
            data = data[n:]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == mid:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method, session=None, timeout=TIMEOUT):
        for ev in self.events:
            if ev["method"] == method and ev.get("sessionId") == session:
                return ev
        deadline = time.monotonic() + timeout
        while True:
            ev = self._read_message(deadline)
            if "method" in ev:
                self.events.append(ev)
                if ev["method"] == method and ev.get("sessionId") == session:
                    return ev

    # -- life cycle ------------------------------------------------------

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def close(self):
        try:
            try:
                self.call("Browser.close", timeout=5)
            except (BrowserError, OSError):
                pass
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                pid, _ = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    break
                time.sleep(0.05)
            else:
                # Still there: end its process group (it is ours: setpgroup).
                try:
                    os.killpg(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(self.pid, 0)
            # Helpers of the browser (zygote, renderers) left behind.
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        finally:
            for fd in (self.to_child, self.from_child):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def cleanup(self):
        shutil.rmtree(self.profile, ignore_errors=True)


# -- PNG -------------------------------------------------------------------

def png_decode(data):
    """(width, height, channels, rows) of an 8-bit non-interlaced PNG,
    rows as bytearrays of width*channels bytes."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    width, height, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d, interlace %d)"
                         % (depth, ctype, interlace))
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    bpp = channels
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:  # Sub
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 0xFF
        elif ftype == 2:  # Up
            row = bytearray((a + b) & 0xFF for a, b in zip(row, prev))
        elif ftype == 3:  # Average
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:  # Paeth
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                if pa <= pb and pa <= pc:
                    pred = a
                elif pb <= pc:
                    pred = b
                else:
                    pred = c
                row[i] = (row[i] + pred) & 0xFF
        elif ftype != 0:
            raise ValueError("bad PNG filter %d" % ftype)
        rows.append(row)
        prev = row
    return width, height, channels, rows


def png_stats(data):
    """Size, share of non-white pixels, distinct colours and the grey-level
    standard deviation of a screenshot."""
    width, height, channels, rows = png_decode(data)
    nonwhite, colours, total = 0, set(), width * height
    s = s2 = 0
    for row in rows:
        for x in range(0, width * channels, channels):
            px = bytes(row[x:x + min(channels, 3)])
            if len(colours) < 4096:
                colours.add(px)
            grey = sum(px) // len(px)
            s += grey
            s2 += grey * grey
            if grey < 245:
                nonwhite += 1
    mean = s / total
    return {
        "width": width, "height": height,
        "nonwhite": nonwhite / total,
        "colours": len(colours),
        "std": max(0.0, s2 / total - mean * mean) ** 0.5,
    }


# -- the check -------------------------------------------------------------

PROBE = r"""(() => {
  const svgs = Array.from(document.querySelectorAll('svg'));
  // Every text of every chart as the quadrilateral it covers on screen
  // (its box in its own frame, through its transform), then a separating
  // axis test between each pair of the same chart: real font, real layout.
  const quad = t => {
    const b = t.getBBox(), m = t.getCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
            [b.x, b.y + b.height]].map(([x, y]) =>
      [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const apart = (p, q) => {
    for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
      const nx = y1 - y2, ny = x2 - x1;
      const proj = r => r.map(([x, y]) => x * nx + y * ny);
      const a = proj(p), c = proj(q);
      // half a pixel of slack: glyph boxes include some side bearing
      const tol = 0.5 * Math.hypot(nx, ny);
      if (Math.max(...a) <= Math.min(...c) + tol || Math.max(...c) <= Math.min(...a) + tol) return true;
    }
    return false;
  };
  const overlaps = [];
  svgs.forEach((s, si) => {
    const ts = Array.from(s.querySelectorAll('text')).filter(t => t.textContent.trim() !== '');
    const qs = ts.map(quad);
    for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++)
      if (!apart(qs[i], qs[j]))
        overlaps.push([si, ts[i].textContent.slice(0, 40), ts[j].textContent.slice(0, 40)]);
  });
  return JSON.stringify({
    overlaps: overlaps,
    title: document.title,
    resources: performance.getEntriesByType('resource').length,
    resource_names: performance.getEntriesByType('resource').map(e => e.name),
    svgs: svgs.length,
    svg_titles: svgs.map(s => { const t = s.querySelector(':scope > title'); return t ? t.textContent : null; }),
    svg_roles: svgs.map(s => s.getAttribute('role')),
    svg_desc: svgs.map(s => !!s.querySelector(':scope > desc')),
    scroll_width: document.documentElement.scrollWidth,
    inner_width: window.innerWidth,
    body_height: document.documentElement.scrollHeight,
    scripts: document.querySelectorAll('script').length
  });
})()"""


def check_page(path, png=None, svgs=None, svg_titles=(), full_png=True):
    """Load `path` and check it.  Returns (problems, facts): problems is a list
    of texts (empty when the page passed), facts what the browser reported.
    Raises BrowserMissing when there is no Chromium."""
    path = os.path.abspath(path)
    url = "file://" + path
    problems = []
    browser = Browser()
    facts = {}
    try:
        target = None
        deadline = time.monotonic() + TIMEOUT
        while target is None:
            targets = browser.call("Target.getTargets")["targetInfos"]
            pages = [t for t in targets if t["type"] == "page"]
            if pages:
                target = pages[0]["targetId"]
            elif time.monotonic() > deadline:
                raise BrowserError("no page target")
            else:
                time.sleep(0.05)
        sess = browser.call("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            browser.call(m, session=sess)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                      "mobile": False}, session=sess)
        browser.events = []  # about:blank's own events are not the page's
        browser.call("Page.navigate", {"url": url}, session=sess)
        browser.wait_event("Page.loadEventFired", session=sess)
        # Let late console messages and requests arrive.
        browser.call("Runtime.evaluate", {"expression": "1"}, session=sess)
        res = browser.call("Runtime.evaluate",
                           {"expression": PROBE, "returnByValue": True}, session=sess)
        facts = json.loads(res["result"]["value"])
        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=sess)
        shot_png = base64.b64decode(shot["data"])
        full = None
        if full_png:
            metrics = browser.call("Page.getLayoutMetrics", session=sess)
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            h = min(int(size["height"] + 0.5), 12000)
            full = browser.call("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": WIDTH, "height": h, "scale": 1}},
                session=sess)
            full = base64.b64decode(full["data"])

        for ev in browser.events:
            m, p = ev["method"], ev.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                problems.append("console %s: %s" % (p["type"], json.dumps(p.get("args"))[:300]))
            elif m == "Runtime.exceptionThrown":
                problems.append("uncaught exception: %s" % json.dumps(p)[:300])
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                problems.append("browser log error: %s" % p["entry"].get("text"))
            elif m == "Network.requestWillBeSent":
                req = p["request"]["url"]
                if req != url:
                    problems.append("network request: %s" % req[:200])
        if facts["resources"]:
            problems.append("resource entries: %s" % facts["resource_names"])
        for si, t1, t2 in facts["overlaps"]:
            problems.append("SVG %d: text %r overlaps %r" % (si, t1, t2))
        if facts["scroll_width"] > facts["inner_width"]:
            problems.append("horizontal scrolling: page is %d px wide in a %d px window"
                            % (facts["scroll_width"], facts["inner_width"]))
        if svgs is not None and facts["svgs"] != svgs:
            problems.append("%d SVG charts, expected %d" % (facts["svgs"], svgs))
        for t in svg_titles:
            if t not in facts["svg_titles"]:
                problems.append("no chart titled %r (have %r)" % (t, facts["svg_titles"]))
        for i, (role, desc, title) in enumerate(zip(facts["svg_roles"], facts["svg_desc"],
                                                    facts["svg_titles"])):
            if role != "img" or not desc or not title:
                problems.append("SVG %d lacks role=img, <title> or <desc>" % i)

        st = png_stats(shot_png)
        facts["screenshot"] = st
        if (st["width"], st["height"]) != (WIDTH, HEIGHT):
            problems.append("screenshot is %dx%d" % (st["width"], st["height"]))
        if st["nonwhite"] < 0.02 or st["colours"] < 8 or st["std"] < 5:
            problems.append("screenshot looks blank: %r" % st)
        if png:
            os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
            with open(png, "wb") as f:
                f.write(shot_png)
            if full:
                with open(png[:-4] + "-full.png", "wb") as f:
                    f.write(full)
    except BrowserError as e:
        problems.append("browser: %s" % e)
    finally:
        browser.close()
        if problems:
            # the sandbox-less browser complains about D-Bus: not ours
            log = "\n".join(l for l in browser.log().split("\n") if "dbus" not in l)
            problems.append("--- browser log ---\n" + log[-4000:])
        browser.cleanup()
    return problems, facts


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page")
    ap.add_argument("--svgs", type=int, help="expected number of <svg> elements")
    ap.add_argument("--svg-title", action="append", default=[], help="an expected chart title")
    ap.add_argument("--png", help="where to keep the 1280x900 screenshot")
    args = ap.parse_args(argv)
    try:
        problems, facts = check_page(args.page, png=args.png, svgs=args.svgs,
                                     svg_titles=args.svg_title)
    except BrowserMissing as e:
        print("htmlcheck: SKIP: %s" % e, file=sys.stderr)
        return SKIP
    print(json.dumps({k: v for k, v in facts.items() if k != "resource_names"}, indent=1))
    for p in problems:
        print("htmlcheck: %s" % p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
