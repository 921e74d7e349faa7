/*
 * expo_ref.h - a small reference reader of Prometheus text, written from
 * SPEC 10.1, 10.2 and 13 (and docs/BEHAVIOUR.md where SPEC is silent),
 * for fuzz_expo_diff.c. It shares no code with src/server: it is slow and
 * plain (whole text in memory, linear searches), for inputs of a few KiB.
 *
 * It counts what the reader's ss_scrape_stats count (lines, sample lines,
 * bad lines with bad samples, snapshots) and, for vLLM's three counters
 * (S, D, A), the window of the processes `# endpoint:` names (SPEC 10.3:
 * each in input order, or in time order, ties in input order, when every
 * snapshot of the family is timed; a value that goes down a reset; a
 * process with one snapshot adding nothing unless every one has one).
 * Where the window would need what this reader leaves out (process start
 * times, some snapshots timed and others not, per-position series, a bad
 * value or a value of 2^53 or more of those counters, a `position` label
 * on them), it says so (`window_ok` false) and the caller compares the
 * counts only.
 *
 * The rules, in the contract's words:
 *  - lines end at LF; one CR before the LF is dropped, any other CR is the
 *    line's (a line of a lone CR is bad); a last line without LF is read;
 *    a byte-order mark before the first line is dropped; blanks (space,
 *    tab) around a line are dropped (BEHAVIOUR), an empty line is nothing;
 *  - `#` lines: `# EOF` ends the snapshot (and a `# time:` before it that
 *    no sample followed: it does not hold for the next page); `# time: T`
 *    (T digits with an optional fraction, at most 2^63 - 1 ns) sets the
 *    time and, after a sample, ends the snapshot, another T makes a bad line; `# endpoint: NAME` ends the
 *    snapshot after a sample and names the process of the snapshots after
 *    it; every other `#` line is a comment;
 *  - a sample line: NAME (`[a-zA-Z_:][a-zA-Z0-9_:]*`), optional blanks
 *    and braces with `name="value"` pairs (label names
 *    `[a-zA-Z_][a-zA-Z0-9_]*`, blanks around `{`, `}`, `,` and `=`, a
 *    trailing comma, the escapes `\\`, `\"`, `\n` only, values valid
 *    UTF-8, no label name twice), blanks, VALUE (a decimal number, or NaN,
 *    Inf, Infinity in any case with an optional sign), optionally blanks
 *    and an integer TIMESTAMP (an optional sign, at most 9223372036854 ms:
 *    its ns fit 64 bits); anything else is a bad line;
 *  - a snapshot ends just before a sample whose series (name without one
 *    `_total`, and label set) already appeared in it, whatever the metric
 *    and the values (a bad sample, a gauge's NaN); a snapshot is counted
 *    when it holds a sample line;
 *  - a counter's value of a known family must be finite, >= 0, integral
 *    and below 2^64 as the nearest double; a position label of a
 *    per-position counter an integer 0..4095; else a bad sample (counted
 *    with the bad lines, and still a sample line).
 */
#ifndef SS_FUZZ_EXPO_REF_H
#define SS_FUZZ_EXPO_REF_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct ref_counts {
	uint64_t lines, bad_lines, samples, snapshots;
	bool window_ok;  /* the S, D, A window below is the contract's */
	bool has_vllm;   /* a good sample of S, D or A */
	uint64_t ds, dd, da;
};

/* ---- the text's pieces ---- */

static bool ref_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool ref_name_start(char c, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

static bool ref_name_char(char c, bool colon)
{
	return ref_name_start(c, colon) || (c >= '0' && c <= '9');
}

static bool ref_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether [p, p+n) is valid UTF-8 (no overlong form, no surrogate, <= U+10FFFF). */
static bool ref_utf8(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = p[i], need, cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			need = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			need = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			need = 3, cp = c & 0x07;
		else
			return false;
		if (n - i <= need)
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if ((p[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i + k] & 0x3F);
		}
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10FFFF ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += need + 1;
	}
	return true;
}

