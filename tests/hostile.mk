# Hostile inputs and I/O faults: whole-program cases (Python 3, stdlib
# only), the accounting invariant over every fixture, and the
# out-of-memory unit test. tests/valgrind.sh (not in the default suite)
# runs the unit tests and a few CLI runs under valgrind: `make check-valgrind`.
EXTRA_DIST += tests/cli/test_hostile.py tests/valgrind.sh
TESTS += tests/cli/test_hostile.py

check-valgrind: all $(check_PROGRAMS)
	$(SHELL) $(top_srcdir)/tests/valgrind.sh
.PHONY: check-valgrind

# The script needs the binary built first.
tests/cli/test_hostile.log: specscan$(EXEEXT)
