# io: input paths, decoded streams (file, zstd, gzip, libarchive), framing
libspecscan_la_SOURCES += \
	src/io/batch.c src/io/batch.h \
	src/io/stream.c src/io/stream.h src/io/source.h \
	src/io/source_file.c src/io/source_mem.c \
	src/io/source_zstd.c src/io/source_gzip.c src/io/source_archive.c \
	src/io/inputs.c src/io/inputs.h src/io/input_fail.c src/io/input_fail.h \
	src/io/spool.c src/io/spool.h \
	src/io/sniff.c src/io/sniff.h src/io/dirwalk.c src/io/dirwalk.h \
	src/io/artifacts.c src/io/artifacts.h src/io/container.c src/io/container.h \
	src/io/framer.c src/io/framer.h \
	src/io/compress.c src/io/compress.h

check_PROGRAMS += tests/unit/test_framer tests/unit/test_inputs tests/unit/test_spool tests/unit/test_compress \
	tests/unit/test_zstd_direct
TESTS += tests/unit/test_framer tests/unit/test_inputs tests/unit/test_spool tests/unit/test_compress \
	tests/unit/test_zstd_direct

check_PROGRAMS += tests/unit/test_sniff_scrape
TESTS += tests/unit/test_sniff_scrape
tests_unit_test_sniff_scrape_SOURCES = tests/unit/test_sniff_scrape.c
tests_unit_test_sniff_scrape_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_sniff_scrape_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_sniff_scrape_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_framer_SOURCES = tests/unit/test_framer.c
tests_unit_test_framer_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_framer_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_framer_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_inputs_SOURCES = tests/unit/test_inputs.c
tests_unit_test_inputs_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_inputs_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_inputs_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_spool_SOURCES = tests/unit/test_spool.c
tests_unit_test_spool_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_spool_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_spool_SOURCES = src/cli/force-cxx-link.cxx
tests_unit_test_compress_SOURCES = tests/unit/test_compress.c
tests_unit_test_compress_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_compress_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_compress_SOURCES = src/cli/force-cxx-link.cxx

tests_unit_test_zstd_direct_SOURCES = tests/unit/test_zstd_direct.c
tests_unit_test_zstd_direct_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_zstd_direct_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_zstd_direct_SOURCES = src/cli/force-cxx-link.cxx
