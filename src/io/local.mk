# io: input paths, decoded streams (file, zstd, gzip, libarchive), framing
libspecscan_la_SOURCES += \
	src/io/batch.c src/io/batch.h \
	src/io/stream.c src/io/stream.h src/io/source.h \
	src/io/source_file.c src/io/source_mem.c \
	src/io/source_zstd.c src/io/source_gzip.c src/io/source_archive.c \
	src/io/inputs.c src/io/inputs.h src/io/input_fail.c src/io/input_fail.h \
	src/io/spool.c src/io/spool.h \
	src/io/sniff.c src/io/sniff.h src/io/dirwalk.c src/io/dirwalk.h \
	src/io/artifacts.c src/io/artifacts.h src/io/aiperf_conf.c src/io/aiperf_conf.h \
	src/io/looks.c src/io/looks.h \
	src/io/container.c src/io/container.h \
	src/io/framer.c src/io/framer.h \
	src/io/compress.c src/io/compress.h \
	src/io/archive_lib.c src/io/archive_lib.h
