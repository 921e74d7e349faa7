/*
 * Unit tests of the server window's processes (SPEC 10.3 revised: Order,
 * Starts, Incomplete families, Speculation that stops) through the
 * sample API: the new vectors of SPEC 10.6, each also given in other input
 * orders, then the rules around them. Expected values are worked out by
 * hand in the comments.
 */
#include <stdlib.h>

#include "server_samples.h"

#define S_NS 1000000000LL

/*
 * A snapshot of the unnamed endpoint whose process is known by its start
 * (has_start), its `# endpoint:` name (name), both or neither.
 */
static void psnap(struct ss_server *s, bool has_start, double start, const char *name,
		  bool has_time, int64_t t_ns, ...)
{
	va_list ap;
	const char *text;
	struct ss_server_proc_info pi = {.name = name, .name_len = name ? strlen(name) : 0,
					 .has_start = has_start, .start_s = start,
					 .input = "page.prom"};

	assert_true(ss_server_begin(s, 0, SS_SRC_PROMETHEUS, 0));
	va_start(ap, t_ns);
	while ((text = va_arg(ap, const char *)) != NULL) {
		enum ss_server_status st = put_sample(s, text);

		assert_true(st == SS_SERVER_KEPT || st == SS_SERVER_IGNORED);
	}
	va_end(ap);
	ss_server_set_process(s, &pi);
	ss_server_end(s, has_time, t_ns);
}

#define BEFORE1                                                                              \
	"vllm:spec_decode_num_drafts 10", "vllm:spec_decode_num_draft_tokens 20",           \
		"vllm:spec_decode_num_accepted_tokens 10",                                   \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 8",                \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 2",                \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 0",                \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=0} 10",                  \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=1} 5",                   \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=2} 0"
#define AFTER1                                                                               \
	"vllm:spec_decode_num_drafts 14", "vllm:spec_decode_num_draft_tokens 26",           \
		"vllm:spec_decode_num_accepted_tokens 13",                                   \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=0} 10",               \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=1} 3",                \
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=2} 0",                \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=0} 14",                  \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=1} 7",                   \
		"vllm:spec_decode_num_draft_tokens_per_pos{position=2} 0"

/* SPEC 10.6, glob order: after.prom before before.prom, one process (1.7e9), untimed. */
static void test_glob_order(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 1.7e9, NULL, false, 0, AFTER1, NULL);
	psnap(s, true, 1.7e9, NULL, false, 0, BEFORE1, NULL);
	f = finish(s, &r, 1);
	/* ordered by the counters: before (10, 20, 10, ...) <= after (14, 26, 13, ...) */
	assert_u128(f->steps, 4);
	assert_u128(f->draft_tokens, 6);
	assert_i128(f->accepted_tokens, 3);
	assert_double_is(f->acceptance_length, 1.75);
	assert_double_is(f->draft_acceptance_rate, 50.0);
	assert_int_equal(f->resets, 0);
	assert_false(f->unordered);
	assert_false(f->since_start);
	assert_int_equal(f->processes, 1);
	assert_int_equal(f->snapshots, 2);
	/* positions too: ΔP = 10-8, 3-2, 0; ΔDP = 14-10, 7-5, 0 */
	assert_int_equal(f->npositions, 3);
	assert_u128(f->positions[0].accepted, 2);
	assert_u128(f->positions[1].accepted, 1);
	assert_u128(f->positions[0].drafted, 4);
	assert_u128(f->positions[1].drafted, 2);
	assert_true(f->consistent);
	assert_false(f->untimed_starts); /* one process */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* The unnamed process keeps input order: after then before is a reset (SPEC 10.3). */
static void test_unnamed_keeps_input_order(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "vllm:spec_decode_num_drafts 14");
	SNAP(s, "vllm:spec_decode_num_drafts 10");
	f = finish(s, &r, 1);
	assert_u128(f->steps, 10); /* went down: d = v */
	assert_int_equal(f->resets, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
}

#define W1_BEFORE                                                                            \
	"vllm:spec_decode_num_drafts 10", "vllm:spec_decode_num_draft_tokens 20",           \
		"vllm:spec_decode_num_accepted_tokens 10"
