/*
 * grid.h - a small table of text cells printed either as the console's box
 * table (the style of SPEC 4.3's Spec Decode table) or as a GitHub
 * Markdown table. Report-internal.
 *
 * Cells are added row by row, left to right; their text is copied as it
 * is (a name from an input included) and escaped when it is printed, for
 * the destination (report/escape.h): the box table escapes every head,
 * cell and its title for the terminal, the Markdown table every head and
 * cell for Markdown, so no table built on the grid can show a name raw.
 * Widths count UTF-8 characters of the escaped text, not bytes (Δ is one
 * column). A failed allocation sets `failed`, checked once by the caller
 * (it is passed to the output).
 *
 * Ownership: the grid owns its text and cell table until ss_grid_release();
 * column heads are borrowed and must outlive it.
 */
#ifndef SS_GRID_H
#define SS_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define SS_GRID_MAX_COLS 32

struct ss_grid {
	size_t ncols;
	const char *heads[SS_GRID_MAX_COLS]; /* borrowed */
	bool right[SS_GRID_MAX_COLS];        /* right-aligned column */
	struct ss_buf text;                  /* every cell's bytes, one after another */
	size_t *end;                         /* per cell, row-major: where its text ends */
	size_t ncells, cap;
	bool failed;
};

void ss_grid_init(struct ss_grid *g);
void ss_grid_release(struct ss_grid *g);
/* Add a column (before any cell); `head` must outlive the grid. */
void ss_grid_col(struct ss_grid *g, const char *head, bool right);
/* Start a cell: append its text to g->text with ss_buf_* calls, then end it. */
void ss_grid_begin(struct ss_grid *g);
void ss_grid_end(struct ss_grid *g);

/* The box table with `title` centred over it (nothing when no row); heads,
 * cells and title escaped for the terminal. */
void ss_grid_box(struct ss_buf *out, const struct ss_grid *g, const char *title, bool utf8,
		 bool color);
/* The Markdown table (nothing when no row); heads and cells escaped for
 * Markdown. */
void ss_grid_markdown(struct ss_buf *out, const struct ss_grid *g);

#endif
