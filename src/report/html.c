/*
 * html.c - the HTML report (see html.h): sections assembled from the
 * aggregate and the chart module.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/chart.h"
#include "report/htmlesc.h"
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
	"table.groups td.name{max-width:340px}\n"
	/* a table wider than the page scrolls by itself, the page never does */
	".tw{max-width:100%;overflow-x:auto}\n"
	"tr.total td{font-weight:600}\n"
	"table.deltas td{white-space:nowrap}\n"
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

static void header(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_html_opts *o)
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
	card(b, "Acceptance length (mean per request)", r, an, SS_M_ACCEPTANCE_LENGTH, 2, "");
	card(b, "Token-weighted acceptance length", r, an, SS_M_TOKEN_WEIGHTED_AL, 2, "");
	card(b, "Overall draft acceptance rate", r, an, SS_M_OVERALL_DAR, 1, "%");
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

/* The 7.2 intervals of the main results: a table under the Spec Decode one. */
static void intervals_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_set_analysis *s = &an->main;
	bool any = false;

	for (int k = 0; k < SS_BS_COUNT; k++)
		any = any || s->has_ci[k];
	if (!any)
		return;
	ss_buf_adds(b, "<table>\n<caption>");
	ss_report_add_level(b, an->opts->level);
	ss_buf_adds(b, "% bootstrap intervals over requests (");
	ss_buf_add_u64_grouped(b, an->opts->resamples);
	ss_buf_adds(b, an->opts->resamples == 1 ? " resample" : " resamples");
	ss_buf_adds(b, ", seed ");
	ss_buf_add_u64(b, an->opts->seed);
	ss_buf_adds(b, ")</caption>\n<thead><tr><th>Metric</th><th>avg</th><th>low</th><th>high</th>"
		    "</tr></thead>\n<tbody>\n");
	for (int k = 0; k < SS_BS_COUNT; k++) {
		const struct ss_metric_info *mi = &ss_metric_table[ss_boot_metric[k]];

		if (!s->has_ci[k])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, mi->header);
		ss_buf_adds(b, " (");
		ss_buf_add_htmls(b, mi->unit);
		ss_buf_adds(b, ")</td><td>");
		ss_buf_add_fixed2_grouped(b, a->main.stats[ss_boot_metric[k]].avg);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, s->lo[k]);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, s->hi[k]);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
}

static void section_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	ss_buf_adds(b, "<section id=\"spec-decode\">\n<h2>Spec Decode</h2>\n");
	if (ss_results_any(&a->main)) {
		stats_table(b, &a->main, "The numbers of specscan's console table and aggregate JSON");
		if (an)
			intervals_table(b, a, an);
	} else
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

/* -- acceptance by position (7.1) ---------------------------------------- */

/* k values drawn in one chart; the tables list every k. */
#define MAX_K_SERIES 6
/* Rows of one k in the tables. */
#define MAX_POS_ROWS 64

static void add_u128(struct ss_buf *b, unsigned __int128 v)
{
	if (v <= UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, (__int128)v);
}

static void excluded_note(struct ss_buf *b, const uint64_t *ex)
{
	static const char *const why[SS_PX_COUNT] = {
		"without a histogram", "without a draft length k", "with k above 4096",
		"with a histogram key above k",
	};
	bool first = true;

	for (int i = 0; i < SS_PX_COUNT; i++) {
		if (!ex[i])
			continue;
		ss_buf_adds(b, first ? " Not pooled: " : ", ");
		first = false;
		ss_buf_add_u64_grouped(b, ex[i]);
		ss_buf_adds(b, ex[i] == 1 ? " request " : " requests ");
		ss_buf_adds(b, why[i]);
	}
	if (!first)
		ss_buf_adds(b, ".");
}

