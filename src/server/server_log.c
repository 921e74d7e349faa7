/*
 * server_log.c - a server log input, line by line (SPEC 12.1-12.4): lines
 * cut out of the bytes, cleaned, told by their anchor, and read into the
 * vLLM and SGLang log families or handed over as llama.cpp task blocks.
 */
#include "server/server_log.h"

#include <stdio.h>
#include <string.h>

#include "logs/logline.h"
#include "logs/sglang_log.h"
#include "logs/vllm_log.h"
#include "server/server_int.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/grow.h"
#include "util/ratio.h"

/* Processes (vLLM names, SGLang tag sets) told apart; more share the last. */
#define MAX_PROCS 4096

struct vllm_proc {
	char *name;
	bool has_time;
	int64_t last_ns;
};

struct sglang_proc {
	char tags[64];
	bool has_time;
	int64_t last_ns;
};

struct ss_server_log {
	/* the input being read */
	char *name;
	size_t max_line;
	struct ss_buf carry;       /* a line cut by the end of a batch */
	bool skipping;             /* inside a line over the limit */
	uint64_t line;             /* lines of the input so far */
	char *clean;               /* scratch: the cleaned line */
	size_t clean_cap;
	struct ss_llama_blocks blocks;
	struct ss_server_log_counts counts;
	/* the run's vLLM family */
	struct ss_vllm_tally vllm;
	bool vllm_seen;
	struct vllm_proc *vp;
	size_t nvp, vp_cap;
	struct ss_server_interval *viv;
	size_t nviv, viv_cap;
	uint64_t unpinned_line;    /* the first line whose steps are unknown */
	char *unpinned_input;
	/* the run's SGLang family */
	struct ss_sglang_series sg;
	/* the printed values in hundredths, summed exactly (means rounded once) */
	unsigned __int128 sg_cents, sg_wcents, sg_running;
	unsigned __int128 sg_bucket_cents[SS_SGLANG_BUCKETS];
	unsigned __int128 sg_zero_cents;
	uint64_t sg_zero_lines;    /* #running-req 0: bucket 0 */
	struct sglang_proc *sp;
	size_t nsp, sp_cap;
	struct ss_server_loginterval *siv;
	size_t nsiv, siv_cap;
};

void ss_server_log_free(struct ss_server_log *l)
{
	if (!l)
		return;
	ss_free(l->name);
	ss_buf_release(&l->carry);
	ss_free(l->clean);
	for (size_t i = 0; i < l->nvp; i++)
		ss_free(l->vp[i].name);
	ss_free(l->vp);
	ss_free(l->viv);
	ss_free(l->unpinned_input);
	ss_free(l->sp);
	ss_free(l->siv);
	ss_free(l);
}

bool ss_server_log_begin(struct ss_server *s, const char *name, size_t max_line)
{
	struct ss_server_log *l = s->log;

	if (!l) {
		l = ss_calloc(1, sizeof(*l));
		if (!l)
			return false;
		ss_buf_init(&l->carry);
		ss_vllm_tally_init(&l->vllm);
		ss_sglang_series_init(&l->sg);
		s->log = l;
	}
	ss_free(l->name);
	l->name = ss_strdup(name);
	if (!l->name)
		return false;
	l->max_line = max_line;
	ss_buf_reset(&l->carry);
	l->skipping = false;
	l->line = 0;
	ss_llama_blocks_init(&l->blocks);
	memset(&l->counts, 0, sizeof(l->counts));
	return true;
}

/* ---- times ---- */

static bool digits(const char *p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*v = *v * 10 + (p[i] - '0');
	}
	return true;
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

/* An RFC 3339 time (`2026-12-01T10:00:00.123456789Z`) in Unix ns. */
static bool rfc3339_ns(const char *p, size_t n, int64_t *ns)
{
	int y, mo, d, h, mi, s, zh = 0, zm = 0;
	int64_t frac = 0, scale = 1000000000;
	size_t i = 19;

	if (n < 20 || !digits(p, 4, &y) || p[4] != '-' || !digits(p + 5, 2, &mo) || p[7] != '-' ||
	    !digits(p + 8, 2, &d) || (p[10] != 'T' && p[10] != 't') || !digits(p + 11, 2, &h) ||
	    p[13] != ':' || !digits(p + 14, 2, &mi) || p[16] != ':' || !digits(p + 17, 2, &s))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
		return false;
	if (i < n && p[i] == '.') {
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			if (scale > 1) {
				scale /= 10;
				frac += (p[i] - '0') * scale;
			}
	}
	if (i < n && (p[i] == 'Z' || p[i] == 'z')) {
		i++;
	} else if (i + 6 <= n && (p[i] == '+' || p[i] == '-') && digits(p + i + 1, 2, &zh) &&
		   p[i + 3] == ':' && digits(p + i + 4, 2, &zm)) {
		int sign = p[i] == '-' ? -1 : 1;

		zh *= sign;
		zm *= sign;
		i += 6;
	} else {
		return false;
	}
	int64_t secs = days_from_civil(y, mo, d) * 86400 + (int64_t)h * 3600 + mi * 60 + s -
		       (int64_t)zh * 3600 - (int64_t)zm * 60;
	if (secs < 0 || secs > INT64_MAX / 1000000000 - 1)
		return false;
	*ns = secs * 1000000000 + frac;
	return true;
}

