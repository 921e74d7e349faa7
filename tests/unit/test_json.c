/*
 * test_json.c - the simdjson shim through its C header: opening a text
 * (the complete check), visiting it, visiting a span of it, and reading
 * values. Every case runs on each path the build has (the shim's own
 * choice, On-Demand, and the whole-text path, forced per parser through
 * json_paths.h): both must answer the same. Expected answers are worked
 * out by hand from JSON's grammar (RFC 8259) and from what Python's json
 * and jq accept.
 *
 * This file is compiled as strict C99 (-std=c99 -pedantic-errors), which
 * also checks that json.h is plain C.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "json/json.h"
#include "json/json_paths.h"

/* The paths each case runs on: the shim's choice, then each forced. */
static const enum ssj_path paths[] = {SSJ_PATH_AUTO, SSJ_PATH_ONDEMAND, SSJ_PATH_WHOLE};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

/* Whether this build can take path k (the whole path may be missing). */
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

static char *padded_copy(const char *s, size_t n)
{
	char *p = malloc(n + SSJ_PADDING);

	assert_non_null(p);
	memcpy(p, s, n);
	memset(p + n, 'x', SSJ_PADDING);  /* padding content must not matter */
	return p;
}

/* Open the first n bytes of s (a padded copy) on ps; the copy is kept in
 * *keep for visits, to be freed by the caller. */
static enum ssj_status open_n(struct ssj_parser *ps, const char *s, size_t n, char **keep)
{
	char *p = padded_copy(s, n);
	enum ssj_status st = ssj_open(ps, p, n);

	if (keep)
		*keep = p;
	else
		free(p);
	return st;
}

/* Open s on path k and visit its root fields with fn: the visit's status. */
static enum ssj_status visit_on(size_t k, const char *s, ssj_field_fn fn, void *ctx)
{
	struct ssj_parser *ps = parser_on(k);
	char *p;
	enum ssj_status st;

	assert_int_equal(open_n(ps, s, strlen(s), &p), SSJ_OK);
	st = ssj_visit(ps, fn, ctx);
	free(p);
	ssj_parser_free(ps);
	return st;
}

/* The status of opening s on every path built; all must agree. */
static enum ssj_status open_status(const char *s, size_t n)
{
	enum ssj_status first = SSJ_EINTERNAL;

	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		enum ssj_status st;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		st = open_n(ps, s, n, NULL);
		ssj_parser_free(ps);
		if (k == 0)
			first = st;
		else if (st != first)
			fail_msg("path %d says %d, the shim's choice %d: %.*s", (int)paths[k], (int)st,
				 (int)first, (int)(n < 200 ? n : 200), s);
	}
	return first;
}

static void must_open(const char *s)
{
	enum ssj_status st = open_status(s, strlen(s));

	if (st != SSJ_OK)
		fail_msg("refused (%d): %s", (int)st, s);
}

static void must_refuse(const char *s, size_t n, enum ssj_status want)
{
	enum ssj_status st = open_status(s, n);

	if (st != want)
		fail_msg("status %d, want %d: %.*s", (int)st, (int)want, (int)(n < 200 ? n : 200), s);
}

struct seen {
	char text[512];
};

static void add(struct seen *s, const char *p, size_t n)
{
	size_t l = strlen(s->text);

	assert_true(l + n + 2 < sizeof(s->text));
	memcpy(s->text + l, p, n);
	s->text[l + n] = '|';
	s->text[l + n + 1] = '\0';
}

static int describe(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct seen *s = ctx;
	const char *p;
	size_t n;

	add(s, key, keylen);
	switch (ssj_value_type(v)) {
	case SSJ_NUMBER:
		assert_int_equal(ssj_value_number_text(v, &p, &n), SSJ_OK);
		add(s, p, n);
		break;
	case SSJ_STRING:
		assert_int_equal(ssj_value_raw_string(v, &p, &n), SSJ_OK);
		add(s, p, n);
		break;
	case SSJ_OBJECT:
	case SSJ_ARRAY:
		assert_int_equal(ssj_value_raw_json(v, &p, &n), SSJ_OK);
		add(s, p, n);
		break;
	case SSJ_NULL:
		assert_true(ssj_value_is_null(v));
		add(s, "null", 4);
		break;
	case SSJ_BOOL: {
		bool b;

		assert_int_equal(ssj_value_bool(v, &b), SSJ_OK);
		add(s, b ? "T" : "F", 1);
		break;
	}
	default:
		fail_msg("unexpected type");
	}
	return 0;
}

/* Open s on path k and describe its root fields, twice (visits repeat). */
static void visit_twice(size_t k, const char *s, const char *want)
{
	struct ssj_parser *ps = parser_on(k);
	char *p;
	struct seen a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	assert_int_equal(open_n(ps, s, strlen(s), &p), SSJ_OK);
	assert_int_equal(ssj_visit(ps, describe, &a), SSJ_OK);
	assert_int_equal(ssj_visit(ps, describe, &b), SSJ_OK);
	assert_string_equal(a.text, want);
	assert_string_equal(b.text, want);
	ssj_close(ps);
	assert_int_equal(ssj_visit(ps, describe, &b), SSJ_EINTERNAL);  /* nothing open */
	free(p);
	ssj_parser_free(ps);
}

