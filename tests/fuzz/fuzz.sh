#!/usr/bin/env bash
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, ASan and
# UBSan, then run each for a bounded time on seeds made from testdata/.
#
#   tests/fuzz/fuzz.sh [SECONDS_PER_TARGET]     (default 60; 0: build only)
#
# FUZZ_BUILD names the build folder (default: build-fuzz in the tree);
# FUZZ_TARGETS the targets to build and run (default: every fuzz_*.c, e.g.
# FUZZ_TARGETS="fuzz_sse fuzz_inputs"); FUZZ_SEED=N fixes libFuzzer's
# random seed (-seed=N, with no reload of the corpus folder, which runs on
# a timer, and without address-space randomisation, which moves the stack
# depth libFuzzer counts as coverage): `make fuzz-smoke` sets 1, so that
# CI runs the same inputs each time, or the start of them on a slower
# machine; `make fuzz` leaves it random.
# A crash stops the run with a non-zero exit; the crashing input is left in
# the build folder (crash-*): add it to tests/fuzz/regressions/<target>/.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-60}
out=${FUZZ_BUILD:-$top/build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$out/obj" "$out/seeds"

command -v clang >/dev/null || { echo "fuzz: clang is not installed" >&2; exit 1; }

version=$(sed -n 's/^AC_INIT(\[specscan\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
# FUZZ_PORTABLE=1 builds the shim without its whole-text path (as
# --disable-fast-paths does); the targets then compare On-Demand with itself.
# and zstd frames with the streaming API only (no SS_HAVE_ZSTD_INPLACE).
whole="#define SSJ_HAVE_WHOLE 1"
zstd="#define SS_HAVE_ZSTD_INPLACE 1"
if [ "${FUZZ_PORTABLE:-0}" = 1 ]; then
	whole="/* no SSJ_HAVE_WHOLE: FUZZ_PORTABLE=1 */"
	zstd='#define SS_ZSTD_STREAMING_WHY "FUZZ_PORTABLE=1"'
fi
# the libarchive that src/io/archive_lib.c opens, found as configure.ac
# finds it: the SONAME of the library pkg-config names, else libarchive.so.13
soname=
libdir=$(pkg-config --variable=libdir libarchive 2>/dev/null || true)
if [ -n "$libdir" ] && [ -f "$libdir/libarchive.so" ]; then
	soname=$(objdump -p "$libdir/libarchive.so" 2>/dev/null | sed -n 's/^ *SONAME *//p' || true)
fi
[ -n "$soname" ] || soname=libarchive.so.13
cat > "$out/config.h.new" <<CONF
#define _GNU_SOURCE 1
#define PACKAGE_VERSION "$version"
#define SS_ARCHIVE_SONAME "$soname"
#define SSJ_HAVE_HASWELL 1
$whole
$zstd
CONF
# replaced only when it changes: objects older than it are rebuilt
cmp -s "$out/config.h.new" "$out/config.h" || mv "$out/config.h.new" "$out/config.h"
rm -f "$out/config.h.new"

san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
inc="-include $out/config.h -I$top/src $(pkg-config --cflags simdjson libzstd libarchive zlib)"
libs="$(pkg-config --libs simdjson libzstd libarchive zlib) -lpthread -lm"

objs=()
# Compile when the object is missing or older than its source (runs in the
# background: the caller records the object itself).
compile() { # src obj compiler flags...
	local src=$1 obj=$2
	shift 2
	# Rebuild when the source or any header changed (a stale object with
	# an old struct layout makes false crashes).
	if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] || [ "$out/config.h" -nt "$obj" ] ||
		[ -n "$(find "$top/src" -name '*.h' -newer "$obj" -print -quit)" ]; then
		"$@" -c "$src" -o "$obj"
	fi
}

echo "fuzz: building in $out"
while IFS= read -r src; do
	obj="$out/obj/$(echo "${src#$top/src/}" | tr / _).o"
	compile "$src" "$obj" clang -std=gnu11 $san -fsanitize=fuzzer-no-link $inc &
	objs+=("$obj")
	while [ "$(jobs -r | wc -l)" -ge "$jobs" ]; do wait -n; done
done < <(find "$top/src" -name '*.c' ! -path '*/cli/main.c' | sort)
# The shim's C++, once per instruction-set variant (src/json/local.mk).
for cxx in "$top"/src/json/*.cpp; do
	base=$(basename "$cxx" .cpp)
	compile "$cxx" "$out/obj/json_${base}_generic.o" clang++ -std=c++17 $san $inc \
		-DSSJ_OPS_NAME=ssj_ops_generic -DSSJ_NS=ssj_generic &
	compile "$cxx" "$out/obj/json_${base}_haswell.o" clang++ -std=c++17 $san $inc \
		-DSSJ_OPS_NAME=ssj_ops_haswell -DSSJ_NS=ssj_haswell \
		-mavx2 -mbmi -mbmi2 -mpclmul -mlzcnt -mpopcnt &
	objs+=("$out/obj/json_${base}_generic.o" "$out/obj/json_${base}_haswell.o")
	while [ "$(jobs -r | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait
objs=($(printf '%s\n' "${objs[@]}" | sort -u))

# Seeds: every line of the text fixtures, the fixture files whole, and the
# target's kept regression inputs (any name).
seed() { # target dir...
	local name=$1 dir="$out/seeds/$1" d f
	shift
	mkdir -p "$dir"
	for d in "$@"; do
		[ -d "$d" ] || continue
		find "$d" -type f \( -name '*.jsonl' -o -name '*.sse' -o -name '*.json' -o -name '*.prom' \) |
			while IFS= read -r f; do
				cp "$f" "$dir/$(basename "$f")"
				if [ "$(wc -l < "$f")" -lt 200 ]; then
					split -l 1 -d -a 4 "$f" "$dir/$(basename "$f")."
				fi
			done
	done
	if [ -d "$top/tests/fuzz/regressions/$name" ]; then
		find "$top/tests/fuzz/regressions/$name" -type f -exec cp {} "$dir/" \;
	fi
	if [ "$name" = fuzz_logtail ]; then
		# the fixture logs whole and line by line: real lines of every
		# version and deployment prefix
		find "$top/testdata/logs" -type f -name '*.log' | while IFS= read -r f; do
			cp "$f" "$dir/$(basename "$f")"
			split -l 1 -d -a 4 "$f" "$dir/$(basename "$f")."
		done
	fi
	if [ "$name" = fuzz_scrape ] || [ "$name" = fuzz_expo_diff ]; then
		python3 "$top/tests/fuzz/make_scrape_seeds.py" "$dir" ||
			echo "fuzz: no scrape seeds (python3 failed)" >&2
	fi
	if [ "$name" = fuzz_inputs ]; then
		python3 "$top/tests/fuzz/make_input_seeds.py" "$dir" ||
			echo "fuzz: no compressed seeds (python3 failed)" >&2
	fi
	return 0
}

# Prefix each line with the seconds since the target started.
stamp() {
	local t0=$SECONDS l
	while IFS= read -r l; do
		printf '%6d %s\n' $((SECONDS - t0)) "$l"
	done
}

# The coverage curve: the last libFuzzer status at the end of each minute,
# so a plateau (cov and ft flat over the last minutes) can be read off.
curve() { # name log
	awk -v name="$1" '
		/ cov: / {
			m = int($1 / 60) + 1
			n = $2; sub(/^#/, "", n)
			cov = ft = rate = ""
			for (i = 3; i < NF; i++) {
				if ($i == "cov:") cov = $(i + 1)
				if ($i == "ft:") ft = $(i + 1)
				if ($i == "exec/s:") rate = $(i + 1)
			}
			last[m] = sprintf("%s runs, cov %s, ft %s, %s exec/s", n, cov, ft, rate)
			if (m > max) max = m
		}
		END {
			for (m = 1; m <= max; m++) {
				if (m in last) cur = last[m]
				printf "fuzz: %s: minute %d: %s\n", name, m, cur
			}
		}' "$2"
}

# A fixed seed: the options and the launcher that make a run repeatable.
fixed=()
launch=()
if [ -n "${FUZZ_SEED:-}" ]; then
	fixed=(-seed="$FUZZ_SEED" -reload=0)
	# where the personality call is refused (some containers), runs
	# still repeat but for an input now and then near a depth step
	if setarch "$(uname -m)" -R true 2>/dev/null; then
		launch=(setarch "$(uname -m)" -R)
	fi
fi

status=0
targets=${FUZZ_TARGETS:-$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')}
for name in $targets; do
	target_src="$top/tests/fuzz/$name.c"
	[ -f "$target_src" ] || { echo "fuzz: no target $name" >&2; exit 1; }
	bin="$out/$name"
	clang -std=gnu11 $san -fsanitize=fuzzer-no-link $inc -c "$target_src" -o "$bin.o"
	# The C++ driver links UBSan's C++ runtime the shim needs.
	clang++ $san -fsanitize=fuzzer "$bin.o" "${objs[@]}" $libs -o "$bin"
	seed "$name" "$top/testdata"
	[ "$secs" -gt 0 ] || continue
	echo "fuzz: $name for ${secs}s"
	log="$out/$name.log"
	# fuzz_sse frames every input byte by byte in places (reads and windows
	# of a few bytes): 16 KiB inputs still hold thousands of lines and
	# events, and run about three times as fast as 64 KiB ones.
	maxlen=65536
	[ "$name" = fuzz_sse ] && maxlen=16384
	# fuzz_scrape reads each input twice, once in pieces down to single
	# bytes: 16 KiB still holds a page or two, at four times the runs
	[ "$name" = fuzz_scrape ] && maxlen=16384
	# fuzz_report reads at most 48 requests of short names: 8 KiB holds
	# them, and the mutations then land where they are read
	[ "$name" = fuzz_report ] && maxlen=8192
	# fuzz_logtail's lines are short: 16 KiB holds a block or a dozen lines
	[ "$name" = fuzz_logtail ] && maxlen=16384
	# fuzz_expo_diff's reference reader is quadratic: a page or two
	[ "$name" = fuzz_expo_diff ] && maxlen=16384
	# The fuzzer's processor time too: on a shared machine, runs per
	# second of processor time say more than runs per second of wall time.
	if ! (cd "$out" && TIMEFORMAT='%U %S' &&
		{ time ${launch[@]+"${launch[@]}"} "./$name" -max_total_time="$secs" \
			-max_len="$maxlen" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
			${fixed[@]+"${fixed[@]}"} "seeds/$name" 2>&1; } 2>"$name.cpu" |
		stamp >"$log"
		exit "${PIPESTATUS[0]}"); then
		echo "fuzz: $name FAILED; see $log" >&2
		tail -n 40 "$log" >&2
		status=1
	fi
	curve "$name" "$log"
	if [ -s "$out/$name.cpu" ]; then
		awk -v name="$name" -v runs="$(sed -n 's/^ *[0-9]* stat::number_of_executed_units: *//p' "$log")" '
			{ cpu = $1 + $2 }
			END { if (cpu > 0 && runs > 0)
				printf "fuzz: %s: %.0f s of processor time, %.0f runs per processor second\n", name, cpu, runs / cpu }' \
			"$out/$name.cpu"
	fi
	sed -n "s/^ *[0-9]* stat::\(number_of_executed_units\|average_exec_per_sec\|peak_rss_mb\)/fuzz: $name: \1/p" "$log"
done
exit $status
