# Unit tests (cmocka), one line each, in the stages' order. A test
# tests/unit/test_NAME is built from tests/unit/test_NAME.c with the flags
# and libraries below: adding a test is adding its line. A test that needs
# other flags gets its own tests_unit_test_NAME_CFLAGS (and then its own
# tests_unit_test_NAME_LINK, as test_json has: automake gives a program
# with flags of its own a link line of its own).
SS_UNIT_TESTS = \
	tests/unit/test_ratio \
	tests/unit/test_memplan \
	tests/unit/test_outcome \
	tests/unit/test_buf \
	tests/unit/test_utf8 \
	tests/unit/test_json \
	tests/unit/test_whole \
	tests/unit/test_json_array \
	tests/unit/test_framer \
	tests/unit/test_inputs \
	tests/unit/test_spool \
	tests/unit/test_compress \
	tests/unit/test_zstd_direct \
	tests/unit/test_sniff_scrape \
	tests/unit/test_request \
	tests/unit/test_metakeys \
	tests/unit/test_keyscan \
	tests/unit/test_stats \
	tests/unit/test_aggregate \
	tests/unit/test_outliers \
	tests/unit/test_bootstrap \
	tests/unit/test_positions \
	tests/unit/test_groupkey \
	tests/unit/test_expect \
	tests/unit/test_analyze \
	tests/unit/test_logline \
	tests/unit/test_log_formats \
	tests/unit/test_harness \
	tests/unit/test_log_fixtures \
	tests/unit/test_logreq \
	tests/unit/test_windows \
	tests/unit/test_timing \
	tests/unit/test_timecol \
	tests/unit/test_decimal \
	tests/unit/test_speedup \
	tests/unit/test_profile \
	tests/unit/test_server_window \
	tests/unit/test_server_families \
	tests/unit/test_server_expo \
	tests/unit/test_server_json \
	tests/unit/test_server_procs \
	tests/unit/test_numfmt \
	tests/unit/test_report \
	tests/unit/test_chart \
	tests/unit/test_jsonw \
	tests/unit/test_escape \
	tests/unit/test_table \
	tests/unit/test_pool \
	tests/unit/test_progress \
	tests/unit/test_outputs \
	tests/unit/test_options \
	tests/unit/test_oom

check_PROGRAMS += $(SS_UNIT_TESTS)
TESTS += $(SS_UNIT_TESTS)
# Data the tests share.
noinst_HEADERS = tests/unit/fixtures_records.h tests/unit/server_samples.h \
	tests/unit/whole_dump.h

# Shared by every program without an _LDADD of its own (the unit tests and
# tests/tools/); cmocka's headers are on every compile's path.
SS_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
SS_TEST_LIBS = libspecscan.la $(CMOCKA_LIBS) $(SS_LIBS) $(LIBARCHIVE_LIBS)
AM_CPPFLAGS += $(CMOCKA_CFLAGS)
LDADD = $(SS_TEST_LIBS)

# The shim's test is strict C99: it also proves json.h is plain C.
tests_unit_test_json_CFLAGS = $(SS_TEST_CFLAGS) -std=c99 -pedantic-errors
tests_unit_test_json_LINK = $(CXXLINK)
