# json: the simdjson shim. Its C++ (the only C++ in the tree) is built once
# per instruction-set variant, each in a namespace of its own;
# json_dispatch.c picks one at run time.
SSJ_CXX_SOURCES = src/json/shim.h src/json/shim.cpp src/json/ondemand.cpp \
	src/json/whole.cpp src/json/strings.cpp src/json/numbers.cpp
libspecscan_la_SOURCES += src/json/json.h src/json/json_ops.h src/json/json_paths.h \
	src/json/json_dispatch.c src/json/unescape.c src/json/unescape.h
noinst_LTLIBRARIES += libssj_generic.la
libssj_generic_la_SOURCES = $(SSJ_CXX_SOURCES)
libssj_generic_la_CXXFLAGS = $(AM_CXXFLAGS) -DSSJ_OPS_NAME=ssj_ops_generic -DSSJ_NS=ssj_generic
libspecscan_la_LIBADD = libssj_generic.la
if SSJ_HASWELL
noinst_LTLIBRARIES += libssj_haswell.la
libssj_haswell_la_SOURCES = $(SSJ_CXX_SOURCES)
libssj_haswell_la_CXXFLAGS = $(AM_CXXFLAGS) -DSSJ_OPS_NAME=ssj_ops_haswell -DSSJ_NS=ssj_haswell \
	-mavx2 -mbmi -mbmi2 -mpclmul -mlzcnt -mpopcnt
libspecscan_la_LIBADD += libssj_haswell.la
endif

# The shim's unit test is strict C99: it also proves json.h is plain C.
check_PROGRAMS += tests/unit/test_json
TESTS += tests/unit/test_json
tests_unit_test_json_SOURCES = tests/unit/test_json.c
tests_unit_test_json_CFLAGS = $(SS_TEST_CFLAGS) -std=c99 -pedantic-errors
tests_unit_test_json_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_json_SOURCES = src/cli/force-cxx-link.cxx

check_PROGRAMS += tests/unit/test_whole
TESTS += tests/unit/test_whole
tests_unit_test_whole_SOURCES = tests/unit/test_whole.c tests/unit/whole_dump.h
tests_unit_test_whole_CFLAGS = $(SS_TEST_CFLAGS)
tests_unit_test_whole_LDADD = $(SS_TEST_LIBS)
nodist_EXTRA_tests_unit_test_whole_SOURCES = src/cli/force-cxx-link.cxx