/* A float text of the contract: the whole of [p, p+n). */
static bool ref_float(const char *p, size_t n)
{
	size_t i = 0, d = 0;
	static const char *const words[] = {"nan", "inf", "infinity"};

	if (i < n && (p[i] == '+' || p[i] == '-'))
		i++;
	for (int w = 0; w < 3; w++)
		if (n - i == strlen(words[w]) && strncasecmp(p + i, words[w], n - i) == 0)
			return true;
	while (i < n && ref_digit(p[i]))
		i++, d++;
	if (i < n && p[i] == '.')
		for (i++; i < n && ref_digit(p[i]); i++)
			d++;
	if (d == 0)
		return false;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t e = 0;

		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		while (i < n && ref_digit(p[i]))
			i++, e++;
		if (e == 0)
			return false;
	}
	return i == n;
}

/* The nearest double of a float text (any length: strtod on a copy). */
static double ref_double(const char *p, size_t n)
{
	char *s = malloc(n + 1);
	double d;

	if (!s)
		abort();
	memcpy(s, p, n);
	s[n] = '\0';
	d = strtod(s, NULL);
	free(s);
	return d;
}

/*
 * Whether the decimal digits [p, p+n) (leading zeros allowed) are at most
 * those of `max` (no leading zero): compared as texts, by length then
 * digit by digit. Times must fit in nanoseconds as a signed 64-bit
 * integer (docs/BEHAVIOUR.md: a later one is a bad line).
 */
static bool ref_digits_le(const char *p, size_t n, const char *max)
{
	size_t m = strlen(max);

	while (n && *p == '0')
		p++, n--;
	if (n != m)
		return n < m;
	return memcmp(p, max, n) <= 0;
}

/* ---- one sample line ---- */

#define REF_MAX_LABELS 256

struct ref_label {
	const char *name;
	size_t nlen;
	char *value; /* unescaped, owned */
	size_t vlen;
};

struct ref_sample {
	char name[256];
	size_t nlen; /* without one `_total`; name is empty when nlen does not fit it */
	const char *raw_name;
	size_t raw_nlen;
	size_t series_len; /* the series' text: the name and its braces */
	struct ref_label l[REF_MAX_LABELS];
	size_t nl;
	const char *value;
	size_t vlen;
	bool has_ts;
	double ts_ms;
};

static void ref_sample_release(struct ref_sample *s)
{
	for (size_t i = 0; i < s->nl; i++)
		free(s->l[i].value);
	s->nl = 0;
}

