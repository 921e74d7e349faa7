/*
 * looks.h - what an input looks like from its first line, for the message
 * about an input of which no line is a request or a server line (SPEC 5,
 * "When nothing shows up"): a JSON document spread over lines (AIPerf's
 * aggregate profile_export_aiperf.json, inputs.json), JSON lines of no
 * known kind, a CSV file, a log
 * file (SPEC 12), text of no known kind, or a first line too long to look
 * at (SPEC 13: an input of only oversize lines falls under the rule).
 *
 * Pure; borrows the text for the call.
 */
#ifndef SS_LOOKS_H
#define SS_LOOKS_H

#include <stddef.h>

enum ss_look {
	SS_LOOK_TEXT = 0, SS_LOOK_JSON_DOC, SS_LOOK_JSON_LINES, SS_LOOK_CSV, SS_LOOK_LOG,
	SS_LOOK_OVERSIZE   /* its first line was longer than --max-record-size */
};

/* The look of an input whose first line is text[0..len). */
enum ss_look ss_look_of(const char *text, size_t len);

/* The words that name it in the message, and what to do instead. */
const char *ss_look_words(enum ss_look l);

#endif