#define W1_AFTER                                                                             \
	"vllm:spec_decode_num_drafts 14", "vllm:spec_decode_num_draft_tokens 26",           \
		"vllm:spec_decode_num_accepted_tokens 13"
#define W2_BEFORE                                                                            \
	"vllm:spec_decode_num_drafts 50", "vllm:spec_decode_num_draft_tokens 100",          \
		"vllm:spec_decode_num_accepted_tokens 40"
#define W2_AFTER                                                                             \
	"vllm:spec_decode_num_drafts 57", "vllm:spec_decode_num_draft_tokens 114",          \
		"vllm:spec_decode_num_accepted_tokens 47"

/* ΔS 4 + 7, ΔD 6 + 14, ΔA 3 + 7: acceptance length 1 + 10/11, rate 10/20. */
static void check_two_workers(const struct ss_server_family *f)
{
	assert_u128(f->steps, 11);
	assert_u128(f->draft_tokens, 20);
	assert_i128(f->accepted_tokens, 10);
	assert_double_is(f->acceptance_length, 1.0 + 10.0 / 11.0);
	assert_double_is(f->draft_acceptance_rate, 50.0);
	assert_int_equal(f->processes, 2);
	assert_int_equal(f->resets, 0);
	assert_false(f->unordered);
	assert_false(f->since_start);
	assert_int_equal(f->started_in_window, 0);
	assert_true(f->untimed_starts); /* the note on starts */
	assert_int_equal(f->series, 1); /* one label set in both processes */
}

