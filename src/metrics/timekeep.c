#include "metrics/timekeep.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

void ss_timekeep_init(struct ss_timekeep *tk)
{
	memset(tk, 0, sizeof(*tk));
}

void ss_timekeep_release(struct ss_timekeep *tk)
{
	ss_free(tk->s);
	ss_timekeep_init(tk);
}

bool ss_timekeep_add(struct ss_timekeep *tk, const struct ss_timing *t)
{
	static const uint64_t bit[SS_T_COUNT] = {SS_TS_TTFT, SS_TS_ITL, SS_TS_LATENCY};
	struct ss_tsample x;

	if (!ss_timing_any(t))
		return true;
	if (!SS_ALLOC_GROW(tk->s, tk->n + 1, tk->cap))
		return false;
	memset(&x, 0, sizeof(x));
	for (int i = 0; i < SS_T_COUNT; i++) {
		if (!t->has[i])
			continue;
		x.ms[i] = t->ms[i];
		x.flags |= bit[i];
	}
	if (t->has[SS_T_LATENCY] && t->has[SS_T_TTFT] && t->has_output && t->output_tokens >= 2) {
		x.dec_ms = t->ms[SS_T_LATENCY] - t->ms[SS_T_TTFT];
		x.dec_tokens = (uint64_t)t->output_tokens - 1;
		x.flags |= SS_TS_DECODE;
	}
	tk->s[tk->n++] = x;
	return true;
}

void ss_timekeep_note_k(struct ss_timekeep *tk, bool has_k, int64_t k)
{
	if (tk->kstate == SS_KS_MIXED)
		return;
	if (!has_k || (tk->kstate == SS_KS_ONE && tk->k != k)) {
		tk->kstate = SS_KS_MIXED;
		return;
	}
	tk->kstate = SS_KS_ONE;
	tk->k = k;
}

bool ss_timekeep_k(const struct ss_timekeep *tk, int64_t *k)
{
	if (tk->kstate != SS_KS_ONE)
		return false;
	*k = tk->k;
	return true;
}
