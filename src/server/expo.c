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
 * table) and the others by their canonical text (SPEC 10.1: name and label
 * set; ss_expo_key_build), found by its fingerprint.
 */
#include "server/expo.h"

#include <string.h>

#include "server/grammar.h"
#include "server/keymap.h"
#include "server/number.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/grow.h"

/* A template holds at most this much of a page (more is parsed in full). */
#define TMPL_MAX_LINES 65536
#define TMPL_MAX_TEXT (8u << 20)
/*
 * Series of other families told apart in one snapshot, and the bytes of
 * their canonical texts (past either, with a message, the rest are not
 * checked for repeats): a fingerprint decides nothing alone, the texts
 * are compared.
 */
#define SEEN_MAX (1u << 18)
#define SEEN_TEXT_MAX (8u << 20)

struct tmpl_ent {
	uint32_t off, len; /* the series text in the template's text */
	uint64_t fp;       /* its fingerprint */
	uint32_t handle;   /* the kept series, or SS_SERVER_NO_HANDLE */
	bool pst;          /* process_start_time_seconds: the snapshot's process (SPEC 10.3) */
};

struct tmpl {
	char *text;
	size_t len, cap;
	struct tmpl_ent *e;
	size_t n, cap_e;
	bool full;
};

struct seen_ent {
	uint64_t fp;       /* 0: an empty slot */
	uint32_t off, len; /* the series' canonical text in seen_text */
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
	bool has_pst;       /* its process_start_time_seconds (the first one) */
	double pst;
	size_t ord;         /* its sample lines so far */
	bool fast;          /* each was the template's entry of its number */
	size_t unmatched;   /* sample lines not found in the template */
	size_t j;           /* where the next line is looked for in the template */
	/* other families' series in the open snapshot */
	struct seen_ent *seen;
	size_t seen_slots, seen_n;
	bool seen_full, seen_told;
	size_t seen_fam;    /* of them, lines of a family's name that made no series */
	struct ss_buf seen_text;
	struct ss_expo_key key; /* a series' canonical text */
	/* the template, and the one being learned from the open snapshot */
	struct tmpl T, L;
	uint64_t tmpl_gen;  /* how many times T was replaced */
	bool learning;
	struct ss_expo_labels lab; /* a kept series' labels */
	/* `# endpoint: NAME`: holds for the snapshots after it, until the next one */
	bool has_ep;
	struct ss_buf ep;
};

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
	ss_expo_grammar_init();
	sc->srv = srv;
	sc->endpoint = endpoint;
	sc->name = ss_strdup(name ? name : "<stdin>");
	sc->max_line = opts && opts->max_line ? opts->max_line : SS_SCRAPE_MAX_LINE;
	sc->no_template = opts && opts->no_template;
	sc->fast = true;
	sc->learning = !sc->no_template;
	ss_buf_init(&sc->carry);
	ss_buf_init(&sc->seen_text);
	ss_expo_key_init(&sc->key);
	ss_buf_init(&sc->lab.unesc);
	ss_buf_init(&sc->ep);
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
	ss_buf_release(&sc->seen_text);
	ss_expo_key_release(&sc->key);
	ss_buf_release(&sc->carry);
	ss_buf_release(&sc->lab.unesc);
	ss_buf_release(&sc->ep);
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

/* ---- the seen set: the open snapshot's series of other families ---- */

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
	if (sc->seen_text.cap > (1u << 20))
		ss_buf_release(&sc->seen_text);
	ss_buf_reset(&sc->seen_text);
	sc->seen_n = sc->seen_fam = 0;
	sc->seen_full = false;
}

static bool seen_grow(struct ss_scrape *sc)
{
	size_t slots = sc->seen_slots ? 2 * sc->seen_slots : 1024;
	struct seen_ent *t = ss_calloc(slots, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < sc->seen_slots; i++) {
		size_t k;

		if (!sc->seen[i].fp)
			continue;
		for (k = sc->seen[i].fp & (slots - 1); t[k].fp; k = (k + 1) & (slots - 1))
			;
		t[k] = sc->seen[i];
	}
	ss_free(sc->seen);
	sc->seen = t;
	sc->seen_slots = slots;
	return true;
}

/* The set is full: told once per input, as every bound is. */
static void seen_bound(struct ss_scrape *sc)
{
	sc->seen_full = true;
	if (!sc->seen_told)
		ss_server_bound(sc->srv, sc->name, sc->st.lines,
				"more series of other families in one snapshot than are checked "
				"for repeats (262,144, or 8 MiB of their text); a repeat among the "
				"rest does not start a snapshot");
	sc->seen_told = true;
}

