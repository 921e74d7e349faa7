# cli: the option table, atomic output files, main
libspecscan_la_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/options_analysis.c \
	src/cli/outfile.c src/cli/outfile.h src/cli/hints.c src/cli/hints.h \
	src/cli/outputs.c src/cli/outputs.h \
	src/cli/server_cli.c src/cli/server_cli.h \
	src/cli/profile_out.c src/cli/profile_out.h

check_PROGRAMS += tests/unit/test_outputs
TESTS += tests/unit/test_outputs
tests_unit_test_outputs_SOURCES = tests/unit/test_outputs.c
tests_unit_test_outputs_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_outputs_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_outputs_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_options
TESTS += tests/unit/test_options
tests_unit_test_options_SOURCES = tests/unit/test_options.c
tests_unit_test_options_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_options_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_options_SOURCES = src/cli/force-cxx-link.cxx
