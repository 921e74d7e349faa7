/*
 * test_whole.c - the shim's two paths against each other: the whole-text
 * path (simdjson's stage-1 index checked by the shim's grammar pass) and
 * On-Demand (a complete validating walk), forced per parser
 * (json_paths.h), and the shim's own choice.
 *
 * The contract: for every text both open with the same status, and for a
 * valid one every value a reader can ask for (types, number texts,
 * doubles, decoded strings, raw strings, spans, emptiness, in document
 * order, on a first visit and a second) is the same. Checked on
 * hand-picked texts (some to take, some to refuse), cuts of valid ones,
 * nesting at the limit, and many generated and mutated texts; and the
 * escape check against a plain reading of JSON's string grammar written
 * here. A build without the whole-text path skips this test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/json_paths.h"

#define WHOLE_CHECK(c) assert_true(c)
#include "whole_dump.h"

/* ---- comparing the two paths on one text ---- */

static struct ssj_parser *pw, *po, *pa;

static char *padded(const char *s, size_t n)
{
	char *p = malloc(n + SSJ_PADDING);

	assert_non_null(p);
	memcpy(p, s, n);
	memset(p + n, '7', SSJ_PADDING);  /* padding content must not matter */
	return p;
}

static void dump_free(struct dump *d)
{
	free(d->s);
	memset(d, 0, sizeof(*d));
}

/*
 * Open the text on both paths (and the shim's choice): the same status,
 * and for a valid text the same dumps (every value, then the spans), two
 * visits each. Returns the status; fails the test on any disagreement.
 */
static enum ssj_status compare(const char *s, size_t n)
{
	char *text = padded(s, n);
	struct dump a = {0}, b = {0}, c = {0}, e = {0};
	enum ssj_status sw, so, sa;

	a.base = b.base = c.base = e.base = text;
	c.parser = pw;
	e.parser = po;
	sw = ssj_open(pw, text, n);
	so = ssj_open(po, text, n);
	sa = ssj_open(pa, text, n);
	/* WHOLE_FAIL_DUMP=FILE keeps a text the paths disagree on, to debug */
	if ((sw != so || sa != so) && getenv("WHOLE_FAIL_DUMP")) {
		FILE *f = fopen(getenv("WHOLE_FAIL_DUMP"), "wb");
		fwrite(s, 1, n, f);
		fclose(f);
	}
	if (sw != so || sa != so)
		fail_msg("whole %d, On-Demand %d, shim %d: %.*s", (int)sw, (int)so, (int)sa,
			 (int)(n < 300 ? n : 300), s);
	if (sw == SSJ_OK) {
		assert_int_equal(ssj_parser_path_used(pw), SSJ_PATH_WHOLE);
		assert_int_equal(ssj_parser_path_used(po), SSJ_PATH_ONDEMAND);
		for (int again = 0; again < 2; again++) {
			assert_int_equal(ssj_visit(pw, field, &a), SSJ_OK);
			assert_int_equal(ssj_visit(po, field, &b), SSJ_OK);
			assert_string_equal(a.s ? a.s : "", b.s ? b.s : "");
			assert_int_equal(ssj_visit(pw, span_field, &c), SSJ_OK);
			assert_int_equal(ssj_visit(po, span_field, &e), SSJ_OK);
			assert_string_equal(c.s ? c.s : "", e.s ? e.s : "");
		}
	}
	dump_free(&a);
	dump_free(&b);
	dump_free(&c);
	dump_free(&e);
	free(text);
	return sw;
}

static void must_take(const char *s)
{
	if (compare(s, strlen(s)) != SSJ_OK)
		fail_msg("refused a valid text: %s", s);
}

static void must_refuse(const char *s, size_t n)
{
	if (compare(s, n) == SSJ_OK)
		fail_msg("took an invalid text: %.*s", (int)n, s);
}

static int setup(void **state)
{
	(void)state;
	pw = ssj_parser_new();
	po = ssj_parser_new();
	pa = ssj_parser_new();
	if (!pw || !po || !pa)
		return -1;
	ssj_parser_set_path(pw, SSJ_PATH_WHOLE);
	ssj_parser_set_path(po, SSJ_PATH_ONDEMAND);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ssj_parser_free(pw);
	ssj_parser_free(po);
	ssj_parser_free(pa);
	return 0;
}

