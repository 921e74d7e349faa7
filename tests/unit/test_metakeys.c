/*
 * test_metakeys.c - the --group-by meta.NAME values (SPEC 7.3): read by
 * the engines in their walk over a line's metadata object (the outcome's
 * `meta`), and received by the run's group keys (run/reqkeys.c). The
 * expected values are worked out by hand from the lines written here:
 * an integer literal that fits 64 bits is an integer, a string is its
 * unescaped bytes, a boolean is itself, anything else is null; the last of
 * a repeated key counts (SPEC 1.2); a nested key is not a top-level one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/groupkey.h"
#include "engines/request.h"
#include "json/json.h"
#include "run/reqkeys.h"

/* The sixteen names the first line is read for, in this order. */
enum {
	K_S, K_ESC, K_I, K_BIG, K_OVER, K_NEG0, K_FLT, K_EXP, K_B, K_NUL, K_OBJ, K_REP, K_KEY,
	K_ABSENT, K_PHASE, K_CANCEL, K_N
};
static const char *const names16[K_N] = {
	"s", "esc", "i", "big", "over", "neg0", "flt", "exp", "b", "nul", "obj", "rep", "key",
	"absent", "benchmark_phase", "was_cancelled"
};

/* A line padded as the shim needs (SSJ_PADDING bytes after it). */
static char line_buf[4096];

static struct ss_outcome process(struct ss_processor *p, const char *line)
{
	size_t n = strlen(line);
	const char *parts[1] = {line_buf};
	size_t lens[1] = {n};
	struct ss_request_text req;
	struct ss_outcome o;

	assert_true(n + SSJ_PADDING < sizeof(line_buf));
	memcpy(line_buf, line, n);
	memset(line_buf + n, ' ', SSJ_PADDING);
	memset(&req, 0, sizeof(req));
	req.parts = parts;
	req.lens = lens;
	req.nparts = 1;
	req.line = 1;
	req.input_name = "t.jsonl";
	assert_true(ss_process(p, &req, &o));
	return o;
}

static struct ss_processor *proc_with(const char *const *names, size_t n, bool want_time)
{
	struct ss_process_opts po;
	struct ss_processor *p;

	memset(&po, 0, sizeof(po));
	po.force_kind = SS_KIND_UNKNOWN;
	po.only_engine = SS_ENGINE_NONE;
	po.want_time = want_time;
	po.meta_names = names;
	po.meta_n = n;
	p = ss_processor_new(&po);
	assert_non_null(p);
	return p;
}

static void assert_str(const struct ss_meta_value *v, const char *want, size_t len)
{
	assert_int_equal(v->type, SS_META_STR);
	assert_int_equal(v->len, len);
	assert_memory_equal(v->s, want, len);
}

static void assert_int(const struct ss_meta_value *v, int64_t want)
{
	assert_int_equal(v->type, SS_META_INT);
	assert_true(v->i == want);
}

