/*
 * html.c - the HTML report (see html.h): the page, its style sheet, its
 * header with the key figures, the lead (the answer or the groups first,
 * the rest folded) and its footer, around the body that the section list
 * writes (report.c: the sections of section.h); and the few writers the
 * page's sections share (html_int.h).
 */
#include <stdint.h>

#include "report/chart_geom.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"
#include "report/section.h"

static const char css[] =
	":root{--ink:#1f2328;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#fff;color:var(--ink);"
	"font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",Arial,sans-serif}\n"
	"main{max-width:1200px;margin:0 auto;padding:24px 32px 48px}\n"
	"h1{font-size:26px;line-height:1.25;margin:0 0 4px}\n"
	"h2{font-size:20px;margin:40px 0 12px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
	"h3{font-size:16px;margin:24px 0 8px}\n"
	"p{margin:8px 0;max-width:90ch}\n"
	".sub{color:var(--muted);margin:0}\n"
	".cards{display:flex;flex-wrap:wrap;gap:12px;margin:20px 0 8px}\n"
	".card{flex:1 1 200px;border:1px solid var(--line);border-radius:8px;padding:10px 16px;background:var(--soft)}\n"
	".card .v{display:block;font-size:28px;font-weight:600;font-variant-numeric:tabular-nums}\n"
	".card .l{display:block;color:var(--muted);font-size:13px}\n"
	".card .ci{display:block;color:var(--muted);font-size:13px;font-variant-numeric:tabular-nums}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:14px;margin:4px 0 8px}\n"
	"caption{text-align:left;color:var(--muted);font-size:13px;padding:0 0 4px}\n"
	"th,td{padding:3px 10px;border-bottom:1px solid var(--line);text-align:right;vertical-align:top}\n"
	"thead th{background:var(--soft);font-weight:600;border-bottom:2px solid var(--line)}\n"
	"th:first-child,td:first-child{text-align:left}\n"
	"th.l,td.l{text-align:left}\n"
	"td.name{text-align:left;max-width:520px;overflow-wrap:anywhere}\n"
	/* a table wider than the page scrolls by itself, the page never does */
	".tw{max-width:100%;overflow-x:auto}\n"
	"tr.total td{font-weight:600}\n"
	".fig{display:flex;flex-wrap:wrap;gap:12px 32px;align-items:flex-start;margin:8px 0 16px}\n"
	".fig svg{flex:0 1 auto;max-width:100%;height:auto}\n"
	".fig table{font-size:13px}\n"
	".note{color:var(--muted);font-size:13px}\n"
	".missing{border-left:4px solid #E69F00;background:#fff8e6;padding:8px 14px;max-width:90ch}\n"
	"code{font-size:90%;background:var(--soft);padding:0 3px;border-radius:3px}\n"
	/* --compare: the groups side by side */
	".side{display:flex;flex-wrap:wrap;gap:12px 24px;margin:12px 0}\n"
	".grp{flex:1 1 300px;min-width:0}\n"
	".grp h3{margin:4px 0 2px;overflow-wrap:anywhere}\n"
	".grp .cards{margin:6px 0}\n"
	".grp .card{flex:1 1 110px;padding:6px 12px}\n"
	".grp .card .v{font-size:24px}\n"
	".grp svg{max-width:100%;height:auto;display:block;margin:8px 0}\n"
	".card .d{display:block;font-size:13px;font-variant-numeric:tabular-nums}\n"
	".card .d.sig{font-weight:600}\n"
	".tag{font-size:12px;font-weight:600;color:#fff;background:var(--muted);border-radius:4px;"
	"padding:1px 6px;vertical-align:2px}\n"
	"#answer ul{margin:8px 0;padding-left:20px}\n"
	"details.num>summary{color:var(--muted);font-size:13px;cursor:pointer}\n"
	".tw.groups td.name{max-width:340px}\n"
	"details.rest>summary{margin:32px 0 8px;font-size:18px;font-weight:600;cursor:pointer}\n"
	"@media print{details.rest>*{display:block}}\n"
	"footer{margin-top:48px;border-top:1px solid var(--line);padding-top:8px}\n"
	/* under --compare, every pooled section's title says so */
	".pooled h2::after{content:\" \\2014  all groups pooled\";color:var(--muted);"
	"font-weight:400;font-size:15px}\n"
	"@media print{main{max-width:none;padding:0}h2{break-after:avoid}"
	".fig,table,.card{break-inside:avoid}.card{background:none}}\n";

/* -- header and key figures ---------------------------------------------- */

