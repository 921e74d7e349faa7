/*
 * test_json_array.c - json.h's array-root open (ssj_open_array,
 * ssj_visit_array): a text whose root is an array opened in place and
 * read element by element, on every path the build has (the shim's
 * choice, On-Demand, the whole-text path), which must answer the same.
 * Expected answers are worked out by hand from the texts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/json_paths.h"

static const enum ssj_path paths[] = {SSJ_PATH_AUTO, SSJ_PATH_ONDEMAND, SSJ_PATH_WHOLE};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static int path_built(size_t k)
{
	return paths[k] != SSJ_PATH_WHOLE || ssj_whole_built();
}

static struct ssj_parser *parser_on(size_t k)
{
	struct ssj_parser *ps = ssj_parser_new();

	assert_non_null(ps);
	ssj_parser_set_path(ps, paths[k]);
	return ps;
}

/* A copy of s with padding after it (whose content must not matter). */
static char *padded(const char *s, size_t n)
{
	char *p = malloc(n + SSJ_PADDING);

	assert_non_null(p);
	memcpy(p, s, n);
	memset(p + n, ']', SSJ_PADDING);
	return p;
}

/* The status of ssj_open_array() on s, the same on every path. */
static enum ssj_status open_array_status(const char *s, size_t n)
{
	enum ssj_status first = SSJ_EINTERNAL;

	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		char *p;
		enum ssj_status st;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		p = padded(s, n);
		st = ssj_open_array(ps, p, n);
		if (st != SSJ_OK) /* nothing is left open */
			assert_int_equal(ssj_visit_array(ps, NULL, NULL), SSJ_EINTERNAL);
		free(p);
		ssj_parser_free(ps);
		if (k == 0)
			first = st;
		else if (st != first)
			fail_msg("path %d says %d, the shim's choice %d: %.*s", (int)paths[k], (int)st,
				 (int)first, (int)(n < 120 ? n : 120), s);
	}
	return first;
}

/* What a visit of the root array saw: each element's type and a text of it. */
struct seen {
	struct ssj_parser *ps;
	char desc[256];
	size_t n;
};

static int inner_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct seen *sn = ctx;
	const char *p;
	size_t len;
	size_t at = strlen(sn->desc);

	assert_int_equal(ssj_value_number_text(v, &p, &len), SSJ_OK);
	snprintf(sn->desc + at, sizeof(sn->desc) - at, "%.*s=%.*s;", (int)n, key, (int)len, p);
	return 0;
}

static int elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct seen *sn = ctx;
	size_t at = strlen(sn->desc);
	const char *p;
	size_t len;

	assert_int_equal(i, sn->n);
	sn->n++;
	switch (ssj_value_type(v)) {
	case SSJ_NUMBER:
		assert_int_equal(ssj_value_number_text(v, &p, &len), SSJ_OK);
		snprintf(sn->desc + at, sizeof(sn->desc) - at, "N%.*s ", (int)len, p);
		break;
	case SSJ_STRING:
		assert_int_equal(ssj_value_string(v, &p, &len), SSJ_OK);
		snprintf(sn->desc + at, sizeof(sn->desc) - at, "S%.*s ", (int)len, p);
		break;
	case SSJ_OBJECT:
		/* its text taken, then visited where it lies */
		assert_int_equal(ssj_value_raw_json(v, &p, &len), SSJ_OK);
		snprintf(sn->desc + at, sizeof(sn->desc) - at, "O");
		assert_int_equal(ssj_visit_span(sn->ps, p, len, inner_field, sn), SSJ_OK);
		at = strlen(sn->desc);
		snprintf(sn->desc + at, sizeof(sn->desc) - at, " ");
		break;
	case SSJ_ARRAY:
		assert_int_equal(ssj_value_raw_json(v, &p, &len), SSJ_OK);
		snprintf(sn->desc + at, sizeof(sn->desc) - at, "A%.*s ", (int)len, p);
		break;
	case SSJ_NULL:
		snprintf(sn->desc + at, sizeof(sn->desc) - at, "null ");
		break;
	default:
		fail_msg("unexpected type");
	}
	return 0;
}