/* Every type and rule in one metadata object. */
static void test_scan_types(void **state)
{
	struct ss_processor *p = proc_with(names16, K_N, false);
	struct ss_outcome o = process(
		p, "{\"metadata\":{\"s\":\"plain\",\"esc\":\"caf\\u00e9\\t\\\"q\\\"\","
		   "\"i\":42,\"big\":9223372036854775807,\"over\":9223372036854775808,"
		   "\"neg0\":-0,\"flt\":1.0,\"exp\":1e3,\"b\":false,\"nul\":null,"
		   "\"obj\":{\"s\":\"inner\",\"i\":5},\"rep\":1,\"k\\u0065y\":7,\"rep\":\"two\","
		   "\"benchmark_phase\":\"warmup\",\"was_cancelled\":false},\"metrics\":{}}");
	const struct ss_meta_value *m = o.meta;

	(void)state;
	assert_non_null(m);
	assert_int_equal(o.nmeta, K_N);
	assert_str(&m[K_S], "plain", 5);   /* not the nested "inner" */
	/* c a f, U+00E9 as two bytes, a tab, "q" in quotes: 9 bytes */
	assert_str(&m[K_ESC], "caf\xc3\xa9\t\"q\"", 9);
	assert_int(&m[K_I], 42);
	assert_int(&m[K_BIG], INT64_MAX);
	assert_int_equal(m[K_OVER].type, SS_META_NULL);   /* 2^63 does not fit */
	assert_int(&m[K_NEG0], 0);
	assert_int_equal(m[K_FLT].type, SS_META_NULL);    /* a fraction: a float */
	assert_int_equal(m[K_EXP].type, SS_META_NULL);    /* an exponent: a float */
	assert_int_equal(m[K_B].type, SS_META_BOOL);
	assert_false(m[K_B].b);
	assert_int_equal(m[K_NUL].type, SS_META_NULL);
	assert_int_equal(m[K_OBJ].type, SS_META_NULL);
	assert_str(&m[K_REP], "two", 3);                  /* the last of two */
	assert_int(&m[K_KEY], 7);                         /* the key unescaped */
	assert_int_equal(m[K_ABSENT].type, SS_META_NULL);
	/* a group key named as a key the scan reads: both see the value */
	assert_str(&m[K_PHASE], "warmup", 6);
	assert_int_equal(o.phase, SS_PHASE_WARMUP);
	assert_int_equal(m[K_CANCEL].type, SS_META_BOOL);
	assert_false(m[K_CANCEL].b);
	assert_int_not_equal(o.status, SS_ST_CANCELLED);
	ss_processor_free(p);
}

/* was_cancelled and the times, read as group keys too, still decide. */
static void test_scan_shared_keys(void **state)
{
	static const char *const names[] = {"was_cancelled", "request_end_ns", "credit_phase"};
	struct ss_processor *p = proc_with(names, 3, true);
	struct ss_outcome o;

	(void)state;
	o = process(p, "{\"metadata\":{\"was_cancelled\":true,\"request_end_ns\":1500,"
		       "\"credit_phase\":\"warmup\"},\"metrics\":{}}");
	assert_int_equal(o.status, SS_ST_CANCELLED);
	assert_int_equal(o.meta[0].type, SS_META_BOOL);
	assert_true(o.meta[0].b);
	assert_int(&o.meta[1], 1500);
	assert_str(&o.meta[2], "warmup", 6);
	assert_int_equal(o.phase, SS_PHASE_WARMUP);   /* credit_phase, no benchmark_phase */
	assert_true(o.timed);
	assert_true(o.time_ns == 1500);
	/* a float end time is no integer: no key value, and untimed */
	o = process(p, "{\"metadata\":{\"request_end_ns\":1.5e3,\"credit_phase\":7},"
		       "\"metrics\":{}}");
	assert_int_equal(o.meta[1].type, SS_META_NULL);
	assert_false(o.timed);
	assert_int(&o.meta[2], 7);                    /* a key value, but no phase */
	assert_int_equal(o.phase, SS_PHASE_PROFILING);
	ss_processor_free(p);
}

/* Metadata that is no object, a repeated metadata, none, the next line. */
static void test_scan_lines(void **state)
{
	static const char *const names[] = {"s", "i"};
	struct ss_processor *p = proc_with(names, 2, false);
	struct ss_outcome o;

	(void)state;
	o = process(p, "{\"metadata\":{\"s\":\"x\",\"i\":1},\"metrics\":{}}");
	assert_str(&o.meta[0], "x", 1);
	assert_int(&o.meta[1], 1);
	/* not an object: both null, nothing of the line before */
	o = process(p, "{\"metadata\":[{\"s\":\"x\"}],\"metrics\":{}}");
	assert_non_null(o.meta);
	assert_int_equal(o.meta[0].type, SS_META_NULL);
	assert_int_equal(o.meta[1].type, SS_META_NULL);
	/* the last metadata counts, even when it is not an object */
	o = process(p, "{\"metadata\":{\"s\":\"first\"},\"metrics\":{},\"metadata\":{\"i\":3}}");
	assert_int_equal(o.meta[0].type, SS_META_NULL);
	assert_int(&o.meta[1], 3);
	o = process(p, "{\"metadata\":{\"s\":\"first\"},\"metrics\":{},\"metadata\":\"s\"}");
	assert_int_equal(o.meta[0].type, SS_META_NULL);
	assert_int_equal(o.meta[1].type, SS_META_NULL);
	/* no metadata: no values at all */
	o = process(p, "{\"metrics\":{}}");
	assert_null(o.meta);
	ss_processor_free(p);
}

