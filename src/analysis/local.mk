# analysis stage (SPEC 7): the bootstrap and its generator, acceptance by
# position, the --group-by keys, --expect gates. It reads only what the
# aggregate keeps (per-request samples, histograms pooled per k, groups).
libspecscan_la_SOURCES += \
	src/analysis/rng.h \
	src/analysis/bootstrap.c src/analysis/bootstrap.h \
	src/analysis/positions.c src/analysis/positions.h \
	src/analysis/groupkey.c src/analysis/groupkey.h \
	src/analysis/expect.c src/analysis/expect.h \
	src/analysis/windows.c src/analysis/windows.h \
	src/analysis/analyze.c src/analysis/analyze.h \
	src/analysis/timestats.c src/analysis/timestats.h \
	src/analysis/speedup.c src/analysis/speedup.h src/analysis/speedup_run.c \
	src/analysis/profile.c src/analysis/profile.h