static void test_visit(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++)
		if (path_built(k))
			visit_twice(k, " {\"a\": 1.50 , \"b\":\"x\\\"y\", \"c\":{\"d\":[1, 2]},\"e\":null,"
				    "\"f\":true,\"\\u0067\":-0 } ",
				    "a|1.50|b|x\\\"y|c|{\"d\":[1, 2]}|e|null|f|T|g|-0|");
}

/*
 * A text without a backslash is walked by its keys' and colons' offsets
 * (w_object_plain): white space between a key and its colon is not part
 * of the key, and containers are passed over whole. Digits-only numbers
 * are checked by one mask: a leading zero is refused, a lone 0 is not.
 */
static void test_plain_keys_and_counts(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++)
		if (path_built(k))
			visit_twice(k, "{\"ab\" :1,\"c\"\t\n:{\"d\":[1, 2]}, \"e\":\"x\" ,\"f\":[] ,"
				    "\"g\":0,\"hh\":1234567890123456789012345678901 }",
				    "ab|1|c|{\"d\":[1, 2]}|e|x|f|[]|g|0|hh|"
				    "1234567890123456789012345678901|");
	must_open("{\"a\":0}");
	must_open("{\"a\":-0}");
	must_open("{\"a\":9876543210}");
	must_refuse("{\"a\":00}", 8, SSJ_ESYNTAX);
	must_refuse("{\"a\":0123456789}", 16, SSJ_ESYNTAX);
	must_refuse("{\"a\":-01}", 9, SSJ_ESYNTAX);
}

/*
 * The grammar's short way for the usual number (digits, or digits '.'
 * digits, the next structural right after it) and every shape it hands
 * to the long way: a leading zero, a '.' without digits on either side,
 * an exponent, white space after it, 32 digits and more. The verdicts
 * are JSON's grammar (RFC 8259), not the program's.
 */
static void test_number_shapes(void **state)
{
	static const char *const good[] = {
		"{\"a\":1.5}", "{\"a\":0.25,\"b\":[10.0,7]}", "{\"a\":0.0}",
		"{\"a\":1.5 }", "{\"a\":1.5e3}", "{\"a\":2.5E-3,\"b\":1}",
		"{\"a\":[0,1.25]}", "{\"a\":12345678901234567890123456789012}",
		"{\"a\":1234567890123456789012345678.1234567}",
		"{\"a\":1234567890123456789012345678901.5}",
		"{\"a\":1.2345678901234567890123456789012}",
	};
	static const char *const bad[] = {
		"{\"a\":1.}", "{\"a\":1.,\"b\":2}", "{\"a\":01.5}", "{\"a\":00.5}",
		"{\"a\":1.5.5}", "{\"a\":1..5}", "{\"a\":.5}", "{\"a\":1.5e}",
		"{\"a\":1x}", "{\"a\":1.5x}", "{\"a\":12true}", "{\"a\":[1.]}",
		"{\"a\":1.5-}", "{\"a\":012345678901234567890123456789012}",
		"{\"a\":1234567890123456789012345678901.}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		must_open(good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		must_refuse(bad[i], strlen(bad[i]), SSJ_ESYNTAX);
}

/*
 * The grammar keeps the innermost container's closing bracket and takes
 * it back from the enclosing one when a nested container closes: the
 * fields after a nested array or object are read as the enclosing
 * container's, and a closing bracket of the other kind right after a
 * nested close is refused even when the brackets balance by count.
 */
static void test_closer_after_nested(void **state)
{
	static const char *const bad[] = {
		"{\"x\":{\"a\":[{\"b\":1}},\"c\":2]}", "{\"x\":[{\"a\":[1]],\"b\":2}}",
		"{\"x\":[[1],[2}],\"y\":{\"z\":3]}", "{\"x\":{\"a\":{}],\"b\":[]}}",
	};

	(void)state;
	for (size_t k = 0; k < NPATHS; k++)
		if (path_built(k))
			visit_twice(k, "{\"a\":[{\"b\":[1,{\"c\":2}]},[3],[]],\"d\":{\"e\":[]},\"f\":4,"
				    "\"g\":{\"h\":{\"i\":[[]]}},\"j\":\"k\"}",
				    "a|[{\"b\":[1,{\"c\":2}]},[3],[]]|d|{\"e\":[]}|f|4|"
				    "g|{\"h\":{\"i\":[[]]}}|j|k|");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		must_refuse(bad[i], strlen(bad[i]), SSJ_ESYNTAX);
}

/*
 * A digits-only number (and one with a fraction) of every length from 1
 * to 34 digits, at two offsets from the text's start, followed by the
 * byte before '0' and the byte after '9': the grammar's digit mask must
 * end each run exactly where the digits end (JSON: digits then '}' is a
 * number; '/' or ':' after it is not JSON; a leading zero is refused).
 */
static void test_digit_runs(void **state)
{
	static const char *const keys[] = {"a", "abcdefghijkl"};
	char digits[40], t[128];

	(void)state;
	for (int d = 1; d <= 34; d++) {
		for (int i = 0; i < d; i++)
			digits[i] = (char)('1' + (i % 9));
		digits[d] = '\0';
		for (size_t k = 0; k < 2; k++) {
			snprintf(t, sizeof(t), "{\"%s\":%s}", keys[k], digits);
			must_open(t);
			snprintf(t, sizeof(t), "{\"%s\":[%s,%s.05]}", keys[k], digits, digits);
			must_open(t);
			snprintf(t, sizeof(t), "{\"%s\":%s/}", keys[k], digits);
			must_refuse(t, strlen(t), SSJ_ESYNTAX);
			snprintf(t, sizeof(t), "{\"%s\":%s:}", keys[k], digits);
			must_refuse(t, strlen(t), SSJ_ESYNTAX);
			snprintf(t, sizeof(t), "{\"%s\":0%s}", keys[k], digits);
			must_refuse(t, strlen(t), SSJ_ESYNTAX);
			snprintf(t, sizeof(t), "{\"%s\":1.%s/}", keys[k], digits);
			must_refuse(t, strlen(t), SSJ_ESYNTAX);
		}
	}
}

static int stop_at_b(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	(void)ctx;
	(void)v;
	return keylen == 1 && key[0] == 'b';
}

static void test_errors(void **state)
{
	char *deep = malloc(3000);

	(void)state;
	assert_non_null(deep);
	must_refuse("{\"a\":1", 6, SSJ_ESYNTAX);
	must_refuse("{\"a\":1}}", 8, SSJ_ESYNTAX);
	must_refuse("", 0, SSJ_ESYNTAX);
	must_refuse("  \n", 3, SSJ_ESYNTAX);
	must_refuse("[1]", 3, SSJ_ENOTOBJECT);
	must_refuse("[1,]", 4, SSJ_ENOTOBJECT);  /* judged by its first byte */
	must_refuse("\"s\"", 3, SSJ_ENOTOBJECT);
	must_refuse("null", 4, SSJ_ENOTOBJECT);
	must_refuse("{\"a\":\"\xc3\x28\"}", 10, SSJ_EUTF8);
	memset(deep, '[', 3000);
	memcpy(deep, "{\"a\":", 5);
	must_refuse(deep, 3000, SSJ_ESYNTAX);  /* unclosed: refused before its depth */
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		char *p;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		assert_int_equal(open_n(ps, "{\"a\":1,\"b\":2,\"c\":3}", 19, &p), SSJ_OK);
		assert_int_equal(ssj_visit(ps, stop_at_b, NULL), SSJ_STOPPED);
		free(p);
		ssj_parser_free(ps);
	}
	free(deep);
}

