/*
 * tabular_fmt.c - the table model's Markdown, CSV and HTML renderers
 * (tabular.h); the box is in tabular.c.
 */
#include "report/tabular.h"
#include "report/tabular_int.h"

#include <stdint.h>
#include <string.h>

#include "report/escape.h"
#include "report/htmlesc.h"

/* -- Markdown ------------------------------------------------------------- */

static void md_cell(struct ss_buf *out, const char *s, size_t n)
{
	ss_buf_addc(out, ' ');
	ss_buf_add_md(out, s, n);
	ss_buf_adds(out, " |");
}

void ss_tab_md(struct ss_buf *out, const struct ss_tab *t)
{
	size_t nrows = ss_tab_rows(t);
	struct ss_buf raw = SS_BUF_INIT;

	if (ss_tab_failed(out, t) || nrows == 0)
		return;
	ss_buf_addc(out, '|');
	for (size_t c = 0; c < t->ncols; c++)
		if (ss_tab_shown(&t->cols[c], SS_TAB_MD))
			md_cell(out, t->cols[c].head, strlen(t->cols[c].head));
	ss_buf_adds(out, "\n|");
	for (size_t c = 0; c < t->ncols; c++)
		if (ss_tab_shown(&t->cols[c], SS_TAB_MD))
			ss_buf_adds(out, t->cols[c].left ? " :--- |" : " ---: |");
	ss_buf_addc(out, '\n');
	for (size_t r = 0; r < nrows; r++) {
		ss_buf_addc(out, '|');
		for (size_t c = 0; c < t->ncols; c++) {
			if (!ss_tab_shown(&t->cols[c], SS_TAB_MD))
				continue;
			ss_buf_reset(&raw);
			ss_tab_raw_cell(&raw, t, r * t->ncols + c, SS_TAB_MD);
			out->failed |= raw.failed;
			md_cell(out, raw.data ? raw.data : "", raw.len);
		}
		ss_buf_addc(out, '\n');
	}
	out->failed |= raw.failed;
	ss_buf_release(&raw);
}

/* -- CSV -------------------------------------------------------------------- */

void ss_tab_csv_field(struct ss_buf *out, const char *s, size_t n, bool name)
{
	bool quote = false;
	bool guard = name && ss_csv_is_formula(s, n);

	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		if (guard)
			ss_buf_addc(out, '\'');
		ss_buf_add(out, s, n);
		return;
	}
	ss_buf_addc(out, '"');
	if (guard)
		ss_buf_addc(out, '\'');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			ss_buf_addc(out, '"');
		ss_buf_addc(out, s[i]);
	}
	ss_buf_addc(out, '"');
}

void ss_tab_csv(struct ss_buf *out, const struct ss_tab *t, bool head)
{
	size_t nrows = ss_tab_rows(t);
	struct ss_buf raw = SS_BUF_INIT;
	bool first = true;

	if (ss_tab_failed(out, t))
		return;
	if (head) {
		if (out->len)
			ss_buf_adds(out, "\r\n");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct ss_tab_col *col = &t->cols[c];
			const char *h = col->csv_head ? col->csv_head : col->head;

			if (!ss_tab_shown(col, SS_TAB_CSV))
				continue;
			if (!first)
				ss_buf_addc(out, ',');
			first = false;
			ss_tab_csv_field(out, h, strlen(h), false);
		}
		ss_buf_adds(out, "\r\n");
	}
	for (size_t r = 0; r < nrows; r++) {
		first = true;
		for (size_t c = 0; c < t->ncols; c++) {
			if (!ss_tab_shown(&t->cols[c], SS_TAB_CSV))
				continue;
			if (!first)
				ss_buf_addc(out, ',');
			first = false;
			ss_buf_reset(&raw);
			ss_tab_raw_cell(&raw, t, r * t->ncols + c, SS_TAB_CSV);
			out->failed |= raw.failed;
			ss_tab_csv_field(out, raw.data ? raw.data : "", raw.len,
				  t->cols[c].kind == SS_COL_NAME &&
					  t->cells[r * t->ncols + c].type == C_TEXT);
		}
		ss_buf_adds(out, "\r\n");
	}
	out->failed |= raw.failed;
	ss_buf_release(&raw);
}