static void takes_valid_texts(void **state)
{
	static const char *const ok[] = {
		"{}",
		" \t\r\n{ } \n",
		"{\"a\":1}",
		"{\"metadata\":{\"benchmark_phase\":\"profiling\",\"was_cancelled\":false},"
		"\"metrics\":{\"x\":{\"value\":241.63621701857465,\"unit\":\"ms\"}},"
		"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"acceptance_histogram\":"
		"{\"0\":21,\"1\":11},\"num_spec_steps\":55,\"per_step_accepted\":[1,2,3]}}",
		"{ \"a\" : [ 1 , -0 , 0.5e-3 , 1E+2 , -12.75 ] , \"b\" : { } , \"c\" : [ ] }",
		"{\"big\":123456789012345678901234567890,\"huge\":1e400,\"tiny\":1e-400,"
		"\"long\":0.33333333333333333333333333333,\"neg\":-9223372036854775809}",
		"{\"esc\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\","
		"\"k\\u0065y\":true,\"\":null,\"x\":false}",
		"{\"utf8\":\"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80\"}",
		"{\"nest\":[[[{\"a\":[{}]}]],{\"b\":[[],[{}]]}],\"after\":\"x\"}",
		"{\"dup\":1,\"dup\":2,\"dup\":{\"z\":[true]}}",
		"{\"a\":[{}]}",
		"{\"s\":\"\",\"t\":\"{[,:]}\",\"u\":\" \"}",
		"{\"n\":0,\"m\":-0.0,\"o\":1.0,\"p\":10,\"q\":0e0}",
		/* the digits' edges: '0' and '9' ('/' and ':' lie next to them) */
		"{\"a\":9,\"b\":-90.09e9,\"c\":0.9E-09,\"d\":1234567890123456789012345678901234567890}",
		/* white space between a string's closing quote and what follows */
		"{\"a\" :\"x\" ,\"b\"\t:\t\"y\"\r\n,\"c\"\n:[\"z\" ,\"w\"\n]\n}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		must_take(ok[i]);
}

static void refuses_invalid_texts(void **state)
{
	static const char *const bad[] = {
		"", " ", "[]", "1", "\"s\"", "null",
		"{", "}", "{}}", "{} {}", "{}x", "{\"a\":1}1",
		"{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,\"a\":1}", "{\"a\":1 \"b\":2}",
		"{a:1}", "{1:1}", "{\"a\":[1,]}", "{\"a\":[,1]}", "{\"a\":[1 2]}", "{\"a\":[}",
		"{\"a\":{]}", "{\"a\":[1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}",
		"{\"a\":+1}", "{\"a\":1e}", "{\"a\":1e+}", "{\"a\":0x10}", "{\"a\":1.5x}",
		"{\"a\":1/2}", "{\"a\":/1}", "{\"a\":9/}", "{\"a\":0.9/}", "{\"a\":1e/}",
		"{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":tru}",
		"{\"a\":truex}", "{\"a\":nul}", "{\"a\":nulll}", "{\"a\":True}", "{\"a\":fals}",
		"{\"a\":\"x\\q\"}", "{\"a\":\"x\\u12G4\"}", "{\"a\":\"x\\u12\"}",
		"{\"a\":\"x\"y\"}", "{\"a\":\"unclosed}", "{\"a\":\"tab\there\"}",
		"{\"a\":\"\xff\"}", "{\"a\":\"\xc3\"}", "{\"a\":\"\xed\xa0\x80\"}",
		"{\"a\":'x'}", "{\"a\":[1,2]]}", "{\"a\":1}}",
		/* an inner container closed last; a second object after the root */
		"{\"a\":{}", "{\"a\":1}{}",
		/* anything but white space after a closing quote (the whole path
		 * takes a string without a backslash as it stands) */
		"{\"a\":\"x\"y}", "{\"a\":\"x\"1}", "{\"a\":\"x\"\"y\"}", "{\"a\"\"b\":1}",
		"{\"a\"x:1}", "{\"a\":\"x\"\f}", "{\"a\":\"x\"\v}", "{\"a\":[\"x\"\"y\"]}",
		"{\"a\":\"x\"\xc3\xa9}", "{\"a\":\"x\"true}", "{\"a\":\"x\"-}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		must_refuse(bad[i], strlen(bad[i]));
	must_refuse("{\"a\":\"x\0y\"}", 11);  /* a NUL inside a string */
	must_refuse("{\"a\":1}\0", 8);
}

/* What the On-Demand path alone says of s. */
static bool usual_valid(const char *s, size_t n)
{
	char *text = padded(s, n);
	enum ssj_status st = ssj_open(po, text, n);

	free(text);
	return st == SSJ_OK;
}

/*
 * The grammar check reads no structural past the last one (it checks that
 * one is the root's closing brace, then bounds only the steps after an
 * inner container closes). A valid object is the only valid text among
 * its prefixes (no JSON object is a prefix of another valid text), so
 * every shorter cut must be refused; the same cut with a '}' after it is
 * taken exactly when the On-Demand path calls it valid. With and without
 * a backslash in the text.
 */
static void cuts_of_valid_texts(void **state)
{
	static const char *const texts[] = {
		"{\"a\":{\"b\":[1,{\"c\":[]},[2.5,-0e1]],\"d\":{}},\"e\":[[],{}],\"f\":\"x\"}",
		"{\"a\":[{\"b\":\"q\\\"r\"}],\"c\":{\"d\":null,\"e\":true}, \"f\" : [ \"\\u0041\" ] }",
		"{}",
		"{\"a\":{}}",
		"{\"a\":[]}",
	};
	char buf[256];

	(void)state;
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		size_t n = strlen(texts[t]);

		assert_true(n + 2 < sizeof(buf));
		must_take(texts[t]);
		for (size_t k = 0; k < n; k++) {
			must_refuse(texts[t], k);
			memcpy(buf, texts[t], k);
			buf[k] = '}';
			assert_int_equal(compare(buf, k + 1) == SSJ_OK, usual_valid(buf, k + 1));
		}
	}
}