/* The engines of the run as "vllm, sglang" (borrowed names). */
static void add_engines(struct ss_buf *b, const struct ss_agg *a)
{
	for (size_t i = 0; i < a->nengines; i++) {
		if (i)
			ss_buf_adds(b, ", ");
		ss_buf_add_htmls(b, a->engines[i].name);
	}
}

/* The bootstrap statistic of a metric (SPEC 7.2), -1 when it has none. */
static int stat_of(int m)
{
	for (int k = 0; k < SS_BS_COUNT; k++)
		if (ss_boot_metric[k] == m)
			return k;
	return -1;
}

/* "95% interval 2.31–2.62" (level as the console writes it). */
static void add_interval(struct ss_buf *b, const struct ss_analysis *an, double lo, double hi,
			 int decimals, const char *suffix)
{
	ss_report_add_level(b, an->opts->level);
	ss_buf_adds(b, "% interval ");
	ss_chart_add_fixed(b, lo, decimals);
	ss_buf_adds(b, "&ndash;");
	ss_chart_add_fixed(b, hi, decimals);
	ss_buf_adds(b, suffix);
}

static void card(struct ss_buf *b, const char *label, const struct ss_results *r,
		 const struct ss_analysis *an, int m, int decimals, const char *suffix)
{
	int k = stat_of(m);

	ss_buf_adds(b, "<div class=\"card\"><span class=\"l\">");
	ss_buf_add_htmls(b, label);
	ss_buf_adds(b, "</span><span class=\"v\">");
	if (r->has[m]) {
		ss_chart_add_fixed(b, r->stats[m].avg, decimals);
		ss_buf_adds(b, suffix);
	} else {
		ss_buf_adds(b, "N/A");
	}
	ss_buf_adds(b, "</span>");
	if (an && k >= 0 && an->main.has_ci[k]) {
		ss_buf_adds(b, "<span class=\"ci\">");
		add_interval(b, an, an->main.lo[k], an->main.hi[k], decimals, suffix);
		ss_buf_adds(b, "</span>");
	}
	ss_buf_adds(b, "</div>\n");
}

static void header(struct ss_buf *b, const struct ss_agg *a,
		   const struct ss_html_opts *o)
{
	ss_buf_adds(b, "<header>\n<h1>Spec Decode report</h1>\n<p class=\"sub\">");
	ss_buf_add_u64_grouped(b, a->total);
	ss_buf_adds(b, a->total == 1 ? " request from " : " requests from ");
	ss_buf_add_u64_grouped(b, a->ninputs);
	ss_buf_adds(b, a->ninputs == 1 ? " input" : " inputs");
	if (a->nengines) {
		ss_buf_adds(b, " &middot; ");
		add_engines(b, a);
	}
	ss_buf_adds(b, " &middot; ");
	ss_buf_adds(b, a->mode == SS_PHASES_WARMUP ? "warmup requests" :
		       a->mode == SS_PHASES_ALL ? "all phases" : "profiling requests");
	ss_buf_adds(b, " &middot; specscan ");
	ss_buf_add_htmls(b, o->version);
	ss_buf_adds(b, "</p>\n</header>\n");

}

/* The key figures of all requests (pooled under --compare, and said). */
static void pooled_cards(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_results *r = &a->main;
	bool pooled = an && an->has_baseline;

	if (!ss_results_any(r))
		return;
	ss_buf_adds(b, "<div class=\"cards\">\n");
	card(b, pooled ? "Acceptance length, all groups pooled" : "Acceptance length (mean per request)",
	     r, an, SS_M_ACCEPTANCE_LENGTH, 2, "");
	card(b, pooled ? "Token-weighted acceptance length, pooled" : "Token-weighted acceptance length",
	     r, an, SS_M_TOKEN_WEIGHTED_AL, 2, "");
	card(b, pooled ? "Overall draft acceptance rate, pooled" : "Overall draft acceptance rate",
	     r, an, SS_M_OVERALL_DAR, 1, "%");
	ss_buf_adds(b, pooled ? "<div class=\"card\"><span class=\"l\">Requests with stats, all groups</span><span class=\"v\">"
			 : "<div class=\"card\"><span class=\"l\">Requests with stats</span><span class=\"v\">");
	ss_buf_add_u64_grouped(b, a->status[SS_ST_OK]);
	ss_buf_adds(b, "</span><span class=\"ci\">of ");
	ss_buf_add_u64_grouped(b, a->total);
	ss_buf_adds(b, " (");
	ss_html_add_pct(b, (double)a->status[SS_ST_OK], (double)a->total);
	ss_buf_adds(b, "%)</span></div>\n</div>\n");
}

