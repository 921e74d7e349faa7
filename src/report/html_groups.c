/*
 * html_groups.c - the groups of the HTML report (SPEC 7.3): a bar chart of
 * the groups' acceptance lengths (with interval whiskers) and the table of
 * every group; the differences from a baseline (7.4) are the answer's, in
 * html_compare.c, shown once. What all group labels share is said once, in
 * the axis title (ss_html_group_labels, which the answer's charts use too).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"
#include "util/alloc.h"

void ss_html_group_label(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	const struct ss_kv *kv = ss_group_table_key(&a->groups, id);

	for (size_t k = 0; k < a->groups.nkeys; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_kv_add_text(b, &kv[k]);
	}
}

void ss_html_group_keys(struct ss_buf *b, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	for (size_t k = 0; k < spec->n; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_buf_adds(b, spec->keys[k].name);
	}
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
static void strip_common(const char **lab, size_t n, struct ss_buf *axis, const char *keys)
{
	const char *l0 = lab[0];
	size_t len0 = strlen(l0), cp = len0, cs = len0, shortest = len0;

	for (size_t i = 1; i < n; i++) {
		const char *l = lab[i];
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
		char *t = (char *)lab[i];

		if (cs)
			t[strlen(t) - cs] = '\0';
		lab[i] = t + cp;
	}
}


void ss_html_group_labels(const struct ss_agg *a, const struct ss_analysis *an,
			  struct ss_buf *store, const char **lab, struct ss_buf *axis)
{
	struct ss_buf keys = SS_BUF_INIT;
	size_t n = a->groups.n;

	ss_html_group_keys(&keys, an);
	for (size_t i = 0; i < n; i++) {
		ss_html_group_label(&store[i], a, a->group_order[i]);
		if (!store[i].data)
			ss_buf_adds(&store[i], "");
		lab[i] = store[i].data ? store[i].data : "";
	}
	/* What all labels share (a directory, a model name, ".jsonl") is
	 * said once, in the axis title, and the part that tells the groups
	 * apart gets the room under the bars. */
	if (n > 1)
		strip_common(lab, n, axis, keys.data ? keys.data : "");
	if (!axis->len)
		ss_buf_adds(axis, keys.data ? keys.data : "");
	if (keys.failed)
		axis->failed = true;
	ss_buf_release(&keys);
}

/* The bars of the groups in key order, their labels lab[i]. Returns
 * whether any bar has an interval. */
static bool fill_bars(const struct ss_agg *a, const struct ss_analysis *an, const char **lab,
		      struct ss_bar *bars)
{
	bool ci = false;

	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_results *r = &a->group[id].res;
		const struct ss_set_analysis *g = &an->group[id];

