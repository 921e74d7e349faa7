# report stage: number formatting, aggregate JSON, CSV, the console table,
# the enriched per-request JSONL and the SVG charts of the HTML report
libspecscan_la_SOURCES += \
	src/report/numfmt.c src/report/numfmt.h \
	src/report/report.h src/report/report_int.h src/report/report.c \
	src/report/jsonw.c src/report/jsonw.h src/report/results_json.c src/report/aggjson.c \
	src/report/csv.c \
	src/report/table.c src/report/jsonl.c \
	src/report/escape.c src/report/escape.h src/report/htmlesc.c src/report/htmlesc.h \
	src/report/chart_geom.c src/report/chart_geom.h src/report/chart.h \
	src/report/chart_svg.c src/report/chart_svg.h \
	src/report/chart_bars.c src/report/chart_lines.c src/report/chart_hist.c \
	src/report/html.c src/report/html.h src/report/html_int.h src/report/html_util.c \
	src/report/html_read.c src/report/html_table.c src/report/html_hist.c \
	src/report/html_positions.c src/report/html_dist.c src/report/html_groups.c \
	src/report/html_compare.c \
	src/report/grid.c src/report/grid.h src/report/tabular.c src/report/tabular.h \
	src/report/analysis_json.c src/report/analysis_csv.c \
	src/report/analysis_text.c src/report/analysis_text.h src/report/sec_definitions.c src/report/section.h \
	src/report/markdown.c \
	src/report/sec_windows.c src/report/sec_outliers.c \
	src/report/server_report.h src/report/server_jsoncsv.c src/report/server_text.c \
	src/report/html_server.c

check_PROGRAMS += tests/unit/test_numfmt tests/unit/test_report tests/unit/test_chart \
	tests/unit/test_jsonw tests/unit/test_escape tests/unit/test_table
TESTS += tests/unit/test_numfmt tests/unit/test_report tests/unit/test_chart \
	tests/unit/test_jsonw tests/unit/test_escape tests/unit/test_table

tests_unit_test_numfmt_SOURCES = tests/unit/test_numfmt.c
tests_unit_test_numfmt_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_numfmt_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_numfmt_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_report_SOURCES = tests/unit/test_report.c tests/unit/fixtures_records.h
tests_unit_test_report_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_report_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_report_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_jsonw_SOURCES = tests/unit/test_jsonw.c
tests_unit_test_jsonw_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_jsonw_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_jsonw_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_escape_SOURCES = tests/unit/test_escape.c tests/unit/fixtures_records.h
tests_unit_test_escape_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_escape_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_escape_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_table_SOURCES = tests/unit/test_table.c
tests_unit_test_table_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_table_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_table_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_chart_SOURCES = tests/unit/test_chart.c
tests_unit_test_chart_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_chart_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_chart_SOURCES = src/cli/force-cxx-link.cxx

# A helper for tests/cli/test_repr.py (doubles against Python's repr).
check_PROGRAMS += tests/unit/repr_tool
tests_unit_repr_tool_SOURCES = tests/unit/repr_tool.c
tests_unit_repr_tool_LDADD = libspecscan.la $(SS_LIBS)
nodist_EXTRA_tests_unit_repr_tool_SOURCES = src/cli/force-cxx-link.cxx
TESTS += tests/cli/test_repr.py

# A page with one chart of each kind, for tests/cli/test_htmlcheck.py.
check_PROGRAMS += tests/unit/chart_demo
tests_unit_chart_demo_SOURCES = tests/unit/chart_demo.c
tests_unit_chart_demo_LDADD = libspecscan.la $(SS_LIBS)
nodist_EXTRA_tests_unit_chart_demo_SOURCES = src/cli/force-cxx-link.cxx
