# logs stage (SPEC 12): acceptance where it is written down. The line layer
# (logline.c: cleaning, anchors, prefixes, printed numbers) and a reader per
# format: vLLM's interval lines (vllm_log.c), SGLang's decode batch lines
# (sglang_log.c), llama.cpp's per-task blocks (llama_log.c), Spec-Bench's
# and EAGLE's answer lines (harness.c). Below io/ (which detects a log
# input by its anchors), engines/ and server/ (which take what it reads).
libspecscan_la_SOURCES += \
	src/logs/logline.c src/logs/logline.h \
	src/logs/vllm_log.c src/logs/vllm_log.h \
	src/logs/sglang_log.c src/logs/sglang_log.h \
	src/logs/llama_log.c src/logs/llama_log.h \
	src/logs/harness.c src/logs/harness.h

LOGS_UNIT_TESTS = tests/unit/test_logline tests/unit/test_log_formats \
	tests/unit/test_harness tests/unit/test_log_fixtures tests/unit/test_logreq
check_PROGRAMS += $(LOGS_UNIT_TESTS)
TESTS += $(LOGS_UNIT_TESTS)

tests_unit_test_logline_SOURCES = tests/unit/test_logline.c
tests_unit_test_logline_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_logline_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_logline_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_log_formats_SOURCES = tests/unit/test_log_formats.c
tests_unit_test_log_formats_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_log_formats_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_log_formats_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_harness_SOURCES = tests/unit/test_harness.c
tests_unit_test_harness_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_harness_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_harness_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_log_fixtures_SOURCES = tests/unit/test_log_fixtures.c
tests_unit_test_log_fixtures_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_log_fixtures_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_log_fixtures_SOURCES = src/cli/force-cxx-link.cxx

# engines/logreq.c: a llama.cpp block as a record (listed here with the
# stage's other tests)
tests_unit_test_logreq_SOURCES = tests/unit/test_logreq.c
tests_unit_test_logreq_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_logreq_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_logreq_SOURCES = src/cli/force-cxx-link.cxx

# The stage's driver until it is part of specscan: log files in, what the
# readers found as JSON out (tests/cli/test_log_tool.py, bench/README.md).
check_PROGRAMS += tests/unit/log_tool
tests_unit_log_tool_SOURCES = tests/unit/log_tool.c
tests_unit_log_tool_LDADD = libspecscan.la $(SS_LIBS)
nodist_EXTRA_tests_unit_log_tool_SOURCES = src/cli/force-cxx-link.cxx

LOGS_CLI_TESTS = tests/cli/test_log_tool.py
TESTS += $(LOGS_CLI_TESTS)
EXTRA_DIST += $(LOGS_CLI_TESTS)
$(LOGS_CLI_TESTS:.py=.log): tests/unit/log_tool$(EXEEXT)
