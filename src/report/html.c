/*
 * html.c - the HTML report (see html.h): sections assembled from the
 * aggregate and the chart module.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/chart.h"
#include "report/html.h"
#include "report/numfmt.h"
#include "util/alloc.h"

/* Inputs listed by name; the rest are summed in one line. */
#define MAX_INPUT_ROWS 50
/* Histogram buckets drawn one by one; the rest share the last bar. */
#define MAX_HIST_BARS 32

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
	"tr.total td{font-weight:600}\n"
	".fig{display:flex;flex-wrap:wrap;gap:12px 32px;align-items:flex-start;margin:8px 0 16px}\n"
	".fig svg{flex:0 1 auto;max-width:100%;height:auto}\n"
	".fig table{font-size:13px}\n"
	".note{color:var(--muted);font-size:13px}\n"
	".missing{border-left:4px solid #E69F00;background:#fff8e6;padding:8px 14px;max-width:90ch}\n"
	"code{font-size:90%;background:var(--soft);padding:0 3px;border-radius:3px}\n"
	"footer{margin-top:48px;border-top:1px solid var(--line);padding-top:8px}\n"
	"@media print{main{max-width:none;padding:0}h2{break-after:avoid}"
	".fig,table,.card{break-inside:avoid}.card{background:none}}\n";

/* -- small writers ------------------------------------------------------ */

static void add_count128(struct ss_buf *b, __int128 v)
{
	if (v >= 0 && v <= (__int128)UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, v);
}

/* A share in percent with one decimal, "0.0" for an empty total and
 * "<0.1" for a part too small to show. */
static void add_pct(struct ss_buf *b, double part, double total)
{
	ss_chart_add_small(b, total > 0 ? part / total * 100.0 : 0.0, 1);
}

static void missing(struct ss_buf *b, const char *text)
{
	ss_buf_adds(b, "<p class=\"missing\">");
	ss_buf_add_htmls(b, text);
	ss_buf_adds(b, "</p>\n");
}

static bool hist_any(const struct ss_results *r)
{
	for (size_t j = 0; j < r->hist_len; j++)
		if (r->hist[j])
			return true;
	return false;
}

/* The engines of the run as "vllm, sglang" (borrowed names). */
static void add_engines(struct ss_buf *b, const struct ss_agg *a)
{
	for (size_t i = 0; i < a->nengines; i++) {
		if (i)
			ss_buf_adds(b, ", ");
		ss_buf_add_htmls(b, a->engines[i].name);
	}
}

/* -- header and key figures ---------------------------------------------- */

static void card(struct ss_buf *b, const char *label, const struct ss_results *r, int m,
		 int decimals, const char *suffix)
{
	ss_buf_adds(b, "<div class=\"card\"><span class=\"l\">");
	ss_buf_add_htmls(b, label);
	ss_buf_adds(b, "</span><span class=\"v\">");
	if (r->has[m]) {
		ss_chart_add_fixed(b, r->stats[m].avg, decimals);
		ss_buf_adds(b, suffix);
	} else {
		ss_buf_adds(b, "N/A");
	}
	ss_buf_adds(b, "</span></div>\n");
}

static void header(struct ss_buf *b, const struct ss_agg *a, const struct ss_html_opts *o)
{
	const struct ss_results *r = &a->main;

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

	if (!ss_results_any(r))
		return;
	ss_buf_adds(b, "<div class=\"cards\">\n");
	card(b, "Acceptance length (mean per request)", r, SS_M_ACCEPTANCE_LENGTH, 2, "");
	card(b, "Token-weighted acceptance length", r, SS_M_TOKEN_WEIGHTED_AL, 2, "");
	card(b, "Overall draft acceptance rate", r, SS_M_OVERALL_DAR, 1, "%");
	ss_buf_adds(b, "<div class=\"card\"><span class=\"l\">Requests with stats</span><span class=\"v\">");
	ss_buf_add_u64_grouped(b, a->status[SS_ST_OK]);
	ss_buf_adds(b, "</span><span class=\"ci\">of ");
	ss_buf_add_u64_grouped(b, a->total);
	ss_buf_adds(b, " (");
	add_pct(b, (double)a->status[SS_ST_OK], (double)a->total);
	ss_buf_adds(b, "%)</span></div>\n</div>\n");
}

