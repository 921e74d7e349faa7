/* Unit tests of the per-request values and the aggregation (SPEC 3). */
#include "fixtures_records.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "metrics/aggregate.h"
#include "util/alloc.h"

#define assert_double_is(x, y) assert_true((x) == (y))

static void test_metric_table(void **state)
{
	(void)state;
	assert_string_equal(ss_metric_table[SS_M_ACCEPTANCE_LENGTH].tag,
			    "spec_decode_acceptance_length");
	assert_string_equal(ss_metric_table[SS_M_TOKEN_WEIGHTED_AL].header,
			    "Token-Weighted Acceptance Length");
	assert_string_equal(ss_metric_table[SS_M_OVERALL_DAR].unit, "%");
	assert_string_equal(ss_metric_table[SS_M_ZERO_STEP_REQUESTS].unit, "requests");
	assert_string_equal(ss_metric_table[SS_M_TOTAL_DRAFT].tag, "total_draft_tokens");
	assert_true(ss_metric_table[SS_M_STEPS].per_request);
	assert_true(ss_metric_table[SS_M_STEPS].integral);
	assert_false(ss_metric_table[SS_M_TOTAL_STEPS].per_request);
	assert_false(ss_metric_table[SS_M_DRAFT_ACCEPTANCE_RATE].integral);
}

static void test_values_of_a(void **state)
{
	struct ss_record r;
	struct ss_req_values v;

	(void)state;
	fx_record_a(&r);
	ss_req_values_of(&r, &v);
	assert_double_is(v.v[SS_M_ACCEPTANCE_LENGTH], 3.25);
	assert_double_is(v.v[SS_M_DRAFT_ACCEPTANCE_RATE], 56.25);
	assert_double_is(v.v[SS_M_ACCEPTED_PER_VERIFIED], 0.65); /* 26 / 40 */
	assert_int_equal(v.iv[SS_M_STEPS], 8);
	assert_int_equal(v.iv[SS_M_ACCEPTED_DRAFT_TOKENS], 18);
	assert_int_equal(v.iv[SS_M_DRAFT_TOKENS], 32);
	assert_double_is(v.v[SS_M_DRAFT_TOKENS], 32.0);
	assert_false(v.has[SS_M_TOKEN_WEIGHTED_AL]);
	assert_false(v.has[SS_M_TOTAL_STEPS]);
	ss_record_release(&r);
}

static void test_values_without_steps(void **state)
{
	struct ss_record r;
	struct ss_req_values v;

	(void)state;
	fx_llamacpp(&r, 3, 4);
	ss_req_values_of(&r, &v);
	assert_false(v.has[SS_M_ACCEPTANCE_LENGTH]);
	assert_false(v.has[SS_M_ACCEPTED_PER_VERIFIED]);
	assert_false(v.has[SS_M_STEPS]);
	assert_true(v.has[SS_M_DRAFT_ACCEPTANCE_RATE]);
	assert_double_is(v.v[SS_M_DRAFT_ACCEPTANCE_RATE], 75.0);
	assert_int_equal(v.iv[SS_M_ACCEPTED_DRAFT_TOKENS], 3);
	assert_int_equal(v.iv[SS_M_DRAFT_TOKENS], 4);
	ss_record_release(&r);
}

static void test_values_huge_counts(void **state)
{
	struct ss_record r;
	struct ss_req_values v;

	(void)state;
	/* accepted + steps and drafted + steps overflow 64 bits */
	ss_record_init(&r);
	strcpy(r.engine, "sglang");
	r.has_steps = true;
	r.num_spec_steps = INT64_MAX;
	r.num_accepted_draft_tokens = INT64_MAX;
	r.num_draft_tokens = INT64_MAX;
	r.has_mean_acceptance_length = true;
	r.mean_acceptance_length = 2.0;
	r.draft_acceptance_rate = 1.0;
	ss_req_values_of(&r, &v);
	assert_true(v.has[SS_M_ACCEPTED_PER_VERIFIED]);
	assert_double_is(v.v[SS_M_ACCEPTED_PER_VERIFIED], 1.0);
	assert_int_equal(v.iv[SS_M_STEPS], INT64_MAX);

	/* steps 0 and drafted 0: no denominator, no value */
	r.num_spec_steps = 0;
	r.num_accepted_draft_tokens = 0;
	r.num_draft_tokens = 0;
	ss_req_values_of(&r, &v);
	assert_false(v.has[SS_M_ACCEPTED_PER_VERIFIED]);
	ss_record_release(&r);
}