/*
 * Nesting near the limit (1,024 levels, the root the first), and deep
 * nesting with other faults: both paths give the same status (the
 * whole-text path refuses a text whose end is broken before its depth,
 * as On-Demand does), however the padding after the text starts.
 */
static void deep_nesting(void **state)
{
	static const char *const tails[] = {"", "x", "]", "}", ",1}"};
	size_t cap = 8000;
	char *buf = malloc(cap + SSJ_PADDING);

	(void)state;
	assert_non_null(buf);
	for (int levels = 1020; levels <= 1030; levels++) {
		for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
			for (int closers = levels - 2; closers <= levels; closers++) {
				size_t n = (size_t)sprintf(buf, "{\"a\":");
				enum ssj_status st;

				for (int i = 1; i < levels; i++)
					buf[n++] = '[';
				for (int i = 1; i < closers; i++)
					buf[n++] = ']';
				n += (size_t)sprintf(buf + n, "}%s", tails[t]);
				st = compare(buf, n);
				if (t == 0 && closers == levels)
					assert_int_equal(st, levels <= 1024 ? SSJ_OK : SSJ_EDEPTH);
				else
					assert_int_not_equal(st, SSJ_OK);
			}
		}
	}
	/* the padding's first byte a '}' (On-Demand's own guard there) */
	for (int levels = 1022; levels <= 1027; levels++) {
		size_t n = (size_t)sprintf(buf, "{\"a\":");
		char *text;
		enum ssj_status sw, so;

		for (int i = 1; i < levels; i++)
			buf[n++] = '[';
		for (int i = 1; i < levels - 1; i++)
			buf[n++] = ']';
		buf[n++] = '}';
		text = malloc(n + SSJ_PADDING);
		assert_non_null(text);
		memcpy(text, buf, n);
		memset(text + n, '}', SSJ_PADDING);
		sw = ssj_open(pw, text, n);
		so = ssj_open(po, text, n);
		assert_int_equal(sw, so);
		assert_int_not_equal(sw, SSJ_OK);
		free(text);
	}
	free(buf);
}