/* -- what was read --------------------------------------------------------- */

static void section_read(struct ss_buf *b, const struct ss_agg *a, const struct ss_html_opts *o)
{
	uint64_t rest_inputs = 0, rest_requests = 0;

	ss_buf_adds(b, "<section id=\"read\">\n<h2>What was read</h2>\n");
	ss_buf_adds(b, "<div class=\"fig\">\n<table>\n<caption>Inputs</caption>\n"
		    "<thead><tr><th>#</th><th class=\"l\">Input</th><th class=\"l\">Kind</th>"
		    "<th>Requests</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];

		if (i >= MAX_INPUT_ROWS) {
			rest_inputs++;
			rest_requests += in->requests;
			continue;
		}
		ss_buf_adds(b, "<tr><td>");
		ss_buf_add_u64(b, i + 1);
		ss_buf_adds(b, "</td><td class=\"name\">");
		ss_buf_add_htmls(b, in->name);
		if (in->failed)
			ss_buf_adds(b, " <strong>(read failed)</strong>");
		ss_buf_adds(b, "</td><td class=\"l\">");
		ss_buf_adds(b, ss_input_kind_name(in));
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64_grouped(b, in->requests);
		ss_buf_adds(b, "</td></tr>\n");
	}
	if (rest_inputs) {
		ss_buf_adds(b, "<tr><td></td><td class=\"name\">&hellip; and ");
		ss_buf_add_u64_grouped(b, rest_inputs);
		ss_buf_adds(b, " more inputs</td><td></td><td>");
		ss_buf_add_u64_grouped(b, rest_requests);
		ss_buf_adds(b, "</td></tr>\n");
	}
	if (a->ninputs == 0)
		ss_buf_adds(b, "<tr><td></td><td class=\"name\">(no input)</td><td></td><td>0</td></tr>\n");
	ss_buf_adds(b, "</tbody>\n</table>\n");

	/* the accounting: every status that occurred, then the total */
	ss_buf_adds(b, "<table>\n<caption>Requests by status</caption>\n"
		    "<thead><tr><th>Status</th><th>Requests</th><th>Share (%)</th></tr></thead>\n<tbody>\n");
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, ss_status_label((enum ss_status)s));
		ss_buf_adds(b, " <code>");
		ss_buf_adds(b, ss_status_name((enum ss_status)s));
		ss_buf_adds(b, "</code></td><td>");
		ss_buf_add_u64_grouped(b, a->status[s]);
		ss_buf_adds(b, "</td><td>");
		add_pct(b, (double)a->status[s], (double)a->total);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "<tr class=\"total\"><td>total</td><td>");
	ss_buf_add_u64_grouped(b, a->total);
	ss_buf_adds(b, "</td><td>");
	ss_buf_adds(b, a->total ? "100.0" : "0.0");
	ss_buf_adds(b, "</td></tr>\n</tbody>\n</table>\n</div>\n");

	ss_buf_adds(b, "<p>Phases: ");
	ss_buf_add_u64_grouped(b, a->phases[SS_PHASE_PROFILING]);
	ss_buf_adds(b, " profiling, ");
	ss_buf_add_u64_grouped(b, a->phases[SS_PHASE_WARMUP]);
	ss_buf_adds(b, " warmup. The results below are of the ");
	ss_buf_adds(b, a->mode == SS_PHASES_WARMUP ? "warmup requests (<code>--phase warmup</code>)" :
		       a->mode == SS_PHASES_ALL ? "requests of both phases (<code>--phase all</code>)" :
		       "profiling requests");
	ss_buf_adds(b, ".");
	if (a->nengines) {
		ss_buf_adds(b, " Engines of the records: ");
		for (size_t i = 0; i < a->nengines; i++) {
			if (i)
				ss_buf_adds(b, ", ");
			ss_buf_add_htmls(b, a->engines[i].name);
			ss_buf_adds(b, " (");
			ss_buf_add_u64_grouped(b, a->engines[i].count);
			ss_buf_adds(b, ")");
		}
		ss_buf_adds(b, ".");
	}
	ss_buf_adds(b, "</p>\n<p class=\"note\">Versions: specscan ");
	ss_buf_add_htmls(b, o->version);
	if (o->libraries) {
		ss_buf_adds(b, "; ");
		ss_buf_add_htmls(b, o->libraries);
	}
	ss_buf_adds(b, ".</p>\n</section>\n");
}

