/*
 * Unit tests of the JSON writer (report/jsonw.h): the expected texts are
 * json.dumps(..., indent=2) of the same values, and JSON's string escapes,
 * written out by hand.
 */
#include <math.h>
#include <stdio.h>
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

/*
 * A JSON string of a text: each special byte or sequence at every place
 * of texts of 0 to 24 plain bytes (the writer looks at eight bytes at a
 * time, so a special one falls at every place in such a group and in
 * the tail after the last one). The escapes are JSON's, written by hand.
 */
static void test_text_escapes(void **state)
{
	static const struct {
		const char *in, *out;
	} special[] = {
		{"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {"\t", "\\t"},
		{"\x1f", "\\u001f"}, {"\x01", "\\u0001"}, {"\x7f", "\x7f"},
		{" ", " "}, {"\xc3\xa9", "\xc3\xa9"}, {"\xe2\x82\xac", "\xe2\x82\xac"},
		{"\xff", "\\ufffd"}, {"\xc3", "\\ufffd"},
		/* each byte of a bad sequence is invalid on its own (util/utf8.h):
		 * an overlong NUL, a surrogate, a sequence cut short */
		{"\xc0\x80", "\\ufffd\\ufffd"}, {"\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd"},
		{"\xe2\x82", "\\ufffd\\ufffd"}, {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},
	};
	struct ss_buf b;
	char in[64], want[96];

	(void)state;
	ss_buf_init(&b);
	for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); k++) {
		for (size_t len = 0; len <= 24; len++) {
			for (size_t at = 0; at <= len; at++) {
				size_t sl = strlen(special[k].in);

				memset(in, 'a', at);
				memcpy(in + at, special[k].in, sl);
				memset(in + at + sl, 'b', len - at);
				snprintf(want, sizeof(want), "\"%.*s%s%.*s\"", (int)at,
					 "aaaaaaaaaaaaaaaaaaaaaaaa", special[k].out, (int)(len - at),
					 "bbbbbbbbbbbbbbbbbbbbbbbb");
				ss_buf_reset(&b);
				ss_buf_add_json_string(&b, in, len + sl);
				assert_false(b.failed);
				assert_int_equal(b.len, strlen(want));
				assert_memory_equal(b.data, want, b.len);
			}
		}
	}
	ss_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_text_escapes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_top_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
