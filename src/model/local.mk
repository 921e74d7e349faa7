# model: the engine-neutral types every stage shares (record, status, line
# kind, phase, engine names, metric names, a request's outcome)
libspecscan_la_SOURCES += \
	src/model/record.c src/model/record.h \
	src/model/metric.h src/model/outcome.h src/model/outcome.c

check_PROGRAMS += tests/unit/test_outcome
TESTS += tests/unit/test_outcome
tests_unit_test_outcome_SOURCES = tests/unit/test_outcome.c
tests_unit_test_outcome_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_outcome_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_outcome_SOURCES = src/cli/force-cxx-link.cxx
