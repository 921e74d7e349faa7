/*
 * sec_definitions.c - SPEC 7.12's definitions of acceptance length side by
 * side in every report: the `definitions` member of `analysis`, and one
 * table (name, value, requests, what it is, which tool reports it) drawn
 * as the console's box table, the Markdown table, the CSV section and
 * the HTML table, each with its note.
 */
#include "report/section.h"

#include "report/tabular.h"

/* What each definition is, and what the tools that report it call it. */
static const char *const def_what[SS_DEF_COUNT] = {
	"mean of 1 + a/s per request",
	"1 + sum a / sum s",
	"1 + a/s weighted by completion tokens",
	"mean of completion tokens / s",
};
static const char *const def_who[SS_DEF_COUNT] = {
	"AIPerf (Acceptance Length avg)",
	"vLLM /metrics and bench, Spec-Bench",
	"trtllm-bench",
	"SGLang (spec_accept_length)",
};

/* SPEC 7.12: {"request_mean": {"value": ..., "requests": n}, ...} */
void ss_sec_defs_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	ss_jsonw_begin_object(w, "definitions");
	for (int d = 0; d < SS_DEF_COUNT; d++) {
		const struct ss_definition *def = &c->an->defs[d];

		ss_jsonw_begin_object(w, ss_def_names[d]);
		if (def->has)
			ss_jsonw_double(w, "value", def->value);
		else
			ss_jsonw_null(w, "value");
		ss_jsonw_u64(w, "requests", def->requests);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_object(w);
}

static const struct ss_tab_col def_cols[] = {
	{"Definition", SS_COL_CODE, true, 0, NULL, NULL, false},
	{"Value", SS_COL_FIX2, false, 0, NULL, NULL, true},
	{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"What it is", SS_COL_TEXT, true, SS_TAB_TEXT | SS_TAB_HTML, NULL, NULL, false},
	{"Reported by", SS_COL_TEXT, true, SS_TAB_TEXT | SS_TAB_HTML, NULL, NULL, false},
};

static void defs_table(struct ss_tab *t, const struct ss_analysis *an)
{
	ss_tab_init(t, def_cols, sizeof(def_cols) / sizeof(def_cols[0]));
	for (int d = 0; d < SS_DEF_COUNT; d++) {
		const struct ss_definition *def = &an->defs[d];

		ss_tab_text(t, ss_def_names[d]);
		if (def->has)
			ss_tab_num(t, def->value);
		else
			ss_tab_na(t);
		ss_tab_int(t, (__int128)def->requests);
		ss_tab_text(t, def_what[d]);
		ss_tab_text(t, def_who[d]);
	}
}

/* The note under the table, in two lines. */
static const char *const defs_note[2] = {
	"a: accepted drafts, s: verify steps of a request, over the ok requests with steps "
	"(output_weighted, with_prefill: those with completion tokens).",
	"step_pooled is the Token-Weighted Acceptance Length; with_prefill counts the prefill "
	"token. Compare a tool's number with the row of its definition.",
};

/* The note after `prefix`, its lines joined by `sep`. */
static void add_note(struct ss_buf *out, const char *prefix, const char *sep)
{
	ss_buf_adds(out, prefix);
	ss_buf_adds(out, defs_note[0]);
	ss_buf_adds(out, sep);
	ss_buf_adds(out, defs_note[1]);
}

void ss_sec_defs_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	defs_table(&t, c->an);
	ss_buf_addc(out, '\n');
	ss_tab_box(out, &t, "Acceptance Length by Definition", c->utf8, c->color);
	add_note(out, "  ", "\n  ");
	ss_buf_addc(out, '\n');
	ss_tab_release(&t);
}

void ss_sec_defs_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	defs_table(&t, c->an);
	ss_buf_adds(out, "\n### Acceptance length by definition\n\n");
	ss_tab_md(out, &t);
	add_note(out, "\n", " ");
	ss_buf_addc(out, '\n');
	ss_tab_release(&t);
}

void ss_sec_defs_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	defs_table(&t, c->an);
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

void ss_sec_defs_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	defs_table(&t, c->an);
	ss_buf_adds(out, "<section id=\"definitions\">\n<h2>Acceptance length by definition</h2>\n"
		    "<p>Engines and benchmarks call different numbers &ldquo;acceptance "
		    "length&rdquo;; the same requests give each of them below.");
	add_note(out, " ", " ");
	ss_buf_adds(out, "</p>\n");
	ss_tab_html(out, &t, NULL);
	ss_buf_adds(out, "</section>\n");
	ss_tab_release(&t);
}
