/*
 * report.c - the one section list of the reports and its walk: the four
 * aggregate reports of report.h, and the body of the page (html.c), each
 * a walk of the list in its order, calling the entries that write in that
 * format. The callers ask for one render per format and compose nothing.
 *
 * The list is the order of every format at once (SPEC 4, 7, 9.1, 10.4): a
 * section that sits at another place in one format has a second entry
 * there (the console says what was read after SPEC 7's lines, Markdown
 * right after the results). An entry is one struct of writers, one per
 * format (NULL where the section says nothing there), the section's own
 * (section.h) wherever one call says it, and the test of when the section
 * has something to say: adding a section is adding its entry.
 */
#include "report/report.h"

#include "report/html_int.h"
#include "report/jsonw.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

/*
 * An entry's writers, one per format, NULL where the section says nothing
 * in that format at this place; each borrows the context and appends. An
 * entry's `on` says whether its section writes in the walk's format (NULL:
 * whenever it has a writer); `plain` that the console's lines draw no
 * bold heads (SPEC 7's).
 */
struct ss_report_writers {
	void (*json)(struct ss_jsonw *w, const struct ss_report_ctx *c);
	void (*text)(struct ss_buf *out, const struct ss_report_ctx *c);
	void (*md)(struct ss_buf *out, const struct ss_report_ctx *c);
	void (*csv)(struct ss_buf *out, const struct ss_report_ctx *c);
	void (*html)(struct ss_buf *out, const struct ss_report_ctx *c);
};

struct ss_report_entry {
	const char *section;
	bool (*on)(enum ss_report_fmt f, const struct ss_report_ctx *c);
	bool plain;
	struct ss_report_writers put;
};

/* The options that say which sections write: the page's are those of the
 * analysis it was given, `any` or not; the other formats' only when the
 * analysis has something. NULL when there are none. */
static const struct ss_analysis_opts *opts(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	if (!c->an)
		return NULL;
	return f == SS_RF_HTML || c->an->any ? c->an->opts : NULL;
}

/* With --compare the console's comparison leads (issue 34). */
static bool lead(const struct ss_report_ctx *c)
{
	const struct ss_analysis_opts *o = opts(SS_RF_TEXT, c);

	return o && o->group_by.n && c->an->has_baseline;
}

/* -- when a section writes ----------------------------------------------------- */

/* The page's pooled charts, when there is a result. */
static bool on_result(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	(void)f;
	return ss_results_any(&c->a->main);
}

/* Whether `analysis` has a member: --speedup alone writes only `timing`. */
static bool on_analysis(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	const struct ss_analysis_opts *o = opts(f, c);

	return o && (o->positions || o->ci || o->group_by.n || o->windows || o->outliers ||
		     o->definitions);
}

/* The page draws the positions whenever there is a result to draw. */
static bool on_positions(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	if (f == SS_RF_HTML)
		return ss_results_any(&c->a->main) && c->an;
	return opts(f, c) && opts(f, c)->positions;
}

/* The intervals' lines and table need the results; the CSV writes its head. */
static bool on_intervals(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	return opts(f, c) && opts(f, c)->ci && (f == SS_RF_CSV || c->a->main.ok);
}

/* The console's groups are here unless they lead; Markdown's when any. */
static bool on_groups(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	if (!opts(f, c) || !opts(f, c)->group_by.n)
		return false;
	return f == SS_RF_TEXT ? !lead(c) : f != SS_RF_MD || c->a->groups.n;
}

static bool on_speedup(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	return opts(f, c) && opts(f, c)->speedup;
}

static bool on_windows(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	return opts(f, c) && opts(f, c)->windows;
}

static bool on_outliers(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	return opts(f, c) && opts(f, c)->outliers;
}

static bool on_defs(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	return opts(f, c) && opts(f, c)->definitions;
}

static bool on_server(enum ss_report_fmt f, const struct ss_report_ctx *c)
{
	(void)f;
	return c->srv;
}

/* -- writers that are more than one section's call ---------------------------- */

/* The console's comparison first, then the line that says the rest is
 * pooled; prose from here fitted to the console's width, but SPEC 4.3's
 * section, which keeps its layout. The page's lead is html.c's. */
static void groups_lead_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	size_t from = out->len;

	if (lead(c)) {
		ss_sec_groups_text(out, c);
		ss_buf_addf(out, "\nPooled: every group's requests together (%zu groups); "
			    "the figures below describe no one group.\n", c->a->groups.n);
	}
	ss_tab_fit_lines(out, from);
}

static void analysis_open(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	(void)c;
	ss_jsonw_begin_object(w, "analysis");
}

static void analysis_close(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	(void)c;
	ss_jsonw_end_object(w);
}

static void timing_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	ss_sec_timing_json(w, &c->an->main);
}

/* With the server's families the windows share one time axis (7.8). */
static void windows_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	if (c->srv)
		ss_sec_server_windows_html(out, c->an, c->srv);
	else
		ss_sec_windows_html(out, c);
}

/* SPEC 10.4 with 10.7: the server's counters, then its results per
 * directory; the console's lines and notes fitted. */
static void server_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	ss_sec_server_json(w, c->srv);
}

static void server_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	size_t from = out->len;

	ss_sec_server_text(out, c->srv);
	ss_sec_server_groups_text(out, c->srv, c->utf8, c->color);
	ss_tab_fit_lines(out, from);
}

