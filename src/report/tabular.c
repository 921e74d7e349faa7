/*
 * tabular.c - the table model of tabular.h and its box renderer (fitted
 * to the console); the Markdown, CSV and HTML renderers are in
 * tabular_fmt.c.
 */
#include "report/tabular.h"
#include "report/tabular_int.h"

#include <stdint.h>
#include <string.h>

#include "report/escape.h"
#include "report/numfmt.h"
#include "report/textfit.h"
#include "util/alloc.h"
#include "util/grow.h"


void ss_tab_init(struct ss_tab *t, const struct ss_tab_col *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	ss_buf_init(&t->text);
}

void ss_tab_release(struct ss_tab *t)
{
	ss_buf_release(&t->text);
	ss_free(t->cells);
	memset(t, 0, sizeof(*t));
}

size_t ss_tab_rows(const struct ss_tab *t)
{
	return t->ncols ? t->ncells / t->ncols : 0;
}

static struct ss_tab_cell *next(struct ss_tab *t, enum cell_type type)
{
	struct ss_tab_cell *c;

	if (!SS_ALLOC_GROW(t->cells, t->ncells + 1, t->cap)) {
		t->failed = true;
		return NULL;
	}
	c = &t->cells[t->ncells++];
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->off = t->text.len;
	if (t->ncols && (t->ncells - 1) % t->ncols == 0) {
		c->row_class = t->row_class;
		t->row_class = NULL;
	}
	return c;
}

void ss_tab_markup(struct ss_tab *t, const char *html, const char *text)
{
	struct ss_tab_cell *c = next(t, C_MARKUP);

	if (!c)
		return;
	ss_buf_adds(&t->text, text ? text : "");
	c->len = t->text.len - c->off;
	c->hoff = t->text.len;
	ss_buf_adds(&t->text, html ? html : "");
	c->hlen = t->text.len - c->hoff;
}

void ss_tab_row_class(struct ss_tab *t, const char *cls)
{
	t->row_class = cls;
}

void ss_tab_text(struct ss_tab *t, const char *s)
{
	ss_buf_adds(ss_tab_begin(t), s ? s : "");
	ss_tab_end(t);
}

void ss_tab_int(struct ss_tab *t, __int128 v)
{
	struct ss_tab_cell *c = next(t, C_INT);

	if (c)
		c->i = v;
}

void ss_tab_num(struct ss_tab *t, double v)
{
	struct ss_tab_cell *c = next(t, C_NUM);

	if (c)
		c->d = v;
}

void ss_tab_na(struct ss_tab *t)
{
	next(t, C_NA);
}

void ss_tab_empty(struct ss_tab *t)
{
	next(t, C_EMPTY);
}

/* The text goes straight into t->text; the cell records where it began. */
struct ss_buf *ss_tab_begin(struct ss_tab *t)
{
	struct ss_tab_cell *c = next(t, C_TEXT);

	if (c)
		c->off = t->text.len;
	return &t->text;
}

void ss_tab_end(struct ss_tab *t)
{
	struct ss_tab_cell *c = t->ncells ? &t->cells[t->ncells - 1] : NULL;

	if (c && c->type == C_TEXT)
		c->len = t->text.len - c->off;
}

bool ss_tab_shown(const struct ss_tab_col *c, unsigned fmt)
{
	return (c->in ? c->in : SS_TAB_ALL) & fmt;
}

bool ss_tab_failed(struct ss_buf *out, const struct ss_tab *t)
{
	if (t->failed || t->text.failed)
		out->failed = true;
	return out->failed;
}

/* A count: `,` separators in 0..UINT64_MAX, plain digits beyond. */
static void add_count(struct ss_buf *b, __int128 v)
{
	if (v >= 0 && v <= (__int128)UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, v);
}

