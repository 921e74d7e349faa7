/*
 * tabular.h - the one table model of the reports and its renderers
 * (report-internal). A table is data: columns (a head, a kind, an
 * alignment, the formats they appear in) and rows of typed cells. A
 * section builds it once and hands it to the renderer of each format: the
 * console's box table, a GitHub Markdown table, a CSV section, an HTML
 * table. A new column is one entry in the section's column list and shows
 * in every format that lists it; no section writes a cell's markup, a CSV
 * separator or a box rule itself.
 *
 * How a cell reads, after its column's kind:
 *   TEXT, NAME, CODE  the text, escaped for the destination (terminal,
 *                     Markdown, CSV quoting, HTML; report/escape.h): a
 *                     name from an input never reaches a page raw. In
 *                     HTML a NAME cell has class "name", a left TEXT
 *                     cell class "l", a CODE cell is in <code>.
 *   INT               an integer, plain digits everywhere (a rank, a line).
 *   COUNT             an integer, `,` separators except in CSV (plain
 *                     digits beyond 64 bits or below 0).
 *   FIX2              a number with two decimals, `,` separators except in
 *                     CSV (and in HTML when the column says `html_plain`).
 *   REAL              a number as it is, unrounded, in CSV and HTML (the
 *                     shortest text that reads back, as the JSON writes
 *                     it: 2.8181818181818183, 8.0); FIX2's text elsewhere.
 *   PCT               a share (0.8235) in percent: "82%" in the box and
 *                     Markdown, "82.35" in CSV and HTML (the head says %).
 *   TIMES             a ratio (a speedup): "1,234.50x" in the box and
 *                     Markdown, FIX2's text in CSV and HTML.
 * A missing PCT or TIMES value (ss_tab_na) reads "N/A" in the box and
 * Markdown, empty in CSV and HTML.
 *   ROWHEAD           a row's head (a label): on the page a
 *                     <th scope="row">, as TEXT elsewhere.
 * The formula guard of a NAME column's CSV cell (SPEC 7.3) is for text: a
 * number in it is written as the number.
 * A missing value (ss_tab_na) reads "N/A", empty in CSV; an empty cell
 * (ss_tab_empty) is empty everywhere, on the page a <td> without a class.
 *
 * Cells are added row by row, left to right, one for every column (those
 * of another format included). Widths in the box count UTF-8 characters of
 * the escaped text, not bytes. A failed allocation sets `failed`, passed
 * to the output by each renderer (util/buf.h).
 *
 * Ownership: the table owns its cells and their text until
 * ss_tab_release(); the column list is borrowed and must outlive it.
 */
#ifndef SS_TABULAR_H
#define SS_TABULAR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* The formats, as a mask of where a column appears. */
enum {
	SS_TAB_BOX = 1,
	SS_TAB_MD = 2,
	SS_TAB_CSV = 4,
	SS_TAB_HTML = 8,
	SS_TAB_TEXT = SS_TAB_BOX | SS_TAB_MD, /* the console and Markdown */
	SS_TAB_ALL = 15,
};

enum ss_tab_kind {
	SS_COL_TEXT, SS_COL_NAME, SS_COL_CODE, SS_COL_INT, SS_COL_COUNT, SS_COL_FIX2,
	SS_COL_REAL, SS_COL_PCT, SS_COL_TIMES, SS_COL_ROWHEAD
};

struct ss_tab_col {
	const char *head;      /* box and Markdown (escaped), CSV unless csv_head */
	enum ss_tab_kind kind;
	bool left;             /* left-aligned (else right) */
	unsigned in;           /* SS_TAB_* mask; 0 reads as SS_TAB_ALL */
	const char *csv_head;  /* NULL: head */
	const char *html_head; /* trusted markup (<br>); NULL: head, escaped */
	bool html_plain;       /* FIX2 without separators in HTML */
};

struct ss_tab_cell;

struct ss_tab {
	const struct ss_tab_col *cols; /* borrowed */
	size_t ncols;
	struct ss_tab_cell *cells;     /* row-major */
	size_t ncells, cap;
	struct ss_buf text;            /* the text cells' bytes */
	bool failed;
	const char *row_class;         /* the next row's class (ss_tab_row_class) */
	bool fixed;                    /* the box keeps its layout at any width (SPEC 4.3) */
	/* The box on a console narrower than the table (ss_tab_set_width),
	 * one per column (borrowed; NULL: all 0): 0 always shown; 1.. left
	 * out, the largest first (the rightmost on a tie), until it fits. */
	const unsigned char *priority;
};