/* -- the writers the page's sections share (html_int.h) ----------------------- */

void ss_html_add_count(struct ss_buf *b, __int128 v)
{
	if (v >= 0 && v <= (__int128)UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, v);
}

void ss_html_add_pct(struct ss_buf *b, double part, double total)
{
	ss_chart_add_small(b, total > 0 ? part / total * 100.0 : 0.0, 1);
}

void ss_html_missing(struct ss_buf *b, const char *text)
{
	ss_buf_adds(b, "<p class=\"missing\">");
	ss_buf_add_htmls(b, text);
	ss_buf_adds(b, "</p>\n");
}

void ss_html_missing_end(struct ss_buf *b, struct ss_buf *why)
{
	if (why->failed)
		b->failed = true;
	else
		ss_html_missing(b, why->data);
	ss_buf_release(why);
	ss_buf_adds(b, "</section>\n");
}

/* -- the lead of the page ------------------------------------------------------ */

/* Issue 34 item 3: the answer first, the rest behind it. Groups without a
 * baseline: the chart per group, then the pooled sections folded. With
 * --compare (SPEC 9.1): each group's figures and curves side by side, then
 * folded the groups' chart and table and the pooled sections, labelled as
 * pooled. */
void ss_html_page_lead(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	bool cmp = an && an->has_baseline, groups_first = an && a->groups.n && !cmp;

	if (cmp) {
		ss_sec_groups_answer_html(out, c);
		ss_sec_groups_each_html(out, c);
		ss_buf_adds(out, "<details class=\"rest\">\n<summary>More: the groups' chart and "
				 "table; all requests pooled: what was read, the Spec Decode table, "
				 "the histogram, acceptance by position, the distribution</summary>\n");
		ss_sec_groups_html(out, c);
		ss_buf_adds(out, "<div class=\"pooled\">\n");
	} else {
		pooled_cards(out, a, an);
	}
	if (groups_first) {
		ss_sec_groups_html(out, c);
		ss_buf_adds(out, "<details class=\"rest\">\n<summary>All requests pooled: what "
				 "was read, the Spec Decode table, the histogram, acceptance by "
				 "position, the distribution</summary>\n");
	}
	if (cmp)
		pooled_cards(out, a, an);
}

void ss_html_page_lead_end(struct ss_buf *out, const struct ss_report_ctx *c)
{
	bool cmp = c->an && c->an->has_baseline, groups_first = c->an && c->a->groups.n && !cmp;

	if (cmp)
		ss_buf_adds(out, "</div>\n");
	if (groups_first || cmp)
		ss_buf_adds(out, "</details>\n");
}

/* -- the page --------------------------------------------------------------- */

static void footer(struct ss_buf *b, const struct ss_html_opts *o)
{
	ss_buf_adds(b, "<footer class=\"note\">\n<p>Acceptance length: tokens produced per verify "
		    "step, 1 + accepted drafts / steps (per request, then averaged; the token-weighted "
		    "one pools all steps). Draft acceptance rate: accepted / drafted tokens. "
		    "The per-request histogram puts about &radic;n requests in a bin (at most 30 bins), "
		    "bins 1, 2 or 5 &times; 10<sup>e</sup> wide on multiples of their width.</p>\n"
		    "<p>Written by specscan ");
	ss_buf_add_htmls(b, o->version);
	ss_buf_adds(b, ". The page holds no date and no host name: the same inputs give the same "
		    "page.</p>\n</footer>\n");
}

void ss_report_html(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		    const struct ss_html_opts *o)
{
	ss_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<link rel=\"icon\" href=\"data:,\">\n<title>Spec Decode report");
	if (a->ninputs) {
		ss_buf_adds(out, ": ");
		ss_buf_add_htmls(out, a->inputs[0].name);
		if (a->ninputs > 1) {
			ss_buf_adds(out, " and ");
			ss_buf_add_u64_grouped(out, a->ninputs - 1);
			ss_buf_adds(out, " more");
		}
	}
	ss_buf_adds(out, "</title>\n<style>\n");
	ss_buf_adds(out, css);
	ss_buf_adds(out, "</style>\n</head>\n<body>\n<main>\n");
	header(out, a, o);
	ss_report_walk(&(struct ss_report_walk){.fmt = SS_RF_HTML,
						.c = {.a = a, .an = an, .srv = o->server, .ho = o},
						.out = out});
	footer(out, o);
	ss_buf_adds(out, "</main>\n</body>\n</html>\n");
}

