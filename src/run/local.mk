# run: the application core - the reader, the worker pool and its ordered
# collector, progress display
libspecscan_la_SOURCES += \
	src/run/run.c src/run/run.h \
	src/run/pool.c src/run/pool.h \
	src/run/progress.c src/run/progress.h \
	src/run/reqkeys.c src/run/reqkeys.h
