/*
 * Unit tests of SPEC 11.5's acceptance profile. The document of 7.1's
 * vector (SPEC 11.6) is written out by hand below from 7.1's rates; the
 * other rows are worked by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "analysis/positions.h"
#include "analysis/profile.h"
#include "metrics/poshist.h"
#include "report/numfmt.h"
#include "util/buf.h"

static const int64_t hist_a[] = {1, 1, 2, 3, 1};
static const int64_t hist_b[] = {1, 2, 0, 0, 0};

static void compute(const int64_t *const *h, const size_t *len, size_t n, int64_t k,
		    struct ss_pos_result *r)
{
	struct ss_positions p;

	ss_positions_init(&p);
	for (size_t i = 0; i < n; i++)
		assert_true(ss_positions_add(&p, h[i], len[i], true, k));
	assert_int_equal(p.nk, 1);
	assert_true(ss_pos_compute(&p.ks[0], false, 0.0, r));
	ss_positions_release(&p);
}

static void test_vector(void **state)
{
	const int64_t *h[] = {hist_a, hist_b};
	const size_t len[] = {5, 5};
	struct ss_pos_result r;
	struct ss_buf b = SS_BUF_INIT;

	(void)state;
	compute(h, len, 2, 4, &r);
	ss_profile_begin(&b);
	ss_profile_entry(&b, true, "{}", 2, &r, ss_buf_add_double);
	ss_profile_end(&b);
	assert_false(b.failed);
	assert_string_equal(
		b.data,
		"{\"profiles\": [{\"key\": {}, \"k\": 4, \"requests\": 2, \"steps\": 11, "
		"\"acceptance_length\": 2.8181818181818183, "
		"\"unconditional\": [0.8181818181818182, 0.5454545454545454, "
		"0.36363636363636365, 0.09090909090909091], "
		"\"conditional\": [0.8181818181818182, 0.6666666666666666, "
		"0.6666666666666666, 0.25], "
		"\"vllm\": {\"rejection_sample_method\": \"synthetic\", "
		"\"synthetic_acceptance_rates\": [0.8181818181818182, 0.5454545454545454, "
		"0.36363636363636365, 0.09090909090909091]}, "
		"\"aic_args\": \"--aic-nextn 4 --aic-nextn-accept-rates "
		"0.8182,0.6667,0.6667,0.2500\"}]}\n");
	ss_buf_reset(&b);
	assert_true(ss_profile_aic_args(&b, &r));
	assert_string_equal(b.data, "--aic-nextn 4 --aic-nextn-accept-rates 0.8182,0.6667,0.6667,0.2500");
	ss_pos_result_release(&r);
	ss_buf_release(&b);
}

/*
 * k 2, one record that accepted nothing in its one step: S = 1, 0, 0.
 * Rates 0.0, 0.0; conditional 0/1 = 0.0, then null (S_1 = 0), written 0
 * in aic_args. A second entry (a group's key) follows after `, `.
 */
static void test_null_conditional(void **state)
{
	static const int64_t h0[] = {1};
	const int64_t *h[] = {h0};
	const size_t len[] = {1};
	struct ss_pos_result r;
	struct ss_buf b = SS_BUF_INIT;

	(void)state;
	compute(h, len, 1, 2, &r);
	ss_profile_entry(&b, false, "{\"k\": 2}", 8, &r, ss_buf_add_double);
	assert_string_equal(
		b.data,
		", {\"key\": {\"k\": 2}, \"k\": 2, \"requests\": 1, \"steps\": 1, "
		"\"acceptance_length\": 1.0, \"unconditional\": [0.0, 0.0], "
		"\"conditional\": [0.0, null], "
		"\"vllm\": {\"rejection_sample_method\": \"synthetic\", "
		"\"synthetic_acceptance_rates\": [0.0, 0.0]}, "
		"\"aic_args\": \"--aic-nextn 2 --aic-nextn-accept-rates 0.0000,0.0000\"}");
	ss_pos_result_release(&r);
	ss_buf_release(&b);
}

/* K 6 > 5: no aic_args. One step that accepted all 6: every rate 1.0. */
static void test_k_above_5(void **state)
{
	static const int64_t h6[] = {0, 0, 0, 0, 0, 0, 1};
	const int64_t *h[] = {h6};
	const size_t len[] = {7};
	struct ss_pos_result r;
	struct ss_buf b = SS_BUF_INIT;

	(void)state;
	compute(h, len, 1, 6, &r);
	ss_profile_entry(&b, true, "{}", 2, &r, ss_buf_add_double);
	assert_string_equal(
		b.data,
		"{\"key\": {}, \"k\": 6, \"requests\": 1, \"steps\": 1, \"acceptance_length\": 7.0, "
		"\"unconditional\": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], "
		"\"conditional\": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], "
		"\"vllm\": {\"rejection_sample_method\": \"synthetic\", "
		"\"synthetic_acceptance_rates\": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]}}");
	ss_buf_reset(&b);
	assert_false(ss_profile_aic_args(&b, &r));
	assert_int_equal(b.len, 0);
	ss_pos_result_release(&r);
	ss_buf_release(&b);
}

/*
 * K 5 is the largest with aic_args: S_0 = 3 (hist 0:1, 5:2), S_i = 2 for
 * i = 1..5: conditional 2/3 then 1.0. 2/3 to four places is 0.6667.
 */
static void test_k_5(void **state)
{
	static const int64_t h5[] = {1, 0, 0, 0, 0, 2};
	const int64_t *h[] = {h5};
	const size_t len[] = {6};
	struct ss_pos_result r;
	struct ss_buf b = SS_BUF_INIT;

	(void)state;
	compute(h, len, 1, 5, &r);
	assert_true(ss_profile_aic_args(&b, &r));
	assert_string_equal(b.data, "--aic-nextn 5 --aic-nextn-accept-rates "
				    "0.6667,1.0000,1.0000,1.0000,1.0000");
	ss_pos_result_release(&r);
	ss_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_null_conditional),
		cmocka_unit_test(test_k_above_5),
		cmocka_unit_test(test_k_5),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