/*
 * Put the series text[0..len) (fingerprint fp) in; *was tells whether it
 * was there: same fingerprint and same text. false when out of memory.
 */
static bool seen_put(struct ss_scrape *sc, uint64_t fp, const char *text, size_t len, bool *was)
{
	size_t k;

	*was = false;
	if (sc->seen_full)
		return true;
	if (2 * (sc->seen_n + 1) > sc->seen_slots) {
		if (sc->seen_n >= SEEN_MAX) {
			seen_bound(sc);
			return true;
		}
		if (!seen_grow(sc))
			return false;
	}
	for (k = fp & (sc->seen_slots - 1); sc->seen[k].fp; k = (k + 1) & (sc->seen_slots - 1)) {
		const struct seen_ent *e = &sc->seen[k];

		if (e->fp == fp && e->len == len &&
		    memcmp(sc->seen_text.data + e->off, text, len) == 0) {
			*was = true;
			return true;
		}
	}
	if (len > SEEN_TEXT_MAX - sc->seen_text.len) {
		seen_bound(sc);
		return true;
	}
	sc->seen[k] = (struct seen_ent){fp, (uint32_t)sc->seen_text.len, (uint32_t)len};
	ss_buf_add(&sc->seen_text, text, len);
	if (sc->seen_text.failed)
		return false;
	sc->seen_n++;
	return true;
}

/* ---- the template ---- */

static bool tmpl_add(struct tmpl *t, const char *text, size_t len, uint64_t fp, uint32_t handle,
		     bool pst)
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
	t->e[t->n++] = (struct tmpl_ent){(uint32_t)t->len, (uint32_t)len, fp, handle, pst};
	t->len += len;
	return true;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Whether the line [p, p+len) starts with entry i's series text and a
 * blank. A bare name's entry does not take a line whose blanks after the
 * name lead to '{': blanks may stand before the braces (SPEC 13), so that
 * line names a series with labels, which the full parse reads.
 */
static inline bool tmpl_match(const struct tmpl *t, size_t i, const char *p, size_t len)
{
	const struct tmpl_ent *e;
	size_t k;

	if (i >= t->n)
		return false;
	e = &t->e[i];
	if (!(e->len < len && is_blank(p[e->len]) && memcmp(p, t->text + e->off, e->len) == 0))
		return false;
	if (t->text[e->off + e->len - 1] == '}')
		return true;
	for (k = e->len + 1; k < len && is_blank(p[k]); k++)
		;
	return k == len || p[k] != '{';
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

		if (sc->has_pst || sc->has_ep) {
			struct ss_server_proc_info pi = {
				.name = sc->has_ep ? sc->ep.data : NULL, .name_len = sc->ep.len,
				.has_start = sc->has_pst, .start_s = sc->pst, .input = sc->name};

			ss_server_set_process(sc->srv, &pi);
		}
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
	sc->has_time = sc->has_ts = sc->has_pst = false;
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

static void comment(struct ss_scrape *sc, const char *p, size_t len)
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
		if (!ss_expo_time(q, (size_t)(end - q), &ns)) {
			bad(sc, "bad line", "`# time:` is not followed by Unix seconds");
			return;
		}
		/* After a sample it starts the next snapshot; before any, the latest wins. */
		if (sc->in_snap)
			end_snap(sc);
		sc->has_time = true;
		sc->time_ns = ns;
	}
	if (is_lit(p, len, "# endpoint:")) {
		const char *q = p + 11, *end = p + len;

		while (q < end && is_blank(*q))
			q++;
		/* After a sample it starts the next snapshot, as `# time:` does. */
		if (sc->in_snap)
			end_snap(sc);
		ss_buf_reset(&sc->ep);
		ss_buf_add(&sc->ep, q, (size_t)(end - q));
		ss_buf_addc(&sc->ep, '\0');
		sc->ep.len--;
		sc->has_ep = sc->ep.len > 0 && !sc->ep.failed; /* `# endpoint:` alone: no name from here */
	}
	/* # HELP, # TYPE and other comments say nothing the window needs. */
}

/* ---- sample lines ---- */

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

/* A sample line whose series is known: slen bytes of text, its fingerprint and handle. */
struct series_id {
	size_t slen;
	uint64_t fp;
	uint32_t handle;     /* the kept series, or SS_SERVER_NO_HANDLE */
	const char *bad;     /* a bad sample's reason (a series no family takes as it is) */
	bool from_tmpl;
	bool keep;           /* a family's name, parsed: resolve() finds its series */
	bool no_tmpl;        /* not for the template: a series not made (its value said nothing) */
	bool pst;            /* process_start_time_seconds */
	size_t tmpl_index;
};

