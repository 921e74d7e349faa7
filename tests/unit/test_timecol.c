/*
 * Unit tests of the kept timing's storage: the column of doubles
 * (metrics/timecol.h) at its edges (no value, one, two, -0.0 kept as it
 * is, growth on the heap and through mappings that move instead of copy,
 * forced early by a small map_from), and what the timing keeps of a
 * request (metrics/timekeep.h): the columns, the sums in input order, the
 * decode sums, the draw records with NaN for an absent time. Expected
 * values worked by hand in the comments.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "metrics/timecol.h"
#include "metrics/timekeep.h"

#define assert_double_is(x, y) assert_true((x) == (y))

static void test_empty(void **state)
{
	struct ss_timecol c;

	(void)state;
	ss_timecol_init(&c);
	assert_int_equal(c.n, 0);
	assert_null(c.v);
	assert_true(ss_timecol_reserve(&c, 0));
	ss_timecol_release(&c);
	assert_null(c.v);
	assert_int_equal(c.cap, 0);
	/* a release of a released column is harmless */
	ss_timecol_release(&c);
}

static void test_one_two(void **state)
{
	struct ss_timecol c;

	(void)state;
	ss_timecol_init(&c);
	assert_true(ss_timecol_reserve(&c, 1));
	ss_timecol_put(&c, 1.5);
	assert_int_equal(c.n, 1);
	assert_double_is(c.v[0], 1.5);
	assert_true(ss_timecol_reserve(&c, 1));
	ss_timecol_put(&c, -0.0);
	assert_int_equal(c.n, 2);
	assert_double_is(c.v[0], 1.5);
	assert_true(c.v[1] == 0.0 && signbit(c.v[1]));  /* -0.0 as given */
	assert_false(c.mapped);
	/* an impossible reservation fails and changes nothing */
	assert_false(ss_timecol_reserve(&c, SIZE_MAX));
	assert_int_equal(c.n, 2);
	assert_double_is(c.v[0], 1.5);
	ss_timecol_release(&c);
}

/* Append n values i / 4 (exact in binary) and check every one. */
static void fill_and_check(struct ss_timecol *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		assert_true(ss_timecol_reserve(c, 1));
		ss_timecol_put(c, (double)i / 4.0);
	}
	assert_int_equal(c->n, n);
	assert_true(c->cap >= n);
	for (size_t i = 0; i < n; i++)
		if (c->v[i] != (double)i / 4.0)
			fail_msg("value %zu lost in a growth", i);
}

/*
 * Mapped from 64 bytes on: the 17th value (past the heap's first 16)
 * moves the column into a 2 MiB mapping (262,144 doubles), which then
 * doubles twice (524,288, then 1,048,576) for 600,000 values, each time
 * moving its pages.
 */
static void test_mapped_growth(void **state)
{
	struct ss_timecol c;

	(void)state;
	ss_timecol_init(&c);
	c.map_from = 64;
	fill_and_check(&c, 600000);
#if defined(__linux__)
	assert_true(c.mapped);
	assert_int_equal((uintptr_t)c.v % SS_TIMECOL_MAP_FROM, 0);
	assert_int_equal(c.cap, 1048576);
#endif
	ss_timecol_release(&c);
	assert_false(c.mapped);
	assert_null(c.v);
}

/* Never mapped: a heap column that doubles (16, 32, ... 1024). */
static void test_heap_growth(void **state)
{
	struct ss_timecol c;

	(void)state;
	ss_timecol_init(&c);
	c.map_from = SIZE_MAX;
	fill_and_check(&c, 1000);
	assert_false(c.mapped);
	assert_int_equal(c.cap, 1024);
	ss_timecol_release(&c);
}

