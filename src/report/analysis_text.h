/*
 * analysis_text.h - the pieces of SPEC 7's text output shared by the
 * console section and the Markdown report (report-internal).
 *
 * Ownership: every function appends to the caller's buffer or grid and
 * keeps nothing.
 */
#ifndef SS_ANALYSIS_TEXT_H
#define SS_ANALYSIS_TEXT_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/grid.h"
#include "util/buf.h"

/* A user's level as the shortest text: 95, 99.5. */
void ss_report_add_level(struct ss_buf *b, double level);
/* The group table's columns and rows; its title; its legend line. */
void ss_report_groups_grid(struct ss_grid *g, const struct ss_agg *a,
			   const struct ss_analysis *an, bool utf8);
void ss_report_groups_title(struct ss_buf *b, const struct ss_analysis *an);
void ss_report_groups_legend(struct ss_buf *out, const struct ss_analysis *an,
			     const char *prefix);

#endif
