/*
 * Unit tests of SPEC 7 over an aggregate: groups as a dimension of the
 * aggregate (7.3), ss_analysis_run (7.1, 7.2, 7.4) and the values --expect
 * reads (7.5), and their behaviour when memory runs out.
 *
 * The interval values were computed outside specscan by a Python 3 script
 * written for this test (SPEC 7.2's generator with Python integers masked
 * to 64 bits, sums in draw order, SPEC 3.1's percentile): seed 1, stream
 * (0, b) draws [1,0], [0,0], [1,1], [0,1] from SPEC 6's records A, B.
 */
#include "fixtures_records.h"

#include <math.h>
#include <stdint.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "util/alloc.h"

#define assert_double_is(x, y) assert_true((x) == (y))

static struct ss_kv str_kv(const char *s)
{
	struct ss_kv v = {SS_KV_STR, false, 0, s, strlen(s)};

	return v;
}

/* A (key "b"), B (key "a"), a failed request (key null), a warmup A (key "a"). */
static void build(struct ss_agg *a, bool samples, bool positions, size_t nkeys)
{
	struct ss_record ra, rb;
	struct ss_outcome o;
	struct ss_kv knull = {SS_KV_NULL, false, 0, NULL, 0}, ka = str_kv("a"), kb = str_kv("b");

	ss_agg_init(a, SS_PHASES_PROFILING);
	ss_agg_keep(a, samples, positions, nkeys);
	fx_record_a(&ra);
	fx_record_b(&rb);
	fx_outcome_of(&o, &ra, SS_PHASE_PROFILING, 1);
	assert_true(ss_agg_add_keyed(a, &o, &kb));
	fx_outcome_of(&o, &rb, SS_PHASE_PROFILING, 2);
	assert_true(ss_agg_add_keyed(a, &o, &ka));
	fx_outcome_status(&o, SS_ST_ERROR, SS_PHASE_PROFILING, SS_KIND_RAW, "failed");
	assert_true(ss_agg_add_keyed(a, &o, &knull));
	fx_outcome_of(&o, &ra, SS_PHASE_WARMUP, 4);
	assert_true(ss_agg_add_keyed(a, &o, &ka));
	ss_record_release(&ra);
	ss_record_release(&rb);
	assert_true(ss_agg_finish(a));
}

static void test_groups_in_aggregate(void **state)
{
	struct ss_agg a;
	const struct ss_group *g;

	(void)state;
	build(&a, false, true, 1);
	assert_int_equal(a.groups.n, 3);
	/* first seen: "b" 0, "a" 1, null 2; in key order: null, "a", "b" */
	assert_int_equal(a.group_order[0], 2);
	assert_int_equal(a.group_order[1], 1);
	assert_int_equal(a.group_order[2], 0);
	g = &a.group[1]; /* "a": B (profiling) and A (warmup) */
	assert_int_equal(g->total, 2);
	assert_int_equal(g->status[SS_ST_OK], 2);
	assert_int_equal(g->res.ok, 1); /* the warmup one feeds no main results */
	assert_double_is(g->res.stats[SS_M_ACCEPTANCE_LENGTH].avg, 1.0 + 2.0 / 3.0);
	assert_int_equal(g->res.positions.nk, 1);
	assert_int_equal(g->res.positions.ks[0].requests, 1);
	g = &a.group[2];
	assert_int_equal(g->total, 1);
	assert_int_equal(g->status[SS_ST_ERROR], 1);
	assert_false(ss_results_any(&g->res));
	/* the main results are those of both profiling records */
	assert_int_equal(a.main.ok, 2);
	assert_int_equal(a.main.positions.ks[0].requests, 2);
	assert_int_equal(a.main.samples.n, 0); /* not asked for */
	ss_agg_release(&a);
}