/* A PCT or TIMES cell (a number or a missing value) for `fmt`. */
static void ratio_cell(struct ss_buf *b, const struct ss_tab_col *col, const struct ss_tab_cell *c,
		       unsigned fmt)
{
	bool text = fmt == SS_TAB_BOX || fmt == SS_TAB_MD;

	if (c->type == C_NA) {
		if (text)
			ss_buf_adds(b, "N/A");
	} else if (col->kind == SS_COL_PCT && text) {
		ss_buf_add_fixed0(b, c->d * 100.0);
		ss_buf_addc(b, '%');
	} else if (col->kind == SS_COL_PCT) {
		ss_buf_add_fixed2(b, c->d * 100.0);
	} else if (text) {
		ss_buf_add_fixed2_grouped(b, c->d);
		ss_buf_addc(b, 'x');
	} else if (fmt == SS_TAB_CSV || col->html_plain) {
		ss_buf_add_fixed2(b, c->d);
	} else {
		ss_buf_add_fixed2_grouped(b, c->d);
	}
}

/* A cell's text for `fmt`, before the destination's escaping. */
void ss_tab_raw_cell(struct ss_buf *b, const struct ss_tab *t, size_t i, unsigned fmt)
{
	const struct ss_tab_cell *c = &t->cells[i];
	const struct ss_tab_col *col = &t->cols[i % t->ncols];

	if ((col->kind == SS_COL_PCT || col->kind == SS_COL_TIMES) &&
	    (c->type == C_NUM || c->type == C_NA)) {
		ratio_cell(b, col, c, fmt);
		return;
	}
	switch (c->type) {
	case C_EMPTY:
		break;
	case C_NA:
		if (fmt != SS_TAB_CSV)
			ss_buf_adds(b, "N/A");
		break;
	case C_TEXT:
		ss_buf_add(b, t->text.data + c->off, c->len);
		break;
	case C_MARKUP:
		if (fmt == SS_TAB_HTML)
			ss_buf_add(b, t->text.data + c->hoff, c->hlen);
		else
			ss_buf_add(b, t->text.data + c->off, c->len);
		break;
	case C_INT:
		if (col->kind == SS_COL_COUNT && fmt != SS_TAB_CSV)
			add_count(b, c->i);
		else
			ss_buf_add_i128(b, c->i);
		break;
	case C_NUM:
		if (col->kind == SS_COL_REAL && (fmt == SS_TAB_CSV || fmt == SS_TAB_HTML))
			ss_buf_add_double(b, c->d);
		else if (fmt == SS_TAB_CSV || (fmt == SS_TAB_HTML && col->html_plain))
			ss_buf_add_fixed2(b, c->d);
		else
			ss_buf_add_fixed2_grouped(b, c->d);
		break;
	}
}

/* -- box ------------------------------------------------------------------ */

static void spaces(struct ss_buf *out, size_t n)
{
	while (n--)
		ss_buf_addc(out, ' ');
}

struct pieces {
	const char *l, *f, *j, *r;
};

/* The box's columns: which of the table's it shows, their widths, and
 * how each is drawn once the table is fitted to the console. */
enum { V_SHOW, V_DROP, V_STACK };

struct box_cols {
	size_t idx[64], w[64], n;
	unsigned char v[64];
	size_t stack_w; /* the widest stacked line, 0 when none */
	bool wrap[64];  /* a shown text column narrowed: its cells wrap at words */
};

/* The console's width (tabular.h); 0: no limit. */
static size_t console_width;
static bool prose_fitted;

void ss_tab_set_width(size_t cols)
{
	console_width = cols;
}

static size_t box_total(const struct box_cols *bc)
{
	size_t total = 1;

	for (size_t c = 0; c < bc->n; c++)
		if (bc->v[c] == V_SHOW)
			total += bc->w[c] + 3;
	return total;
}

static void rule(struct ss_buf *out, const struct pieces *p, const struct box_cols *bc)
{
	bool first = true;

	ss_buf_adds(out, p->l);
	for (size_t c = 0; c < bc->n; c++) {
		if (bc->v[c] != V_SHOW)
			continue;
		if (!first)
			ss_buf_adds(out, p->j);
		first = false;
		for (size_t i = 0; i < bc->w[c] + 2; i++)
			ss_buf_adds(out, p->f);
	}
	ss_buf_adds(out, p->r);
	ss_buf_addc(out, '\n');
}

