#!/usr/bin/env bash
# The server stage's reader (SPEC 10, issue 21) on the soak shape: a scrape
# loop of 4,320 vLLM pages (twelve hours at 10 s; bench/gen_corpus.py
# --kind scrape), read by tests/tools/server_tool (the reader alone) and by
# specscan (the whole program: detection, the ring, the reports) against
# `wc -l`.
#
#   bench/scrape.sh [--pages N] [--tool PATH] [--specscan PATH] [--corpus FILE] [--repeat N] [--callgrind]
#
# Prints, for each command, the best of --repeat runs (default 5, taken in
# turn): wall seconds, user + system seconds, peak RSS; then the reader's
# speed as a fraction of wc -l's (wall and CPU). --callgrind adds the
# instruction counts of both over the whole corpus (slow: about a minute).
# Needs GNU time (/usr/bin/time). The corpus is generated when missing
# (default: $TMPDIR/specscan-scrape-N.prom; about 75 KB a page).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pages=4320 repeat=5 callgrind=0 corpus="" tool="" specscan=""
while [ $# -gt 0 ]; do
	case $1 in
	--pages) pages=$2; shift 2 ;;
	--tool) tool=$2; shift 2 ;;
	--specscan) specscan=$2; shift 2 ;;
	--corpus) corpus=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--callgrind) callgrind=1; shift ;;
	*) echo "usage: bench/scrape.sh [--pages N] [--tool PATH] [--specscan PATH] [--corpus FILE] [--repeat N] [--callgrind]" >&2; exit 2 ;;
	esac
done
[ -n "$tool" ] || for t in "$top/build/tests/tools/server_tool" "$top/tests/tools/server_tool"; do
	[ -x "$t" ] && { tool=$t; break; }
done
[ -x "${tool:-}" ] || { echo "scrape.sh: no server_tool (make tests/tools/server_tool)" >&2; exit 1; }
[ -n "$specscan" ] || for t in "$top/build/specscan" "$top/specscan"; do
	[ -x "$t" ] && { specscan=$t; break; }
done
[ -x "${specscan:-}" ] || { echo "scrape.sh: no specscan (make)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scrape.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
corpus=${corpus:-${TMPDIR:-/tmp}/specscan-scrape-$pages.prom}
if [ ! -s "$corpus" ]; then
	echo "scrape.sh: generating $corpus ($pages pages)"
	python3 "$top/bench/gen_corpus.py" --kind scrape --pages "$pages" -o "$corpus"
fi
bytes=$(stat -c %s "$corpus")
cat "$corpus" > /dev/null # warm the page cache

# best wall, best cpu (user + sys), largest RSS of $repeat runs, taken in turn
declare -A wall cpu rss
names=(wc_l reader specscan)
cmd_wc_l=(wc -l "$corpus")
cmd_reader=("$tool" -q --piece 1048576 "$corpus")
cmd_specscan=("$specscan" -q -f json "$corpus")
for ((i = 0; i < repeat; i++)); do
	for n in "${names[@]}"; do
		declare -n cmd="cmd_$n"
		out=$( { /usr/bin/time -f "%e %U %S %M" "${cmd[@]}" > /dev/null; } 2>&1 | tail -1)
		read -r e u s m <<< "$out"
		c=$(echo "$u + $s" | bc -l)
		if [ -z "${wall[$n]:-}" ] || (( $(echo "$e < ${wall[$n]}" | bc -l) )); then wall[$n]=$e; fi
		if [ -z "${cpu[$n]:-}" ] || (( $(echo "$c < ${cpu[$n]}" | bc -l) )); then cpu[$n]=$c; fi
		if [ -z "${rss[$n]:-}" ] || [ "$m" -gt "${rss[$n]}" ]; then rss[$n]=$m; fi
	done
done
printf '%s: %d bytes, %d pages\n' "$corpus" "$bytes" "$pages"
printf '%-8s %8s %8s %10s %10s\n' command wall_s cpu_s GB/s peak_RSS_KB
for n in "${names[@]}"; do
	printf '%-8s %8s %8.2f %10.2f %10s\n' "$n" "${wall[$n]}" "${cpu[$n]}" \
		"$(echo "$bytes / ${wall[$n]} / 1000000000" | bc -l)" "${rss[$n]}"
done
for n in reader specscan; do
	printf '%s / wc -l: %.2fx (wall), %.2fx (cpu)\n' "$n" \
		"$(echo "${wall[wc_l]} / ${wall[$n]}" | bc -l)" \
		"$(echo "${cpu[wc_l]} / ${cpu[$n]}" | bc -l)"
done
if [ "$callgrind" = 1 ]; then
	for n in "${names[@]}"; do
		declare -n cmd="cmd_$n"
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "${cmd[@]}" 2>&1 >/dev/null |
			sed -n 's/.*refs: *//p')
		printf 'callgrind %-8s %s instructions (%.2f a byte)\n' "$n" "$ir" \
			"$(echo "${ir//,/} / $bytes" | bc -l)"
	done
fi
