/*
 * postable.h - the tables of SPEC 7.1 and 7.9 (report-internal): built by
 * sec_positions.c for the console, Markdown and CSV and by
 * sec_positions_page.c for the page, through the table model
 * (report/tabular.h), so a column is one edit for every format.
 *
 * Each *_rows call appends up to `max` rows (the page shows at most 64 of a
 * draft length); the caller releases the table.
 */
#ifndef SS_POSTABLE_H
#define SS_POSTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/positions.h"
#include "report/tabular.h"
#include "server/server.h"

/* Acceptance by position: k (CSV and the page only), Position, Accepted,
 * Rate, Conditional (shares in percent). */
void ss_postab_pos_init(struct ss_tab *t);
void ss_postab_pos_rows(struct ss_tab *t, const struct ss_pos_result *p, uint32_t max);

/* The shorter drafts: k (CSV and the page only), Draft length, Acceptance
 * Length, Draft Acceptance Rate, Speedup. `cols` (SS_POSTAB_WHATIF_NCOLS,
 * the caller's, outliving the table) holds the columns, the Speedup shown
 * in every format with `speedup`, else in CSV alone. A row's speedup is
 * written with `cost`, else empty; the suggested k' row is bold on the
 * page. */
#define SS_POSTAB_WHATIF_NCOLS 5
void ss_postab_whatif_init(struct ss_tab *t, struct ss_tab_col *cols, bool speedup);
void ss_postab_whatif_rows(struct ss_tab *t, const struct ss_pos_result *p, uint32_t max,
			   bool cost);

/* The next row's class when draft length j + 1 is p's suggested k'. */
void ss_postab_suggested(struct ss_tab *t, const struct ss_pos_result *p, uint32_t j);

/* SPEC 7.9 (the table initialised here): Position, Drafted, Accepted,
 * Rate, Conditional. */
void ss_postab_drafted(struct ss_tab *t, const struct ss_drafted_result *d, size_t max);
/* The same rows of a server family (SPEC 10.4): Position, Accepted,
 * Drafted, Rate, Conditional. */
void ss_postab_server(struct ss_tab *t, const struct ss_server_family *f, size_t max);

#endif
