#!/usr/bin/env bash
# Interleaved timing of a few commands on a shared (noisy) machine.
#
#   bench/ab.sh [-n N] 'LABEL::COMMAND' ...
#
# Runs each COMMAND (a shell command line, its output discarded) N times
# (default 7), round robin (every other round in reverse order): run 1 of
# every command, then run 2 of every command, and so on, so that a slow
# spell of the machine falls on all of them alike instead of on the one
# command that happened to be running.
# Prints, per label, the fastest and the median wall time and CPU time
# (user + sys) in seconds, then the first label's fastest wall time over
# each label's ("x first": above 1 is faster than the first), and the
# median over the rounds of each label's CPU time over the first label's in
# the same round ("cpu pair": above 1 costs more than the first). Example
# (speed of specscan against wc -l):
#
#   bench/ab.sh -n 9 'wc::wc -l bench/corpus/records-1G.jsonl' \
#     'specscan::build/specscan -q --no-progress --no-table -f none bench/corpus/records-1G.jsonl'
set -euo pipefail

n=7
if [[ ${1:-} == -n ]]; then
	n=${2:?-n needs a count}
	shift 2
fi
(($# > 0)) || { echo "usage: bench/ab.sh [-n N] 'LABEL::COMMAND' ..." >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench/ab.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }

labels=() cmds=()
for spec in "$@"; do
	[[ $spec == *::* ]] || { echo "bench/ab.sh: '$spec' is not LABEL::COMMAND" >&2; exit 2; }
	labels+=("${spec%%::*}")
	cmds+=("${spec#*::}")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
order=("${!cmds[@]}")
for ((i = 0; i < n; i++)); do
	# every other round backwards, so no command always runs right after
	# the same one
	if ((i % 2)); then
		order=()
		for ((k = ${#cmds[@]} - 1; k >= 0; k--)); do order+=("$k"); done
	else
		order=("${!cmds[@]}")
	fi
	for k in "${order[@]}"; do
		/usr/bin/time -o "$tmp/t" -f '%e %U %S' bash -c "${cmds[$k]}" >/dev/null 2>&1 ||
			{ echo "bench/ab.sh: '${cmds[$k]}' failed" >&2; exit 1; }
		read -r e u s <"$tmp/t"
		echo "$e" >>"$tmp/wall.$k"
		echo "$u $s" | awk '{printf "%.2f\n", $1 + $2}' >>"$tmp/cpu.$k"
	done
done

# The median over the rounds of label k's CPU time divided by the first
# label's in the same round: neighbouring runs share the machine's state,
# so this ratio drifts less than one taken between two medians.
pair() {
	paste "$tmp/cpu.0" "$tmp/cpu.$1" | awk '$1 > 0 {print $2 / $1}' | sort -g |
		awk '{a[NR] = $1} END {if (NR) printf "%.3f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'
}

# fastest and median of a file of numbers
stats() { sort -g "$1" | awk '{a[NR] = $1} END {printf "%.3f %.3f\n", a[1], a[int((NR + 1) / 2)]}'; }

printf '%-16s %9s %9s %9s %9s %9s %9s\n' label 'wall min' 'wall med' 'cpu min' 'cpu med' 'x first' 'cpu pair'
read -r first _ < <(stats "$tmp/wall.0")
for k in "${!cmds[@]}"; do
	read -r wmin wmed < <(stats "$tmp/wall.$k")
	read -r cmin cmed < <(stats "$tmp/cpu.$k")
	printf '%-16s %9s %9s %9s %9s %9s %9s\n' "${labels[$k]}" "$wmin" "$wmed" "$cmin" "$cmed" \
		"$(awk -v a="$first" -v b="$wmin" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')" "$(pair "$k")"
done
