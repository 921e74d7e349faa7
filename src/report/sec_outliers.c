/*
 * sec_outliers.c - SPEC 7.11's outliers in every report: the `outliers`
 * member of `analysis`, and the lowest and highest requests by acceptance
 * length as one table each (rank, input, line, model, AL, steps,
 * completion and prompt tokens) drawn as the console's box tables, the
 * Markdown tables, the CSV section (both lists in one, after a column
 * naming the list) and the HTML tables, with the counts of requests whose
 * drafts were all rejected or all accepted.
 */
#include "report/section.h"

#include "report/html_int.h"
#include "report/numfmt.h"
#include "report/tabular.h"

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

void ss_sec_outliers_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	const struct ss_outliers *s = &c->a->outliers;

	ss_jsonw_begin_object(w, "outliers");
	json_list(w, "lowest", s->low, s->nlow);
	json_list(w, "highest", s->high, s->nhigh);
	ss_jsonw_u64(w, "all_rejected", s->all_rejected);
	ss_jsonw_u64(w, "all_accepted", s->all_accepted);
	ss_jsonw_end_object(w);
}

static const struct ss_tab_col list_cols[] = {
	{"Outliers", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"#", SS_COL_INT, false, 0, "Rank", NULL, false},
	{"input", SS_COL_NAME, true, 0, "Input", "Input", false},
	{"line", SS_COL_INT, false, 0, "Line", "Line", false},
	{"model", SS_COL_NAME, true, 0, "Model", "Model", false},
	{"AL", SS_COL_FIX2, false, 0, "Acceptance Length", "Acceptance<br>length", false},
	{"steps", SS_COL_COUNT, false, 0, "Steps", "Steps", false},
	{"completion tokens", SS_COL_COUNT, false, 0, "Completion Tokens", "Completion<br>tokens",
	 false},
	{"prompt tokens", SS_COL_COUNT, false, 0, "Prompt Tokens", "Prompt<br>tokens", false},
};

/* The two lists: their names in the CSV and their titles. */
static const char *const list_names[2] = {"lowest", "highest"};
static const char *const list_titles[2] = {
	"Lowest acceptance length", "Highest acceptance length"
};

/* List l (0: lowest, 1: highest) as a table. */
static void list_table(struct ss_tab *t, const struct ss_outliers *s, int l)
{
	const struct ss_outlier *v = l ? s->high : s->low;
	size_t n = l ? s->nhigh : s->nlow;

	ss_tab_init(t, list_cols, sizeof(list_cols) / sizeof(list_cols[0]));
	for (size_t i = 0; i < n; i++) {
		ss_tab_text(t, list_names[l]);
		ss_tab_int(t, (__int128)(i + 1));
		ss_tab_text(t, v[i].input);
		ss_tab_int(t, (__int128)v[i].line);
		ss_tab_text(t, v[i].model);
		ss_tab_num(t, v[i].al);
		ss_tab_int(t, v[i].steps);
		if (v[i].has_completion)
			ss_tab_int(t, v[i].completion_tokens);
		else
			ss_tab_empty(t);
		if (v[i].has_prompt)
			ss_tab_int(t, v[i].prompt_tokens);
		else
			ss_tab_empty(t);
	}
}

static const struct ss_tab_col count_cols[] = {
	{"Requests", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Count", SS_COL_COUNT, false, SS_TAB_CSV, NULL, NULL, false},
};

void ss_sec_outliers_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_outliers *s = &c->a->outliers;
	struct ss_tab t;

	for (int l = 0; l < 2; l++) {
		list_table(&t, s, l);
		ss_tab_csv(out, &t, l == 0);
		ss_tab_release(&t);
	}
	ss_tab_init(&t, count_cols, 2);
	ss_tab_text(&t, "All Rejected");
	ss_tab_int(&t, (__int128)s->all_rejected);
	ss_tab_text(&t, "All Accepted");
	ss_tab_int(&t, (__int128)s->all_accepted);
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

static void counts_line(struct ss_buf *out, const struct ss_outliers *s, const char *prefix)
{
	ss_buf_adds(out, prefix);
	ss_buf_add_u64_grouped(out, s->all_rejected);
	ss_buf_adds(out, s->all_rejected == 1 ? " request" : " requests");
	ss_buf_adds(out, " with every draft token rejected, ");
	ss_buf_add_u64_grouped(out, s->all_accepted);
	ss_buf_adds(out, " with every draft token accepted (AL: acceptance length)\n");
}

void ss_sec_outliers_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_outliers *s = &c->a->outliers;

	for (int l = 0; l < 2; l++) {
		struct ss_tab t;

		if ((l ? s->nhigh : s->nlow) == 0)
			continue;
		list_table(&t, s, l);
		ss_buf_addc(out, '\n');
		ss_tab_box(out, &t, list_titles[l], c->utf8, c->color);
		ss_tab_release(&t);
	}
	counts_line(out, s, "  ");
}

void ss_sec_outliers_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_outliers *s = &c->a->outliers;

	for (int l = 0; l < 2; l++) {
		struct ss_tab t;

		if ((l ? s->nhigh : s->nlow) == 0)
			continue;
		ss_buf_adds(out, "\n### ");
		ss_buf_adds(out, list_titles[l]);
		ss_buf_adds(out, "\n\n");
		list_table(&t, s, l);
		ss_tab_md(out, &t);
		ss_tab_release(&t);
	}
	ss_buf_addc(out, '\n');
	counts_line(out, s, "");
}

void ss_sec_outliers_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_outliers *s = &c->a->outliers;

	ss_buf_adds(out, "<section id=\"outliers\">\n<h2>Requests to look at</h2>\n<p>");
	ss_buf_add_u64_grouped(out, s->all_rejected);
	ss_buf_adds(out, s->all_rejected == 1 ? " request" : " requests");
	ss_buf_adds(out, " had every draft token rejected (the drafter never helped: often garbled "
		    "output), ");
	ss_buf_add_u64_grouped(out, s->all_accepted);
	ss_buf_adds(out, " every draft token accepted (often a repetition loop).</p>\n");
	if (s->nlow == 0) {
		ss_html_missing(out, "No request with stats has a number of verify steps.");
		ss_buf_adds(out, "</section>\n");
		return;
	}
	ss_buf_adds(out, "<div class=\"fig\">\n");
	for (int l = 0; l < 2; l++) {
		struct ss_tab t;

		list_table(&t, s, l);
		ss_tab_html(out, &t, list_titles[l]);
		ss_tab_release(&t);
	}
	ss_buf_adds(out, "</div>\n</section>\n");
}
