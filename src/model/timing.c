#include "model/timing.h"

#include <math.h>
#include <string.h>

const char *const ss_time_tags[SS_T_COUNT] = {
	"time_to_first_token", "inter_token_latency", "request_latency",
};

void ss_timing_clear(struct ss_timing *t)
{
	memset(t, 0, sizeof(*t));
}

static bool unit_is(const char *unit, size_t len, const char *name)
{
	size_t n = strlen(name);

	return len == n && memcmp(unit, name, n) == 0;
}

bool ss_time_to_ms(double v, const char *unit, size_t unit_len, double *ms)
{
	double x;

	if (!isfinite(v) || v < 0.0 || !unit)
		return false;
	if (unit_is(unit, unit_len, "ns"))
		x = v / 1e6;
	else if (unit_is(unit, unit_len, "us"))
		x = v / 1e3;
	else if (unit_is(unit, unit_len, "ms"))
		x = v;
	else if (unit_is(unit, unit_len, "s"))
		x = v * 1e3;
	else
		return false;
	if (!isfinite(x))  /* a huge value in s */
		return false;
	*ms = x + 0.0;  /* -0.0 reads as 0 */
	return true;
}

bool ss_tokens_of(double v, const char *unit, size_t unit_len, int64_t *c)
{
	/* 2^63 is exact in a double; every integral double below it fits. */
	if (!unit || !unit_is(unit, unit_len, "tokens") || !isfinite(v) || v < 0.0 ||
	    v >= 9223372036854775808.0 || v != floor(v))
		return false;
	*c = (int64_t)v;
	return true;
}

void ss_raw_timer_init(struct ss_raw_timer *rt)
{
	memset(rt, 0, sizeof(*rt));
}

void ss_raw_timer_start(struct ss_raw_timer *rt, int64_t start_perf_ns)
{
	rt->has_start = true;
	rt->start = start_perf_ns;
}

void ss_raw_timer_element(struct ss_raw_timer *rt, bool has_perf, int64_t perf_ns,
			  bool content, bool has_c, int64_t c)
{
	if (has_c && c >= 0) {
		rt->has_c = true;
		rt->c = c;
	}
	if (!has_perf) {
		rt->bad = true;
		rt->elements++;
		return;
	}
	if (rt->elements == 0 || perf_ns < rt->min_perf)
		rt->min_perf = perf_ns;
	rt->last_perf = perf_ns;
	if (content && !rt->has_content) {
		rt->has_content = true;
		rt->content_perf = perf_ns;
	}
	rt->elements++;
}

/* (perf - start) ns in ms, when the difference fits. */
static bool span_ms(int64_t perf, int64_t start, double *ms)
{
	int64_t d;

	if (__builtin_sub_overflow(perf, start, &d) || d < 0)
		return false;
	*ms = (double)d / 1e6;
	return true;
}

void ss_timing_derive_itl(struct ss_timing *t)
{
	double itl;

	if (!t->has[SS_T_LATENCY] || !t->has[SS_T_TTFT] || !t->has_output ||
	    t->output_tokens < 2)
		return;
	itl = (t->ms[SS_T_LATENCY] - t->ms[SS_T_TTFT]) / (double)(t->output_tokens - 1);
	if (isfinite(itl) && itl >= 0.0) {
		t->has[SS_T_ITL] = true;
		t->ms[SS_T_ITL] = itl;
	}
}

void ss_raw_timer_finish(const struct ss_raw_timer *rt, struct ss_timing *out)
{
	ss_timing_clear(out);
	out->has_output = rt->has_c;
	out->output_tokens = rt->c;
	if (!rt->has_start || rt->bad || rt->elements == 0 || rt->min_perf < rt->start)
		return;
	out->has[SS_T_LATENCY] = span_ms(rt->last_perf, rt->start, &out->ms[SS_T_LATENCY]);
	if (rt->has_content)
		out->has[SS_T_TTFT] = span_ms(rt->content_perf, rt->start, &out->ms[SS_T_TTFT]);
	ss_timing_derive_itl(out);
}

void ss_timing_of_raw(bool has_start, int64_t start_perf_ns, const struct ss_raw_element *e,
		      size_t n, struct ss_timing *out)
{
	struct ss_raw_timer rt;

	ss_raw_timer_init(&rt);
	if (has_start)
		ss_raw_timer_start(&rt, start_perf_ns);
	for (size_t i = 0; i < n; i++)
		ss_raw_timer_element(&rt, e[i].has_perf, e[i].perf_ns, e[i].content, e[i].has_c,
				     e[i].c);
	ss_raw_timer_finish(&rt, out);
}

bool ss_reasoning_quarters(bool has_t, int64_t t, bool has_c, int64_t c, int *q)
{
	if (!has_t || !has_c || c < 1 || t < 0 || t > c)
		return false;
	/* ceil(4t / c) in integers: 4t < 2^65 needs the wide type */
	*q = (int)(((unsigned __int128)t * 4 + (unsigned __int128)c - 1) / (unsigned __int128)c);
	return true;
}

bool ss_concurrency_of(const char *text, size_t len, int64_t *out)
{
	uint64_t v = 0;

	if (!text || len == 0 || len > 19)
		return false;
	/* JSON: no sign, no leading zero (and 0 itself is below 1) */
	if (text[0] < '1' || text[0] > '9')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}