static void add_ok(struct ss_agg *a, void (*make)(struct ss_record *),
		   enum ss_phase phase)
{
	struct ss_record r;
	struct ss_outcome o;

	make(&r);
	fx_outcome_of(&o, &r, phase, 1);
	assert_int_equal(o.status, SS_ST_OK);
	assert_true(ss_agg_add(a, &o));
	ss_record_release(&r);
}

/* Two steps, k 19: one accepting nothing, one all 19 (a histogram of 20). */
static void record_long_hist(struct ss_record *r)
{
	int64_t h[20] = {0};

	h[0] = 1;
	h[19] = 1;
	fx_vllm(r, h, 20, 2, 19, 38, 10.5, 0.5);
}

/*
 * The pooled histogram grows when a longer one comes (past the 16 counts
 * it starts with, after counts are kept) and the new counts start at 0;
 * a shorter one later adds to the first counts only.
 */
static void test_pooled_histogram_grows(void **state)
{
	struct ss_agg a;
	const struct ss_results *r = &a.main;
	static const int64_t want[20] = {3, 3, 2, 3, 1, 0, 0, 0, 0, 0,
					 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "run.jsonl"));
	add_ok(&a, fx_record_a, SS_PHASE_PROFILING);      /* {1,1,2,3,1} */
	add_ok(&a, record_long_hist, SS_PHASE_PROFILING); /* 1 at 0 and at 19 */
	add_ok(&a, fx_record_b, SS_PHASE_PROFILING);      /* {1,2,0,0,0} */
	assert_true(ss_agg_finish(&a));
	assert_int_equal(a.status[SS_ST_OK], 3);
	assert_int_equal(r->hist_len, 20);
	for (size_t i = 0; i < 20; i++)
		assert_int_equal(r->hist[i], want[i]);
	ss_agg_release(&a);
}

static void test_two_records(void **state)
{
	struct ss_agg a;
	const struct ss_results *r = &a.main;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "run.jsonl"));
	add_ok(&a, fx_record_a, SS_PHASE_PROFILING);
	add_ok(&a, fx_record_b, SS_PHASE_PROFILING);
	assert_true(ss_agg_finish(&a));

	assert_int_equal(a.total, 2);
	assert_int_equal(a.status[SS_ST_OK], 2);
	assert_int_equal(a.phases[SS_PHASE_PROFILING], 2);
	assert_int_equal(a.nengines, 1);
	assert_string_equal(a.engines[0].name, "vllm");
	assert_int_equal(a.engines[0].count, 2);
	assert_int_equal(a.ninputs, 1);
	assert_int_equal(a.inputs[0].requests, 2);
	assert_string_equal(ss_input_kind_name(&a.inputs[0]), "raw");

	/* values kept in input order */
	assert_int_equal(r->values[SS_M_ACCEPTANCE_LENGTH].len, 2);
	assert_double_is(r->values[SS_M_ACCEPTANCE_LENGTH].v[0], 3.25);

	assert_true(r->has[SS_M_ACCEPTANCE_LENGTH]);
	assert_double_is(r->stats[SS_M_ACCEPTANCE_LENGTH].avg, 2.458333333333333);
	assert_double_is(r->stats[SS_M_ACCEPTANCE_LENGTH].p50, 2.458333333333333);
	assert_double_is(r->stats[SS_M_ACCEPTANCE_LENGTH].p90, 3.091666666666667);
	assert_double_is(r->stats[SS_M_ACCEPTANCE_LENGTH].std, 0.7916666666666667);
	assert_double_is(r->stats[SS_M_STEPS].avg, 5.5);
	assert_double_is(r->stats[SS_M_STEPS].p1, 3.05);
	assert_double_is(r->stats[SS_M_STEPS].std, 2.5);
	assert_double_is(r->stats[SS_M_STEPS].sum, 11.0);
	assert_double_is(r->stats[SS_M_TOKEN_WEIGHTED_AL].avg, 2.8181818181818183);
	assert_double_is(r->stats[SS_M_OVERALL_DAR].avg, 45.45454545454545);
	assert_double_is(r->stats[SS_M_TOTAL_STEPS].avg, 11.0);
	assert_double_is(r->stats[SS_M_TOTAL_ACCEPTED].avg, 20.0);
	assert_double_is(r->stats[SS_M_TOTAL_DRAFT].avg, 44.0);
	assert_false(r->has[SS_M_ZERO_STEP_REQUESTS]);
	assert_true(r->sum_steps == 11);

	/* pooled histogram {0:2,1:3,2:2,3:3,4:1} */
	assert_int_equal(r->hist_len, 5);
	assert_true(r->hist[0] == 2 && r->hist[1] == 3 && r->hist[2] == 2 &&
		    r->hist[3] == 3 && r->hist[4] == 1);

	assert_false(ss_results_any(&a.warmup));
	ss_agg_release(&a);
}