static void pad_cell(struct ss_buf *out, const char *s, size_t n, size_t w, bool right, bool bold)
{
	size_t pad = w - ss_text_columns(s, n);

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
 * The heads, then the cells (row-major), of the shown columns, escaped
 * for the terminal one after another in `e`; ends[k] is where the k-th
 * ends. Widths are those of the escaped text, as it is drawn.
 */
static size_t *escape_all(const struct ss_tab *t, struct box_cols *bc, struct ss_buf *e)
{
	size_t nrows = ss_tab_rows(t), k = 0;
	size_t *ends = ss_reallocarray(NULL, bc->n * (nrows + 1) + 1, sizeof(*ends));
	struct ss_buf raw = SS_BUF_INIT;

	if (!ends)
		return NULL;
	for (size_t c = 0; c < bc->n; c++) {
		ss_buf_add_terms(e, t->cols[bc->idx[c]].head);
		ends[k++] = e->len;
	}
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < bc->n; c++) {
			ss_buf_reset(&raw);
			ss_tab_raw_cell(&raw, t, r * t->ncols + bc->idx[c], SS_TAB_BOX);
			e->failed |= raw.failed;   /* the reset clears it */
			ss_buf_add_term(e, raw.data ? raw.data : "", raw.len);
			ends[k++] = e->len;
		}
	if (e->failed) {
		ss_free(ends);
		ends = NULL;
	}
	ss_buf_release(&raw);
	return ends;
}

static const char *span(const struct ss_buf *e, const size_t *ends, size_t k, size_t *n)
{
	size_t start = k ? ends[k - 1] : 0;

	*n = ends[k] - start;
	return e->data + start;
}

/* The stacked line of the row whose first cell is `first`: `head: value`
 * of each stacked column, two spaces apart (escaped, as drawn). */
static void stack_text(struct ss_buf *b, const struct box_cols *bc, const struct ss_buf *e,
		       const size_t *ends, size_t first)
{
	size_t n;
	bool any = false;

	for (size_t c = 0; c < bc->n; c++) {
		const char *s;

		if (bc->v[c] != V_STACK)
			continue;
		if (any)
			ss_buf_adds(b, "  ");
		any = true;
		s = span(e, ends, c, &n);
		ss_buf_add(b, s, n);
		ss_buf_adds(b, ": ");
		s = span(e, ends, first + c, &n);
		ss_buf_add(b, s, n);
	}
}

/* `s` in exactly `w` columns: padded, or cut in the middle with an
 * ellipsis when longer (a name keeps its start and its end). */
static void put_cut(struct ss_buf *out, const char *s, size_t n, size_t w, bool utf8)
{
	size_t sw = ss_text_columns(s, n), ew = utf8 ? 1 : 3, keep, head, tail;

	if (sw <= w || w < ew + 2) {
		ss_buf_add(out, s, sw <= w ? n : ss_text_prefix_bytes(s, n, w));
		spaces(out, sw <= w ? w - sw : 0);
		return;
	}
	keep = w - ew;
	head = keep - keep / 2;
	tail = keep / 2;
	ss_buf_add(out, s, ss_text_prefix_bytes(s, n, head));
	ss_buf_adds(out, utf8 ? "…" : "...");
	head = ss_text_prefix_bytes(s, n, sw - tail);
	ss_buf_add(out, s + head, n - head);
}

/* A body row with wrapped columns: as many lines as its longest cell
 * needs, the other cells on the first. */
