/*
 * report.c - the one section list of the reports and its walk: the four
 * aggregate reports of report.h, and the body of the page (html.c), each
 * a walk of the list in its order, calling the entries that write in that
 * format. The callers ask for one render per format and compose nothing.
 *
 * The list is the order of every format at once (SPEC 4, 7, 9.1, 10.4): a
 * section that sits at another place in one format has a second entry
 * there (the console says what was read after SPEC 7's lines, Markdown
 * right after the results). Each entry's writer says when the section has
 * something to say in that format; the section's own writers (section.h)
 * say it.
 */
#include "report/report.h"

#include "report/html_int.h"
#include "report/jsonw.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

/* The options when the analysis has something (`any`), else NULL. */
static const struct ss_analysis_opts *opts(const struct ss_report_walk *k)
{
	return k->c.an && k->c.an->any ? k->c.an->opts : NULL;
}

/* The page's: the analysis the page was given, `any` or not. */
static const struct ss_analysis_opts *page_opts(const struct ss_report_walk *k)
{
	return k->c.an ? k->c.an->opts : NULL;
}

/* With --compare the console's comparison leads (issue 34). */
static bool lead(const struct ss_report_walk *k)
{
	const struct ss_analysis_opts *o = opts(k);

	return o && o->group_by.n && k->c.an->has_baseline;
}

/* The console's lines of SPEC 7's sections draw no bold heads. */
static struct ss_report_ctx plain(const struct ss_report_walk *k)
{
	struct ss_report_ctx c = k->c;

	c.color = false;
	return c;
}

/* -- what was read and the results ------------------------------------------- */

static void read_json(const struct ss_report_walk *k)
{
	ss_sec_read_json(k->w, &k->c, k->version);
}

static void read_out(const struct ss_report_walk *k)
{
	if (k->fmt == SS_RF_HTML)
		ss_sec_read_html(k->out, &k->c, k->ho);
	else if (k->fmt == SS_RF_MD)
		ss_sec_read_md(k->out, &k->c);
	else
		ss_sec_read_text(k->out, &k->c);
}

static void results_json(const struct ss_report_walk *k)
{
	ss_sec_results_json(k->w, &k->c);
}

static void results_out(const struct ss_report_walk *k)
{
	switch (k->fmt) {
	case SS_RF_TEXT: ss_sec_results_text(k->out, &k->c); break;
	case SS_RF_MD: ss_sec_results_md(k->out, &k->c); break;
	case SS_RF_CSV: ss_sec_results_csv(k->out, &k->c); break;
	default: ss_sec_results_html(k->out, &k->c); break;
	}
}

/* The page's pooled charts, when there is a result. */
static void histogram_html(const struct ss_report_walk *k)
{
	if (ss_results_any(&k->c.a->main))
		ss_html_histogram(k->out, k->c.a);
}

static void distribution_html(const struct ss_report_walk *k)
{
	if (ss_results_any(&k->c.a->main))
		ss_html_distribution(k->out, k->c.a);
}

/* -- SPEC 7 ---------------------------------------------------------------------- */

/* Whether `analysis` has a member: --speedup alone writes only `timing`. */
static bool has_analysis_key(const struct ss_analysis_opts *o)
{
	return o && (o->positions || o->ci || o->group_by.n || o->windows || o->outliers ||
		     o->definitions);
}

static void analysis_open(const struct ss_report_walk *k)
{
	if (has_analysis_key(opts(k)))
		ss_jsonw_begin_object(k->w, "analysis");
}

static void analysis_close(const struct ss_report_walk *k)
{
	if (has_analysis_key(opts(k)))
		ss_jsonw_end_object(k->w);
}

static void positions_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->positions)
		ss_sec_positions_json(k->w, &k->c);
}

static void positions_out(const struct ss_report_walk *k)
{
	struct ss_report_ctx c = plain(k);

	if (k->fmt == SS_RF_HTML) {
		if (ss_results_any(&k->c.a->main) && k->c.an)
			ss_sec_positions_html(k->out, &k->c);
		return;
	}
	if (!opts(k) || !opts(k)->positions)
		return;
	if (k->fmt == SS_RF_TEXT)
		ss_sec_positions_text(k->out, &c);
	else if (k->fmt == SS_RF_MD)
		ss_sec_positions_md(k->out, &k->c);
	else
		ss_sec_positions_csv(k->out, &k->c);
}

static void intervals_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->ci)
		ss_sec_intervals_json(k->w, &k->c);
}

static void intervals_out(const struct ss_report_walk *k)
{
	struct ss_report_ctx c = plain(k);

	if (!opts(k) || !opts(k)->ci)
		return;
	if (k->fmt == SS_RF_CSV)
		ss_sec_intervals_csv(k->out, &k->c);
	else if (!k->c.a->main.ok)
		return;
	else if (k->fmt == SS_RF_TEXT)
		ss_sec_intervals_text(k->out, &c);
	else
		ss_sec_intervals_md(k->out, &k->c);
}

