/*
 * Unit tests of the JSON writer (report/jsonw.h): the expected texts are
 * json.dumps(..., indent=2) of the same values, written out by hand.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/jsonw.h"

static void test_layout(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct ss_jsonw w;

	(void)state;
	ss_jsonw_init(&w, &b);
	ss_jsonw_begin_object(&w, NULL);
	ss_jsonw_u64(&w, "a", 1);
	ss_jsonw_begin_array(&w, "b");
	ss_jsonw_end_array(&w);
	ss_jsonw_begin_object(&w, "c");
	ss_jsonw_end_object(&w);
	ss_jsonw_begin_array(&w, "d");
	ss_jsonw_double(&w, NULL, 1.5);
	ss_jsonw_null(&w, NULL);
	ss_jsonw_bool(&w, NULL, true);
	ss_jsonw_str(&w, NULL, "x\"y");
	ss_jsonw_begin_object(&w, NULL);
	ss_jsonw_i64(&w, "f", -3);
	ss_jsonw_end_object(&w);
	ss_jsonw_end_array(&w);
	ss_jsonw_end_object(&w);
	assert_false(b.failed);
	assert_int_equal(w.depth, 0);
	assert_string_equal(b.data, "{\n"
				    "  \"a\": 1,\n"
				    "  \"b\": [],\n"
				    "  \"c\": {},\n"
				    "  \"d\": [\n"
				    "    1.5,\n"
				    "    null,\n"
				    "    true,\n"
				    "    \"x\\\"y\",\n"
				    "    {\n"
				    "      \"f\": -3\n"
				    "    }\n"
				    "  ]\n"
				    "}");
	ss_buf_release(&b);
}

static void test_values(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct ss_jsonw w;

	(void)state;
	ss_jsonw_init(&w, &b);
	ss_jsonw_begin_object(&w, NULL);
	ss_jsonw_u64(&w, "max", UINT64_MAX);
	ss_jsonw_i128(&w, "big", (__int128)UINT64_MAX * 16);
	ss_jsonw_double(&w, "eight", 8.0);
	ss_jsonw_double(&w, "inf", INFINITY);
	ss_jsonw_bool(&w, "no", false);
	ss_jsonw_strn(&w, "cut", "abcdef", 3);
	ss_buf_adds(ss_jsonw_value(&w, "raw"), "7");
	ss_jsonw_end_object(&w);
	assert_false(b.failed);
	assert_string_equal(b.data, "{\n"
				    "  \"max\": 18446744073709551615,\n"
				    "  \"big\": 295147905179352825840,\n"
				    "  \"eight\": 8.0,\n"
				    "  \"inf\": null,\n"
				    "  \"no\": false,\n"
				    "  \"cut\": \"abc\",\n"
				    "  \"raw\": 7\n"
				    "}");
	ss_buf_release(&b);
}

/* A bare value at the top has nothing in front of it. */
static void test_top_value(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct ss_jsonw w;

	(void)state;
	ss_jsonw_init(&w, &b);
	ss_jsonw_begin_array(&w, NULL);
	ss_jsonw_end_array(&w);
	assert_false(b.failed);
	assert_string_equal(b.data, "[]");
	ss_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_top_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