static void test_phases(void **state)
{
	static const enum ss_phase_mode modes[] = {
		SS_PHASES_PROFILING, SS_PHASES_WARMUP, SS_PHASES_ALL,
	};
	/* A is profiling, B is warmup: how many values the main set gets. */
	static const size_t main_count[] = {1, 1, 2};
	static const double main_first[] = {3.25, 1.0 + 2.0 / 3.0, 3.25};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct ss_agg a;

		ss_agg_init(&a, modes[i]);
		add_ok(&a, fx_record_a, SS_PHASE_PROFILING);
		add_ok(&a, fx_record_b, SS_PHASE_WARMUP);
		assert_true(ss_agg_finish(&a));
		/* the accounting always covers every request */
		assert_int_equal(a.total, 2);
		assert_int_equal(a.phases[SS_PHASE_PROFILING], 1);
		assert_int_equal(a.phases[SS_PHASE_WARMUP], 1);
		assert_int_equal(a.engines[0].count, 2);
		assert_int_equal(a.main.stats[SS_M_ACCEPTANCE_LENGTH].count, main_count[i]);
		assert_double_is(a.main.values[SS_M_ACCEPTANCE_LENGTH].v[0], main_first[i]);
		if (modes[i] == SS_PHASES_PROFILING) {
			assert_true(ss_results_any(&a.warmup));
			assert_double_is(a.warmup.stats[SS_M_ACCEPTANCE_LENGTH].avg,
					 1.0 + 2.0 / 3.0);
			assert_double_is(a.warmup.stats[SS_M_TOTAL_STEPS].avg, 3.0);
		} else {
			assert_false(ss_results_any(&a.warmup));
		}
		ss_agg_release(&a);
	}
}

