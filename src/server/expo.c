/*
 * expo.c - the exposition-text reader (SPEC 10.1; contract in expo.h).
 *
 * Two ways through a sample line give the same answer: the full parse
 * (name, labels with their escapes and UTF-8, value, timestamp) and the
 * template, the series texts of a page read before: when the line starts
 * with the template's next series text and a blank, only the value and
 * timestamp are left to read. The template also decides repeats cheaply:
 * while every sample line of a snapshot is the template's next one, they
 * are distinct series (a template is one snapshot's lines), and a line
 * equal to the template's first is the next page. Off that path, series
 * of kept families are told apart by their canonical key (the server's
 * table) and the others by a 64-bit fingerprint of their text.
 */
#include "server/expo.h"

#include <string.h>

#include "server/keymap.h"
#include "server/number.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/grow.h"

/* A template holds at most this much of a page (more is parsed in full). */
#define TMPL_MAX_LINES 65536
#define TMPL_MAX_TEXT (8u << 20)
/* Series of other families told apart in one snapshot (more are not checked for repeats). */
#define SEEN_MAX (1u << 20)

struct tmpl_ent {
	uint32_t off, len; /* the series text in the template's text */
	uint64_t fp;       /* its fingerprint */
	uint32_t handle;   /* the kept series, or SS_SERVER_NO_HANDLE */
};

struct tmpl {
	char *text;
	size_t len, cap;
	struct tmpl_ent *e;
	size_t n, cap_e;
	bool full;
};

struct ss_scrape {
	struct ss_server *srv;
	uint32_t endpoint;
	char *name;
	size_t max_line;
	bool no_template;
	struct ss_scrape_stats st;
	/* the line read across pieces */
	struct ss_buf carry;
	bool overlong;
	/* the open snapshot */
	bool in_snap;
	bool has_time;      /* from `# time:` before its first sample */
	int64_t time_ns;
	bool has_ts;
	int64_t max_ts_ms;
	size_t ord;         /* its sample lines so far */
	bool fast;          /* each was the template's entry of its number */
	size_t unmatched;   /* sample lines not found in the template */
	size_t j;           /* where the next line is looked for in the template */
	/* fingerprints of other families' series in the open snapshot */
	uint64_t *seen;
	size_t seen_slots, seen_n;
	bool seen_full;
	/* the template, and the one being learned from the open snapshot */
	struct tmpl T, L;
	uint64_t tmpl_gen;  /* how many times T was replaced */
	bool learning;
	/* a kept series' labels, values unescaped into `unesc` */
	struct ss_label labels[SS_SERVER_MAX_LABELS];
	size_t val_off[SS_SERVER_MAX_LABELS];
	size_t nlabels;
	bool too_many_labels;
	struct ss_buf unesc;
};

/* Character classes of names (SPEC 10.1: [a-zA-Z_:][a-zA-Z0-9_:]*). */
enum { C_NAME0 = 1, C_NAME = 2, C_LABEL0 = 4, C_LABEL = 8 };

static unsigned char cls[256];

static void classes_init(void)
{
	for (int c = 0; c < 256; c++) {
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		bool digit = c >= '0' && c <= '9';

		cls[c] = (unsigned char)((alpha || c == ':' ? C_NAME0 : 0) |
					 (alpha || digit || c == ':' ? C_NAME : 0) |
					 (alpha ? C_LABEL0 : 0) | (alpha || digit ? C_LABEL : 0));
	}
}

static void tmpl_release(struct tmpl *t)
{
	ss_free(t->text);
	ss_free(t->e);
	memset(t, 0, sizeof(*t));
}

struct ss_scrape *ss_scrape_new(struct ss_server *srv, uint32_t endpoint, const char *name,
				const struct ss_scrape_opts *opts)
{
	struct ss_scrape *sc = ss_calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	if (!cls['a'])
		classes_init(); /* the same bytes from any thread: a benign race */
	sc->srv = srv;
	sc->endpoint = endpoint;
	sc->name = ss_strdup(name ? name : "<stdin>");
	sc->max_line = opts && opts->max_line ? opts->max_line : SS_SCRAPE_MAX_LINE;
	sc->no_template = opts && opts->no_template;
	sc->fast = true;
	sc->learning = !sc->no_template;
	ss_buf_init(&sc->carry);
	ss_buf_init(&sc->unesc);
	if (!sc->name) {
		ss_scrape_free(sc);
		return NULL;
	}
	return sc;
}

