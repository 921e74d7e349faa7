/*
 * html_groups.c - the groups of the HTML report (SPEC 7.3, 7.4): a bar
 * chart of the groups' acceptance lengths (with interval whiskers), the
 * table of every group and, with a baseline, the chart and the table of
 * the differences from it. What all group labels share is said once, in
 * the axis title.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "util/alloc.h"

/* The key values of group `id` as the console shows them: "a.jsonl, 4". */
static void group_label(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	const struct ss_kv *kv = ss_group_table_key(&a->groups, id);

	for (size_t k = 0; k < a->groups.nkeys; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_kv_add_text(b, &kv[k]);
	}
}

static void group_keys_text(struct ss_buf *b, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	for (size_t k = 0; k < spec->n; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_buf_adds(b, spec->keys[k].name);
	}
}

/* The table heads of the group keys, one `<th>` each. */
static void group_key_heads(struct ss_buf *b, const struct ss_analysis *an)
{
	for (size_t k = 0; k < an->opts->group_by.n; k++) {
		ss_buf_adds(b, "<th class=\"l\">");
		ss_buf_add_htmls(b, an->opts->group_by.keys[k].name);
		ss_buf_adds(b, "</th>");
	}
}

/* A table row's `<tr>` and the key values of group `id`, a cell each. */
static void group_key_cells(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	const struct ss_kv *kv = ss_group_table_key(&a->groups, id);

	ss_buf_adds(b, "<tr>");
	for (size_t k = 0; k < a->groups.nkeys; k++) {
		struct ss_buf v = SS_BUF_INIT;

		ss_kv_add_text(&v, &kv[k]);
		ss_buf_adds(b, "<td class=\"name\">");
		ss_buf_add_htmls(b, v.data ? v.data : "");
		ss_buf_adds(b, "</td>");
		if (v.failed)
			b->failed = true;
		ss_buf_release(&v);
	}
}

static void add_opt2(struct ss_buf *b, const struct ss_results *r, int m)
{
	if (r->has[m])
		ss_buf_add_fixed2(b, r->stats[m].avg);
}

static void add_delta_cell(struct ss_buf *b, const struct ss_delta *d)
{
	if (!d->has)
		return;
	if (d->delta > 0)
		ss_buf_addc(b, '+');
	ss_buf_add_fixed2(b, d->delta);
	if (d->significant)
		ss_buf_adds(b, "<strong>*</strong>");
	if (d->has_ci) {
		ss_buf_adds(b, " <span class=\"note\">(");
		ss_buf_add_fixed2(b, d->lo);
		ss_buf_adds(b, " to ");
		ss_buf_add_fixed2(b, d->hi);
		ss_buf_adds(b, ")</span>");
	}
}