/* Parse a sample line (blanks already cut at both ends); false: a bad line. */
static bool ref_parse_sample(const char *p, size_t n, struct ref_sample *s)
{
	size_t i = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0 || !ref_name_start(p[0], true))
		return false;
	while (i < n && ref_name_char(p[i], true))
		i++;
	s->raw_name = p;
	s->raw_nlen = i;
	{
		size_t after = i;

		while (i < n && ref_blank(p[i]))
			i++;
		if (i >= n || p[i] != '{')
			i = after; /* no braces: the blanks before the value */
	}
	if (i < n && p[i] == '{') {
		i++;
		for (;;) {
			size_t ns;
			char *v;
			size_t vl = 0;

			while (i < n && ref_blank(p[i]))
				i++;
			if (i < n && p[i] == '}') {
				i++;
				break;
			}
			if (i >= n || !ref_name_start(p[i], false))
				return false;
			ns = i;
			while (i < n && ref_name_char(p[i], false))
				i++;
			if (s->nl == REF_MAX_LABELS)
				return false;
			s->l[s->nl].name = p + ns;
			s->l[s->nl].nlen = i - ns;
			while (i < n && ref_blank(p[i]))
				i++;
			if (i >= n || p[i] != '=')
				return false;
			i++;
			while (i < n && ref_blank(p[i]))
				i++;
			if (i >= n || p[i] != '"')
				return false;
			i++;
			v = malloc(n + 1);
			if (!v)
				abort();
			s->l[s->nl].value = v;
			s->nl++;
			for (;;) {
				if (i >= n)
					return false;
				if (p[i] == '"')
					break;
				if (p[i] == '\\') {
					if (i + 1 >= n)
						return false;
					if (p[i + 1] == '\\' || p[i + 1] == '"')
						v[vl++] = p[i + 1];
					else if (p[i + 1] == 'n')
						v[vl++] = '\n';
					else
						return false;
					i += 2;
					continue;
				}
				v[vl++] = p[i++];
			}
			i++;
			s->l[s->nl - 1].vlen = vl;
			if (!ref_utf8((const unsigned char *)v, vl))
				return false;
			for (size_t k = 0; k + 1 < s->nl; k++)
				if (s->l[k].nlen == s->l[s->nl - 1].nlen &&
				    memcmp(s->l[k].name, s->l[s->nl - 1].name, s->l[k].nlen) == 0)
					return false; /* a label name twice */
			while (i < n && ref_blank(p[i]))
				i++;
			if (i < n && p[i] == ',') {
				i++;
				continue;
			}
			if (i < n && p[i] == '}') {
				i++;
				break;
			}
			return false;
		}
	}
	s->series_len = i;
	/* blanks, VALUE, [blanks TIMESTAMP] */
	{
		size_t b = i, vs;

		while (i < n && ref_blank(p[i]))
			i++;
		if (i == b)
			return false;
		vs = i;
		while (i < n && !ref_blank(p[i]))
			i++;
		if (!ref_float(p + vs, i - vs))
			return false;
		s->value = p + vs;
		s->vlen = i - vs;
		if (i < n) {
			size_t ts, k;

			while (i < n && ref_blank(p[i]))
				i++;
			ts = i;
			k = i;
			if (k < n && (p[k] == '-' || p[k] == '+'))
				k++;
			if (k == n || !ref_digit(p[k]))
				return false;
			{
				size_t ds = k;

				while (k < n && ref_digit(p[k]))
					k++;
				if (k != n)
					return false;
				/* ms whose ns fit: |ms| <= 9223372036854 */
				if (!ref_digits_le(p + ds, k - ds, "9223372036854"))
					return false;
			}
			s->has_ts = true;
			s->ts_ms = ref_double(p + ts, n - ts);
		}
	}
	/* the name without one `_total` */
	s->nlen = s->raw_nlen;
	if (s->nlen >= 6 && memcmp(s->raw_name + s->nlen - 6, "_total", 6) == 0)
		s->nlen -= 6;
	/* a name longer than the array is no name SPEC 10.2 knows: kept
	 * (the series' key is made from raw_name), s->name left empty */
	if (s->nlen >= sizeof(s->name)) {
		s->name[0] = '\0';
		return true;
	}
	memcpy(s->name, s->raw_name, s->nlen);
	s->name[s->nlen] = '\0';
	return true;
}

/* ---- SPEC 10.2's names ---- */

enum ref_kind { REF_OTHER, REF_COUNTER, REF_POS_COUNTER, REF_GAUGE };