/* The console's comparison first, then the line that says the rest is
 * pooled; prose from here fitted to the console's width, but SPEC 4.3's
 * section, which keeps its layout. The page's lead is html.c's. */
static void groups_lead_text(const struct ss_report_walk *k)
{
	size_t from = k->out->len;

	if (lead(k)) {
		ss_sec_groups_text(k->out, &k->c);
		ss_buf_addf(k->out, "\nPooled: every group's requests together (%zu groups); "
			    "the figures below describe no one group.\n", k->c.a->groups.n);
	}
	ss_tab_fit_lines(k->out, from);
}

static void groups_lead_html(const struct ss_report_walk *k)
{
	ss_html_page_lead(k->out, &k->c);
}

static void groups_lead_end_html(const struct ss_report_walk *k)
{
	ss_html_page_lead_end(k->out, &k->c);
}

static void groups_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->group_by.n)
		ss_sec_groups_json(k->w, &k->c);
}

static void groups_out(const struct ss_report_walk *k)
{
	const struct ss_analysis_opts *o = opts(k);

	if (!o || !o->group_by.n)
		return;
	if (k->fmt == SS_RF_TEXT && !lead(k))
		ss_sec_groups_text(k->out, &k->c);
	else if (k->fmt == SS_RF_MD && k->c.a->groups.n)
		ss_sec_groups_md(k->out, &k->c);
	else if (k->fmt == SS_RF_CSV)
		ss_sec_groups_csv(k->out, &k->c);
}

static void timing_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->speedup)
		ss_sec_timing_json(k->w, &k->c.an->main);
}

static void speedup_out(const struct ss_report_walk *k)
{
	if (k->fmt == SS_RF_HTML) {
		if (page_opts(k) && page_opts(k)->speedup)
			ss_sec_speedup_html(k->out, &k->c);
		return;
	}
	if (!opts(k) || !opts(k)->speedup)
		return;
	if (k->fmt == SS_RF_TEXT)
		ss_sec_speedup_text(k->out, &k->c);
	else if (k->fmt == SS_RF_MD)
		ss_sec_speedup_md(k->out, &k->c);
	else
		ss_sec_speedup_csv(k->out, &k->c);
}

static void timing_html(const struct ss_report_walk *k)
{
	if (page_opts(k) && page_opts(k)->speedup)
		ss_sec_timing_html(k->out, &k->c);
}

static void windows_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->windows)
		ss_sec_windows_json(k->w, &k->c);
}

static void windows_out(const struct ss_report_walk *k)
{
	struct ss_report_ctx c = plain(k);

	if (k->fmt == SS_RF_HTML) {
		if (!page_opts(k) || !page_opts(k)->windows)
			return;
		if (k->srv)
			ss_sec_server_windows_html(k->out, k->c.an, k->srv);   /* one time axis (7.8) */
		else
			ss_sec_windows_html(k->out, &k->c);
		return;
	}
	if (!opts(k) || !opts(k)->windows)
		return;
	if (k->fmt == SS_RF_TEXT)
		ss_sec_windows_text(k->out, &c);
	else if (k->fmt == SS_RF_MD)
		ss_sec_windows_md(k->out, &k->c);
	else
		ss_sec_windows_csv(k->out, &k->c);
}

static void outliers_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->outliers)
		ss_sec_outliers_json(k->w, &k->c);
}

static void outliers_out(const struct ss_report_walk *k)
{
	const struct ss_analysis_opts *o = k->fmt == SS_RF_HTML ? page_opts(k) : opts(k);

	if (!o || !o->outliers)
		return;
	switch (k->fmt) {
	case SS_RF_TEXT: ss_sec_outliers_text(k->out, &k->c); break;
	case SS_RF_MD: ss_sec_outliers_md(k->out, &k->c); break;
	case SS_RF_CSV: ss_sec_outliers_csv(k->out, &k->c); break;
	default: ss_sec_outliers_html(k->out, &k->c); break;
	}
}

/* SPEC 7.12: last of the analysis's sections. */
static void defs_json(const struct ss_report_walk *k)
{
	if (opts(k) && opts(k)->definitions)
		ss_sec_defs_json(k->w, &k->c);
}

static void defs_out(const struct ss_report_walk *k)
{
	const struct ss_analysis_opts *o = k->fmt == SS_RF_HTML ? page_opts(k) : opts(k);

	if (!o || !o->definitions)
		return;
	switch (k->fmt) {
	case SS_RF_TEXT: ss_sec_defs_text(k->out, &k->c); break;
	case SS_RF_MD: ss_sec_defs_md(k->out, &k->c); break;
	case SS_RF_CSV: ss_sec_defs_csv(k->out, &k->c); break;
	default: ss_sec_defs_html(k->out, &k->c); break;
	}
}

