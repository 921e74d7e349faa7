# Hostile inputs and I/O faults: whole-program cases (Python 3, stdlib
# only), the accounting invariant over every fixture, and the
# out-of-memory unit test. tests/valgrind.sh (not in the default suite)
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

# Allocation failure at every allocation of a small library run and of a
# whole pipeline run.
check_PROGRAMS += tests/unit/test_oom
TESTS += tests/unit/test_oom
tests_unit_test_oom_SOURCES = tests/unit/test_oom.c
tests_unit_test_oom_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_oom_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_oom_SOURCES = src/cli/force-cxx-link.cxx
