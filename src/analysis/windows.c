/*
 * windows.c - SPEC 7.8's windows from the timeline.
 */
#include "analysis/windows.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"

enum ss_dur_status ss_duration_parse(const char *text, int64_t *ns, char *unit)
{
	uint64_t n = 0, scale;
	size_t i = 0;

	if (!text || text[0] < '0' || text[0] > '9')
		return SS_DUR_SYNTAX;
	for (; text[i] >= '0' && text[i] <= '9'; i++) {
		uint64_t d = (uint64_t)(text[i] - '0');

		if (n > ((uint64_t)INT64_MAX - d) / 10)
			return SS_DUR_OVERFLOW;
		n = n * 10 + d;
	}
	*unit = text[i] ? text[i] : 's';
	if (text[i] && text[i + 1])
		return SS_DUR_SYNTAX;
	switch (*unit) {
	case 's':
		scale = 1000000000u;
		break;
	case 'm':
		scale = 60ull * 1000000000u;
		break;
	case 'h':
		scale = 3600ull * 1000000000u;
		break;
	default:
		return SS_DUR_SYNTAX;
	}
	if (n == 0)
		return SS_DUR_ZERO;
	if (n > (uint64_t)INT64_MAX / scale)
		return SS_DUR_OVERFLOW;
	*ns = (int64_t)(n * scale);
	return SS_DUR_OK;
}

void ss_windows_release(struct ss_windows *w)
{
	ss_free(w->w);
	memset(w, 0, sizeof(*w));
}

/* Each window's ratios, and the summary over the windows with steps. */
static void finish(struct ss_windows *out)
{
	for (size_t i = 0; i < out->nwin; i++) {
		struct ss_window *w = &out->w[i];

		if (w->steps > 0) {
			w->has_al = true;
			w->acceptance_length = 1.0 + ss_ratio((unsigned __int128)w->accepted,
							      (unsigned __int128)w->steps);
		}
		if (w->drafted > 0) {
			w->has_dar = true;
			w->draft_acceptance_rate = ss_ratio((unsigned __int128)w->accepted,
							    (unsigned __int128)w->drafted) * 100.0;
		}
		if (w->al_n) {
			w->has_mean = true;
			w->mean_acceptance_length = w->al_sum / (double)w->al_n;
		}
		if (!w->has_al)
			continue;
		if (!out->has_summary) {
			out->has_summary = true;
			out->min = out->max = out->first = w->acceptance_length;
			out->min_window = i;
		}
		if (w->acceptance_length < out->min) {
			out->min = w->acceptance_length;
			out->min_window = i;
		}
		if (w->acceptance_length > out->max)
			out->max = w->acceptance_length;
		out->last = w->acceptance_length;
	}
}

enum ss_win_status ss_windows_compute(struct ss_windows *out, const struct ss_timeline *tl,
				      int64_t duration_ns)
{
	uint64_t D = (uint64_t)duration_ns, span, nwin;
	int64_t t0, tmax;

	memset(out, 0, sizeof(*out));
	out->duration_ns = duration_ns;
	out->untimed = tl->untimed;
	if (tl->n == 0)
		return SS_WIN_OK;
	t0 = tmax = tl->pts[0].t_ns;
	for (size_t i = 1; i < tl->n; i++) {
		if (tl->pts[i].t_ns < t0)
			t0 = tl->pts[i].t_ns;
		if (tl->pts[i].t_ns > tmax)
			tmax = tl->pts[i].t_ns;
	}
	span = (uint64_t)tmax - (uint64_t)t0;
	nwin = span / D + 1;
	if (nwin > SS_WINDOWS_MAX) {
		/* span < 100,000 x D: D > span / 100,000 ns */
		out->nwin = (size_t)nwin;
		out->suggest_s = span / (SS_WINDOWS_MAX * 1000000000ull) + 1;
		return SS_WIN_TOO_MANY;
	}
	out->w = ss_calloc((size_t)nwin, sizeof(*out->w));
	if (!out->w)
		return SS_WIN_NOMEM;
	out->timed = true;
	out->t0_ns = t0;
	out->nwin = (size_t)nwin;
	for (size_t i = 0; i < tl->n; i++) {
		const struct ss_time_point *p = &tl->pts[i];
		struct ss_window *w = &out->w[((uint64_t)p->t_ns - (uint64_t)t0) / D];

		w->requests++;
		w->steps += p->steps;
		w->accepted += p->accepted;
		w->drafted += p->drafted;
		if (!isnan(p->al)) {
			w->al_sum += p->al;
			w->al_n++;
		}
	}
	finish(out);
	return SS_WIN_OK;
}
