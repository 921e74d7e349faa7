/*
 * Unit tests of SPEC 7.8's windows (analysis/windows.c): DURATION, a
 * window boundary exactly on a request's time, an empty window, untimed
 * requests, the limit of 100,000 windows. Expected values worked out by
 * hand (the doubles as Python computes 1 + 5/7 and 5/14*100).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/windows.h"

#define S INT64_C(1000000000)

static void test_duration(void **state)
{
	int64_t ns = 0;
	char u = 0;

	(void)state;
	assert_int_equal(ss_duration_parse("60", &ns, &u), SS_DUR_OK);
	assert_true(ns == 60 * S && u == 's');
	assert_int_equal(ss_duration_parse("60s", &ns, &u), SS_DUR_OK);
	assert_true(ns == 60 * S && u == 's');
	assert_int_equal(ss_duration_parse("5m", &ns, &u), SS_DUR_OK);
	assert_true(ns == 300 * S && u == 'm');
	assert_int_equal(ss_duration_parse("2h", &ns, &u), SS_DUR_OK);
	assert_true(ns == 7200 * S && u == 'h');
	assert_int_equal(ss_duration_parse("007", &ns, &u), SS_DUR_OK);
	assert_true(ns == 7 * S);
	/* the largest that fit 63 bits of ns, and one more */
	assert_int_equal(ss_duration_parse("9223372036s", &ns, &u), SS_DUR_OK);
	assert_true(ns == INT64_C(9223372036) * S);
	assert_int_equal(ss_duration_parse("9223372037", &ns, &u), SS_DUR_OVERFLOW);
	assert_int_equal(ss_duration_parse("2562047h", &ns, &u), SS_DUR_OK);
	assert_int_equal(ss_duration_parse("2562048h", &ns, &u), SS_DUR_OVERFLOW);
	assert_int_equal(ss_duration_parse("153722867m", &ns, &u), SS_DUR_OK);
	assert_int_equal(ss_duration_parse("153722868m", &ns, &u), SS_DUR_OVERFLOW);
	assert_int_equal(ss_duration_parse("99999999999999999999999", &ns, &u), SS_DUR_OVERFLOW);
	assert_int_equal(ss_duration_parse("0", &ns, &u), SS_DUR_ZERO);
	assert_int_equal(ss_duration_parse("0h", &ns, &u), SS_DUR_ZERO);
	assert_int_equal(ss_duration_parse("", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("m", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("5M", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("5ms", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("5d", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("-5", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse(" 5", &ns, &u), SS_DUR_SYNTAX);
	assert_int_equal(ss_duration_parse("1.5m", &ns, &u), SS_DUR_SYNTAX);
}

static void add(struct ss_timeline *tl, int64_t t, int64_t steps, int64_t acc, int64_t drafted,
		double al)
{
	struct ss_time_point p = {t, steps, acc, drafted, al};

	assert_true(ss_timeline_add(tl, true, &p));
}

static void test_windows(void **state)
{
	struct ss_timeline tl;
	struct ss_windows w;
	struct ss_time_point none = {0, 1, 0, 1, 1.0};

	(void)state;
	ss_timeline_init(&tl);
	add(&tl, 105 * S, 4, 2, 8, 1.5);
	add(&tl, 110 * S, 2, 4, 4, 3.0);    /* exactly on the boundary: window 1 */
	add(&tl, 100 * S, 3, 3, 6, 2.0);    /* the smallest time comes third */
	assert_true(ss_timeline_add(&tl, false, &none));
	add(&tl, 135 * S, 5, 0, 10, 1.0);   /* window 3; window 2 stays empty */
	assert_int_equal(ss_windows_compute(&w, &tl, 10 * S), SS_WIN_OK);

	assert_true(w.timed);
	assert_true(w.t0_ns == 100 * S);
	assert_int_equal(w.untimed, 1);
	assert_int_equal(w.nwin, 4);
	/* window 0: the points at 105 s and 100 s */
	assert_int_equal(w.w[0].requests, 2);
	assert_true(w.w[0].steps == 7 && w.w[0].accepted == 5 && w.w[0].drafted == 14);
	assert_true(w.w[0].has_al && w.w[0].acceptance_length == 1.7142857142857144);
	assert_true(w.w[0].has_dar && w.w[0].draft_acceptance_rate == 35.714285714285715);
	assert_true(w.w[0].has_mean && w.w[0].mean_acceptance_length == 1.75);
	assert_int_equal(w.w[1].requests, 1);
	assert_true(w.w[1].acceptance_length == 3.0 && w.w[1].draft_acceptance_rate == 100.0);
	/* window 2: listed, nothing defined */
	assert_int_equal(w.w[2].requests, 0);
	assert_true(w.w[2].steps == 0);
	assert_false(w.w[2].has_al || w.w[2].has_dar || w.w[2].has_mean);
	assert_true(w.w[3].acceptance_length == 1.0 && w.w[3].draft_acceptance_rate == 0.0);
	/* summary over windows 0, 1, 3 */
	assert_true(w.has_summary);
	assert_true(w.first == 1.7142857142857144);
	assert_true(w.last == 1.0);
	assert_true(w.min == 1.0);
	assert_int_equal(w.min_window, 3);
	assert_true(w.max == 3.0);
	ss_windows_release(&w);
	ss_timeline_release(&tl);
}

static void test_min_tie_and_untimed(void **state)
{
	struct ss_timeline tl;
	struct ss_windows w;
	struct ss_time_point p = {0, 1, 0, 1, 1.0};

	(void)state;
	ss_timeline_init(&tl);
	/* nothing timed: no window, no summary */
	assert_true(ss_timeline_add(&tl, false, &p));
	assert_int_equal(ss_windows_compute(&w, &tl, S), SS_WIN_OK);
	assert_false(w.timed);
	assert_false(w.has_summary);
	assert_int_equal(w.nwin, 0);
	assert_int_equal(w.untimed, 1);
	ss_windows_release(&w);

	/* the same minimum in windows 0 and 2: the earliest one */
	add(&tl, 0, 2, 0, 2, 1.0);
	add(&tl, 1 * S, 2, 2, 2, 2.0);
	add(&tl, 2 * S, 4, 0, 4, 1.0);
	assert_int_equal(ss_windows_compute(&w, &tl, S), SS_WIN_OK);
	assert_int_equal(w.nwin, 3);
	assert_true(w.t0_ns == 0);
	assert_true(w.min == 1.0);
	assert_int_equal(w.min_window, 0);
	assert_true(w.first == 1.0 && w.last == 1.0 && w.max == 2.0);
	ss_windows_release(&w);
	ss_timeline_release(&tl);
}

static void test_limit(void **state)
{
	struct ss_timeline tl;
	struct ss_windows w;

	(void)state;
	ss_timeline_init(&tl);
	add(&tl, 5, 1, 0, 1, 1.0);
	add(&tl, 5 + 100000 * S - 1, 1, 0, 1, 1.0);
	/* 99,999.999999999 s with 1 s windows: exactly 100,000 windows */
	assert_int_equal(ss_windows_compute(&w, &tl, S), SS_WIN_OK);
	assert_int_equal(w.nwin, 100000);
	assert_int_equal(w.w[99999].requests, 1);
	ss_windows_release(&w);
	/* 100,000 s: one window too many; 2 s fits (50,001 windows) */
	add(&tl, 5 + 100000 * S, 1, 0, 1, 1.0);
	assert_int_equal(ss_windows_compute(&w, &tl, S), SS_WIN_TOO_MANY);
	assert_int_equal(w.nwin, 100001);
	assert_int_equal(w.suggest_s, 2);
	ss_windows_release(&w);
	assert_int_equal(ss_windows_compute(&w, &tl, 2 * S), SS_WIN_OK);
	assert_int_equal(w.nwin, 50001);
	ss_windows_release(&w);
	/* the widest span: 2^63 - 1 ns needs 92,234 s (92,233.72 s is too few) */
	ss_timeline_release(&tl);
	ss_timeline_init(&tl);
	add(&tl, 0, 1, 0, 1, 1.0);
	add(&tl, INT64_MAX, 1, 0, 1, 1.0);
	assert_int_equal(ss_windows_compute(&w, &tl, S), SS_WIN_TOO_MANY);
	assert_int_equal(w.suggest_s, 92234);
	ss_windows_release(&w);
	assert_int_equal(ss_windows_compute(&w, &tl, 92234 * S), SS_WIN_OK);
	assert_int_equal(w.nwin, 100000);
	ss_windows_release(&w);
	assert_int_equal(ss_windows_compute(&w, &tl, 92233 * S), SS_WIN_TOO_MANY);
	ss_windows_release(&w);
	ss_timeline_release(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_min_tie_and_untimed),
		cmocka_unit_test(test_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
