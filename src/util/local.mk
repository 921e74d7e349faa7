# util: allocation wrapper, growable arrays and buffer, messages, CPU level,
# small string helpers, the UTF-8 decoder, the terminal escaping
libspecscan_la_SOURCES += \
	src/util/alloc.c src/util/alloc.h \
	src/util/buf.c src/util/buf.h \
	src/util/cpu.c src/util/cpu.h \
	src/util/grow.c src/util/grow.h \
	src/util/msg.c src/util/msg.h \
	src/util/termesc.c src/util/termesc.h \
	src/util/ratio.c src/util/ratio.h \
	src/util/text.c src/util/text.h \
	src/util/utf8.h \
	src/util/memplan.c src/util/memplan.h \
	src/util/fileid.c src/util/fileid.h \
	src/util/stdfds.c src/util/stdfds.h

check_PROGRAMS += tests/unit/test_ratio
TESTS += tests/unit/test_ratio
tests_unit_test_ratio_SOURCES = tests/unit/test_ratio.c
tests_unit_test_ratio_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_ratio_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_ratio_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_memplan
TESTS += tests/unit/test_memplan
tests_unit_test_memplan_SOURCES = tests/unit/test_memplan.c
tests_unit_test_memplan_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_memplan_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_memplan_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_buf
TESTS += tests/unit/test_buf
tests_unit_test_buf_SOURCES = tests/unit/test_buf.c
tests_unit_test_buf_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_buf_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_buf_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_utf8
TESTS += tests/unit/test_utf8
tests_unit_test_utf8_SOURCES = tests/unit/test_utf8.c
tests_unit_test_utf8_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_utf8_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_utf8_SOURCES = src/cli/force-cxx-link.cxx
