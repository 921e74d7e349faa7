/*
 * Unit tests of acceptance by position and the shorter-draft table (SPEC
 * 7.1). The expected numbers are SPEC 7.1's test vector (SPEC 6's records A
 * and B), worked by hand there; the exclusion cases are built here.
 * Drafted per position (SPEC 7.9): vLLM's own per-position counting test
 * (three drafts of 3, 3 and 2 tokens accepting 3, 1 and 0) and its bench
 * test of per-position denominators (rates [0.5, 0.5, None]), worked by
 * hand below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis/positions.h"
#include "metrics/drafted.h"
#include "util/alloc.h"

#define assert_double_is(x, y) assert_true((x) == (y))

/* SPEC 6: A = histogram [1,1,2,3,1] (k 4), B = [1,2,0,0,0] (k 4). */
static const int64_t hist_a[] = {1, 1, 2, 3, 1};
static const int64_t hist_b[] = {1, 2, 0, 0, 0};

static void add_ab(struct ss_positions *p)
{
	assert_true(ss_positions_add(p, hist_a, 5, true, 4));
	assert_true(ss_positions_add(p, hist_b, 5, true, 4));
}

static void test_spec_vector(void **state)
{
	struct ss_positions p;
	struct ss_pos_result r;
	const struct ss_pos_k *pk;

	(void)state;
	ss_positions_init(&p);
	add_ab(&p);
	assert_int_equal(p.nk, 1);
	for (int i = 0; i < SS_PX_COUNT; i++)
		assert_int_equal(p.excluded[i], 0);
	pk = &p.ks[p.nk - 1];
	assert_true(ss_pos_compute(pk, false, 0.0, &r));
	assert_int_equal(r.k, 4);
	assert_int_equal(r.requests, 2);
	assert_true(r.steps == 11);
	assert_true(r.defined);
	assert_double_is(r.acceptance_length, 2.8181818181818183);
	/* S = 9, 6, 4, 1 */
	assert_true(r.pos[0].accepted == 9);
	assert_true(r.pos[1].accepted == 6);
	assert_true(r.pos[2].accepted == 4);
	assert_true(r.pos[3].accepted == 1);
	assert_double_is(r.pos[0].rate, 0.8181818181818182);
	assert_double_is(r.pos[1].rate, 0.5454545454545454);
	assert_double_is(r.pos[2].rate, 0.36363636363636365);
	assert_double_is(r.pos[3].rate, 0.09090909090909091);
	for (int i = 0; i < 4; i++)
		assert_true(r.pos[i].has_conditional);
	assert_double_is(r.pos[0].conditional, 0.8181818181818182);
	assert_double_is(r.pos[1].conditional, 0.6666666666666666);
	assert_double_is(r.pos[2].conditional, 0.6666666666666666);
	assert_double_is(r.pos[3].conditional, 0.25);
	assert_double_is(r.what_if[0].acceptance_length, 1.8181818181818183);
	assert_double_is(r.what_if[1].acceptance_length, 2.3636363636363633);
	assert_double_is(r.what_if[2].acceptance_length, 2.7272727272727275);
	assert_double_is(r.what_if[3].acceptance_length, 2.8181818181818183);
	assert_double_is(r.what_if[0].draft_acceptance_rate, 81.81818181818183);
	assert_double_is(r.what_if[1].draft_acceptance_rate, 68.18181818181817);
	assert_double_is(r.what_if[2].draft_acceptance_rate, 57.57575757575758);
	assert_double_is(r.what_if[3].draft_acceptance_rate, 45.45454545454545);
	assert_false(r.has_cost);
	assert_int_equal(r.suggested_k, 0);
	ss_pos_result_release(&r);

	/* --draft-cost 0.1 */
	assert_true(ss_pos_compute(pk, true, 0.1, &r));
	assert_true(r.has_cost);
	assert_double_is(r.draft_cost, 0.1);
	assert_double_is(r.what_if[0].speedup, 1.6528925619834711);
	assert_double_is(r.what_if[1].speedup, 1.9696969696969695);
	assert_double_is(r.what_if[2].speedup, 2.097902097902098);
	assert_double_is(r.what_if[3].speedup, 2.012987012987013);
	assert_int_equal(r.suggested_k, 3);
	ss_pos_result_release(&r);
	ss_positions_release(&p);
}