/* Draw up to MAX_K_SERIES k values: those with the most steps, in k order. */
static size_t pick_ks(const struct ss_set_analysis *s, size_t *shown)
{
	size_t ns = 0;

	for (size_t i = 0; i < s->npos; i++) {
		if (!s->pos[i].defined)
			continue;
		if (ns < MAX_K_SERIES) {
			shown[ns++] = i;
			continue;
		}
		size_t min = 0;

		for (size_t j = 1; j < ns; j++)
			if (s->pos[shown[j]].steps < s->pos[shown[min]].steps)
				min = j;
		if (s->pos[i].steps > s->pos[shown[min]].steps) {
			/* keep ascending k: drop the smallest, append this one */
			for (size_t j = min; j + 1 < ns; j++)
				shown[j] = shown[j + 1];
			shown[ns - 1] = i;
		}
	}
	return ns;
}

/* A chart title, with " (k=K)" when the chart shows the one draft length p. */
static void pos_title(char *t, size_t n, const char *base, const struct ss_pos_result *p)
{
	if (p)
		snprintf(t, n, "%s (k=%u)", base, (unsigned)p->k);
	else
		snprintf(t, n, "%s", base);
}

static void section_positions(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_set_analysis *s = &an->main;
	size_t shown[MAX_K_SERIES], ns = pick_ks(s, shown), total = 0, off = 0;
	struct ss_series series[MAX_K_SERIES * 2];
	char names[MAX_K_SERIES * 2][64], title[96];
	double *x = NULL, *y = NULL, *y2 = NULL, *tau = NULL, *sp = NULL;
	bool cost = ns && s->pos[shown[0]].has_cost;
	struct ss_buf desc = SS_BUF_INIT;

	ss_buf_adds(b, "<section id=\"positions\">\n<h2>Acceptance by draft position</h2>\n");
	if (ns == 0) {
		struct ss_buf why = SS_BUF_INIT;

		ss_buf_adds(&why, "No acceptance by position: it needs requests with a per-step "
			    "histogram and a known draft length k (num_spec_tokens).");
		excluded_note(&why, a->main.positions.excluded);
		if (why.failed)
			b->failed = true;
		else
			missing(b, why.data);
		ss_buf_release(&why);
		ss_buf_adds(b, "</section>\n");
		return;
	}
	for (size_t i = 0; i < ns; i++)
		total += s->pos[shown[i]].k;
	x = ss_calloc(total, sizeof(double));
	y = ss_calloc(total, sizeof(double));
	y2 = ss_calloc(total, sizeof(double));
	tau = ss_calloc(total, sizeof(double));
	sp = ss_calloc(total, sizeof(double));
	if (!x || !y || !y2 || !tau || !sp) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[shown[i]];

		for (uint32_t j = 0; j < p->k; j++) {
			x[off + j] = j + 1;
			y[off + j] = p->pos[j].rate * 100.0;
			y2[off + j] = p->pos[j].has_conditional ? p->pos[j].conditional * 100.0 : NAN;
			tau[off + j] = p->what_if[j].acceptance_length;
			sp[off + j] = p->has_cost ? p->what_if[j].speedup : NAN;
		}
		off += p->k;
	}

	ss_buf_adds(b, "<p>Of the verify steps of the requests with a histogram and a draft length "
		    "k, the share whose i-th draft token was accepted (the rate), and the share "
		    "accepted among the steps that accepted position i &minus; 1 (conditional). "
		    "The shorter-draft curve is the acceptance length each draft length k&prime; "
		    "&le; k would have given: exact for chain drafters (a draft model, EAGLE or "
		    "MTP chains, n-gram), where a shorter draft is a prefix of the longer one; an "
		    "estimate for tree drafting.");
	excluded_note(b, a->main.positions.excluded);
	if (ns < s->npos)
		ss_buf_adds(b, " The charts show the draft lengths with the most steps; the tables "
			    "list every one.");
	ss_buf_adds(b, "</p>\n");

	/* chart 1: rate (and conditional, for one k) by position */
	off = 0;
	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[shown[i]];

		if (ns == 1) {
			snprintf(names[0], sizeof(names[0]), "Rate: position i accepted");
			snprintf(names[1], sizeof(names[1]), "Conditional: given i\xE2\x88\x92" "1 accepted");
			series[0] = (struct ss_series){names[0], x, y, p->k};
			series[1] = (struct ss_series){names[1], x, y2, p->k};
		} else {
			snprintf(names[i], sizeof(names[i]), "k=%u", (unsigned)p->k);
			series[i] = (struct ss_series){names[i], x + off, y + off, p->k};
		}
		off += p->k;
	}
	pos_title(title, sizeof(title), "Acceptance by draft position",
		  ns == 1 ? &s->pos[shown[0]] : NULL);
	ss_buf_adds(&desc, "Line chart of the share of verify steps, in percent, whose i-th draft "
		    "token was accepted, by position i");
	ss_buf_adds(&desc, ns == 1 ? ", with the conditional rate." : ", one line per draft length k.");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_lines(b, &(struct ss_chart){
		.id = "c-pos", .title = title, .desc = desc.data ? desc.data : "",
		.x_label = "Draft position i", .y_label = "Accepted at position i (% of steps)",
		.width = 640, .height = 340, .y_max_hint = 100, .value_decimals = 1,
		.value_suffix = "%"}, &(struct ss_line_opts){true, NAN, NULL, NAN},
		series, ns == 1 ? 2 : ns);
	ss_buf_adds(b, "<table>\n<caption>Numbers of the chart</caption>\n<thead><tr><th>k</th>"
		    "<th>Position</th><th>Steps<br>accepted</th><th>Rate<br>(%)</th><th>Conditional<br>(%)</th>"
		    "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < s->npos; i++) {
		const struct ss_pos_result *p = &s->pos[i];

		if (!p->defined)
			continue;
		for (uint32_t j = 0; j < p->k && j < MAX_POS_ROWS; j++) {
			ss_buf_addf(b, "<tr><td>%u</td><td>%u</td><td>", (unsigned)p->k, (unsigned)j + 1);
			add_u128(b, p->pos[j].accepted);
			ss_buf_adds(b, "</td><td>");
			ss_buf_add_fixed2(b, p->pos[j].rate * 100.0);
			ss_buf_adds(b, "</td><td>");
			if (p->pos[j].has_conditional)
				ss_buf_add_fixed2(b, p->pos[j].conditional * 100.0);
			ss_buf_adds(b, "</td></tr>\n");
		}
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n");

	/* chart 2: tau(k'), and chart 3: the speedup with a draft cost */
	ss_buf_reset(&desc);
	off = 0;
	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[shown[i]];

		if (ns == 1)
			snprintf(names[i], sizeof(names[i]), "Acceptance length \xCF\x84(k\xE2\x80\xB2)");
		else
			snprintf(names[i], sizeof(names[i]), "k=%u", (unsigned)p->k);
		series[i] = (struct ss_series){names[i], x + off, tau + off, p->k};
		off += p->k;
	}
	pos_title(title, sizeof(title), "If the draft were shorter",
		  ns == 1 ? &s->pos[shown[0]] : NULL);
	ss_buf_adds(&desc, "Line chart of the acceptance length, in tokens per verify step, that "
		    "each shorter draft length would have given.");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_lines(b, &(struct ss_chart){
		.id = "c-whatif", .title = title, .desc = desc.data ? desc.data : "",
		.x_label = "Draft length k\xE2\x80\xB2", .y_label = "Acceptance length (tokens per step)",
		.width = 640, .height = 340, .value_decimals = 2, .show_values = true},
		&(struct ss_line_opts){true, NAN, NULL, 1.0}, series, ns);
	ss_buf_adds(b, "<table>\n<caption>Numbers of the chart</caption>\n<thead><tr><th>k</th>"
		    "<th>k&prime;</th><th>Acceptance<br>length</th><th>Draft acceptance<br>rate (%)</th>");
	if (cost)
		ss_buf_adds(b, "<th>Speedup<br>(&times;)</th>");
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < s->npos; i++) {
		const struct ss_pos_result *p = &s->pos[i];

		if (!p->defined)
			continue;
		for (uint32_t j = 0; j < p->k && j < MAX_POS_ROWS; j++) {
			ss_buf_addf(b, "<tr%s><td>%u</td><td>%u</td><td>",
				    p->has_cost && p->suggested_k == j + 1 ? " class=\"total\"" : "",
				    (unsigned)p->k, (unsigned)j + 1);
			ss_buf_add_fixed2(b, p->what_if[j].acceptance_length);
			ss_buf_adds(b, "</td><td>");
			ss_buf_add_fixed2(b, p->what_if[j].draft_acceptance_rate);
			if (cost) {
				ss_buf_adds(b, "</td><td>");
				if (p->has_cost)
					ss_buf_add_fixed2(b, p->what_if[j].speedup);
			}
			ss_buf_adds(b, "</td></tr>\n");
		}
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n");

	if (cost) {
		const struct ss_pos_result *p0 = &s->pos[shown[0]];
		char mark[48];

		ss_buf_reset(&desc);
		off = 0;
		for (size_t i = 0; i < ns; i++) {
			const struct ss_pos_result *p = &s->pos[shown[i]];

			if (ns == 1)
				snprintf(names[i], sizeof(names[i]), "Expected speedup");
			series[i] = (struct ss_series){names[i], x + off, sp + off, p->k};
			off += p->k;
		}
		snprintf(mark, sizeof(mark), "suggested k=%u", (unsigned)p0->suggested_k);
		ss_buf_adds(b, "<p>With a draft token costing ");
		ss_chart_add_fixed(b, p0->draft_cost, 2);
		ss_buf_adds(b, " of a target forward pass, the expected speedup over no speculation "
			    "is &tau;(k&prime;) / (1 + cost &times; k&prime;) (Leviathan et al. 2023). ");
		if (ns == 1 && p0->suggested_k) {
			ss_buf_addf(b, "The best draft length is k&prime; = %u (speedup ",
				    (unsigned)p0->suggested_k);
			ss_buf_add_fixed2(b, p0->what_if[p0->suggested_k - 1].speedup);
			ss_buf_adds(b, "&times;).");
		} else if (ns == 1) {
			ss_buf_adds(b, "No draft length beats no speculation at this cost.");
		}
		ss_buf_adds(b, "</p>\n");
		ss_buf_adds(&desc, "Line chart of the expected speedup over no speculation for each "
			    "draft length, at the given draft cost.");
		ss_buf_adds(b, "<div class=\"fig\">\n");
		ss_chart_lines(b, &(struct ss_chart){
			.id = "c-speedup", .title = "Expected speedup by draft length",
			.desc = desc.data ? desc.data : "",
			.x_label = "Draft length k\xE2\x80\xB2", .y_label = "Speedup (\xC3\x97)",
			.width = 640, .height = 340, .value_decimals = 2, .value_suffix = "\xC3\x97",
			.show_values = true},
			&(struct ss_line_opts){true, ns == 1 && p0->suggested_k ? (double)p0->suggested_k : NAN,
					       mark, NAN}, series, ns);
		ss_buf_adds(b, "</div>\n");
	}
	ss_buf_adds(b, "</section>\n");
out:
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
	ss_free(x);
	ss_free(y);
	ss_free(y2);
	ss_free(tau);
	ss_free(sp);
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

/* -- groups (7.3) and the comparison (7.4) ---------------------------- */

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
	ss_buf_adds(b, "<th>&Delta; AL</th><th>&Delta; TWAL</th><th>&Delta; DAR (%)</th>"
		    "<th>&Delta; ODAR (%)</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];

		group_key_cells(b, a, id);
		for (int k = 0; k < SS_BS_COUNT; k++) {
			ss_buf_adds(b, "<td>");
			if (id == an->baseline)
				ss_buf_adds(b, k == 0 ? "baseline" : "");
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

static void section_groups(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	size_t n = a->groups.n;
	struct ss_bar *bars = ss_calloc(n, sizeof(*bars)), *dbars = ss_calloc(n, sizeof(*dbars));
	struct ss_buf *labels = ss_calloc(n, sizeof(*labels));
	struct ss_buf title = SS_BUF_INIT, desc = SS_BUF_INIT, keys = SS_BUF_INIT, axis = SS_BUF_INIT;
	bool ci = false;
	size_t nd = 0;
	static const int cols[] = {
		SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL, SS_M_DRAFT_ACCEPTANCE_RATE,
		SS_M_OVERALL_DAR,
	};

	if (!bars || !dbars || !labels) {
		b->failed = true;
		goto out;
	}
	group_keys_text(&keys, an);
	for (size_t i = 0; i < n; i++) {
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
		if (an->has_baseline && id != an->baseline) {
			const struct ss_delta *d = &g->vs[SS_BS_AL];

			dbars[nd].label = bars[i].label;
			dbars[nd].value = d->has ? d->delta : NAN;
			dbars[nd].has_interval = d->has_ci;
			dbars[nd].lo = d->lo;
			dbars[nd].hi = d->hi;
			nd++;
		}
	}

	/* What all labels share (a directory, a model name, ".jsonl") is
	 * said once, in the axis title, and the part that tells the groups
	 * apart gets the room under the bars. */
	if (n > 1) {
		strip_common(bars, n, &axis, keys.data ? keys.data : "");
		nd = 0;
		for (size_t i = 0; i < n; i++)
			if (an->has_baseline && a->group_order[i] != an->baseline)
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
	ss_buf_adds(b, ".</p>\n<div class=\"fig\">\n");
	ss_buf_adds(&title, "Acceptance length by ");
	ss_buf_adds(&title, keys.data ? keys.data : "");
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
		.desc = desc.data ? desc.data : "", .x_label = axis.data ? axis.data : "",
		.y_label = "Acceptance length (tokens per step)",
		.width = n > 6 ? 1136 : 640, .height = 400, .value_decimals = 2,
		.show_values = true}, bars, n);
	ss_buf_adds(b, "</div>\n");

	/* the group table */
	ss_buf_adds(b, "<div class=\"tw\"><table class=\"groups\">\n<caption>Every group (AL: acceptance length, TWAL: token-weighted "
		    "acceptance length, DAR: draft acceptance rate, ODAR: overall draft acceptance "
		    "rate)</caption>\n<thead><tr>");
	group_key_heads(b, an);
	ss_buf_adds(b, "<th>Requests</th><th>With stats</th><th>AL avg</th><th>AL p50</th>");
	if (ci)
		ss_buf_adds(b, "<th>AL interval</th>");
	ss_buf_adds(b, "<th>TWAL</th><th>DAR avg (%)</th><th>ODAR (%)</th>");
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
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
		for (size_t c = 1; c < sizeof(cols) / sizeof(cols[0]); c++) {
			ss_buf_adds(b, "<td>");
			add_opt2(b, r, cols[c]);
			ss_buf_adds(b, "</td>");
		}
		ss_buf_adds(b, "</tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n");
	if (an->has_baseline)
		section_deltas(b, a, an, dbars, nd, axis.data ? axis.data : "");
	ss_buf_adds(b, "</section>\n");
out:
	if (title.failed || desc.failed || keys.failed || axis.failed)
		b->failed = true;
	ss_buf_release(&axis);
	ss_buf_release(&title);
	ss_buf_release(&desc);
	ss_buf_release(&keys);
	if (labels)
		for (size_t i = 0; i < n; i++)
			ss_buf_release(&labels[i]);
	ss_free(labels);
	ss_free(bars);
	ss_free(dbars);
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
	header(out, a, an, o);
	section_read(out, a, o);
	section_table(out, a, an);
	if (ss_results_any(&a->main)) {
		section_histogram(out, a);
		if (an)
			section_positions(out, a, an);
		section_distribution(out, a);
	}
	if (an && a->groups.n)
		section_groups(out, a, an);
	footer(out, o);
	ss_buf_adds(out, "</main>\n</body>\n</html>\n");
}
