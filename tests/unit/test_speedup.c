/*
 * Unit tests of SPEC 11.2-11.3: the timing statistics, the decode time per
 * token, the speedups against a baseline with their bootstrap intervals,
 * the draft cost the measured speedup implies, and the measured cost in
 * 7.1's what-if table. SPEC 11.6's vectors, and cases worked by hand in
 * the comments.
 */
#include "fixtures_records.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analysis/bootstrap.h"
#include "analysis/positions.h"
#include "analysis/speedup.h"
#include "analysis/timestats.h"
#include "metrics/aggregate.h"
#include "metrics/timekeep.h"
#include "util/alloc.h"

#define assert_double_is(x, y) assert_true((x) == (y))

/* A request's timing: latency, TTFT (< 0: absent) and c (< 0: absent). */
static void timing_of(struct ss_timing *t, double lat, double ttft, int64_t c)
{
	ss_timing_clear(t);
	if (lat >= 0.0) {
		t->has[SS_T_LATENCY] = true;
		t->ms[SS_T_LATENCY] = lat;
	}
	if (ttft >= 0.0) {
		t->has[SS_T_TTFT] = true;
		t->ms[SS_T_TTFT] = ttft;
	}
	if (c >= 0) {
		t->has_output = true;
		t->output_tokens = c;
	}
	ss_timing_derive_itl(t);
}

static void keep(struct ss_timekeep *tk, double lat, double ttft, int64_t c)
{
	struct ss_timing t;

	timing_of(&t, lat, ttft, c);
	assert_true(ss_timekeep_add(tk, &t));
}

/* SPEC 11.6: (1000, 200, 81) and (600, 100, 51) -> X = 1300 / 130 = 10.0 */
static void group_vector(struct ss_timekeep *tk)
{
	ss_timekeep_init(tk);
	ss_timekeep_keep_draws(tk);
	keep(tk, 1000.0, 200.0, 81);
	keep(tk, 600.0, 100.0, 51);
}

/* A baseline with X 25.0: (2600, 100, 101) -> 2500 / 100. */
static void base_vector(struct ss_timekeep *tk)
{
	ss_timekeep_init(tk);
	ss_timekeep_keep_draws(tk);
	keep(tk, 2600.0, 100.0, 101);
}

static void test_decode_vector(void **state)
{
	struct ss_timekeep tk;
	struct ss_timing_stats st;

	(void)state;
	group_vector(&tk);
	assert_true(ss_timing_stats_compute(&tk, &st));
	assert_int_equal(st.requests, 2);
	assert_true(st.has_x);
	assert_double_is(st.x, 10.0);
	assert_int_equal(st.x_requests, 2);
	/* latency 1000, 600: avg 800, p50 800; TTFT 200, 100: avg 150 */
	assert_true(st.has[SS_T_LATENCY]);
	assert_double_is(st.s[SS_T_LATENCY].avg, 800.0);
	assert_double_is(st.s[SS_T_LATENCY].p50, 800.0);
	assert_double_is(st.s[SS_T_LATENCY].min, 600.0);
	assert_double_is(st.s[SS_T_LATENCY].max, 1000.0);
	assert_int_equal(st.s[SS_T_LATENCY].count, 2);
	assert_double_is(st.s[SS_T_TTFT].avg, 150.0);
	/* ITL 800/80 = 10 and 500/50 = 10 */
	assert_double_is(st.s[SS_T_ITL].avg, 10.0);
	ss_timekeep_release(&tk);
}

