/*
 * grammar.h - SPEC 10.1's exposition grammar, piece by piece, for the
 * reader (server/expo.h): a sample line's series text (name and labels,
 * with `\\`, `\"`, `\n` escapes and UTF-8 checked), its value and
 * timestamp, and the time of a `# time: T` line. Functions of the bytes
 * they are given; the only state is struct ss_expo_labels, which the
 * caller owns (ss_expo_labels_init/_release).
 */
#ifndef SS_SERVER_GRAMMAR_H
#define SS_SERVER_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/server.h"
#include "util/buf.h"

/* A kept series' labels: names point into the line, values into `unesc`. */
struct ss_expo_labels {
	struct ss_server_label labels[SS_SERVER_MAX_LABELS];
	size_t val_off[SS_SERVER_MAX_LABELS];
	size_t n;
	bool too_many;      /* more than SS_SERVER_MAX_LABELS labels */
	struct ss_buf unesc;
};

/* The character classes, built once (any thread). */
void ss_expo_grammar_init(void);

/* The length of the metric name at p (the first byte is taken as its first). */
size_t ss_expo_name_len(const char *p, size_t len);

/*
 * NAME[{LABELS}] at the start of the line p[0..len): its length, or 0
 * with *why (the reason of a bad line). SPEC 13's rulings: blanks may
 * stand around `{`, `}`, `,` and `=`; `\\`, `\"` and `\n` are the only
 * escapes (another makes the line bad); a label name given twice makes
 * the line bad. With `keep` (a family's name) the labels go to l, their
 * values unescaped; ss_expo_labels_fix() then sets the value pointers.
 */
size_t ss_expo_series(struct ss_expo_labels *l, const char *p, size_t len, bool keep,
		      const char **why);
void ss_expo_labels_fix(struct ss_expo_labels *l);

/*
 * A series' canonical text, for telling apart series that no family keeps
 * (SPEC 10.1: a snapshot ends before a sample whose series, the name and
 * the label set, already appeared in it; SPEC 13: `x_total` and `x` are
 * one series). Made from a series text that ss_expo_series() accepted:
 * the name without one `_total`, then, when there are labels, `{`, the
 * labels sorted by name as `name="value"` with their escapes as written
 * (one-to-one with the values they stand for), separated by `,`, and `}`.
 * So label order, blanks, a trailing comma, `{}` and `_total` make no
 * difference. The caller owns the struct (ss_expo_key_init/_release).
 */
struct ss_expo_span {
	const char *name, *value; /* value: as written, without its quotes */
	size_t name_len, value_len;
};

struct ss_expo_key {
	struct ss_expo_span *span;
	size_t cap;
	struct ss_buf text;
};

void ss_expo_key_init(struct ss_expo_key *k);
void ss_expo_key_release(struct ss_expo_key *k);
/* The canonical text of the series text p[0..slen) into k->text; false when out of memory. */
bool ss_expo_key_build(struct ss_expo_key *k, const char *p, size_t slen);

/*
 * After the series text [q, end): blanks, VALUE, then optionally blanks
 * and an integer millisecond TIMESTAMP, to the end (trailing blanks cut
 * by the caller). *end must be readable and be the line's terminator (a
 * line end, a NUL, a CR or a cut blank): the scans stop on it. NULL, or
 * the reason of a bad line.
 */
const char *ss_expo_value(const char *q, const char *end, const char **v, size_t *vlen,
			  bool *has_ts, int64_t *ts);

/*
 * The times that are read: a sample's timestamp of at most this many ms
 * either side of 1970, a `# time:` of at most INT64_MAX ns (the seconds
 * below, and a fraction up to .854775807 on the last one). Later ones do
 * not fit a time in nanoseconds and make a bad line (docs/BEHAVIOUR.md).
 */
#define SS_EXPO_MAX_TS_MS INT64_C(9223372036854)
#define SS_EXPO_MAX_TIME_S INT64_C(9223372036)

/* T of `# time: T`: Unix seconds, digits and an optional fraction, in ns (digits past the ninth dropped). */
bool ss_expo_time(const char *p, size_t len, int64_t *ns);

#endif