/* ---- the two families ---- */

static void bad(struct ss_server *s, struct ss_server_log *l, const char *why)
{
	l->counts.bad_lines++;
	ss_server_bad(s, l->name, l->line, "bad log line", why);
}

static size_t vllm_proc(struct ss_server_log *l, const char *name, size_t n)
{
	for (size_t i = 0; i < l->nvp; i++)
		if (strlen(l->vp[i].name) == n && memcmp(l->vp[i].name, name, n) == 0)
			return i;
	if (l->nvp >= MAX_PROCS)
		return l->nvp - 1;
	if (!SS_ALLOC_GROW(l->vp, l->nvp + 1, l->vp_cap))
		return SIZE_MAX;
	l->vp[l->nvp].name = ss_strndup(name, n);
	if (!l->vp[l->nvp].name)
		return SIZE_MAX;
	l->vp[l->nvp].has_time = false;
	return l->nvp++;
}

static bool vllm_line(struct ss_server *s, struct ss_server_log *l, const char *line, size_t n,
		      const struct ss_log_anchor *a)
{
	struct ss_vllm_line v;
	struct ss_log_prefix pre;
	enum ss_log_status st = ss_vllm_line_parse(line + a->tail, n - a->tail, &v);
	int64_t t = 0;
	bool timed;

	if (st == SS_LOG_BAD) {
		bad(s, l, v.why);
		return true;
	}
	l->counts.log_lines++;
	if (st == SS_LOG_REFUSED) {
		/* refused, not bad: counted apart, the first one said */
		if (!l->counts.refused_lines++ && s->msg)
			ss_msg_warn(s->msg, "%s:%llu: %s", l->name, (unsigned long long)l->line,
				    v.why);
		return true;
	}
	ss_log_prefix_parse(line, a->at, &pre);
	size_t p = vllm_proc(l, pre.proc ? pre.proc : "", pre.proc ? pre.proc_len : 0);
	if (p == SIZE_MAX)
		return false;
	l->vllm_seen = true;
	if (v.drafted && !v.steps_known && !l->unpinned_input) {
		l->unpinned_input = ss_strdup(l->name);
		l->unpinned_line = l->line;
		if (!l->unpinned_input)
			return false;
	}
	ss_vllm_tally_add(&l->vllm, &v);
	timed = pre.time_len && rfc3339_ns(pre.time, pre.time_len, &t);
	if (timed && v.drafted && l->nviv < SS_SERVER_MAX_INTERVALS) {
		struct ss_server_interval *iv;

		if (!SS_ALLOC_GROW(l->viv, l->nviv + 1, l->viv_cap))
			return false;
		iv = &l->viv[l->nviv++];
		memset(iv, 0, sizeof(*iv));
		iv->process = (uint32_t)p;
		iv->has_start = l->vp[p].has_time;
		iv->start_ns = l->vp[p].last_ns;
		iv->has_end = true;
		iv->end_ns = t;
		iv->draft_tokens = v.drafted;
		iv->accepted_tokens = (__int128)v.accepted;
		iv->has_rate = true;
		iv->draft_acceptance_rate = ss_ratio(v.accepted, v.drafted) * 100.0;
		if (v.steps_known) {
			iv->steps = v.steps;
			iv->has_acceptance_length = true;
			iv->acceptance_length = 1.0 + ss_ratio(v.accepted, v.steps);
		}
	}
	if (timed) {
		l->vp[p].has_time = true;
		l->vp[p].last_ns = t;
	}
	return true;
}

/* A printed F2 (`3.05`) in hundredths. */
static uint64_t cents(const char *t)
{
	uint64_t v = 0;

	for (; *t; t++)
		if (*t >= '0' && *t <= '9')
			v = v * 10 + (uint64_t)(*t - '0');
	return v;
}