static void test_zero_step_and_statuses(void **state)
{
	static const int64_t zero[] = {0, 0, 0};
	struct ss_agg a;
	struct ss_record r;
	struct ss_outcome o;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "a.jsonl"));
	fx_vllm(&r, zero, 3, 0, 0, 0, 1.0, 0.0);
	strcpy(r.engine, "sglang");
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	assert_int_equal(o.status, SS_ST_ZERO_STEP);
	assert_true(ss_agg_add(&a, &o));
	ss_record_release(&r);

	assert_true(ss_agg_begin_input(&a, "b.jsonl"));
	fx_outcome_status(&o, SS_ST_MALFORMED, SS_PHASE_PROFILING, SS_KIND_BODY, "bad");
	assert_true(ss_agg_add(&a, &o));
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_WARMUP, SS_KIND_SSE, NULL);
	assert_true(ss_agg_add(&a, &o));
	fx_outcome_status(&o, SS_ST_UNPARSABLE, SS_PHASE_PROFILING, SS_KIND_UNKNOWN, NULL);
	assert_true(ss_agg_add(&a, &o));

	assert_true(ss_agg_begin_input(&a, "c.jsonl"));
	fx_outcome_status(&o, SS_ST_OVERSIZE, SS_PHASE_PROFILING, SS_KIND_UNKNOWN, NULL);
	assert_true(ss_agg_add(&a, &o));
	ss_agg_fail_input(&a);
	assert_true(ss_agg_begin_input(&a, "d.jsonl"));
	assert_true(ss_agg_finish(&a));

	assert_int_equal(a.total, 5);
	assert_int_equal(a.status[SS_ST_ZERO_STEP], 1);
	assert_int_equal(a.status[SS_ST_MALFORMED], 1);
	assert_int_equal(a.status[SS_ST_NO_STATS], 1);
	assert_int_equal(a.status[SS_ST_UNPARSABLE], 1);
	assert_int_equal(a.status[SS_ST_OVERSIZE], 1);
	assert_int_equal(a.status[SS_ST_OK], 0);
	assert_int_equal(a.phases[SS_PHASE_WARMUP], 1);
	/* engines count zero_step records too */
	assert_int_equal(a.nengines, 1);
	assert_string_equal(a.engines[0].name, "sglang");

	assert_string_equal(ss_input_kind_name(&a.inputs[0]), "raw");
	assert_string_equal(ss_input_kind_name(&a.inputs[1]), "mixed");
	assert_string_equal(ss_input_kind_name(&a.inputs[2]), "unknown");
	assert_string_equal(ss_input_kind_name(&a.inputs[3]), "unknown");
	assert_true(a.inputs[2].failed);
	assert_false(a.inputs[1].failed);
	assert_int_equal(a.inputs[1].requests, 3);
	assert_int_equal(a.inputs[3].requests, 0);

	/* no ok record: only the zero-step count exists */
	for (int m = 0; m < SS_M_COUNT; m++)
		assert_int_equal(a.main.has[m], m == SS_M_ZERO_STEP_REQUESTS);
	assert_double_is(a.main.stats[SS_M_ZERO_STEP_REQUESTS].avg, 1.0);
	ss_agg_release(&a);
}

static void test_without_steps(void **state)
{
	struct ss_agg a;
	struct ss_record r;
	struct ss_outcome o;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	fx_llamacpp(&r, 3, 4);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	assert_true(ss_agg_add(&a, &o));
	ss_record_release(&r);
	/* a second engine, and one ok record with steps */
	add_ok(&a, fx_record_b, SS_PHASE_PROFILING);
	assert_true(ss_agg_finish(&a));

	assert_int_equal(a.nengines, 2);
	assert_string_equal(a.engines[0].name, "llamacpp");
	assert_string_equal(a.engines[1].name, "vllm");
	/* acceptance length and steps only from B */
	assert_int_equal(a.main.stats[SS_M_ACCEPTANCE_LENGTH].count, 1);
	assert_int_equal(a.main.stats[SS_M_STEPS].count, 1);
	assert_int_equal(a.main.stats[SS_M_DRAFT_ACCEPTANCE_RATE].count, 2);
	/* token-weighted: 1 + 2 / 3 (the llama.cpp drafts don't count) */
	assert_double_is(a.main.stats[SS_M_TOKEN_WEIGHTED_AL].avg, 1.0 + 2.0 / 3.0);
	/* overall rate: (3 + 2) / (4 + 12) */
	assert_double_is(a.main.stats[SS_M_OVERALL_DAR].avg, 31.25);
	assert_double_is(a.main.stats[SS_M_TOTAL_STEPS].avg, 3.0);
	assert_double_is(a.main.stats[SS_M_TOTAL_ACCEPTED].avg, 5.0);
	ss_agg_release(&a);

	/* llama.cpp only: no steps at all */
	ss_agg_init(&a, SS_PHASES_PROFILING);
	fx_llamacpp(&r, 0, 4);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	assert_true(ss_agg_add(&a, &o));
	ss_record_release(&r);
	assert_true(ss_agg_finish(&a));
	assert_false(a.main.has[SS_M_TOKEN_WEIGHTED_AL]);
	assert_false(a.main.has[SS_M_ACCEPTANCE_LENGTH]);
	assert_true(a.main.has[SS_M_OVERALL_DAR]);
	assert_double_is(a.main.stats[SS_M_OVERALL_DAR].avg, 0.0);
	/* SPEC 3: no ok record has steps, so no total (AIPerf omits it). */
	assert_false(a.main.has[SS_M_TOTAL_STEPS]);
	assert_true(a.main.has[SS_M_TOTAL_DRAFT]);
	assert_double_is(a.main.stats[SS_M_TOTAL_DRAFT].avg, 4.0);
	assert_int_equal(a.main.hist_len, 0);
	ss_agg_release(&a);
}