static void test_suggested_k_edges(void **state)
{
	struct ss_positions p;
	struct ss_pos_result r;

	(void)state;
	ss_positions_init(&p);
	add_ab(&p);
	/* cost 0: τ grows with k', so the largest k' */
	assert_true(ss_pos_compute(&p.ks[0], true, 0.0, &r));
	assert_int_equal(r.suggested_k, 4);
	ss_pos_result_release(&r);
	/* cost 1: τ(k') / (1 + k') <= 1.8181818181818183 / 2 < 1: no k pays */
	assert_true(ss_pos_compute(&p.ks[0], true, 1.0, &r));
	assert_int_equal(r.suggested_k, 0);
	assert_double_is(r.what_if[0].speedup, 1.8181818181818183 / 2.0);
	ss_pos_result_release(&r);
	ss_positions_release(&p);

	/*
	 * A tie: every step accepts nothing past position 1 (hist {1: 4}, k 2),
	 * cost 0: τ(1) = τ(2) = 2.0; the smaller k' wins.
	 */
	static const int64_t h[] = {0, 4, 0};

	ss_positions_init(&p);
	assert_true(ss_positions_add(&p, h, 3, true, 2));
	assert_true(ss_pos_compute(&p.ks[0], true, 0.0, &r));
	assert_double_is(r.what_if[0].speedup, 2.0);
	assert_double_is(r.what_if[1].speedup, 2.0);
	assert_int_equal(r.suggested_k, 1);
	/* position 2's conditional: S_2 / S_1 = 0 / 4 */
	assert_double_is(r.pos[1].conditional, 0.0);
	ss_pos_result_release(&r);
	ss_positions_release(&p);
}

static void test_conditional_null(void **state)
{
	/* hist {0: 5} with k 3: S_1 = S_2 = S_3 = 0 */
	static const int64_t h[] = {5};
	struct ss_positions p;
	struct ss_pos_result r;

	(void)state;
	ss_positions_init(&p);
	assert_true(ss_positions_add(&p, h, 1, true, 3));
	assert_true(ss_pos_compute(&p.ks[0], false, 0.0, &r));
	assert_true(r.steps == 5);
	assert_true(r.pos[0].has_conditional); /* S_0 = 5 */
	assert_double_is(r.pos[0].conditional, 0.0);
	assert_false(r.pos[1].has_conditional); /* S_1 = 0 */
	assert_false(r.pos[2].has_conditional);
	assert_double_is(r.pos[2].rate, 0.0);
	assert_double_is(r.acceptance_length, 1.0);
	assert_double_is(r.what_if[2].draft_acceptance_rate, 0.0);
	ss_pos_result_release(&r);
	ss_positions_release(&p);
}

static void test_exclusions(void **state)
{
	static const int64_t h3[] = {1, 0, 0, 2};    /* largest key 3 */
	static const int64_t h3z[] = {1, 0, 2, 0, 0}; /* largest key 2, trailing zeros */
	static const int64_t zeros[] = {0, 0};
	struct ss_positions p;

	(void)state;
	ss_positions_init(&p);
	assert_true(ss_positions_add(&p, NULL, 0, true, 4));      /* no histogram */
	assert_true(ss_positions_add(&p, zeros, 2, false, 0));    /* no keys: no histogram first */
	assert_true(ss_positions_add(&p, h3, 4, false, 0));       /* no k */
	assert_true(ss_positions_add(&p, h3, 4, true, 4097));     /* k too large */
	assert_true(ss_positions_add(&p, h3, 4, true, 5000));
	assert_true(ss_positions_add(&p, h3, 4, true, 2));        /* key 3 > k 2 */
	assert_true(ss_positions_add(&p, h3z, 5, true, 2));       /* key 2 <= k 2: used */
	assert_true(ss_positions_add(&p, h3, 4, true, 4096));     /* the largest k allowed */
	assert_int_equal(p.excluded[SS_PX_NO_HISTOGRAM], 2);
	assert_int_equal(p.excluded[SS_PX_NO_K], 1);
	assert_int_equal(p.excluded[SS_PX_K_TOO_LARGE], 2);
	assert_int_equal(p.excluded[SS_PX_KEY_ABOVE_K], 1);
	assert_int_equal(p.nk, 2);
	assert_int_equal(p.ks[0].k, 2);
	assert_int_equal(p.ks[1].k, 4096);
	assert_int_equal(p.ks[p.nk - 1].k, 4096);
	assert_true(p.ks[0].h[2] == 2);
	assert_string_equal(ss_pos_excl_names[SS_PX_KEY_ABOVE_K], "key_above_k");
	ss_positions_release(&p);
}