static void wrapped_row(struct ss_buf *out, const struct ss_tab *t, const struct box_cols *bc,
			const struct ss_buf *e, const size_t *ends, size_t first, const char *v)
{
	size_t at[64] = {0};
	bool more = true;

	for (size_t line = 0; more; line++) {
		more = false;
		for (size_t c = 0; c < bc->n; c++) {
			size_t n, len = 0;
			const char *s = span(e, ends, first + c, &n);

			if (bc->v[c] != V_SHOW)
				continue;
			ss_buf_adds(out, v);
			if (bc->wrap[c]) {
				const char *p = s + at[c];

				ss_text_next_line(s, n, bc->w[c], &at[c], &len);
				pad_cell(out, p, len, bc->w[c], false, false);
				more |= at[c] < n;
			} else {
				pad_cell(out, s, line ? 0 : n, bc->w[c], !t->cols[bc->idx[c]].left,
					 false);
			}
		}
		ss_buf_adds(out, v);
		ss_buf_addc(out, '\n');
	}
}

static bool any_wrap(const struct box_cols *bc)
{
	for (size_t c = 0; c < bc->n; c++)
		if (bc->wrap[c] && bc->v[c] == V_SHOW)
			return true;
	return false;
}

static void box_line(struct ss_buf *out, const struct ss_tab *t, const struct box_cols *bc,
		     const struct ss_buf *e, const size_t *ends, size_t first, const char *v,
		     bool bold, bool utf8)
{
	size_t n;

	if (first && any_wrap(bc)) {
		wrapped_row(out, t, bc, e, ends, first, v);
		return;
	}

	if (bc->stack_w && first) {
		struct ss_buf st = SS_BUF_INIT;

		stack_text(&st, bc, e, ends, first);
		out->failed |= st.failed;
		ss_buf_adds(out, v);
		ss_buf_addc(out, ' ');
		put_cut(out, st.data ? st.data : "", st.len, box_total(bc) - 4, utf8);
		ss_buf_addc(out, ' ');
		ss_buf_adds(out, v);
		ss_buf_addc(out, '\n');
		ss_buf_release(&st);
	}
	for (size_t c = 0; c < bc->n; c++) {
		const char *s = span(e, ends, first + c, &n);

		if (bc->v[c] != V_SHOW)
			continue;
		ss_buf_adds(out, v);
		pad_cell(out, s, n, bc->w[c], !t->cols[bc->idx[c]].left, bold);
	}
	ss_buf_adds(out, v);
	ss_buf_addc(out, '\n');
}

static size_t shown_count(const struct box_cols *bc, bool right_only, const struct ss_tab *t)
{
	size_t k = 0;

	for (size_t c = 0; c < bc->n; c++)
		k += bc->v[c] == V_SHOW && !(right_only && t->cols[bc->idx[c]].left);
	return k;
}

/* Stack the left-aligned columns when a right-aligned one stays, and
 * note the widest stacked line. */
static void stack_left(struct box_cols *bc, const struct ss_tab *t, const struct ss_buf *e,
		       const size_t *ends)
{
	size_t nrows = ss_tab_rows(t);
	struct ss_buf st = SS_BUF_INIT;

	if (shown_count(bc, true, t) == 0 || shown_count(bc, false, t) == shown_count(bc, true, t))
		return;
	for (size_t c = 0; c < bc->n; c++)
		if (bc->v[c] == V_SHOW && t->cols[bc->idx[c]].left)
			bc->v[c] = V_STACK;
	for (size_t r = 1; r <= nrows; r++) {
		ss_buf_reset(&st);
		stack_text(&st, bc, e, ends, r * bc->n);
		if (ss_text_columns(st.data ? st.data : "", st.len) > bc->stack_w)
			bc->stack_w = ss_text_columns(st.data ? st.data : "", st.len);
	}
	ss_buf_release(&st);
}

/* Leave out the columns with a priority, the largest first, until the
 * box fits; how many went. */
static size_t drop_by_priority(struct box_cols *bc, const struct ss_tab *t, size_t limit)
{
	size_t k = 0;

	while (box_total(bc) > limit) {
		size_t best = bc->n;

		for (size_t c = 0; c < bc->n; c++) {
			unsigned p = t->priority ? t->priority[bc->idx[c]] : 0;

			if (bc->v[c] == V_SHOW && p && (best == bc->n || p >= t->priority[bc->idx[best]]))
				best = c;
		}
		if (best == bc->n)
			break;
		bc->v[best] = V_DROP;
		k++;
	}
	return k;
}

