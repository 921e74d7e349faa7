# run: the application core - the reader, the worker pool and its ordered
# collector, progress display
libspecscan_la_SOURCES += \
	src/run/run.c src/run/run.h \
	src/run/pool.c src/run/pool.h \
	src/run/progress.c src/run/progress.h \
	src/run/reqkeys.c src/run/reqkeys.h

check_PROGRAMS += tests/unit/test_pool
TESTS += tests/unit/test_pool
tests_unit_test_pool_SOURCES = tests/unit/test_pool.c
tests_unit_test_pool_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_pool_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_pool_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_progress
TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_progress_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_progress_SOURCES = src/cli/force-cxx-link.cxx
