#!/bin/sh
# floor.sh - callgrind's instructions a byte for specscan and for
# simdjson's own validating parse of the same lines (bench/dom_floor.cpp),
# with simdjson's stage 1 and stage 2 counted apart (issue 36: what the
# library costs before specscan does anything).
#
#   bench/floor.sh [SPECSCAN [SLICE]]
#
# SPECSCAN defaults to build/specscan, SLICE to /tmp/r10.jsonl, made
# (records, 10 MB, seed 1) when missing. Needs g++, pkg-config's
# simdjson, valgrind.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-build/specscan}
slice=${2:-/tmp/r10.jsonl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
[ -s "$slice" ] || python3 "$here/gen_corpus.py" --kind records --size 10M --seed 1 >"$slice"
bytes=$(wc -c <"$slice")
# shellcheck disable=SC2046
g++ -O2 -std=c++17 $(pkg-config --cflags simdjson) -o "$tmp/dom_floor" \
	"$here/dom_floor.cpp" $(pkg-config --libs simdjson)
count() { # out-file command... : the program's total
	out=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.err"
	sed -n 's/.*Collected : *//p' "$out.err" | tr -d ,
}
part() { # out-file pattern : the self count of the functions matching
	callgrind_annotate "$1" 2>/dev/null | awk -v p="$2" 'index($0, p) { gsub(",", "", $1); s += $1 } END { print s + 0 }'
}
dom=$(count "$tmp/dom.out" "$tmp/dom_floor" "$slice")
ss=$(count "$tmp/ss.out" "$bin" -j1 -f none -q --no-progress "$slice")
s1=$(part "$tmp/dom.out" "::stage1(")
s2=$(part "$tmp/dom.out" "::stage2(")
awk -v b="$bytes" -v dom="$dom" -v ss="$ss" -v s1="$s1" -v s2="$s2" 'BEGIN {
	printf "%-44s %14s %8s\n", "slice: " b " bytes", "instructions", "a byte"
	printf "%-44s %14.0f %8.2f\n", "simdjson stage 1 (structural index)", s1, s1 / b
	printf "%-44s %14.0f %8.2f\n", "simdjson stage 2 (validating tape)", s2, s2 / b
	printf "%-44s %14.0f %8.2f\n", "dom_floor, whole process", dom, dom / b
	printf "%-44s %14.0f %8.2f\n", "specscan -j1 -f none, whole process", ss, ss / b
}'
