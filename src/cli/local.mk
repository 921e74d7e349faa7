# cli: the option table, atomic output files, main
libspecscan_la_SOURCES += \
	src/cli/options.c src/cli/options.h \
	src/cli/outfile.c src/cli/outfile.h