static void test_several_k_ascending(void **state)
{
	static const int64_t h[] = {1, 1};
	struct ss_positions p;

	(void)state;
	ss_positions_init(&p);
	assert_true(ss_positions_add(&p, h, 2, true, 5));
	assert_true(ss_positions_add(&p, h, 2, true, 1));
	assert_true(ss_positions_add(&p, h, 2, true, 3));
	assert_true(ss_positions_add(&p, h, 2, true, 1));
	assert_int_equal(p.nk, 3);
	assert_int_equal(p.ks[0].k, 1);
	assert_int_equal(p.ks[0].requests, 2);
	assert_int_equal(p.ks[1].k, 3);
	assert_int_equal(p.ks[2].k, 5);
	ss_positions_release(&p);
}

static void test_oom(void **state)
{
	struct ss_positions p;
	struct ss_pos_result r;

	(void)state;
	ss_positions_init(&p);
	ss_alloc_fail_at(1, 1);
	assert_false(ss_positions_add(&p, hist_a, 5, true, 4));
	ss_alloc_fail_at(0, 0);
	add_ab(&p);
	ss_alloc_fail_at(2, 0);
	assert_false(ss_pos_compute(&p.ks[0], false, 0.0, &r));
	ss_alloc_fail_at(0, 0);
	ss_positions_release(&p);
}

/* ---- SPEC 7.9: drafted per position ---- */

static void set_vec(struct ss_vec_i64 *v, const int64_t *x, size_t n)
{
	v->len = 0;
	for (size_t i = 0; i < n; i++)
		assert_true(SS_VEC_PUSH(v, x[i]));
}

/* A record with per-step arrays (steps = their length). */
static void steps_record(struct ss_record *r, const int64_t *acc, const int64_t *dr, size_t n)
{
	ss_record_reset(r);
	r->has_steps = true;
	r->num_spec_steps = (int64_t)n;
	r->has_per_step_accepted = r->has_per_step_drafted = true;
	set_vec(&r->per_step_accepted, acc, n);
	set_vec(&r->per_step_drafted, dr, n);
}

/* Summarize `r` and pool it; returns its state. */
static enum ss_drafted_state pool(struct ss_drafted *p, const struct ss_record *r)
{
	struct ss_vec_i64 tmp = {NULL, 0, 0};
	enum ss_drafted_state st;
	size_t len;

	assert_true(ss_drafted_summarize(r, &tmp, &st, &len));
	assert_int_equal(len, st == SS_DR_POOLED ? tmp.len : 0);
	assert_true(ss_drafted_add(p, st, tmp.v, len));
	SS_VEC_RELEASE(&tmp);
	return st;
}

/*
 * vLLM's SpecDecodingStats test: drafts of 3, 3, 2 tokens accepting 3, 1, 0.
 * Drafted per position D = 3, 3, 2 (position 3 only in the two long
 * drafts); accepted S = 2, 1, 1; rates 2/3, 1/3, 1/2; conditional S_i /
 * S_{i-1} with S_0 = 3 steps: 2/3, 1/2, 1.
 */
static void check_vllm_vector(const struct ss_drafted *p)
{
	struct ss_drafted_result r;

	assert_true(ss_drafted_compute(p, &r));
	assert_true(r.present);
	assert_int_equal(r.requests, 1);
	assert_true(r.steps == 3);
	assert_int_equal(r.n, 3);
	assert_true(r.rows[0].drafted == 3 && r.rows[1].drafted == 3 && r.rows[2].drafted == 2);
	assert_true(r.rows[0].accepted == 2 && r.rows[1].accepted == 1 && r.rows[2].accepted == 1);
	assert_double_is(r.rows[0].rate, 2.0 / 3.0);
	assert_double_is(r.rows[1].rate, 1.0 / 3.0);
	assert_double_is(r.rows[2].rate, 0.5);
	assert_double_is(r.rows[0].conditional, 2.0 / 3.0);
	assert_double_is(r.rows[1].conditional, 0.5);
	assert_double_is(r.rows[2].conditional, 1.0);
	for (int i = 0; i < 3; i++)
		assert_true(r.rows[i].has_rate && r.rows[i].has_conditional);
	ss_drafted_result_release(&r);
}