/*
 * SPEC 1.2: 1,024 levels of nesting are valid, 1,025 are not, wherever
 * they stand (also in a part nobody reads). The root object is the first
 * level.
 */
static void test_depth(void **state)
{
	size_t cap = 16000;
	char *t = malloc(cap);

	(void)state;
	assert_non_null(t);
	for (int levels = 1023; levels <= 1026; levels++) {
		for (int kind = 0; kind < 2; kind++) {
			size_t n = 0;

			/* {"a": then levels - 1 containers: arrays, or objects */
			n += (size_t)sprintf(t + n, "{\"x\":1,\"a\":");
			for (int i = 1; i < levels; i++)
				n += (size_t)sprintf(t + n, kind ? "{\"k\":" : "[");
			n += (size_t)sprintf(t + n, "0");
			for (int i = 1; i < levels; i++)
				t[n++] = kind ? '}' : ']';
			n += (size_t)sprintf(t + n, ",\"z\":2}");
			assert_true(n < cap);
			if (levels <= 1024) {
				t[n] = '\0';
				must_open(t);
			} else {
				must_refuse(t, n, SSJ_EDEPTH);
			}
		}
	}
	free(t);
}

/*
 * Issue 20's broken structures, each inside a part no reader asks for: a
 * complete check refuses every one of them (SPEC 1.2 allows only a bad
 * number or literal to pass there, and the shim lets neither pass).
 */
