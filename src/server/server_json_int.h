/*
 * server_json_int.h - private to the JSON shapes of the server stage: the
 * base layer of server_json*.c (server_json_util.c), below the three
 * shapes (server_json_shapes.h) and server_json.c, which call it and
 * which it never calls. It holds the state of one line or document being
 * fed and the helpers the shapes share (a label set read from a JSON
 * object, a bad part told, a text opened with an array root allowed, a
 * family's name matched, a sample's value checked and emitted).
 *
 * Everything here lives for one call of ss_server_json_line() or
 * ss_server_json_document(): labels point into the open document (its
 * text or the parser's decoded strings); sj_feed_release() frees the
 * feed's own parser, or closes the caller's.
 */
#ifndef SS_SERVER_JSON_INT_H
#define SS_SERVER_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "server/families.h"
#include "server/server.h"
#include "util/buf.h"
#include "util/text.h"

/* A label set as an object of strings gave it; the last of a repeated name counts. */
struct sj_labels {
	struct ss_server_label l[SS_SERVER_MAX_LABELS];
	size_t n;
	const char *bad; /* why the set is not one (a static text), or NULL */
};

/* One call's state. */
struct sj_feed {
	struct ss_server *s;
	struct ssj_parser *p;
	bool own;            /* p made for this call (else the caller's) */
	const char *place;
	uint64_t line;
	uint64_t snapshots;  /* snapshots and increments given */
	bool nomem;
};

/*
 * A fresh feed on the caller's parser p, or on one of its own when p is
 * NULL; false when out of memory (nothing to release then).
 */
bool sj_feed_init(struct sj_feed *f, struct ss_server *s, struct ssj_parser *p,
		  const char *place, uint64_t line);
void sj_feed_release(struct sj_feed *f);

/* Whether the text's first byte after JSON white space is '[' (an array root). */
bool sj_array_text(const char *text, size_t len);
/*
 * Open text[0..len) (SSJ_PADDING readable after it) on parser p, in
 * place: an array root with ssj_open_array() (*array set), any other
 * with ssj_open(). The status of the open.
 */
enum ssj_status sj_open(struct ssj_parser *p, const char *text, size_t len, bool *array);

/* The labels of an object value into *l (reset first); a bad set says why in l->bad. */
void sj_labels_read(struct sj_labels *l, struct ssj_value *v);
/* Put one label, the last of a name counting; false when the set is full. */
bool sj_labels_put(struct sj_labels *l, const char *name, size_t nlen, const char *value,
		   size_t vlen);

/*
 * A bad part at the feed's place and line: `what` names it (NAME, when
 * not NULL, is a table name of 10.2, shown after it), reason says why.
 */
void sj_bad(struct sj_feed *f, const char *what, const char *name, const char *reason);

/*
 * Whether a sample name is one of a family of src (one trailing `_total`
 * taken off, `_created` left out), with its match.
 */
bool sj_family_name(enum ss_server_source src, const char *name, size_t len,
		    struct ss_family_match *m);

/* Unix seconds as JSON writes them (a number text) in nanoseconds; false when out of range. */
bool sj_seconds_ns(const char *p, size_t n, int64_t *ns);

#define SJ_NAMES 64

struct sj_names {
	enum ss_server_source src;
	struct {
		const char *k;
		size_t n;
		uint32_t last;
	} v[SJ_NAMES];
	size_t n;
	uint32_t ord;
};

/* A value as a series object had it (the last `value` counts). */
struct sj_value {
	bool has;
	enum ssj_type t;
	const char *p;
	size_t n;
};

/* A first pass over an object of families: the ordinal of each name's last field. */
int sj_names_pass(void *ctx, const char *key, size_t n, struct ssj_value *v);
/* Whether the family field at ordinal ord (1-based) is its name's last. */
bool sj_names_is_last(const struct sj_names *nm, const char *key, size_t n, uint32_t ord);
/* The table's name of a match (static: safe in messages). */
const char *sj_match_name(const struct ss_family_match *m);
/* Take a value (the last of a repeated key overwrites). */
void sj_value_take(struct sj_value *vs, struct ssj_value *v);
/* Why a value is no counter's or gauge's number (NULL: it is one); *skip: a gauge with none. */
const char *sj_value_problem(const struct sj_value *vs, const struct ss_family_match *m,
			     bool *skip);
/* Tell what a sample's status means (a bad sample, a repeat, out of memory). */
void sj_sample_status(struct sj_feed *f, const struct ss_family_match *m, enum ss_server_status st,
		      const char *reason);
/* One sample of the open snapshot, its labels and value checked first. */
void sj_emit(struct sj_feed *f, const char *name, size_t nlen, const struct ss_family_match *m,
	     const struct sj_labels *lab, const struct sj_value *vs);
/* An integer's text (optional minus, digits): false when not one or out of int64's range. */
bool sj_int_text(const char *p, size_t n, int64_t *out);

#endif