void ss_scrape_free(struct ss_scrape *sc)
{
	if (!sc)
		return;
	tmpl_release(&sc->T);
	tmpl_release(&sc->L);
	ss_free(sc->seen);
	ss_buf_release(&sc->carry);
	ss_buf_release(&sc->unesc);
	ss_free(sc->name);
	ss_free(sc);
}

void ss_scrape_get_stats(const struct ss_scrape *sc, struct ss_scrape_stats *st)
{
	*st = sc->st;
}

static void bad(struct ss_scrape *sc, const char *what, const char *reason)
{
	sc->st.bad_lines++;
	ss_server_bad(sc->srv, sc->name, sc->st.lines, what, reason);
}

/* ---- the seen set: fingerprints of the open snapshot's other series ---- */

static void seen_clear(struct ss_scrape *sc)
{
	/* A table that grew for one huge page shrinks back for the next ones. */
	if (sc->seen_slots > 4096 && 8 * sc->seen_n < sc->seen_slots) {
		ss_free(sc->seen);
		sc->seen = NULL;
		sc->seen_slots = 0;
	} else if (sc->seen_n) {
		memset(sc->seen, 0, sc->seen_slots * sizeof(*sc->seen));
	}
	sc->seen_n = 0;
	sc->seen_full = false;
}

static bool seen_grow(struct ss_scrape *sc)
{
	size_t slots = sc->seen_slots ? 2 * sc->seen_slots : 1024;
	uint64_t *t = ss_calloc(slots, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < sc->seen_slots; i++) {
		size_t k;

		if (!sc->seen[i])
			continue;
		for (k = sc->seen[i] & (slots - 1); t[k]; k = (k + 1) & (slots - 1))
			;
		t[k] = sc->seen[i];
	}
	ss_free(sc->seen);
	sc->seen = t;
	sc->seen_slots = slots;
	return true;
}

/* Put fp in; *was tells whether it was there. false when out of memory. */
static bool seen_put(struct ss_scrape *sc, uint64_t fp, bool *was)
{
	size_t k;

	*was = false;
	if (2 * (sc->seen_n + 1) > sc->seen_slots) {
		if (sc->seen_n >= SEEN_MAX) {
			sc->seen_full = true;
			return true;
		}
		if (!seen_grow(sc))
			return false;
	}
	for (k = fp & (sc->seen_slots - 1); sc->seen[k]; k = (k + 1) & (sc->seen_slots - 1)) {
		if (sc->seen[k] == fp) {
			*was = true;
			return true;
		}
	}
	sc->seen[k] = fp;
	sc->seen_n++;
	return true;
}

/* ---- the template ---- */