static void test_broken_structure(void **state)
{
	static const char *const bad[] = {
		"{\"id\":[1 2]}", "{\"id\":[1,,2]}", "{\"id\":{\"a\" 1}}", "{\"id\":{1:2}}",
		"{\"id\":[\"a\":1]}", "{\"id\":\"v1\":1}", "{\"x\":},\"y\":1}", "{\"id\"::\"v1\"}",
		"{\"messages\":[{\"role\":\"user\"} {\"role\":\"x\"}]}", "{\"x\":[[[}}}}",
		"{\"extra\":[1 2}}", "{\"a\":[1,2]]}", "{\"a\":{]}", "{\"a\":[}", "{\"a\":[1}",
		"{\"a\":1,}", "{,\"a\":1}", "{\"a\":1 \"b\":2}", "{a:1}", "{\"a\":[1,]}",
		"{\"a\":[,1]}", "{\"a\"}", "{\"a\":}", "{\"a\":{}", "{\"a\":1}{}",
		"{\"a\":\"x\"y}", "{\"a\":\"x\"\"y\"}", "{\"a\"\"b\":1}",
		/* balanced by count, not by kind: '[' closed by '}' */
		"{\"a\":[{\"b\":1]}}", "{\"a\":{\"b\":[1}]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		must_refuse(bad[i], strlen(bad[i]), SSJ_ESYNTAX);
}

/*
 * Literals and numbers to the letter, wherever they stand: `false` (and
 * `true`, `null`) followed by any byte other than white space is not
 * JSON, at the root's first field and deep inside; the same for a NUL
 * byte. Issue 20, fault 1. A number followed by a digit is a longer
 * number; by anything else but white space, broken.
 */
static void test_literals_followed_by_each_byte(void **state)
{
	static const char *const words[] = {"false", "true", "null", "7"};
	/* where the word and its byte stand: before, and after */
	static const char *const frames[][2] = {
		{"{\"metadata\":", ",\"metrics\":{}}"},
		{"{\"a\":[{\"b\":[", "]}],\"z\":0}"},
	};
	char t[128];

	(void)state;
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]); f++) {
			for (int b = 0; b < 256; b++) {
				int n = snprintf(t, sizeof(t), "%s%s@%s", frames[f][0], words[w],
						 frames[f][1]);
				bool ws = b == ' ' || b == '\t' || b == '\n' || b == '\r';
				bool digit = w == 3 && b >= '0' && b <= '9';
				enum ssj_status st;

				assert_true(n > 0 && (size_t)n < sizeof(t));
				*strchr(t, '@') = (char)b;  /* the byte, NUL too */
				st = open_status(t, (size_t)n);
				if (ws || digit) {
					if (st != SSJ_OK)
						fail_msg("refused %s + byte %d (%d)", words[w], b, (int)st);
				} else if (b >= 0x80) {
					/* a lone byte from 0x80 is not UTF-8 either */
					if (st != SSJ_ESYNTAX && st != SSJ_EUTF8)
						fail_msg("took %s + byte %d", words[w], b);
				} else if (st != SSJ_ESYNTAX) {
					fail_msg("%s + byte %d: status %d", words[w], b, (int)st);
				}
			}
		}
	}
	must_refuse("{\"a\":falsee}", 12, SSJ_ESYNTAX);
	must_refuse("{\"a\":false1}", 12, SSJ_ESYNTAX);
	must_refuse("{\"a\":truex}", 11, SSJ_ESYNTAX);
	must_refuse("{\"a\":nul}", 9, SSJ_ESYNTAX);
	must_refuse("{\"a\":True}", 10, SSJ_ESYNTAX);
	must_refuse("{\"a\":NaN}", 9, SSJ_ESYNTAX);
	must_refuse("{\"a\":-Infinity}", 15, SSJ_ESYNTAX);
	must_refuse("{\"a\":01}", 8, SSJ_ESYNTAX);
	must_refuse("{\"a\":1.}", 8, SSJ_ESYNTAX);
	must_refuse("{\"a\":+1}", 8, SSJ_ESYNTAX);
}

/*
 * Numbers past the double range are valid JSON (Python reads 1e400 as
 * inf, jq as the largest double): a line whose metadata is one opens, and
 * its text reads as written; only asking for its double says ERANGE.
 * Issue 20, fault 3.
 */
static int read_metadata(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct seen *s = ctx;
	const char *p;
	size_t n;
	double d;

	if (keylen != 8 || memcmp(key, "metadata", 8) != 0)
		return 0;
	assert_int_equal(ssj_value_type(v), SSJ_NUMBER);
	assert_int_equal(ssj_value_raw_json(v, &p, &n), SSJ_OK);
	add(s, p, n);
	assert_int_equal(ssj_value_double(v, &d), SSJ_ERANGE);
	return 0;
}

static void test_numbers_past_double(void **state)
{
	static const char *const lines[] = {
		"{\"metadata\":1e400,\"metrics\":{}}",
		"{\"metadata\":-1e999,\"metrics\":{}}",
		"{\"metadata\":9223371e06854775808,\"metrics\":{}}",
	};
	static const char *const want[] = {"1e400|", "-1e999|", "9223371e06854775808|"};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (size_t k = 0; k < NPATHS; k++) {
			struct seen s;

			if (!path_built(k))
				continue;
			memset(&s, 0, sizeof(s));
			assert_int_equal(visit_on(k, lines[i], read_metadata, &s), SSJ_OK);
			assert_string_equal(s.text, want[i]);
		}
	}
}

/* Each string field, decoded and as written: key|decoded|raw| */
static int strings_of(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct seen *s = ctx;
	const char *p;
	size_t n;

	add(s, key, keylen);
	assert_int_equal(ssj_value_string(v, &p, &n), SSJ_OK);
	add(s, p, n);
	assert_int_equal(ssj_value_raw_string(v, &p, &n), SSJ_OK);
	add(s, p, n);
	return 0;
}

/*
 * A lone surrogate escape is valid JSON (Python's json and jq read it):
 * it opens, in a value or a key, and decodes to U+FFFD (EF BF BD), as
 * jq decodes it; its text as written is kept. A pair is one character
 * (U+1F600 is F0 9F 98 80). Issue 20, fault 4.
 */
