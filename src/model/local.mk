# model: the engine-neutral types every stage shares (record, status, line
# kind, phase, engine names, metric names, a request's outcome)
libspecscan_la_SOURCES += \
	src/model/record.c src/model/record.h \
	src/model/metric.h src/model/outcome.h src/model/outcome.c \
	src/model/timing.c src/model/timing.h
