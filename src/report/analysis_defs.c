/*
 * analysis_defs.c - SPEC 7.12's definitions of acceptance length side by
 * side, for people: the console box table and the Markdown table (one
 * grid, with a line on what each definition is and which tool reports
 * it), the CSV section and the HTML section.
 */
#include <string.h>

#include "report/analysis_text.h"
#include "report/html_int.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

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

void ss_report_defs_grid(struct ss_grid *g, const struct ss_analysis *an)
{
	ss_grid_col(g, "Definition", false);
	ss_grid_col(g, "Value", true);
	ss_grid_col(g, "Requests", true);
	ss_grid_col(g, "What it is", false);
	ss_grid_col(g, "Reported by", false);
	for (int d = 0; d < SS_DEF_COUNT; d++) {
		const struct ss_definition *def = &an->defs[d];

		ss_grid_begin(g);
		ss_buf_adds(&g->text, ss_def_names[d]);
		ss_grid_end(g);
		ss_grid_begin(g);
		if (def->has)
			ss_buf_add_fixed2_grouped(&g->text, def->value);
		else
			ss_buf_adds(&g->text, "N/A");
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_add_u64_grouped(&g->text, def->requests);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_adds(&g->text, def_what[d]);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_adds(&g->text, def_who[d]);
		ss_grid_end(g);
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

void ss_report_text_definitions(struct ss_buf *out, const struct ss_analysis *an, bool utf8,
				bool color)
{
	struct ss_grid g;

	ss_grid_init(&g);
	ss_report_defs_grid(&g, an);
	if (g.failed) {
		out->failed = true;
	} else {
		ss_buf_addc(out, '\n');
		ss_grid_box(out, &g, "Acceptance Length by Definition", utf8, color);
		add_note(out, "  ", "\n  ");
		ss_buf_addc(out, '\n');
	}
	ss_grid_release(&g);
}

void ss_report_markdown_definitions(struct ss_buf *out, const struct ss_analysis *an)
{
	struct ss_grid g;

	ss_grid_init(&g);
	ss_report_defs_grid(&g, an);
	if (g.failed) {
		out->failed = true;
	} else {
		ss_buf_adds(out, "\n### Acceptance length by definition\n\n");
		ss_grid_markdown(out, &g);
		add_note(out, "\n", " ");
		ss_buf_addc(out, '\n');
	}
	ss_grid_release(&g);
}

void ss_report_csv_definitions(struct ss_buf *out, const struct ss_analysis *an)
{
	if (out->len)
		ss_buf_adds(out, "\r\n");
	ss_buf_adds(out, "Definition,Value,Requests\r\n");
	for (int d = 0; d < SS_DEF_COUNT; d++) {
		const struct ss_definition *def = &an->defs[d];

		ss_buf_adds(out, ss_def_names[d]);
		ss_buf_addc(out, ',');
		if (def->has)
			ss_buf_add_fixed2(out, def->value);
		ss_buf_addc(out, ',');
		ss_buf_add_u64(out, def->requests);
		ss_buf_adds(out, "\r\n");
	}
}

void ss_html_definitions(struct ss_buf *b, const struct ss_analysis *an)
{
	ss_buf_adds(b, "<section id=\"definitions\">\n<h2>Acceptance length by definition</h2>\n"
		    "<p>Engines and benchmarks call different numbers &ldquo;acceptance "
		    "length&rdquo;; the same requests give each of them below.");
	add_note(b, " ", " ");
	ss_buf_adds(b, "</p>\n<table>\n<thead><tr><th>Definition</th><th>Value</th>"
		    "<th>Requests</th><th class=\"l\">What it is</th><th class=\"l\">Reported by</th>"
		    "</tr></thead>\n"
		    "<tbody>\n");
	for (int d = 0; d < SS_DEF_COUNT; d++) {
		const struct ss_definition *def = &an->defs[d];

		ss_buf_adds(b, "<tr><td><code>");
		ss_buf_adds(b, ss_def_names[d]);
		ss_buf_adds(b, "</code></td><td>");
		if (def->has)
			ss_buf_add_fixed2(b, def->value);
		else
			ss_buf_adds(b, "N/A");
		ss_buf_adds(b, "</td><td>");
		ss_html_add_count(b, (__int128)def->requests);
		ss_buf_adds(b, "</td><td class=\"l\">");
		ss_buf_adds(b, def_what[d]);
		ss_buf_adds(b, "</td><td class=\"l\">");
		ss_buf_adds(b, def_who[d]);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</section>\n");
}