static void test_lone_surrogates(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"{\"a\":\"\\ud800\"}", "a|\xef\xbf\xbd|\\ud800|"},
		{"{\"a\":\"\\udc00x\"}", "a|\xef\xbf\xbdx|\\udc00x|"},
		{"{\"a\":\"\\ud800\\ud800\"}", "a|\xef\xbf\xbd\xef\xbf\xbd|\\ud800\\ud800|"},
		{"{\"a\":\"\\ude00\\ud83d\"}", "a|\xef\xbf\xbd\xef\xbf\xbd|\\ude00\\ud83d|"},
		{"{\"a\":\"\\ud83d\\ude00\"}", "a|\xf0\x9f\x98\x80|\\ud83d\\ude00|"},
		{"{\"\\ud800k\":\"v\"}", "\xef\xbf\xbdk|v|v|"},
		{"{\"a\":\"\\uD800\\n\"}", "a|\xef\xbf\xbd\n|\\uD800\\n|"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t k = 0; k < NPATHS; k++) {
			struct seen s;

			if (!path_built(k))
				continue;
			memset(&s, 0, sizeof(s));
			assert_int_equal(visit_on(k, cases[i].text, strings_of, &s), SSJ_OK);
			assert_string_equal(s.text, cases[i].want);
		}
	}
}

/* Escapes that JSON does not have are refused wherever they stand. */
static void test_bad_escapes(void **state)
{
	static const char *const bad[] = {
		"{\"a\":\"x\\q\"}", "{\"a\":\"x\\u12G4\"}", "{\"a\":\"x\\u12\"}", "{\"a\":\"\\U0041\"}",
		"{\"a\":\"\\'\"}", "{\"a\":\"\\0\"}", "{\"a\":\"\\x41\"}", "{\"a\\q\":1}",
		"{\"a\":[\"ok\",\"\\a\"]}", "{\"a\":\"\\u\"}", "{\"a\":\"\\\\\\q\"}",
	};
	static const char *const good[] = {
		"{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uABCD\\uabcd\"}",
		"{\"a\":\"\\\\q\"}", "{\"a\":\"\\\\\\\\\"}", "{\"a\":\"\\\\\\\"\"}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		must_refuse(bad[i], strlen(bad[i]), SSJ_ESYNTAX);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		must_open(good[i]);
	/* a raw control character in a string: stage 1 refuses it */
	must_refuse("{\"a\":\"tab\there\"}", 16, SSJ_ESYNTAX);
	must_refuse("{\"a\":\"x\0y\"}", 11, SSJ_ESYNTAX);
}

struct numbers {
	double d;
	enum ssj_status st;
};

static int read_double(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct numbers *n = ctx;

	(void)key;
	(void)keylen;
	n->st = ssj_value_double(v, &n->d);
	return 0;
}

static struct numbers double_of(size_t k, const char *s)
{
	struct numbers n = {0.0, SSJ_EINTERNAL};

	assert_int_equal(visit_on(k, s, read_double, &n), SSJ_OK);
	return n;
}

static void test_doubles(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct numbers n;

		if (!path_built(k))
			continue;
		n = double_of(k, "{\"x\":0.1}");
		assert_int_equal(n.st, SSJ_OK);
		assert_true(n.d == 0.1);
		assert_true(double_of(k, "{\"x\":3}").d == 3.0);
		assert_int_equal(double_of(k, "{\"x\":1e400}").st, SSJ_ERANGE);
		assert_int_equal(double_of(k, "{\"x\":\"1\"}").st, SSJ_ETYPE);
		/*
		 * More than 19 significant digits, correctly rounded (simdjson
		 * 3.0.1 misread the first as 1.49e-10). The expected doubles
		 * are the nearest ones, written exactly: 1/3 to 17 digits;
		 * 1 + 2^-53 plus a little is past the midpoint and rounds up
		 * to 1 + 2^-52, the midpoint itself rounds to even (1.0).
		 */
		n = double_of(k, "{\"x\":0.33333333333333333333333333333}");
		assert_int_equal(n.st, SSJ_OK);
		assert_true(n.d == 0.33333333333333331);
		assert_true(double_of(k, "{\"x\":1.00000000000000011102230246251565404236316680908203126}").d ==
			    1.0000000000000002220446049250313);
		assert_true(double_of(k, "{\"x\":1.00000000000000011102230246251565404236316680908203125}").d ==
			    1.0);
		assert_true(double_of(k, "{\"x\":1234567890123456789012345678e-27}").d ==
			    1.234567890123456789);
		assert_int_equal(double_of(k, "{\"x\":10000000000000000000000000000000e400}").st,
				 SSJ_ERANGE);
		/* An integer literal converts exactly: -0 is +0.0. */
		n = double_of(k, "{\"x\":-0}");
		assert_true(n.d == 0.0 && !signbit(n.d));
		n = double_of(k, "{\"x\":-0.0}");
		assert_true(n.d == 0.0 && signbit(n.d));
		/* below the smallest subnormal: 0, as Python's float() reads it */
		n = double_of(k, "{\"x\":1e-400}");
		assert_int_equal(n.st, SSJ_OK);
		assert_true(n.d == 0.0);
	}
}

/* Each number field's text through ssj_number_double, in field order. */
struct texts_read {
	double d[8];
	size_t n;
};

static int number_text_double(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct texts_read *t = ctx;
	const char *p;
	size_t n;

	(void)key;
	(void)keylen;
	if (ssj_value_type(v) != SSJ_NUMBER)
		return 0;
	assert_int_equal(ssj_value_number_text(v, &p, &n), SSJ_OK);
	assert_true(t->n < 8);
	assert_int_equal(ssj_number_double(p, n, &t->d[t->n++]), SSJ_OK);
	return 0;
}