static size_t sglang_proc(struct ss_server_log *l, const char *tags)
{
	for (size_t i = 0; i < l->nsp; i++)
		if (strcmp(l->sp[i].tags, tags) == 0)
			return i;
	if (l->nsp >= MAX_PROCS)
		return l->nsp - 1;
	if (!SS_ALLOC_GROW(l->sp, l->nsp + 1, l->sp_cap))
		return SIZE_MAX;
	snprintf(l->sp[l->nsp].tags, sizeof(l->sp[l->nsp].tags), "%s", tags);
	l->sp[l->nsp].has_time = false;
	return l->nsp++;
}

static bool sglang_line(struct ss_server *s, struct ss_server_log *l, const char *line, size_t n,
			const struct ss_log_anchor *a)
{
	struct ss_sglang_line g;
	struct ss_log_prefix pre;
	enum ss_log_status st = ss_sglang_line_parse(line + a->tail, n - a->tail, &g);
	int64_t t = 0;

	if (st == SS_LOG_SKIPPED)
		return true;   /* a server without speculation: not counted */
	if (st == SS_LOG_BAD) {
		bad(s, l, g.why);
		return true;
	}
	l->counts.log_lines++;
	ss_log_prefix_parse(line, a->at, &pre);
	size_t p = sglang_proc(l, pre.tags);
	if (p == SIZE_MAX)
		return false;
	ss_sglang_series_add(&l->sg, &g);
	{
		uint64_t c = cents(g.accept_txt), b = ss_log_bucket(g.running);
		size_t i = 0;

		while (b > 1) {
			b >>= 1;
			i++;
		}
		l->sg_cents += c;
		l->sg_wcents += (unsigned __int128)c * g.running;
		l->sg_running += g.running;
		l->sg_bucket_cents[i] += c;
		if (g.running == 0) {
			l->sg_zero_lines++;
			l->sg_zero_cents += c;
		}
	}
	if (pre.time_len && rfc3339_ns(pre.time, pre.time_len, &t)) {
		if (l->nsiv < SS_SERVER_MAX_INTERVALS) {
			struct ss_server_loginterval *iv;

			if (!SS_ALLOC_GROW(l->siv, l->nsiv + 1, l->siv_cap))
				return false;
			iv = &l->siv[l->nsiv++];
			iv->process = (uint32_t)p;
			iv->has_start = l->sp[p].has_time;
			iv->start_ns = l->sp[p].last_ns;
			iv->has_end = true;
			iv->end_ns = t;
			iv->accept_len = g.accept_len;
			iv->running_req = g.running;
		}
		l->sp[p].has_time = true;
		l->sp[p].last_ns = t;
	}
	return true;
}

/* ---- lines ---- */

/* One line (no LF), n bytes. */
static bool one_line(struct ss_server *s, struct ss_server_log *l, const char *raw, size_t n,
		     const struct ss_server_log_sink *sink)
{
	struct ss_log_anchor a;
	bool found;

	l->line++;
	if (n > l->max_line) {
		bad(s, l, "longer than --max-record-size");
		return true;
	}
	/*
	 * Most lines: no anchor and no open block, not counted, not copied.
	 * (No anchor holds an escape or a CR, so a colour code never hides
	 * one: the raw line is searched before it is cleaned.)
	 */
	if (!l->blocks.open && !ss_log_find_anchor(raw, n, &a))
		return true;
	if (n + 1 > l->clean_cap) {
		char *c = ss_realloc(l->clean, n + 1);

		if (!c)
			return false;
		l->clean = c;
		l->clean_cap = n + 1;
	}
	n = ss_log_clean(raw, n, l->clean);
	l->clean[n] = '\0';
	found = ss_log_find_anchor(l->clean, n, &a);
	if (l->blocks.open || (found && (a.fmt == SS_LOG_LLAMACPP || a.fmt == SS_LOG_LLAMASLOT))) {
		struct ss_llama_task t;
		const char *why = NULL;
		bool done = false;
		enum ss_log_status st;

		l->blocks.line = l->line - 1;
		st = ss_llama_blocks_feed(&l->blocks, l->clean, n, &t, &done, &why);
		if (done && !sink->task(sink->ctx, &t))
			return false;
		if (st == SS_LOG_BAD)
			bad(s, l, why ? why : "a llama.cpp timing line that does not parse");
		else if (st == SS_LOG_OK && found && a.fmt == SS_LOG_LLAMACPP)
			l->counts.log_lines++;
		if (st != SS_LOG_SKIPPED || (found && a.fmt == SS_LOG_LLAMACPP))
			return true;
	}
	if (!found)
		return true;
	if (a.fmt == SS_LOG_VLLM)
		return vllm_line(s, l, l->clean, n, &a);
	if (a.fmt == SS_LOG_SGLANG)
		return sglang_line(s, l, l->clean, n, &a);
	return true;
}

