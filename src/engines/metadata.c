/*
 * metadata.c - an AIPerf line's metadata object to its phase and its
 * cancelled flag (SPEC 1.5), and its time (SPEC 7.8).
 */
#include "engines/metadata.h"

#include "engines/payload.h"
#include "util/text.h"

static int phase_of(struct ssj_value *v)
{
	const char *s;
	size_t n;

	if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &s, &n) != SSJ_OK)
		return -1;
	if (ss_key_is(s, n, "warmup"))
		return SS_PHASE_WARMUP;
	if (ss_key_is(s, n, "profiling"))
		return SS_PHASE_PROFILING;
	return -1;
}

/* The lengths of the keys meta_field reads, for ssj_object_foreach_lens. */
#define META_KEY_LENS                                                           \
	(SSJ_LEN_BIT(sizeof("was_cancelled") - 1) |                             \
	 SSJ_LEN_BIT(sizeof("benchmark_phase") - 1) |                           \
	 SSJ_LEN_BIT(sizeof("credit_phase") - 1))
/* ... and those of the times, read only for --windows */
#define META_TIME_LENS                                                          \
	(SSJ_LEN_BIT(sizeof("request_end_ns") - 1) |                            \
	 SSJ_LEN_BIT(sizeof("request_start_ns") - 1))

/* A number's text, or NULL. */
static void number_span(struct ssj_value *v, const char **p, size_t *n)
{
	*p = NULL;
	*n = 0;
	if (ssj_value_type(v) != SSJ_NUMBER || ssj_value_number_text(v, p, n) != SSJ_OK)
		*p = NULL;
}

/*
 * A JSON integer in 0..2^63-1 (SPEC 7.13): decimal digits only (no
 * fraction or exponent: 1e9 is a float to Python), at most 19 of them;
 * `-0` is the integer 0 (SPEC 13, 7.8).
 */
static bool time_of(const char *p, size_t n, int64_t *out)
{
	if (p && n == 2 && p[0] == '-' && p[1] == '0') {
		*out = 0;
		return true;
	}
	return p && n > 0 && n <= 19 && p[0] != '-' && ss_parse_count(p, n, out) == SS_INT_OK;
}

/* A repeated key: the last counts (SPEC 1.2), as each one overwrites. */
static int meta_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct ss_meta_scan *m = ctx;

	if (ss_key_is(key, n, "was_cancelled")) {
		bool b = false;

		m->cancelled = ssj_value_type(v) == SSJ_BOOL &&
			       ssj_value_bool(v, &b) == SSJ_OK && b;
	} else if (ss_key_is(key, n, "benchmark_phase")) {
		m->phase = phase_of(v);
	} else if (ss_key_is(key, n, "credit_phase")) {
		m->credit_phase = phase_of(v);
	} else if (ss_key_is(key, n, "request_end_ns")) {
		number_span(v, &m->end, &m->end_len);
	} else if (ss_key_is(key, n, "request_start_ns")) {
		number_span(v, &m->start, &m->start_len);
	}
	return 0;
}

bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m, bool want_time)
{
	static const struct ss_meta_scan none = SS_META_SCAN_NONE;

	*m = none;
	return ssj_value_type(v) != SSJ_OBJECT ||
	       ssj_object_foreach_lens(v, want_time ? META_KEY_LENS | META_TIME_LENS : META_KEY_LENS,
				       meta_field, m) == SSJ_OK;
}

enum ss_phase ss_meta_phase(const struct ss_meta_scan *m)
{
	if (m->phase >= 0)
		return (enum ss_phase)m->phase;
	if (m->credit_phase >= 0)
		return (enum ss_phase)m->credit_phase;
	return SS_PHASE_PROFILING;
}

bool ss_meta_time(const struct ss_meta_scan *m, int64_t *t_ns)
{
	return time_of(m->end, m->end_len, t_ns) || time_of(m->start, m->start_len, t_ns);
}
