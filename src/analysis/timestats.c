#include "analysis/timestats.h"

#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"

static const uint64_t time_bit[SS_T_COUNT] = {SS_TS_TTFT, SS_TS_ITL, SS_TS_LATENCY};

bool ss_timing_stats_compute(const struct ss_timekeep *tk, struct ss_timing_stats *out)
{
	double *v = NULL, *scratch = NULL;
	double dec_ms = 0.0;
	unsigned __int128 dec_tokens = 0;

	memset(out, 0, sizeof(*out));
	out->requests = tk->n;
	if (tk->n == 0)
		return true;
	v = ss_reallocarray(NULL, tk->n, sizeof(*v));
	scratch = ss_reallocarray(NULL, tk->n, sizeof(*scratch));
	if (!v || !scratch) {
		ss_free(v);
		ss_free(scratch);
		return false;
	}
	for (int t = 0; t < SS_T_COUNT; t++) {
		size_t n = 0;
		double sum = 0.0;

		/* the present values in input order, summed in that order (3.1) */
		for (size_t i = 0; i < tk->n; i++) {
			if (!(tk->s[i].flags & time_bit[t]))
				continue;
			v[n++] = tk->s[i].ms[t];
			sum += tk->s[i].ms[t];
		}
		if (n == 0)
			continue;
		out->has[t] = true;
		ss_stats_compute_sum(v, n, sum, scratch, &out->s[t]);
	}
	for (size_t i = 0; i < tk->n; i++) {
		if (!(tk->s[i].flags & SS_TS_DECODE))
			continue;
		dec_ms += tk->s[i].dec_ms;
		dec_tokens += tk->s[i].dec_tokens;
		out->x_requests++;
	}
	if (dec_tokens > 0) {
		out->has_x = true;
		out->x = dec_ms / ss_ratio(dec_tokens, 1);
	}
	ss_free(v);
	ss_free(scratch);
	return true;
}
