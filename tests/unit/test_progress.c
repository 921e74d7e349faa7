/*
 * Unit tests of the progress line (run/progress.h): the bar with percent
 * and time left when the input size is known, the plain counter when not,
 * and the line never reaching the last column. Expected lines by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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
	/* 1 GB of 4 GB in 10 s: 25%, 3 GB left at 0.1 GB/s = 30 s. The bar
	 * gets what the widest text of the run leaves: "  100%" 6, "  4.0/4.0
	 * GB" 12, "  9,999,999 requests" 20, "  ETA 9:59:59" 13 = 51; in 80
	 * columns the line may take 79, "specscan [" and "]" take 11, so the
	 * bar is 79 - 11 - 51 = 17 wide: 25% = 4.25 -> 4 '=' and the '>' */
	assert_string_equal(line(5000000000ull, 12345, 1000000000ull, 4000000000ull, 10, 80),
			    "specscan [====>            ]   25%  1.0/4.0 GB  12,345 requests  ETA 0:30");
	/* the same width with more requests: the bar does not move */
	assert_string_equal(line(5000000000ull, 123456789, 1000000000ull, 4000000000ull, 10, 80),
			    "specscan [====>            ]   25%  1.0/4.0 GB  123,456,789 requests  ETA 0:30");
	/* a wide terminal: the bar stops at 40; 2.5 MB of 10 MB in 3 s: 9 s left */
	assert_string_equal(line(1, 1, 2500000, 10000000, 3, 200),
			    "specscan [==========>                             ]   25%  2.5/10.0 MB"
			    "  1 request  ETA 0:09");
	/* before one second: no estimate yet */
	assert_string_equal(line(1, 0, 0, 10000000, 0.2, 200),
			    "specscan [>                                       ]    0%  0.0/10.0 MB"
			    "  0 requests  ETA --:--");
	/* 99.99% is not 100%: 99, and 40 x 0.99 = 39.6 -> 39 = and the >;
	 * 1 h 1 min 1 s left: 3661 s */
	assert_string_equal(line(1, 2, 9999, 10000, 3661.0 * 9999.0, 200),
			    "specscan [=======================================>]   99%  10.0/10.0 kB"
			    "  2 requests  ETA 1:01:01");
	/* done */
	assert_string_equal(line(1, 2, 10000, 10000, 5, 200),
			    "specscan [========================================]  100%  10.0/10.0 kB"
			    "  2 requests  ETA 0:00");
}

static void test_counter_and_narrow(void **state)
{
	(void)state;
	/* no total (a pipe): the counter, 12.8 MB in 0.2 s = 64 MB/s */
	assert_string_equal(line(12800000, 28, 0, 0, 0.2, 80),
			    "specscan: 12.8 MB read, 28 requests, 64 MB/s");
	/* 50 columns: no room for a 10-wide bar, so none; the line is cut at
	 * the last gap before column 50 */
	line(5000000000ull, 12345, 1000000000ull, 4000000000ull, 10, 50);
	assert_string_equal(out, "specscan:   25%  1.0/4.0 GB  12,345 requests");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bar),
		cmocka_unit_test(test_counter_and_narrow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
