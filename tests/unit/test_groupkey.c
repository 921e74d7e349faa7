/*
 * Unit tests of the group keys (SPEC 7.3): the order of values, the osl
 * buckets, --group-by parsing, --compare matching and the group table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/groupkey.h"
#include "util/alloc.h"

static struct ss_kv kv_null(void)
{
	struct ss_kv v = {SS_KV_NULL, false, 0, NULL, 0};

	return v;
}

static struct ss_kv kv_bool(bool b)
{
	struct ss_kv v = {SS_KV_BOOL, b, 0, NULL, 0};

	return v;
}

static struct ss_kv kv_int(int64_t i)
{
	struct ss_kv v = {SS_KV_INT, false, i, NULL, 0};

	return v;
}

static struct ss_kv kv_str(const char *s)
{
	struct ss_kv v = {SS_KV_STR, false, 0, s, strlen(s)};

	return v;
}

static struct ss_kv kv_q(int64_t q)
{
	struct ss_kv v = {SS_KV_QUARTERS, false, q, NULL, 0};

	return v;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Each row ascending: every pair compares as its positions do. */
static void test_value_order(void **state)
{
	/* SPEC 7.3: null < false < true < integers (numerically) < strings (byte-wise) */
	struct ss_kv plain[] = {
		kv_null(),   kv_bool(false), kv_bool(true), kv_int(INT64_MIN), kv_int(-3),
		kv_int(0),   kv_int(2),      kv_int(10),    kv_int(INT64_MAX), kv_str(""),
		kv_str("10"), kv_str("2"),   kv_str("B"),   kv_str("a"),       kv_str("ab"),
		kv_str("\xc3\xa9"),
	};
	/* SPEC 11.4, 13 (round 10): `reasoning` values are numbers in quarters,
	 * ordered among numbers: null < true < 0.0 < 0.25 < 0.5 < 1.0 < int 2 < "0" */
	struct ss_kv quarters[] = {kv_null(), kv_bool(true), kv_q(0),   kv_q(1),
				   kv_q(2),   kv_q(4),       kv_int(2), kv_str("0")};
	const struct {
		const struct ss_kv *v;
		size_t n;
	} rows[] = {{plain, COUNT(plain)}, {quarters, COUNT(quarters)}};

	(void)state;
	for (size_t r = 0; r < COUNT(rows); r++)
		for (size_t i = 0; i < rows[r].n; i++)
			for (size_t j = 0; j < rows[r].n; j++) {
				int c = ss_kv_cmp(&rows[r].v[i], &rows[r].v[j]);

				if (i < j)
					assert_true(c < 0);
				else if (i > j)
					assert_true(c > 0);
				else
					assert_int_equal(c, 0);
			}
}

/* SPEC 11.4, 13 (round 10): quarters matched by --compare numerically,
 * and written as Python writes the doubles (their order: test_value_order). */
static void test_quarters(void **state)
{
	struct ss_kv q0 = kv_q(0), half = kv_q(2), q1 = kv_q(4);
	struct ss_kv zero = kv_int(0), one = kv_int(1), qmax = kv_q(INT64_MAX);
	struct ss_buf b = SS_BUF_INIT;
	const char *want[] = {"0.0", "0.25", "0.5", "0.75", "1.0"};

	(void)state;
	/* the same number, whatever its form */
	assert_int_equal(ss_kv_cmp(&q0, &zero), 0);
	assert_int_equal(ss_kv_cmp(&q1, &one), 0);
	/* INT64_MAX quarters is below INT64_MAX as an integer: no overflow */
	assert_true(ss_kv_cmp(&qmax, &(struct ss_kv){SS_KV_INT, false, INT64_MAX, NULL, 0}) < 0);
	/* written as Python writes the doubles 0.0 .. 1.0 */
	for (int q = 0; q <= 4; q++) {
		struct ss_kv x = kv_q(q);

		ss_buf_reset(&b);
		ss_kv_add_text(&b, &x);
		assert_int_equal(b.len, strlen(want[q]));
		assert_memory_equal(b.data, want[q], b.len);
	}
	ss_buf_release(&b);
	/* --compare: `1` matches 1.0, `.5` and `0.50` match 0.5 */
	assert_true(ss_kv_matches_text(&q1, "1"));
	assert_true(ss_kv_matches_text(&q1, "1.0"));
	assert_true(ss_kv_matches_text(&half, "0.50"));
	assert_true(ss_kv_matches_text(&half, ".5"));
	assert_true(ss_kv_matches_text(&q0, "0"));
	assert_false(ss_kv_matches_text(&half, "0.4"));
	assert_false(ss_kv_matches_text(&half, " 0.5"));
	assert_false(ss_kv_matches_text(&half, "0.5x"));
	assert_false(ss_kv_matches_text(&half, "null"));
	assert_false(ss_kv_matches_text(&q0, "nan"));
	assert_false(ss_kv_matches_text(&q0, ""));
}