/*
 * ssj_number_double reads a number's text where it lies in its document,
 * ended by a comma, white space or a closing brace, on every path; one
 * has more than 19 digits (read by strtod). The expected doubles are the
 * C literals of the same decimals (the nearest doubles, as the reader
 * must give).
 */
static void test_number_text_double(void **state)
{
	static const char doc[] = "{\"a\":1.5,\"b\":-0.25 ,\"c\":2.7272727272727275\t,"
				  "\"d\":7e-1,\"e\":12345678901234567890123,\"f\":0.38961038961038963}";

	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct texts_read t = {{0}, 0};

		if (!path_built(k))
			continue;
		assert_int_equal(visit_on(k, doc, number_text_double, &t), SSJ_OK);
		assert_int_equal(t.n, 6);
		assert_true(t.d[0] == 1.5);
		assert_true(t.d[1] == -0.25);
		assert_true(t.d[2] == 2.7272727272727275);
		assert_true(t.d[3] == 0.7);
		assert_true(t.d[4] == 12345678901234567890123.0);
		assert_true(t.d[5] == 0.38961038961038963);
	}
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * ssj_number_double on random plain decimals, the shape records carry
 * (an optional '-', 1 to 21 digits, a point anywhere or none, no leading
 * zero before other integer digits; 20 and 21 digits are past the eight-
 * at-a-time reader's 19), each followed by a comma and padding: the same
 * double as the C library's strtod (correctly rounded), to the bit, but
 * for an integer literal, which JSON converts exactly (-0 is +0.0).
 */
static void test_number_double_against_strtod(void **state)
{
	uint64_t seed = UINT64_C(0xD1B54A32D192ED03);
	char text[32 + SSJ_PADDING];

	(void)state;
	for (int round = 0; round < 200000; round++) {
		size_t digits = 1 + xorshift(&seed) % 21;
		size_t point = xorshift(&seed) % (digits + 1);  /* == digits: none */
		size_t n = 0;
		double got = 1.0, want;
		uint64_t a, b;

		if (xorshift(&seed) % 4 == 0)
			text[n++] = '-';
		size_t first = n;
		for (size_t i = 0; i < digits; i++) {
			if (i == point && i > 0)
				text[n++] = '.';
			text[n++] = (char)('0' + xorshift(&seed) % 10);
		}
		if (text[first] == '0' && n > first + 1 && text[first + 1] != '.')
			text[first] = '1';
		text[n] = '\0';
		want = strtod(text, NULL);
		if (want == 0.0 && !strchr(text, '.'))
			want = 0.0;
		memset(text + n, ' ', SSJ_PADDING);
		text[n] = ',';
		assert_int_equal(ssj_number_double(text, n, &got), SSJ_OK);
		memcpy(&a, &got, sizeof(a));
		memcpy(&b, &want, sizeof(b));
		if (a != b)
			fail_msg("%.*s: %.17g, strtod %.17g", (int)n, text, got, want);
	}
}

/* The keys of the object field "o", through ssj_object_foreach_lens. */
struct lens_walk {
	uint64_t lens;
	struct seen seen;
};

static int key_only(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	(void)v;
	add(ctx, key, keylen);
	return 0;
}

static int lens_field(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct lens_walk *w = ctx;

	if (keylen == 1 && key[0] == 'o')
		assert_int_equal(ssj_object_foreach_lens(v, w->lens, key_only, &w->seen), SSJ_OK);
	return 0;
}

/*
 * Only the keys of a wanted length reach the callback, on every path:
 * lengths by the unescaped key, every length from 63 on under bit 63,
 * and SSJ_ALL_LENS passing all.
 */
static void test_foreach_lens(void **state)
{
	static const char k63[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char k70[] = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	char text[512], want[256];
	static const struct {
		uint64_t lens;
		const char *want;  /* %s: k63, then k70 */
	} cases[] = {
		{SSJ_LEN_BIT(2), "ab|cd|"},
		{SSJ_LEN_BIT(1) | SSJ_LEN_BIT(3), "x|xyz|"},
		{SSJ_LEN_BIT(0), "|"},
		{SSJ_LEN_BIT(63), "%s|%s|"},
		{SSJ_LEN_BIT(70), "%s|%s|"},
		{0, ""},
		{SSJ_ALL_LENS, "ab|x||xyz|%s|cd|%s|"},
	};

	(void)state;
	assert_true(SSJ_LEN_BIT(63) == SSJ_LEN_BIT(100));
	snprintf(text, sizeof(text),
		 "{\"o\":{\"ab\":1,\"x\":[2],\"\":{},\"x\\u0079z\":\"s\",\"%s\":true,"
		 "\"cd\":null,\"%s\":0}}",
		 k63, k70);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t k = 0; k < NPATHS; k++) {
			struct lens_walk w;

			if (!path_built(k))
				continue;
			memset(&w, 0, sizeof(w));
			w.lens = cases[i].lens;
			assert_int_equal(visit_on(k, text, lens_field, &w), SSJ_OK);
			snprintf(want, sizeof(want), cases[i].want, k63, k70);
			assert_string_equal(w.seen.text, want);
		}
	}
}