/* 7.4: the differences from the baseline, a chart of AL's and a table. */
static void section_deltas(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			   const struct ss_bar *dbars, size_t nd, const char *axis)
{
	struct ss_buf title = SS_BUF_INIT, desc = SS_BUF_INIT, base = SS_BUF_INIT;

	group_label(&base, a, an->baseline);
	ss_buf_adds(b, "<h3>Against the baseline ");
	ss_buf_add_htmls(b, base.data ? base.data : "");
	ss_buf_adds(b, "</h3>\n<p>Each group's value minus the baseline's");
	if (an->opts->ci) {
		ss_buf_adds(b, ", with the ");
		ss_report_add_level(b, an->opts->level);
		ss_buf_adds(b, "% bootstrap interval of the difference; * marks a difference whose "
			    "interval excludes 0");
	}
	ss_buf_adds(b, ".</p>\n");
	if (nd) {
		ss_buf_adds(&title, "Acceptance length minus the baseline's");
		ss_buf_adds(&desc, "Bar chart of each group's difference in mean acceptance length "
			    "from the baseline group");
		ss_buf_adds(&desc, an->opts->ci ? ", with the interval of the difference." : ".");
		ss_buf_adds(b, "<div class=\"fig\">\n");
		ss_chart_bars(b, &(struct ss_chart){
			.id = "c-delta", .title = title.data ? title.data : "",
			.desc = desc.data ? desc.data : "", .x_label = axis,
			.y_label = "Difference (tokens per step)",
			.width = nd > 6 ? 1136 : 640, .height = 360, .value_decimals = 2,
			.show_values = true}, dbars, nd);
		ss_buf_adds(b, "</div>\n");
	}
	ss_buf_adds(b, "<div class=\"tw\"><table class=\"deltas groups\">\n<caption>Differences from the baseline</caption>\n"
		    "<thead><tr>");
	group_key_heads(b, an);
	ss_buf_adds(b, "<th>&Delta; AL</th><th>&Delta; TWAL</th><th>&Delta; DAR (pp)</th>"
		    "<th>&Delta; ODAR (pp)</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];

		group_key_cells(b, a, id);
		for (int k = 0; k < SS_BS_COUNT; k++) {
			ss_buf_adds(b, "<td>");
			if (ss_analysis_is_baseline(an, id) ||
			    !ss_analysis_partner(an, id, &(size_t){0}))
				ss_buf_adds(b, k ? "" : ss_analysis_is_baseline(an, id) ? "baseline"
										 : "no baseline");
			else
				add_delta_cell(b, &an->group[id].vs[k]);
			ss_buf_adds(b, "</td>");
		}
		ss_buf_adds(b, "</tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n");
	if (title.failed || desc.failed || base.failed)
		b->failed = true;
	ss_buf_release(&title);
	ss_buf_release(&desc);
	ss_buf_release(&base);
}

/* Cut at word boundaries only: "run-01" keeps "run-". A prefix never ends
 * at a '.' ("0.1" stays whole), a suffix may start at one (".jsonl"). */
static bool is_sep(char c, bool suffix)
{
	return c == '/' || c == '-' || c == '_' || c == ' ' || c == ',' || (suffix && c == '.');
}

/*
 * Strip the prefix and the suffix all n labels share, each ending (or
 * starting) at a separator, when every label keeps something; the axis
 * title then reads "input: runs/qwen3-…​.jsonl" with … for the label.
 * The labels are the caller's own buffers, cut in place.
 */
static void strip_common(struct ss_bar *bars, size_t n, struct ss_buf *axis, const char *keys)
{
	const char *l0 = bars[0].label;
	size_t len0 = strlen(l0), cp = len0, cs = len0, shortest = len0;

	for (size_t i = 1; i < n; i++) {
		const char *l = bars[i].label;
		size_t len = strlen(l), j = 0;

		while (j < cp && j < len && l[j] == l0[j])
			j++;
		cp = j;
		j = 0;
		while (j < cs && j < len && l[len - 1 - j] == l0[len0 - 1 - j])
			j++;
		cs = j;
		if (len < shortest)
			shortest = len;
	}
	for (;;) {
		while (cp > 0 && !is_sep(l0[cp - 1], false))
			cp--;
		while (cs > 0 && !is_sep(l0[len0 - cs], true))
			cs--;
		if (cp + cs < shortest)
			break;
		if (cs > 0)
			cs--;
		else if (cp > 0)
			cp--;
		else
			break;
	}
	if (cp == 0 && cs == 0)
		return;
	ss_buf_adds(axis, keys);
	ss_buf_adds(axis, ": ");
	ss_buf_add(axis, l0, cp);
	ss_buf_adds(axis, "\xE2\x80\xA6");
	ss_buf_adds(axis, l0 + len0 - cs);
	for (size_t i = 0; i < n; i++) {
		char *t = (char *)bars[i].label;

		if (cs)
			t[strlen(t) - cs] = '\0';
		bars[i].label = t + cp;
	}
}

/* The AL, TWAL, DAR and ODAR columns of the group table. */
static const int group_cols[] = {
	SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL, SS_M_DRAFT_ACCEPTANCE_RATE,
	SS_M_OVERALL_DAR,
};

/*
 * The bars of the groups in key order (labels[i] holds bar i's label) and
 * of their differences from the baseline (*nd of them, the baseline left
 * out). Returns whether any bar has an interval.
 */
static bool fill_bars(const struct ss_agg *a, const struct ss_analysis *an, struct ss_buf *labels,
		      struct ss_bar *bars, struct ss_bar *dbars, size_t *nd)
{
	bool ci = false;

	*nd = 0;
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_results *r = &a->group[id].res;
		const struct ss_set_analysis *g = &an->group[id];

		group_label(&labels[i], a, id);
		if (labels[i].failed || !labels[i].data)
			ss_buf_adds(&labels[i], "");
		bars[i].label = labels[i].data ? labels[i].data : "";
		bars[i].value = r->has[SS_M_ACCEPTANCE_LENGTH] ? r->stats[SS_M_ACCEPTANCE_LENGTH].avg : NAN;
		if (g->has_ci[SS_BS_AL]) {
			bars[i].has_interval = true;
			bars[i].lo = g->lo[SS_BS_AL];
			bars[i].hi = g->hi[SS_BS_AL];
			ci = true;
		}
		if (an->has_baseline && !ss_analysis_is_baseline(an, id)) {
			const struct ss_delta *d = &g->vs[SS_BS_AL];

			dbars[*nd].label = bars[i].label;
			dbars[*nd].value = d->has ? d->delta : NAN;
			dbars[*nd].has_interval = d->has_ci;
			dbars[*nd].lo = d->lo;
			dbars[*nd].hi = d->hi;
			(*nd)++;
		}
	}
	return ci;
}