static void test_run_positions_and_intervals(void **state)
{
	struct ss_agg a;
	struct ss_analysis_opts o;
	struct ss_analysis an;
	const struct ss_pos_result *p;

	(void)state;
	build(&a, true, true, 0);
	assert_int_equal(a.main.samples.n, 2);
	ss_analysis_opts_init(&o);
	o.positions = o.has_cost = true;
	o.cost = 0.1;
	o.ci = true;
	o.level = 50;
	o.resamples = 4;
	o.threads = 2;
	assert_int_equal(ss_analysis_run(&an, &a, &o), SS_AN_OK);
	assert_true(an.any);
	assert_int_equal(an.main.npos, 1);
	p = &an.main.pos[0];
	assert_true(p->steps == 11);
	assert_double_is(p->pos[1].rate, 0.5454545454545454);
	assert_int_equal(p->suggested_k, 3);
	/* Python, see the top of this file */
	assert_true(an.main.has_ci[SS_BS_AL]);
	assert_double_is(an.main.lo[SS_BS_AL], 2.2604166666666665);
	assert_double_is(an.main.hi[SS_BS_AL], 2.65625);
	assert_double_is(an.main.lo[SS_BS_TWAL], 2.5303030303030303);
	assert_double_is(an.main.hi[SS_BS_TWAL], 2.9261363636363638);
	assert_double_is(an.main.lo[SS_BS_DAR], 31.510416666666664);
	assert_double_is(an.main.hi[SS_BS_DAR], 41.40625);
	assert_double_is(an.main.lo[SS_BS_ODAR], 38.25757575757576);
	assert_double_is(an.main.hi[SS_BS_ODAR], 48.15340909090909);
	ss_analysis_release(&an);
	ss_agg_release(&a);
}

static void test_compare(void **state)
{
	struct ss_agg a;
	struct ss_analysis_opts o;
	struct ss_analysis an;
	const struct ss_delta *d;

	(void)state;
	build(&a, true, false, 1);
	ss_analysis_opts_init(&o);
	o.ci = true;
	o.resamples = 8;
	o.compare = "zzz";
	assert_int_equal(ss_analysis_run(&an, &a, &o), SS_AN_NO_BASELINE);
	o.compare = "b";
	o.rows_budget = 1;
	assert_int_equal(ss_analysis_run(&an, &a, &o), SS_AN_OK);
	assert_true(an.has_baseline);
	assert_int_equal(an.baseline, 0);
	/* group "a" (B alone) against "b" (A alone): every resample of one
	 * record is that record, so the interval is the delta itself */
	d = &an.group[1].vs[SS_BS_AL];
	assert_true(d->has && d->has_ci && d->significant);
	assert_double_is(d->delta, -1.5833333333333335);
	assert_double_is(d->lo, -1.5833333333333335);
	assert_double_is(d->hi, -1.5833333333333335);
	d = &an.group[1].vs[SS_BS_DAR];
	assert_double_is(d->delta, -39.583333333333336);
	/* the null group has no values: no delta */
	assert_false(an.group[2].vs[SS_BS_AL].has);
	assert_false(an.group[0].vs[SS_BS_AL].has); /* the baseline itself */
	ss_analysis_release(&an);
	ss_agg_release(&a);
}

static void test_batches_change_nothing(void **state)
{
	struct ss_agg a;
	struct ss_analysis_opts o;
	struct ss_analysis one, many;

	(void)state;
	build(&a, true, false, 1);
	ss_analysis_opts_init(&o);
	o.ci = true;
	o.resamples = 50;
	o.compare = "a";
	assert_int_equal(ss_analysis_run(&one, &a, &o), SS_AN_OK);
	o.rows_budget = 1; /* one set at a time */
	o.threads = 3;
	assert_int_equal(ss_analysis_run(&many, &a, &o), SS_AN_OK);
	assert_memory_equal(&one.main.has_ci, &many.main.has_ci, sizeof(one.main.has_ci));
	assert_memory_equal(&one.main.lo, &many.main.lo, sizeof(one.main.lo));
	assert_memory_equal(&one.main.hi, &many.main.hi, sizeof(one.main.hi));
	for (size_t g = 0; g < a.groups.n; g++) {
		assert_memory_equal(one.group[g].lo, many.group[g].lo, sizeof(one.group[g].lo));
		assert_memory_equal(one.group[g].hi, many.group[g].hi, sizeof(one.group[g].hi));
		assert_memory_equal(one.group[g].vs, many.group[g].vs, sizeof(one.group[g].vs));
	}
	/* only the baseline's rows are kept */
	assert_non_null(one.group[1].rows);
	assert_null(one.group[0].rows);
	assert_null(one.main.rows);
	ss_analysis_release(&one);
	ss_analysis_release(&many);
	ss_agg_release(&a);
}

