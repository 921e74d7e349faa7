#!/bin/sh
# Run every fuzz target, built with an ordinary main(), over its kept
# regression inputs and over the text fixtures: a crash, a sanitizer
# report or a failed oracle (a trap) fails the test.
set -eu
src=${srcdir:-.}
status=0
for bin in tests/fuzz/replay_*; do
	[ -x "$bin" ] || continue
	name=fuzz_${bin##*/replay_}
	set --
	[ -d "$src/testdata" ] && set -- "$src/testdata"
	[ -d "$src/tests/fuzz/regressions/$name" ] && set -- "$@" "$src/tests/fuzz/regressions/$name"
	if "$bin" "$@"; then
		echo "ok: $name"
	else
		echo "FAIL: $name" >&2
		status=1
	fi
done
exit $status
