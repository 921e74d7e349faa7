/*
 * results_json.c - the JSON of one result set and its accounting (SPEC
 * 4.1), the pieces the aggregate JSON writes for the whole run and the
 * `analysis` key writes again for each group (SPEC 7.3).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/jsonw.h"
#include "report/report_int.h"

/* A metric's unit-and-values object `{"unit": ..., "avg": ...}` (run-level)
 * or with all statistics (per-request). */
static void add_metric_obj(struct ss_jsonw *w, const struct ss_results *r, int m)
{
	const struct ss_stats *st = &r->stats[m];

	ss_jsonw_begin_object(w, ss_metric_table[m].tag);
	ss_jsonw_str(w, "unit", ss_metric_table[m].unit);
	ss_jsonw_double(w, "avg", st->avg);
	if (ss_metric_table[m].per_request) {
		ss_jsonw_double(w, "p1", st->p1);
		ss_jsonw_double(w, "p5", st->p5);
		ss_jsonw_double(w, "p10", st->p10);
		ss_jsonw_double(w, "p25", st->p25);
		ss_jsonw_double(w, "p50", st->p50);
		ss_jsonw_double(w, "p75", st->p75);
		ss_jsonw_double(w, "p90", st->p90);
		ss_jsonw_double(w, "p95", st->p95);
		ss_jsonw_double(w, "p99", st->p99);
		ss_jsonw_double(w, "min", st->min);
		ss_jsonw_double(w, "max", st->max);
		ss_jsonw_double(w, "std", st->std);
		ss_jsonw_u64(w, "count", (uint64_t)st->count);
		ss_jsonw_double(w, "sum", st->sum);
	}
	ss_jsonw_end_object(w);
}

void ss_report_add_metrics(struct ss_jsonw *w, const struct ss_results *r)
{
	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m])
			add_metric_obj(w, r, m);
}

static bool hist_empty(const struct ss_results *r)
{
	for (size_t i = 0; i < r->hist_len; i++)
		if (r->hist[i])
			return false;
	return true;
}

void ss_report_add_accounting(struct ss_jsonw *w, const char *key, uint64_t total,
			      const uint64_t status[SS_ST_COUNT])
{
	ss_jsonw_begin_object(w, key);
	ss_jsonw_u64(w, "total", total);
	for (int s = 0; s < SS_ST_COUNT; s++)
		ss_jsonw_u64(w, ss_status_name((enum ss_status)s), status[s]);
	ss_jsonw_end_object(w);
}

void ss_report_add_results(struct ss_jsonw *w, const struct ss_results *r)
{
	if (!hist_empty(r)) {
		char num[24];

		ss_jsonw_begin_object(w, "pooled_spec_decode_acceptance_histogram");
		for (size_t j = 0; j < r->hist_len; j++) {
			if (!r->hist[j])
				continue;
			snprintf(num, sizeof(num), "%zu", j);
			ss_jsonw_i128(w, num, r->hist[j]);
		}
		ss_jsonw_end_object(w);
	}
	ss_report_add_metrics(w, r);
}
