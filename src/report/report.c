/*
 * report.c - the four aggregate reports of report.h, each composed here
 * from its sections in the order SPEC 4, 7 and 10.4 give: the callers ask
 * for one render per format and compose nothing.
 */
#include "report/report.h"

#include "report/jsonw.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

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
	ss_sec_read_json(&w, &(struct ss_report_ctx){a, an, false, false}, version);
	ss_sec_results_json(&w, &(struct ss_report_ctx){a, an, false, false});
	if (an && an->any && an->opts->speedup)
		ss_sec_timing_json(&w, &an->main);
	if (an && an->any && has_analysis_key(an->opts))
		ss_report_json_analysis(&w, a, an);
	if (srv)
		ss_sec_server_json(&w, srv);   /* last (SPEC 10.4) */
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}

void ss_report_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_server_results *srv)
{
	ss_sec_results_csv(out, &(struct ss_report_ctx){a, an, false, false});
	ss_report_csv_analysis(out, a, an);
	if (srv) {
		ss_sec_server_csv(out, srv);
		ss_sec_server_groups_csv(out, srv);
	}
}

void ss_report_table(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		     const struct ss_server_results *srv, bool utf8, bool color)
{
	/* issue 34: with --compare the comparison leads; the pooled table is
	 * said to be pooled (it describes no one group) */
	bool lead = an && an->any && an->opts->group_by.n && an->has_baseline;
	size_t from = out->len;

	if (lead) {
		ss_report_text_groups(out, a, an, utf8, color);
		ss_buf_addf(out, "\nPooled: every group's requests together (%zu groups); "
			    "the figures below describe no one group.\n", a->groups.n);
	}
	/* prose at the console's width (issue 34), but SPEC 4.3's section,
	 * which keeps its layout */
	ss_tab_fit_lines(out, from);
	ss_sec_results_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any)
		ss_report_text_analysis(out, a, an, utf8);
	ss_sec_read_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any && an->opts->group_by.n && !lead)
		ss_report_text_groups(out, a, an, utf8, color);
	if (an && an->any && an->opts->speedup)
		ss_sec_speedup_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any && an->opts->outliers)
		ss_sec_outliers_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (an && an->any && an->opts->definitions)
		ss_sec_defs_text(out, &(struct ss_report_ctx){a, an, utf8, color});
	if (srv) {
		from = out->len;   /* the server section's lines and notes */
		ss_sec_server_text(out, srv);
		ss_sec_server_groups_text(out, srv, utf8, color);
		ss_tab_fit_lines(out, from);
	}
}

void ss_report_markdown(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv)
{
	ss_report_md_body(out, a, an);
	if (srv) {
		ss_sec_server_md(out, srv);
		ss_sec_server_groups_md(out, srv);
	}
}
