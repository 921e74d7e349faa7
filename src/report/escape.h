/*
 * escape.h - how a text that may come from an input (an input or archive
 * member name, a model, a metadata value, a group key, a reason, a key
 * name typed on the command line) reaches each destination of the
 * reports. One function per destination, and every writer of that
 * destination uses it:
 *
 *   terminal  ss_buf_add_term() (util/termesc.h): messages, the console
 *             tables (tabular.h escapes every cell and title it draws),
 *             `-f table`, `--table`, --list-inputs on a terminal;
 *   Markdown  ss_buf_add_md() (here): `-f markdown` (tabular.h's Markdown
 *             tables escape every cell, the headings use it too);
 *   HTML      ss_buf_add_html() (htmlesc.h): every text of the page and
 *             its charts;
 *   JSON      the string writer of jsonw.h (ss_buf_add_json_string(),
 *             ss_jsonw_*): JSON's own escapes, invalid UTF-8 as \ufffd.
 *
 * Markdown: the name is shown as text, as the console shows it, never
 * rendered: `<`, `>` and `&` become entities (GitHub renders inline HTML,
 * in tables too); the characters that start or end markup in
 * GitHub-flavoured Markdown (\ ` * _ [ ] | ~ $) get a backslash, so a
 * name cannot end a table cell, open emphasis, code, a link or an image,
 * strike through or start math; CR and LF become spaces (a table row is
 * one line); every other byte the terminal escaping escapes is written as
 * it writes it (\033, \a, \302\233), its backslash escaped in turn so
 * that it shows. What GitHub links on its own in the rendered text (a
 * bare URL, an @mention, #123) still reads as the name.
 *
 * Ownership: the functions append to a buffer the caller owns and keep
 * nothing; an allocation failure shows in its `failed` flag (util/buf.h).
 */
#ifndef SS_ESCAPE_H
#define SS_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/htmlesc.h"
#include "util/buf.h"
#include "util/termesc.h"

/* s[0..n), escaped for Markdown. */
void ss_buf_add_md(struct ss_buf *b, const char *s, size_t n);

/* CSV (SPEC 7.3): whether a name from an input, s[0..n), begins as a
 * spreadsheet formula would (=, +, -, @, a tab or a CR); such a name is
 * written with a leading ' so that a spreadsheet shows it as text. */
bool ss_csv_is_formula(const char *s, size_t n);

#endif
