#!/bin/sh
# Run the unit tests, the fuzz-regression replays and a few whole-program
# runs under valgrind (memcheck): any error or definite/indirect leak fails.
# Not part of `make check` (slow); run it from the build directory after
# `make check` built the programs, e.g. `make check-valgrind`.
#
#   tests/valgrind.sh            (SPECSCAN, srcdir: as in make check)
set -eu
src=${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${SPECSCAN:-./specscan}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }

vg() {
	valgrind -q --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		--track-origins=yes "$@"
}

status=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*" >&2; status=1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/specscan-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for t in tests/unit/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	if vg "$t" >"$tmp/out" 2>&1; then pass "$t"; else fail "$t"; tail -n 40 "$tmp/out" >&2; fi
done

for t in tests/fuzz/replay_*; do
	[ -x "$t" ] || continue
	name=fuzz_${t##*/replay_}
	set --
	[ -d "$src/testdata" ] && set -- "$src/testdata"
	[ -d "$src/tests/fuzz/regressions/$name" ] && set -- "$@" "$src/tests/fuzz/regressions/$name"
	if vg "$t" "$@" >"$tmp/out" 2>&1; then pass "$t"; else fail "$t"; tail -n 40 "$tmp/out" >&2; fi
done

# Whole-program runs: plain, gzip, tar, SSE, a bad line of each kind, a
# failing input, every output, several threads.
python3 - "$tmp" <<'EOF'
import gzip, io, os, sys, tarfile
d = sys.argv[1]
sd = ('{"acceptance_histogram":[1,2],"num_spec_steps":3,"mean_acceptance_length":1.6666666666666667,'
      '"draft_acceptance_rate":0.5,"num_accepted_draft_tokens":2,"num_draft_tokens":4}')
good = '{"choices":[{"text":"x"}],"metrics":{"speculative_decoding":%s}}\n' % sd
lines = good * 50 + '{"choices":[\n' + '{"x":1}\n' + good.replace('[1,2]', '[1,3]') + '\xff\n'
open(os.path.join(d, "a.jsonl"), "w", encoding="latin-1").write(lines)
open(os.path.join(d, "a.jsonl.gz"), "wb").write(gzip.compress(lines.encode("latin-1")))
open(os.path.join(d, "cut.gz"), "wb").write(gzip.compress(lines.encode("latin-1"))[:300])
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    for name in ("r/profile_export.jsonl", "x.jsonl"):
        data = good.encode() * 3
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
open(os.path.join(d, "a.tar"), "wb").write(buf.getvalue())
open(os.path.join(d, "a.sse"), "w").write(
    'data: {"choices":[{"delta":{"content":"a"}}]}\n\n'
    'data: {"choices":[],"timings":{"draft_n":4,"draft_n_accepted":3}}\n\ndata: [DONE]\n\n')
EOF
run_cli() { # expected-status args...
	want=$1
	shift
	rc=0
	vg "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ]; then pass "specscan $*"; else
		fail "specscan $* (exit $rc, want $want)"; tail -n 40 "$tmp/err" >&2; fi
}
run_cli 0 -j 3 -f table "$tmp/a.jsonl" "$tmp/a.jsonl.gz" "$tmp/a.tar" "$tmp/a.sse"
run_cli 1 -o "$tmp/out.d" "$tmp/a.jsonl" "$tmp/cut.gz" "$tmp/missing"
run_cli 0 -j 1 -f jsonl --max-record-size 100 "$tmp/a.jsonl"
run_cli 0 -f csv --phase all --engine vllm - <"$tmp/a.jsonl"
run_cli 3 --json /dev/full "$tmp/a.jsonl"
exit $status
