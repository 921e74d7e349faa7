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
# partials (plain, then zstd-compressed), and prints wall seconds, GB/s of
# uncompressed input per wall second and per CPU second, and the ratios to
# the records row; the target is judged on CPU time. It checks that the
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

size=200M shards=4 specscan='' repeat=3
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
command -v bc >/dev/null || die "bc is missing"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing: apt-get install time"

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

# best of $repeat runs of "$@": "WALL CPU" in seconds (CPU = user + system,
# which other work on a shared machine disturbs less than wall-clock time)
best() {
	local bw='' bc='' w c out
	for ((r = 0; r < repeat; r++)); do
		out=$( { /usr/bin/time -f '%e %U %S' "$@" >/dev/null; } 2>&1 | tail -n 1)
		w=$(echo "$out" | awk '{print $1}')
		c=$(echo "$out" | awk '{print $2 + $3}')
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" = 1 ]; then bw=$w; fi
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" = 1 ]; then bc=$c; fi
	done
	echo "$bw $bc"
}

rbytes=$(cat "${inputs[@]}" | wc -c)
pbytes=$(cat "${plain[@]}" | wc -c)
zbytes=$(cat "${zst[@]}" | wc -c)
read -r w_rec c_rec < <(best "$specscan" -q -j2 --no-table -f none "${inputs[@]}")
read -r w_part c_part < <(best "$specscan" -q -j2 --no-table -f none "${plain[@]}")
read -r w_zst c_zst < <(best "$specscan" -q -j2 --no-table -f none "${zst[@]}")
# bytes per second of uncompressed input, in GB/s
gbs() { echo "$1 / $2 / 1000000000" | bc -l; }
row() {  # label bytes wall cpu
	printf '| %s | %.0f | %.2f | %.3f | %.2f | %.3f | %.2f |\n' "$1" \
		"$(echo "$2 / 1000000" | bc -l)" "$3" "$(gbs "$2" "$3")" \
		"$(echo "$(gbs "$2" "$3") / $(gbs "$rbytes" "$w_rec")" | bc -l)" \
		"$(gbs "$2" "$4")" "$(echo "$(gbs "$2" "$4") / $(gbs "$rbytes" "$c_rec")" | bc -l)"
}

echo "| command | input MB | wall s | GB/s | × records | GB per CPU-s | × records |"
echo "|---|---:|---:|---:|---:|---:|---:|"
row "specscan -j2 records ($shards files)" "$rbytes" "$w_rec" "$c_rec"
row "specscan -j2 partials ($shards)" "$pbytes" "$w_part" "$c_part"
row "specscan -j2 partials .zst ($shards, $(echo "$zbytes / 1000000" | bc) MB)" "$pbytes" "$w_zst" "$c_zst"

status=0
for f in json csv table; do
	if ! cmp -s <("$specscan" -q -j2 -f "$f" "${inputs[@]}") <("$specscan" -q -j2 -f "$f" "${zst[@]}"); then
		echo "merge.sh: the merged -f $f differs from the single run" >&2
		status=1
	fi
done
ratio=$(echo "($pbytes / $c_part) / ($rbytes / $c_rec)" | bc -l)
if [ "$(echo "$ratio >= 1.0" | bc -l)" = 1 ]; then
	printf '\ntarget: partials >= 1.0x records per byte (CPU): %.2f  met\n' "$ratio"
else
	printf '\ntarget: partials >= 1.0x records per byte (CPU): %.2f  MISSED\n' "$ratio"
fi
[ "$status" -eq 0 ] && echo "merged reports equal the single run: yes"
exit "$status"
