#!/usr/bin/env bash
# specscan benchmark: one run on one corpus, warm page cache.
#
#   bench/run.sh [--size 1G] [--specscan PATH] [--quick] [--seed N] [--repeat N]
#
# Each specscan, wc and zstd command runs N times (default 3); the fastest
# run counts (the machine may be shared).
#
# Generates (or reuses) bench/corpus/raw-SIZE.jsonl and its .zst, times
# specscan and its neighbours on it with /usr/bin/time -v, prints a Markdown
# table (seconds, GB/s of uncompressed input, ratios, peak RSS), checks the
# targets of bench/README.md, and checks that jq's and Python's totals equal
# specscan's.  Exit status: 0 when every command ran and the totals agree
# (a missed target is reported, not an error), 1 otherwise, 2 on usage.
set -euo pipefail

usage() {
	sed -n '2,15s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

size=1G
specscan=
quick=0
repeat=3
seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=${2:?--size needs a value}; shift 2 ;;
	--size=*) size=${1#*=}; shift ;;
	--specscan) specscan=${2:?--specscan needs a path}; shift 2 ;;
	--specscan=*) specscan=${1#*=}; shift ;;
	--quick) quick=1; shift ;;
	--repeat) repeat=${2:?--repeat needs a value}; shift 2 ;;
	--seed) seed=${2:?--seed needs a value}; shift 2 ;;
	--seed=*) seed=${1#*=}; shift ;;
	-h | --help) usage 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
done

die() { echo "run.sh: $*" >&2; exit 1; }

if [ -z "$specscan" ]; then
	for c in ./build/specscan ./specscan; do
		[ -x "$c" ] && { specscan=$c; break; }
	done
fi
[ -n "$specscan" ] && [ -x "$specscan" ] ||
	die "no specscan binary (build it, or pass --specscan PATH)"
[ -x /usr/bin/time ] ||
	die "/usr/bin/time is missing: apt-get install time"
for tool in zstd jq python3 wc; do
	command -v "$tool" >/dev/null || die "$tool is missing"
done

size=$(printf '%s' "$size" | tr a-z A-Z)
corpus=bench/corpus
mkdir -p "$corpus"
name=raw-$size
[ "$seed" = 1 ] || name=$name-s$seed
file=$corpus/$name.jsonl
zst=$file.zst

if [ ! -s "$file" ]; then
	echo "generating $file ($size, seed $seed) ..." >&2
	python3 bench/gen_corpus.py --kind raw --size "$size" --seed "$seed" -o "$file.tmp"
	mv "$file.tmp" "$file"
fi
if [ ! -s "$zst" ] || [ "$file" -nt "$zst" ]; then
	echo "compressing $zst (zstd -1 -T0) ..." >&2
	zstd -1 -T0 -q -f "$file" -o "$zst.tmp"
	mv "$zst.tmp" "$zst"
fi
bytes=$(stat -c %s "$file")

# jq and Python are slow: with --quick they read a tenth of the corpus (whole
# lines), and specscan is run on that slice too for the totals check.
slice=$file
if [ "$quick" -eq 1 ]; then
	slice=$corpus/$name.slice.jsonl
	if [ ! -s "$slice" ] || [ "$file" -nt "$slice" ]; then
		head -c $((bytes / 10)) "$file" | sed '$d' >"$slice.tmp"
		mv "$slice.tmp" "$slice"
	fi
fi
slice_bytes=$(stat -c %s "$slice")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/specscan-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results.tsv
: >"$results"
failed=0

# measure LABEL INPUT_BYTES STDOUT_FILE CMD...: wall time and peak RSS of CMD
measure() {
	local label=$1 in_bytes=$2 out=$3 t0 t1 rc=0 rss best=0 maxrss=0 k
	shift 3
	echo "running: $label (best of $repeat)" >&2
	# The machine is shared: take the fastest of a few runs.
	for ((k = 0; k < repeat; k++)); do
		t0=$(date +%s%N)
		/usr/bin/time -v -o "$tmp/time.txt" "$@" >"$out" || rc=$?
		t1=$(date +%s%N)
		rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
		[ "${rss:-0}" -gt "$maxrss" ] && maxrss=${rss:-0}
		if [ "$best" -eq 0 ] || [ "$((t1 - t0))" -lt "$best" ]; then
			best=$((t1 - t0))
		fi
		[ "$rc" -eq 0 ] || break
	done
	[ "$rc" -eq 0 ] || { echo "run.sh: '$label' exited with status $rc" >&2; failed=1; }
	printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$in_bytes" "$best" "$maxrss" "$rc" >>"$results"
}

# warm the page cache
cat "$file" "$zst" "$slice" >/dev/null

ss=("$specscan" --no-table --no-progress -q)
measure "wc -l" "$bytes" /dev/null wc -l "$file"
measure "zstd -dc" "$bytes" /dev/null zstd -dc "$zst"
measure "specscan -j1" "$bytes" "$tmp/j1.json" "${ss[@]}" -j1 "$file"
measure "specscan -j2" "$bytes" "$tmp/j2.json" "${ss[@]}" -j2 "$file"
measure "specscan -j1 .zst" "$bytes" /dev/null "${ss[@]}" -j1 "$zst"
measure "specscan -j2 .zst" "$bytes" /dev/null "${ss[@]}" -j2 "$zst"
measure "specscan -j2 --records" "$bytes" /dev/null "${ss[@]}" -j2 --force --records "$tmp/records.jsonl" "$file"
rm -f "$tmp/records.jsonl"
ref_json=$tmp/j1.json
if [ "$quick" -eq 1 ]; then
	measure "specscan -j2 (slice)" "$slice_bytes" "$tmp/slice.json" "${ss[@]}" -j2 "$slice"
	ref_json=$tmp/slice.json
