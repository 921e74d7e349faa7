/*
 * table.c - the console Spec Decode section (SPEC 4.3): the table as rich
 * draws AIPerf's (heavy head, light body), or with `+ - |` when the output
 * is not UTF-8, drawn by the table model's box renderer (tabular.h); the
 * pooled histogram line and the accounting line.
 */
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/tabular.h"

#define NCOLS 8 /* Metric, then the seven statistics */
#define LABEL_WRAP 30

const int ss_report_table_rows[SS_REPORT_TABLE_NROWS] = {
	SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL,
	SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	SS_M_ACCEPTED_PER_VERIFIED, SS_M_STEPS, SS_M_ZERO_STEP_REQUESTS,
};
#define NROWS SS_REPORT_TABLE_NROWS
#define table_rows ss_report_table_rows

/* Metric, then the seven statistics; a run-level metric has its value
 * under avg and N/A under the others. */
static const struct ss_tab_col spec_cols[NCOLS] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_TEXT, NULL, NULL, false},
	{"avg", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"min", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"max", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"p99", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"p90", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"p50", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
	{"std", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
};

/*
 * The table as rich draws AIPerf's (SPEC 4.3's fixed layout, the box
 * renderer's style): a label longer than LABEL_WRAP characters puts
 * "(unit)" on a line of its own under it, a row of empty cells.
 */
void ss_report_text_spec_decode(struct ss_buf *out, const struct ss_results *r, bool utf8,
				bool color)
{
	struct ss_tab t;

	ss_tab_init(&t, spec_cols, NCOLS);
	for (int i = 0; i < NROWS; i++) {
		int m = table_rows[i];
		const struct ss_metric_info *mi = &ss_metric_table[m];
		const struct ss_stats *s = &r->stats[m];
		const double v[NCOLS] = {
			0, s->avg, s->min, s->max, s->p99, s->p90, s->p50, s->std,
		};
		bool wrap = strlen(mi->header) > LABEL_WRAP;
		struct ss_buf *label;

		if (!r->has[m])
			continue;
		label = ss_tab_begin(&t);
		ss_buf_adds(label, mi->header);
		if (!wrap)
			ss_buf_addf(label, " (%s)", mi->unit);
		ss_tab_end(&t);
		for (int c = 1; c < NCOLS; c++) {
			if (mi->per_request || c == 1)
				ss_tab_num(&t, v[c]);
			else
				ss_tab_na(&t);
		}
		if (!wrap)
			continue;
		label = ss_tab_begin(&t);
		ss_buf_addf(label, "(%s)", mi->unit);
		ss_tab_end(&t);
		for (int c = 1; c < NCOLS; c++)
			ss_tab_empty(&t);
	}
	t.fixed = true; /* SPEC 4.3: the fixed layout, at any width */
	ss_tab_box(out, &t, "Spec Decode", utf8, color);
	ss_tab_release(&t);
}

static void add_percent(struct ss_buf *out, const char *key, __int128 count,
			double total)
{
	ss_buf_adds(out, key);
	ss_buf_adds(out, ": ");
	ss_buf_add_fixed0(out, (double)count / total * 100.0);
	ss_buf_addc(out, '%');
}

void ss_report_hist_line(struct ss_buf *out, const struct ss_results *r, const char *prefix)
{
	__int128 sum = 0, rest = 0;
	size_t top = 0;
	bool any = false;
	char key[24];

	for (size_t j = 0; j < r->hist_len; j++) {
		if (r->hist[j]) {
			any = true;
			top = j;
			sum += r->hist[j];
		}
	}
	if (!any)
		return;
	ss_buf_adds(out, prefix);
	ss_buf_adds(out, "Accepted drafts per step (% of steps):  ");
	for (size_t j = 0; j <= top && j < 8; j++) {
		if (j)
			ss_buf_adds(out, "   ");
		snprintf(key, sizeof(key), "%zu", j);
		add_percent(out, key, r->hist[j], (double)sum);
	}
	if (top >= 8) {
		for (size_t j = 8; j <= top; j++)
			rest += r->hist[j];
		ss_buf_adds(out, "   ");
		add_percent(out, ">=8", rest, (double)sum);
	}
	ss_buf_addc(out, '\n');
}

void ss_report_accounting_line(struct ss_buf *out, const struct ss_agg *a, const char *prefix)
{
	bool first = true;

	ss_buf_adds(out, prefix);
	ss_buf_add_u64_grouped(out, a->total);
	ss_buf_adds(out, a->total == 1 ? " request" : " requests");
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_adds(out, first ? ": " : ", ");
		first = false;
		ss_buf_add_u64_grouped(out, a->status[s]);
		ss_buf_addc(out, ' ');
		ss_buf_adds(out, ss_status_label((enum ss_status)s));
	}
	ss_buf_addc(out, '\n');
}
