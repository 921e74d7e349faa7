# Hostile inputs and I/O faults: whole-program cases (Python 3, stdlib
# only) and the accounting invariant over every fixture (the
# out-of-memory unit test, test_oom, is in tests/unit/local.mk). tests/valgrind.sh (not in the default suite)
# runs the unit tests and a few CLI runs under valgrind: `make check-valgrind`.
EXTRA_DIST += tests/cli/test_hostile.py tests/cli/test_hostile2.py tests/cli/test_hostile3.py \
	tests/cli/test_reliability.py \
	tests/cli/sampled.py \
	tests/valgrind.sh
TESTS += tests/cli/test_hostile.py tests/cli/test_hostile2.py tests/cli/test_hostile3.py \
	tests/cli/test_reliability.py

check-valgrind: all $(check_PROGRAMS)
	$(SHELL) $(top_srcdir)/tests/valgrind.sh
.PHONY: check-valgrind

# The script needs the binary built first.
tests/cli/test_hostile.log tests/cli/test_hostile2.log tests/cli/test_hostile3.log \
	tests/cli/test_reliability.log: specscan$(EXEEXT)

