/*
 * table.c - the console Spec Decode section (SPEC 4.3): the table as rich
 * draws AIPerf's (heavy head, light body), or with `+ - |` when the output
 * is not UTF-8; then the pooled histogram line and the accounting line.
 */
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"
#include "util/text.h"

#define NCOLS 8 /* Metric, then the seven statistics */
#define LABEL_WRAP 30

const int ss_report_table_rows[SS_REPORT_TABLE_NROWS] = {
	SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL,
	SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	SS_M_ACCEPTED_PER_VERIFIED, SS_M_STEPS, SS_M_ZERO_STEP_REQUESTS,
};
#define NROWS SS_REPORT_TABLE_NROWS
#define table_rows ss_report_table_rows

static const char *const col_names[NCOLS] = {
	"Metric", "avg", "min", "max", "p99", "p90", "p50", "std",
};

/*
 * A row's cells: spans of the shared `text` buffer. A label may take two
 * lines; the other cells of the second line are empty.
 */
struct row {
	struct ss_span line[2][NCOLS];
	int nlines;
};

/* Box pieces: left, fill, junction, right. */
struct rule {
	const char *l, *f, *j, *r;
};

struct style {
	struct rule top, head, bottom;
	const char *vhead, *vbody;
};

static const struct style utf8_style = {
	{"┏", "━", "┳", "┓"},
	{"┡", "━", "╇", "┩"},
	{"└", "─", "┴", "┘"},
	"┃", "│",
};

static const struct style ascii_style = {
	{"+", "-", "+", "+"},
	{"+", "-", "+", "+"},
	{"+", "-", "+", "+"},
	"|", "|",
};

/* The span of the cell whose text was appended to `text` from `start`
 * on: its length now, its pointer once the text is complete (see
 * point_spans()). */
static void end_cell(struct ss_span *sp, const struct ss_buf *text, size_t start)
{
	sp->p = NULL;
	sp->n = text->len - start;
}

/*
 * The text moves while it grows, so the spans get their pointers only
 * when it is complete: the cells were appended in the order they are
 * drawn, row by row, line by line, left to right.
 */
static void point_spans(struct row *rows, int nrows, const struct ss_buf *text)
{
	const char *at = text->data;

	for (int i = 0; i < nrows; i++)
		for (int l = 0; l < rows[i].nlines; l++)
			for (int c = 0; c < NCOLS; c++) {
				rows[i].line[l][c].p = at;
				at += rows[i].line[l][c].n;
			}
}

static void add_rule(struct ss_buf *out, const struct rule *r, const size_t *w)
{
	ss_buf_adds(out, r->l);
	for (int c = 0; c < NCOLS; c++) {
		if (c)
			ss_buf_adds(out, r->j);
		for (size_t i = 0; i < w[c] + 2; i++)
			ss_buf_adds(out, r->f);
	}
	ss_buf_adds(out, r->r);
	ss_buf_addc(out, '\n');
}

static void add_spaces(struct ss_buf *out, size_t n)
{
	while (n--)
		ss_buf_addc(out, ' ');
}

/* One cell padded to width w: the first column left-aligned, others right. */
static void add_cell(struct ss_buf *out, int col, const char *s, size_t len,
		     size_t w, bool bold)
{
	ss_buf_addc(out, ' ');
	if (col)
		add_spaces(out, w - len);
	if (bold)
		ss_buf_adds(out, "\033[1m");
	ss_buf_add(out, s, len);
	if (bold)
		ss_buf_adds(out, "\033[0m");
	if (!col)
		add_spaces(out, w - len);
	ss_buf_addc(out, ' ');
}

void ss_report_text_spec_decode(struct ss_buf *out, const struct ss_results *r, bool utf8,
				 bool color)
{
	const struct style *st = utf8 ? &utf8_style : &ascii_style;
	struct ss_buf text = SS_BUF_INIT;
	struct row rows[NROWS];
	size_t w[NCOLS], total;
	int nrows = 0;

	for (int c = 0; c < NCOLS; c++)
		w[c] = strlen(col_names[c]);

	for (int i = 0; i < NROWS; i++) {
		int m = table_rows[i];
		const struct ss_metric_info *mi = &ss_metric_table[m];
		const struct ss_stats *s = &r->stats[m];
		const double v[NCOLS] = {
			0, s->avg, s->min, s->max, s->p99, s->p90, s->p50, s->std,
		};
		struct row *row = &rows[nrows];
		size_t start;

		if (!r->has[m])
			continue;
		nrows++;
		memset(row, 0, sizeof(*row));
		row->nlines = strlen(mi->header) > LABEL_WRAP ? 2 : 1;
		/* the label, "(unit)" on a line of its own under a long one */
		start = text.len;
		ss_buf_adds(&text, mi->header);
		if (row->nlines == 1)
			ss_buf_addf(&text, " (%s)", mi->unit);
		end_cell(&row->line[0][0], &text, start);
		for (int c = 1; c < NCOLS; c++) {
			start = text.len;
			if (mi->per_request || c == 1)
				ss_buf_add_fixed2_grouped(&text, v[c]);
			else
				ss_buf_adds(&text, "N/A");
			end_cell(&row->line[0][c], &text, start);
		}
		if (row->nlines == 2) {
			start = text.len;
			ss_buf_addf(&text, "(%s)", mi->unit);
			end_cell(&row->line[1][0], &text, start);
		}
		for (int l = 0; l < row->nlines; l++)
			for (int c = 0; c < NCOLS; c++)
				if (row->line[l][c].n > w[c])
					w[c] = row->line[l][c].n;
	}
	if (text.failed) {
		out->failed = true;
		ss_buf_release(&text);
		return;
	}
	if (nrows == 0) {
		ss_buf_release(&text);
		return;
	}
	point_spans(rows, nrows, &text);

	/* The title, centred over the table. */
	total = NCOLS + 1;
	for (int c = 0; c < NCOLS; c++)
		total += w[c] + 2;
	add_spaces(out, (total - strlen("Spec Decode")) / 2);
	ss_buf_adds(out, "Spec Decode\n");

	add_rule(out, &st->top, w);
	for (int c = 0; c < NCOLS; c++) {
		ss_buf_adds(out, st->vhead);
		add_cell(out, c, col_names[c], strlen(col_names[c]), w[c], color);
	}
	ss_buf_adds(out, st->vhead);
	ss_buf_addc(out, '\n');
	add_rule(out, &st->head, w);
	for (int i = 0; i < nrows; i++) {
		for (int l = 0; l < rows[i].nlines; l++) {
			for (int c = 0; c < NCOLS; c++) {
				const struct ss_span *sp = &rows[i].line[l][c];

				ss_buf_adds(out, st->vbody);
				add_cell(out, c, sp->p, sp->n, w[c], false);
			}
			ss_buf_adds(out, st->vbody);
			ss_buf_addc(out, '\n');
		}
	}
	add_rule(out, &st->bottom, w);
	ss_buf_release(&text);
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