/* SPEC 10.6, two workers, untimed, identical label sets, interleaved, then every other order. */
static void test_two_workers(void **state)
{
	static const int orders[][4] = {
		{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 3, 0, 1}, {1, 3, 0, 2}, {2, 0, 3, 1},
	};

	(void)state;
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;

		for (int i = 0; i < 4; i++) {
			switch (orders[o][i]) {
			case 0: psnap(s, true, 100, NULL, false, 0, W1_BEFORE, NULL); break;
			case 1: psnap(s, true, 200, NULL, false, 0, W2_BEFORE, NULL); break;
			case 2: psnap(s, true, 100, NULL, false, 0, W1_AFTER, NULL); break;
			default: psnap(s, true, 200, NULL, false, 0, W2_AFTER, NULL); break;
			}
		}
		check_two_workers(finish(s, &r, 1));
		assert_int_equal(r.endpoints, 2); /* the processes */
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

/* Workers told apart by `# endpoint:` alone (no process collector), in file order. */
static void test_endpoint_names(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;

	(void)state;
	psnap(s, false, 0, "w1", false, 0, W1_BEFORE, NULL);
	psnap(s, false, 0, "w2", false, 0, W2_BEFORE, NULL);
	psnap(s, false, 0, "w1", false, 0, W1_AFTER, NULL);
	psnap(s, false, 0, "w2", false, 0, W2_AFTER, NULL);
	check_two_workers(finish(s, &r, 1));
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6, a restart, timed: 50 + 20 + 40 = 110, counted from zero, in any input order. */
static void test_restart_timed(void **state)
{
	static const int orders[][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}};

	(void)state;
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		const struct ss_server_family *f;

		for (int i = 0; i < 4; i++) {
			switch (orders[o][i]) {
			case 0: psnap(s, true, 1000, NULL, true, 2000 * S_NS,
				      "vllm:spec_decode_num_drafts 100", NULL); break;
			case 1: psnap(s, true, 1000, NULL, true, 2100 * S_NS,
				      "vllm:spec_decode_num_drafts 150", NULL); break;
			case 2: psnap(s, true, 2150, NULL, true, 2200 * S_NS,
				      "vllm:spec_decode_num_drafts 20", NULL); break;
			default: psnap(s, true, 2150, NULL, true, 2300 * S_NS,
				       "vllm:spec_decode_num_drafts 60", NULL); break;
			}
		}
		f = finish(s, &r, 1);
		assert_u128(f->steps, 110);
		assert_int_equal(f->resets, 0);
		assert_int_equal(f->started_in_window, 1);
		assert_int_equal(f->processes, 2);
		assert_false(f->untimed_starts); /* every process timed */
		assert_true(f->has_start && f->has_end);
		assert_int_equal(f->start_ns, 2000 * S_NS);
		assert_int_equal(f->end_ns, 2300 * S_NS);
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

/* A worker added mid-run with one snapshot counts from zero; one started before adds nothing. */
static void test_one_snapshot_processes(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 1000, NULL, true, 2000 * S_NS, "vllm:spec_decode_num_drafts 100", NULL);
	psnap(s, true, 1000, NULL, true, 2100 * S_NS, "vllm:spec_decode_num_drafts 150", NULL);
	/* started at 2050, inside the window: its 30 are the window's */
	psnap(s, true, 2050, NULL, true, 2100 * S_NS, "vllm:spec_decode_num_drafts 30", NULL);
	/* started at 500, before: its one snapshot is a baseline with nothing after it */
	psnap(s, true, 500, NULL, true, 2100 * S_NS, "vllm:spec_decode_num_drafts 999", NULL);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 50 + 30);
	assert_int_equal(f->started_in_window, 1);
	assert_int_equal(f->processes, 3);
	assert_false(f->since_start);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Every process with one snapshot: the counters since the servers started (Σ v). */
static void test_since_start_processes(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 7", NULL);
	psnap(s, true, 200, NULL, false, 0, "vllm:spec_decode_num_drafts 5", NULL);
	f = finish(s, &r, 1);
	assert_true(f->since_start);
	assert_u128(f->steps, 12);
	assert_int_equal(f->processes, 2);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * Every process with one snapshot, one of them started inside the window
 * (at 2050 s, after the earliest snapshot at 2000 s): only its counts are
 * the window's (docs/BEHAVIOUR.md, "since_start with processes"); the
 * others' one snapshot is a baseline with nothing after it. 30, not
 * 100 + 30 + 999, and not since_start.
 */
static void test_single_snapshots_one_started_inside(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 1000, NULL, true, 2000 * S_NS, "vllm:spec_decode_num_drafts 100", NULL);
	psnap(s, true, 2050, NULL, true, 2100 * S_NS, "vllm:spec_decode_num_drafts 30", NULL);
	psnap(s, true, 500, NULL, true, 2100 * S_NS, "vllm:spec_decode_num_drafts 999", NULL);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 30);
	assert_int_equal(f->started_in_window, 1);
	assert_false(f->since_start);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Two snapshots of one known process with a counter larger in each: unordered, input order. */
static void test_unordered(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 10",
	      "vllm:spec_decode_num_draft_tokens 30", NULL);
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 14",
	      "vllm:spec_decode_num_draft_tokens 20", NULL);
	f = finish(s, &r, 1);
	assert_true(f->unordered);
	/* input order: drafts 14 - 10; draft tokens went down, 20 (a reset) */
	assert_u128(f->steps, 4);
	assert_u128(f->draft_tokens, 20);
	assert_int_equal(f->resets, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Three snapshots of a known process, untimed, given middle, last, first. */
static void test_counter_order_three(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 20",
	      "vllm:spec_decode_num_accepted_tokens 10", "vllm:spec_decode_num_draft_tokens 0", NULL);
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 35",
	      "vllm:spec_decode_num_accepted_tokens 40", NULL);
	psnap(s, true, 100, NULL, false, 0, "vllm:spec_decode_num_drafts 5",
	      "vllm:spec_decode_num_accepted_tokens 1", NULL);
	f = finish(s, &r, 1);
	/* 5 -> 20 -> 35: 30 steps; 1 -> 10 -> 40: 39 accepted */
	assert_u128(f->steps, 30);
	assert_i128(f->accepted_tokens, 39);
	assert_int_equal(f->resets, 0);
	assert_false(f->unordered);
	assert_double_is(f->acceptance_length, 1.0 + 39.0 / 30.0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6, a missing counter: SGLang without spec_verify_calls. */
static void test_missing_counter(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "sglang:generation_tokens 1000", "sglang:num_requests 10",
	     "sglang:spec_accept_length 2.5");
	SNAP(s, "sglang:generation_tokens 248000", "sglang:num_requests 1010",
	     "sglang:spec_accept_length 3.5");
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_SGLANG);
	assert_int_equal(f->nmissing, 1);
	assert_string_equal(f->missing[0], "sglang:spec_verify_calls");
	assert_false(f->has_acceptance_length);
	assert_false(f->has_rate);
	assert_int_equal(f->npositions, 0);
	assert_i128(f->accepted_tokens, 0); /* no estimate without S */
	assert_int_equal(f->ngauges, 1);
	assert_double_is(f->gauges[0].value, 3.5);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SGLang's G and R alone make no family; a vLLM page without D names it and divides nothing. */