static void test_string_with_nul(void **state)
{
	struct ss_kv a = {SS_KV_STR, false, 0, "a\0b", 3};
	struct ss_kv b = {SS_KV_STR, false, 0, "a", 1};

	(void)state;
	assert_true(ss_kv_cmp(&b, &a) < 0);
	assert_true(ss_kv_cmp(&a, &b) > 0);
}

static void test_osl_buckets(void **state)
{
	(void)state;
	assert_int_equal(ss_osl_bucket(0), 0);
	assert_int_equal(ss_osl_bucket(-5), 0);
	assert_int_equal(ss_osl_bucket(1), 1);
	assert_int_equal(ss_osl_bucket(2), 2);
	assert_int_equal(ss_osl_bucket(3), 2);
	assert_int_equal(ss_osl_bucket(4), 4);
	assert_int_equal(ss_osl_bucket(255), 128);
	assert_int_equal(ss_osl_bucket(256), 256);
	assert_int_equal(ss_osl_bucket(300), 256);
	assert_int_equal(ss_osl_bucket(1023), 512);
	assert_int_equal(ss_osl_bucket(1024), 1024);
	assert_true(ss_osl_bucket(INT64_MAX) == INT64_C(1) << 62);
}

static void test_spec_parse(void **state)
{
	struct ss_group_spec s;
	char err[256];

	(void)state;
	assert_int_equal(ss_group_spec_parse("input,engine,k,phase,model,meta.run id,osl", &s,
					     err, sizeof(err)),
			 SS_GP_OK);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.keys[0].kind, SS_GK_INPUT);
	assert_int_equal(s.keys[1].kind, SS_GK_ENGINE);
	assert_int_equal(s.keys[2].kind, SS_GK_K);
	assert_int_equal(s.keys[3].kind, SS_GK_PHASE);
	assert_int_equal(s.keys[4].kind, SS_GK_MODEL);
	assert_int_equal(s.keys[5].kind, SS_GK_META);
	assert_string_equal(s.keys[5].meta, "run id");
	assert_string_equal(s.keys[5].name, "meta.run id");
	assert_int_equal(s.keys[6].kind, SS_GK_OSL);
	ss_group_spec_release(&s);

	assert_int_equal(ss_group_spec_parse("osl", &s, err, sizeof(err)), SS_GP_OK);
	assert_int_equal(s.n, 1);
	ss_group_spec_release(&s);
	assert_int_equal(ss_group_spec_parse("reasoning,concurrency", &s, err, sizeof(err)),
			 SS_GP_OK);
	assert_int_equal(s.keys[0].kind, SS_GK_REASONING);
	assert_int_equal(s.keys[1].kind, SS_GK_CONCURRENCY);
	ss_group_spec_release(&s);

	assert_int_equal(ss_group_spec_parse("input,bogus", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_non_null(strstr(err, "unknown key 'bogus'"));
	assert_null(s.keys);
	assert_int_equal(ss_group_spec_parse("", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_non_null(strstr(err, "empty key"));
	assert_int_equal(ss_group_spec_parse("input,,k", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_int_equal(ss_group_spec_parse("k,", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_int_equal(ss_group_spec_parse("meta.", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_int_equal(ss_group_spec_parse("Input", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_int_equal(ss_group_spec_parse("k,engine,k", &s, err, sizeof(err)), SS_GP_USAGE);
	assert_non_null(strstr(err, "'k' given twice"));
	/* two different meta fields are two keys */
	assert_int_equal(ss_group_spec_parse("meta.a,meta.b", &s, err, sizeof(err)), SS_GP_OK);
	ss_group_spec_release(&s);

	ss_alloc_fail_at(2, 1);
	assert_int_equal(ss_group_spec_parse("input,k", &s, err, sizeof(err)), SS_GP_NOMEM);
	ss_alloc_fail_at(0, 0);
}

static void test_compare_text(void **state)
{
	struct ss_kv n = kv_null(), t = kv_bool(true), f = kv_bool(false), i4 = kv_int(4),
		     neg = kv_int(-12), s = kv_str("base.jsonl"), s4 = kv_str("4");

	(void)state;
	assert_true(ss_kv_matches_text(&n, "null"));
	assert_false(ss_kv_matches_text(&n, "NULL"));
	assert_false(ss_kv_matches_text(&n, ""));
	assert_true(ss_kv_matches_text(&t, "true"));
	assert_false(ss_kv_matches_text(&t, "false"));
	assert_true(ss_kv_matches_text(&f, "false"));
	assert_true(ss_kv_matches_text(&i4, "4"));
	assert_true(ss_kv_matches_text(&i4, "+4"));
	assert_true(ss_kv_matches_text(&i4, "004"));
	assert_false(ss_kv_matches_text(&i4, "4.0"));
	assert_false(ss_kv_matches_text(&i4, "4 "));
	assert_false(ss_kv_matches_text(&i4, "x4"));
	assert_false(ss_kv_matches_text(&i4, "99999999999999999999"));
	assert_true(ss_kv_matches_text(&neg, "-12"));
	assert_true(ss_kv_matches_text(&s, "base.jsonl"));
	assert_false(ss_kv_matches_text(&s, "base.json"));
	assert_true(ss_kv_matches_text(&s4, "4"));
	assert_false(ss_kv_matches_text(&s4, "+4"));
}

static void test_text(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct ss_kv v[] = {kv_null(), kv_bool(true), kv_int(-7), kv_str("a\"b")};

	(void)state;
	for (int i = 0; i < 4; i++) {
		ss_kv_add_text(&b, &v[i]);
		ss_buf_addc(&b, ' ');
	}
	assert_false(b.failed);
	assert_string_equal(b.data, "null true -7 a\"b ");
	ss_buf_release(&b);
}

static void test_table(void **state)
{
	struct ss_group_table t;
	size_t id, order[6];
	bool is_new;
	char buf[8];
	/* (input, k) tuples in arrival order */
	struct ss_kv rows[][2] = {
		{kv_str("b.jsonl"), kv_int(4)}, {kv_str("b.jsonl"), kv_int(4)},
		{kv_str("a.jsonl"), kv_null()}, {kv_str("b.jsonl"), kv_int(2)},
		{kv_str("a.jsonl"), kv_int(4)}, {kv_str("a.jsonl"), kv_null()},
		{kv_str("b.jsonl"), kv_int(4)}, {kv_null(), kv_int(9)},
	};
	size_t want_id[] = {0, 0, 1, 2, 3, 1, 0, 4};

	(void)state;
	ss_group_table_init(&t, 2);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* the table copies strings: hand it a buffer that changes afterwards */
		struct ss_kv tuple[2] = {rows[i][0], rows[i][1]};

		if (tuple[0].type == SS_KV_STR) {
			memcpy(buf, tuple[0].s, tuple[0].len);
			tuple[0].s = buf;
		}
		assert_true(ss_group_table_id(&t, tuple, &id, &is_new));
		assert_int_equal(id, want_id[i]);
		memset(buf, 'x', sizeof(buf));
	}
	assert_int_equal(t.n, 5);
	assert_true(ss_group_table_sorted(&t, order));
	/* null < "a.jsonl" < "b.jsonl"; then null < 2 < 4 */
	assert_int_equal(order[0], 4); /* (null, 9) */
	assert_int_equal(order[1], 1); /* (a, null) */
	assert_int_equal(order[2], 3); /* (a, 4) */
	assert_int_equal(order[3], 2); /* (b, 2) */
	assert_int_equal(order[4], 0); /* (b, 4) */
	assert_int_equal(ss_group_table_key(&t, 3)[0].len, 7);
	assert_memory_equal(ss_group_table_key(&t, 3)[0].s, "a.jsonl", 7);
	ss_group_table_release(&t);
}

static void test_table_many(void **state)
{
	/* Enough groups to rehash several times; ids stay stable. */
	struct ss_group_table t;
	size_t id, *order;
	bool is_new;

	(void)state;
	ss_group_table_init(&t, 1);
	for (int round = 0; round < 2; round++)
		for (int64_t i = 0; i < 1000; i++) {
			struct ss_kv v = kv_int((i * 7919) % 1000 - 500);

			assert_true(ss_group_table_id(&t, &v, &id, &is_new));
			assert_int_equal(id, (size_t)i);
			assert_int_equal(is_new, round == 0);
		}
	order = ss_reallocarray(NULL, t.n, sizeof(*order));
	assert_non_null(order);
	assert_true(ss_group_table_sorted(&t, order));
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(ss_group_table_key(&t, order[i])->i, (int64_t)i - 500);
	ss_free(order);
	ss_group_table_release(&t);
}

static void test_table_oom(void **state)
{
	struct ss_group_table t;
	struct ss_kv v = kv_str("x");
	size_t id;
	bool is_new;

	(void)state;
	for (uint64_t n = 1; n <= 4; n++) {
		ss_group_table_init(&t, 1);
		ss_alloc_fail_at(n, 1);
		(void)ss_group_table_id(&t, &v, &id, &is_new);
		ss_alloc_fail_at(0, 0);
		assert_true(ss_group_table_id(&t, &v, &id, &is_new));
		assert_int_equal(id, 0);
		assert_int_equal(t.n, 1);
		ss_group_table_release(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_order),  cmocka_unit_test(test_string_with_nul),
		cmocka_unit_test(test_osl_buckets),  cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_compare_text), cmocka_unit_test(test_text),
		cmocka_unit_test(test_table),        cmocka_unit_test(test_table_many),
		cmocka_unit_test(test_table_oom),    cmocka_unit_test(test_quarters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
