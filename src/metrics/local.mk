# metrics stage: the metric table, per-request values, statistics and the
# aggregation of every request
libspecscan_la_SOURCES += \
	src/metrics/values.c src/metrics/values.h \
	src/metrics/stats.c src/metrics/stats.h \
	src/metrics/aggregate.c src/metrics/aggregate.h \
	src/metrics/samples.c src/metrics/samples.h \
	src/metrics/poshist.c src/metrics/poshist.h \
	src/metrics/drafted.c src/metrics/drafted.h \
	src/metrics/defs.c src/metrics/defs.h \
	src/metrics/groups.c src/metrics/groups.h \
	src/metrics/timeline.c src/metrics/timeline.h \
	src/metrics/outliers.c src/metrics/outliers.h \
	src/metrics/timekeep.c src/metrics/timekeep.h

check_PROGRAMS += tests/unit/test_stats tests/unit/test_aggregate tests/unit/test_outliers
TESTS += tests/unit/test_stats tests/unit/test_aggregate tests/unit/test_outliers

tests_unit_test_stats_SOURCES = tests/unit/test_stats.c
tests_unit_test_stats_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_stats_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_stats_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_aggregate_SOURCES = tests/unit/test_aggregate.c tests/unit/fixtures_records.h
tests_unit_test_aggregate_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_aggregate_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_aggregate_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_outliers_SOURCES = tests/unit/test_outliers.c tests/unit/fixtures_records.h
tests_unit_test_outliers_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_outliers_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_outliers_SOURCES = src/cli/force-cxx-link.cxx