static bool is_pst(const char *name, size_t n)
{
	return n == 26 && memcmp(name, "process_start_time_seconds", 26) == 0;
}

/* Find the line's series in the template, else parse it. NULL, or a bad line's reason. */
static const char *identify(struct ss_scrape *sc, const char *p, size_t len, struct series_id *id)
{
	const char *why = NULL;
	bool keep;

	memset(id, 0, sizeof(*id));
	if (sc->fast && tmpl_match(&sc->T, sc->ord, p, len)) {
		/* the common case: the template's next line */
		const struct tmpl_ent *e = &sc->T.e[sc->ord];

		id->slen = e->len;
		id->fp = e->fp;
		id->handle = e->handle;
		id->pst = e->pst;
		id->from_tmpl = true;
		id->tmpl_index = sc->ord;
		return NULL;
	}
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
				id->pst = e->pst;
				id->from_tmpl = true;
				id->tmpl_index = cand[c];
				return NULL;
			}
		}
	}
	keep = family_name(p, ss_expo_name_len(p, len));
	id->pst = !keep && is_pst(p, ss_expo_name_len(p, len));
	id->slen = ss_expo_series(&sc->lab, p, len, keep, &why);
	if (!id->slen)
		return why;
	id->fp = ss_keymap_hash(p, id->slen);
	id->handle = SS_SERVER_NO_HANDLE;
	if (keep && sc->lab.too_many)
		id->bad = "more than 64 labels";
	else
		id->keep = keep;
	return NULL;
}

/*
 * A parsed line of a family's name: its series, found or made once its
 * value is known to be one (a bad value makes no series). false when out
 * of memory, which is never taken for "no family's".
 */
static bool resolve(struct ss_scrape *sc, const char *p, size_t len, struct series_id *id,
		    const char *v, size_t vlen)
{
	enum ss_server_status st;

	ss_expo_labels_fix(&sc->lab);
	if (sc->lab.unesc.failed)
		return false;
	st = ss_server_resolve_value(sc->srv, sc->endpoint, SS_SRC_PROMETHEUS, p,
				     ss_expo_name_len(p, len), sc->lab.labels, sc->lab.n, v, vlen,
				     &id->handle, &id->bad);
	if (st == SS_SERVER_NOMEM)
		return false;
	if (st != SS_SERVER_KEPT)
		id->handle = SS_SERVER_NO_HANDLE;
	if (st != SS_SERVER_BAD)
		id->bad = NULL;
	id->no_tmpl = st == SS_SERVER_BAD || st == SS_SERVER_NOVALUE;
	return true;
}

/*
 * Put the series text[0..len) in the seen set by its canonical text
 * (SPEC 10.1: name and label set); *was tells whether it was there.
 */
static bool seen_put_series(struct ss_scrape *sc, const char *text, size_t len, bool *was)
{
	if (!ss_expo_key_build(&sc->key, text, len))
		return false;
	return seen_put(sc, ss_keymap_hash(sc->key.text.data, sc->key.text.len), sc->key.text.data,
			sc->key.text.len, was);
}

/*
 * Whether the line's series already appeared in the open snapshot; kept
 * series are left to the server, which knows their canonical keys, unless
 * a line of a family's name that made no series (a bad sample, a gauge of
 * no value) is in the set: it may be the same series. In fast mode (every
 * line so far the template's entry of its number) no set is needed; off
 * it, canonical texts decide. false when out of memory.
 */
static bool repeated(struct ss_scrape *sc, const struct series_id *id, const char *p, bool *rep)
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
		for (size_t i = 0; i < sc->ord && i < sc->T.n; i++) {
			const struct tmpl_ent *e = &sc->T.e[i];

			if (e->handle == SS_SERVER_NO_HANDLE &&
			    !seen_put_series(sc, sc->T.text + e->off, e->len, &was))
				return false;
		}
	}
	if (id->handle != SS_SERVER_NO_HANDLE && !sc->seen_fam)
		return true;
	if (!seen_put_series(sc, p, id->slen, &was))
		return false;
	if (id->handle == SS_SERVER_NO_HANDLE && id->keep && !was)
		sc->seen_fam++;
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
	return begin_snap(sc) && repeated(sc, id, p, &rep);
}