static void test_stats_partial(void **state)
{
	struct ss_timekeep tk;
	struct ss_timing_stats st;

	(void)state;
	group_vector(&tk);
	keep(&tk, 300.0, -1.0, 40);   /* latency only: counted, not in X or TTFT */
	keep(&tk, -1.0, -1.0, 12);    /* no time: not kept at all */
	keep(&tk, 500.0, 100.0, 1);   /* c = 1: no decoded token to weigh */
	assert_int_equal(tk.n, 4);
	assert_true(ss_timing_stats_compute(&tk, &st));
	assert_int_equal(st.requests, 4);
	assert_double_is(st.x, 10.0);
	assert_int_equal(st.x_requests, 2);
	assert_int_equal(st.s[SS_T_LATENCY].count, 4);
	/* (1000 + 600 + 300 + 500) / 4 = 600 */
	assert_double_is(st.s[SS_T_LATENCY].avg, 600.0);
	assert_int_equal(st.s[SS_T_TTFT].count, 3);
	assert_int_equal(st.s[SS_T_ITL].count, 2);
	ss_timekeep_release(&tk);

	/* nothing kept: no statistics, no X */
	ss_timekeep_init(&tk);
	keep(&tk, -1.0, 50.0, 1);  /* TTFT only */
	assert_true(ss_timing_stats_compute(&tk, &st));
	assert_int_equal(st.requests, 1);
	assert_false(st.has_x);
	assert_false(st.has[SS_T_LATENCY]);
	assert_true(st.has[SS_T_TTFT]);
	ss_timekeep_release(&tk);
	ss_timekeep_init(&tk);
	assert_true(ss_timing_stats_compute(&tk, &st));
	assert_int_equal(st.requests, 0);
	assert_false(st.has_x || st.has[SS_T_TTFT] || st.has[SS_T_ITL] || st.has[SS_T_LATENCY]);
}

static void test_speedup_vector(void **state)
{
	struct ss_timekeep g, b;
	struct ss_timing_stats gs, bs;
	struct ss_speedup sp;

	(void)state;
	group_vector(&g);
	base_vector(&b);
	assert_true(ss_timing_stats_compute(&g, &gs));
	assert_true(ss_timing_stats_compute(&b, &bs));
	/* SPEC 11.6: tau 3.0, k 4 */
	ss_speedup_compute(&gs, &bs, true, 3.0, true, 4, &sp);
	assert_true(sp.r[SS_SR_SPEEDUP].has);
	assert_double_is(sp.r[SS_SR_SPEEDUP].value, 2.5);      /* 25 / 10 */
	assert_true(sp.r[SS_SR_LATENCY].has);
	assert_double_is(sp.r[SS_SR_LATENCY].value, 3.25);     /* 2600 / 800 */
	assert_true(sp.r[SS_SR_TTFT].has);
	assert_double_is(sp.r[SS_SR_TTFT].value, 1.5);         /* 150 / 100 */
	assert_false(sp.r[SS_SR_SPEEDUP].has_ci);
	assert_true(sp.has_cost);
	assert_double_is(sp.draft_cost, 0.04999999999999999);  /* (3.0 / 2.5 - 1) / 4 */
	assert_false(sp.cost_negative);
	assert_string_equal(ss_speedup_names[SS_SR_SPEEDUP], "speedup");
	assert_string_equal(ss_speedup_names[SS_SR_LATENCY], "latency_speedup");
	assert_string_equal(ss_speedup_names[SS_SR_TTFT], "ttft_ratio");

	/* the null rules of draft_cost: no k, k 0, no tau */
	ss_speedup_compute(&gs, &bs, true, 3.0, false, 0, &sp);
	assert_false(sp.has_cost);
	assert_true(sp.r[SS_SR_SPEEDUP].has);
	ss_speedup_compute(&gs, &bs, true, 3.0, true, 0, &sp);
	assert_false(sp.has_cost);
	ss_speedup_compute(&gs, &bs, false, 0.0, true, 4, &sp);
	assert_false(sp.has_cost);

	/* a negative cost comes as it is: tau 2.0 -> (0.8 - 1) / 4 */
	ss_speedup_compute(&gs, &bs, true, 2.0, true, 4, &sp);
	assert_true(sp.has_cost);
	assert_true(sp.cost_negative);
	assert_double_is(sp.draft_cost, -0.04999999999999999);
	ss_timekeep_release(&g);
	ss_timekeep_release(&b);
}

