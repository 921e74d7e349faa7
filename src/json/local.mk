# json: the simdjson shim. json.cpp, the only C++ in the tree, is built once
# per instruction-set variant; json_dispatch.c picks one at run time.
libspecscan_la_SOURCES += src/json/json.h src/json/json_ops.h src/json/json_dispatch.c
noinst_LTLIBRARIES += libssj_generic.la
libssj_generic_la_SOURCES = src/json/json.cpp
libssj_generic_la_CXXFLAGS = $(AM_CXXFLAGS) -DSSJ_OPS_NAME=ssj_ops_generic
libspecscan_la_LIBADD = libssj_generic.la
if SSJ_HASWELL
noinst_LTLIBRARIES += libssj_haswell.la
libssj_haswell_la_SOURCES = src/json/json.cpp
libssj_haswell_la_CXXFLAGS = $(AM_CXXFLAGS) -DSSJ_OPS_NAME=ssj_ops_haswell \
	-mavx2 -mbmi -mbmi2 -mpclmul -mlzcnt -mpopcnt
libspecscan_la_LIBADD += libssj_haswell.la
endif