/* -- HTML ------------------------------------------------------------------- */

static void html_head(struct ss_buf *out, const struct ss_tab_col *col)
{
	bool l = col->kind == SS_COL_NAME || (col->kind == SS_COL_TEXT && col->left);

	ss_buf_adds(out, l ? "<th class=\"l\">" : "<th>");
	if (col->html_head)
		ss_buf_adds(out, col->html_head);
	else
		ss_buf_add_htmls(out, col->head);
	ss_buf_adds(out, "</th>");
}

/* A ROWHEAD cell. */
static void row_head(struct ss_buf *out, const char *s, size_t n, bool trusted)
{
	ss_buf_adds(out, "<th scope=\"row\">");
	if (trusted)
		ss_buf_add(out, s, n);
	else
		ss_buf_add_html(out, s, n);
	ss_buf_adds(out, "</th>");
}

/* `s`: the cell's text, escaped here unless it is `trusted` markup. */
static void html_cell(struct ss_buf *out, const struct ss_tab_col *col, const char *s, size_t n,
		      bool trusted, bool empty)
{
	if (empty) {
		ss_buf_adds(out, "<td></td>");
		return;
	}
	if (col->kind == SS_COL_ROWHEAD) {
		row_head(out, s, n, trusted);
		return;
	}
	if (col->kind == SS_COL_NAME)
		ss_buf_adds(out, "<td class=\"name\">");
	else if (col->kind == SS_COL_TEXT && col->left)
		ss_buf_adds(out, "<td class=\"l\">");
	else
		ss_buf_adds(out, "<td>");
	if (col->kind == SS_COL_CODE)
		ss_buf_adds(out, "<code>");
	if (trusted)
		ss_buf_add(out, s, n);
	else
		ss_buf_add_html(out, s, n);
	if (col->kind == SS_COL_CODE)
		ss_buf_adds(out, "</code>");
	ss_buf_adds(out, "</td>");
}

static void html_table(struct ss_buf *out, const struct ss_tab *t, const char *caption, bool head)
{
	size_t nrows = ss_tab_rows(t);
	struct ss_buf raw = SS_BUF_INIT;

	if (ss_tab_failed(out, t))
		return;
	ss_buf_adds(out, "<table>\n");
	if (caption) {
		ss_buf_adds(out, "<caption>");
		ss_buf_adds(out, caption);
		ss_buf_adds(out, "</caption>\n");
	}
	if (head) {
		ss_buf_adds(out, "<thead><tr>");
		for (size_t c = 0; c < t->ncols; c++)
			if (ss_tab_shown(&t->cols[c], SS_TAB_HTML))
				html_head(out, &t->cols[c]);
		ss_buf_adds(out, "</tr></thead>\n");
	}
	ss_buf_adds(out, "<tbody>\n");
	for (size_t r = 0; r < nrows; r++) {
		const char *cls = t->cells[r * t->ncols].row_class;

		if (cls) {
			ss_buf_adds(out, "<tr class=\"");
			ss_buf_adds(out, cls);
			ss_buf_adds(out, "\">");
		} else {
			ss_buf_adds(out, "<tr>");
		}
		for (size_t c = 0; c < t->ncols; c++) {
			size_t i = r * t->ncols + c;

			if (!ss_tab_shown(&t->cols[c], SS_TAB_HTML))
				continue;
			ss_buf_reset(&raw);
			ss_tab_raw_cell(&raw, t, i, SS_TAB_HTML);
			out->failed |= raw.failed;
			html_cell(out, &t->cols[c], raw.data ? raw.data : "", raw.len,
				  t->cells[i].type == C_MARKUP, t->cells[i].type == C_EMPTY);
		}
		ss_buf_adds(out, "</tr>\n");
	}
	ss_buf_adds(out, "</tbody>\n</table>\n");
	out->failed |= raw.failed;
	ss_buf_release(&raw);
}

void ss_tab_html(struct ss_buf *out, const struct ss_tab *t, const char *caption)
{
	html_table(out, t, caption, true);
}

void ss_tab_html_rows(struct ss_buf *out, const struct ss_tab *t, const char *caption)
{
	html_table(out, t, caption, false);
}