static bool tmpl_add(struct tmpl *t, const char *text, size_t len, uint64_t fp, uint32_t handle)
{
	if (t->full)
		return true;
	if (t->n >= TMPL_MAX_LINES || t->len + len > TMPL_MAX_TEXT) {
		t->full = true;
		return true;
	}
	if (!SS_ALLOC_GROW(t->e, t->n + 1, t->cap_e) ||
	    !SS_ALLOC_GROW(t->text, t->len + len, t->cap))
		return false;
	memcpy(t->text + t->len, text, len);
	t->e[t->n++] = (struct tmpl_ent){(uint32_t)t->len, (uint32_t)len, fp, handle};
	t->len += len;
	return true;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Whether the line [p, p+len) starts with entry i's series text and a blank. */
static inline bool tmpl_match(const struct tmpl *t, size_t i, const char *p, size_t len)
{
	const struct tmpl_ent *e;

	if (i >= t->n)
		return false;
	e = &t->e[i];
	return e->len < len && is_blank(p[e->len]) && memcmp(p, t->text + e->off, e->len) == 0;
}

/* ---- snapshots ---- */

static bool begin_snap(struct ss_scrape *sc)
{
	if (!ss_server_begin(sc->srv, sc->endpoint, SS_SRC_PROMETHEUS, 0))
		return false;
	sc->in_snap = true;
	sc->L.n = sc->L.len = 0;
	sc->L.full = false;
	return true;
}

/*
 * Close the open snapshot (if any). Its time: its `# time:`, else its
 * largest timestamp, else unknown. The template it learned, if any, is
 * the next one; the next snapshot learns again when this one found too
 * few of its lines in the template.
 */
static void end_snap(struct ss_scrape *sc)
{
	if (sc->in_snap) {
		bool has = sc->has_time || sc->has_ts;
		int64_t t = sc->has_time ? sc->time_ns : sc->max_ts_ms * 1000000;

		ss_server_end(sc->srv, has, t);
		sc->st.snapshots++;
		bool adopt = sc->learning && !sc->seen_full && sc->L.n;

		if (adopt) {
			struct tmpl x = sc->T;

			sc->T = sc->L;
			sc->L = x;
			sc->tmpl_gen++;
		}
		/* This snapshot is the template now, or it found enough of its lines in it. */
		sc->learning = !sc->no_template && !adopt &&
			       (sc->T.n == 0 || 8 * sc->unmatched > sc->ord);
	}
	sc->in_snap = false;
	sc->has_time = sc->has_ts = false;
	sc->ord = sc->unmatched = sc->j = 0;
	sc->fast = true;
	if (sc->seen_n || sc->seen_full)
		seen_clear(sc);
}

/* ---- comments: # EOF, # time: T, everything else ---- */

static bool is_lit(const char *p, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && memcmp(p, lit, n) == 0;
}

/* T of `# time: T`: Unix seconds, digits with an optional fraction, to ns (the 10th digit on dropped). */
static bool parse_time(const char *p, size_t len, int64_t *ns)
{
	const char *q = p, *end = p + len;
	int64_t sec = 0, frac = 0;
	int fd = 0;

	if (q == end || *q < '0' || *q > '9')
		return false;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (sec > (INT64_MAX / 1000000000 - 9) / 10)
			return false;
		sec = sec * 10 + (*q - '0');
	}
	if (q < end && *q == '.') {
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			if (fd < 9) {
				frac = frac * 10 + (*q - '0');
				fd++;
			}
	}
	if (q != end)
		return false;
	for (; fd < 9; fd++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return true;
}

static void comment(struct ss_scrape *sc, const char *p, size_t len, bool terminated)
{
	if (len == 5 && memcmp(p, "# EOF", 5) == 0) {
		end_snap(sc);
		return;
	}
	if (is_lit(p, len, "# time:")) {
		const char *q = p + 7, *end = p + len;
		int64_t ns;

		while (q < end && is_blank(*q))
			q++;
		if (!terminated) {
			bad(sc, "bad line", "a `# time:` line without its line end (cut short?)");
			return;
		}
		if (!parse_time(q, (size_t)(end - q), &ns)) {
			bad(sc, "bad line", "`# time:` is not followed by Unix seconds");
			return;
		}
		/* After a sample it starts the next snapshot; before any, the latest wins. */
		if (sc->in_snap)
			end_snap(sc);
		sc->has_time = true;
		sc->time_ns = ns;
	}
	/* # HELP, # TYPE and other comments say nothing the window needs. */
}

/* ---- sample lines ---- */

/* The length of the valid UTF-8 sequence at p (before end), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c < 0xC2 || c > 0xF4)
		return 0;
	len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if ((size_t)(end - p) < len)
		return 0;
	cp = c & (0x7F >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/*
 * One label value from just after its opening quote: the bytes to the
 * closing quote, escapes read (`\\`, `\"`, `\n`; another escape is kept
 * as written, as Prometheus' and the Python client's readers keep it).
 * When `keep`, the unescaped value is appended to sc->unesc. Returns the
 * position after the closing quote, or NULL with *why.
 */
static const char *label_value(struct ss_scrape *sc, const char *q, const char *end, bool keep,
			       const char **why)
{
	while (q < end) {
		const char *run = q;

		while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q < 0x80)
			q++;
		if (keep)
			ss_buf_add(&sc->unesc, run, (size_t)(q - run));
		if (q == end)
			break;
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			char e;

			if (q + 1 == end)
				break;
			e = q[1];
			if (keep) {
				if (e == 'n')
					ss_buf_addc(&sc->unesc, '\n');
				else if (e == '\\' || e == '"')
					ss_buf_addc(&sc->unesc, e);
				else
					ss_buf_add(&sc->unesc, q, 2);
			}
			if ((unsigned char)e >= 0x80) {
				/* the escaped byte starts a UTF-8 sequence: check it too */
				size_t n = utf8_len((const unsigned char *)q + 1, (const unsigned char *)end);

				if (!n) {
					*why = "a label value that is not UTF-8";
					return NULL;
				}
				if (keep)
					ss_buf_add(&sc->unesc, q + 2, n - 1);
				q += 1 + n;
			} else {
				q += 2;
			}
			continue;
		}
		{
			size_t n = utf8_len((const unsigned char *)q, (const unsigned char *)end);

			if (!n) {
				*why = "a label value that is not UTF-8";
				return NULL;
			}
			if (keep)
				ss_buf_add(&sc->unesc, q, n);
			q += n;
		}
	}
	*why = "a label value without its closing quote";
	return NULL;
}

