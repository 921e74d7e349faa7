#!/usr/bin/env bash
# Byte-compare two specscan binaries (a refactor must change no output).
#
#   bench/compare-outputs.sh OLD NEW [--size 4M] [--keep DIR]
#
# Runs both over every fixture in testdata/ (each file, each artifact
# directory, the whole tree with -r, a tar.zst of it) and over a generated
# corpus (bench/gen_corpus.py: raw, records, bodies and SSE of --size each,
# the raw one also as .zst), each with -f json, csv, table and jsonl, and
# with --records FILE -f none; under SPECSCAN_SIMD unset, =avx512 and
# =generic, and -j 1 and -j 2. Compares stdout, stderr, the records file and the exit status.
# Prints one line per difference and a summary; exit 0 when all agree.
set -euo pipefail

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

[ $# -ge 2 ] || usage 2 >&2
old=$(readlink -f "$1") new=$(readlink -f "$2")
shift 2
size=4M keep=
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "compare-outputs.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
done
[ -x "$old" ] && [ -x "$new" ] || { echo "compare-outputs.sh: OLD and NEW must be executables" >&2; exit 2; }

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
cd "$top"

# Inputs: fixture files, artifact directories, the tree, archives, corpora.
inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(find testdata -type f ! -name '*.py' | LC_ALL=C sort)
for d in testdata/artifacts/*/; do inputs+=("${d%/}"); done
inputs+=("-r testdata")
tar -cf - testdata | zstd -q -c > "$work/testdata.tar.zst"
inputs+=("$work/testdata.tar.zst")
for kind in raw records bodies sse; do
	python3 bench/gen_corpus.py --kind "$kind" --size "$size" -o "$work/$kind.jsonl"
	inputs+=("$work/$kind.jsonl")
done
zstd -q -f "$work/raw.jsonl" -o "$work/raw.jsonl.zst"
inputs+=("$work/raw.jsonl.zst")

# run BIN TAG ARGS...: stdout, stderr, status and records file under $work/TAG.
run() {
	local bin=$1 tag=$2
	shift 2
	mkdir -p "$work/$tag"
	set +e
	(exec -a specscan "$bin" "$@") > "$work/$tag/out" 2> "$work/$tag/err"
	echo $? > "$work/$tag/rc"
	set -e
}

runs=0 diffs=0
for input in "${inputs[@]}"; do
	read -r -a args <<< "$input"
	for simd in best avx512 generic; do
		for j in 1 2; do
			for mode in json csv table jsonl records; do
				if [ "$mode" = records ]; then
					opt=(-f none --records "$work/REC")
				else
					opt=(-f "$mode")
				fi
				for side in old new; do
					bin=$old; [ $side = new ] && bin=$new
					rm -f "$work/REC"
					if [ $simd != best ]; then
						SPECSCAN_SIMD=$simd run "$bin" $side -j $j "${opt[@]}" "${args[@]}"
					else
						run "$bin" $side -j $j "${opt[@]}" "${args[@]}"
					fi
					if [ -e "$work/REC" ]; then mv "$work/REC" "$work/$side/rec"; else : > "$work/$side/rec"; fi
				done
				runs=$((runs + 1))
				for part in out err rc rec; do
					if ! cmp -s "$work/old/$part" "$work/new/$part"; then
						echo "DIFF [$part] simd=$simd -j $j $mode: $input"
						diffs=$((diffs + 1))
					fi
				done
			done
		done
	done
done
echo "compare-outputs: ${#inputs[@]} inputs, $runs runs per binary, $diffs differences"
[ $diffs -eq 0 ]