fi
# jq and Python take a minute each: one run is plenty to compare with.
saved_repeat=$repeat repeat=1
measure "jq" "$slice_bytes" "$tmp/jq.txt" jq -r -f bench/totals.jq "$slice"
measure "python json" "$slice_bytes" "$tmp/py.txt" python3 bench/totals.py "$slice"
repeat=$saved_repeat

if ! cmp -s "$tmp/j1.json" "$tmp/j2.json"; then
	echo "run.sh: the -j1 and -j2 reports differ" >&2
	failed=1
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
ver=$("$specscan" -V 2>/dev/null | head -n 1 || true)

python3 - "$results" "$tmp/j1.json" "$ref_json" "$tmp/jq.txt" "$tmp/py.txt" \
	"$file" "$slice" "$cpu" "$(nproc)" "$ver" <<'PY' || failed=1
import json, sys

res_path, j1_path, ref_path, jq_path, py_path, file, slice_, cpu, ncpu, ver = sys.argv[1:]
rows = []
for line in open(res_path):
    label, nbytes, ns, rss_kb, rc = line.rstrip("\n").split("\t")
    sec = max(int(ns), 1) / 1e9
    rows.append({"label": label, "bytes": int(nbytes), "s": sec,
                 "gbps": int(nbytes) / sec / 1e9, "rss": int(rss_kb) / 1024.0,
                 "rc": int(rc)})
by = {r["label"]: r for r in rows}
neighbours = [("zstd -dc", "zstd -dc"), ("wc -l", "wc -l"), ("jq", "jq"),
              ("python json", "python")]

print()
print("corpus: %s (%d bytes)%s" % (file, by["wc -l"]["bytes"],
      "" if slice_ == file else "; jq/python/slice runs: %s (%d bytes)"
      % (slice_, by["jq"]["bytes"])))
print("machine: %s, %s CPUs; specscan: %s" % (cpu or "?", ncpu, ver or "?"))
print()
head = ["command", "s", "GB/s"] + ["× " + n for _, n in neighbours] + ["peak RSS MiB"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
for r in rows:
    cells = [r["label"] + ("" if r["rc"] == 0 else " (exit %d)" % r["rc"]),
             "%.2f" % r["s"], "%.3f" % r["gbps"]]
    for key, _ in neighbours:
        if r["label"].startswith("specscan") and key in by:
            cells.append("%.2f" % (r["gbps"] / by[key]["gbps"]))
        else:
            cells.append("")
    cells.append("%.1f" % r["rss"])
    print("| " + " | ".join(cells) + " |")

ok = True

def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("run.sh: cannot read specscan's JSON report %s: %s" % (path, e),
              file=sys.stderr)
        return None

def totals_line(rep):
    def total(tag):
        v = rep.get(tag, {}).get("avg", 0.0)
        return int(v)
    # requests: the profiling-phase ok records with steps (the main
    # results' count), as totals.jq and totals.py count them; the
    # accounting's "ok" also counts warmup requests.
    count = rep.get("spec_decode_steps", {}).get("count", 0)
    return "requests=%d steps=%d accepted=%d drafted=%d" % (
        count, total("total_spec_decode_steps"),
        total("total_accepted_draft_tokens"), total("total_draft_tokens"))

print()
ref = load_report(ref_path)
full = load_report(j1_path)
if ref is None or full is None:
    ok = False
else:
    want = totals_line(ref)
    print("specscan: " + want)
    for name, path in (("jq", jq_path), ("python", py_path)):
        got = open(path).read().strip()
        same = got == want
        ok &= same
        print("%-8s: %s  %s" % (name, got, "agrees" if same else "DIFFERS"))

print()
print("targets (throughput ratios in GB/s of uncompressed input):")
def target(text, value, limit, fmt="%.2f", below=False, strict=False):
    if below:
        met = value < limit if strict else value <= limit
    else:
        met = value > limit if strict else value >= limit
    print("  %-46s %10s  %s" % (text, fmt % value, "met" if met else "MISSED"))

def ratio(a, b):
    return by[a]["gbps"] / by[b]["gbps"]

target(".zst -j1 >= 0.9x zstd -dc", ratio("specscan -j1 .zst", "zstd -dc"), 0.9)
target(".zst -j2 >= 1.0x zstd -dc", ratio("specscan -j2 .zst", "zstd -dc"), 1.0)
target("plain -j2 >= 40x jq", ratio("specscan -j2", "jq"), 40)
target("plain -j2 >= 10x python json", ratio("specscan -j2", "python json"), 10)
target("plain -j2 >= 0.3x wc -l", ratio("specscan -j2", "wc -l"), 0.3)
cost = by["specscan -j2 --records"]["s"] / by["specscan -j2"]["s"] - 1.0
target("enriched JSONL cost <= 30%", cost * 100, 30, "%.0f%%", below=True)
if full is not None:
    n = full["specscan"]["requests"]["total"]
    limit = 64.0 + 64.0 * n / (1024 * 1024)
    peak = max(r["rss"] for r in rows if r["label"].startswith("specscan"))
    target("peak RSS < 64 MiB + 64 B x %d requests" % n, peak, limit,
           "%.1f MiB", below=True, strict=True)
sys.exit(0 if ok else 1)
PY

exit "$failed"