/* The bar chart of the groups' acceptance lengths, `axis` its x title. */
static void groups_chart(struct ss_buf *b, const struct ss_analysis *an, const struct ss_bar *bars,
			 size_t n, bool ci, const char *keys, const char *axis)
{
	struct ss_buf title = SS_BUF_INIT, desc = SS_BUF_INIT;

	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_buf_adds(&title, "Acceptance length by ");
	ss_buf_adds(&title, keys);
	if (ci) {
		ss_buf_adds(&title, " (");
		ss_report_add_level(&title, an->opts->level);
		ss_buf_adds(&title, "% intervals)");
	}
	ss_buf_adds(&desc, "Bar chart of the mean acceptance length of each group");
	ss_buf_adds(&desc, ci ? ", with interval whiskers; " : "; ");
	ss_buf_adds(&desc, "the table below lists every group's numbers.");
	ss_chart_bars(b, &(struct ss_chart){
		.id = "c-groups", .title = title.data ? title.data : "",
		.desc = desc.data ? desc.data : "", .x_label = axis,
		.y_label = "Acceptance length (tokens per step)",
		.width = n > 6 ? 1136 : 640, .height = 400, .value_decimals = 2,
		.show_values = true}, bars, n);
	ss_buf_adds(b, "</div>\n");
	if (title.failed || desc.failed)
		b->failed = true;
	ss_buf_release(&title);
	ss_buf_release(&desc);
}

/* The table of every group: requests, with stats, AL (and its interval
 * when `ci`), TWAL, DAR, ODAR. */