		bars[i].label = lab[i];
		bars[i].value = r->has[SS_M_ACCEPTANCE_LENGTH] ? r->stats[SS_M_ACCEPTANCE_LENGTH].avg : NAN;
		if (g->has_ci[SS_BS_AL]) {
			bars[i].has_interval = true;
			bars[i].lo = g->lo[SS_BS_AL];
			bars[i].hi = g->hi[SS_BS_AL];
			ci = true;
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

enum { MAX_KEYS = 16 };

/* The table of every group: its keys, requests, with stats, AL avg and
 * p50 (and its interval when `ci`), TWAL, DAR, ODAR. */
static void groups_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			 bool ci)
{
	static const struct ss_tab_col tail[] = {
		{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"With stats", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"AL avg", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"AL p50", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"AL interval", SS_COL_TEXT, false, 0, NULL, NULL, false},
		{"TWAL", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"DAR avg (%)", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"ODAR (%)", SS_COL_FIX2, false, 0, NULL, NULL, true},
	};
	static const int cols[] = {
		SS_M_TOKEN_WEIGHTED_AL, SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	};
	size_t nk = a->groups.nkeys < MAX_KEYS ? a->groups.nkeys : MAX_KEYS, nc = 0;
	struct ss_tab_col col[MAX_KEYS + sizeof(tail) / sizeof(tail[0])];
	struct ss_tab t;

	for (size_t k = 0; k < nk; k++)
		col[nc++] = (struct ss_tab_col){an->opts->group_by.keys[k].name, SS_COL_NAME, true,
						0, NULL, NULL, false};
	for (size_t c = 0; c < sizeof(tail) / sizeof(tail[0]); c++)
		if (ci || c != 4)
			col[nc++] = tail[c];
	ss_tab_init(&t, col, nc);
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_group *grp = &a->group[id];
		const struct ss_results *r = &grp->res;
		const struct ss_set_analysis *g = &an->group[id];
		const struct ss_kv *kv = ss_group_table_key(&a->groups, id);
		bool al = r->has[SS_M_ACCEPTANCE_LENGTH];

		for (size_t k = 0; k < nk; k++) {
			ss_kv_add_text(ss_tab_begin(&t), &kv[k]);
			ss_tab_end(&t);
		}
		ss_tab_int(&t, (__int128)grp->total);
		ss_tab_int(&t, (__int128)grp->status[SS_ST_OK]);
		if (al) {
			ss_tab_num(&t, r->stats[SS_M_ACCEPTANCE_LENGTH].avg);
			ss_tab_num(&t, r->stats[SS_M_ACCEPTANCE_LENGTH].p50);
		} else {
			ss_tab_empty(&t);
			ss_tab_empty(&t);
		}
		if (ci && g->has_ci[SS_BS_AL]) {
			struct ss_buf *v = ss_tab_begin(&t);

			ss_buf_add_fixed2(v, g->lo[SS_BS_AL]);
			ss_buf_adds(v, "\xE2\x80\x93");
			ss_buf_add_fixed2(v, g->hi[SS_BS_AL]);
			ss_tab_end(&t);
		} else if (ci) {
			ss_tab_empty(&t);
		}
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			if (r->has[cols[c]])
				ss_tab_num(&t, r->stats[cols[c]].avg);
			else
				ss_tab_empty(&t);
	}
	ss_buf_adds(b, "<div class=\"tw groups\">\n");
	ss_tab_html(b, &t, "Every group (AL: acceptance length, TWAL: token-weighted acceptance "
		    "length, DAR: draft acceptance rate, ODAR: overall draft acceptance rate)");
	ss_buf_adds(b, "</div>\n");
	ss_tab_release(&t);
}

void ss_html_groups(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	size_t n = a->groups.n;
	struct ss_bar *bars = ss_calloc(n ? n : 1, sizeof(*bars));
	struct ss_buf *store = ss_calloc(n ? n : 1, sizeof(*store));
	const char **lab = ss_calloc(n ? n : 1, sizeof(*lab));
	struct ss_buf keys = SS_BUF_INIT, axis = SS_BUF_INIT;
	bool ci;

	if (!bars || !store || !lab) {
		b->failed = true;
		goto out;
	}
	ss_html_group_keys(&keys, an);
	ss_html_group_labels(a, an, store, lab, &axis);
	ci = fill_bars(a, an, lab, bars);

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
	ss_buf_adds(b, an->has_baseline ? ". The differences from the baseline are in the "
			"comparison at the top of the page.</p>\n" : ".</p>\n");
	groups_chart(b, an, bars, n, ci, keys.data ? keys.data : "", axis.data ? axis.data : "");
	groups_table(b, a, an, ci);
	ss_buf_adds(b, "</section>\n");
out:
	if (keys.failed || axis.failed)
		b->failed = true;
	ss_buf_release(&axis);
	ss_buf_release(&keys);
	if (store)
		for (size_t i = 0; i < n; i++) {
			if (store[i].failed)
				b->failed = true;
			ss_buf_release(&store[i]);
		}
	ss_free(store);
	ss_free(lab);
	ss_free(bars);
}