static void test_drafted_vllm_steps(void **state)
{
	static const int64_t acc[] = {3, 1, 0}, dr[] = {3, 3, 2};
	struct ss_record rec;
	struct ss_drafted p;

	(void)state;
	ss_record_init(&rec);
	ss_drafted_init(&p);
	steps_record(&rec, acc, dr, 3);
	assert_int_equal(pool(&p, &rec), SS_DR_POOLED);
	check_vllm_vector(&p);
	ss_drafted_release(&p);
	ss_record_release(&rec);
}

/* The same steps as by-length rows: h_2 = [1,0,0], h_3 = [0,1,0,1]. */
static void test_drafted_vllm_rows(void **state)
{
	static const int64_t rows[] = {2, 1, 0, 0, 3, 0, 1, 0, 1};
	struct ss_record rec;
	struct ss_drafted p;

	(void)state;
	ss_record_init(&rec);
	ss_drafted_init(&p);
	rec.has_steps = true;
	rec.num_spec_steps = 3;
	rec.has_by_draft_length = true;
	set_vec(&rec.by_draft_length, rows, 9);
	assert_int_equal(pool(&p, &rec), SS_DR_POOLED);
	check_vllm_vector(&p);
	/* rows summing to 3 while the record has 4 steps: left out, counted */
	rec.num_spec_steps = 4;
	assert_int_equal(pool(&p, &rec), SS_DR_INCONSISTENT);
	assert_int_equal(p.inconsistent, 1);
	assert_int_equal(p.requests, 1);
	ss_drafted_release(&p);
	ss_record_release(&rec);
}

/*
 * vLLM's bench test of per-position denominators
 * (test_adaptive_verification_uses_per_position_denominators): over its
 * window 4 drafts of 6 tokens accept 3; accepted per position 2, 1, 0 of
 * drafted 4, 2, 0, so per-position rates [0.5, 0.5, None] and an
 * acceptance rate of 50%. As steps (drafted, accepted): (2,2) (2,0) (1,1)
 * (1,0), k = 3. Here: D = 4, 2; S = 2, 1; rates 0.5 and 0.5; the third
 * position, never drafted (vLLM's None), is not listed. Conditional S_i /
 * S_{i-1} with S_0 = 4: 1/2 then 1/2. Accepted / drafted over the steps:
 * 3 / 6.
 */
static void test_drafted_vllm_bench(void **state)
{
	static const int64_t acc[] = {2, 0, 1, 0}, dr[] = {2, 2, 1, 1};
	struct ss_record rec;
	struct ss_drafted p;
	struct ss_drafted_result r;
	unsigned __int128 drafted = 0, accepted = 0;

	(void)state;
	ss_record_init(&rec);
	ss_drafted_init(&p);
	steps_record(&rec, acc, dr, 4);
	rec.has_spec_tokens = true;
	rec.num_spec_tokens = 3;
	assert_int_equal(pool(&p, &rec), SS_DR_POOLED);
	assert_true(ss_drafted_compute(&p, &r));
	assert_true(r.steps == 4);
	assert_int_equal(r.n, 2);
	assert_true(r.rows[0].drafted == 4 && r.rows[1].drafted == 2);
	assert_true(r.rows[0].accepted == 2 && r.rows[1].accepted == 1);
	assert_double_is(r.rows[0].rate, 0.5);
	assert_double_is(r.rows[1].rate, 0.5);
	assert_double_is(r.rows[0].conditional, 0.5);
	assert_double_is(r.rows[1].conditional, 0.5);
	for (size_t i = 0; i < r.n; i++) {
		drafted += r.rows[i].drafted;
		accepted += r.rows[i].accepted;
	}
	/* the drafted and accepted positions add up to the tokens: 6 and 3 */
	assert_true(drafted == 6 && accepted == 3);
	ss_drafted_result_release(&r);
	ss_drafted_release(&p);
	ss_record_release(&rec);
}

