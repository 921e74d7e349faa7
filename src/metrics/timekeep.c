#include "metrics/timekeep.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

void ss_timekeep_init(struct ss_timekeep *tk)
{
	memset(tk, 0, sizeof(*tk));
	for (int t = 0; t < SS_T_COUNT; t++)
		ss_timecol_init(&tk->col[t]);
}

void ss_timekeep_release(struct ss_timekeep *tk)
{
	for (int t = 0; t < SS_T_COUNT; t++)
		ss_timecol_release(&tk->col[t]);
	ss_free(tk->draw);
	ss_timekeep_init(tk);
}

void ss_timekeep_keep_draws(struct ss_timekeep *tk)
{
	tk->keep_draws = true;
}

bool ss_timekeep_add(struct ss_timekeep *tk, const struct ss_timing *t)
{
	bool dec;

	if (!ss_timing_any(t))
		return true;
	/* room everywhere first, so that a failure leaves the set as it was */
	for (int i = 0; i < SS_T_COUNT; i++)
		if (t->has[i] && !ss_timecol_reserve(&tk->col[i], 1))
			return false;
	if (tk->keep_draws && !SS_ALLOC_GROW(tk->draw, tk->n + 1, tk->draw_cap))
		return false;
	for (int i = 0; i < SS_T_COUNT; i++) {
		if (!t->has[i])
			continue;
		ss_timecol_put(&tk->col[i], t->ms[i]);
		tk->sum[i] += t->ms[i];
	}
	dec = t->has[SS_T_LATENCY] && t->has[SS_T_TTFT] && t->has_output && t->output_tokens >= 2;
	if (dec) {
		tk->dec_ms += t->ms[SS_T_LATENCY] - t->ms[SS_T_TTFT];
		tk->dec_tokens += (uint64_t)t->output_tokens - 1;
		tk->dec_requests++;
	}
	if (tk->keep_draws) {
		struct ss_tdraw *d = &tk->draw[tk->n];

		d->lat = t->has[SS_T_LATENCY] ? t->ms[SS_T_LATENCY] : NAN;
		d->ttft = t->has[SS_T_TTFT] ? t->ms[SS_T_TTFT] : NAN;
		d->dec_tokens = dec ? (uint64_t)t->output_tokens - 1 : 0;
	}
	tk->n++;
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
