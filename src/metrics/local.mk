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
	src/metrics/timekeep.c src/metrics/timekeep.h \
	src/metrics/timecol.c src/metrics/timecol.h
