/*
 * analysis_json.c - the `analysis` key of the aggregate JSON (SPEC 7):
 * positions, intervals, groups, windows, outliers and definitions, laid out as json.dumps(indent=2) lays
 * out the rest of the file (through the writer of jsonw.h).
 */
#include "report/jsonw.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

void ss_report_json_analysis(struct ss_jsonw *w, const struct ss_agg *a,
			     const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o = an->opts;

	ss_jsonw_begin_object(w, "analysis");
	if (o->positions)
		ss_sec_positions_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->ci)
		ss_sec_intervals_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->group_by.n)
		ss_sec_groups_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->windows)
		ss_sec_windows_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->outliers)
		ss_sec_outliers_json(w, &(struct ss_report_ctx){a, an, false, false});
	/* last of the sub-keys (SPEC 7.12) */
	if (o->definitions)
		ss_sec_defs_json(w, &(struct ss_report_ctx){a, an, false, false});
	ss_jsonw_end_object(w);
}
