# report stage: number formatting, aggregate JSON, CSV, the console table,
# the enriched per-request JSONL and the SVG charts of the HTML report
libspecscan_la_SOURCES += \
	src/report/numfmt.c src/report/numfmt.h \
	src/report/report.h src/report/report_int.h src/report/report.c \
	src/report/jsonw.c src/report/jsonw.h \
	src/report/jsonl.c \
	src/report/escape.c src/report/escape.h src/report/htmlesc.c src/report/htmlesc.h \
	src/report/chart_geom.c src/report/chart_geom.h src/report/chart.h \
	src/report/chart_svg.c src/report/chart_svg.h \
	src/report/chart_bars.c src/report/chart_lines.c src/report/chart_hist.c \
	src/report/html.c src/report/html.h src/report/html_int.h \
	src/report/tabular.c src/report/tabular.h src/report/tabular_fmt.c src/report/tabular_int.h \
	src/report/textfit.c src/report/textfit.h \
	src/report/sec_definitions.c src/report/section.h \
	src/report/sec_positions.c src/report/sec_positions_page.c src/report/postable.h \
	src/report/sec_groups.c src/report/sec_groups_page.c \
	src/report/sec_windows.c src/report/sec_outliers.c src/report/sec_intervals.c src/report/sec_results.c src/report/sec_read.c src/report/sec_server_groups.c src/report/sec_speedup.c src/report/sec_logs.c src/report/sec_profile.c \
	src/report/sec_server.c src/report/sec_server_page.c \
	src/report/bestk.c src/report/bestk.h src/report/flat.c src/report/flat.h
