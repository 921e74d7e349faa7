#!/usr/bin/env python3
"""Seeds for fuzz_scrape: real-looking scrape texts made from the fixture
pages of testdata/server, each after fuzz_scrape's first byte (piece size,
line limit, draft cost): pages before and after a run one after the other,
as a `# time:` scrape loop, in OpenMetrics with `# EOF`, cut short at a
few places, with a counter gone down, every engine's pages in one
stream, and several processes (start times, `# endpoint:`, a restart). Standard library only.

  tests/fuzz/make_scrape_seeds.py OUTDIR
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "testdata", "server")
ENGINES = ["vllm", "trtllm", "llamacpp", "sglang", "vllm_odd_model", "llamacpp_big"]


def read(name):
    with open(os.path.join(SERVER, name), "rb") as f:
        return f.read()


def texts():
    for e in ENGINES:
        before, after = read(e + "_before.prom"), read(e + "_after.prom")
        yield e + "-pair", before + after
        yield e + "-loop", b"# time: 1765039200\n" + before + b"# time: 1765039210.5\n" + after
        yield e + "-three", before + after + before  # a restart: every counter down
        for cut in (len(before) // 3, len(before) + len(after) // 2, len(before) + len(after) - 7):
            yield "%s-cut%d" % (e, cut), (before + after)[:cut]
    # SPEC 10.3's processes: workers by process_start_time_seconds, interleaved and
    # given after first; a restart in a timed loop; workers named by `# endpoint:`
    b, a = read("vllm_before.prom"), read("vllm_after.prom")
    w1, w2 = b"process_start_time_seconds 1.7e9\n", b"process_start_time_seconds 1700000100.25\n"
    yield "workers", w1 + b + w2 + b + w1 + a + w2 + a
    yield "workers-back", w2 + a + w1 + a + w2 + b + w1 + b
    yield "restart", (b"# time: 10\n" + w1 + b + b"# time: 20\n" + w1 + a +
                      b"# time: 30\n" + w2 + b + b"# time: 40\n" + w2 + a)
    yield "endpoints", (b"# endpoint: w1\n" + b + b"# endpoint: w2\n" + a +
                        b"# endpoint: w1\n" + a + b"# endpoint:\n" + b)
    yield "vllm-om", read("vllm_before.om.prom") + read("vllm_after.om.prom")
    yield "scrapes", read("vllm_scrapes.prom")
    yield "all", b"".join(read(e + "_before.prom") for e in ENGINES[:4]) + \
        b"".join(read(e + "_after.prom") for e in ENGINES[:4])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    n = 0
    for name, text in texts():
        # whole, in 1-byte and 7-byte pieces, with a 64-byte line limit and a draft cost
        for sel in (0x07, 0x00, 0x03, 0x08 | 0x06, 0x10 | 0x20 | 0x05):
            with open(os.path.join(out, "seed-%s-%02x" % (name, sel)), "wb") as f:
                f.write(bytes([sel]) + text[:65535])
            n += 1
    print("fuzz: %d scrape seeds" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
