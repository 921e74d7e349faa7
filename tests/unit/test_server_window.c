/*
 * Unit tests of the server window (SPEC 10.2, 10.3, 10.5) through the
 * sample API: every vector of SPEC 10.6, then the rules around them (the
 * reset rule, series that disappear or appear, bad samples, data-parallel
 * engines, repeats, inexact values, mixed engines, endpoints and the
 * window, sparse results, intervals, messages; the other family rows and
 * the reconciliation are in test_server_families.c). Expected values are worked out by
 * hand in the comments (doubles: one division of the integers, as
 * Python's int / int gives it, checked there).
 */
#include <stdlib.h>

#include "server_samples.h"
#include "util/alloc.h"

/* SPEC 10.6, first vector: drafting varied, so no histogram. */
static void test_vllm_vector(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts 10", "vllm:spec_decode_num_draft_tokens 20",
	     "vllm:spec_decode_num_accepted_tokens 10",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 8",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 2",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 0",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=0} 10",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=1} 5",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=2} 0");
	SNAP(s, "vllm:spec_decode_num_drafts 14", "vllm:spec_decode_num_draft_tokens 26",
	     "vllm:spec_decode_num_accepted_tokens 13",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 10",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 3",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 0",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=0} 14",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=1} 7",
	     "vllm:spec_decode_num_draft_tokens_per_pos{position=2} 0");
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_VLLM);
	assert_string_equal(f->row->counters, "prometheus");
	assert_int_equal(f->snapshots, 2);
	assert_int_equal(f->series, 1); /* one label set (empty) without the position */
	assert_int_equal(f->resets, 0);
	assert_false(f->since_start);
	assert_false(f->inexact);
	assert_false(f->estimated);
	assert_false(f->has_start);
	assert_false(f->has_end);
	/* Δ: 14-10, 26-20, 13-10 */
	assert_u128(f->steps, 4);
	assert_true(f->has_draft_tokens);
	assert_u128(f->draft_tokens, 6);
	assert_i128(f->accepted_tokens, 3);
	assert_true(f->has_acceptance_length);
	assert_double_is(f->acceptance_length, 1.75); /* 1 + 3/4 */
	assert_true(f->has_rate);
	assert_double_is(f->draft_acceptance_rate, 50.0); /* 3/6 x 100 */
	/* positions: ΔP = 2, 1, 0; ΔDP = 4, 2, 0 */
	assert_int_equal(f->npositions, 3);
	assert_u128(f->positions[0].accepted, 2);
	assert_u128(f->positions[1].accepted, 1);
	assert_u128(f->positions[2].accepted, 0);
	assert_u128(f->positions[0].drafted, 4);
	assert_u128(f->positions[1].drafted, 2);
	assert_u128(f->positions[2].drafted, 0);
	assert_true(f->positions[0].has_rate && f->positions[1].has_rate);
	assert_double_is(f->positions[0].rate, 0.5);
	assert_double_is(f->positions[1].rate, 0.5);
	assert_false(f->positions[2].has_rate); /* 0 / 0 */
	/* conditional: 2/4 (ΔP_0 = ΔS), 1/2, 0/1 */
	assert_double_is(f->positions[0].conditional, 0.5);
	assert_double_is(f->positions[1].conditional, 0.5);
	assert_true(f->positions[2].has_conditional);
	assert_double_is(f->positions[2].conditional, 0.0);
	/* 2 + 1 + 0 = 3 = ΔA and 2 >= 1 >= 0 */
	assert_true(f->has_consistent);
	assert_true(f->consistent);
	assert_null(f->histogram); /* ΔDP_2 = 2 != ΔS = 4 */
	assert_null(f->what_if);
	assert_false(f->has_reconciliation);
	assert_int_equal(f->nintervals, 0); /* two snapshots: no intervals */
	assert_int_equal(r.endpoints, 1);
	assert_int_equal(r.snapshots, 2);
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6, second vector: the `_total` names of the Python client. */
static void test_vllm_total_names(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts_total 1000", "vllm:spec_decode_num_draft_tokens_total 7000",
	     "vllm:spec_decode_num_accepted_tokens_total 2000");
	SNAP(s, "vllm:spec_decode_num_drafts_total 5816", "vllm:spec_decode_num_draft_tokens_total 40712",
	     "vllm:spec_decode_num_accepted_tokens_total 14208");
	f = finish(s, &r, 1);
	assert_u128(f->steps, 4816);
	assert_u128(f->draft_tokens, 33712);
	assert_i128(f->accepted_tokens, 12208);
	assert_double_is(f->acceptance_length, 3.5348837209302326);  /* 1 + 12208/4816 */
	assert_double_is(f->draft_acceptance_rate, 36.21262458471761); /* 12208/33712 x 100 */
	assert_int_equal(f->npositions, 0);
	assert_false(f->has_consistent);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6, third vector: llama.cpp's page. */