static void server_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	ss_sec_server_md(out, c->srv);
	ss_sec_server_groups_md(out, c->srv);
}

static void server_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	ss_sec_server_csv(out, c->srv);
	ss_sec_server_groups_csv(out, c->srv);
}

static void server_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	ss_sec_server_html(out, c->srv);
	ss_sec_server_groups_html(out, c->srv);
}

/* -- the list ---------------------------------------------------------------------- */

static const struct ss_report_entry sections[] = {
	/* the page opens with the speedup's chart */
	{"speedup", on_speedup, false, {.html = ss_sec_speedup_html}},
	/* --compare leads */
	{"groups", NULL, false, {.text = groups_lead_text, .html = ss_html_page_lead}},
	{"read", NULL, false, {.json = ss_sec_read_json, .html = ss_sec_read_html}},
	{"results", NULL, false, {ss_sec_results_json, ss_sec_results_text, ss_sec_results_md,
				  ss_sec_results_csv, ss_sec_results_html}},
	{"read", NULL, false, {.md = ss_sec_read_md}},   /* Markdown: after the results */
	{"speedup", on_speedup, false, {.json = timing_json}},
	{"analysis", on_analysis, false, {.json = analysis_open}},
	{"histogram", on_result, false, {.html = ss_sec_results_hist_html}},
	{"positions", on_positions, true, {ss_sec_positions_json, ss_sec_positions_text,
					   ss_sec_positions_md, ss_sec_positions_csv,
					   ss_sec_positions_html}},
	{"intervals", on_intervals, true, {ss_sec_intervals_json, ss_sec_intervals_text,
					   ss_sec_intervals_md, ss_sec_intervals_csv, NULL}},
	{"distribution", on_result, false, {.html = ss_sec_results_dist_html}},
	/* the page's pooled part's end */
	{"groups", NULL, false, {.html = ss_html_page_lead_end}},
	{"speedup", on_speedup, false, {.html = ss_sec_timing_html}},
	{"windows", on_windows, true, {.text = ss_sec_windows_text}},
	/* the console: what was read after SPEC 7's lines */
	{"read", NULL, false, {.text = ss_sec_read_text}},
	{"groups", on_groups, false, {.json = ss_sec_groups_json, .text = ss_sec_groups_text,
				      .md = ss_sec_groups_md, .csv = ss_sec_groups_csv}},
	{"speedup", on_speedup, false, {.text = ss_sec_speedup_text, .md = ss_sec_speedup_md}},
	{"windows", on_windows, false, {.json = ss_sec_windows_json, .md = ss_sec_windows_md,
					.csv = ss_sec_windows_csv, .html = windows_html}},
	{"outliers", on_outliers, false, {ss_sec_outliers_json, ss_sec_outliers_text,
					  ss_sec_outliers_md, ss_sec_outliers_csv,
					  ss_sec_outliers_html}},
	/* SPEC 7.12: last of the analysis's sections */
	{"definitions", on_defs, false, {ss_sec_defs_json, ss_sec_defs_text, ss_sec_defs_md,
					 ss_sec_defs_csv, ss_sec_defs_html}},
	{"speedup", on_speedup, false, {.csv = ss_sec_speedup_csv}},
	{"analysis", on_analysis, false, {.json = analysis_close}},
	/* SPEC 10.4, last; 9.1 */
	{"server", on_server, false, {server_json, server_text, server_md, server_csv,
				      server_html}},
};

/* The entry's writer in the walk's format, when it has one. */
static void put(const struct ss_report_writers *p, const struct ss_report_walk *k,
		const struct ss_report_ctx *c)
{
	void (*w)(struct ss_buf *out, const struct ss_report_ctx *c) = NULL;

	switch (k->fmt) {
	case SS_RF_JSON:
		if (p->json)
			p->json(k->w, c);
		return;
	case SS_RF_TEXT: w = p->text; break;
	case SS_RF_MD: w = p->md; break;
	case SS_RF_CSV: w = p->csv; break;
	case SS_RF_HTML: w = p->html; break;
	case SS_RF_COUNT: break;
	}
	if (w)
		w(k->out, c);
}

void ss_report_walk(const struct ss_report_walk *k)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		const struct ss_report_entry *e = &sections[i];
		struct ss_report_ctx c = k->c;

		if (e->on && !e->on(k->fmt, &c))
			continue;
		if (e->plain && k->fmt == SS_RF_TEXT)
			c.color = false;
		put(&e->put, k, &c);
	}
}

/* -- the four reports --------------------------------------------------------------- */

void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		    const struct ss_server_results *srv, const char *version)
{
	struct ss_jsonw w;

	ss_jsonw_init(&w, out);
	ss_jsonw_begin_object(&w, NULL);
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_JSON, .w = &w,
						.c = {a, an, false, false, srv, version, NULL}});
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}

void ss_report_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_server_results *srv)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_CSV, .out = out,
						.c = {a, an, false, false, srv, NULL, NULL}});
}

void ss_report_table(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		     const struct ss_server_results *srv, bool utf8, bool color)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_TEXT, .out = out,
						.c = {a, an, utf8, color, srv, NULL, NULL}});
}

/* SPEC 9.2: GitHub-flavoured Markdown, numbers as the console prints them. */
void ss_report_markdown(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv)
{
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_MD, .out = out,
						.c = {a, an, true, false, srv, NULL, NULL}});
}