/* Every scalar reader on a field, its answer or its status, as text. */
static int read_all(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct seen *s = ctx;
	const char *p;
	size_t n;
	enum ssj_status st;

	add(s, key, keylen);
	st = ssj_value_number_text(v, &p, &n);
	add(s, st == SSJ_OK ? p : "E", st == SSJ_OK ? n : 1);
	st = ssj_value_string(v, &p, &n);
	add(s, st == SSJ_OK ? p : "E", st == SSJ_OK ? n : 1);
	st = ssj_value_raw_string(v, &p, &n);
	add(s, st == SSJ_OK ? p : "E", st == SSJ_OK ? n : 1);
	return 0;
}

/*
 * The scalar readers (inline in json.h for a value of the whole-text
 * path) answer alike on every path: in a text without a backslash, in
 * one with a backslash in a string (then a string without one is read
 * through the shim), with white space around the tokens, and a wrong
 * type is SSJ_ETYPE. A field is shown as key|number|string|raw|.
 */
static void test_scalar_readers(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"{\"n\": -1.5e3 , \"s\":\"ab c\" ,\"e\" :\"\",\"k\":7,\"o\":[1]}",
		 "n|-1.5e3|E|E|s|E|ab c|ab c|e|E|||k|7|E|E|o|E|E|E|"},
		{"{\"q\":\"x\\\"y\", \"p\" : \"plain\",\"z\":0,\"b\":true}",
		 "q|E|x\"y|x\\\"y|p|E|plain|plain|z|0|E|E|b|E|E|E|"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t k = 0; k < NPATHS; k++) {
			struct seen s;

			if (!path_built(k))
				continue;
			memset(&s, 0, sizeof(s));
			assert_int_equal(visit_on(k, cases[i].text, read_all, &s), SSJ_OK);
			assert_string_equal(s.text, cases[i].want);
		}
	}
}

/*
 * An object of the open document is visited where it lies, as often as
 * asked; a text outside it is checked and visited on its own, without
 * closing the document; a span that is no object of it (cut, an array,
 * inside a string) is taken as a text of its own, so a broken one is
 * refused and nothing visited.
 */
static void test_visit_span(void **state)
{
	static const char line[] = "{\"a\":{\"x\":1,\"y\":\"s\"},\"b\":[{\"z\":2}],\"c\":{},\"d\":\"{}\"}";
	static const char other[] = "{\"q\":[true]}";
	size_t n = strlen(line);

	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		char *p, *o;
		char *a, *z, *c, *d;
		struct seen s;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		assert_int_equal(open_n(ps, line, n, &p), SSJ_OK);
		a = p + 5, z = p + 26, c = p + 39, d = p + 47;
		/* the offsets above, by hand */
		assert_memory_equal(a, "{\"x\":1,\"y\":\"s\"}", 15);
		assert_memory_equal(z, "{\"z\":2}", 7);
		assert_memory_equal(c, "{}", 2);
		assert_memory_equal(d, "{}", 2);
		for (int again = 0; again < 2; again++) {
			memset(&s, 0, sizeof(s));
			assert_int_equal(ssj_visit_span(ps, a, 15, describe, &s), SSJ_OK);
			assert_string_equal(s.text, "x|1|y|s|");
		}
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, z, 7, describe, &s), SSJ_OK);
		assert_string_equal(s.text, "z|2|");
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, c, 2, describe, &s), SSJ_OK);
		assert_string_equal(s.text, "");
		/* the line is an object of itself */
		assert_int_equal(ssj_visit_span(ps, p, n, NULL, NULL), SSJ_OK);
		/* inside a string: a valid text of its own */
		assert_int_equal(ssj_visit_span(ps, d, 2, NULL, NULL), SSJ_OK);
		/* cut or too long: not valid on their own */
		memset(&s, 0, sizeof(s));
		assert_int_not_equal(ssj_visit_span(ps, a, 14, describe, &s), SSJ_OK);
		assert_int_not_equal(ssj_visit_span(ps, a + 1, 5, describe, &s), SSJ_OK);
		assert_int_equal(ssj_visit_span(ps, z - 1, 9, describe, &s), SSJ_ENOTOBJECT);
		assert_string_equal(s.text, "");
		/* a text elsewhere, then the document again */
		o = padded_copy(other, strlen(other));
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, o, strlen(other), describe, &s), SSJ_OK);
		assert_string_equal(s.text, "q|[true]|");
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, a, 15, describe, &s), SSJ_OK);
		assert_string_equal(s.text, "x|1|y|s|");
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit(ps, describe, &s), SSJ_OK);
		assert_string_equal(s.text, "a|{\"x\":1,\"y\":\"s\"}|b|[{\"z\":2}]|c|{}|d|{}|");
		/* a broken text elsewhere is refused */
		o[strlen(other) - 1] = ',';
		assert_int_equal(ssj_visit_span(ps, o, strlen(other), describe, &s), SSJ_ESYNTAX);
		free(o);
		free(p);
		ssj_parser_free(ps);
	}
}

/* Each object field: its keys through a foreach, then its text. */
static int keys_then_text(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct seen *s = ctx;
	const char *p;
	size_t n;

	add(s, key, keylen);
	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	assert_int_equal(ssj_object_foreach(v, key_only, s), SSJ_OK);
	assert_int_equal(ssj_value_raw_json(v, &p, &n), SSJ_OK);
	add(s, p, n);
	return 0;
}

/* An object a foreach went through still gives its text, on every path
 * (the metadata scan reads both). */
