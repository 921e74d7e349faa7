# cli: options, atomic output files, the threaded pipeline, main
libspecscan_la_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/options_analysis.c \
	src/cli/outfile.c src/cli/outfile.h \
	src/cli/pipeline.c src/cli/pipeline.h \
	src/cli/reqkeys.c src/cli/reqkeys.h