/*
 * NAME[{LABELS}] at the start of the line: its length, or 0 with *why.
 * With `keep` (a family's name) the labels go to sc->labels.
 */
static size_t series_text(struct ss_scrape *sc, const char *p, size_t len, bool keep,
			  const char **why)
{
	const char *q = p, *end = p + len;

	sc->nlabels = 0;
	sc->too_many_labels = false;
	ss_buf_reset(&sc->unesc);
	if (!(cls[(unsigned char)*q] & C_NAME0)) {
		*why = "not a sample, a comment or a blank line";
		return 0;
	}
	for (q++; q < end && (cls[(unsigned char)*q] & C_NAME); q++)
		;
	if (q == end || *q != '{')
		return (size_t)(q - p);
	for (q++;;) {
		const char *name;

		if (q < end && *q == '}')
			return (size_t)(q + 1 - p);
		if (q == end || !(cls[(unsigned char)*q] & C_LABEL0)) {
			*why = "a label name expected";
			return 0;
		}
		for (name = q++; q < end && (cls[(unsigned char)*q] & C_LABEL); q++)
			;
		if (end - q < 2 || q[0] != '=' || q[1] != '"') {
			*why = "a label without =\"value\"";
			return 0;
		}
		if (keep) {
			if (sc->nlabels == SS_SERVER_MAX_LABELS) {
				sc->too_many_labels = true;
			} else {
				struct ss_label *l = &sc->labels[sc->nlabels];

				l->name = name;
				l->name_len = (size_t)(q - name);
				sc->val_off[sc->nlabels++] = sc->unesc.len;
			}
		}
		q = label_value(sc, q + 2, end, keep && !sc->too_many_labels, why);
		if (!q)
			return 0;
		if (q < end && *q == ',') {
			q++;
		} else if (q == end || *q != '}') {
			*why = "labels not separated by commas";
			return 0;
		}
	}
}

/* The label values' pointers, once sc->unesc stopped moving. */
static void fix_values(struct ss_scrape *sc)
{
	for (size_t i = 0; i < sc->nlabels; i++) {
		size_t end = i + 1 < sc->nlabels ? sc->val_off[i + 1] : sc->unesc.len;

		sc->labels[i].value = sc->unesc.data ? sc->unesc.data + sc->val_off[i] : "";
		sc->labels[i].value_len = end - sc->val_off[i];
	}
}

/*
 * After the series text: blanks, VALUE, optionally blanks and an integer
 * millisecond TIMESTAMP, to the end (trailing blanks were cut). NULL, or
 * the reason of a bad line.
 */
static const char *value_part(const char *q, const char *end, const char **v, size_t *vlen,
			      bool *has_ts, int64_t *ts)
{
	const char *s;
	bool neg = false;
	int64_t t = 0;

	*has_ts = false;
	if (q == end || !is_blank(*q))
		return "no blank between the series and its value";
	while (q < end && is_blank(*q))
		q++;
	*v = q;
	*vlen = ss_srv_float_len(q, end);
	if (*vlen == 0)
		return "a value that is not a number";
	q += *vlen;
	if (q == end)
		return NULL;
	if (!is_blank(*q))
		return "a value that is not a number";
	while (q < end && is_blank(*q))
		q++;
	if (q < end && *q == '-') {
		neg = true;
		q++;
	}
	for (s = q; q < end && *q >= '0' && *q <= '9'; q++) {
		if (t > (INT64_MAX / 1000000 - 9) / 10)
			return "a timestamp out of range";
		t = t * 10 + (*q - '0');
	}
	if (q == s || q != end)
		return "a timestamp that is not integer milliseconds";
	*has_ts = true;
	*ts = neg ? -t : t;
	return NULL;
}

/* Whether name[0..n) may be a family's (after `_created` and `_total`). */
static bool family_name(const char *name, size_t n)
{
	struct ss_family_match m;

	if (n >= 8 && memcmp(name + n - 8, "_created", 8) == 0)
		return false;
	if (n >= 6 && memcmp(name + n - 6, "_total", 6) == 0)
		n -= 6;
	return ss_family_lookup(SS_SRC_PROMETHEUS, name, n, &m);
}