bool ss_server_log_feed(struct ss_server *s, const char *bytes, size_t len, bool last,
			const struct ss_server_log_sink *sink, struct ss_server_log_counts *counts)
{
	struct ss_server_log *l = s->log;
	const char *p = bytes, *end = bytes + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l->skipping) {
			if (nl)
				l->skipping = false;
		} else if (!nl || l->carry.len) {
			if (l->carry.len + n > l->max_line + 1) {
				/* over the limit: a bad line, the rest skipped to its end */
				ss_buf_reset(&l->carry);
				l->line++;
				bad(s, l, "longer than --max-record-size");
				l->skipping = !nl;
			} else {
				ss_buf_add(&l->carry, p, n);
				if (l->carry.failed)
					return false;
				if (nl) {
					if (!one_line(s, l, l->carry.data, l->carry.len, sink))
						return false;
					ss_buf_reset(&l->carry);
				}
			}
		} else if (!one_line(s, l, p, n, sink)) {
			return false;
		}
		p = nl ? nl + 1 : end;
	}
	if (!last)
		return true;
	if (l->carry.len && !l->skipping && !one_line(s, l, l->carry.data, l->carry.len, sink))
		return false;
	ss_buf_reset(&l->carry);
	{
		struct ss_llama_task t;

		if (ss_llama_blocks_finish(&l->blocks, &t) && !sink->task(sink->ctx, &t))
			return false;
	}
	*counts = l->counts;
	return true;
}

/* ---- the families at the end ---- */

/*
 * The family's process names, as intervals name them (SPEC 12.2, 12.3 and
 * 10.5's `process`): vLLM's prefix NAME, SGLang's tag set; NULL (the
 * unnamed process) for lines whose prefix has none.
 */
static bool name_processes(struct ss_server_family *f, size_t n, const char *(*name)(void *, size_t),
			   void *ctx)
{
	f->process_names = ss_calloc(n ? n : 1, sizeof(char *));
	if (!f->process_names)
		return false;
	f->nprocess_names = n;
	for (size_t i = 0; i < n; i++) {
		const char *s = name(ctx, i);

		if (*s && !(f->process_names[i] = ss_strdup(s)))
			return false;
	}
	return true;
}

static const char *vllm_name(void *ctx, size_t i)
{
	return ((struct ss_server_log *)ctx)->vp[i].name;
}

static const char *sglang_name(void *ctx, size_t i)
{
	return ((struct ss_server_log *)ctx)->sp[i].tags;
}

static const struct ss_family_row *row_of(enum ss_engine e)
{
	for (size_t r = 0; r < ss_family_count; r++)
		if (ss_family_rows[r].engine == e && ss_family_rows[r].source == SS_SRC_LOG)
			return &ss_family_rows[r];
	return NULL;
}

static bool vllm_family(struct ss_server_log *l, struct ss_server_family *f,
			struct ss_server_logfam *x, struct ss_msg *msg)
{
	const struct ss_vllm_tally *t = &l->vllm;