static void test_empty(void **state)
{
	struct ss_agg a;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_finish(&a));
	assert_false(ss_results_any(&a.main));
	assert_int_equal(a.total, 0);
	ss_agg_release(&a);
	ss_agg_release(&a); /* releasing twice is harmless */
}

/* Every allocation failure ends in a clean false, without a leak. */
static void test_out_of_memory(void **state)
{
	bool done = false;

	(void)state;
	for (uint64_t n = 1; !done && n < 100; n++) {
		struct ss_agg a;
		struct ss_record ra, rb;
		struct ss_outcome oa, ob;
		bool ok;

		fx_record_a(&ra);
		fx_record_b(&rb);
		fx_outcome_of(&oa, &ra, SS_PHASE_PROFILING, 1);
		fx_outcome_of(&ob, &rb, SS_PHASE_WARMUP, 2);
		ss_agg_init(&a, SS_PHASES_PROFILING);
		ss_alloc_fail_at(n, 1);
		ok = ss_agg_begin_input(&a, "x") && ss_agg_add(&a, &oa) &&
		     ss_agg_add(&a, &ob) && ss_agg_finish(&a);
		ss_alloc_fail_at(0, 0);
		done = ok;
		ss_agg_release(&a);
		ss_record_release(&ra);
		ss_record_release(&rb);
	}
	assert_true(done);
}

/* An outcome counted under `name` (an enriched line read back, SPEC 8.1). */
static void add_named(struct ss_agg *a, const char *name, enum ss_kind kind)
{
	struct ss_outcome o;

	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_PROFILING, kind, NULL);
	o.input = name;
	o.input_len = strlen(name);
	assert_true(ss_agg_add(a, &o));
}

static void test_named_inputs(void **state)
{
	struct ss_agg a;
	struct ss_outcome o;
	char many[16];

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "part-0"));
	add_named(&a, "a.jsonl", SS_KIND_RAW);
	add_named(&a, "b.sse", SS_KIND_SSE);
	assert_true(ss_agg_begin_input(&a, "part-1"));
	add_named(&a, "b.sse", SS_KIND_SSE);
	add_named(&a, "a.jsonl", SS_KIND_RAW);  /* not consecutive: still a.jsonl's */
	/* a broken enriched line: counted under the file it is in */
	fx_outcome_status(&o, SS_ST_MALFORMED, SS_PHASE_PROFILING, SS_KIND_ENRICHED, "bad");
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_begin_input(&a, "part-2"));  /* an empty partial */
	/* enough names to grow the table */
	assert_true(ss_agg_begin_input(&a, "part-3"));
	for (int i = 0; i < 100; i++) {
		snprintf(many, sizeof(many), "m%d", i);
		add_named(&a, many, SS_KIND_BODY);
	}
	add_named(&a, "m7", SS_KIND_RECORDS);
	assert_true(ss_agg_finish(&a));

	assert_int_equal(a.total, 106);
	assert_int_equal(a.ninputs, 103);
	assert_string_equal(a.inputs[0].name, "a.jsonl");
	assert_int_equal(a.inputs[0].requests, 2);
	assert_string_equal(ss_input_kind_name(&a.inputs[0]), "raw");
	assert_string_equal(a.inputs[1].name, "b.sse");
	assert_int_equal(a.inputs[1].requests, 2);
	assert_string_equal(a.inputs[2].name, "part-1");
	assert_int_equal(a.inputs[2].requests, 1);
	assert_string_equal(ss_input_kind_name(&a.inputs[2]), "enriched");
	assert_string_equal(a.inputs[3].name, "m0");
	assert_string_equal(a.inputs[10].name, "m7");
	assert_int_equal(a.inputs[10].requests, 2);
	assert_string_equal(ss_input_kind_name(&a.inputs[10]), "mixed");
	assert_string_equal(a.inputs[102].name, "m99");
	ss_agg_release(&a);

	/* without enriched lines, an input that held nothing is listed */
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "empty.jsonl"));
	assert_true(ss_agg_begin_input(&a, "x.jsonl"));
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_PROFILING, SS_KIND_BODY, NULL);
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_finish(&a));
	assert_int_equal(a.ninputs, 2);
	assert_string_equal(a.inputs[0].name, "empty.jsonl");
	assert_int_equal(a.inputs[0].requests, 0);
	assert_string_equal(a.inputs[1].name, "x.jsonl");
	ss_agg_release(&a);
}

