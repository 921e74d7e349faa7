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
