/*
 * grid.c - the cell-by-cell builder of grid.h over the table model.
 */
#include "report/grid.h"

#include <string.h>

void ss_grid_init(struct ss_grid *g)
{
	memset(g, 0, sizeof(*g));
	ss_tab_init(&g->tab, g->cols, 0);
	g->tab.priority = g->priority;
	ss_buf_init(&g->text);
}

void ss_grid_release(struct ss_grid *g)
{
	ss_tab_release(&g->tab);
	ss_buf_release(&g->text);
	memset(g, 0, sizeof(*g));
}

void ss_grid_col(struct ss_grid *g, const char *head, bool right)
{
	if (g->tab.ncols == SS_GRID_MAX_COLS || g->tab.ncells) {
		g->failed = true;
		return;
	}
	g->cols[g->tab.ncols++] = (struct ss_tab_col){head, SS_COL_TEXT, !right, SS_TAB_TEXT,
						      NULL, NULL, false};
}

void ss_grid_priority(struct ss_grid *g, unsigned char priority)
{
	if (g->tab.ncols)
		g->priority[g->tab.ncols - 1] = priority;
}

void ss_grid_begin(struct ss_grid *g)
{
	ss_buf_reset(&g->text);
}

void ss_grid_end(struct ss_grid *g)
{
	struct ss_buf *b = ss_tab_begin(&g->tab);

	g->failed |= g->text.failed;
	ss_buf_add(b, g->text.data ? g->text.data : "", g->text.len);
	ss_tab_end(&g->tab);
}

static bool grid_failed(struct ss_buf *out, const struct ss_grid *g)
{
	if (g->failed || g->text.failed)
		out->failed = true;
	return out->failed;
}

void ss_grid_box(struct ss_buf *out, const struct ss_grid *g, const char *title, bool utf8,
		 bool color)
{
	if (!grid_failed(out, g))
		ss_tab_box(out, &g->tab, title, utf8, color);
}

void ss_grid_markdown(struct ss_buf *out, const struct ss_grid *g)
{
	if (!grid_failed(out, g))
		ss_tab_md(out, &g->tab);
}