static void groups_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			 bool ci)
{
	ss_buf_adds(b, "<div class=\"tw\"><table class=\"groups\">\n<caption>Every group (AL: acceptance length, TWAL: token-weighted "
		    "acceptance length, DAR: draft acceptance rate, ODAR: overall draft acceptance "
		    "rate)</caption>\n<thead><tr>");
	group_key_heads(b, an);
	ss_buf_adds(b, "<th>Requests</th><th>With stats</th><th>AL avg</th><th>AL p50</th>");
	if (ci)
		ss_buf_adds(b, "<th>AL interval</th>");
	ss_buf_adds(b, "<th>TWAL</th><th>DAR avg (%)</th><th>ODAR (%)</th>");
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_group *grp = &a->group[id];
		const struct ss_results *r = &grp->res;
		const struct ss_set_analysis *g = &an->group[id];

		group_key_cells(b, a, id);
		ss_buf_adds(b, "<td>");
		ss_buf_add_u64_grouped(b, grp->total);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64_grouped(b, grp->status[SS_ST_OK]);
		ss_buf_adds(b, "</td><td>");
		add_opt2(b, r, SS_M_ACCEPTANCE_LENGTH);
		ss_buf_adds(b, "</td><td>");
		if (r->has[SS_M_ACCEPTANCE_LENGTH])
			ss_buf_add_fixed2(b, r->stats[SS_M_ACCEPTANCE_LENGTH].p50);
		ss_buf_adds(b, "</td>");
		if (ci) {
			ss_buf_adds(b, "<td>");
			if (g->has_ci[SS_BS_AL]) {
				ss_buf_add_fixed2(b, g->lo[SS_BS_AL]);
				ss_buf_adds(b, "&ndash;");
				ss_buf_add_fixed2(b, g->hi[SS_BS_AL]);
			}
			ss_buf_adds(b, "</td>");
		}
		for (size_t c = 1; c < sizeof(group_cols) / sizeof(group_cols[0]); c++) {
			ss_buf_adds(b, "<td>");
			add_opt2(b, r, group_cols[c]);
			ss_buf_adds(b, "</td>");
		}
		ss_buf_adds(b, "</tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n");
}

void ss_html_groups(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	size_t n = a->groups.n, nd = 0;
	struct ss_bar *bars = ss_calloc(n, sizeof(*bars)), *dbars = ss_calloc(n, sizeof(*dbars));
	struct ss_buf *labels = ss_calloc(n, sizeof(*labels));
	struct ss_buf keys = SS_BUF_INIT, axis = SS_BUF_INIT;
	bool ci;

	if (!bars || !dbars || !labels) {
		b->failed = true;
		goto out;
	}
	group_keys_text(&keys, an);
	ci = fill_bars(a, an, labels, bars, dbars, &nd);

	/* What all labels share (a directory, a model name, ".jsonl") is
	 * said once, in the axis title, and the part that tells the groups
	 * apart gets the room under the bars. */
	if (n > 1) {
		strip_common(bars, n, &axis, keys.data ? keys.data : "");
		nd = 0;
		for (size_t i = 0; i < n; i++)
			if (an->has_baseline && !ss_analysis_is_baseline(an, a->group_order[i]))
				dbars[nd++].label = bars[i].label;
	}
	if (!axis.len)
		ss_buf_adds(&axis, keys.data ? keys.data : "");

	ss_buf_adds(b, "<section id=\"groups\">\n<h2>Spec Decode by ");
	ss_buf_add_htmls(b, keys.data ? keys.data : "");
	ss_buf_adds(b, "</h2>\n<p>");
	ss_buf_add_u64_grouped(b, n);
	ss_buf_adds(b, n == 1 ? " group" : " groups");
	ss_buf_adds(b, ", in key order: each with its own accounting and results");
	if (ci) {
		ss_buf_adds(b, "; the whiskers are ");
		ss_report_add_level(b, an->opts->level);
		ss_buf_adds(b, "% bootstrap intervals over the group's requests");
	}
	ss_buf_adds(b, ".</p>\n");
	groups_chart(b, an, bars, n, ci, keys.data ? keys.data : "", axis.data ? axis.data : "");
	groups_table(b, a, an, ci);
	if (an->has_baseline)
		section_deltas(b, a, an, dbars, nd, axis.data ? axis.data : "");
	ss_buf_adds(b, "</section>\n");
out:
	if (keys.failed || axis.failed)
		b->failed = true;
	ss_buf_release(&axis);
	ss_buf_release(&keys);
	if (labels)
		for (size_t i = 0; i < n; i++)
			ss_buf_release(&labels[i]);
	ss_free(labels);
	ss_free(bars);
	ss_free(dbars);
}