/* The narrowest a wrapped column may be: its head, its longest word, and
 * at least WRAP_MIN columns. */
#define WRAP_MIN 12

static size_t wrap_min(const struct box_cols *bc, size_t c, const struct ss_tab *t,
		       const struct ss_buf *e, const size_t *ends)
{
	size_t nrows = ss_tab_rows(t), n, m = WRAP_MIN;
	const char *s = span(e, ends, c, &n);

	if (ss_text_columns(s, n) > m)
		m = ss_text_columns(s, n);
	for (size_t r = 1; r <= nrows; r++) {
		s = span(e, ends, r * bc->n + c, &n);
		for (size_t i = 0; i < n;) {
			size_t j = i;

			while (j < n && s[j] != ' ')
				j++;
			if (ss_text_columns(s + i, j - i) > m)
				m = ss_text_columns(s + i, j - i);
			i = j + 1;
		}
	}
	return m;
}

/*
 * First of all, before any column is left out: narrow the left-aligned
 * text columns (prose: what a definition is, who reports it), the widest
 * first, their cells wrapping at words, each no narrower than wrap_min().
 * true when the box then fits (else it is left as it was).
 */
static bool wrap_text(struct box_cols *bc, const struct ss_tab *t, size_t limit,
		      const struct ss_buf *e, const size_t *ends)
{
	struct box_cols was = *bc;
	size_t minw[64];

	for (size_t c = 0; c < bc->n; c++) {
		const struct ss_tab_col *col = &t->cols[bc->idx[c]];

		minw[c] = 0;
		if (bc->v[c] == V_SHOW && col->kind == SS_COL_TEXT && col->left)
			minw[c] = wrap_min(bc, c, t, e, ends);
	}
	while (box_total(bc) > limit) {
		size_t best = bc->n;

		for (size_t c = 0; c < bc->n; c++)
			if (minw[c] && bc->w[c] > minw[c] && (best == bc->n || bc->w[c] > bc->w[best]))
				best = c;
		if (best == bc->n) {
			*bc = was;
			return false;
		}
		bc->w[best]--;
		bc->wrap[best] = true;
	}
	return true;
}

/*
 * Fit the box to `limit` columns (tabular.h's order): of "leave out by
 * priority" and "stack the names, then leave out by priority", the one
 * that leaves out fewer columns (one line per row on a tie); then from
 * the right; then the box widened, within the limit, to hold the
 * stacked lines.
 */
static void fit(struct box_cols *bc, const struct ss_tab *t, size_t limit, const struct ss_buf *e,
		const size_t *ends)
{
	struct box_cols stacked = *bc;
	size_t k1, k2, last = 0, inner;
	bool fit1, fit2;

	if (box_total(bc) <= limit || wrap_text(bc, t, limit, e, ends))
		return;
	k1 = drop_by_priority(bc, t, limit);
	fit1 = box_total(bc) <= limit;
	stack_left(&stacked, t, e, ends);
	k2 = drop_by_priority(&stacked, t, limit);
	fit2 = box_total(&stacked) <= limit;
	/* a row on two lines costs about what a column left out does */
	if (stacked.stack_w && (!fit1 || (fit2 && k2 + 1 < k1)))
		*bc = stacked;
	for (size_t c = bc->n; c-- > 0 && box_total(bc) > limit && shown_count(bc, false, t) > 1;)
		if (bc->v[c] == V_SHOW)
			bc->v[c] = V_DROP;
	for (size_t c = 0; c < bc->n; c++)
		if (bc->v[c] == V_SHOW)
			last = c;
	inner = box_total(bc) - 4;
	if (bc->stack_w > inner && box_total(bc) < limit) {
		size_t more = bc->stack_w - inner, room = limit - box_total(bc);

		bc->w[last] += more < room ? more : room;
	}
}

