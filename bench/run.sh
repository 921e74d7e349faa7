#!/usr/bin/env bash
# specscan benchmark: one run on one corpus, warm page cache.
#
#   bench/run.sh [--size 1G] [--specscan PATH] [--quick] [--seed N] [--repeat N]
#                [--shapes raw,records,bodies,sse]
#
# Each specscan, wc and zstd command runs N times (default 3), the commands
# of a shape in turn (round robin); each one's fastest run counts (the
# machine may be shared, and slow spells then fall on all of them alike).
#
# Generates (or reuses) bench/corpus/SHAPE-SIZE.jsonl (.sse for SSE) and its
# .zst for each input shape, times specscan and its neighbours on them with
# /usr/bin/time -v, prints a Markdown table per shape (seconds, GB/s of
# uncompressed input, ratios, peak RSS), checks the targets of
# bench/README.md, and checks that jq's and Python's totals equal specscan's
# on the raw corpus.  Exit status: 0 when every command ran and the totals
# agree (a missed target is reported, not an error), 1 otherwise, 2 on usage.
set -euo pipefail

usage() {
	sed -n '2,17s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

size=1G
specscan=
quick=0
repeat=3
seed=1
shapes=raw,records,bodies,sse
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
	--shapes) shapes=${2:?--shapes needs a value}; shift 2 ;;
	--shapes=*) shapes=${1#*=}; shift ;;
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
IFS=, read -r -a shape_list <<<"$shapes"
for shape in "${shape_list[@]}"; do
	case $shape in
	raw | records | bodies | sse) ;;
	*) echo "run.sh: unknown shape '$shape' (raw, records, bodies, sse)" >&2; exit 2 ;;
	esac
done

# corpus_of SHAPE: generate (or reuse) the shape's corpus and its .zst;
# prints the plain file's path.
corpus_of() {
	local shape=$1 name f ext=jsonl
	[ "$shape" = sse ] && ext=sse
	name=$shape-$size
	[ "$seed" = 1 ] || name=$name-s$seed
	f=$corpus/$name.$ext
	if [ ! -s "$f" ]; then
		echo "generating $f ($size, seed $seed) ..." >&2
		python3 bench/gen_corpus.py --kind "$shape" --size "$size" --seed "$seed" -o "$f.tmp"
		mv "$f.tmp" "$f"
	fi
	if [ ! -s "$f.zst" ] || [ "$f" -nt "$f.zst" ]; then
		echo "compressing $f.zst (zstd -1 -T0) ..." >&2
		zstd -1 -T0 -q -f "$f" -o "$f.zst.tmp"
		mv "$f.zst.tmp" "$f.zst"
	fi
	printf '%s\n' "$f"
}

file=$(corpus_of raw)
name=$(basename "$file" .jsonl)
zst=$file.zst
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

# The shape the next measure() rows belong to.
cur_shape=raw

# measure LABEL INPUT_BYTES STDOUT_FILE CMD...: queue a row of the current
# shape (CMD's stdout goes to STDOUT_FILE); run_rows times the queue.
q_label=() q_bytes=() q_out=() q_cmd=()
measure() {
	local label=$1 in_bytes=$2 out=$3
	shift 3
	q_label+=("$label")
	q_bytes+=("$in_bytes")
	q_out+=("$out")
	q_cmd+=("$(printf '%q ' "$@")")
}