static size_t name_len(const char *p, size_t len)
{
	size_t i = 1;

	while (i < len && (cls[(unsigned char)p[i]] & C_NAME))
		i++;
	return i;
}

/* A sample line whose series is known: slen bytes of text, its fingerprint and handle. */
struct series_id {
	size_t slen;
	uint64_t fp;
	uint32_t handle;     /* the kept series, or SS_SERVER_NO_HANDLE */
	const char *bad;     /* a bad sample's reason (a series no family takes as it is) */
	bool from_tmpl;
	size_t tmpl_index;
};

/* Find the line's series in the template, else parse it. NULL, or a bad line's reason. */
static const char *identify(struct ss_scrape *sc, const char *p, size_t len, struct series_id *id)
{
	const char *why = NULL;
	bool keep;

	memset(id, 0, sizeof(*id));
	if (sc->T.n) {
		size_t cand[3], nc = 0;

		if (sc->fast) {
			cand[nc++] = sc->ord;
		} else {
			cand[nc++] = sc->j;
			cand[nc++] = sc->j + 1;
		}
		cand[nc++] = 0;
		for (size_t c = 0; c < nc; c++) {
			if (tmpl_match(&sc->T, cand[c], p, len)) {
				const struct tmpl_ent *e = &sc->T.e[cand[c]];

				id->slen = e->len;
				id->fp = e->fp;
				id->handle = e->handle;
				id->from_tmpl = true;
				id->tmpl_index = cand[c];
				return NULL;
			}
		}
	}
	keep = family_name(p, name_len(p, len));
	id->slen = series_text(sc, p, len, keep, &why);
	if (!id->slen)
		return why;
	id->fp = ss_keymap_hash(p, id->slen);
	id->handle = SS_SERVER_NO_HANDLE;
	if (keep) {
		enum ss_srv_status st;

		if (sc->too_many_labels) {
			id->bad = "more than 64 labels";
			return NULL;
		}
		fix_values(sc);
		if (sc->unesc.failed)
			return NULL; /* out of memory: taken as no family's */
		st = ss_server_resolve(sc->srv, sc->endpoint, SS_SRC_PROMETHEUS, p,
				       name_len(p, len), sc->labels, sc->nlabels, &id->handle,
				       &id->bad);
		if (st != SS_SRV_KEPT)
			id->handle = SS_SERVER_NO_HANDLE;
		if (st != SS_SRV_BAD)
			id->bad = NULL;
	}
	return NULL;
}

/*
 * Whether the line's series already appeared in the open snapshot; kept
 * series are left to the server, which knows their canonical keys. In
 * fast mode (every line so far the template's entry of its number) no set
 * is needed; off it, fingerprints decide. false when out of memory.
 */
static bool repeated(struct ss_scrape *sc, const struct series_id *id, bool *rep)
{
	bool was;

	*rep = false;
	if (sc->fast) {
		if (id->from_tmpl && id->tmpl_index == sc->ord)
			return true;
		if (id->from_tmpl && id->tmpl_index == 0 && sc->ord > 0) {
			*rep = true; /* the template's first line again: the next page */
			return true;
		}
		/* Off the template's order: the lines so far go into the set. */
		sc->fast = false;
		for (size_t i = 0; i < sc->ord && i < sc->T.n; i++)
			if (sc->T.e[i].handle == SS_SERVER_NO_HANDLE && !seen_put(sc, sc->T.e[i].fp, &was))
				return false;
	}
	if (id->handle != SS_SERVER_NO_HANDLE)
		return true;
	if (!seen_put(sc, id->fp, &was))
		return false;
	*rep = was;
	return true;
}

/*
 * Start a snapshot with this line as its first. Closing the last one may
 * have made its lines the template: the line is then looked for again, as
 * the new template's first (its fingerprint and handle come from its text
 * and stay).
 */
static bool restart(struct ss_scrape *sc, struct series_id *id, const char *p, size_t len)
{
	uint64_t gen = sc->tmpl_gen;
	bool rep;

	end_snap(sc);
	if (sc->tmpl_gen != gen) {
		id->from_tmpl = tmpl_match(&sc->T, 0, p, len);
		id->tmpl_index = 0;
	}
	return begin_snap(sc) && repeated(sc, id, &rep);
}