/* A processor asked for no names reads none. */
static void test_scan_none_asked(void **state)
{
	struct ss_processor *p = proc_with(NULL, 0, false);
	struct ss_outcome o = process(p, "{\"metadata\":{\"s\":\"x\"},\"metrics\":{}}");

	(void)state;
	assert_null(o.meta);
	assert_int_equal(o.nmeta, 0);
	ss_processor_free(p);
}

/* The run's side: the names asked for, and the values received in order. */
static void test_keybuf_receives(void **state)
{
	struct ss_group_spec spec;
	struct ss_keybuf kb;
	struct ss_outcome o;
	struct ss_meta_value mv[4];
	struct ss_kv key[5];
	const char *names[SS_GROUP_MAX_KEYS];
	char err[200];
	char text[] = "ab";

	(void)state;
	assert_int_equal(ss_group_spec_parse("meta.a,phase,meta.b,meta.c,meta.d", &spec, err,
					     sizeof(err)),
			 SS_GP_OK);
	assert_int_equal(ss_keybuf_meta_names(&spec, names), 4);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "b");
	assert_string_equal(names[2], "c");
	assert_string_equal(names[3], "d");

	memset(&o, 0, sizeof(o));
	memset(mv, 0, sizeof(mv));
	o.phase = SS_PHASE_PROFILING;
	mv[0].type = SS_META_INT;
	mv[0].i = -5;
	mv[1].type = SS_META_STR;
	mv[1].s = text;
	mv[1].len = 2;
	mv[2].type = SS_META_BOOL;
	mv[2].b = true;
	o.meta = mv;
	o.nmeta = 4;
	ss_keybuf_init(&kb);
	assert_true(ss_keybuf_add(&kb, &spec, "in.jsonl", &o));
	/* the same outcome with no metadata: every meta key null */
	o.meta = NULL;
	o.nmeta = 0;
	assert_true(ss_keybuf_add(&kb, &spec, "in.jsonl", &o));
	text[0] = 'z';   /* the keybuf holds its own copy */

	ss_keybuf_tuple(&kb, spec.n, 0, key);
	assert_int_equal(key[0].type, SS_KV_INT);
	assert_true(key[0].i == -5);
	assert_int_equal(key[1].type, SS_KV_STR);
	assert_int_equal(key[1].len, 9);
	assert_memory_equal(key[1].s, "profiling", 9);
	assert_int_equal(key[2].type, SS_KV_STR);
	assert_int_equal(key[2].len, 2);
	assert_memory_equal(key[2].s, "ab", 2);
	assert_int_equal(key[3].type, SS_KV_BOOL);
	assert_true(key[3].b);
	assert_int_equal(key[4].type, SS_KV_NULL);

	ss_keybuf_tuple(&kb, spec.n, 1, key);
	assert_int_equal(key[0].type, SS_KV_NULL);
	assert_int_equal(key[1].type, SS_KV_STR);
	assert_int_equal(key[2].type, SS_KV_NULL);
	assert_int_equal(key[3].type, SS_KV_NULL);
	assert_int_equal(key[4].type, SS_KV_NULL);
	ss_keybuf_release(&kb);
	ss_group_spec_release(&spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_types),
		cmocka_unit_test(test_scan_shared_keys),
		cmocka_unit_test(test_scan_lines),
		cmocka_unit_test(test_scan_none_asked),
		cmocka_unit_test(test_keybuf_receives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
