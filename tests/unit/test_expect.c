/* Unit tests of --expect parsing and evaluation (SPEC 7.5). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/expect.h"

static const char *const tags[] = {
	"spec_decode_acceptance_length",
	"spec_decode_token_weighted_acceptance_length",
	"spec_decode_zero_step_requests",
};

static bool parse(const char *text, struct ss_expect *e, char *err)
{
	return ss_expect_parse(text, tags, 3, e, err, 256);
}

static void test_parse_ok(void **state)
{
	struct ss_expect e;
	char err[256];

	(void)state;
	assert_true(parse("spec_decode_acceptance_length>=3.3", &e, err));
	assert_int_equal(e.metric, 0);
	assert_int_equal(e.op, SS_OP_GE);
	assert_true(e.value == 3.3);
	assert_string_equal(e.text, "spec_decode_acceptance_length>=3.3");

	assert_true(parse("  spec_decode_token_weighted_acceptance_length  >  2  ", &e, err));
	assert_int_equal(e.metric, 1);
	assert_int_equal(e.op, SS_OP_GT);
	assert_true(e.value == 2.0);

	assert_true(parse("spec_decode_zero_step_requests<=0", &e, err));
	assert_int_equal(e.metric, 2);
	assert_int_equal(e.op, SS_OP_LE);

	assert_true(parse("spec_decode_acceptance_length<-1e-3", &e, err));
	assert_int_equal(e.op, SS_OP_LT);
	assert_true(e.value == -1e-3);

	assert_true(parse("position1>=0.75", &e, err));
	assert_int_equal(e.metric, -1);
	assert_int_equal(e.position, 1);
	assert_true(e.value == 0.75);
	assert_true(parse("position12<.5", &e, err));
	assert_int_equal(e.position, 12);
	assert_int_equal(e.op, SS_OP_LT);
}

static void test_parse_errors(void **state)
{
	struct ss_expect e;
	char err[256];

	(void)state;
	assert_false(parse("spec_decode_acceptance_length", &e, err));
	assert_non_null(strstr(err, "OP one of"));
	assert_false(parse("spec_decode_acceptance_length=3", &e, err));
	assert_false(parse("spec_decode_acceptance_length==3", &e, err));
	assert_false(parse("spec_decode_acceptance_length=>3", &e, err));
	assert_false(parse(">=3", &e, err));
	assert_non_null(strstr(err, "no metric tag"));
	assert_false(parse("acceptance_length>=3", &e, err));
	assert_non_null(strstr(err, "unknown metric 'acceptance_length'"));
	assert_false(parse("spec_decode_acceptance_length>=", &e, err));
	assert_non_null(strstr(err, "not a number"));
	assert_false(parse("spec_decode_acceptance_length>=abc", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=3x", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=3 4", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=nan", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=inf", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=0x10", &e, err));
	assert_false(parse("spec_decode_acceptance_length>=1e999", &e, err));
	assert_false(parse("spec_decode_acceptance_length >= 3 >= 2", &e, err));
	assert_false(parse("position0>=0.5", &e, err));
	assert_false(parse("position>=0.5", &e, err));
	assert_false(parse("position01>=0.5", &e, err));
	assert_false(parse("position-1>=0.5", &e, err));
	assert_false(parse("position99999999999>=0.5", &e, err));
	assert_false(parse("Spec_decode_acceptance_length>=3", &e, err));
}

static void test_holds(void **state)
{
	struct ss_expect e;
	char err[256];

	(void)state;
	assert_true(parse("spec_decode_acceptance_length>=3.3", &e, err));
	assert_true(ss_expect_holds(&e, true, 3.3));
	assert_true(ss_expect_holds(&e, true, 4.0));
	assert_true(ss_expect_holds(&e, true, 3.2999999999999998)); /* the same double */
	assert_false(ss_expect_holds(&e, true, 3.29));
	assert_false(ss_expect_holds(&e, false, 10.0)); /* absent: fails */

	assert_true(parse("spec_decode_acceptance_length>3.3", &e, err));
	assert_false(ss_expect_holds(&e, true, 3.3));
	assert_true(ss_expect_holds(&e, true, 3.31));

	assert_true(parse("spec_decode_acceptance_length<=2", &e, err));
	assert_true(ss_expect_holds(&e, true, 2.0));
	assert_false(ss_expect_holds(&e, true, 2.01));

	assert_true(parse("spec_decode_acceptance_length<2", &e, err));
	assert_false(ss_expect_holds(&e, true, 2.0));
	assert_true(ss_expect_holds(&e, true, 1.99));

	/* an absent Zero-Step Requests is 0: the caller passes has = true, 0 */
	assert_true(parse("spec_decode_zero_step_requests<=0", &e, err));
	assert_true(ss_expect_holds(&e, true, 0.0));
	assert_false(ss_expect_holds(&e, true, 1.0));
}

/* SPEC 7.8 and 7.11's values: no metric, no position, their own kind. */
static void test_named_values(void **state)
{
	struct ss_expect e;
	char err[256];

	(void)state;
	assert_true(parse("window_min>=2.5", &e, err));
	assert_int_equal(e.what, SS_EXV_WINDOW_MIN);
	assert_int_equal(e.metric, -1);
	assert_int_equal(e.position, 0);
	assert_true(parse("window_last < 3", &e, err));
	assert_int_equal(e.what, SS_EXV_WINDOW_LAST);
	assert_int_equal(e.op, SS_OP_LT);
	assert_true(parse("all_rejected_requests<=0", &e, err));
	assert_int_equal(e.what, SS_EXV_ALL_REJECTED);
	assert_true(parse("all_accepted_requests<1", &e, err));
	assert_int_equal(e.what, SS_EXV_ALL_ACCEPTED);
	assert_true(parse("spec_decode_acceptance_length>=1", &e, err));
	assert_int_equal(e.what, SS_EXV_NONE);
	assert_false(parse("window_max>=1", &e, err));
	assert_false(parse("Window_min>=1", &e, err));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_holds),
		cmocka_unit_test(test_named_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