static void test_speedup_missing(void **state)
{
	struct ss_timekeep g, b;
	struct ss_timing_stats gs, bs;
	struct ss_speedup sp;
	double c = 5.0;

	(void)state;
	/* the group has latency only; the baseline everything */
	ss_timekeep_init(&g);
	keep(&g, 400.0, -1.0, 30);
	base_vector(&b);
	assert_true(ss_timing_stats_compute(&g, &gs));
	assert_true(ss_timing_stats_compute(&b, &bs));
	ss_speedup_compute(&gs, &bs, true, 3.0, true, 4, &sp);
	assert_false(sp.r[SS_SR_SPEEDUP].has);
	assert_false(sp.r[SS_SR_TTFT].has);
	assert_true(sp.r[SS_SR_LATENCY].has);
	assert_double_is(sp.r[SS_SR_LATENCY].value, 6.5);  /* 2600 / 400 */
	assert_false(sp.has_cost);   /* no speedup: no cost */
	ss_timekeep_release(&g);

	/* a group whose decode time is 0: no ratio rather than infinity */
	ss_timekeep_init(&g);
	keep(&g, 100.0, 100.0, 10);
	assert_true(ss_timing_stats_compute(&g, &gs));
	assert_true(gs.has_x);
	assert_double_is(gs.x, 0.0);
	ss_speedup_compute(&gs, &bs, true, 3.0, true, 4, &sp);
	assert_false(sp.r[SS_SR_SPEEDUP].has);
	ss_timekeep_release(&g);
	ss_timekeep_release(&b);

	assert_false(ss_draft_cost(3.0, 0.0, 4, &c));
	assert_false(ss_draft_cost(3.0, 2.0, -1, &c));
	assert_false(ss_draft_cost(NAN, 2.0, 4, &c));
	assert_double_is(c, 5.0);
	/* (2.0 / 1.0 - 1) / 1 = 1 */
	assert_true(ss_draft_cost(2.0, 1.0, 1, &c));
	assert_double_is(c, 1.0);
}

/*
 * With one request a side every resample draws it: the interval of the
 * ratio is [value, value]. 2.5 excludes 1 (significant); equal sides give
 * [1, 1], which does not.
 */
static void test_ci_degenerate(void **state)
{
	enum { B = 50 };
	struct ss_timekeep g, b, one;
	struct ss_timing_stats gs, bs;
	struct ss_speedup sp;
	double rows[B * SS_TB_COUNT], base_rows[B * SS_TB_COUNT], scratch[B];
	struct ss_boot_tjob jobs[2];

	(void)state;
	ss_timekeep_init(&g);
	ss_timekeep_keep_draws(&g);
	keep(&g, 1000.0, 200.0, 81);  /* X 10 */
	base_vector(&b);              /* X 25 */
	assert_true(ss_timing_stats_compute(&g, &gs));
	assert_true(ss_timing_stats_compute(&b, &bs));
	memset(jobs, 0, sizeof(jobs));
	jobs[0].timing = &g;
	jobs[0].g = 2;
	jobs[0].out = rows;
	jobs[1].timing = &b;
	jobs[1].g = 1;
	jobs[1].out = base_rows;
	ss_boot_timing_run(jobs, 2, 1, B, 1);
	ss_speedup_compute(&gs, &bs, true, 3.0, true, 4, &sp);
	ss_speedup_ci(&sp, rows, base_rows, B, 95.0, scratch);
	assert_true(sp.r[SS_SR_SPEEDUP].has_ci);
	assert_double_is(sp.r[SS_SR_SPEEDUP].lo, 2.5);
	assert_double_is(sp.r[SS_SR_SPEEDUP].hi, 2.5);
	assert_true(sp.r[SS_SR_SPEEDUP].significant);
	assert_double_is(sp.r[SS_SR_LATENCY].lo, 2.6);    /* 2600 / 1000 */
	assert_double_is(sp.r[SS_SR_TTFT].hi, 2.0);       /* 200 / 100 */
	assert_true(sp.r[SS_SR_TTFT].significant);

	/* the same request on both sides: ratios of 1, not significant */
	ss_timekeep_init(&one);
	ss_timekeep_keep_draws(&one);
	keep(&one, 1000.0, 200.0, 81);
	jobs[1].timing = &one;
	ss_boot_timing_run(jobs, 2, 1, B, 1);
	ss_speedup_compute(&gs, &gs, true, 3.0, true, 4, &sp);
	ss_speedup_ci(&sp, rows, base_rows, B, 95.0, scratch);
	for (int i = 0; i < SS_SR_COUNT; i++) {
		assert_true(sp.r[i].has_ci);
		assert_double_is(sp.r[i].lo, 1.0);
		assert_double_is(sp.r[i].hi, 1.0);
		assert_false(sp.r[i].significant);
	}
	ss_timekeep_release(&one);
	ss_timekeep_release(&g);
	ss_timekeep_release(&b);
}

