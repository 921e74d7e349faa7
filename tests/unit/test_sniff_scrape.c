/*
 * test_sniff_scrape.c - SPEC 10.1's detection of Prometheus text by an
 * input's first non-blank line (io/sniff.h): the four comment starts and
 * sample lines are server inputs; SSE's starts, JSON, other comments and
 * blank inputs are not. Every case is read in chunks of 1, 3 and all
 * bytes, and the bytes peeked are still read afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "io/sniff.h"
#include "io/source.h"

static bool sniff(const char *text, size_t n, size_t chunk)
{
	struct ss_stream *s = ss_source_mem_new(text, n, chunk, NULL);
	char *back = malloc(n + 1);
	size_t got = 0, k;
	bool scrape = true;

	assert_non_null(s);
	assert_non_null(back);
	assert_true(ss_sniff_scrape(s, &scrape));
	/* nothing was consumed */
	while (ss_stream_read(s, back + got, n + 1 - got, &k) == SS_IO_OK && k)
		got += k;
	assert_int_equal(got, n);
	assert_memory_equal(back, text, n);
	free(back);
	ss_stream_free(s);
	return scrape;
}

static void expect(const char *text, size_t n, bool want)
{
	static const size_t chunks[] = {1, 3, 0};

	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		if (sniff(text, n, chunks[i]) != want)
			fail_msg("'%.60s' (chunk %zu): expected %s", text, chunks[i],
				 want ? "scrape" : "not scrape");
	}
}

#define YES(t) expect(t, sizeof(t) - 1, true)
#define NO(t) expect(t, sizeof(t) - 1, false)

static void test_starts(void **state)
{
	(void)state;
	YES("# HELP vllm:x Number.\n# TYPE vllm:x counter\nvllm:x_total 1\n");
	YES("# TYPE up gauge\n");
	YES("# EOF\n");
	YES("# time: 1765039200.5\n# HELP a b\n");
	YES("up 1\n");
	YES("up 1");                          /* the last line without its end */
	YES("vllm:spec_decode_num_drafts_total{engine=\"0\",model_name=\"a}b\"} 14 1765039200000\n");
	YES("x{a=\"\\\"}\"} NaN\n");          /* an escaped quote, then } in the value */
	YES("x +Inf\n");
	YES("x\t-1.5e3\n");
	YES("\xEF\xBB\xBF\n  \r\n\t\n# HELP up Up.\n");   /* BOM and blank lines first */
	YES("up 1\r\n");
}

static void test_not(void **state)
{
	(void)state;
	NO("");
	NO("\n\n  \n");
	NO("{\"choices\":[]}\n");
	NO("[1,2]\n");
	NO("data: {\"x\":1}\n\n");
	NO("event: x\n");
	NO("id:foo 1\n");                     /* SSE's `id:` wins */
	NO(":comment 1\n");
	NO("# saved from host\nup 1\n");      /* another comment first */
	NO("#HELP x\n");
	NO("up\n");                           /* no value */
	NO("up one\n");
	NO("up{a=\"1\"\n");                   /* labels not closed */
	NO("9up 1\n");                        /* not a name */
}

/* A first line longer than the largest peek: judged by its start. */
static void test_long_line(void **state)
{
	size_t n = SS_SNIFF_SCRAPE_PEEK + 5000;
	char *t = malloc(n);

	(void)state;
	assert_non_null(t);
	memcpy(t, "x{a=\"", 5);
	memset(t + 5, 'v', n - 5);
	assert_true(sniff(t, n, 0));
	t[0] = '{';
	assert_false(sniff(t, n, 0));
	/* blank lines past the largest peek: not known, so not a server input */
	memset(t, '\n', n);
	memcpy(t + n - 7, "up 1\n", 5);
	assert_false(sniff(t, n, 0));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_starts),
		cmocka_unit_test(test_not),
		cmocka_unit_test(test_long_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
