#!/usr/bin/env bash
# Byte-compare two specscan binaries with the analysis options and --html on
# (compare-outputs.sh covers the plain outputs; a refactor must change neither).
#
#   bench/compare-analysis.sh OLD NEW [--keep DIR]
#
# Runs both with --draft-cost 0.1 --ci 95 --group-by input --compare
# testdata/analysis/run-a.jsonl, each with -f json, csv, table and markdown
# and with --html FILE -f none, over the two analysis runs, over -r testdata
# and over the soak and context runs; also each analysis option alone (SPEC
# 7.8-7.12's too), a baseline group of -r testdata, and --html without them.
# Compares stdout, stderr, the exit status and the HTML page.
# Prints one line per difference and a summary; exit 0 when all agree.
set -euo pipefail

usage() { sed -n '2,13s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

[ $# -ge 2 ] || usage 2 >&2
old=$(readlink -f "$1") new=$(readlink -f "$2")
shift 2
keep=
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=${2:?}; shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "compare-analysis.sh: unknown argument '$1'" >&2; usage 2 >&2 ;;
	esac
done
[ -x "$old" ] && [ -x "$new" ] || { echo "compare-analysis.sh: OLD and NEW must be executables" >&2; exit 2; }

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
cd "$top"

inputs=("testdata/analysis/run-a.jsonl testdata/analysis/run-b.jsonl" "-r testdata"
	"testdata/analysis/soak.jsonl testdata/analysis/context.jsonl")
all="--draft-cost 0.1 --ci 95 --group-by input --compare testdata/analysis/run-a.jsonl"
# (the run-a baseline is no group of -r testdata, a usage error to compare
# too; the last set has a baseline that is one)
optsets=("$all" "--draft-cost 0.1" "--ci 95" "--group-by input"
	 "--group-by input --compare testdata/analysis/run-a.jsonl" ""
	 "--draft-cost 0.1 --ci 95 --group-by input --compare testdata/records/profile_export.jsonl"
	 "--windows 60 --outliers 3 --definitions --positions --group-by isl"
	 "--windows 10" "--outliers 1" "--outliers 50" "--definitions")

# run BIN TAG ARGS...: stdout, stderr, status and the page under $work/TAG.
run() {
	local bin=$1 tag=$2
	shift 2
	mkdir -p "$work/$tag"
	rm -f "$work/$tag/html"
	set +e
	(exec -a specscan "$bin" "$@") > "$work/$tag/out" 2> "$work/$tag/err"
	echo $? > "$work/$tag/rc"
	set -e
	[ -e "$work/$tag/html" ] || : > "$work/$tag/html"
}

runs=0 diffs=0
for input in "${inputs[@]}"; do
	read -r -a args <<< "$input"
	for opts in "${optsets[@]}"; do
		read -r -a aopt <<< "$opts"
		for mode in json csv table markdown html; do
			# plain outputs are compare-outputs.sh's; here only the page
			[ -n "$opts" ] || [ "$mode" = html ] || continue
			for side in old new; do
				bin=$old; [ $side = new ] && bin=$new
				if [ "$mode" = html ]; then
					fmt=(-f none --html "$work/$side/html")
				else
					fmt=(-f "$mode")
				fi
				run "$bin" $side -j 2 "${aopt[@]}" "${fmt[@]}" "${args[@]}"
			done
			runs=$((runs + 1))
			for part in out err rc html; do
				if ! cmp -s "$work/old/$part" "$work/new/$part"; then
					echo "DIFF [$part] $mode ${opts:-(no analysis options)}: $input"
					diffs=$((diffs + 1))
				fi
			done
		done
	done
done
echo "compare-analysis: ${#inputs[@]} inputs, $runs runs per binary, $diffs differences"
[ $diffs -eq 0 ]