/*
 * A text of a few MiB (raw lines of long streams are): the shim's choice
 * is the whole-text path, and both paths read it alike, valid or cut.
 */
static void long_texts(void **state)
{
	struct dump d = {0};
	char *text;

	(void)state;
	put(&d, "{\"responses\":[", strlen("{\"responses\":["));
	for (int i = 0; i < 60000; i++) {
		char el[96];
		int n = snprintf(el, sizeof(el), "%s{\"perf_ns\":%d,\"v\":\"{\\\"k\\\":[%d,true]}\"}",
				 i ? "," : "", i, i);

		put(&d, el, (size_t)n);
	}
	put(&d, "],\"z\":null}", strlen("],\"z\":null}"));
	assert_true(d.len > ((size_t)2 << 20));
	assert_int_equal(compare(d.s, d.len), SSJ_OK);
	text = padded(d.s, d.len);
	assert_int_equal(ssj_open(pa, text, d.len), SSJ_OK);
	assert_int_equal(ssj_parser_path_used(pa), SSJ_PATH_WHOLE);
	ssj_close(pa);
	free(text);
	must_refuse(d.s, d.len - 1);
	d.s[d.len / 2] = '}';
	compare(d.s, d.len);
	free(d.s);
}

/* ---- generated texts ---- */

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void ws(struct dump *d)
{
	static const char *const w[] = {"", "", "", " ", "\n", "\t", "\r\n ", "  "};

	const char *s = w[rnd(8)];
	put(d, s, strlen(s));
}

static void gen_string(struct dump *d)
{
	static const char *const parts[] = {
		"a", "key", "engine", "0", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041",
		"\\u00e9", "\\ud83d\\ude00", "\xc3\xa9", "\xe2\x82\xac", " ", "{", "]", ",", ":",
	};
	int k = (int)rnd(5);

	put(d, "\"", 1);
	for (int i = 0; i < k; i++) {
		const char *p = parts[rnd(sizeof(parts) / sizeof(parts[0]))];
		put(d, p, strlen(p));
	}
	put(d, "\"", 1);
}

static void gen_value(struct dump *d, int depth);

/* An object of fewer than `nmax` fields whose values are at `depth`. */
static void gen_object(struct dump *d, int depth, uint32_t nmax)
{
	int k = (int)rnd(nmax);

	put(d, "{", 1);
	for (int i = 0; i < k; i++) {
		if (i)
			put(d, ",", 1);
		ws(d);
		gen_string(d);
		ws(d);
		put(d, ":", 1);
		gen_value(d, depth);
	}
	ws(d);
	put(d, "}", 1);
}

static void gen_value(struct dump *d, int depth)
{
	static const char *const nums[] = {
		"0", "-0", "1", "42", "-7", "3.25", "0.5e-3", "1E+2", "2.7272727272727275",
		"1787366173010000000", "9223372036854775807", "9223372036854775808",
		"18446744073709551616", "1e400", "-1e400", "1e-400",
		"0.33333333333333333333333333333", "123456789012345678901", "4.9e-324",
	};
	uint32_t r = rnd(depth > 4 ? 6 : 9);

	ws(d);
	switch (r) {
	case 0: case 1: {
		const char *p = nums[rnd(sizeof(nums) / sizeof(nums[0]))];
		put(d, p, strlen(p));
		break;
	}
	case 2: case 3: gen_string(d); break;
	case 4: {
		const char *p = rnd(2) ? "true" : "false";
		put(d, p, strlen(p));
		break;
	}
	case 5: put(d, "null", 4); break;
	case 6: case 7:
		gen_object(d, depth + 1, 5);
		break;
	default: {
		int k = (int)rnd(5);

		put(d, "[", 1);
		for (int i = 0; i < k; i++) {
			if (i)
				put(d, ",", 1);
			gen_value(d, depth + 1);
		}
		ws(d);
		put(d, "]", 1);
		break;
	}
	}
	ws(d);
}

static void gen_doc(struct dump *d)
{
	d->len = 0;
	gen_object(d, 1, 6);
}

/* JSON's string grammar read plainly, byte by byte: whether body (the
 * inside of a string) is valid. The oracle of the escape check. */