static bool sample(struct ss_scrape *sc, const char *p, size_t len)
{
	struct series_id id;
	const char *why, *v = NULL, *reason = NULL;
	size_t vlen = 0;
	bool has_ts, rep;
	int64_t ts = 0;
	enum ss_server_status st = SS_SERVER_IGNORED;

	why = identify(sc, p, len, &id);
	if (!why)
		why = ss_expo_value(p + id.slen, p + len, &v, &vlen, &has_ts, &ts);
	if (why) {
		bad(sc, "bad line", why);
		return true;
	}
	if (id.keep && !resolve(sc, p, len, &id, v, vlen))
		return false;
	sc->st.samples++;
	if (sc->in_snap) {
		if (!repeated(sc, &id, p, &rep))
			return false;
		if (rep && !restart(sc, &id, p, len))
			return false;
	} else if (!begin_snap(sc) || !repeated(sc, &id, p, &rep)) {
		return false;
	}
	if (id.handle != SS_SERVER_NO_HANDLE && !id.bad) {
		st = ss_server_put(sc->srv, id.handle, v, vlen, &reason);
		if (st == SS_SERVER_REPEAT) {
			/* a kept series twice: this line starts the next snapshot */
			if (!restart(sc, &id, p, len))
				return false;
			st = ss_server_put(sc->srv, id.handle, v, vlen, &reason);
		}
		if (st == SS_SERVER_NOMEM)
			return false;
	}
	/* The line is the open snapshot's now. */
	if (id.from_tmpl)
		sc->j = id.tmpl_index + 1;
	else
		sc->unmatched++;
	if (sc->learning && !id.bad && !id.no_tmpl &&
	    !tmpl_add(&sc->L, p, id.slen, id.fp, id.handle, id.pst))
		return false;
	/* SPEC 10.3: the snapshot's first process_start_time_seconds, whatever its labels */
	if (id.pst && !sc->has_pst)
		sc->has_pst = ss_server_parse_gauge(v, vlen, &sc->pst);
	sc->ord++;
	if (has_ts && (!sc->has_ts || ts > sc->max_ts_ms)) {
		sc->has_ts = true;
		sc->max_ts_ms = ts;
	}
	if (id.bad)
		bad(sc, "bad sample", id.bad);
	else if (st == SS_SERVER_BAD)
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
	/*
	 * SPEC 13: one CR before the line end goes (any other is the line's:
	 * a line of a lone CR is bad), and a last line without its line end
	 * is read as any other.
	 */
	if (terminated && len && p[len - 1] == '\r') {
		if (len == 1) {
			bad(sc, "bad line", "a line of a lone CR");
			return true;
		}
		len--;
	}
	while (len && is_blank(*p)) {
		p++;
		len--;
	}
	while (len && is_blank(p[len - 1]))
		len--;
	if (len == 0)
		return true;
	if (*p == '#') {
		comment(sc, p, len);
		return true;
	}
	return sample(sc, p, len);
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

/*
 * The line most lines of a scrape loop are: in fast mode, the template's
 * next series, one space, a plain value (digits, a fraction) and the line
 * end. Read here with the effects line() would have, or not at all
 * (false: line() reads it). nl points at the line's '\n'.
 */
static inline bool quick_line(struct ss_scrape *sc, const char *p, const char *nl, bool *ok)
{
	const struct tmpl_ent *e;
	const char *v, *q;
	size_t len = (size_t)(nl - p);

	if (!sc->fast || !sc->in_snap || sc->learning || sc->ord >= sc->T.n)
		return false;
	e = &sc->T.e[sc->ord];
	if (e->pst)
		return false; /* the full way reads the snapshot's process */
	if (e->len + 2 > len || p[e->len] != ' ' || memcmp(p, sc->T.text + e->off, e->len) != 0)
		return false;
	v = p + e->len + 1;
	if ((unsigned)(*v - '0') >= 10)
		return false;
	for (q = v + 1; (unsigned)(*q - '0') < 10; q++)
		;
	if (*q == '.')
		for (q++; (unsigned)(*q - '0') < 10; q++)
			;
	if (q != nl)
		return false; /* an exponent, a timestamp, a CR, a blank: the full way */
	sc->st.lines++;
	if (e->handle != SS_SERVER_NO_HANDLE) {
		const char *reason;
		enum ss_server_status st = ss_server_put(sc->srv, e->handle, v, (size_t)(q - v), &reason);

		if (st == SS_SERVER_REPEAT) {
			sc->st.lines--; /* nothing done: line() starts the next snapshot */
			return false;
		}
		if (st == SS_SERVER_NOMEM)
			*ok = false;
		else if (st == SS_SERVER_BAD)
			bad(sc, "bad sample", reason);
	}
	sc->st.samples++;
	sc->j = ++sc->ord;
	return true;
}

bool ss_scrape_feed(struct ss_scrape *sc, const void *data, size_t n)
{
	const char *p = data, *end = p + n, *nl;
	bool ok = true;

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
		else if (quick_line(sc, p, nl, &ok))
			;
		else if (!line(sc, p, (size_t)(nl - p), true))
			return false;
		if (!ok)
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
