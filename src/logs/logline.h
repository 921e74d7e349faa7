/*
 * logline.h - one line of a server log (SPEC 12.1): cleaning, the anchors
 * that say which format a line is, the prefix's optional metadata, and the
 * printed-number helpers every format shares.
 *
 * A log line is recognised by the first anchor in it, never by its prefix
 * (docker, kubectl, compose, journald and the engines' own prefixes vary);
 * the text before the anchor is read only for a time and a process name.
 * Pure functions of the text; nothing is allocated.
 */
#ifndef SS_LOGS_LOGLINE_H
#define SS_LOGS_LOGLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which format's anchor a line holds. */
enum ss_log_format {
	SS_LOG_NONE = 0,
	SS_LOG_VLLM,     /* "SpecDecoding metrics: " or "Speculative metrics: " */
	SS_LOG_SGLANG,   /* "Decode batch" */
	SS_LOG_LLAMACPP, /* "draft acceptance" */
	SS_LOG_LLAMASLOT /* "slot print_timing: id": detects, is not counted */
};

/* What one line's tail came to. */
enum ss_log_status {
	SS_LOG_OK = 0,
	SS_LOG_BAD,     /* the tail does not parse: counted and named */
	SS_LOG_REFUSED, /* parses, but is not used (vLLM V0): counted, a note */
	SS_LOG_SKIPPED  /* parses, carries nothing (SGLang without accept len) */
};

/* The longest number a tail may print: 18 digits before the point. */
#define SS_LOG_MAX_DIGITS 18
/* The longest position list kept (longer is a bad line). */
#define SS_LOG_MAX_POS 256

struct ss_log_anchor {
	enum ss_log_format fmt;
	size_t at;   /* where the anchor starts (the prefix is [0, at)) */
	size_t tail; /* where the tail starts (just after the anchor) */
};

/*
 * Clean a raw line into out (room for n bytes): one trailing CR dropped,
 * every ANSI CSI sequence (ESC '[' digits and ';' then a letter) removed.
 * An ESC that does not start one is kept. Returns the cleaned length.
 * out may equal line.
 */
size_t ss_log_clean(const char *line, size_t n, char *out);

/* The first anchor of any format in s; false when there is none. */
bool ss_log_find_anchor(const char *s, size_t n, struct ss_log_anchor *a);

/* The optional metadata of a prefix; a span is empty when absent. */
struct ss_log_prefix {
	const char *time; /* RFC 3339 with a 'T' and a zone */
	size_t time_len;
	const char *proc; /* vLLM's "(NAME pid=N) ": NAME */
	size_t proc_len;
	char tags[64];    /* SGLang's tag set, sorted ("EP0 TP0"); "" when none */
};

void ss_log_prefix_parse(const char *s, size_t n, struct ss_log_prefix *p);

/*
 * The printed-number reader every tail uses. Each returns the bytes it
 * read from p (before end), 0 when p does not start with that shape:
 *  - ss_log_int: 1 to 18 digits into *v (19 or more: 0 and *toolong);
 *  - ss_log_fixed: digits, '.', exactly `decimals` digits (18 before the
 *    point at most, *toolong otherwise).
 */
size_t ss_log_int(const char *p, const char *end, uint64_t *v, bool *toolong);
size_t ss_log_fixed(const char *p, const char *end, int decimals, bool *toolong);

/*
 * Whether `%.{decimals}f` of v prints exactly the n bytes at txt (the
 * engine's own rounding of the binary value, which C's printf shares with
 * Python's format): how a derived value is checked against a rounded
 * printed one, never with a tolerance.
 */
bool ss_log_prints_as(double v, int decimals, const char *txt, size_t n);

/* Whether [p, end) starts with the literal lit; advances *pp past it. */
bool ss_log_eat(const char **pp, const char *end, const char *lit);

/* SGLang's batch-size bucket 2^floor(log2 r) (0 for 0). */
uint64_t ss_log_bucket(uint64_t r);

#endif