static bool body_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '"')
			return false;  /* it would end the string */
		if (s[i] != '\\') {
			i++;
			continue;
		}
		if (i + 1 >= n)
			return false;
		if (s[i + 1] && strchr("\"\\/bfnrt", s[i + 1])) {
			i += 2;
			continue;
		}
		if (s[i + 1] != 'u' || n - i < 6)
			return false;
		for (size_t k = 2; k < 6; k++)
			if (!s[i + k] || !strchr("0123456789abcdefABCDEF", s[i + k]))
				return false;
		i += 6;
	}
	return true;
}

/*
 * The escape check reads 64 bytes at a time and works out from the runs
 * of backslashes which bytes are escaped: strings of random pieces (runs
 * of backslashes of every length, escapes valid and not, \u with good and
 * bad digits), at every offset from a block's start, against the plain
 * reading above.
 */
static void escapes_against_a_plain_reading(void **state)
{
	static const char *const pieces[] = {
		"a", "xyz", "\\", "\\\\", "\\\"", "\\n", "\\/", "\\u00e9", "\\ud800", "\\uDC00",
		"\\u12", "\\u12G4", "\\q", "\\x", "\\", "\\\\\\", "u", "0f", "\\b\\f\\r\\t",
		"\xc3\xa9", " ",
	};
	struct dump d = {0};
	size_t ok = 0, bad = 0;

	(void)state;
	for (int iter = 0; iter < 30000; iter++) {
		size_t lead = rnd(70), start, body;

		d.len = 0;
		put(&d, "{\"k\":\"", 6);
		for (size_t i = 0; i < lead; i++)
			put(&d, "p", 1);
		put(&d, "\",\"s\":\"", 7);
		start = d.len;
		for (int k = 0, np = 1 + (int)rnd(12); k < np; k++) {
			const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];

			put(&d, p, strlen(p));
		}
		body = d.len - start;
		put(&d, "\"}", 2);
		if (body_valid(d.s + start, body)) {
			ok++;
			if (compare(d.s, d.len) != SSJ_OK)
				fail_msg("refused: %s", d.s);
		} else {
			bad++;
			if (compare(d.s, d.len) == SSJ_OK)
				fail_msg("took: %s", d.s);
		}
	}
	/* both kinds were tried often */
	if (ok < 3000 || bad < 3000)
		fail_msg("%zu valid and %zu invalid strings", ok, bad);
	free(d.s);
}

static void generated_texts_agree(void **state)
{
	struct dump d = {0};
	static const char junk[] = "{}[],:\" \\0aeE.-+tfn\x01\xc3\xff";
	size_t taken = 0;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		gen_doc(&d);
		/* an unmutated text is valid: the whole path takes it */
		if (compare(d.s, d.len) != SSJ_OK)
			fail_msg("refused: %s", d.s);
		taken++;
		/* mutated: one to three bytes replaced, inserted or removed */
		for (int m = 0, nm = 1 + (int)rnd(3); m < nm && d.len > 1; m++) {
			size_t at = rnd((uint32_t)d.len);
			char c = junk[rnd(sizeof(junk) - 1)];

			switch (rnd(3)) {
			case 0:
				d.s[at] = c;
				break;
			case 1:
				put(&d, " ", 1);
				memmove(d.s + at + 1, d.s + at, d.len - at - 1);
				d.s[at] = c;
				break;
			default:
				memmove(d.s + at, d.s + at + 1, d.len - at - 1);
				d.len--;
				break;
			}
		}
		compare(d.s, d.len);
	}
	assert_true(taken == 20000);
	free(d.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(takes_valid_texts),
		cmocka_unit_test(refuses_invalid_texts),
		cmocka_unit_test(cuts_of_valid_texts),
		cmocka_unit_test(deep_nesting),
		cmocka_unit_test(long_texts),
		cmocka_unit_test(escapes_against_a_plain_reading),
		cmocka_unit_test(generated_texts_agree),
	};

	if (!ssj_whole_built()) {
		printf("SKIP: this build has no whole-text path to compare (--disable-fast-paths"
		       " or a simdjson without its internals)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