/*
 * A large run's statistics are computed on two threads at the end: each
 * metric must come out as one thread computes it (and as
 * ss_stats_compute_sum on the values and their sum in input order does),
 * bit for bit; and with allocations
 * failing, ss_agg_finish either fails or still gives the same statistics.
 */
enum { MANY = 70001 };

static void add_many(struct ss_agg *a)
{
	uint64_t x = 0x2545F4914F6CDD1DULL;

	assert_true(ss_agg_begin_input(a, "many.jsonl"));
	for (int i = 0; i < MANY; i++) {
		struct ss_record r;
		struct ss_outcome o;
		int64_t drafted, accepted;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		drafted = 1 + (int64_t)(x % 500);
		accepted = (int64_t)((x >> 20) % (uint64_t)(drafted + 1));
		fx_llamacpp(&r, accepted, drafted);
		fx_outcome_of(&o, &r, SS_PHASE_PROFILING, (uint64_t)i + 1);
		assert_true(ss_agg_add(a, &o));
		ss_record_release(&r);
	}
}

static void test_statistics_on_threads(void **state)
{
	struct ss_agg one, two;
	int metrics = 0;

	(void)state;
	ss_agg_init(&one, SS_PHASES_PROFILING);
	ss_agg_init(&two, SS_PHASES_PROFILING);
	ss_agg_set_threads(&two, 8);
	add_many(&one);
	add_many(&two);
	assert_true(ss_agg_finish(&one));
	assert_true(ss_agg_finish(&two));
	for (int m = 0; m < SS_M_COUNT; m++) {
		const struct ss_vec_f64 *d = &one.main.values[m];
		struct ss_stats want;
		double *scratch, sum;

		assert_int_equal(one.main.has[m], two.main.has[m]);
		if (!ss_metric_table[m].per_request || !one.main.has[m])
			continue;
		metrics++;
		assert_int_equal(d->len, MANY);
		scratch = ss_reallocarray(NULL, d->len, sizeof(*scratch));
		assert_non_null(scratch);
		sum = 0.0;
		for (size_t i = 0; i < d->len; i++)
			sum += d->v[i];
		ss_stats_compute_sum(d->v, d->len, sum, scratch, &want);
		ss_free(scratch);
		assert_memory_equal(&one.main.stats[m], &want, sizeof(want));
		assert_memory_equal(&two.main.stats[m], &want, sizeof(want));
	}
	/* llama.cpp records: acceptance rate, accepted and drafted tokens */
	assert_int_equal(metrics, 3);

	/* The n-th allocation of the finish fails (then all after it, or
	 * only that one), whichever thread makes it. */
	for (uint64_t n = 1; n < 2 * 32; n++) {
		struct ss_agg a;
		bool ok;

		ss_agg_init(&a, SS_PHASES_PROFILING);
		ss_agg_set_threads(&a, 2);
		add_many(&a);
		ss_alloc_fail_at(n / 2 + 1, (int)(n & 1));
		ok = ss_agg_finish(&a);
		ss_alloc_fail_at(0, 0);
		if (ok)
			for (int m = 0; m < SS_M_COUNT; m++)
				if (ss_metric_table[m].per_request && one.main.has[m])
					assert_memory_equal(&a.main.stats[m], &one.main.stats[m],
							    sizeof(a.main.stats[m]));
		ss_agg_release(&a);
	}
	ss_agg_release(&one);
	ss_agg_release(&two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_values_of_a),
		cmocka_unit_test(test_values_without_steps),
		cmocka_unit_test(test_values_huge_counts),
		cmocka_unit_test(test_two_records),
		cmocka_unit_test(test_pooled_histogram_grows),
		cmocka_unit_test(test_named_inputs),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_zero_step_and_statuses),
		cmocka_unit_test(test_without_steps),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_statistics_on_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
