/*
 * grid.h - a table of text cells built column by column and cell by cell,
 * drawn by the table model's renderers (report/tabular.h) as the
 * console's box table or a GitHub Markdown table. Report-internal: the
 * builder of the tables whose sections are not yet on one axis (a section
 * file builds a struct ss_tab with typed cells instead).
 *
 * Cells are added row by row, left to right; their text is copied as it
 * is (a name from an input included) and escaped when it is drawn, for
 * the destination (tabular.h). A failed allocation sets `failed`, checked
 * once by the caller (it is passed to the output).
 *
 * Ownership: the grid owns its text and cells until ss_grid_release();
 * column heads are borrowed and must outlive it.
 */
#ifndef SS_GRID_H
#define SS_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "report/tabular.h"
#include "util/buf.h"

#define SS_GRID_MAX_COLS 32

struct ss_grid {
	struct ss_tab tab;
	struct ss_tab_col cols[SS_GRID_MAX_COLS];
	unsigned char priority[SS_GRID_MAX_COLS]; /* the box's (tabular.h) */
	struct ss_buf text; /* the open cell's text: append with ss_buf_* */
	bool failed;
};

void ss_grid_init(struct ss_grid *g);
void ss_grid_release(struct ss_grid *g);
/* Add a column (before any cell); `head` must outlive the grid. */
void ss_grid_col(struct ss_grid *g, const char *head, bool right);
/* The priority of the column added last (tabular.h: 0 always shown in
 * the box; 1.. left out on a narrow console, the largest first). */
void ss_grid_priority(struct ss_grid *g, unsigned char priority);
/* Start a cell: append its text to g->text with ss_buf_* calls, then end it. */
void ss_grid_begin(struct ss_grid *g);
void ss_grid_end(struct ss_grid *g);

/* The box table with `title` centred over it (nothing when no row). */
void ss_grid_box(struct ss_buf *out, const struct ss_grid *g, const char *title, bool utf8,
		 bool color);
/* The Markdown table (nothing when no row). */
void ss_grid_markdown(struct ss_buf *out, const struct ss_grid *g);

#endif