/*
 * A record's part takes room by its distinct lengths: one step drafting
 * 4096 tokens and accepting 0 is nd 1, na 1 and two pairs, 6 numbers.
 */
static void test_drafted_compact(void **state)
{
	static const int64_t acc[] = {0}, dr[] = {SS_POS_MAX_K};
	struct ss_vec_i64 tmp = {NULL, 0, 0};
	struct ss_record rec;
	enum ss_drafted_state st;
	size_t len;

	(void)state;
	ss_record_init(&rec);
	steps_record(&rec, acc, dr, 1);
	assert_true(SS_VEC_PUSH(&tmp, 77)); /* what the buffer held before stays */
	assert_true(ss_drafted_summarize(&rec, &tmp, &st, &len));
	assert_int_equal(st, SS_DR_POOLED);
	assert_int_equal(len, 6);
	assert_int_equal(tmp.len, 7);
	assert_int_equal(tmp.v[0], 77);
	assert_int_equal(tmp.v[1], 1);
	assert_int_equal(tmp.v[2], 1);
	assert_int_equal(tmp.v[3], SS_POS_MAX_K);
	assert_int_equal(tmp.v[4], 1);
	assert_int_equal(tmp.v[5], 0);
	assert_int_equal(tmp.v[6], 1);
	SS_VEC_RELEASE(&tmp);
	ss_record_release(&rec);
}

/* Two records pool in any order; a record with neither form adds nothing. */
static void test_drafted_pooling(void **state)
{
	static const int64_t a1[] = {1, 0}, d1[] = {1, 4}, a2[] = {4}, d2[] = {4};
	static const int64_t big[] = {SS_POS_MAX_K + 1};
	struct ss_record rec;
	struct ss_drafted p;
	struct ss_drafted_result r;

	(void)state;
	ss_record_init(&rec);
	ss_drafted_init(&p);
	steps_record(&rec, a2, d2, 1);
	assert_int_equal(pool(&p, &rec), SS_DR_POOLED);
	steps_record(&rec, a1, d1, 2);
	assert_int_equal(pool(&p, &rec), SS_DR_POOLED);
	ss_record_reset(&rec);
	rec.has_steps = true;
	rec.num_spec_steps = 5;
	assert_int_equal(pool(&p, &rec), SS_DR_NONE);
	/* a step that drafted more than SS_POS_MAX_K tokens: left out, counted */
	steps_record(&rec, a2, big, 1);
	assert_int_equal(pool(&p, &rec), SS_DR_INCONSISTENT);
	/*
	 * Steps (d, a): (4, 4), (1, 1), (4, 0). D = 3, 2, 2, 2; S = 2, 1, 1, 1;
	 * S_0 = 3. Rates 2/3, 1/2, 1/2, 1/2; conditional 2/3, 1/2, 1, 1.
	 */
	assert_true(ss_drafted_compute(&p, &r));
	assert_int_equal(r.requests, 2);
	assert_true(r.steps == 3);
	assert_int_equal(r.n, 4);
	assert_true(r.rows[0].drafted == 3 && r.rows[3].drafted == 2);
	assert_true(r.rows[0].accepted == 2 && r.rows[3].accepted == 1);
	assert_double_is(r.rows[0].rate, 2.0 / 3.0);
	assert_double_is(r.rows[3].rate, 0.5);
	assert_double_is(r.rows[1].conditional, 0.5);
	assert_double_is(r.rows[2].conditional, 1.0);
	assert_int_equal(p.inconsistent, 1);
	ss_drafted_result_release(&r);
	ss_drafted_release(&p);
	/* nothing pooled: no drafted section */
	ss_drafted_init(&p);
	assert_true(ss_drafted_compute(&p, &r));
	assert_false(r.present);
	ss_drafted_release(&p);
	ss_record_release(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_vector),
		cmocka_unit_test(test_suggested_k_edges),
		cmocka_unit_test(test_conditional_null),
		cmocka_unit_test(test_exclusions),
		cmocka_unit_test(test_several_k_ascending),
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_drafted_vllm_steps),
		cmocka_unit_test(test_drafted_vllm_rows),
		cmocka_unit_test(test_drafted_vllm_bench),
		cmocka_unit_test(test_drafted_pooling),
		cmocka_unit_test(test_drafted_compact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
