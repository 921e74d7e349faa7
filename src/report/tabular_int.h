/*
 * tabular_int.h - what tabular.c and tabular_fmt.c share: a table's cells
 * and a cell's text for a format.
 */
#ifndef SS_REPORT_TABULAR_INT_H
#define SS_REPORT_TABULAR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/tabular.h"
#include "util/buf.h"

enum cell_type { C_EMPTY, C_NA, C_TEXT, C_INT, C_NUM, C_MARKUP };

struct ss_tab_cell {
	enum cell_type type;
	__int128 i;
	double d;
	size_t off, len; /* C_TEXT, C_MARKUP: its text's bytes in t->text */
	size_t hoff, hlen; /* C_MARKUP: its markup's bytes in t->text */
	const char *row_class; /* a row's first cell: the row's class */
};

/* The column is shown in format `fmt` (SS_TAB_*). */
bool ss_tab_shown(const struct ss_tab_col *c, unsigned fmt);
/* Marks `out` failed when the table is; true: `out` has failed. */
bool ss_tab_failed(struct ss_buf *out, const struct ss_tab *t);
/* Cell i's text for `fmt`, before the destination's escaping. */
void ss_tab_raw_cell(struct ss_buf *b, const struct ss_tab *t, size_t i, unsigned fmt);

#endif
