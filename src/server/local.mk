# server stage (SPEC 10): the server's own counters. The exposition-text
# reader (expo.c) and the JSON shapes (server_json*.c) feed snapshots and increments
# to the window (window.c: per-series differences over one hash table,
# keymap.c); the families are a table (families.c); results.c derives each
# family's figures, reusing analysis/positions.c for the shorter-draft table.
libspecscan_la_SOURCES += \
	src/server/families.c src/server/families.h \
	src/server/number.c src/server/number.h \
	src/server/keymap.c src/server/keymap.h \
	src/server/server.h src/server/server_int.h \
	src/server/window.c \
	src/server/results.c \
	src/server/grammar.c src/server/grammar.h \
	src/server/expo.c src/server/expo.h \
	src/server/server_json.c src/server/server_json.h src/server/server_json_int.h \
	src/server/server_json_aiperf.c src/server/server_json_engines.c \
	src/server/server_json_prom.c \
	src/server/feed.c src/server/feed.h

# The stage's driver on its own, without the run: Prometheus text files in,
# the window as JSON out (tests/cli/test_server*.py, bench/README.md).
check_PROGRAMS += tests/unit/server_tool
tests_unit_server_tool_SOURCES = tests/unit/server_tool.c
tests_unit_server_tool_LDADD = libspecscan.la $(SS_LIBS)
nodist_EXTRA_tests_unit_server_tool_SOURCES = src/cli/force-cxx-link.cxx

SERVER_UNIT_TESTS = tests/unit/test_server_window tests/unit/test_server_families \
	tests/unit/test_server_expo tests/unit/test_server_json
check_PROGRAMS += $(SERVER_UNIT_TESTS)
TESTS += $(SERVER_UNIT_TESTS)

tests_unit_test_server_window_SOURCES = tests/unit/test_server_window.c tests/unit/server_samples.h
tests_unit_test_server_window_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_server_window_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_server_window_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_server_families_SOURCES = tests/unit/test_server_families.c tests/unit/server_samples.h
tests_unit_test_server_families_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_server_families_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_server_families_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_server_expo_SOURCES = tests/unit/test_server_expo.c
tests_unit_test_server_expo_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_server_expo_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_server_expo_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_server_json_SOURCES = tests/unit/test_server_json.c tests/unit/server_samples.h
tests_unit_test_server_json_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_server_json_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_server_json_SOURCES = src/cli/force-cxx-link.cxx

# Whole-stage tests on the fixture pages (testdata/server) through the
# driver; the pages against their script and promtool; a real Prometheus.
SERVER_CLI_TESTS = \
	tests/cli/test_server_cli.py \
	tests/cli/test_server_fixtures.py \
	tests/cli/test_server_pages.py \
	tests/cli/test_server_promtool.py \
	tests/cli/test_server_json.py \
	tests/cli/test_server_wire.py \
	tests/cli/test_prometheus.py
TESTS += $(SERVER_CLI_TESTS)
EXTRA_DIST += $(SERVER_CLI_TESTS)
$(SERVER_CLI_TESTS:.py=.log): tests/unit/server_tool$(EXEEXT)