void ss_tab_init(struct ss_tab *t, const struct ss_tab_col *cols, size_t ncols);
void ss_tab_release(struct ss_tab *t);
size_t ss_tab_rows(const struct ss_tab *t);

/* The next cell. */
void ss_tab_text(struct ss_tab *t, const char *s); /* NULL: empty */
void ss_tab_int(struct ss_tab *t, __int128 v);
void ss_tab_num(struct ss_tab *t, double v);
void ss_tab_na(struct ss_tab *t);
void ss_tab_empty(struct ss_tab *t);
/* A cell of trusted markup on the page (an entity, <code>, a name the
 * caller escaped with ss_buf_add_html), `text` in the other formats. */
void ss_tab_markup(struct ss_tab *t, const char *html, const char *text);
/* The class of the next row on the page (a static string), before its
 * first cell. */
void ss_tab_row_class(struct ss_tab *t, const char *cls);
/* A text cell composed with ss_buf_* calls on the returned buffer, then
 * ended. */
struct ss_buf *ss_tab_begin(struct ss_tab *t);
void ss_tab_end(struct ss_tab *t);

/*
 * The console's width in columns for the box (0, the default: no limit).
 * The command line sets it once, before any report is drawn, from the
 * terminal the table goes to (COLUMNS, else the terminal's width, else 80).
 */
void ss_tab_set_width(size_t cols);

/* The box table with `title` centred over it (nothing when no row): heavy
 * head and light body in UTF-8, `+ - |` otherwise; bold heads with
 * `color`. Heads, cells and title escaped for the terminal.
 *
 * A table wider than the console's width (and not `fixed`) is fitted to
 * it, its rows never wrapped by the terminal, as ls and ps do: when that
 * alone makes it fit, the left-aligned TEXT columns (prose) are narrowed,
 * the widest first, each cell wrapping at words onto more lines of its row
 * (no narrower than the column's head, its longest word or 12); else first the columns with a priority
 * are left out, the largest priority first; then the left-aligned columns
 * (the names, the group keys) are stacked: each row's go on a line of their
 * own above its other cells (`head: value`, a name too long for the line
 * cut in the middle with an ellipsis); then the rightmost columns are left
 * out, keeping one. A line under the table names the columns left out and
 * how to see them. */
void ss_tab_box(struct ss_buf *out, const struct ss_tab *t, const char *title, bool utf8,
		bool color);
/* Prose under a box (a legend): the words of `s` (n bytes, one
 * paragraph) after `indent`, wrapped at the console's width (none when it
 * is 0), ending with a newline. Not escaped: the caller's text. */
void ss_tab_wrap(struct ss_buf *out, const char *s, size_t n, const char *indent);
/* Whether ss_tab_fit_lines wraps prose (default false): the command line
 * says so when the width is a terminal's or COLUMNS', never for a pipe or
 * a file, whose lines scripts read whole. */
void ss_tab_set_prose(bool fit);
/* With ss_tab_set_prose(true), every line of `out` from byte `from` on
 * that is wider than the console's width (none when it is 0) and is not a
 * box's or its title's (a fixed box keeps its layout), wrapped at spaces:
 * its items (parts two spaces apart) kept whole when each fits, the lines
 * after the first indented two more. Nothing is cut. */
void ss_tab_fit_lines(struct ss_buf *out, size_t from);
/* The Markdown table (nothing when no row). */
void ss_tab_md(struct ss_buf *out, const struct ss_tab *t);
/* The CSV rows, CRLF; with `head`, first an empty line when `out` holds
 * anything, then the head row (also when there is no row). */
void ss_tab_csv(struct ss_buf *out, const struct ss_tab *t, bool head);
/* One CSV field, the only CSV quoting of the reports: quoted when it
 * holds a separator, a quote or a line end; with `name` (a name from an
 * input), a leading ' when a spreadsheet would run it as a formula
 * (SPEC 7.3, escape.h). */
void ss_tab_csv_field(struct ss_buf *out, const char *s, size_t n, bool name);
/* The HTML table, with `caption` (trusted text; NULL: none). */
void ss_tab_html(struct ss_buf *out, const struct ss_tab *t, const char *caption);
/* The same without the head row (a table of labelled figures). */
void ss_tab_html_rows(struct ss_buf *out, const struct ss_tab *t, const char *caption);

#endif
