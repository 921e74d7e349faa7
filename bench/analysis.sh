#!/usr/bin/env bash
# bench/analysis.sh - the cost of SPEC 7's options (bench/README.md,
# "Analysis options"):
#   1. on the raw bench corpus (gen_corpus.py --kind raw, default 200M):
#      the default run, --positions, --group-by input, and both; the
#      target is under 10% over the default;
#   2. on 1,000,000 small vLLM bodies (where the per-request work weighs
#      most): the same rows, and --ci 95 with 1000 resamples; the target
#      is under 10 s on 2 cores.
# Each command runs three times (best wall time kept; CPU time beside it,
# since a shared machine makes wall time noisy). Outputs go to /dev/null.
#
#   bench/analysis.sh [--size SIZE] [--specscan PATH] [--runs N]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
size=200M
runs=3
bin=
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--specscan) bin=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) echo "usage: bench/analysis.sh [--size SIZE] [--specscan PATH] [--runs N]" >&2; exit 2 ;;
	esac
done
if [ -z "$bin" ]; then
	bin=$top/build/specscan
	[ -x "$bin" ] || bin=$top/specscan
fi
[ -x "$bin" ] || { echo "bench/analysis.sh: no specscan binary (build first)" >&2; exit 2; }
corpus=$top/bench/corpus
mkdir -p "$corpus"
raw=$corpus/raw-$size.jsonl
small=$corpus/bodies-1M.jsonl
[ -f "$raw" ] || python3 "$top/bench/gen_corpus.py" --size "$size" -o "$raw"
if [ ! -f "$small" ]; then
	# One compact vLLM body per request, k 4, steps 1..64, deterministic.
	python3 - "$small" <<'PY'
import json, sys
M = (1 << 64) - 1
x = 7
with open(sys.argv[1], "w") as f:
    for i in range(1000000):
        x = (x * 6364136223846793005 + 1442695040888963407) & M
        steps = 1 + (x >> 40) % 64
        h = [0] * 5
        y = x
        for _ in range(steps):
            y = (y * 6364136223846793005 + 1442695040888963407) & M
            h[(y >> 33) % 5] += 1
        acc = sum(j * c for j, c in enumerate(h))
        sd = {"acceptance_histogram": h, "num_spec_steps": steps,
              "mean_acceptance_length": 1 + acc / steps,
              "draft_acceptance_rate": acc / (4 * steps),
              "num_accepted_draft_tokens": acc, "num_draft_tokens": 4 * steps,
              "num_spec_tokens": 4}
        f.write(json.dumps({"choices": [{"message": {"content": "x"}}],
                            "usage": {"completion_tokens": steps + acc},
                            "metrics": {"speculative_decoding": sd}},
                           separators=(",", ":")) + "\n")
PY
fi

# best wall and its CPU (user+sys) over $runs runs of "$@"
tfile=$(mktemp)
trap 'rm -f "$tfile"' EXIT
measure() {
	local best= bcpu= w u s
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$tfile" -f '%e %U %S' "$@" >/dev/null 2>/dev/null
		read -r w u s <"$tfile"
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
			best=$w
			bcpu=$(awk "BEGIN{printf \"%.2f\", $u + $s}")
		fi
	done
	echo "$best $bcpu"
}

row() {
	local label=$1 base=$2
	shift 2
	read -r w c <<<"$(measure "$@")"
	if [ -n "$base" ]; then
		printf '%-34s %8s s %8s s cpu  %+6.1f%%\n' "$label" "$w" "$c" \
			"$(awk "BEGIN{print ($w / $base - 1) * 100}")"
	else
		printf '%-34s %8s s %8s s cpu\n' "$label" "$w" "$c"
	fi
	last=$w
}

common=(--no-table --no-progress -q -j2)
echo "corpus: $raw ($(wc -l <"$raw") requests), $(nproc) CPUs, specscan $bin"
row "default -j2" "" "$bin" "${common[@]}" "$raw"; base=$last
row "--positions" "$base" "$bin" "${common[@]}" --positions "$raw"
row "--group-by input" "$base" "$bin" "${common[@]}" --group-by input "$raw"
row "--positions --group-by input" "$base" "$bin" "${common[@]}" --positions --group-by input "$raw"
echo
echo "corpus: $small (1,000,000 requests)"
row "default -j2" "" "$bin" "${common[@]}" "$small"; base=$last
row "--positions" "$base" "$bin" "${common[@]}" --positions "$small"
row "--group-by input" "$base" "$bin" "${common[@]}" --group-by input "$small"
row "--ci 95 (1000 resamples)" "$base" "$bin" "${common[@]}" --ci 95 "$small"