static const struct {
	const char *name;
	enum ref_kind kind;
	const char *pos_label;
	int vllm; /* 1 S, 2 D, 3 A of vLLM; 4 a vLLM per-position counter */
} ref_names[] = {
	{"vllm:spec_decode_num_drafts", REF_COUNTER, NULL, 1},
	{"vllm:spec_decode_num_draft_tokens", REF_COUNTER, NULL, 2},
	{"vllm:spec_decode_num_accepted_tokens", REF_COUNTER, NULL, 3},
	{"vllm:spec_decode_num_accepted_tokens_per_pos", REF_POS_COUNTER, "position", 4},
	{"vllm:spec_decode_num_draft_tokens_per_pos", REF_POS_COUNTER, "position", 4},
	{"llamacpp:spec_decode_num_drafts", REF_COUNTER, NULL, 0},
	{"llamacpp:spec_decode_num_draft_tokens", REF_COUNTER, NULL, 0},
	{"llamacpp:spec_decode_num_accepted_tokens", REF_COUNTER, NULL, 0},
	{"llamacpp:spec_decode_num_accepted_tokens_per_pos", REF_POS_COUNTER, "position", 0},
	{"trtllm_spec_decode_num_draft_tokens", REF_COUNTER, NULL, 0},
	{"trtllm_spec_decode_num_accepted_tokens", REF_COUNTER, NULL, 0},
	{"trtllm_spec_decode_accepted_tokens", REF_POS_COUNTER, "token_position", 0},
	{"trtllm_spec_decode_drafted_tokens", REF_POS_COUNTER, "token_position", 0},
	{"sglang:spec_verify_calls", REF_COUNTER, NULL, 0},
	{"sglang:generation_tokens", REF_COUNTER, NULL, 0},
	{"sglang:num_requests", REF_COUNTER, NULL, 0},
	{"sglang:spec_accept_length", REF_GAUGE, NULL, 0},
	{"sglang:spec_accept_rate", REF_GAUGE, NULL, 0},
	{"trtllm_spec_decode_acceptance_length", REF_GAUGE, NULL, 0},
};

static int ref_lookup(const struct ref_sample *s)
{
	for (size_t i = 0; i < sizeof(ref_names) / sizeof(ref_names[0]); i++)
		if (strcmp(s->name, ref_names[i].name) == 0)
			return (int)i;
	return -1;
}

static const struct ref_label *ref_label_of(const struct ref_sample *s, const char *name)
{
	for (size_t i = 0; i < s->nl; i++)
		if (s->l[i].nlen == strlen(name) && memcmp(s->l[i].name, name, s->l[i].nlen) == 0)
			return &s->l[i];
	return NULL;
}

/* A counter's value: 0 a count (*v), 1 a bad sample. */
static int ref_count(const char *p, size_t n, double *v)
{
	double d = ref_double(p, n);

	if (isnan(d) || isinf(d) || d < 0.0 || d != floor(d) || d >= 18446744073709551616.0)
		return 1;
	*v = d == 0.0 ? 0.0 : d;
	return 0;
}

/* A position label: decimal digits, 0..4095. */
static bool ref_position(const struct ref_label *l)
{
	unsigned v = 0;

	if (l->vlen == 0)
		return false;
	for (size_t i = 0; i < l->vlen; i++) {
		if (!ref_digit(l->value[i]))
			return false;
		v = v * 10 + (unsigned)(l->value[i] - '0');
		if (v > 4095)
			return false;
	}
	return true;
}

/* ---- series keys: name and label set, canonical ---- */

static int ref_label_cmp(const void *a, const void *b)
{
	const struct ref_label *x = a, *y = b;
	size_t n = x->nlen < y->nlen ? x->nlen : y->nlen;
	int c = memcmp(x->name, y->name, n);

	return c ? c : (x->nlen > y->nlen) - (x->nlen < y->nlen);
}

/* name NUL (label NUL value NUL)*, labels sorted: a malloc'd key. */
static char *ref_key(struct ref_sample *s, size_t *len)
{
	size_t n = s->nlen + 1, at;
	char *k;

	qsort(s->l, s->nl, sizeof(s->l[0]), ref_label_cmp);
	for (size_t i = 0; i < s->nl; i++)
		n += s->l[i].nlen + s->l[i].vlen + 2;
	k = malloc(n);
	if (!k)
		abort();
	memcpy(k, s->raw_name, s->nlen);
	k[s->nlen] = '\0';
	at = s->nlen + 1;
	for (size_t i = 0; i < s->nl; i++) {
		memcpy(k + at, s->l[i].name, s->l[i].nlen);
		at += s->l[i].nlen;
		k[at++] = '\0';
		memcpy(k + at, s->l[i].value, s->l[i].vlen);
		at += s->l[i].vlen;
		k[at++] = '\0';
	}
	*len = n;
	return k;
}

