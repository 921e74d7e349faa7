#!/usr/bin/env bash
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, ASan and
# UBSan, then run each for a bounded time on seeds made from testdata/.
#
#   tests/fuzz/fuzz.sh [SECONDS_PER_TARGET]     (default 60)
#
# FUZZ_BUILD names the build folder (default: build-fuzz in the tree).
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
cat > "$out/config.h" <<CONF
#define _GNU_SOURCE 1
#define PACKAGE_VERSION "$version"
#define SSJ_HAVE_HASWELL 1
CONF

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
	if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] ||
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
compile "$top/src/json/json.cpp" "$out/obj/json_generic.o" clang++ -std=c++17 $san $inc \
	-DSSJ_OPS_NAME=ssj_ops_generic &
compile "$top/src/json/json.cpp" "$out/obj/json_haswell.o" clang++ -std=c++17 $san $inc \
	-DSSJ_OPS_NAME=ssj_ops_haswell -mavx2 -mbmi -mbmi2 -mpclmul -mlzcnt -mpopcnt &
wait
objs+=("$out/obj/json_generic.o" "$out/obj/json_haswell.o")
objs=($(printf '%s\n' "${objs[@]}" | sort -u))

# Seeds: every line of the text fixtures, the fixture files whole, and the
# target's kept regression inputs (any name).
seed() { # target dir...
	local name=$1 dir="$out/seeds/$1" d f
	shift
	mkdir -p "$dir"
	for d in "$@"; do
		[ -d "$d" ] || continue
		find "$d" -type f \( -name '*.jsonl' -o -name '*.sse' -o -name '*.json' \) |
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
	if [ "$name" = fuzz_inputs ]; then
		python3 "$top/tests/fuzz/make_input_seeds.py" "$dir" ||
			echo "fuzz: no compressed seeds (python3 failed)" >&2
	fi
	return 0
}

status=0
for target_src in "$top"/tests/fuzz/fuzz_*.c; do
	name=$(basename "$target_src" .c)
	bin="$out/$name"
	clang -std=gnu11 $san -fsanitize=fuzzer-no-link $inc -c "$target_src" -o "$bin.o"
	# The C++ driver links UBSan's C++ runtime the shim needs.
	clang++ $san -fsanitize=fuzzer "$bin.o" "${objs[@]}" $libs -o "$bin"
	seed "$name" "$top/testdata"
	echo "fuzz: $name for ${secs}s"
	log="$out/$name.log"
	if ! (cd "$out" && "./$name" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=1 "seeds/$name" >"$log" 2>&1); then
		echo "fuzz: $name FAILED; see $log" >&2
		tail -n 40 "$log" >&2
		status=1
	fi
	grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/fuzz: $name: /" || true
done
exit $status