/* -- the Spec Decode table (4.3) ------------------------------------------ */

static const int table_rows[] = {
	SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL,
	SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	SS_M_ACCEPTED_PER_VERIFIED, SS_M_STEPS, SS_M_ZERO_STEP_REQUESTS,
};

static void stats_table(struct ss_buf *b, const struct ss_results *r, const char *caption)
{
	static const char *const cols[] = {"avg", "min", "max", "p99", "p90", "p50", "std"};

	ss_buf_adds(b, "<table>\n<caption>");
	ss_buf_add_htmls(b, caption);
	ss_buf_adds(b, "</caption>\n<thead><tr><th>Metric</th>");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		ss_buf_addf(b, "<th>%s</th>", cols[c]);
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < sizeof(table_rows) / sizeof(table_rows[0]); i++) {
		int m = table_rows[i];
		const struct ss_metric_info *mi = &ss_metric_table[m];
		const struct ss_stats *s = &r->stats[m];
		const double v[] = {s->avg, s->min, s->max, s->p99, s->p90, s->p50, s->std};

		if (!r->has[m])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, mi->header);
		ss_buf_adds(b, " (");
		ss_buf_add_htmls(b, mi->unit);
		ss_buf_adds(b, ")</td>");
		for (size_t c = 0; c < sizeof(v) / sizeof(v[0]); c++) {
			ss_buf_adds(b, "<td>");
			if (mi->per_request || c == 0)
				ss_buf_add_fixed2_grouped(b, v[c]);
			else
				ss_buf_adds(b, "N/A");
			ss_buf_adds(b, "</td>");
		}
		ss_buf_adds(b, "</tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
}

static void section_table(struct ss_buf *b, const struct ss_agg *a)
{
	ss_buf_adds(b, "<section id=\"spec-decode\">\n<h2>Spec Decode</h2>\n");
	if (ss_results_any(&a->main))
		stats_table(b, &a->main, "The numbers of specscan's console table and aggregate JSON");
	else
		missing(b, "No request of the main results carried speculative-decoding statistics, "
			   "so the Spec Decode table, the histogram, the curves and the distribution "
			   "of acceptance lengths are left out. The accounting above says what the "
			   "requests were instead.");
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_buf_adds(b, "<h3>Warmup requests</h3>\n");
		stats_table(b, &a->warmup, "The same metrics over the warmup requests only "
			    "(not part of the results above)");
	}
	ss_buf_adds(b, "</section>\n");
}

/* -- the pooled histogram ------------------------------------------------- */

