# Fuzz targets, also built with an ordinary main() to replay their
# regression inputs in `make check`.
EXTRA_DIST += tests/fuzz/fuzz.sh tests/fuzz/make_input_seeds.py tests/fuzz/make_scrape_seeds.py tests/fuzz/regressions
check_PROGRAMS += tests/fuzz/replay_request tests/fuzz/replay_sse tests/fuzz/replay_inputs \
	tests/fuzz/replay_records tests/fuzz/replay_whole tests/fuzz/replay_scrape \
	tests/fuzz/replay_server_json \
	tests/fuzz/replay_report tests/fuzz/replay_logtail tests/fuzz/replay_expo_diff
tests_fuzz_replay_request_SOURCES = tests/fuzz/fuzz_request.c tests/fuzz/replay.c
tests_fuzz_replay_request_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_sse_SOURCES = tests/fuzz/fuzz_sse.c tests/fuzz/replay.c
tests_fuzz_replay_sse_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_inputs_SOURCES = tests/fuzz/fuzz_inputs.c tests/fuzz/replay.c
tests_fuzz_replay_inputs_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_records_SOURCES = tests/fuzz/fuzz_records.c tests/fuzz/replay.c \
	tests/fuzz/line_request.h
tests_fuzz_replay_records_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_whole_SOURCES = tests/fuzz/fuzz_whole.c tests/fuzz/replay.c \
	tests/fuzz/line_request.h tests/unit/whole_dump.h
tests_fuzz_replay_whole_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_scrape_SOURCES = tests/fuzz/fuzz_scrape.c tests/fuzz/replay.c
tests_fuzz_replay_scrape_LDADD = libspecscan.la $(SS_LIBS)
tests_fuzz_replay_server_json_SOURCES = tests/fuzz/fuzz_server_json.c tests/fuzz/replay.c
tests_fuzz_replay_server_json_LDADD = libspecscan.la $(SS_LIBS)

tests_fuzz_replay_report_SOURCES = tests/fuzz/fuzz_report.c tests/fuzz/replay.c
tests_fuzz_replay_report_LDADD = libspecscan.la $(SS_LIBS)
# The log readers of SPEC 12 (src/logs/): every line of the input.
tests_fuzz_replay_logtail_SOURCES = tests/fuzz/fuzz_logtail.c tests/fuzz/replay.c
tests_fuzz_replay_logtail_LDADD = libspecscan.la $(SS_LIBS)
TESTS += tests/fuzz/replay-regressions.sh
# The exposition reader against a reference reader written from SPEC 10.1.
tests_fuzz_replay_expo_diff_SOURCES = tests/fuzz/fuzz_expo_diff.c tests/fuzz/expo_ref.h \
	tests/fuzz/replay.c
tests_fuzz_replay_expo_diff_LDADD = libspecscan.la $(SS_LIBS)
