# analysis stage (SPEC 7): the bootstrap and its generator, acceptance by
# position, the --group-by keys, --expect gates. It reads only what the
# aggregate keeps (per-request samples, histograms pooled per k, groups).
libspecscan_la_SOURCES += \
	src/analysis/rng.h \
	src/analysis/bootstrap.c src/analysis/bootstrap.h \
	src/analysis/positions.c src/analysis/positions.h \
	src/analysis/groupkey.c src/analysis/groupkey.h \
	src/analysis/expect.c src/analysis/expect.h \
	src/analysis/windows.c src/analysis/windows.h \
	src/analysis/analyze.c src/analysis/analyze.h \
	src/analysis/timestats.c src/analysis/timestats.h \
	src/analysis/speedup.c src/analysis/speedup.h \
	src/analysis/profile.c src/analysis/profile.h

ANALYSIS_UNIT_TESTS = tests/unit/test_bootstrap tests/unit/test_positions \
	tests/unit/test_groupkey tests/unit/test_expect tests/unit/test_analyze \
	tests/unit/test_windows
check_PROGRAMS += $(ANALYSIS_UNIT_TESTS)
TESTS += $(ANALYSIS_UNIT_TESTS)

tests_unit_test_bootstrap_SOURCES = tests/unit/test_bootstrap.c
tests_unit_test_bootstrap_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_bootstrap_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_bootstrap_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_positions_SOURCES = tests/unit/test_positions.c
tests_unit_test_positions_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_positions_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_positions_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_groupkey_SOURCES = tests/unit/test_groupkey.c
tests_unit_test_groupkey_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_groupkey_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_groupkey_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_expect_SOURCES = tests/unit/test_expect.c
tests_unit_test_expect_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_expect_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_expect_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_windows_SOURCES = tests/unit/test_windows.c
tests_unit_test_windows_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_windows_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_windows_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_analyze_SOURCES = tests/unit/test_analyze.c tests/unit/fixtures_records.h
tests_unit_test_analyze_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_analyze_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_analyze_SOURCES = src/cli/force-cxx-link.cxx

# The bootstrap's speed alone (bench/README.md): `make bench/bench_bootstrap`.
EXTRA_PROGRAMS = bench/bench_bootstrap
bench_bench_bootstrap_SOURCES = bench/bench_bootstrap.c
bench_bench_bootstrap_LDADD = libspecscan.la $(SS_LIBS)
nodist_EXTRA_bench_bench_bootstrap_SOURCES = src/cli/force-cxx-link.cxx
CLEANFILES += bench/bench_bootstrap

# SPEC 11: a request's timing and the keys' values (model/timing.c), the
# timing statistics and speedups, the acceptance profile
SPEEDUP_UNIT_TESTS = tests/unit/test_timing tests/unit/test_speedup tests/unit/test_profile
check_PROGRAMS += $(SPEEDUP_UNIT_TESTS)
TESTS += $(SPEEDUP_UNIT_TESTS)

tests_unit_test_timing_SOURCES = tests/unit/test_timing.c
tests_unit_test_timing_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_timing_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_timing_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_speedup_SOURCES = tests/unit/test_speedup.c tests/unit/fixtures_records.h
tests_unit_test_speedup_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_speedup_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_speedup_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_profile_SOURCES = tests/unit/test_profile.c
tests_unit_test_profile_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_profile_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_profile_SOURCES = src/cli/force-cxx-link.cxx
