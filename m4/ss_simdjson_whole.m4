# ss_simdjson_whole.m4 - does simdjson have what the whole-text path uses?
#
# SS_CHECK_SIMDJSON_WHOLE
# -----------------------
# The whole-text JSON path (src/json/whole.cpp, numbers.cpp) uses what
# simdjson keeps private: the stage-1 parser behind dom::parser
# (create_dom_parser_implementation, stage1, the structural index) and its
# number reader. Links a C++ program that uses each of them. Uses
# SIMDJSON_CFLAGS and SIMDJSON_LIBS (PKG_CHECK_MODULES first); sets
# ss_cv_simdjson_whole to yes or no.
AC_DEFUN([SS_CHECK_SIMDJSON_WHOLE],
[AC_LANG_PUSH([C++])
ss_save_CPPFLAGS=$CPPFLAGS ss_save_LIBS=$LIBS
CPPFLAGS="$CPPFLAGS $SIMDJSON_CFLAGS"
LIBS="$SIMDJSON_LIBS $LIBS"
AC_CACHE_CHECK([whether simdjson provides what the whole-text JSON path uses],
  [ss_cv_simdjson_whole],
  [AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <simdjson.h>
#include <cstdint>
#include <memory>
using namespace simdjson;]], [[
	std::unique_ptr<internal::dom_parser_implementation> impl;
	error_code e = get_active_implementation()->create_dom_parser_implementation(
		4096, 1024, impl);
	if (!e)
		e = impl->set_capacity(8192);
	static const uint8_t text[64 + SIMDJSON_PADDING] = "{\"a\":1}";
	if (!e)
		e = impl->stage1(text, 7, stage1_mode::regular);
	const uint32_t *ix = impl->structural_indexes.get();
	uint32_t n = impl->n_structural_indexes;
	double d = 0;
	e = builtin::numberparsing::parse_double(text + 5).get(d);
	return (int)e + (int)n + (int)ix[0] + (int)d;]])],
    [ss_cv_simdjson_whole=yes], [ss_cv_simdjson_whole=no])])
CPPFLAGS=$ss_save_CPPFLAGS LIBS=$ss_save_LIBS
AC_LANG_POP([C++])
])
