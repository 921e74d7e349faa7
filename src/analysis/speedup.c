#include "analysis/speedup.h"

#include <math.h>
#include <string.h>

#include "analysis/bootstrap.h"

const char *const ss_speedup_names[SS_SR_COUNT] = {
	"speedup", "latency_speedup", "ttft_ratio",
};

static void set_ratio(struct ss_ratio_est *r, bool has_num, double num, bool has_den, double den)
{
	memset(r, 0, sizeof(*r));
	if (has_num && has_den)
		r->has = ss_boot_ratio(num, den, &r->value);
}

bool ss_draft_cost(double tau, double speedup, int64_t k, double *c)
{
	double v;

	if (k < 1 || !(speedup > 0.0) || !isfinite(tau))
		return false;
	v = (tau / speedup - 1.0) / (double)k;
	if (!isfinite(v))
		return false;
	*c = v;
	return true;
}

void ss_speedup_compute(const struct ss_timing_stats *g, const struct ss_timing_stats *base,
			bool has_tau, double tau, bool has_k, int64_t k, struct ss_speedup *out)
{
	memset(out, 0, sizeof(*out));
	set_ratio(&out->r[SS_SR_SPEEDUP], base->has_x, base->x, g->has_x, g->x);
	set_ratio(&out->r[SS_SR_LATENCY], base->has[SS_T_LATENCY], base->s[SS_T_LATENCY].avg,
		  g->has[SS_T_LATENCY], g->s[SS_T_LATENCY].avg);
	set_ratio(&out->r[SS_SR_TTFT], g->has[SS_T_TTFT], g->s[SS_T_TTFT].avg,
		  base->has[SS_T_TTFT], base->s[SS_T_TTFT].avg);
	if (has_tau && has_k && out->r[SS_SR_SPEEDUP].has &&
	    ss_draft_cost(tau, out->r[SS_SR_SPEEDUP].value, k, &out->draft_cost)) {
		out->has_cost = true;
		out->cost_negative = out->draft_cost < 0.0;
	}
}

void ss_speedup_ci(struct ss_speedup *sp, const double *rows, const double *base_rows,
		   uint32_t B, double level, double *scratch)
{
	/* numerator and denominator rows, and the column, of each ratio */
	const double *num[SS_SR_COUNT] = {base_rows, base_rows, rows};
	const double *den[SS_SR_COUNT] = {rows, rows, base_rows};
	static const unsigned col[SS_SR_COUNT] = {SS_TB_X, SS_TB_LATENCY, SS_TB_TTFT};

	for (int i = 0; i < SS_SR_COUNT; i++) {
		struct ss_ratio_est *r = &sp->r[i];

		if (!r->has)
			continue;
		r->has_ci = ss_boot_ratio_interval(num[i], den[i], B, SS_TB_COUNT, col[i], level,
						   scratch, &r->lo, &r->hi);
		r->significant = r->has_ci && (r->lo > 1.0 || r->hi < 1.0);
	}
}

enum ss_cost_source ss_cost_choose(bool given, double given_cost, const struct ss_speedup *sp,
				   double *cost)
{
	if (given) {
		*cost = given_cost;
		return SS_COST_GIVEN;
	}
	if (sp && sp->has_cost) {
		*cost = sp->draft_cost;
		return SS_COST_MEASURED;
	}
	return SS_COST_NONE;
}
