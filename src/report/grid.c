/*
 * grid.c - the table of text cells of grid.h, printed as a box table or
 * as Markdown.
 */
#include "report/grid.h"

#include <string.h>

#include "report/escape.h"
#include "util/alloc.h"
#include "util/grow.h"

void ss_grid_init(struct ss_grid *g)
{
	memset(g, 0, sizeof(*g));
	ss_buf_init(&g->text);
}

void ss_grid_release(struct ss_grid *g)
{
	ss_buf_release(&g->text);
	ss_free(g->end);
	memset(g, 0, sizeof(*g));
}

void ss_grid_col(struct ss_grid *g, const char *head, bool right)
{
	if (g->ncols == SS_GRID_MAX_COLS) {
		g->failed = true;
		return;
	}
	g->heads[g->ncols] = head;
	g->right[g->ncols] = right;
	g->ncols++;
}

/* Cells are appended to `text` one after the other: nothing to remember. */
void ss_grid_begin(struct ss_grid *g)
{
	(void)g;
}

void ss_grid_end(struct ss_grid *g)
{
	if (!SS_ALLOC_GROW(g->end, g->ncells + 1, g->cap)) {
		g->failed = true;
		return;
	}
	g->end[g->ncells++] = g->text.len;
}

/* Characters, not bytes: continuation bytes do not count. */
static size_t width_of(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

static const char *cell(const struct ss_grid *g, size_t i, size_t *n)
{
	size_t start = i ? g->end[i - 1] : 0;

	*n = g->end[i] - start;
	return g->text.data + start;
}

static size_t rows_of(const struct ss_grid *g)
{
	return g->ncols ? g->ncells / g->ncols : 0;
}

static void spaces(struct ss_buf *out, size_t n)
{
	while (n--)
		ss_buf_addc(out, ' ');
}

struct pieces {
	const char *l, *f, *j, *r;
};

static void rule(struct ss_buf *out, const struct pieces *p, const size_t *w, size_t ncols)
{
	ss_buf_adds(out, p->l);
	for (size_t c = 0; c < ncols; c++) {
		if (c)
			ss_buf_adds(out, p->j);
		for (size_t i = 0; i < w[c] + 2; i++)
			ss_buf_adds(out, p->f);
	}
	ss_buf_adds(out, p->r);
	ss_buf_addc(out, '\n');
}

static void pad_cell(struct ss_buf *out, const char *s, size_t n, size_t w, bool right, bool bold)
{
	size_t pad = w - width_of(s, n);

	ss_buf_addc(out, ' ');
	if (right)
		spaces(out, pad);
	if (bold)
		ss_buf_adds(out, "\033[1m");
	ss_buf_add(out, s, n);
	if (bold)
		ss_buf_adds(out, "\033[0m");
	if (!right)
		spaces(out, pad);
	ss_buf_addc(out, ' ');
}

/*
 * Every head and cell escaped for the terminal (util/termesc.h), one
 * after another in t: heads first, then the cells; ends[i] is where the
 * i-th ends. Widths are those of the escaped text, as it is drawn.
 */
static size_t *escape_all(const struct ss_grid *g, struct ss_buf *t)
{
	size_t n, *ends = ss_malloc((g->ncols + g->ncells) * sizeof(*ends));

	if (!ends)
		return NULL;
	for (size_t c = 0; c < g->ncols; c++) {
		ss_buf_add_terms(t, g->heads[c]);
		ends[c] = t->len;
	}
	for (size_t i = 0; i < g->ncells; i++) {
		const char *s = cell(g, i, &n);

		ss_buf_add_term(t, s, n);
		ends[g->ncols + i] = t->len;
	}
	if (t->failed) {
		ss_free(ends);
		return NULL;
	}
	return ends;
}

static const char *span(const struct ss_buf *t, const size_t *ends, size_t i, size_t *n)
{
	size_t start = i ? ends[i - 1] : 0;

	*n = ends[i] - start;
	return t->data + start;
}

void ss_grid_box(struct ss_buf *out, const struct ss_grid *g, const char *title, bool utf8,
		 bool color)
{
	static const struct pieces u_top = {"┏", "━", "┳", "┓"}, u_head = {"┡", "━", "╇", "┩"},
				   u_bot = {"└", "─", "┴", "┘"}, a_rule = {"+", "-", "+", "+"};
	const char *vhead = utf8 ? "┃" : "|", *vbody = utf8 ? "│" : "|";
	size_t w[SS_GRID_MAX_COLS], nrows = rows_of(g), total, n, *ends;
	struct ss_buf t = SS_BUF_INIT, tt = SS_BUF_INIT;

	if (g->failed || g->text.failed) {
		out->failed = true;
		return;
	}
	if (nrows == 0)
		return;
	ends = escape_all(g, &t);
	ss_buf_add_terms(&tt, title);
	if (!ends || tt.failed) {
		out->failed = true;
		goto done;
	}
	for (size_t i = 0; i < g->ncols + g->ncells; i++) {
		const char *s = span(&t, ends, i, &n);
		size_t cw = width_of(s, n), c = i < g->ncols ? i : (i - g->ncols) % g->ncols;

		if (i < g->ncols || cw > w[c])
			w[c] = cw;
	}
	total = g->ncols + 1;
	for (size_t c = 0; c < g->ncols; c++)
		total += w[c] + 2;
	n = width_of(tt.data ? tt.data : "", tt.len);
	spaces(out, total > n ? (total - n) / 2 : 0);
	ss_buf_add(out, tt.data ? tt.data : "", tt.len);
	ss_buf_addc(out, '\n');
	rule(out, utf8 ? &u_top : &a_rule, w, g->ncols);
	for (size_t c = 0; c < g->ncols; c++) {
		const char *s = span(&t, ends, c, &n);

		ss_buf_adds(out, vhead);
		pad_cell(out, s, n, w[c], g->right[c], color);
	}
	ss_buf_adds(out, vhead);
	ss_buf_addc(out, '\n');
	rule(out, utf8 ? &u_head : &a_rule, w, g->ncols);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = span(&t, ends, g->ncols + r * g->ncols + c, &n);

			ss_buf_adds(out, vbody);
			pad_cell(out, s, n, w[c], g->right[c], false);
		}
		ss_buf_adds(out, vbody);
		ss_buf_addc(out, '\n');
	}
	rule(out, utf8 ? &u_bot : &a_rule, w, g->ncols);
done:
	ss_free(ends);
	ss_buf_release(&t);
	ss_buf_release(&tt);
}

/* A Markdown cell, escaped (report/escape.h): a name reads as written. */
static void md_cell(struct ss_buf *out, const char *s, size_t n)
{
	ss_buf_addc(out, ' ');
	ss_buf_add_md(out, s, n);
	ss_buf_adds(out, " |");
}

void ss_grid_markdown(struct ss_buf *out, const struct ss_grid *g)
{
	size_t nrows = rows_of(g), n;

	if (g->failed || g->text.failed) {
		out->failed = true;
		return;
	}
	if (nrows == 0)
		return;
	ss_buf_addc(out, '|');
	for (size_t c = 0; c < g->ncols; c++)
		md_cell(out, g->heads[c], strlen(g->heads[c]));
	ss_buf_adds(out, "\n|");
	for (size_t c = 0; c < g->ncols; c++)
		ss_buf_adds(out, g->right[c] ? " ---: |" : " :--- |");
	ss_buf_addc(out, '\n');
	for (size_t r = 0; r < nrows; r++) {
		ss_buf_addc(out, '|');
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = cell(g, r * g->ncols + c, &n);

			md_cell(out, s, n);
		}
		ss_buf_addc(out, '\n');
	}
}