static void section_histogram(struct ss_buf *b, const struct ss_agg *a)
{
	const struct ss_results *r = &a->main;
	struct ss_bar bars[MAX_HIST_BARS];
	char names[MAX_HIST_BARS][24];
	__int128 counts[MAX_HIST_BARS] = {0}, sum = 0;
	struct ss_buf desc = SS_BUF_INIT;
	size_t top = 0, nb;

	ss_buf_adds(b, "<section id=\"histogram\">\n<h2>Accepted drafts per step</h2>\n");
	if (!hist_any(r)) {
		struct ss_buf why = SS_BUF_INIT;

		if (!ss_results_any(r)) {
			ss_buf_adds(&why, "No histogram: no request carried speculative-decoding statistics.");
		} else {
			ss_buf_adds(&why, "No histogram: none of the requests with stats carries a per-step "
				    "acceptance histogram (how many draft tokens each verify step accepted). ");
			ss_buf_adds(&why, "Engines of these records: ");
			for (size_t i = 0; i < a->nengines; i++) {
				if (i)
					ss_buf_adds(&why, ", ");
				ss_buf_adds(&why, a->engines[i].name);
			}
			ss_buf_adds(&why, ". llama.cpp, for one, reports only the totals of accepted and "
				    "drafted tokens, so the share of steps per number of accepted drafts and "
				    "the acceptance by position cannot be computed; the totals and rates above "
				    "are complete.");
		}
		if (why.failed)
			b->failed = true;
		else
			missing(b, why.data);
		ss_buf_release(&why);
		ss_buf_adds(b, "</section>\n");
		return;
	}
	for (size_t j = 0; j < r->hist_len; j++) {
		if (r->hist[j])
			top = j;
		sum += r->hist[j];
	}
	nb = top + 1 <= MAX_HIST_BARS ? top + 1 : MAX_HIST_BARS;
	for (size_t j = 0; j <= top; j++)
		counts[j < nb - 1 || top + 1 <= MAX_HIST_BARS ? j : nb - 1] += r->hist[j];
	ss_buf_adds(&desc, "Bar chart of the share of verify steps, in percent, that accepted 0, 1, 2 "
		    "and more draft tokens:");
	for (size_t j = 0; j < nb; j++) {
		if (j == nb - 1 && top + 1 > MAX_HIST_BARS)
			snprintf(names[j], sizeof(names[j]), ">=%zu", j);
		else
			snprintf(names[j], sizeof(names[j]), "%zu", j);
		bars[j] = (struct ss_bar){names[j], (double)counts[j] / (double)sum * 100.0, false, 0, 0};
		ss_buf_addf(&desc, "%s %s: ", j ? "," : "", names[j]);
		ss_chart_add_small(&desc, bars[j].value, 1);
		ss_buf_addc(&desc, '%');
	}
	ss_buf_adds(&desc, ".");
	ss_buf_adds(b, "<p>How many draft tokens each verify step accepted, pooled over the requests "
		    "with a histogram (");
	add_count128(b, sum);
	ss_buf_adds(b, " steps). A step that accepts j drafts yields j + 1 tokens.</p>\n");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_bars(b, &(struct ss_chart){
		.id = "c-hist", .title = "Accepted drafts per step (% of steps)",
		.desc = desc.data ? desc.data : "",
		.x_label = "Draft tokens accepted in a step", .y_label = "Share of steps (%)",
		.width = 640, .height = 340, .show_values = nb <= 16, .value_decimals = 1,
		.value_suffix = "%"}, bars, nb);
	ss_buf_adds(b, "<table>\n<caption>Numbers of the chart</caption>\n<thead><tr><th>Accepted drafts</th>"
		    "<th>Steps</th><th>% of steps</th></tr></thead>\n<tbody>\n");
	for (size_t j = 0; j < nb; j++) {
		ss_buf_adds(b, "<tr><td>");
		ss_buf_add_htmls(b, names[j]);
		ss_buf_adds(b, "</td><td>");
		add_count128(b, counts[j]);
		ss_buf_adds(b, "</td><td>");
		ss_chart_add_small(b, bars[j].value, 1);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "<tr class=\"total\"><td>total</td><td>");
	add_count128(b, sum);
	ss_buf_adds(b, "</td><td>100.0</td></tr>\n</tbody>\n</table>\n</div>\n</section>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
}

/* -- per-request acceptance lengths --------------------------------------- */

static void section_distribution(struct ss_buf *b, const struct ss_agg *a)
{
	const struct ss_results *r = &a->main;
	const struct ss_vec_f64 *v = &r->values[SS_M_ACCEPTANCE_LENGTH];
	const struct ss_stats *s = &r->stats[SS_M_ACCEPTANCE_LENGTH];
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_bins bins;
	int dec;

	ss_buf_adds(b, "<section id=\"distribution\">\n<h2>Acceptance length across requests</h2>\n");
	if (!r->has[SS_M_ACCEPTANCE_LENGTH] || v->len == 0) {
		missing(b, ss_results_any(r) ?
			"No request with stats has a number of verify steps, so there is no "
			"per-request acceptance length to show." :
			"No request carried speculative-decoding statistics.");
		ss_buf_adds(b, "</section>\n");
		return;
	}
	if (!ss_bins_compute(&bins, v->v, v->len)) {
		b->failed = true;
		ss_buf_adds(b, "</section>\n");
		return;
	}
	dec = bins.exp10 < 0 ? -bins.exp10 : 0;
	ss_buf_adds(b, "<p>The mean acceptance length of each request (tokens per verify step), ");
	ss_buf_add_u64_grouped(b, v->len);
	ss_buf_adds(b, v->len == 1 ? " request" : " requests");
	ss_buf_adds(b, ": median ");
	ss_buf_add_fixed2(b, s->p50);
	ss_buf_adds(b, ", 10th to 90th percentile ");
	ss_buf_add_fixed2(b, s->p10);
	ss_buf_adds(b, "&ndash;");
	ss_buf_add_fixed2(b, s->p90);
	ss_buf_adds(b, ", mean ");
	ss_buf_add_fixed2(b, s->avg);
	ss_buf_adds(b, ".</p>\n<div class=\"fig\">\n");
	ss_buf_adds(&desc, "Histogram of the requests' acceptance lengths in ");
	ss_buf_add_u64(&desc, bins.n);
	ss_buf_adds(&desc, bins.n == 1 ? " bin " : " bins ");
	ss_chart_add_fixed(&desc, bins.width, dec);
	ss_buf_adds(&desc, " wide from ");
	ss_chart_add_fixed(&desc, ss_bins_edge(&bins, 0), dec);
	ss_buf_adds(&desc, " to ");
	ss_chart_add_fixed(&desc, ss_bins_edge(&bins, bins.n), dec);
	ss_buf_adds(&desc, "; the table beside it lists every bin.");
	ss_chart_histogram(b, &(struct ss_chart){
		.id = "c-dist", .title = "Acceptance length per request",
		.desc = desc.data ? desc.data : "",
		.x_label = "Acceptance length (tokens per step)", .y_label = "Requests (count)",
		.width = 640, .height = 340}, &bins);
	ss_buf_adds(b, "<table>\n<caption>Bins [from, to)</caption>\n"
		    "<thead><tr><th>From</th><th>To</th><th>Requests</th><th>%</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < bins.n; i++) {
		ss_buf_adds(b, "<tr><td>");
		ss_chart_add_fixed(b, ss_bins_edge(&bins, i), dec);
		ss_buf_adds(b, "</td><td>");
		ss_chart_add_fixed(b, ss_bins_edge(&bins, i + 1), dec);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64_grouped(b, bins.count[i]);
		ss_buf_adds(b, "</td><td>");
		add_pct(b, (double)bins.count[i], (double)bins.total);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n</section>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
	ss_bins_release(&bins);
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

void ss_report_html(struct ss_buf *out, const struct ss_agg *a, const struct ss_html_opts *o)
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
	section_read(out, a, o);
	section_table(out, a);
	if (ss_results_any(&a->main)) {
		section_histogram(out, a);
		section_distribution(out, a);
	}
	footer(out, o);
	ss_buf_adds(out, "</main>\n</body>\n</html>\n");
}