/*
 * The resamples do not depend on the thread count: 1 and 2 threads (and
 * the rows computed one range at a time) give the same bytes.
 */
static void test_ci_threads(void **state)
{
	enum { B = 203 };
	struct ss_timekeep g, b;
	double *r1 = ss_calloc(2 * B * SS_TB_COUNT, sizeof(double));
	double *r2 = ss_calloc(2 * B * SS_TB_COUNT, sizeof(double));
	double *r3 = ss_calloc(B * SS_TB_COUNT, sizeof(double));
	struct ss_boot_tjob jobs[2];
	size_t defined = 0;

	(void)state;
	assert_non_null(r1);
	assert_non_null(r2);
	assert_non_null(r3);
	ss_timekeep_init(&g);
	ss_timekeep_init(&b);
	ss_timekeep_keep_draws(&g);
	ss_timekeep_keep_draws(&b);
	for (int i = 0; i < 97; i++) {
		/* latency varies, some without TTFT, some with c < 2 */
		keep(&g, 500.0 + 7.0 * i, i % 5 ? 50.0 + i : -1.0, i % 7 ? 20 + i : 1);
		keep(&b, 900.0 + 3.0 * i, 80.0 + i % 13, 30 + i % 11);
	}
	memset(jobs, 0, sizeof(jobs));
	jobs[0].timing = &g;
	jobs[0].g = 1;
	jobs[1].timing = &b;
	jobs[1].g = 2;
	jobs[0].out = r1;
	jobs[1].out = r1 + B * SS_TB_COUNT;
	ss_boot_timing_run(jobs, 2, 42, B, 1);
	jobs[0].out = r2;
	jobs[1].out = r2 + B * SS_TB_COUNT;
	ss_boot_timing_run(jobs, 2, 42, B, 2);
	assert_memory_equal(r1, r2, 2 * B * SS_TB_COUNT * sizeof(double));
	ss_boot_timing_range(&g, 42, 1, 0, 100, r3);
	ss_boot_timing_range(&g, 42, 1, 100, B, r3 + 100 * SS_TB_COUNT);
	assert_memory_equal(r1, r3, B * SS_TB_COUNT * sizeof(double));
	for (size_t i = 0; i < B; i++)
		defined += !isnan(r1[i * SS_TB_COUNT + SS_TB_X]);
	assert_int_equal(defined, B);
	/* another seed draws other requests */
	ss_boot_timing_run(jobs, 2, 43, B, 2);
	assert_true(memcmp(r1, r2, B * SS_TB_COUNT * sizeof(double)) != 0);
	ss_free(r1);
	ss_free(r2);
	ss_free(r3);
	ss_timekeep_release(&g);
	ss_timekeep_release(&b);
}

/* A set without timing resamples to undefined rows: no interval. */
static void test_ci_empty(void **state)
{
	enum { B = 8 };
	struct ss_timekeep g;
	double rows[B * SS_TB_COUNT], scratch[B], lo = 0, hi = 0;

	(void)state;
	ss_timekeep_init(&g);
	ss_boot_timing_range(&g, 1, 1, 0, B, rows);
	for (int i = 0; i < B * SS_TB_COUNT; i++)
		assert_true(isnan(rows[i]));
	assert_false(ss_boot_ratio_interval(rows, rows, B, SS_TB_COUNT, SS_TB_X, 95.0, scratch, &lo,
					    &hi));
}

static const int64_t hist_a[] = {1, 1, 2, 3, 1};
static const int64_t hist_b[] = {1, 2, 0, 0, 0};

