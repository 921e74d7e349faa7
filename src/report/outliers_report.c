/*
 * outliers_report.c - SPEC 7.11's outliers in the JSON, CSV, console and
 * Markdown reports.
 */
#include <string.h>

#include "report/analysis_more.h"
#include "report/grid.h"
#include "report/numfmt.h"
#include "report/report_int.h"

static void json_list(struct ss_jsonw *w, const char *key, const struct ss_outlier *v, size_t n)
{
	ss_jsonw_begin_array(w, key);
	for (size_t i = 0; i < n; i++) {
		ss_jsonw_begin_object(w, NULL);
		if (v[i].input)
			ss_jsonw_str(w, "input", v[i].input);
		ss_jsonw_u64(w, "line", v[i].line);
		if (v[i].model)
			ss_jsonw_str(w, "model", v[i].model);
		ss_jsonw_double(w, "acceptance_length", v[i].al);
		ss_jsonw_i64(w, "steps", v[i].steps);
		if (v[i].has_completion)
			ss_jsonw_i64(w, "completion_tokens", v[i].completion_tokens);
		if (v[i].has_prompt)
			ss_jsonw_i64(w, "prompt_tokens", v[i].prompt_tokens);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

void ss_report_json_outliers(struct ss_jsonw *w, const struct ss_agg *a)
{
	const struct ss_outliers *s = &a->outliers;

	ss_jsonw_begin_object(w, "outliers");
	json_list(w, "lowest", s->low, s->nlow);
	json_list(w, "highest", s->high, s->nhigh);
	ss_jsonw_u64(w, "all_rejected", s->all_rejected);
	ss_jsonw_u64(w, "all_accepted", s->all_accepted);
	ss_jsonw_end_object(w);
}

static void csv_list(struct ss_buf *out, const char *name, const struct ss_outlier *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ss_buf_adds(out, name);
		ss_buf_addc(out, ',');
		ss_buf_add_u64(out, i + 1);
		ss_buf_addc(out, ',');
		if (v[i].input)
			ss_report_csv_cell(out, v[i].input);
		ss_buf_addc(out, ',');
		ss_buf_add_u64(out, v[i].line);
		ss_buf_addc(out, ',');
		if (v[i].model)
			ss_report_csv_cell(out, v[i].model);
		ss_buf_addc(out, ',');
		ss_buf_add_fixed2(out, v[i].al);
		ss_buf_addc(out, ',');
		ss_buf_add_i128(out, v[i].steps);
		ss_buf_addc(out, ',');
		if (v[i].has_completion)
			ss_buf_add_i128(out, v[i].completion_tokens);
		ss_buf_addc(out, ',');
		if (v[i].has_prompt)
			ss_buf_add_i128(out, v[i].prompt_tokens);
		ss_buf_adds(out, "\r\n");
	}
}

void ss_report_csv_outliers(struct ss_buf *out, const struct ss_agg *a)
{
	const struct ss_outliers *s = &a->outliers;

	if (out->len)
		ss_buf_adds(out, "\r\n");
	ss_buf_adds(out, "Outliers,Rank,Input,Line,Model,Acceptance Length,Steps,"
			 "Completion Tokens,Prompt Tokens\r\n");
	csv_list(out, "lowest", s->low, s->nlow);
	csv_list(out, "highest", s->high, s->nhigh);
	ss_buf_adds(out, "\r\nRequests,Count\r\nAll Rejected,");
	ss_buf_add_u64(out, s->all_rejected);
	ss_buf_adds(out, "\r\nAll Accepted,");
	ss_buf_add_u64(out, s->all_accepted);
	ss_buf_adds(out, "\r\n");
}

/* One list as a grid: rank, input, line, model, AL, steps, completion and prompt tokens. */
static void grid_list(struct ss_grid *g, const struct ss_outlier *v, size_t n)
{
	ss_grid_col(g, "#", true);
	ss_grid_col(g, "input", false);
	ss_grid_col(g, "line", true);
	ss_grid_col(g, "model", false);
	ss_grid_col(g, "AL", true);
	ss_grid_col(g, "steps", true);
	ss_grid_col(g, "completion tokens", true);
	ss_grid_col(g, "prompt tokens", true);
	for (size_t i = 0; i < n; i++) {
		ss_grid_begin(g);
		ss_buf_add_u64(&g->text, i + 1);
		ss_grid_end(g);
		ss_grid_begin(g);
		if (v[i].input)
			ss_buf_adds(&g->text, v[i].input);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_add_u64(&g->text, v[i].line);
		ss_grid_end(g);
		ss_grid_begin(g);
		if (v[i].model)
			ss_buf_adds(&g->text, v[i].model);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_add_fixed2_grouped(&g->text, v[i].al);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_add_u64_grouped(&g->text, (uint64_t)v[i].steps);
		ss_grid_end(g);
		ss_grid_begin(g);
		if (v[i].has_completion)
			ss_buf_add_u64_grouped(&g->text, (uint64_t)v[i].completion_tokens);
		ss_grid_end(g);
		ss_grid_begin(g);
		if (v[i].has_prompt)
			ss_buf_add_u64_grouped(&g->text, (uint64_t)v[i].prompt_tokens);
		ss_grid_end(g);
	}
}

static const char *const list_titles[2] = {
	"Lowest acceptance length", "Highest acceptance length"
};

static void counts_line(struct ss_buf *out, const struct ss_outliers *s, const char *prefix)
{
	ss_buf_adds(out, prefix);
	ss_buf_add_u64_grouped(out, s->all_rejected);
	ss_buf_adds(out, s->all_rejected == 1 ? " request" : " requests");
	ss_buf_adds(out, " with every draft token rejected, ");
	ss_buf_add_u64_grouped(out, s->all_accepted);
	ss_buf_adds(out, " with every draft token accepted (AL: acceptance length)\n");
}

void ss_report_text_outliers(struct ss_buf *out, const struct ss_agg *a, bool utf8, bool color)
{
	const struct ss_outliers *s = &a->outliers;

	for (int l = 0; l < 2; l++) {
		struct ss_grid g;

		if ((l ? s->nhigh : s->nlow) == 0)
			continue;
		ss_grid_init(&g);
		grid_list(&g, l ? s->high : s->low, l ? s->nhigh : s->nlow);
		ss_buf_addc(out, '\n');
		ss_grid_box(out, &g, list_titles[l], utf8, color);
		out->failed |= g.failed;
		ss_grid_release(&g);
	}
	counts_line(out, s, "  ");
}

void ss_report_md_outliers(struct ss_buf *out, const struct ss_agg *a)
{
	const struct ss_outliers *s = &a->outliers;

	for (int l = 0; l < 2; l++) {
		struct ss_grid g;

		if ((l ? s->nhigh : s->nlow) == 0)
			continue;
		ss_buf_adds(out, "\n### ");
		ss_buf_adds(out, list_titles[l]);
		ss_buf_adds(out, "\n\n");
		ss_grid_init(&g);
		grid_list(&g, l ? s->high : s->low, l ? s->nhigh : s->nlow);
		ss_grid_markdown(out, &g);
		out->failed |= g.failed;
		ss_grid_release(&g);
	}
	ss_buf_addc(out, '\n');
	counts_line(out, s, "");
}
