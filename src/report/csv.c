/*
 * csv.c - the aggregate CSV (SPEC 4.2), as AIPerf writes its own: CRLF,
 * a per-request section and a run-level section, rows sorted by tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

void ss_report_csv_name(struct ss_buf *b, const char *s)
{
	bool quote = strpbrk(s, ",\"\r\n") != NULL;

	if (!ss_csv_is_formula(s, strlen(s))) {
		ss_report_csv_cell(b, s);
		return;
	}
	if (quote)
		ss_buf_addc(b, '"');
	ss_buf_addc(b, '\'');
	for (; *s; s++) {
		if (quote && *s == '"')
			ss_buf_addc(b, '"');
		ss_buf_addc(b, *s);
	}
	if (quote)
		ss_buf_addc(b, '"');
}

void ss_report_csv_cell(struct ss_buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		ss_buf_adds(b, s);
		return;
	}
	ss_buf_addc(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			ss_buf_addc(b, '"');
		ss_buf_addc(b, *s);
	}
	ss_buf_addc(b, '"');
}

/* The first cell: header + " (unit)", except for counts of things. */
void ss_report_csv_label(struct ss_buf *b, int m)
{
	const struct ss_metric_info *mi = &ss_metric_table[m];
	char label[128];

	if (strcmp(mi->unit, "count") == 0 || strcmp(mi->unit, "requests") == 0)
		snprintf(label, sizeof(label), "%s", mi->header);
	else
		snprintf(label, sizeof(label), "%s (%s)", mi->header, mi->unit);
	ss_report_csv_cell(b, label);
}

static int cmp_tag(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return strcmp(ss_metric_table[a].tag, ss_metric_table[b].tag);
}

/* The metrics of one kind present in r, sorted by tag; returns how many. */
int ss_report_sorted_metrics(const struct ss_results *r, bool per_request, int out[SS_M_COUNT])
{
	int n = 0;

	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m] && ss_metric_table[m].per_request == per_request)
			out[n++] = m;
	qsort(out, (size_t)n, sizeof(*out), cmp_tag);
	return n;
}

void ss_report_csv_stats(struct ss_buf *out, const struct ss_stats *st)
{
	const double cells[] = {
		st->avg, st->min, st->max, st->sum, st->p1,  st->p5,  st->p10,
		st->p25, st->p50, st->p75, st->p90, st->p95, st->p99, st->std,
	};

	for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
		ss_buf_addc(out, ',');
		ss_buf_add_fixed2(out, cells[c]);
	}
}

void ss_report_csv_results(struct ss_buf *out, const struct ss_agg *a)
{
	const struct ss_results *r = &a->main;
	int rows[SS_M_COUNT];
	int n = ss_report_sorted_metrics(r, true, rows);

	if (n) {
		ss_buf_adds(out, "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n");
		for (int i = 0; i < n; i++) {
			ss_report_csv_label(out, rows[i]);
			ss_report_csv_stats(out, &r->stats[rows[i]]);
			ss_buf_adds(out, "\r\n");
		}
	}
	int nrun = ss_report_sorted_metrics(r, false, rows);

	if (nrun) {
		if (n)
			ss_buf_adds(out, "\r\n");
		ss_buf_adds(out, "Metric,Value\r\n");
		for (int i = 0; i < nrun; i++) {
			ss_report_csv_label(out, rows[i]);
			ss_buf_addc(out, ',');
			ss_buf_add_fixed2(out, r->stats[rows[i]].avg);
			ss_buf_adds(out, "\r\n");
		}
	}
}