/* 7.1's vector with the cost measured (0.1) instead of given: the same rows. */
static void test_measured_cost(void **state)
{
	struct ss_positions p;
	struct ss_pos_result r;
	struct ss_speedup sp;
	double c = -1.0;

	(void)state;
	ss_positions_init(&p);
	assert_true(ss_positions_add(&p, hist_a, 5, true, 4));
	assert_true(ss_positions_add(&p, hist_b, 5, true, 4));
	memset(&sp, 0, sizeof(sp));
	sp.has_cost = true;
	sp.draft_cost = 0.1;
	assert_int_equal(ss_cost_choose(false, 0.0, &sp, &c), SS_COST_MEASURED);
	assert_double_is(c, 0.1);
	assert_true(ss_pos_compute_cost(&p.ks[0], SS_COST_MEASURED, c, &r));
	assert_true(r.has_cost);
	assert_int_equal(r.cost_source, SS_COST_MEASURED);
	assert_string_equal(ss_cost_source_name(r.cost_source), "measured");
	assert_double_is(r.what_if[0].speedup, 1.6528925619834711);
	assert_double_is(r.what_if[1].speedup, 1.9696969696969695);
	assert_double_is(r.what_if[2].speedup, 2.097902097902098);
	assert_double_is(r.what_if[3].speedup, 2.012987012987013);
	for (int i = 0; i < 4; i++)
		assert_true(r.what_if[i].has_speedup);
	assert_int_equal(r.suggested_k, 3);
	ss_pos_result_release(&r);

	/* --draft-cost wins over a measured cost */
	assert_int_equal(ss_cost_choose(true, 0.2, &sp, &c), SS_COST_GIVEN);
	assert_double_is(c, 0.2);
	assert_string_equal(ss_cost_source_name(SS_COST_GIVEN), "given");
	/* neither: no speedups */
	sp.has_cost = false;
	assert_int_equal(ss_cost_choose(false, 0.0, &sp, &c), SS_COST_NONE);
	assert_int_equal(ss_cost_choose(false, 0.0, NULL, &c), SS_COST_NONE);
	assert_null(ss_cost_source_name(SS_COST_NONE));
	assert_true(ss_pos_compute_cost(&p.ks[0], SS_COST_NONE, 0.0, &r));
	assert_false(r.has_cost);
	assert_false(r.what_if[0].has_speedup);
	assert_int_equal(r.suggested_k, 0);
	ss_pos_result_release(&r);

	/*
	 * A negative measured cost, -0.3: 1 + c k' is 0.7, 0.4, 0.1, -0.2; k' = 4
	 * has no speedup. tau(3) = 2.7272727272727275 / 0.1 (about 27.3) is the
	 * largest.
	 */
	assert_true(ss_pos_compute_cost(&p.ks[0], SS_COST_MEASURED, -0.3, &r));
	assert_true(r.what_if[2].has_speedup);
	assert_false(r.what_if[3].has_speedup);
	assert_int_equal(r.suggested_k, 3);
	ss_pos_result_release(&r);
	ss_positions_release(&p);
}

/*
 * The aggregate keeps timing for ok, zero_step and no_stats requests of
 * the main results' phase, per group, and whether the ok records share k.
 */