static void test_llamacpp_vector(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "llamacpp:spec_decode_num_accepted_tokens_total 1787",
	     "llamacpp:spec_decode_num_draft_tokens_total 5017",
	     "llamacpp:spec_decode_num_drafts_total 1261", "llamacpp:prompt_tokens_total 99");
	SNAP(s, "llamacpp:spec_decode_num_accepted_tokens_total 1857",
	     "llamacpp:spec_decode_num_draft_tokens_total 5115",
	     "llamacpp:spec_decode_num_drafts_total 1286", "llamacpp:prompt_tokens_total 120");
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_LLAMACPP);
	assert_u128(f->steps, 25);
	assert_u128(f->draft_tokens, 98);
	assert_i128(f->accepted_tokens, 70);
	assert_double_is(f->acceptance_length, 3.8);              /* 1 + 70/25 */
	assert_double_is(f->draft_acceptance_rate, 71.42857142857143); /* 70/98 x 100 */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* The survival counts of SPEC 10.6 (ΔS 87, ΔP 70, 55, 42) with a given ΔA. */
static void survival(struct ss_server *s, int accepted_after)
{
	char a[80];

	snprintf(a, sizeof(a), "vllm:spec_decode_num_accepted_tokens %d", accepted_after);
	SNAP(s, "vllm:spec_decode_num_drafts 100", "vllm:spec_decode_num_accepted_tokens 150",
	     "vllm:spec_decode_num_draft_tokens 0",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 70",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 50",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 30");
	SNAP(s, "vllm:spec_decode_num_drafts 187", a,
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 140",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 105",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 72");
}

static void test_survival_vector(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	survival(s, 317); /* ΔA = 317 - 150 = 167 = 70 + 55 + 42 */
	assert_true(ss_server_finish(s, NULL, true, 0.1, &r));
	f = &r.families[0];
	assert_int_equal(f->npositions, 3);
	/* no drafted-per-position series: drafted = ΔS = 87 */
	for (int i = 0; i < 3; i++)
		assert_u128(f->positions[i].drafted, 87);
	assert_double_is(f->positions[0].rate, 0.8045977011494253); /* 70/87 */
	assert_double_is(f->positions[1].rate, 0.632183908045977);  /* 55/87 */
	assert_double_is(f->positions[2].rate, 0.4827586206896552); /* 42/87 */
	assert_true(f->consistent);
	/* H[0] = 87 - 70, H[1] = 70 - 55, H[2] = 55 - 42, H[3] = 42 */
	assert_non_null(f->histogram);
	assert_u128(f->histogram[0], 17);
	assert_u128(f->histogram[1], 15);
	assert_u128(f->histogram[2], 13);
	assert_u128(f->histogram[3], 42);
	/*
	 * 7.1 on it: τ(k') = 1 + A(k')/87 with A = 70, 125, 167:
	 * 1.8045977011494254, 2.4367816091954024, 2.9195402298850572; rates
	 * 70/87, 125/174, 167/261 x 100; speedups τ / (1 + 0.1 k'):
	 * 1.6405433646812957, 2.030651340996169, 2.2458001768346594: k = 3.
	 */
	assert_non_null(f->what_if);
	assert_double_is(f->what_if[0].acceptance_length, 1.8045977011494254);
	assert_double_is(f->what_if[1].acceptance_length, 2.4367816091954024);
	assert_double_is(f->what_if[2].acceptance_length, 2.9195402298850572);
	assert_double_is(f->what_if[0].draft_acceptance_rate, 80.45977011494253);
	assert_double_is(f->what_if[1].draft_acceptance_rate, 71.83908045977012);
	assert_double_is(f->what_if[2].draft_acceptance_rate, 63.984674329501914);
	assert_true(f->has_cost);
	assert_double_is(f->draft_cost, 0.1);
	assert_double_is(f->what_if[0].speedup, 1.6405433646812957);
	assert_double_is(f->what_if[1].speedup, 2.030651340996169);
	assert_double_is(f->what_if[2].speedup, 2.2458001768346594);
	assert_int_equal(f->suggested_k, 3);
	ss_server_results_release(&r);
	ss_server_free(s);

	/* ΔA 168: Σ ΔP_i = 167 != ΔA, so not consistent and no histogram. */
	s = new_server();
	survival(s, 318);
	f = finish(s, &r, 1);
	assert_true(f->has_consistent);
	assert_false(f->consistent);
	assert_null(f->histogram);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6, the reset vector, with its intervals. */
static void test_reset_vector(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	/* D and A at 0 (their series exist: no counter is missing, SPEC 10.3) */
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 1000, "vllm:spec_decode_num_drafts 100",
		"vllm:spec_decode_num_draft_tokens 0", "vllm:spec_decode_num_accepted_tokens 0", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 2000, "vllm:spec_decode_num_drafts 150", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 3000, "vllm:spec_decode_num_drafts 20", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 4000, "vllm:spec_decode_num_drafts 60", NULL);
	f = finish(s, &r, 1);
	/* 50 + 20 (went down: the value itself) + 40 */
	assert_u128(f->steps, 110);
	assert_int_equal(f->resets, 1);
	assert_true(f->has_start && f->has_end);
	assert_int_equal(f->start_ns, 1000);
	assert_int_equal(f->end_ns, 4000);
	/* four snapshots: three intervals */
	assert_int_equal(f->nintervals, 3);
	assert_u128(f->intervals[0].steps, 50);
	assert_u128(f->intervals[1].steps, 20);
	assert_u128(f->intervals[2].steps, 40);
	assert_int_equal(f->intervals[1].start_ns, 2000);
	assert_int_equal(f->intervals[1].end_ns, 3000);
	/* no accepted counter: A = 0, acceptance length 1 + 0/50 */
	assert_true(f->intervals[0].has_acceptance_length);
	assert_double_is(f->intervals[0].acceptance_length, 1.0);
	assert_false(f->intervals[0].has_rate); /* ΔD = 0 */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * A series missing from a snapshot is diffed between the snapshots that
 * hold it (SPEC 10.3): no drop to 0, no reset. Engines "0" and "1" (data
 * parallel) are summed.
 */
static void test_disappearing_series(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 10", "vllm:spec_decode_num_drafts{engine=1} 5",
	     "vllm:spec_decode_num_draft_tokens{engine=0} 0",
	     "vllm:spec_decode_num_accepted_tokens{engine=0} 0");
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 12");
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 15", "vllm:spec_decode_num_drafts{engine=1} 7");
	f = finish(s, &r, 1);
	/* t=1: 2 (engine 1 not there: nothing); t=2: 3 + (7 - 5) */
	assert_u128(f->steps, 7);
	assert_int_equal(f->resets, 0);
	assert_int_equal(f->series, 2);
	assert_int_equal(f->nintervals, 2);
	assert_u128(f->intervals[0].steps, 2);
	assert_u128(f->intervals[1].steps, 5);
	assert_false(f->intervals[0].has_start); /* no times given */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* A series new in the second snapshot counts from 0 (it had 0 in the first). */
static void test_new_series(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 10");
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 11", "vllm:spec_decode_num_drafts{engine=1} 4");
	f = finish(s, &r, 1);
	assert_u128(f->steps, 5); /* 1 + 4 */
	assert_int_equal(f->resets, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* One snapshot: the counters since the server started. */
static void test_since_start(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts{engine=0} 10", "vllm:spec_decode_num_drafts{engine=1} 30",
	     "vllm:spec_decode_num_draft_tokens{engine=0} 0",
	     "vllm:spec_decode_num_accepted_tokens{engine=0} 20",
	     "vllm:spec_decode_num_accepted_tokens{engine=1} 40");
	f = finish(s, &r, 1);
	assert_true(f->since_start);
	assert_u128(f->steps, 40);
	assert_i128(f->accepted_tokens, 60);
	assert_double_is(f->acceptance_length, 2.5); /* 1 + 60/40 */
	assert_u128(f->draft_tokens, 0);
	assert_false(f->has_rate);                 /* ΔD = 0 */
	assert_false(f->has_start || f->has_end);  /* a window needs two snapshots */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Bad samples: counted, ignored, and their series held (no false reset). */
static void test_bad_samples(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	static const char *const bad[] = {
		"vllm:spec_decode_num_drafts NaN", "vllm:spec_decode_num_drafts +Inf",
		"vllm:spec_decode_num_drafts -Inf", "vllm:spec_decode_num_drafts -1",
		"vllm:spec_decode_num_drafts 12.5", "vllm:spec_decode_num_drafts 1.5e-1",
		"vllm:spec_decode_num_drafts 1e20", "vllm:spec_decode_num_drafts abc",
		/* series no family takes as they are (the drafts are there, at 10) */
		"vllm:spec_decode_num_accepted_tokens_per_pos 3",
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=x} 3",
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=4096} 3",
		"vllm:spec_decode_num_drafts{a=1,a=2} 3",
	};

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts 10", "vllm:spec_decode_num_draft_tokens 20");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
		assert_int_equal(put_sample(s, "vllm:spec_decode_num_draft_tokens 30"), SS_SERVER_KEPT);
		if (i >= 8)
			assert_int_equal(put_sample(s, "vllm:spec_decode_num_drafts 10"), SS_SERVER_KEPT);
		assert_int_equal(put_sample(s, bad[i]), SS_SERVER_BAD);
		ss_server_end(s, false, 0);
	}
	SNAP(s, "vllm:spec_decode_num_drafts 15", "vllm:spec_decode_num_draft_tokens 40");
	f = finish(s, &r, 1);
	/* the drafts held at 10 through the bad values (then 10 again): 15 - 10, no reset */
	assert_u128(f->steps, 5);
	assert_u128(f->draft_tokens, 20); /* 10 + 0 x 11 + 10 */
	assert_int_equal(f->resets, 0);
	assert_int_equal(f->snapshots, 14);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * A bad sample adds nothing but its count (SPEC 5): a series whose first
 * sample is bad is not made, so the window is that of the pages without
 * the bad line. Drafts NaN, 100, 103: the drafts first appear in the
 * second snapshot, so they count from 0 there: 100 + 3 = 103. Draft
 * tokens 5, 6, 8: 3.
 */
static void test_bad_first_sample(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
	assert_int_equal(put_sample(s, "vllm:spec_decode_num_drafts NaN"), SS_SERVER_BAD);
	assert_int_equal(put_sample(s, "vllm:spec_decode_num_draft_tokens 5"), SS_SERVER_KEPT);
	ss_server_end(s, false, 0);
	SNAP(s, "vllm:spec_decode_num_drafts 100", "vllm:spec_decode_num_draft_tokens 6");
	SNAP(s, "vllm:spec_decode_num_drafts 103", "vllm:spec_decode_num_draft_tokens 8");
	f = finish(s, &r, 1);
	assert_u128(f->steps, 103);
	assert_u128(f->draft_tokens, 3);
	assert_int_equal(f->resets, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* A series' second sample in one snapshot is a repeat: nothing recorded. */
static void test_repeat(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
	assert_int_equal(put_sample(s, "vllm:spec_decode_num_drafts{engine=0,m=a} 10"), SS_SERVER_KEPT);
	/* the same label set in another order, and `x_total` beside `x` (SPEC 13: one series) */
	assert_int_equal(put_sample(s, "vllm:spec_decode_num_drafts{m=a,engine=0} 11"), SS_SERVER_REPEAT);
	assert_int_equal(put_sample(s, "vllm:spec_decode_num_drafts_total{engine=0,m=a} 12"),
			 SS_SERVER_REPEAT);
	ss_server_end(s, false, 0);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 10); /* the first sample only */
	assert_int_equal(f->series, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* inexact: an exponent with at most 6 significant digits, or 2^53 and above. */
static void test_inexact(void **state)
{
	static const struct {
		const char *v;
		bool inexact;
	} cases[] = {
		{"1234567", false}, {"1234567.0", false}, {"1.234567e+06", false},
		{"1.23457e+06", true}, {"1e+06", true}, {"9007199254740991", false},
		{"9007199254740992", true}, {"0e+00", false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		char line[96];

		snprintf(line, sizeof(line), "llamacpp:spec_decode_num_drafts_total %s", cases[i].v);
		SNAP(s, line);
		assert_int_equal(finish(s, &r, 1)->inexact, cases[i].inexact);
		ss_server_results_release(&r);
		ss_server_free(s);
	}	/* SPEC 10.2: the rounded print is llama.cpp's only; prometheus_client's 2.5e+06 is exact */
	{
		struct ss_server *s = new_server();
		struct ss_server_results r;

		SNAP(s, "vllm:spec_decode_num_drafts_total 2.5e+06");
		assert_false(finish(s, &r, 1)->inexact);
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}





/*
 * A family's snapshots are those holding its series: a page of another
 * engine between two vLLM pages makes no false reset. Families come in
 * engine order (vllm before llamacpp) whatever the input order.
 */
static void test_mixed_engines(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;

	(void)state;
	SNAP(s, "llamacpp:spec_decode_num_drafts 1");
	SNAP(s, "vllm:spec_decode_num_drafts 10");
	SNAP(s, "llamacpp:spec_decode_num_drafts 4");
	SNAP(s, "vllm:spec_decode_num_drafts 13");
	finish(s, &r, 2);
	assert_int_equal(r.families[0].row->engine, SS_ENGINE_VLLM);
	assert_u128(r.families[0].steps, 3);
	assert_int_equal(r.families[0].resets, 0);
	assert_int_equal(r.families[0].snapshots, 2);
	assert_int_equal(r.families[1].row->engine, SS_ENGINE_LLAMACPP);
	assert_u128(r.families[1].steps, 3);
	assert_int_equal(r.snapshots, 4);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * Two endpoints: differences per endpoint, summed; the window from the
 * earliest first to the latest last snapshot; intervals of the endpoint
 * with three snapshots only; an endpoint with one snapshot adds its
 * counters since start.
 */
static void test_endpoints(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	uint32_t a = ss_server_endpoint(s, "dir-a\nhttp://a/metrics", 22);
	uint32_t b = ss_server_endpoint(s, "dir-b\nhttp://b/metrics", 22);
	uint32_t c = ss_server_endpoint(s, "dir-c\nhttp://c/metrics", 22);

	(void)state;
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(ss_server_endpoint(s, "dir-a\nhttp://a/metrics", 22), 1);
	snap_at(s, a, SS_SRC_PROMETHEUS, 0, true, 500, "vllm:spec_decode_num_drafts 100", NULL);
	snap_at(s, b, SS_SRC_PROMETHEUS, 0, true, 100, "vllm:spec_decode_num_drafts 7",
		"vllm:spec_decode_num_draft_tokens 0", "vllm:spec_decode_num_accepted_tokens 0", NULL);
	snap_at(s, a, SS_SRC_PROMETHEUS, 0, true, 600, "vllm:spec_decode_num_drafts 110", NULL);
	snap_at(s, b, SS_SRC_PROMETHEUS, 0, true, 200, "vllm:spec_decode_num_drafts 8", NULL);
	snap_at(s, b, SS_SRC_PROMETHEUS, 0, true, 300, "vllm:spec_decode_num_drafts 10", NULL);
	snap_at(s, c, SS_SRC_PROMETHEUS, 0, true, 900, "vllm:spec_decode_num_drafts 1000", NULL);
	f = finish(s, &r, 1);
	/*
	 * a: 10; b: 1 + 2; c: one snapshot of a process not known to have
	 * started inside the window, a baseline only (SPEC 10.3, Starts)
	 */
	assert_u128(f->steps, 13);
	assert_false(f->since_start);
	assert_int_equal(f->processes, 3);
	assert_int_equal(f->series, 1); /* the same (empty) label set in three processes: once */
	assert_int_equal(f->snapshots, 6);
	/* the window over a and b (c has one snapshot): 100 .. 600 */
	assert_int_equal(f->start_ns, 100);
	assert_int_equal(f->end_ns, 600);
	/* b's two intervals only (a has two snapshots); b's first snapshot is the earliest */
	assert_int_equal(f->nintervals, 2);
	assert_int_equal(f->intervals[0].process, 0);
	assert_u128(f->intervals[0].steps, 1);
	assert_u128(f->intervals[1].steps, 2);
	assert_int_equal(r.endpoints, 3); /* the unnamed one had no snapshot */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* One endpoint's unknown time makes that edge of the window unknown. */
static void test_window_unknown_time(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	uint32_t a = ss_server_endpoint(s, "a", 1);

	(void)state;
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, false, 0, "vllm:spec_decode_num_drafts 1", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 50, "vllm:spec_decode_num_drafts 2", NULL);
	snap_at(s, a, SS_SRC_PROMETHEUS, 0, true, 10, "vllm:spec_decode_num_drafts 1", NULL);
	snap_at(s, a, SS_SRC_PROMETHEUS, 0, true, 20, "vllm:spec_decode_num_drafts 2", NULL);
	f = finish(s, &r, 1);
	assert_false(f->has_start); /* the unnamed endpoint's first snapshot has no time */
	assert_true(f->has_end);
	assert_int_equal(f->end_ns, 50);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Sparse snapshots (Prometheus API results): a missing series keeps its value. */
static void test_sparse(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	snap_at(s, 0, SS_SRC_PROMETHEUS, SS_SNAP_SPARSE, true, 1, "vllm:spec_decode_num_drafts{e=0} 10",
		"vllm:spec_decode_num_drafts{e=1} 5", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, SS_SNAP_SPARSE, true, 2, "vllm:spec_decode_num_drafts{e=0} 12",
		NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, SS_SNAP_SPARSE, true, 3, "vllm:spec_decode_num_drafts{e=0} 15",
		"vllm:spec_decode_num_drafts{e=1} 7", "vllm:spec_decode_num_drafts{e=2} 4", NULL);
	f = finish(s, &r, 1);
	/* e=0: 5; e=1: 7 - 5 over its own samples; e=2: its first sample, no difference */
	assert_u128(f->steps, 7);
	assert_int_equal(f->resets, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}


/* A family with ΔS = 0 is listed with its counts, no derived values. */
static void test_zero_steps(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts 5", "vllm:spec_decode_num_draft_tokens 9",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 1");
	SNAP(s, "vllm:spec_decode_num_drafts 5", "vllm:spec_decode_num_draft_tokens 12",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 1");
	SNAP(s, "vllm:spec_decode_num_drafts 5", "vllm:spec_decode_num_draft_tokens 12",
	     "vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 1");
	f = finish(s, &r, 1);
	assert_u128(f->steps, 0);
	assert_u128(f->draft_tokens, 3);
	assert_false(f->has_acceptance_length);
	assert_false(f->has_rate);
	assert_int_equal(f->npositions, 0);
	assert_false(f->has_consistent);
	assert_int_equal(f->nintervals, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * Past SS_SERVER_MAX_INTERVALS intervals on one endpoint, neighbours merge
 * in pairs. 100003 snapshots of drafts = t: 100002 raw intervals of 1.
 * The first 100000 are kept; the next merges them into 50000 of 2 and
 * waits for a partner; the last completes it: 50001 intervals of 2.
 */
static void test_interval_merge(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	for (int t = 0; t < 100003; t++) {
		char line[64];

		snprintf(line, sizeof(line), "vllm:spec_decode_num_drafts %d", t);
		snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, (int64_t)t * 10, line,
			t ? NULL : "vllm:spec_decode_num_draft_tokens 0",
			"vllm:spec_decode_num_accepted_tokens 0", NULL);
	}
	f = finish(s, &r, 1);
	assert_u128(f->steps, 100002);
	assert_int_equal(f->nintervals, 50001);
	for (size_t i = 0; i < f->nintervals; i++) {
		assert_u128(f->intervals[i].steps, 2);
		assert_int_equal(f->intervals[i].start_ns, (int64_t)i * 20);
		assert_int_equal(f->intervals[i].end_ns, (int64_t)i * 20 + 20);
	}
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* The first SS_SERVER_BAD_SHOWN bad lines are told, then one line counts the rest. */
static void test_bad_messages(void **state)
{
	struct ss_msg msg;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct ss_server *s;
	struct ss_server_results r;

	(void)state;
	assert_non_null(out);
	ss_msg_init(&msg, out, SS_NORMAL);
	s = ss_server_new(&msg);
	assert_non_null(s);
	for (int i = 1; i <= 7; i++)
		ss_server_bad(s, "a.prom", (uint64_t)i, "bad line", "why\nnot");
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.bad_lines, 7);
	ss_server_results_release(&r);
	ss_server_free(s);
	fclose(out);
	/* five named (the newline of a reason escaped), then the count */
	assert_string_equal(text, "specscan: a.prom:1: bad line: why\\nnot\n"
				  "specscan: a.prom:2: bad line: why\\nnot\n"
				  "specscan: a.prom:3: bad line: why\\nnot\n"
				  "specscan: a.prom:4: bad line: why\\nnot\n"
				  "specscan: a.prom:5: bad line: why\\nnot\n"
				  "specscan: 2 more bad lines of server inputs not shown (7 in all)\n");
	free(text);
}

/* Every allocation failing in turn: a clean false or a result, never a crash. */
static void test_out_of_memory(void **state)
{
	(void)state;
	for (uint64_t n = 1; n < 400; n++) {
		struct ss_server *s;
		struct ss_server_results r;
		const char *reason;
		struct ss_server_label l = {"position", 8, "1", 1};

		ss_alloc_fail_at(n, 1);
		s = ss_server_new(NULL);
		if (s) {
			uint32_t ep = ss_server_endpoint(s, "", 0);

			for (int t = 0; t < 4 && ep != UINT32_MAX; t++) {
				if (!ss_server_begin(s, ep, SS_SRC_PROMETHEUS, 0))
					break;
				(void)ss_server_sample(s, "vllm:spec_decode_num_drafts", 27, NULL, 0, "5",
						       1, &reason);
				(void)ss_server_sample(s, "vllm:spec_decode_num_accepted_tokens_per_pos",
						       44, &l, 1, "3", 1, &reason);
				ss_server_end(s, true, t);
			}
			if (ss_server_finish(s, NULL, true, 0.5, &r))
				ss_server_results_release(&r);
			ss_server_free(s);
		}
		ss_alloc_fail_at(0, 0);
	}
}


/*
 * SPEC 13: a gauge's mean is finite for finite values. Two series at
 * 1.5e308 (their sum overflows a double) average 1.5e308; -1.5e308 and
 * 1.5e308 average 0.
 */
static void test_gauge_no_overflow(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "sglang:spec_verify_calls 1", "sglang:spec_accept_length{a=1} 1.5e308",
	     "sglang:spec_accept_length{a=2} 1.5e308", "sglang:spec_accept_rate{a=1} -1.5e308",
	     "sglang:spec_accept_rate{a=2} 1.5e308");
	f = finish(s, &r, 1);
	assert_int_equal(f->ngauges, 2);
	assert_string_equal(f->gauges[0].name, "sglang:spec_accept_length");
	assert_double_is(f->gauges[0].value, 1.5e308);
	assert_double_is(f->gauges[1].value, 0.0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * Times that go back (`# time:` lines out of order): times 1000, 3000,
 * 2000, 4000 with drafts 10, 35, 30, 45. SPEC 10.3 takes a timed
 * process in time order: 10, 30, 35, 45, so 35 steps and no reset. The
 * window spans 1000 to 4000, and the intervals are listed in that order
 * (round ten): 20 from 1000 to 2000, 5 to 3000, 10 to 4000.
 */
static void test_time_backwards(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 1000, "vllm:spec_decode_num_drafts 10",
		"vllm:spec_decode_num_draft_tokens 0", "vllm:spec_decode_num_accepted_tokens 0", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 3000, "vllm:spec_decode_num_drafts 35", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 2000, "vllm:spec_decode_num_drafts 30", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 4000, "vllm:spec_decode_num_drafts 45", NULL);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 35);
	assert_int_equal(f->resets, 0);
	assert_true(f->has_start && f->has_end);
	assert_int_equal(f->start_ns, 1000);
	assert_int_equal(f->end_ns, 4000);
	assert_int_equal(f->nintervals, 3);
	assert_u128(f->intervals[0].steps, 20);
	assert_u128(f->intervals[1].steps, 5);
	assert_u128(f->intervals[2].steps, 10);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(f->intervals[i].start_ns, 1000 * (i + 1));
		assert_int_equal(f->intervals[i].end_ns, 1000 * (i + 2));
	}
	ss_server_results_release(&r);
	ss_server_free(s);

	/* the last time before the first: the window still runs forward */
	s = new_server();
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 5000, "vllm:spec_decode_num_drafts 10", NULL);
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 1000, "vllm:spec_decode_num_drafts 12", NULL);
	f = finish(s, &r, 1);
	/* in time order 12 then 10: went down, d = 10 and a reset */
	assert_u128(f->steps, 10);
	assert_int_equal(f->resets, 1);
	assert_true(f->has_start && f->has_end);
	assert_int_equal(f->start_ns, 1000);
	assert_int_equal(f->end_ns, 5000);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * A restart among times that go back: times 1000, 3000, 2000 with drafts
 * 10, 5, 30. In time order 10, 30, 5: d = 20, then 5 < 30 is a reset,
 * d = 5 (SPEC 10.3): 25 steps, one reset, intervals 20 (1000 to 2000) and
 * 5 (2000 to 3000). (Its value at the last time less its value at the
 * first would say 5.) Each of the six input orders gives the same.
 */
static void test_time_backwards_reset(void **state)
{
	static const int64_t t[3] = {1000, 3000, 2000};
	static const char *const v[3] = {"vllm:spec_decode_num_drafts 10",
					 "vllm:spec_decode_num_drafts 5",
					 "vllm:spec_decode_num_drafts 30"};
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
				       {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

	(void)state;
	for (int p = 0; p < 6; p++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		const struct ss_server_family *f;

		for (int i = 0; i < 3; i++)
			snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, t[perm[p][i]], v[perm[p][i]],
				"vllm:spec_decode_num_draft_tokens 0",
				"vllm:spec_decode_num_accepted_tokens 0", NULL);
		f = finish(s, &r, 1);
		assert_u128(f->steps, 25);
		assert_int_equal(f->resets, 1);
		assert_int_equal(f->start_ns, 1000);
		assert_int_equal(f->end_ns, 3000);
		assert_int_equal(f->nintervals, 2);
		assert_u128(f->intervals[0].steps, 20);
		assert_u128(f->intervals[1].steps, 5);
		assert_int_equal(f->intervals[0].start_ns, 1000);
		assert_int_equal(f->intervals[1].start_ns, 2000);
		assert_int_equal(f->intervals[1].end_ns, 3000);
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

/*
 * The budget: a series it has no room for is refused (a bad sample, no
 * family state made for it), the ones kept go on. 4 KiB holds a few
 * series of short keys, never 100.
 */
static void test_budget(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	char line[128];
	int kept = 0, refused = 0;

	(void)state;
	ss_server_set_budget(s, 4096);
	assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
	for (int i = 0; i < 100; i++) {
		enum ss_server_status st;

		snprintf(line, sizeof(line), "vllm:spec_decode_num_drafts{w=%d} 1", i);
		st = put_sample(s, line);
		assert_true(st == SS_SERVER_KEPT || st == SS_SERVER_BAD);
		kept += st == SS_SERVER_KEPT;
		refused += st == SS_SERVER_BAD;
		/* once refused, never kept again */
		assert_true(st == SS_SERVER_BAD || refused == 0);
	}
	ss_server_end(s, false, 0);
	assert_true(kept > 0 && refused > 0);
	f = finish(s, &r, 1);
	assert_int_equal(f->series, kept);
	assert_u128(f->steps, kept); /* one snapshot: since start, 1 each */
	ss_server_results_release(&r);
	ss_server_free(s);

	/* a label set over 4 KiB is a bad sample whatever the budget */
	s = new_server();
	assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
	{
		char *big = malloc(4200);
		struct ss_server_label l;
		const char *reason = NULL;

		assert_non_null(big);
		memset(big, 'x', 4200);
		l = (struct ss_server_label){"m", 1, big, 4200};
		assert_int_equal(ss_server_sample(s, "vllm:spec_decode_num_drafts", 27, &l, 1, "1", 1,
						  &reason),
				 SS_SERVER_BAD);
		assert_non_null(reason);
		free(big);
	}
	ss_server_end(s, false, 0);
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.nfamilies, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Endpoints are capped: past SS_SERVER_MAX_ENDPOINTS a new one is refused, known ones still found. */
static void test_endpoint_cap(void **state)
{
	struct ss_server *s = ss_server_new(NULL);
	char key[32];

	(void)state;
	assert_non_null(s);
	for (uint32_t i = 0; i < SS_SERVER_MAX_ENDPOINTS; i++) {
		int n = snprintf(key, sizeof(key), "e%u", i);

		assert_int_equal(ss_server_endpoint(s, key, (size_t)n), i);
	}
	assert_int_equal(ss_server_endpoint(s, "new", 3), SS_SERVER_ENDPOINT_FULL);
	assert_int_equal(ss_server_endpoint(s, "e7", 2), 7);
	ss_server_free(s);
	/* and by the budget */
	s = ss_server_new(NULL);
	assert_non_null(s);
	ss_server_set_budget(s, 2048);
	assert_int_equal(ss_server_endpoint(s, "a", 1), 0);
	for (uint32_t i = 0; i < 100; i++) {
		int n = snprintf(key, sizeof(key), "e%u", i);

		if (ss_server_endpoint(s, key, (size_t)n) == SS_SERVER_ENDPOINT_FULL)
			break;
		assert_true(i < 20);
	}
	ss_server_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_vector),
		cmocka_unit_test(test_vllm_total_names),
		cmocka_unit_test(test_llamacpp_vector),
		cmocka_unit_test(test_survival_vector),
		cmocka_unit_test(test_reset_vector),
		cmocka_unit_test(test_disappearing_series),
		cmocka_unit_test(test_new_series),
		cmocka_unit_test(test_since_start),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_bad_first_sample),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_inexact),
		cmocka_unit_test(test_mixed_engines),
		cmocka_unit_test(test_endpoints),
		cmocka_unit_test(test_window_unknown_time),
		cmocka_unit_test(test_sparse),
		cmocka_unit_test(test_zero_steps),
		cmocka_unit_test(test_interval_merge),
		cmocka_unit_test(test_bad_messages),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_gauge_no_overflow),
		cmocka_unit_test(test_time_backwards),
		cmocka_unit_test(test_time_backwards_reset),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_endpoint_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