static void test_missing_rules(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "sglang:generation_tokens 10", "sglang:num_requests 1");
	SNAP(s, "sglang:generation_tokens 20", "sglang:num_requests 2");
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.nfamilies, 0);
	ss_server_results_release(&r);
	ss_server_free(s);

	s = new_server();
	SNAP(s, "vllm:spec_decode_num_drafts 10", "vllm:spec_decode_num_accepted_tokens 5");
	SNAP(s, "vllm:spec_decode_num_drafts 20", "vllm:spec_decode_num_accepted_tokens 15");
	f = finish(s, &r, 1);
	assert_int_equal(f->nmissing, 1);
	assert_string_equal(f->missing[0], "vllm:spec_decode_num_draft_tokens");
	assert_u128(f->steps, 10); /* the counts it has */
	assert_i128(f->accepted_tokens, 10);
	assert_false(f->has_acceptance_length);
	ss_server_results_release(&r);
	ss_server_free(s);

	/* TensorRT-LLM's Prometheus row needs DP_1 (its steps), D and A: all three missing */
	s = new_server();
	SNAP(s, "trtllm_spec_decode_acceptance_length 2.0");
	f = finish(s, &r, 1);
	assert_int_equal(f->nmissing, 3);
	assert_string_equal(f->missing[0], "trtllm_spec_decode_drafted_tokens");
	assert_string_equal(f->missing[1], "trtllm_spec_decode_num_draft_tokens");
	assert_string_equal(f->missing[2], "trtllm_spec_decode_num_accepted_tokens");
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* D and A at 0: their series exist, so no counter is missing (SPEC 10.3). */
#define DA0 "vllm:spec_decode_num_draft_tokens 0", "vllm:spec_decode_num_accepted_tokens 0"

/* Speculation that stops: 0 -> 10 -> 10 -> 10 steps, timed: idle from the second snapshot. */
static void test_idle(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	psnap(s, false, 0, "w1", true, 10 * S_NS, "vllm:spec_decode_num_drafts 0", DA0, NULL);
	psnap(s, false, 0, "w1", true, 20 * S_NS, "vllm:spec_decode_num_drafts 10", NULL);
	psnap(s, false, 0, "w1", true, 30 * S_NS, "vllm:spec_decode_num_drafts 10", NULL);
	psnap(s, false, 0, "w1", true, 40 * S_NS, "vllm:spec_decode_num_drafts 10", NULL);
	/* w2 speculates to the end: not idle */
	psnap(s, false, 0, "w2", true, 10 * S_NS, "vllm:spec_decode_num_drafts 0", NULL);
	psnap(s, false, 0, "w2", true, 20 * S_NS, "vllm:spec_decode_num_drafts 0", NULL);
	psnap(s, false, 0, "w2", true, 30 * S_NS, "vllm:spec_decode_num_drafts 5", NULL);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 15);
	assert_int_equal(f->nintervals, 5); /* w1's three, w2's two */
	assert_int_equal(f->nidle, 1);
	assert_string_equal(f->process_names[f->idle[0].process], "w1");
	assert_true(f->idle[0].has_from);
	assert_int_equal(f->idle[0].from_ns, 20 * S_NS);
	assert_string_equal(f->process_names[f->intervals[0].process], "w1");
	assert_string_equal(f->process_names[f->intervals[4].process], "w2");
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* A process known by its start alone is named by its first snapshot's input; the unnamed, null. */
static void test_process_names(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	for (int i = 1; i <= 3; i++) {
		char v[64];

		snprintf(v, sizeof(v), "vllm:spec_decode_num_drafts %d", 10 * i);
		psnap(s, true, 0.5, NULL, true, i * S_NS, v, DA0, NULL);
	}
	for (int i = 1; i <= 3; i++) {
		char v[64];

		snprintf(v, sizeof(v), "vllm:spec_decode_num_drafts %d", i);
		snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, (int64_t)(10 + i) * S_NS, v, NULL);
	}
	f = finish(s, &r, 1);
	assert_int_equal(f->nprocess_names, 2);
	assert_int_equal(f->nintervals, 4);
	assert_string_equal(f->process_names[f->intervals[0].process], "page.prom");
	assert_null(f->process_names[f->intervals[2].process]);
	assert_u128(f->steps, 20 + 2);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* ---- SPEC 10.3's order for pages given out of it (round 10) ---- */

