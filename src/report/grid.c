/*
 * grid.c - the table of text cells of grid.h, printed as a box table or
 * as Markdown.
 */
#include "report/grid.h"

#include <string.h>

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

void ss_grid_box(struct ss_buf *out, const struct ss_grid *g, const char *title, bool utf8,
		 bool color)
{
	static const struct pieces u_top = {"┏", "━", "┳", "┓"}, u_head = {"┡", "━", "╇", "┩"},
				   u_bot = {"└", "─", "┴", "┘"}, a_rule = {"+", "-", "+", "+"};
	const char *vhead = utf8 ? "┃" : "|", *vbody = utf8 ? "│" : "|";
	size_t w[SS_GRID_MAX_COLS], nrows = rows_of(g), total, n;

	if (g->failed || g->text.failed) {
		out->failed = true;
		return;
	}
	if (nrows == 0)
		return;
	for (size_t c = 0; c < g->ncols; c++)
		w[c] = width_of(g->heads[c], strlen(g->heads[c]));
	for (size_t i = 0; i < g->ncells; i++) {
		const char *s = cell(g, i, &n);
		size_t cw = width_of(s, n);

		if (cw > w[i % g->ncols])
			w[i % g->ncols] = cw;
	}
	total = g->ncols + 1;
	for (size_t c = 0; c < g->ncols; c++)
		total += w[c] + 2;
	n = width_of(title, strlen(title));
	spaces(out, total > n ? (total - n) / 2 : 0);
	ss_buf_adds(out, title);
	ss_buf_addc(out, '\n');
	rule(out, utf8 ? &u_top : &a_rule, w, g->ncols);
	for (size_t c = 0; c < g->ncols; c++) {
		ss_buf_adds(out, vhead);
		pad_cell(out, g->heads[c], strlen(g->heads[c]), w[c], g->right[c], color);
	}
	ss_buf_adds(out, vhead);
	ss_buf_addc(out, '\n');
	rule(out, utf8 ? &u_head : &a_rule, w, g->ncols);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = cell(g, r * g->ncols + c, &n);

			ss_buf_adds(out, vbody);
			pad_cell(out, s, n, w[c], g->right[c], false);
		}
		ss_buf_adds(out, vbody);
		ss_buf_addc(out, '\n');
	}
	rule(out, utf8 ? &u_bot : &a_rule, w, g->ncols);
}

/*
 * A Markdown cell: the characters that would end the cell or start
 * emphasis or code (`|`, `*`, a backquote, a backslash) escaped, line ends
 * as spaces, so a file name or a `*` mark reads as written.
 */
static void md_cell(struct ss_buf *out, const char *s, size_t n)
{
	ss_buf_addc(out, ' ');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '|' || s[i] == '*' || s[i] == '`' || s[i] == '\\')
			ss_buf_addc(out, '\\');
		ss_buf_addc(out, s[i] == '\n' || s[i] == '\r' ? ' ' : s[i]);
	}
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