/* Open s as an array on every path and describe its elements; all must agree with want. */
static void describe(const char *s, const char *want, size_t count)
{
	for (size_t k = 0; k < NPATHS; k++) {
		struct seen sn;
		char *p;

		if (!path_built(k))
			continue;
		memset(&sn, 0, sizeof(sn));
		sn.ps = parser_on(k);
		p = padded(s, strlen(s));
		assert_int_equal(ssj_open_array(sn.ps, p, strlen(s)), SSJ_OK);
		for (int twice = 0; twice < 2; twice++) { /* visits repeat */
			sn.desc[0] = '\0';
			sn.n = 0;
			assert_int_equal(ssj_visit_array(sn.ps, elem, &sn), SSJ_OK);
			assert_string_equal(sn.desc, want);
			assert_int_equal(sn.n, count);
		}
		/* the root is no object */
		assert_int_equal(ssj_visit(sn.ps, NULL, NULL), SSJ_ENOTOBJECT);
		free(p);
		ssj_parser_free(sn.ps);
	}
}

static void test_elements(void **state)
{
	(void)state;
	describe("[1, {\"a\":2,\"b\":-3.5}, [2,3], \"s\", null]",
		 "N1 Oa=2;b=-3.5; A[2,3] Ss null ", 5);
	describe("  [ ]  ", "", 0);
	describe("[\"a\\u0041\", {\"k\\u0042\":7}]", "SaA OkB=7; ", 2);
	describe("[[[]]]", "A[[]] ", 1);
}

static void test_statuses(void **state)
{
	(void)state;
	assert_int_equal(open_array_status("[1,2]", 5), SSJ_OK);
	assert_int_equal(open_array_status("\n[1]\r\n", 6), SSJ_OK);
	/* not an array root: not read further */
	assert_int_equal(open_array_status("{\"a\":1}", 7), SSJ_ETYPE);
	assert_int_equal(open_array_status("1", 1), SSJ_ETYPE);
	assert_int_equal(open_array_status("", 0), SSJ_ETYPE);
	/* broken arrays */
	assert_int_equal(open_array_status("[1,2", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[1]x", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[1],", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[1]]", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[1][2]", 6), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[1,]", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[nul]", 5), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[01]", 4), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[{\"a\"}]", 7), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[\"\\x\"]", 6), SSJ_ESYNTAX);
	assert_int_equal(open_array_status("[\"\xff\"]", 5), SSJ_EUTF8);
}

/* The array is the first of the 1,024 levels: 1,024 nested arrays open, 1,025 do not. */
static void test_depth(void **state)
{
	char s[2 * 1025 + 1];

	(void)state;
	for (size_t d = 1024; d <= 1025; d++) {
		memset(s, '[', d);
		memset(s + d, ']', d);
		s[2 * d] = '\0';
		assert_int_equal(open_array_status(s, 2 * d), d == 1024 ? SSJ_OK : SSJ_EDEPTH);
	}
}

/* An object opened after an array on the same parser reads as an object, and back. */
static void test_reuse(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		char *a, *o;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		a = padded("[1]", 3);
		o = padded("{\"a\":1}", 7);
		assert_int_equal(ssj_open_array(ps, a, 3), SSJ_OK);
		assert_int_equal(ssj_open(ps, o, 7), SSJ_OK);
		assert_int_equal(ssj_visit(ps, NULL, NULL), SSJ_OK);
		assert_int_equal(ssj_visit_array(ps, NULL, NULL), SSJ_ETYPE);
		/* ssj_open() still opens no array */
		assert_int_equal(ssj_open(ps, a, 3), SSJ_ENOTOBJECT);
		assert_int_equal(ssj_open_array(ps, a, 3), SSJ_OK);
		assert_int_equal(ssj_visit_array(ps, NULL, NULL), SSJ_OK);
		free(a);
		free(o);
		ssj_parser_free(ps);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elements),
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
