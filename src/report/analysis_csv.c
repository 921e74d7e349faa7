/*
 * analysis_csv.c - SPEC 7's sections of the aggregate CSV, after 4.2's:
 * acceptance by position, the shorter-draft table and acceptance per
 * drafted token (sec_positions.c), the intervals (sec_intervals.c), then one
 * row per group and metric (and with --compare one row per group and
 * difference from the baseline), the windows over time, the outliers
 * (sec_windows.c, sec_outliers.c) and the definitions (sec_definitions.c).
 * CRLF, numbers %.2f, counts as integers, absent cells empty, as in 4.2.
 */
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

static void section_break(struct ss_buf *out)
{
	if (out->len)
		ss_buf_adds(out, "\r\n");
}

/* A metric's first cell: header + " (unit)", except for counts of things. */
static void add_label(struct ss_buf *out, int m)
{
	struct ss_buf label = SS_BUF_INIT;

	ss_report_csv_label_text(&label, m);
	out->failed |= label.failed;
	ss_tab_csv_field(out, label.data ? label.data : "", label.len, false);
	ss_buf_release(&label);
}

/* ",avg,min,...,std" of a per-request metric. */
static void add_stats(struct ss_buf *out, const struct ss_stats *st)
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

/* A cell of a C string, quoted when needed. */
static void add_cell(struct ss_buf *out, const char *s)
{
	ss_tab_csv_field(out, s, strlen(s), false);
}

/* SPEC 7.3: a null key value is an empty cell, true/false as written. */
static void add_key_cells(struct ss_buf *out, const struct ss_kv *v, size_t n)
{
	struct ss_buf cell = SS_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		ss_buf_reset(&cell);
		if (v[i].type != SS_KV_NULL)
			ss_kv_add_text(&cell, &v[i]);
		if (cell.failed) {
			out->failed = true;
			break;
		}
		/* up to a NUL, as every CSV cell of a C string */
		ss_tab_csv_field(out, cell.len ? cell.data : "", cell.len ? strlen(cell.data) : 0,
				 v[i].type == SS_KV_STR);
		ss_buf_addc(out, ',');
	}
	ss_buf_release(&cell);
}

static void add_groups(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	bool header = false;

	for (size_t i = 0; i < a->groups.n; i++) {
		size_t g = a->group_order[i];
		const struct ss_results *r = &a->group[g].res;
		const struct ss_kv *key = ss_group_table_key(&a->groups, g);
		int rows[SS_M_COUNT];

		for (int kind = 1; kind >= 0; kind--) {
			int n = ss_report_sorted_metrics(r, kind == 1, rows);

			for (int j = 0; j < n; j++) {
				if (!header) {
					section_break(out);
					for (size_t k = 0; k < spec->n; k++) {
						add_cell(out, spec->keys[k].name);
						ss_buf_addc(out, ',');
					}
					ss_buf_adds(out, "Metric,avg,min,max,sum,p1,p5,p10,p25,"
							 "p50,p75,p90,p95,p99,std\r\n");
					header = true;
				}
				add_key_cells(out, key, spec->n);
				add_label(out, rows[j]);
				if (kind == 1) {
					add_stats(out, &r->stats[rows[j]]);
				} else {
					ss_buf_addc(out, ',');
					ss_buf_add_fixed2(out, r->stats[rows[j]].avg);
					ss_buf_adds(out, ",,,,,,,,,,,,,");
				}
				ss_buf_adds(out, "\r\n");
			}
		}
	}
}

/* The differences from the baseline (SPEC 7.4): the rates' in percentage
 * points, so their unit is written as `pp`; Low and High with --ci. */
static void add_deltas(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	section_break(out);
	for (size_t k = 0; k < spec->n; k++) {
		add_cell(out, spec->keys[k].name);
		ss_buf_addc(out, ',');
	}
	ss_buf_adds(out, "Difference from the baseline,Delta,Low,High,Significant\r\n");
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t g = a->group_order[i], pb;

		if (!ss_analysis_partner(an, g, &pb))
			continue;   /* a baseline, or a group with no partner (7.4) */
		for (int k = 0; k < SS_BS_COUNT; k++) {
			const struct ss_metric_info *mi = &ss_metric_table[ss_boot_metric[k]];
			const struct ss_delta *d = &an->group[g].vs[k];
			char label[128];

			snprintf(label, sizeof(label), "%s (%s)", mi->header,
				 strcmp(mi->unit, "%") == 0 ? "pp" : mi->unit);
			add_key_cells(out, ss_group_table_key(&a->groups, g), spec->n);
			add_cell(out, label);
			ss_buf_addc(out, ',');
			if (d->has)
				ss_buf_add_fixed2(out, d->delta);
			ss_buf_addc(out, ',');
			if (d->has && d->has_ci)
				ss_buf_add_fixed2(out, d->lo);
			ss_buf_addc(out, ',');
			if (d->has && d->has_ci)
				ss_buf_add_fixed2(out, d->hi);
			ss_buf_addc(out, ',');
			if (d->has && d->has_ci)
				ss_buf_adds(out, d->significant ? "true" : "false");
			ss_buf_adds(out, "\r\n");
		}
	}
}

void ss_report_csv_analysis(struct ss_buf *out, const struct ss_agg *a,
			    const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o;

	if (!an || !an->any)
		return;
	o = an->opts;
	if (o->positions)
		ss_sec_positions_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->ci)
		ss_sec_intervals_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->group_by.n)
		add_groups(out, a, an);
	if (o->group_by.n && an->has_baseline)
		add_deltas(out, a, an);
	if (o->windows)
		ss_sec_windows_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->outliers)
		ss_sec_outliers_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->definitions)
		ss_sec_defs_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->speedup)
		ss_sec_speedup_csv(out, &(struct ss_report_ctx){a, an, false, false});
}
