/*
 * test_keyscan.c - the key pre-filter's answers on texts whose keys were
 * read by hand: an object is worth a parse when it names a payload or
 * usage key, or a content key while no content was seen, or when the scan
 * cannot judge it (a \u escape, white space before a colon); never when a
 * key name only appears inside a string or past the text's end. (The
 * whole-program test_prefilter.py checks the same at every vector width.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engines/keyscan.h"
#include "io/batch.h"

/* The text, then `after` in its padding (what a batch holds next). */
static bool plain(bool content_seen, const char *text, const char *after)
{
	size_t n = strlen(text), m = strlen(after);
	char *buf = malloc(n + SS_BATCH_PADDING + m + 1);
	bool r;

	assert_non_null(buf);
	memcpy(buf, text, n);
	memset(buf + n, ' ', SS_BATCH_PADDING);
	memcpy(buf + n, after, m);
	r = ss_keyscan_worth_plain(content_seen, true, buf, n);
	free(buf);
	return r;
}

/* The same with no model seen yet. */
static bool plain_no_model(const char *text)
{
	size_t n = strlen(text);
	char *buf = malloc(n + SS_BATCH_PADDING);
	bool r;

	assert_non_null(buf);
	memcpy(buf, text, n);
	memset(buf + n, ' ', SS_BATCH_PADDING);
	r = ss_keyscan_worth_plain(true, false, buf, n);
	free(buf);
	return r;
}

static bool escaped(bool content_seen, const char *text)
{
	size_t n = strlen(text);
	char *buf = malloc(n + SS_BATCH_PADDING);
	bool r;

	assert_non_null(buf);
	memcpy(buf, text, n);
	memset(buf + n, ' ', SS_BATCH_PADDING);
	r = ss_keyscan_worth(content_seen, buf, n);
	free(buf);
	return r;
}

static void test_plain_payload_and_content_keys(void **state)
{
	static const char *const payload[] = {
		"{\"choices\":[],\"usage\":{\"completion_tokens\":7}}",
		"{\"metrics\":{\"speculative_decoding\":{}}}",
		"{\"content\":\"a\",\"timings\":{\"draft_n\":1}}",
		"{\"sglext\":{}}",
		"{\"meta_info\":{\"spec_verify_ct\":1}}",
		"{\"choices\":[{\"meta_info\":{}}]}",
	};
	const char *content = "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}";

	(void)state;
	for (size_t i = 0; i < sizeof(payload) / sizeof(*payload); i++) {
		assert_true(plain(true, payload[i], ""));
		assert_true(plain(false, payload[i], ""));
	}
	assert_true(plain(false, content, ""));
	assert_false(plain(true, content, ""));
	assert_true(plain(false, "{\"text\":\"x\"}", ""));
	assert_true(plain(false, "{\"reasoning\":\"x\"}", ""));
	assert_true(plain(false, "{\"reasoning_content\":\"x\"}", ""));
	assert_true(plain(false, "{\"tool_calls\":[]}", ""));
	assert_false(plain(true, "{\"tool_calls\":[],\"id\":\"x\"}", ""));
	/* keys that merely end like one that matters */
	assert_false(plain(true, "{\"pusage\":1,\"xtimings\":2,\"ng\":3}", ""));
}

/* `model` matters until a model was seen. */
static void test_plain_model(void **state)
{
	const char *chunk = "{\"id\":\"c\",\"model\":\"m\",\"choices\":[{\"delta\":{}}]}";

	(void)state;
	assert_true(plain_no_model(chunk));
	assert_false(plain(true, chunk, ""));
	assert_false(plain_no_model("{\"xmodel\":1,\"label\":2}"));
}

static void test_plain_cannot_judge(void **state)
{
	(void)state;
	/* a key written with an escape, white space before a colon */
	assert_true(plain(true, "{\"\\u0075sage\":1}", ""));
	assert_true(plain(true, "{\"a\":\"\\u00e9\"}", ""));
	assert_true(plain(true, "{\"x\" :1}", ""));
	assert_true(plain(true, "{\"x\"\n:1}", ""));
	assert_true(plain(true, "{\"x\"\t:1}", ""));
}

static void test_plain_not_keys(void **state)
{
	(void)state;
	/* a key name inside a string value: written \"usage\": there */
	assert_false(plain(true, "{\"choices\":[{\"delta\":{\"content\":\"\\\"usage\\\": 1\"}}]}", ""));
	/* nothing past the end counts, even within a vector step */
	assert_false(plain(true, "{\"a\":1}", "\"usage\":{}"));
	assert_false(plain(true, "{\"a\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
			   ",\"usage\":{}"));
	assert_false(plain(true, "", "\"usage\":1"));
	assert_false(plain(true, "{}", ""));
}

static void test_plain_long_texts(void **state)
{
	char text[600];
	size_t at;

	(void)state;
	/* the key in every position of a long text, across vector steps */
	for (at = 1; at < 500; at += 7) {
		memset(text, 'a', sizeof(text));
		text[0] = '{';
		memcpy(text + at, "\"usage\":1", 9);
		text[at + 9] = '}';
		text[at + 10] = '\0';
		assert_true(plain(true, text, ""));
		memcpy(text + at, "\"vsage\":1", 9);
		assert_false(plain(true, text, ""));
	}
}

static void test_escaped(void **state)
{
	(void)state;
	assert_true(escaped(true, "{\\\"choices\\\":[],\\\"usage\\\":{}}"));
	assert_true(escaped(false, "{\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}"));
	assert_false(escaped(true, "{\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}"));
	assert_true(escaped(true, "{\\\"metrics\\\":{\\\"speculative_decoding\\\":{}}}"));
	assert_false(escaped(true, "{\\\"id\\\":\\\"x\\\",\\\"object\\\":\\\"chunk\\\"}"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_payload_and_content_keys),
		cmocka_unit_test(test_plain_model),
		cmocka_unit_test(test_plain_cannot_judge),
		cmocka_unit_test(test_plain_not_keys),
		cmocka_unit_test(test_plain_long_texts),
		cmocka_unit_test(test_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
