/*
 * Unit tests of the progress line (run/progress.h): the bar with percent,
 * bytes, rate and time left when the input size is known, the plain counter when not,
 * and the line never reaching the last column. Expected lines by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "run/progress.h"

static char out[512];

static const char *line(uint64_t bytes, uint64_t requests, uint64_t done, uint64_t total,
			double elapsed, int columns)
{
	struct ss_progress_view v = {bytes, requests, done, total, elapsed};
	struct ss_buf b = SS_BUF_INIT;

	ss_progress_format(&b, &v, columns);
	assert_false(b.failed);
	snprintf(out, sizeof(out), "%s", b.data ? b.data : "");
	ss_buf_release(&b);
	return out;
}

static void test_bar(void **state)
{
	(void)state;
	/* 1 GB of 4 GB in 10 s: 25%, 0.1 GB/s = 100 MB/s, 3 GB left = 30 s.
	 * The bar gets what the widest text of a run leaves: "  100%" 6,
	 * "  99.9/99.9 MB" 14, "  99.9 MB/s" 11, "  ETA 59:59" 11, "  999,999
	 * requests" 18 = 60; in 80 columns the line may take 79, "specscan ["
	 * and "]" take 11, so the bar is 79 - 11 - 60 = 8 wide: 25% = 2 '='
	 * and the '>'. */
	assert_string_equal(line(5000000000ull, 12345, 1000000000ull, 4000000000ull, 10, 80),
			    "specscan [==>     ]   25%  1.00/4.00 GB  100 MB/s  ETA 0:30"
			    "  12,345 requests");
	/* more requests: the bar does not move, the requests (last) are cut
	 * (59 + 22 characters would pass column 79) */
	assert_string_equal(line(5000000000ull, 123456789, 1000000000ull, 4000000000ull, 10, 80),
			    "specscan [==>     ]   25%  1.00/4.00 GB  100 MB/s  ETA 0:30");
	/* a wide terminal: the bar stops at 40; 2.5 MB of 10 MB in 3 s:
	 * 833,333 B/s = 833 kB/s, 7.5 MB left: 9 s */
	assert_string_equal(line(1, 1, 2500000, 10000000, 3, 200),
			    "specscan [==========>                             ]   25%  2.50/10.0 MB"
			    "  833 kB/s  ETA 0:09  1 request");
	/* before a quarter of a second: no estimate yet */
	assert_string_equal(line(1, 0, 0, 10000000, 0.2, 200),
			    "specscan [>                                       ]    0%  0.00/10.0 MB"
			    "  0 B/s  ETA --:--  0 requests");
	/* from then on, rounded up: 1 MB of 10 in 0.3 s, 2.7 s left -> 0:03;
	 * 3.33 MB/s; 10% of 40 = 4 '=' */
	assert_string_equal(line(1, 7, 1000000, 10000000, 0.3, 200),
			    "specscan [====>                                   ]   10%  1.00/10.0 MB"
			    "  3.33 MB/s  ETA 0:03  7 requests");
	/* 99.99% is not 100%: 99, and 40 x 0.99 = 39.6 -> 39 = and the >;
	 * 9,999 B is 10.0 kB to 3 digits; 1 h 1 min 1 s left: 3661 s */
	assert_string_equal(line(1, 2, 9999, 10000, 3661.0 * 9999.0, 200),
			    "specscan [=======================================>]   99%  10.0/10.0 kB"
			    "  0 B/s  ETA 1:01:01  2 requests");
	/* done: 10 kB in 5 s = 2.00 kB/s */
	assert_string_equal(line(1, 2, 10000, 10000, 5, 200),
			    "specscan [========================================]  100%  10.0/10.0 kB"
			    "  2.00 kB/s  ETA 0:00  2 requests");
}

static void test_counter_and_narrow(void **state)
{
	(void)state;
	/* no total (a pipe): the counter, 12.8 MB in 0.2 s = 64 MB/s */
	assert_string_equal(line(12800000, 28, 0, 0, 0.2, 80),
			    "specscan: 12.8 MB read, 28 requests, 64.0 MB/s");
	/* requests grouped by thousands, as in the bar */
	assert_string_equal(line(12800000, 1407, 0, 0, 0.2, 80),
			    "specscan: 12.8 MB read, 1,407 requests, 64.0 MB/s");
	/* 50 columns: no room for an 8-wide bar, so none; the line is cut at
	 * the end of the last field that fits (ETA ends at column 49) */
	line(5000000000ull, 12345, 1000000000ull, 4000000000ull, 10, 50);
	assert_string_equal(out, "specscan:   25%  1.00/4.00 GB  100 MB/s  ETA 0:30");
	/* 45 columns: back to the gap before ETA */
	line(5000000000ull, 12345, 1000000000ull, 4000000000ull, 10, 45);
	assert_string_equal(out, "specscan:   25%  1.00/4.00 GB  100 MB/s");
}

/* What was written to `f` so far, from its start. */
static const char *written(FILE *f)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	return out;
}

static void test_message_clears_the_line(void **state)
{
	FILE *f = tmpfile();
	struct ss_progress p;
	struct ss_msg m;

	(void)state;
	assert_non_null(f);
	ss_msg_init(&m, f, SS_NORMAL);
	ss_progress_init(&p, f);     /* not a terminal: 80 columns */
	ss_progress_attach(&p, &m);
	/* a message before anything is drawn: nothing to clear */
	ss_msg_warn(&m, "first");
	/* the first update draws at once: 0 of 500 bytes (ETA unknown) */
	ss_progress_update(&p, 0, 0, 0, 500);
	/* a message: the line cleared, the message, the line drawn again */
	ss_msg_request(&m, 6, "malformed", "in.jsonl", 7, "bad");
	assert_string_equal(written(f),
			    "specscan: first\n"
			    "\rspecscan [>       ]    0%  0/500 B  0 B/s  ETA --:--  0 requests\033[K"
			    "\r\033[K" "specscan: in.jsonl:7: malformed: bad\n"
			    "\rspecscan [>       ]    0%  0/500 B  0 B/s  ETA --:--  0 requests\033[K");
	/* erased at the end, and messages after it are plain again; one
	 * request not shown is "1 more ... request" */
	ss_progress_end(&p);
	for (int i = 0; i < SS_MSG_REQUEST_LIMIT; i++)
		ss_msg_request(&m, 6, "malformed", "in.jsonl", 8 + (uint64_t)i, "bad");
	rewind(f);
	assert_int_equal(ftruncate(fileno(f), 0), 0);
	ss_msg_summary(&m);
	assert_string_equal(written(f),
			    "specscan: 1 more malformed request not shown (6 in all)\n");
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message_clears_the_line),
		cmocka_unit_test(test_bar),
		cmocka_unit_test(test_counter_and_narrow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
