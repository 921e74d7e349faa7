#!/usr/bin/env bash
# The cost of merging partial results (SPEC 8): is reading specscan's own
# per-request JSONL (the partials that shards write) at least as fast, per
# byte, as reading AIPerf records traces (profile_export.jsonl)?
#
#   bench/merge.sh [--size 200M] [--shards 4] [--specscan PATH] [--repeat N]
#
# Generates (or reuses) bench/corpus/records-SIZE.jsonl (gen_corpus.py
# --kind records), writes its partials with `specscan --shard I/N -f none
# --records part-I.jsonl` (and .jsonl.zst), then times, best of N runs
# (default 3), `specscan -j2` reading the records file and reading the N
# partials (plain, then zstd-compressed), and prints seconds, GB/s of
# uncompressed input and the ratio to the records row. It checks that the
# merged report equals the report of the records file, byte for byte.
# Exit status: 0 when everything ran and the reports agree (a missed
# target is reported, not an error), 1 otherwise, 2 on usage.
set -euo pipefail

usage() {
	sed -n '2,16s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

size=200M shards=4 specscan= repeat=3
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=${2:?--size needs a value}; shift 2 ;;
	--shards) shards=${2:?--shards needs a value}; shift 2 ;;
	--specscan) specscan=${2:?--specscan needs a path}; shift 2 ;;
	--repeat) repeat=${2:?--repeat needs a value}; shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "merge.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
done
die() { echo "merge.sh: $*" >&2; exit 1; }
if [ -z "$specscan" ]; then
	for c in ./build/specscan ./specscan; do
		[ -x "$c" ] && { specscan=$c; break; }
	done
fi
[ -n "$specscan" ] && [ -x "$specscan" ] || die "no specscan binary (build it, or pass --specscan PATH)"
command -v zstd >/dev/null || die "zstd is missing"

size=$(printf '%s' "$size" | tr a-z A-Z)
mkdir -p bench/corpus
rec=bench/corpus/records-$size.jsonl
if [ ! -f "$rec" ]; then
	echo "generating $rec" >&2
	python3 bench/gen_corpus.py --kind records --size "$size" -o "$rec.tmp"
	mv "$rec.tmp" "$rec"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/specscan-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The partials: shards of one unit are empty but one, so cut the records
# file into N files first (whole lines), as N inputs would be.
total=$(wc -l <"$rec")
per=$(((total + shards - 1) / shards))
split -d -a 3 -l "$per" "$rec" "$work/in-"
inputs=("$work"/in-*)
plain=() zst=()
for ((i = 0; i < shards; i++)); do
	"$specscan" -q -j2 --shard "$i/$shards" -f none --records "$work/part-$i.jsonl" "${inputs[@]}"
	zstd -q -3 "$work/part-$i.jsonl" -o "$work/part-$i.jsonl.zst"
	plain+=("$work/part-$i.jsonl") zst+=("$work/part-$i.jsonl.zst")
done

# best of $repeat wall-clock runs of "$@", in seconds
best() {
	local b= t s e
	for ((r = 0; r < repeat; r++)); do
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	printf '%.3f' "$b"
}

rbytes=$(cat "${inputs[@]}" | wc -c)
pbytes=$(cat "${plain[@]}" | wc -c)
zbytes=$(cat "${zst[@]}" | wc -c)
t_rec=$(best "$specscan" -q -j2 --no-table -f none "${inputs[@]}")
t_part=$(best "$specscan" -q -j2 --no-table -f none "${plain[@]}")
t_zst=$(best "$specscan" -q -j2 --no-table -f none "${zst[@]}")
gbs() { echo "$1 / $2 / 1000000000" | bc -l; }
g_rec=$(gbs "$rbytes" "$t_rec") g_part=$(gbs "$pbytes" "$t_part") g_zst=$(gbs "$pbytes" "$t_zst")

echo "| command | input MB | s | GB/s | × records |"
echo "|---|---:|---:|---:|---:|"
printf '| specscan -j2 records (%d files) | %.0f | %s | %.3f | 1.00 |\n' "$shards" \
	"$(echo "$rbytes / 1000000" | bc -l)" "$t_rec" "$g_rec"
printf '| specscan -j2 partials (%d) | %.0f | %s | %.3f | %.2f |\n' "$shards" \
	"$(echo "$pbytes / 1000000" | bc -l)" "$t_part" "$g_part" "$(echo "$g_part / $g_rec" | bc -l)"
printf '| specscan -j2 partials .zst (%d, %.0f MB) | %.0f | %s | %.3f | %.2f |\n' "$shards" \
	"$(echo "$zbytes / 1000000" | bc -l)" "$(echo "$pbytes / 1000000" | bc -l)" "$t_zst" \
	"$g_zst" "$(echo "$g_zst / $g_rec" | bc -l)"

status=0
for f in json csv table; do
	if ! cmp -s <("$specscan" -q -j2 -f "$f" "${inputs[@]}") <("$specscan" -q -j2 -f "$f" "${zst[@]}"); then
		echo "merge.sh: the merged -f $f differs from the single run" >&2
		status=1
	fi
done
ratio=$(echo "$g_part / $g_rec" | bc -l)
if [ "$(echo "$ratio >= 1.0" | bc -l)" = 1 ]; then
	printf '\ntarget: partials >= 1.0x records per byte: %.2f  met\n' "$ratio"
else
	printf '\ntarget: partials >= 1.0x records per byte: %.2f  MISSED\n' "$ratio"
fi
[ "$status" -eq 0 ] && echo "merged reports equal the single run: yes"
exit "$status"