static void test_expect_values(void **state)
{
	struct ss_agg a;
	struct ss_analysis_opts o;
	struct ss_analysis an;
	struct ss_expect e;
	bool has;
	double v;

	(void)state;
	build(&a, false, true, 0);
	ss_analysis_opts_init(&o);
	/* a positionN gate makes the positions computed, not reported */
	memset(&e, 0, sizeof(e));
	e.metric = -1;
	e.position = 1;
	o.expects = &e;
	o.nexpects = 1;
	assert_true(ss_analysis_needs_positions(&o));
	assert_int_equal(ss_analysis_run(&an, &a, &o), SS_AN_OK);
	assert_false(an.any);
	e.metric = SS_M_ACCEPTANCE_LENGTH;
	ss_analysis_expect_value(&an, &a, &e, &has, &v);
	assert_true(has);
	assert_double_is(v, 2.458333333333333);
	e.metric = SS_M_ZERO_STEP_REQUESTS; /* absent: 0 */
	ss_analysis_expect_value(&an, &a, &e, &has, &v);
	assert_true(has);
	assert_double_is(v, 0.0);
	e.metric = -1;
	e.position = 1;
	ss_analysis_expect_value(&an, &a, &e, &has, &v);
	assert_true(has);
	assert_double_is(v, 0.8181818181818182);
	e.position = 5;
	ss_analysis_expect_value(&an, &a, &e, &has, &v);
	assert_false(has);
	ss_analysis_release(&an);
	ss_agg_release(&a);
}

static void test_oom(void **state)
{
	struct ss_analysis_opts o;
	bool done = false;

	(void)state;
	ss_analysis_opts_init(&o);
	o.positions = o.ci = true;
	o.resamples = 16;
	o.compare = "a";
	o.threads = 2;
	for (uint64_t n = 1; !done && n < 200; n++) {
		struct ss_agg a;
		struct ss_analysis an;
		enum ss_an_status s;

		build(&a, true, true, 1);
		ss_alloc_fail_at(n, 1);
		s = ss_analysis_run(&an, &a, &o);
		done = ss_alloc_count() < n;
		ss_alloc_fail_at(0, 0);
		assert_true(s == SS_AN_OK || s == SS_AN_NOMEM);
		if (s == SS_AN_OK)
			ss_analysis_release(&an);
		ss_agg_release(&a);
	}
	assert_true(done);
}

static void test_aggregate_oom(void **state)
{
	bool done = false;

	(void)state;
	for (uint64_t n = 1; !done && n < 400; n++) {
		struct ss_agg a;
		struct ss_record r;
		struct ss_outcome o;
		struct ss_kv k = str_kv("x");
		bool ok;

		ss_agg_init(&a, SS_PHASES_PROFILING);
		ss_agg_keep(&a, true, true, 1);
		fx_record_a(&r);
		fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
		ss_alloc_fail_at(n, 1);
		ok = ss_agg_add_keyed(&a, &o, &k) && ss_agg_finish(&a);
		done = ss_alloc_count() < n;
		ss_alloc_fail_at(0, 0);
		assert_true(ok || !done);
		ss_record_release(&r);
		ss_agg_release(&a);
	}
	assert_true(done);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_in_aggregate),
		cmocka_unit_test(test_run_positions_and_intervals),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_batches_change_nothing),
		cmocka_unit_test(test_expect_values),
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_aggregate_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
