/*
 * report.c - the four aggregate reports of report.h, each composed here
 * from its sections in the order SPEC 4, 7 and 10.4 give: the callers ask
 * for one render per format and compose nothing.
 */
#include "report/report.h"

#include "report/jsonw.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/server_report.h"

/* Whether `analysis` has a member: --speedup alone writes only `timing`. */
static bool has_analysis_key(const struct ss_analysis_opts *o)
{
	return o->positions || o->ci || o->group_by.n || o->windows || o->outliers ||
	       o->definitions;
}

void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		    const struct ss_server_results *srv, const char *version)
{
	struct ss_jsonw w;

	ss_jsonw_init(&w, out);
	ss_jsonw_begin_object(&w, NULL);
	ss_report_json_specscan(&w, a, version);
	ss_report_add_results(&w, &a->main);
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_jsonw_begin_object(&w, "warmup_metrics");
		ss_report_add_metrics(&w, &a->warmup);
		ss_jsonw_end_object(&w);
	}
	if (an && an->any && an->opts->speedup)
		ss_sec_timing_json(&w, &an->main);
	if (an && an->any && has_analysis_key(an->opts))
		ss_report_json_analysis(&w, a, an);
	if (srv)
		ss_report_json_server(&w, srv);   /* last (SPEC 10.4) */
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}

void ss_report_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_server_results *srv)
{
	ss_report_csv_results(out, a);
	ss_report_csv_analysis(out, a, an);
	if (srv)
		ss_report_server_csv(out, srv);
}

void ss_report_table(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		     const struct ss_server_results *srv, bool utf8, bool color)
{
	ss_report_text_spec_decode(out, &a->main, utf8, color);
	ss_report_hist_line(out, &a->main, "  ");
	if (an && an->any)
		ss_report_text_analysis(out, a, an, utf8);
	ss_report_accounting_line(out, a, "  ");
	if (an && an->any && an->opts->group_by.n)
		ss_report_text_groups(out, a, an, utf8, color);
	if (an && an->any && an->opts->speedup)
		ss_sec_speedup_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any && an->opts->outliers)
		ss_sec_outliers_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any && an->opts->definitions)
		ss_sec_defs_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (srv)
		ss_report_server_text(out, srv, false);
}

void ss_report_markdown(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv)
{
	ss_report_md_body(out, a, an);
	if (srv)
		ss_report_server_text(out, srv, true);
}