/* latency, TTFT, ITL (< 0: absent) and c (< 0: absent) */
static void timing_of(struct ss_timing *t, double lat, double ttft, double itl, int64_t c)
{
	ss_timing_clear(t);
	t->has[SS_T_LATENCY] = lat >= 0.0;
	t->ms[SS_T_LATENCY] = lat >= 0.0 ? lat : 0.0;
	t->has[SS_T_TTFT] = ttft >= 0.0;
	t->ms[SS_T_TTFT] = ttft >= 0.0 ? ttft : 0.0;
	t->has[SS_T_ITL] = itl >= 0.0;
	t->ms[SS_T_ITL] = itl >= 0.0 ? itl : 0.0;
	t->has_output = c >= 0;
	t->output_tokens = c >= 0 ? c : 0;
}

/*
 * Four requests: (lat 100, ttft 20, c 9): decode 80 over 8 tokens;
 * (ITL 3 only): no decode, NaN latency and TTFT in its draw; (lat 50,
 * ttft 50, c 1): c < 2, no decode; (lat 0.5, ttft 0.25, c 2): 0.25 over 1.
 * No time at all: not kept. Columns: latency 100, 50, 0.5 (sum 150.5),
 * TTFT 20, 50, 0.25 (70.25), ITL 3. Decode sums 80.25 over 9 tokens, two
 * requests.
 */
static void test_timekeep_keeps(void **state)
{
	struct ss_timekeep tk;
	struct ss_timing t;

	(void)state;
	ss_timekeep_init(&tk);
	ss_timekeep_keep_draws(&tk);
	timing_of(&t, 100.0, 20.0, -1.0, 9);
	assert_true(ss_timekeep_add(&tk, &t));
	timing_of(&t, -1.0, -1.0, 3.0, 40);
	assert_true(ss_timekeep_add(&tk, &t));
	timing_of(&t, -1.0, -1.0, -1.0, 40);
	assert_true(ss_timekeep_add(&tk, &t));
	timing_of(&t, 50.0, 50.0, -1.0, 1);
	assert_true(ss_timekeep_add(&tk, &t));
	timing_of(&t, 0.5, 0.25, -1.0, 2);
	assert_true(ss_timekeep_add(&tk, &t));

	assert_int_equal(tk.n, 4);
	assert_int_equal(tk.col[SS_T_LATENCY].n, 3);
	assert_double_is(tk.col[SS_T_LATENCY].v[0], 100.0);
	assert_double_is(tk.col[SS_T_LATENCY].v[1], 50.0);
	assert_double_is(tk.col[SS_T_LATENCY].v[2], 0.5);
	assert_double_is(tk.sum[SS_T_LATENCY], 150.5);
	assert_double_is(tk.sum[SS_T_TTFT], 70.25);
	assert_int_equal(tk.col[SS_T_ITL].n, 1);
	assert_double_is(tk.sum[SS_T_ITL], 3.0);
	assert_double_is(tk.dec_ms, 80.25);
	assert_true(tk.dec_tokens == 9);
	assert_int_equal(tk.dec_requests, 2);

	assert_double_is(tk.draw[0].lat, 100.0);
	assert_double_is(tk.draw[0].ttft, 20.0);
	assert_int_equal(tk.draw[0].dec_tokens, 8);
	assert_true(isnan(tk.draw[1].lat) && isnan(tk.draw[1].ttft));
	assert_int_equal(tk.draw[1].dec_tokens, 0);
	assert_double_is(tk.draw[2].lat, 50.0);
	assert_int_equal(tk.draw[2].dec_tokens, 0);
	assert_int_equal(tk.draw[3].dec_tokens, 1);
	ss_timekeep_release(&tk);
	assert_int_equal(tk.n, 0);
	assert_null(tk.draw);

	/* without keep_draws: the same columns, no draw record */
	ss_timekeep_init(&tk);
	timing_of(&t, 100.0, 20.0, -1.0, 9);
	assert_true(ss_timekeep_add(&tk, &t));
	assert_int_equal(tk.n, 1);
	assert_null(tk.draw);
	assert_double_is(tk.dec_ms, 80.0);
	ss_timekeep_release(&tk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_one_two),
		cmocka_unit_test(test_mapped_growth),
		cmocka_unit_test(test_heap_growth),
		cmocka_unit_test(test_timekeep_keeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