static void test_aggregate_keeps(void **state)
{
	struct ss_agg a;
	struct ss_record ra, rb;
	struct ss_outcome o;
	struct ss_timing t;
	struct ss_kv key[1];
	int64_t k = 0;

	(void)state;
	fx_record_a(&ra);
	fx_record_b(&rb);
	ss_agg_init(&a, SS_PHASES_PROFILING);
	ss_agg_keep(&a, false, false, 1);
	ss_agg_keep_timing(&a, true);
	memset(key, 0, sizeof(key));
	key[0].type = SS_KV_INT;

	key[0].i = 1;
	fx_outcome_of(&o, &ra, SS_PHASE_PROFILING, 1);
	timing_of(&t, 1000.0, 200.0, 81);
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));

	key[0].i = 2;  /* a baseline request: no_stats, still timed */
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_PROFILING, SS_KIND_RAW, NULL);
	timing_of(&t, 2600.0, 100.0, 101);
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));

	/* not kept: a warmup request, an error, a request without a time */
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_WARMUP, SS_KIND_RAW, NULL);
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));
	fx_outcome_status(&o, SS_ST_ERROR, SS_PHASE_PROFILING, SS_KIND_RAW, "500");
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_PROFILING, SS_KIND_RAW, NULL);
	timing_of(&t, -1.0, -1.0, 5);
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));

	key[0].i = 1;  /* record B: also k 4 */
	fx_outcome_of(&o, &rb, SS_PHASE_PROFILING, 6);
	timing_of(&t, 600.0, 100.0, 51);
	assert_true(ss_agg_add_keyed(&a, &o, key));
	assert_true(ss_agg_add_timing(&a, &o, &t, key));

	assert_int_equal(a.main.timing.n, 3);
	assert_int_equal(a.groups.n, 2);
	assert_int_equal(a.group[0].res.timing.n, 2);
	assert_int_equal(a.group[1].res.timing.n, 1);
	assert_true(ss_timekeep_k(&a.group[0].res.timing, &k));
	assert_int_equal(k, 4);
	/* group 2 has no ok record: no k */
	assert_false(ss_timekeep_k(&a.group[1].res.timing, &k));
	assert_true(ss_timekeep_k(&a.main.timing, &k));
	/* the main results: the columns in input order and the decode sums,
	 * (1000 - 200) + (2600 - 100) + (600 - 100) over 80 + 100 + 50; no
	 * draws (never resampled) */
	assert_int_equal(a.main.timing.col[SS_T_LATENCY].n, 3);
	assert_double_is(a.main.timing.col[SS_T_LATENCY].v[1], 2600.0);
	assert_double_is(a.main.timing.col[SS_T_TTFT].v[2], 100.0);
	assert_double_is(a.main.timing.sum[SS_T_LATENCY], 4200.0);
	assert_double_is(a.main.timing.dec_ms, 3800.0);
	assert_true(a.main.timing.dec_tokens == 230);
	assert_int_equal(a.main.timing.dec_requests, 3);
	assert_null(a.main.timing.draw);
	/* the groups keep a draw record a request (--compare) */
	assert_non_null(a.group[0].res.timing.draw);
	assert_double_is(a.group[0].res.timing.draw[1].lat, 600.0);
	assert_double_is(a.group[0].res.timing.draw[1].ttft, 100.0);
	assert_int_equal(a.group[0].res.timing.draw[1].dec_tokens, 50);
	assert_int_equal(a.group[1].res.timing.draw[0].dec_tokens, 100);
	ss_agg_release(&a);
	ss_record_release(&ra);
	ss_record_release(&rb);
}

static void test_kstate(void **state)
{
	struct ss_timekeep tk;
	int64_t k = 0;

	(void)state;
	ss_timekeep_init(&tk);
	assert_false(ss_timekeep_k(&tk, &k));
	ss_timekeep_note_k(&tk, true, 3);
	ss_timekeep_note_k(&tk, true, 3);
	assert_true(ss_timekeep_k(&tk, &k));
	assert_int_equal(k, 3);
	ss_timekeep_note_k(&tk, true, 5);   /* two values: none */
	assert_false(ss_timekeep_k(&tk, &k));
	ss_timekeep_note_k(&tk, true, 3);
	assert_false(ss_timekeep_k(&tk, &k));
	ss_timekeep_init(&tk);
	ss_timekeep_note_k(&tk, true, 3);
	ss_timekeep_note_k(&tk, false, 0);  /* an ok record without k: none */
	assert_false(ss_timekeep_k(&tk, &k));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_vector),   cmocka_unit_test(test_stats_partial),
		cmocka_unit_test(test_speedup_vector),  cmocka_unit_test(test_speedup_missing),
		cmocka_unit_test(test_ci_degenerate),   cmocka_unit_test(test_ci_threads),
		cmocka_unit_test(test_ci_empty),        cmocka_unit_test(test_measured_cost),
		cmocka_unit_test(test_aggregate_keeps), cmocka_unit_test(test_kstate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