/* Page i of one process: drafts, draft tokens, accepted. */
struct page3 {
	int s, d, a;
};

static void page_of(struct ss_server *s, bool has_start, bool has_time, int64_t t_ns,
		    const struct page3 *p)
{
	char v[3][80];

	snprintf(v[0], sizeof(v[0]), "vllm:spec_decode_num_drafts %d", p->s);
	snprintf(v[1], sizeof(v[1]), "vllm:spec_decode_num_draft_tokens %d", p->d);
	snprintf(v[2], sizeof(v[2]), "vllm:spec_decode_num_accepted_tokens %d", p->a);
	if (has_start)
		psnap(s, true, 100, NULL, has_time, t_ns, v[0], v[1], v[2], NULL);
	else
		snap_at(s, 0, SS_SRC_PROMETHEUS, 0, has_time, t_ns, v[0], v[1], v[2], NULL);
}

/*
 * Four untimed pages of one process (start 100), in three orders: the
 * window and the intervals are those of the process's own order, each
 * interval naming the process. By hand: drafts 10, 14, 20, 30; draft
 * tokens 20, 28, 40, 60; accepted 5, 8, 12, 20 -> intervals (4, 8, 3),
 * (6, 12, 4), (10, 20, 8); window 20, 40, 15.
 */
static void test_intervals_in_counter_order(void **state)
{
	static const struct page3 pg[4] = {{10, 20, 5}, {14, 28, 8}, {20, 40, 12}, {30, 60, 20}};
	static const int orders[3][4] = {{2, 0, 3, 1}, {3, 2, 1, 0}, {1, 3, 0, 2}};
	static const int want[3][3] = {{4, 8, 3}, {6, 12, 4}, {10, 20, 8}};

	(void)state;
	for (int o = 0; o < 3; o++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		const struct ss_server_family *f;

		for (int i = 0; i < 4; i++)
			page_of(s, true, false, 0, &pg[orders[o][i]]);
		f = finish(s, &r, 1);
		assert_false(f->unordered);
		assert_u128(f->steps, 20);
		assert_u128(f->draft_tokens, 40);
		assert_i128(f->accepted_tokens, 15);
		assert_int_equal(f->nintervals, 3);
		for (int i = 0; i < 3; i++) {
			assert_u128(f->intervals[i].steps, want[i][0]);
			assert_u128(f->intervals[i].draft_tokens, want[i][1]);
			assert_i128(f->intervals[i].accepted_tokens, want[i][2]);
			assert_false(f->intervals[i].has_start);
			assert_string_equal(f->process_names[f->intervals[i].process], "page.prom");
		}
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

/*
 * Three timed pages of the unnamed process given at times 3, 1, 2 s: the
 * intervals in time order. Drafts 5, 9, 12; draft tokens 10, 18, 24;
 * accepted 2, 4, 7 at 1, 2, 3 s -> (4, 8, 2) from 1 to 2 s, (3, 6, 3)
 * from 2 to 3 s.
 */
static void test_intervals_in_time_order(void **state)
{
	static const struct page3 pg[3] = {{5, 10, 2}, {9, 18, 4}, {12, 24, 7}};
	static const int order[3] = {2, 0, 1};
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	for (int i = 0; i < 3; i++)
		page_of(s, false, true, (order[i] + 1) * S_NS, &pg[order[i]]);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 7);
	assert_int_equal(f->nintervals, 2);
	assert_u128(f->intervals[0].steps, 4);
	assert_u128(f->intervals[0].draft_tokens, 8);
	assert_i128(f->intervals[0].accepted_tokens, 2);
	assert_int_equal(f->intervals[0].start_ns, 1 * S_NS);
	assert_int_equal(f->intervals[0].end_ns, 2 * S_NS);
	assert_u128(f->intervals[1].steps, 3);
	assert_i128(f->intervals[1].accepted_tokens, 3);
	assert_int_equal(f->intervals[1].start_ns, 2 * S_NS);
	assert_int_equal(f->intervals[1].end_ns, 3 * S_NS);
	assert_null(f->process_names[f->intervals[0].process]);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * A counter that goes down between two inner pages in counter order is
 * found whatever the input order (SPEC 10.3: such pages cannot be
 * ordered; input order stands, `unordered`). Four pages, sums of the
 * counters 25, 55, 59, 85 (drafts + draft tokens + accepted 5): draft
 * tokens 30 then 29 between the second and the third; against the first
 * and the last every page is in order. Five pages: a fifth, larger
 * still, and the conflict between the third and the fourth.
 */
static void test_inner_conflict(void **state)
{
	static const struct page3 four[4] = {{10, 10, 5}, {20, 30, 5}, {25, 29, 5}, {40, 40, 5}};
	static const int o4[4][4] = {{0, 3, 1, 2}, {3, 0, 2, 1}, {0, 3, 2, 1}, {2, 1, 0, 3}};
	static const struct page3 five[5] = {{10, 10, 5}, {15, 20, 5}, {25, 35, 5},
					     {32, 34, 5}, {50, 50, 5}};
	static const int o5[4][5] = {{0, 4, 2, 3, 1}, {4, 0, 1, 3, 2}, {1, 4, 0, 2, 3},
				     {0, 4, 1, 2, 3}};

	(void)state;
	for (int o = 0; o < 8; o++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		const struct ss_server_family *f;

		if (o < 4)
			for (int i = 0; i < 4; i++)
				page_of(s, true, false, 0, &four[o4[o][i]]);
		else
			for (int i = 0; i < 5; i++)
				page_of(s, true, false, 0, &five[o5[o - 4][i]]);
		f = finish(s, &r, 1);
		assert_true(f->unordered);
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

/* Five pages without a conflict, in four orders: ordered, the window of the ends. */
static void test_five_in_order(void **state)
{
	static const struct page3 five[5] = {{10, 10, 5}, {15, 20, 6}, {25, 35, 9},
					     {32, 44, 12}, {50, 50, 20}};
	static const int o5[4][5] = {{0, 4, 2, 3, 1}, {4, 0, 1, 3, 2}, {1, 4, 0, 2, 3},
				     {3, 2, 4, 1, 0}};

	(void)state;
	for (int o = 0; o < 4; o++) {
		struct ss_server *s = new_server();
		struct ss_server_results r;
		const struct ss_server_family *f;

		for (int i = 0; i < 5; i++)
			page_of(s, true, false, 0, &five[o5[o][i]]);
		f = finish(s, &r, 1);
		assert_false(f->unordered);
		/* 10 -> 50, 10 -> 50, 5 -> 20 */
		assert_u128(f->steps, 40);
		assert_u128(f->draft_tokens, 40);
		assert_i128(f->accepted_tokens, 15);
		assert_int_equal(f->resets, 0);
		assert_int_equal(f->nintervals, 4);
		assert_u128(f->intervals[0].steps, 5);
		assert_u128(f->intervals[1].steps, 10);
		assert_u128(f->intervals[2].steps, 7);
		assert_u128(f->intervals[3].steps, 18);
		ss_server_results_release(&r);
		ss_server_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_order),
		cmocka_unit_test(test_unnamed_keeps_input_order),
		cmocka_unit_test(test_two_workers),
		cmocka_unit_test(test_endpoint_names),
		cmocka_unit_test(test_restart_timed),
		cmocka_unit_test(test_one_snapshot_processes),
		cmocka_unit_test(test_since_start_processes),
		cmocka_unit_test(test_single_snapshots_one_started_inside),
		cmocka_unit_test(test_unordered),
		cmocka_unit_test(test_counter_order_three),
		cmocka_unit_test(test_missing_counter),
		cmocka_unit_test(test_missing_rules),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_process_names),
		cmocka_unit_test(test_intervals_in_counter_order),
		cmocka_unit_test(test_intervals_in_time_order),
		cmocka_unit_test(test_inner_conflict),
		cmocka_unit_test(test_five_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
