# run: the application core - the reader, the worker pool and its ordered
# collector, progress display
libspecscan_la_SOURCES += \
	src/run/run.c src/run/run.h