/* A list of keys (with a value for the window's series). */
struct ref_keys {
	char **k;
	size_t *len;
	double *v;
	size_t n, cap;
};

static ptrdiff_t ref_keys_find(const struct ref_keys *t, const char *k, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->len[i] == len && memcmp(t->k[i], k, len) == 0)
			return (ptrdiff_t)i;
	return -1;
}

static void ref_keys_add(struct ref_keys *t, char *k, size_t len, double v)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->k = realloc(t->k, t->cap * sizeof(*t->k));
		t->len = realloc(t->len, t->cap * sizeof(*t->len));
		t->v = realloc(t->v, t->cap * sizeof(*t->v));
		if (!t->k || !t->len || !t->v)
			abort();
	}
	t->k[t->n] = k;
	t->len[t->n] = len;
	t->v[t->n++] = v;
}

static void ref_keys_clear(struct ref_keys *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->k[i]);
	t->n = 0;
}

static void ref_keys_free(struct ref_keys *t)
{
	ref_keys_clear(t);
	free(t->k);
	free(t->len);
	free(t->v);
}

/* ---- the reader ---- */

/*
 * A process of SPEC 10.3 as far as this reader knows them: the `# endpoint:`
 * name that holds for its snapshots (none: the unnamed process). Pages with
 * process_start_time_seconds are not compared (window_ok false).
 */
#define REF_MAX_PROCS 4096

/* A snapshot of a process, kept until the end (then diffed in its order). */
struct ref_snap {
	int64_t time;
	struct ref_keys vals;  /* its S/D/A values (role last) */
};

struct ref_proc {
	char *name;            /* NULL: the unnamed process */
	size_t nlen;
	struct ref_keys prev;  /* its last value of each series */
	struct ref_keys first; /* its first snapshot (since_start) */
	uint64_t fam_snaps;
	struct ref_snap *snaps; /* in input order */
	size_t nsnaps, snaps_cap;
};

struct ref_state {
	struct ref_counts *c;
	struct ref_keys seen;  /* series of the open snapshot */
	struct ref_keys cur;   /* the vLLM S/D/A values of the open snapshot (role last) */
	struct ref_proc *procs; /* the family's processes, in order of first sight */
	size_t nprocs;
	char *ep;              /* the `# endpoint:` name holding now, or NULL */
	size_t eplen;
	bool in_snap;          /* a sample line in the open snapshot */
	bool pend_time;        /* a `# time:` for the next snapshot */
	int64_t pend;          /* times in ns, compared exactly (as the reader) */
	bool snap_timed, snap_by_line; /* the open snapshot's time, and from `# time:` */
	int64_t snap_time;
	bool last_timed;       /* the family's snapshot before */
	uint64_t fam_snaps;    /* over all its processes */
};

static char *ref_dup(const char *k, size_t len);

/* The process of the `# endpoint:` name holding now, made when new. */
static struct ref_proc *ref_proc_of(struct ref_state *st)
{
	struct ref_proc *p;

	for (size_t i = 0; i < st->nprocs; i++) {
		p = &st->procs[i];
		if ((p->name == NULL) == (st->ep == NULL) &&
		    (!p->name || (p->nlen == st->eplen && memcmp(p->name, st->ep, p->nlen) == 0)))
			return p;
	}
	if (st->nprocs == REF_MAX_PROCS) {
		st->c->window_ok = false; /* past the reader's cap: not compared */
		return &st->procs[0];
	}
	if (!st->procs && !(st->procs = calloc(REF_MAX_PROCS, sizeof(*st->procs))))
		abort();
	p = &st->procs[st->nprocs++];
	memset(p, 0, sizeof(*p));
	if (st->ep) {
		p->name = ref_dup(st->ep, st->eplen);
		p->nlen = st->eplen;
	}
	return p;
}

