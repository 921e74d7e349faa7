#include "analysis/timestats.h"

#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"

bool ss_timing_stats_compute(const struct ss_timekeep *tk, struct ss_timing_stats *out)
{
	double *scratch;
	size_t most = 0;

	memset(out, 0, sizeof(*out));
	out->requests = tk->n;
	if (tk->dec_tokens > 0) {
		out->has_x = true;
		out->x = tk->dec_ms / ss_ratio(tk->dec_tokens, 1);
	}
	out->x_requests = tk->dec_requests;
	for (int t = 0; t < SS_T_COUNT; t++)
		most = tk->col[t].n > most ? tk->col[t].n : most;
	if (most == 0)
		return true;
	scratch = ss_reallocarray(NULL, most, sizeof(*scratch));
	if (!scratch)
		return false;
	/* each column: the present values in input order and their sum (3.1) */
	for (int t = 0; t < SS_T_COUNT; t++) {
		if (tk->col[t].n == 0)
			continue;
		out->has[t] = true;
		ss_stats_compute_sum(tk->col[t].v, tk->col[t].n, tk->sum[t], scratch, &out->s[t]);
	}
	ss_free(scratch);
	return true;
}