static bool sample(struct ss_scrape *sc, const char *p, size_t len, bool terminated)
{
	struct series_id id;
	const char *why, *v = NULL, *reason = NULL;
	size_t vlen = 0;
	bool has_ts, rep;
	int64_t ts = 0;
	enum ss_srv_status st = SS_SRV_IGNORED;

	if (!terminated) {
		bad(sc, "bad line", "the last line has no line end (cut short?)");
		return true;
	}
	why = identify(sc, p, len, &id);
	if (!why)
		why = value_part(p + id.slen, p + len, &v, &vlen, &has_ts, &ts);
	if (why) {
		bad(sc, "bad line", why);
		return true;
	}
	sc->st.samples++;
	if (sc->in_snap) {
		if (!repeated(sc, &id, &rep))
			return false;
		if (rep && !restart(sc, &id, p, len))
			return false;
	} else if (!begin_snap(sc) || !repeated(sc, &id, &rep)) {
		return false;
	}
	if (id.handle != SS_SERVER_NO_HANDLE && !id.bad) {
		st = ss_server_put(sc->srv, id.handle, v, vlen, &reason);
		if (st == SS_SRV_REPEAT) {
			/* a kept series twice: this line starts the next snapshot */
			if (!restart(sc, &id, p, len))
				return false;
			st = ss_server_put(sc->srv, id.handle, v, vlen, &reason);
		}
		if (st == SS_SRV_NOMEM)
			return false;
	}
	/* The line is the open snapshot's now. */
	if (id.from_tmpl)
		sc->j = id.tmpl_index + 1;
	else
		sc->unmatched++;
	if (sc->learning && !id.bad && !tmpl_add(&sc->L, p, id.slen, id.fp, id.handle))
		return false;
	sc->ord++;
	if (has_ts && (!sc->has_ts || ts > sc->max_ts_ms)) {
		sc->has_ts = true;
		sc->max_ts_ms = ts;
	}
	if (id.bad)
		bad(sc, "bad sample", id.bad);
	else if (st == SS_SRV_BAD)
		bad(sc, "bad sample", reason);
	return true;
}

/* One whole line without its '\n' (terminated) or the input's unfinished last one. */
static bool line(struct ss_scrape *sc, const char *p, size_t len, bool terminated)
{
	sc->st.lines++;
	if (sc->st.lines == 1 && len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
		p += 3; /* a byte-order mark before the first line */
		len -= 3;
	}
	if (len && p[len - 1] == '\r')
		len--;
	while (len && is_blank(*p)) {
		p++;
		len--;
	}
	while (len && is_blank(p[len - 1]))
		len--;
	if (len == 0)
		return true;
	if (*p == '#') {
		comment(sc, p, len, terminated);
		return true;
	}
	return sample(sc, p, len, terminated);
}

static void overlong(struct ss_scrape *sc)
{
	sc->st.lines++;
	sc->st.bad_lines++;
	ss_server_bad(sc->srv, sc->name, sc->st.lines, "bad line", "a line over the length limit");
}

/* Append to the unfinished line, up to the length limit (past it only the line end counts). */
static void carry_add(struct ss_scrape *sc, const char *p, size_t n)
{
	if (sc->overlong)
		return;
	if (n > sc->max_line - sc->carry.len) {
		sc->overlong = true;
		ss_buf_reset(&sc->carry);
		return;
	}
	ss_buf_add(&sc->carry, p, n);
}

bool ss_scrape_feed(struct ss_scrape *sc, const void *data, size_t n)
{
	const char *p = data, *end = p + n, *nl;

	if (n == 0)
		return true;
	if (sc->carry.len || sc->overlong) {
		nl = memchr(p, '\n', n);
		carry_add(sc, p, nl ? (size_t)(nl - p) : n);
		if (sc->carry.failed)
			return false;
		if (!nl)
			return true;
		if (sc->overlong)
			overlong(sc);
		else if (!line(sc, sc->carry.data, sc->carry.len, true))
			return false;
		sc->overlong = false;
		ss_buf_reset(&sc->carry);
		p = nl + 1;
	}
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			carry_add(sc, p, (size_t)(end - p));
			return !sc->carry.failed;
		}
		if ((size_t)(nl - p) > sc->max_line)
			overlong(sc);
		else if (!line(sc, p, (size_t)(nl - p), true))
			return false;
		p = nl + 1;
	}
	return true;
}

bool ss_scrape_finish(struct ss_scrape *sc)
{
	bool ok = true;

	if (sc->overlong)
		overlong(sc);
	else if (sc->carry.len)
		ok = line(sc, sc->carry.data, sc->carry.len, false);
	sc->overlong = false;
	ss_buf_reset(&sc->carry);
	end_snap(sc);
	return ok;
}
