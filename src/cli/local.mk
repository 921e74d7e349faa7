# cli: the option table, atomic output files, main
libspecscan_la_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/options_analysis.c \
	src/cli/outfile.c src/cli/outfile.h src/cli/hints.c src/cli/hints.h \
	src/cli/outputs.c src/cli/outputs.h \
	src/cli/server_cli.c src/cli/server_cli.h