static char *ref_dup(const char *k, size_t len)
{
	char *d = malloc(len);

	if (!d)
		abort();
	memcpy(d, k, len);
	return d;
}

static void ref_add_role(struct ref_counts *c, int role, double d)
{
	if (role == 1)
		c->ds += (uint64_t)d;
	else if (role == 2)
		c->dd += (uint64_t)d;
	else
		c->da += (uint64_t)d;
}

/* The open snapshot ends: count it, and diff the family's series. */
static void ref_end(struct ref_state *st)
{
	struct ref_counts *c = st->c;

	if (st->in_snap && st->cur.n) {
		struct ref_proc *pr = ref_proc_of(st);

		struct ref_snap *sn;

		/* times: all timed or none (ordered at the end) */
		if (st->fam_snaps && st->snap_timed != st->last_timed)
			c->window_ok = false;
		st->last_timed = st->snap_timed;
		if (pr->nsnaps == pr->snaps_cap) {
			pr->snaps_cap = pr->snaps_cap ? 2 * pr->snaps_cap : 8;
			pr->snaps = realloc(pr->snaps, pr->snaps_cap * sizeof(*pr->snaps));
			if (!pr->snaps)
				abort();
		}
		sn = &pr->snaps[pr->nsnaps++];
		memset(sn, 0, sizeof(*sn));
		sn->time = st->snap_time;
		for (size_t i = 0; i < st->cur.n; i++)
			ref_keys_add(&sn->vals, ref_dup(st->cur.k[i], st->cur.len[i]),
				     st->cur.len[i], st->cur.v[i]);
		st->fam_snaps++;
	}
	if (st->in_snap)
		c->snapshots++;
	ref_keys_clear(&st->seen);
	ref_keys_clear(&st->cur);
	st->in_snap = false;
}

/*
 * SPEC 10.3 diffs a series between the snapshots that hold it (one
 * missing from a snapshot keeps its last value in prev), in the
 * process's order.
 */
static void ref_diff(struct ref_counts *c, struct ref_proc *pr, const struct ref_keys *cur)
{
	for (size_t i = 0; i < cur->n; i++) {
		const char *k = cur->k[i];
		size_t len = cur->len[i];
		ptrdiff_t j = ref_keys_find(&pr->prev, k, len);
		double v = cur->v[i], d;

		if (pr->fam_snaps == 0)
			ref_keys_add(&pr->first, ref_dup(k, len), len, v);
		/* a process's first snapshot is its baseline: nothing added */
		if (j < 0)
			d = pr->fam_snaps ? v : 0.0; /* new in a later snapshot: from 0 */
		else
			d = v < pr->prev.v[j] ? v : v - pr->prev.v[j]; /* a reset: v */
		ref_add_role(c, (unsigned char)k[len - 1], d);
		if (j < 0)
			ref_keys_add(&pr->prev, ref_dup(k, len), len, v);
		else
			pr->prev.v[j] = v;
	}
	pr->fam_snaps++;
}

/* Each process's snapshots diffed: in time order when timed (a stable insertion sort). */
static void ref_diff_all(struct ref_state *st)
{
	for (size_t p = 0; p < st->nprocs; p++) {
		struct ref_proc *pr = &st->procs[p];

		if (st->last_timed)
			for (size_t i = 1; i < pr->nsnaps; i++) {
				struct ref_snap t = pr->snaps[i];
				size_t j = i;

				for (; j > 0 && pr->snaps[j - 1].time > t.time; j--)
					pr->snaps[j] = pr->snaps[j - 1];
				pr->snaps[j] = t;
			}
		for (size_t i = 0; i < pr->nsnaps; i++)
			ref_diff(st->c, pr, &pr->snaps[i].vals);
	}
}