static void test_text_after_foreach(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct seen s;

		if (!path_built(k))
			continue;
		memset(&s, 0, sizeof(s));
		assert_int_equal(visit_on(k, "{\"m\":{\"a\":1, \"b\":{\"c\":[2]}} ,\"n\":3,"
					  "\"o\":{ } , \"p\":{\"q\":\"}\"}}",
					  keys_then_text, &s),
				 SSJ_OK);
		assert_string_equal(s.text, "m|a|b|{\"a\":1, \"b\":{\"c\":[2]}}|n|o|{ }|p|q|{\"q\":\"}\"}|");
	}
}

/* The text of the root's object field, kept in ctx (a struct span_of). */
struct span_of {
	const char *p;
	size_t n;
};

static int object_text(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct span_of *sp = ctx;

	(void)key;
	(void)keylen;
	if (ssj_value_type(v) == SSJ_OBJECT)
		assert_int_equal(ssj_value_raw_json(v, &sp->p, &sp->n), SSJ_OK);
	return 0;
}

/*
 * ssj_visit_span on an object whose text was just taken visits that
 * object; after another document is opened in the same buffer, an object
 * at the same place (another structural of the new index) is the new
 * document's, on every path.
 */
static void test_visit_span_same_place(void **state)
{
	/* both objects 10 bytes in, 7 long: structural 3, then 7 */
	static const char a[] = "{\"aaaaaa\":{\"x\":1}}", b[] = "{\"\":0,\"q\":{\"y\":3}}";
	char *buf = malloc(sizeof(b) + SSJ_PADDING);

	(void)state;
	assert_non_null(buf);
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		struct span_of sp = {NULL, 0};
		struct seen s;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		memset(buf, ' ', sizeof(b) + SSJ_PADDING);
		memcpy(buf, a, sizeof(a) - 1);
		assert_int_equal(ssj_open(ps, buf, sizeof(a) - 1), SSJ_OK);
		assert_int_equal(ssj_visit(ps, object_text, &sp), SSJ_OK);
		assert_true(sp.p == buf + 10 && sp.n == 7);
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, sp.p, sp.n, key_only, &s), SSJ_OK);
		assert_string_equal(s.text, "x|");
		ssj_close(ps);
		memcpy(buf, b, sizeof(b) - 1);
		assert_int_equal(ssj_open(ps, buf, sizeof(b) - 1), SSJ_OK);
		memset(&s, 0, sizeof(s));
		assert_int_equal(ssj_visit_span(ps, buf + 10, 7, key_only, &s), SSJ_OK);
		assert_string_equal(s.text, "y|");
		ssj_parser_free(ps);
	}
	free(buf);
}

/* A failed open leaves no document behind. */
static void test_failed_open_closes(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		char *p, *q;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		assert_int_equal(open_n(ps, "{\"a\":1}", 7, &p), SSJ_OK);
		assert_int_equal(open_n(ps, "{\"a\":1,}", 8, &q), SSJ_ESYNTAX);
		assert_int_equal(ssj_visit(ps, NULL, NULL), SSJ_EINTERNAL);
		free(p);
		free(q);
		ssj_parser_free(ps);
	}
}

/* Strings decoded during visits stay valid while the document is open. */
static int keep_string(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	const char **out = ctx;
	size_t n;

	(void)key;
	(void)keylen;
	assert_int_equal(ssj_value_string(v, out, &n), SSJ_OK);
	return 1;
}

static void test_string_lifetime(void **state)
{
	(void)state;
	for (size_t k = 0; k < NPATHS; k++) {
		struct ssj_parser *ps;
		const char *first = NULL, *second = NULL;
		char *p;

		if (!path_built(k))
			continue;
		ps = parser_on(k);
		assert_int_equal(open_n(ps, "{\"a\":\"x\\ty\"}", 12, &p), SSJ_OK);
		assert_int_equal(ssj_visit(ps, keep_string, &first), SSJ_STOPPED);
		assert_int_equal(ssj_visit(ps, keep_string, &second), SSJ_STOPPED);
		assert_memory_equal(first, "x\ty", 3);
		assert_memory_equal(second, "x\ty", 3);
		free(p);
		ssj_parser_free(ps);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_visit),
		cmocka_unit_test(test_plain_keys_and_counts),
		cmocka_unit_test(test_number_shapes),
		cmocka_unit_test(test_closer_after_nested),
		cmocka_unit_test(test_digit_runs),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_broken_structure),
		cmocka_unit_test(test_literals_followed_by_each_byte),
		cmocka_unit_test(test_numbers_past_double),
		cmocka_unit_test(test_lone_surrogates),
		cmocka_unit_test(test_bad_escapes),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_number_text_double),
		cmocka_unit_test(test_number_double_against_strtod),
		cmocka_unit_test(test_foreach_lens),
		cmocka_unit_test(test_visit_span_same_place),
		cmocka_unit_test(test_scalar_readers),
		cmocka_unit_test(test_visit_span),
		cmocka_unit_test(test_text_after_foreach),
		cmocka_unit_test(test_failed_open_closes),
		cmocka_unit_test(test_string_lifetime),
	};

	assert_non_null(ssj_version());
	if (!ssj_whole_built())
		printf("# the whole-text path is not built: its cases run On-Demand only\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