	x->lines = t->lines;
	x->processes = l->nvp;
	x->unknown_items = t->unknown_items;
	x->unpinned = t->unpinned;
	f->series = 1;
	f->inexact = true;
	f->has_draft_tokens = true;
	f->draft_tokens = t->drafted;
	f->accepted_tokens = (__int128)t->accepted;
	if (t->drafted) {
		f->has_rate = true;
		f->draft_acceptance_rate = ss_ratio(t->accepted, t->drafted) * 100.0;
	}
	if (!t->unpinned && t->steps) {
		x->assumes_full = true;
		f->steps = t->steps;
		f->has_acceptance_length = true;
		f->acceptance_length = 1.0 + ss_ratio(t->accepted, t->steps);
	}
	/* SPEC 12.2: positions over the lines with steps, whatever the others */
	if (t->steps) {
		if (t->k) {
			f->positions = ss_calloc(t->k, sizeof(*f->positions));
			if (!f->positions)
				return false;
			f->npositions = t->k;
			for (size_t i = 0; i < t->k; i++) {
				struct ss_drafted_row *p = &f->positions[i];

				p->drafted = t->steps;
				/* Σ r_i S in thousandths, rounded to a count */
				p->accepted = (t->pos_weighted[i] + 500) / 1000;
				/* rate_i = Σ (r_i S) / Σ S, rounded once */
				p->has_rate = true;
				p->rate = ss_ratio(t->pos_weighted[i], t->steps * 1000);
			}
		}
	}
	if (t->unpinned && msg) {
		ss_msg_info(msg, "vllm log: %llu interval lines do not pin their steps (the first at "
			    "%s:%llu; adaptive or batch-size-dependent draft lengths): no steps or "
			    "acceptance length; positions from the lines that pin them",
			    (unsigned long long)t->unpinned,
			    l->unpinned_input ? l->unpinned_input : "?",
			    (unsigned long long)l->unpinned_line);
	}
	if (l->nviv) {
		f->intervals = ss_calloc(l->nviv, sizeof(*f->intervals));
		if (!f->intervals)
			return false;
		memcpy(f->intervals, l->viv, l->nviv * sizeof(*f->intervals));
		f->nintervals = l->nviv;
		f->has_start = l->viv[0].has_end;
		f->start_ns = l->viv[0].end_ns;
		f->has_end = true;
		f->end_ns = l->viv[l->nviv - 1].end_ns;
	}
	return true;
}

static bool sglang_family(struct ss_server_log *l, struct ss_server_logfam *x)
{
	const struct ss_sglang_series *g = &l->sg;
	size_t nb = 0;

	x->lines = x->al_lines = g->lines;
	x->processes = l->nsp;
	x->has_accept_len = g->lines > 0;
	if (g->lines) {
		x->mean = ss_ratio(l->sg_cents, (unsigned __int128)g->lines * 100);
		x->weighted_mean = l->sg_running ? ss_ratio(l->sg_wcents, l->sg_running * 100) : 0.0;
		x->min = g->min;
		x->max = g->max;
		x->last = g->last;
	}
	x->buckets = ss_calloc(SS_SGLANG_BUCKETS + 1, sizeof(*x->buckets));
	if (!x->buckets)
		return false;
	if (l->sg_zero_lines)
		x->buckets[nb++] = (struct ss_server_logbucket){
			0, l->sg_zero_lines,
			ss_ratio(l->sg_zero_cents, (unsigned __int128)l->sg_zero_lines * 100)};
	for (size_t i = 0; i < SS_SGLANG_BUCKETS; i++) {
		uint64_t n = g->bucket_lines[i];
		unsigned __int128 sum = l->sg_bucket_cents[i];

		if (i == 0) {   /* bucket 1 without the zeros */
			n -= l->sg_zero_lines;
			sum -= l->sg_zero_cents;
		}
		if (n)
			x->buckets[nb++] = (struct ss_server_logbucket){
				(uint64_t)1 << (i < 64 ? i : 63), n,
				ss_ratio(sum, (unsigned __int128)n * 100)};
	}
	x->nbuckets = nb;
	if (l->nsiv) {
		x->iv = ss_calloc(l->nsiv, sizeof(*x->iv));
		if (!x->iv)
			return false;
		memcpy(x->iv, l->siv, l->nsiv * sizeof(*x->iv));
		x->niv = l->nsiv;
	}
	return true;
}

bool ss_server_log_families(struct ss_server_log *l, enum ss_engine engine,
			    struct ss_server_results *out, size_t *cap, struct ss_msg *msg)
{
	struct ss_server_family *f;
	struct ss_server_logfam *x;
	bool ok;

	if (!l || (engine == SS_ENGINE_VLLM ? !l->vllm_seen : !l->sg.lines))
		return true;
	if (!SS_ALLOC_GROW(out->families, out->nfamilies + 1, *cap))
		return false;
	f = &out->families[out->nfamilies];
	memset(f, 0, sizeof(*f));
	x = ss_calloc(1, sizeof(*x));
	if (!x)
		return false;
	f->log = x;
	f->row = row_of(engine);
	f->estimated = f->row->estimated;
	out->nfamilies++;
	ok = engine == SS_ENGINE_VLLM ? vllm_family(l, f, x, msg) : sglang_family(l, x);
	ok = ok && (engine == SS_ENGINE_VLLM ? name_processes(f, l->nvp, vllm_name, l)
					     : name_processes(f, l->nsp, sglang_name, l));
	f->snapshots = x->lines;
	return ok;
}