/* `# time: T`: digits with an optional fraction; *t in ns. */
static bool ref_time(const char *p, size_t n, int64_t *t)
{
	size_t i = 0, d = 0;

	while (i < n && ref_blank(p[i]))
		i++;
	if (i == n)
		return false;
	{
		size_t s = i, nn = 0, f = 0;
		char ns[64];

		while (i < n && ref_digit(p[i]))
			i++, d++;
		if (i < n && p[i] == '.')
			for (i++; i < n && ref_digit(p[i]); i++)
				;
		if (d == 0 || i != n)
			return false;
		/* the time in ns (nine decimals, more dropped) must fit INT64_MAX */
		while (d > 1 && p[s] == '0')
			s++, d--;
		if (d > 19)
			return false;
		memcpy(ns, p + s, d);
		nn = d;
		if (s + d < n)
			for (size_t k = s + d + 1; k < n && f < 9; k++, f++)
				ns[nn++] = p[k];
		for (; f < 9; f++)
			ns[nn++] = '0';
		if (!ref_digits_le(ns, nn, "9223372036854775807"))
			return false;
		*t = 0;
		for (size_t k = 0; k < nn; k++)
			*t = *t * 10 + (ns[k] - '0');
	}
	return true;
}

static void ref_sample_line(struct ref_state *st, const char *p, size_t n)
{
	struct ref_counts *c = st->c;
	struct ref_sample *s = malloc(sizeof(*s));
	char *key;
	size_t klen;
	int x;
	bool bad = false;
	double v = 0;

	if (!s)
		abort();
	if (!ref_parse_sample(p, n, s)) {
		c->bad_lines++;
		ref_sample_release(s);
		free(s);
		return;
	}
	key = ref_key(s, &klen);
	x = ref_lookup(s);
	/* SPEC 10.2: SGLang's counter series of a tp_rank other than "0" are
	 * left out (the ranks report the same batch): no value read */
	if (x >= 0 && ref_names[x].kind != REF_GAUGE && s->nlen > 7 &&
	    memcmp(s->raw_name, "sglang:", 7) == 0) {
		const struct ref_label *tp = ref_label_of(s, "tp_rank");

		if (tp && !(tp->vlen == 1 && tp->value[0] == '0'))
			x = -1;
	}
	if (x >= 0 && ref_names[x].kind != REF_GAUGE) {
		bad = ref_count(s->value, s->vlen, &v) != 0;
		if (ref_names[x].kind == REF_POS_COUNTER) {
			const struct ref_label *pl = ref_label_of(s, ref_names[x].pos_label);

			if (!pl || !ref_position(pl))
				bad = true; /* no position, or not one of 0..4095 */
		}
	}
	/* SPEC 10.1: the same name and label set, whatever the sample's
	 * value (a bad one, a gauge's NaN) or its metric; SPEC 13: `x_total`
	 * and `x` are one series */
	if (ref_keys_find(&st->seen, key, klen) >= 0)
		ref_end(st); /* a repeated series: the next snapshot */
	if (!st->in_snap) {
		st->in_snap = true;
		st->snap_timed = st->snap_by_line = st->pend_time;
		st->snap_time = st->pend;
		st->pend_time = false;
	}
	c->samples++;
	ref_keys_add(&st->seen, key, klen, 0);
	if (s->has_ts) {
		/* |ms| <= 9223372036854: exact in a double, its ns fit */
		int64_t t = (int64_t)s->ts_ms * 1000000;

		if (!st->snap_by_line && (!st->snap_timed || t > st->snap_time)) {
			st->snap_time = t;
			st->snap_timed = true;
		}
		if (s->ts_ms < 0 || s->ts_ms > 1e13)
			c->window_ok = false;
	}
	if (s->nlen == 26 && memcmp(s->raw_name, "process_start_time_seconds", 26) == 0)
		c->window_ok = false;
	if (x >= 0 && ref_names[x].kind != REF_GAUGE) {
		if (bad)
			c->bad_lines++;
		if (ref_names[x].vllm == 4)
			c->window_ok = false;
		if (ref_names[x].vllm >= 1 && ref_names[x].vllm <= 3) {
			if (bad || v >= 9007199254740992.0 || ref_label_of(s, "position"))
				c->window_ok = false;
			if (!bad) {
				char *k = malloc(klen + 1);

				if (!k)
					abort();
				memcpy(k, key, klen);
				k[klen] = (char)ref_names[x].vllm; /* the role, last */
				ref_keys_add(&st->cur, k, klen + 1, v);
				c->has_vllm = true;
			}
		}
	}
	ref_sample_release(s);
	free(s);
}