void ss_tab_wrap(struct ss_buf *out, const char *s, size_t n, const char *indent)
{
	ss_text_wrap(out, s, n, indent, console_width);
}

void ss_tab_set_prose(bool fit)
{
	prose_fitted = fit;
}

void ss_tab_fit_lines(struct ss_buf *out, size_t from)
{
	if (prose_fitted)
		ss_text_fit_lines(out, from, console_width);
}


/* The line under a fitted table: which columns it leaves out. */
static void dropped_note(struct ss_buf *out, const struct box_cols *bc, const struct ss_buf *e,
			 const size_t *ends, size_t limit)
{
	struct ss_buf note = SS_BUF_INIT;
	size_t k = 0, n;

	for (size_t c = 0; c < bc->n; c++) {
		const char *s = span(e, ends, c, &n);

		if (bc->v[c] != V_DROP)
			continue;
		ss_buf_adds(&note, k++ ? ", " : "Not shown, to fit ");
		if (k == 1)
			ss_buf_addf(&note, "%zu columns: ", limit);
		ss_buf_add(&note, s, n);
	}
	if (k) {
		ss_buf_adds(&note, " (a wider terminal, COLUMNS=N or -f markdown shows ");
		ss_buf_adds(&note, k == 1 ? "it)" : "them)");
		out->failed |= note.failed;
		ss_text_wrap(out, note.data ? note.data : "", note.len, "  ", limit);
	}
	ss_buf_release(&note);
}

void ss_tab_box(struct ss_buf *out, const struct ss_tab *t, const char *title, bool utf8,
		bool color)
{
	static const struct pieces u_top = {"┏", "━", "┳", "┓"}, u_head = {"┡", "━", "╇", "┩"},
				   u_bot = {"└", "─", "┴", "┘"}, a_rule = {"+", "-", "+", "+"};
	size_t nrows = ss_tab_rows(t), total, n, *ends;
	struct ss_buf e = SS_BUF_INIT, tt = SS_BUF_INIT;
	struct box_cols bc = {.n = 0};

	if (ss_tab_failed(out, t) || nrows == 0)
		return;
	for (size_t c = 0; c < t->ncols && bc.n < 64; c++)
		if (ss_tab_shown(&t->cols[c], SS_TAB_BOX))
			bc.idx[bc.n++] = c;
	ends = escape_all(t, &bc, &e);
	ss_buf_add_terms(&tt, title);
	if (!ends || tt.failed) {
		out->failed = true;
		goto done;
	}
	for (size_t k = 0; k < bc.n * (nrows + 1); k++) {
		const char *s = span(&e, ends, k, &n);
		size_t cw = ss_text_columns(s, n), c = k % bc.n;

		if (k < bc.n || cw > bc.w[c])
			bc.w[c] = cw;
	}
	if (console_width && !t->fixed)
		fit(&bc, t, console_width, &e, ends);
	total = box_total(&bc);
	n = ss_text_columns(tt.data ? tt.data : "", tt.len);
	spaces(out, total > n ? (total - n) / 2 : 0);
	ss_buf_add(out, tt.data ? tt.data : "", tt.len);
	ss_buf_addc(out, '\n');
	rule(out, utf8 ? &u_top : &a_rule, &bc);
	box_line(out, t, &bc, &e, ends, 0, utf8 ? "┃" : "|", color, utf8);
	rule(out, utf8 ? &u_head : &a_rule, &bc);
	for (size_t r = 0; r < nrows; r++)
		box_line(out, t, &bc, &e, ends, (r + 1) * bc.n, utf8 ? "│" : "|", false, utf8);
	rule(out, utf8 ? &u_bot : &a_rule, &bc);
	dropped_note(out, &bc, &e, ends, console_width);
done:
	ss_free(ends);
	ss_buf_release(&e);
	ss_buf_release(&tt);
}