/* -- the server (SPEC 10.4, last; 9.1) ------------------------------------------ */

static void server_json(const struct ss_report_walk *k)
{
	if (k->srv)
		ss_sec_server_json(k->w, k->srv);
}

static void server_out(const struct ss_report_walk *k)
{
	size_t from = k->out->len;   /* the console's lines and notes */

	if (!k->srv)
		return;
	switch (k->fmt) {
	case SS_RF_TEXT:
		ss_sec_server_text(k->out, k->srv);
		ss_sec_server_groups_text(k->out, k->srv, k->c.utf8, k->c.color);
		ss_tab_fit_lines(k->out, from);
		break;
	case SS_RF_MD:
		ss_sec_server_md(k->out, k->srv);
		ss_sec_server_groups_md(k->out, k->srv);
		break;
	case SS_RF_CSV:
		ss_sec_server_csv(k->out, k->srv);
		ss_sec_server_groups_csv(k->out, k->srv);
		break;
	default:
		ss_sec_server_html(k->out, k->srv);
		ss_sec_server_groups_html(k->out, k->srv);
		break;
	}
}

/* -- the list ---------------------------------------------------------------------- */

#define J SS_RF_JSON
#define T SS_RF_TEXT
#define M SS_RF_MD
#define C SS_RF_CSV
#define H SS_RF_HTML

static const struct {
	const char *section;
	void (*put[SS_RF_COUNT])(const struct ss_report_walk *k);
} sections[] = {
	{"speedup", {[H] = speedup_out}},   /* the page opens with the speedup's chart */
	{"groups", {[T] = groups_lead_text, [H] = groups_lead_html}},   /* --compare leads */
	{"read", {[J] = read_json, [H] = read_out}},
	{"results", {[J] = results_json, [T] = results_out, [M] = results_out, [C] = results_out,
		     [H] = results_out}},
	{"read", {[M] = read_out}},
	{"speedup", {[J] = timing_json}},
	{"analysis", {[J] = analysis_open}},
	{"histogram", {[H] = histogram_html}},
	{"positions", {[J] = positions_json, [T] = positions_out, [M] = positions_out,
		       [C] = positions_out, [H] = positions_out}},
	{"intervals", {[J] = intervals_json, [T] = intervals_out, [M] = intervals_out,
		       [C] = intervals_out}},
	{"distribution", {[H] = distribution_html}},
	{"groups", {[H] = groups_lead_end_html}},   /* the pooled part's end */
	{"speedup", {[H] = timing_html}},
	{"windows", {[T] = windows_out}},
	{"read", {[T] = read_out}},
	{"groups", {[J] = groups_json, [T] = groups_out, [M] = groups_out, [C] = groups_out}},
	{"speedup", {[T] = speedup_out, [M] = speedup_out}},
	{"windows", {[J] = windows_json, [M] = windows_out, [C] = windows_out, [H] = windows_out}},
	{"outliers", {[J] = outliers_json, [T] = outliers_out, [M] = outliers_out,
		      [C] = outliers_out, [H] = outliers_out}},
	{"definitions", {[J] = defs_json, [T] = defs_out, [M] = defs_out, [C] = defs_out,
			 [H] = defs_out}},
	{"speedup", {[C] = speedup_out}},
	{"analysis", {[J] = analysis_close}},
	{"server", {[J] = server_json, [T] = server_out, [M] = server_out, [C] = server_out, [H] = server_out}},
};

#undef J
#undef T
#undef M
#undef C
#undef H

void ss_report_walk(const struct ss_report_walk *k)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (sections[i].put[k->fmt])
			sections[i].put[k->fmt](k);
}

/* -- the four reports --------------------------------------------------------------- */

void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		    const struct ss_server_results *srv, const char *version)
{
	struct ss_jsonw w;

	ss_jsonw_init(&w, out);
	ss_jsonw_begin_object(&w, NULL);
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_JSON, .c = {a, an, false, false},
						.srv = srv, .version = version, .w = &w});
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}

void ss_report_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_server_results *srv)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_CSV, .c = {a, an, false, false},
						.srv = srv, .out = out});
}

void ss_report_table(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		     const struct ss_server_results *srv, bool utf8, bool color)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_TEXT, .c = {a, an, utf8, color},
						.srv = srv, .out = out});
}

/* SPEC 9.2: GitHub-flavoured Markdown, numbers as the console prints them. */
void ss_report_markdown(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_MD, .c = {a, an, true, false},
						.srv = srv, .out = out});
}