static void ref_line(struct ref_state *st, const char *p, size_t n, bool terminated, bool first)
{
	struct ref_counts *c = st->c;

	c->lines++;
	if (first && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3, n -= 3;
	if (terminated && n && p[n - 1] == '\r') {
		if (n == 1) {
			c->bad_lines++;
			return;
		}
		n--;
	}
	while (n && ref_blank(*p))
		p++, n--;
	while (n && ref_blank(p[n - 1]))
		n--;
	if (n == 0)
		return;
	if (*p != '#') {
		ref_sample_line(st, p, n);
		return;
	}
	if (n == 5 && memcmp(p, "# EOF", 5) == 0) {
		ref_end(st);
		st->pend_time = false; /* the page's `# time:` was that page's, samples or none */
	} else if (n >= 7 && memcmp(p, "# time:", 7) == 0) {
		int64_t t;

		if (!ref_time(p + 7, n - 7, &t)) {
			c->bad_lines++;
			return;
		}
		if (st->in_snap)
			ref_end(st);
		st->pend_time = true;
		st->pend = t;
	} else if (n >= 11 && memcmp(p, "# endpoint:", 11) == 0) {
		/*
		 * SPEC 10.1: it ends the snapshot after a sample; 10.3: the
		 * name holds for the snapshots after it, until the next one
		 * (nothing after it: the unnamed process again).
		 */
		size_t k = 11;

		if (st->in_snap)
			ref_end(st);
		while (k < n && ref_blank(p[k]))
			k++;
		free(st->ep);
		st->ep = k < n ? ref_dup(p + k, n - k) : NULL;
		st->eplen = n - k;
	}
}

/* Read the whole text. */
static void ref_read(const char *text, size_t n, struct ref_counts *c)
{
	struct ref_state st;
	size_t at = 0;

	memset(&st, 0, sizeof(st));
	memset(c, 0, sizeof(*c));
	c->window_ok = true;
	st.c = c;
	while (at < n) {
		const char *nl = memchr(text + at, '\n', n - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : n - at;

		ref_line(&st, text + at, len, nl != NULL, at == 0);
		at += len + (nl != NULL);
	}
	ref_end(&st);
	ref_diff_all(&st);
	if (st.nprocs && st.fam_snaps == st.nprocs) {
		/* one snapshot in each process: the counters since the servers started */
		c->ds = c->dd = c->da = 0;
		for (size_t p = 0; p < st.nprocs; p++)
			for (size_t i = 0; i < st.procs[p].first.n; i++) {
				const struct ref_keys *f = &st.procs[p].first;
				int role = (unsigned char)f->k[i][f->len[i] - 1];
				uint64_t v = (uint64_t)f->v[i];

				if (role == 1)
					c->ds += v;
				else if (role == 2)
					c->dd += v;
				else
					c->da += v;
			}
	}
	for (size_t p = 0; p < st.nprocs; p++) {
		free(st.procs[p].name);
		ref_keys_free(&st.procs[p].prev);
		ref_keys_free(&st.procs[p].first);
		for (size_t i = 0; i < st.procs[p].nsnaps; i++)
			ref_keys_free(&st.procs[p].snaps[i].vals);
		free(st.procs[p].snaps);
	}
	free(st.procs);
	free(st.ep);
	ref_keys_free(&st.seen);
	ref_keys_free(&st.cur);
}

#endif