# run_rows: wall time and peak RSS of every queued row, `repeat` rounds of
# one run of each row in turn (round robin, so that a slow spell of a
# shared machine falls on every row alike, not on the row that happened to
# run then); a row's fastest run counts. Then the queue is empty.
run_rows() {
	local n=${#q_label[@]} k r t0 t1 rss
	local -a best maxrss rc

	for ((k = 0; k < n; k++)); do
		best[k]=0 maxrss[k]=0 rc[k]=0
		echo "running: $cur_shape: ${q_label[k]} (best of $repeat, round robin)" >&2
	done
	for ((r = 0; r < repeat; r++)); do
		for ((k = 0; k < n; k++)); do
			[ "${rc[k]}" -eq 0 ] || continue
			t0=$(date +%s%N)
			eval "/usr/bin/time -v -o \"\$tmp/time.txt\" ${q_cmd[k]}" >"${q_out[k]}" ||
				rc[k]=$?
			t1=$(date +%s%N)
			rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' \
				"$tmp/time.txt")
			[ "${rss:-0}" -gt "${maxrss[k]}" ] && maxrss[k]=${rss:-0}
			if [ "${best[k]}" -eq 0 ] || [ "$((t1 - t0))" -lt "${best[k]}" ]; then
				best[k]=$((t1 - t0))
			fi
		done
	done
	for ((k = 0; k < n; k++)); do
		if [ "${rc[k]}" -ne 0 ]; then
			echo "run.sh: '${q_label[k]}' exited with status ${rc[k]}" >&2
			failed=1
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cur_shape" "${q_label[k]}" "${q_bytes[k]}" \
			"${best[k]}" "${maxrss[k]}" "${rc[k]}" >>"$results"
	done
	q_label=() q_bytes=() q_out=() q_cmd=()
}

ss=("$specscan" --no-table --no-progress -q)
# raw: the full set of rows; jq and Python only here.
cat "$file" "$zst" "$slice" >/dev/null   # warm the page cache
measure "wc -l" "$bytes" /dev/null wc -l "$file"
measure "zstd -dc" "$bytes" /dev/null zstd -dc "$zst"
measure "specscan -j1" "$bytes" "$tmp/j1.json" "${ss[@]}" -j1 "$file"
measure "specscan -j2" "$bytes" "$tmp/j2.json" "${ss[@]}" -j2 "$file"
measure "specscan" "$bytes" "$tmp/jd.json" "${ss[@]}" "$file"
measure "specscan -j1 .zst" "$bytes" /dev/null "${ss[@]}" -j1 "$zst"
measure "specscan -j2 .zst" "$bytes" /dev/null "${ss[@]}" -j2 "$zst"
measure "specscan .zst" "$bytes" "$tmp/jdz.json" "${ss[@]}" "$zst"
measure "specscan --records" "$bytes" /dev/null "${ss[@]}" --force --records "$tmp/records.jsonl" "$file"
ref_json=$tmp/j1.json
if [ "$quick" -eq 1 ]; then
	measure "specscan (slice)" "$slice_bytes" "$tmp/slice.json" "${ss[@]}" "$slice"
	ref_json=$tmp/slice.json
fi
run_rows
rm -f "$tmp/records.jsonl"
# jq and Python take a minute each: one run is plenty to compare with.
saved_repeat=$repeat repeat=1
measure "jq" "$slice_bytes" "$tmp/jq.txt" jq -r -f bench/totals.jq "$slice"
measure "python json" "$slice_bytes" "$tmp/py.txt" python3 bench/totals.py "$slice"
run_rows
repeat=$saved_repeat

# same_report A B: the reports are identical but for B's input name ending
# in .zst.
same_report() {
	sed 's/\.zst",$/",/' "$2" | cmp -s "$1" -
}

for f in "$tmp/j2.json" "$tmp/jd.json" "$tmp/jdz.json"; do
	if ! same_report "$tmp/j1.json" "$f"; then
		echo "run.sh: the raw reports of -j1 and $(basename "$f" .json) differ" >&2
		failed=1
	fi
done

# The other shapes: their floors and specscan at -j1 and the default -j.
# Their expected request count goes to $tmp/SHAPE.count: lines for JSONL,
# streams ([DONE] events) for SSE.
for shape in "${shape_list[@]}"; do
	[ "$shape" = raw ] && continue
	f=$(corpus_of "$shape")
	n=$(stat -c %s "$f")
	if [ "$shape" = sse ]; then
		grep -c '^data: \[DONE\]' "$f" >"$tmp/$shape.count"
	else
		wc -l <"$f" >"$tmp/$shape.count"
	fi
	cur_shape=$shape
	cat "$f" "$f.zst" >/dev/null
	measure "wc -l" "$n" /dev/null wc -l "$f"
	measure "zstd -dc" "$n" /dev/null zstd -dc "$f.zst"
	measure "specscan -j1" "$n" "$tmp/$shape-j1.json" "${ss[@]}" -j1 "$f"
	measure "specscan" "$n" "$tmp/$shape-jd.json" "${ss[@]}" "$f"
	measure "specscan .zst" "$n" "$tmp/$shape-jdz.json" "${ss[@]}" "$f.zst"
	run_rows
	for g in "$tmp/$shape-jd.json" "$tmp/$shape-jdz.json"; do
		if ! same_report "$tmp/$shape-j1.json" "$g"; then
			echo "run.sh: the $shape reports of -j1 and $(basename "$g" .json) differ" >&2
			failed=1
		fi
	done
done
cur_shape=raw

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
ver=$("$specscan" -V 2>/dev/null | head -n 1 || true)

python3 - "$results" "$tmp" "$ref_json" "$file" "$slice" "$cpu" "$(nproc)" \
	"$(nproc --all)" "$ver" <<'PY' || failed=1
import json, os, sys

res_path, tmp, ref_path, file, slice_, cpu, ncpu, nall, ver = sys.argv[1:]
j1_path = os.path.join(tmp, "j1.json")
jq_path = os.path.join(tmp, "jq.txt")
py_path = os.path.join(tmp, "py.txt")
rows = []
for line in open(res_path):
    shape, label, nbytes, ns, rss_kb, rc = line.rstrip("\n").split("\t")
    sec = max(int(ns), 1) / 1e9
    rows.append({"shape": shape, "label": label, "bytes": int(nbytes), "s": sec,
                 "gbps": int(nbytes) / sec / 1e9, "rss": int(rss_kb) / 1024.0,
                 "rc": int(rc)})
shapes = []
for r in rows:
    if r["shape"] not in shapes:
        shapes.append(r["shape"])
# by[shape][label]
by = {s: {r["label"]: r for r in rows if r["shape"] == s} for s in shapes}
raw = by["raw"]
titles = {"raw": "AIPerf raw (profile_export_raw.jsonl)",
          "records": "AIPerf records (profile_export.jsonl)",
          "bodies": "response bodies (JSONL)", "sse": "SSE capture"}

print()
print("raw corpus: %s (%d bytes)%s" % (file, raw["wc -l"]["bytes"],
      "" if slice_ == file else "; jq/python/slice runs: %s (%d bytes)"
      % (slice_, raw["jq"]["bytes"])))
print("machine: %s, %s CPUs usable (%s online); specscan: %s"
      % (cpu or "?", ncpu, nall, ver or "?"))
print("\"specscan\" rows run at the default thread count.")
for shape in shapes:
    rs = [r for r in rows if r["shape"] == shape]
    neighbours = [("zstd -dc", "zstd -dc"), ("wc -l", "wc -l")]
    if shape == "raw":
        neighbours += [("jq", "jq"), ("python json", "python")]
    print()
    print("%s, %.0f MB:" % (titles.get(shape, shape), by[shape]["wc -l"]["bytes"] / 1e6))
    print()
    head = ["command", "s", "GB/s"] + ["× " + n for _, n in neighbours] + ["peak RSS MiB"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    for r in rs:
        cells = [r["label"] + ("" if r["rc"] == 0 else " (exit %d)" % r["rc"]),
                 "%.2f" % r["s"], "%.3f" % r["gbps"]]
        for key, _ in neighbours:
            if r["label"].startswith("specscan") and key in by[shape]:
                cells.append("%.2f" % (r["gbps"] / by[shape][key]["gbps"]))
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

def ratio(a, b, shape="raw"):
    return by[shape][a]["gbps"] / by[shape][b]["gbps"]

target("raw .zst >= 1.0x zstd -dc (goal 1.2x)", ratio("specscan .zst", "zstd -dc"), 1.0)
target("raw .zst -j1 >= 0.9x zstd -dc", ratio("specscan -j1 .zst", "zstd -dc"), 0.9)
target("raw plain >= 0.45x wc -l", ratio("specscan", "wc -l"), 0.45)
target("raw plain >= 50x jq", ratio("specscan", "jq"), 50)
target("raw plain >= 10x python json", ratio("specscan", "python json"), 10)
cost = raw["specscan --records"]["s"] / raw["specscan"]["s"] - 1.0
target("enriched JSONL cost <= 30%", cost * 100, 30, "%.0f%%", below=True)
for shape in shapes:
    if shape == "raw":
        continue
    target("%s plain >= 0.3x wc -l" % shape, ratio("specscan", "wc -l", shape), 0.3)

# Peak RSS against each corpus's own request count.
def check_rss(shape, report):
    n = report["specscan"]["requests"]["total"]
    limit = 64.0 + 64.0 * n / (1024 * 1024)
    peak = max(r["rss"] for r in rows
               if r["shape"] == shape and r["label"].startswith("specscan"))
    target("%s peak RSS < 64 MiB + 64 B x %d requests" % (shape, n), peak, limit,
           "%.1f MiB", below=True, strict=True)

if full is not None:
    check_rss("raw", full)
for shape in shapes:
    if shape == "raw":
        continue
    rep = load_report(os.path.join(tmp, shape + "-j1.json"))
    if rep is None:
        ok = False
        continue
    check_rss(shape, rep)
    # Every line (stream) is one request: a cheap check that nothing was lost.
    want = int(open(os.path.join(tmp, shape + ".count")).read().split()[0])
    got = rep["specscan"]["requests"]["total"]
    if got != want:
        print("run.sh: %s: specscan counted %d requests, the corpus has %d"
              % (shape, got, want), file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY

exit "$failed"
