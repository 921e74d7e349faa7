/*
 * llama_log.c - llama.cpp's per-task blocks (SPEC 12.4).
 *
 * SLOT  := "slot print_timing: id " SP* INT " | task " ["-"] INT " |" [" " BODY]
 * BODY  := SP* ( "prompt eval time = " TIME "(" RATE " ms per token, " RATE
 *                " tokens per second)"
 *              | "eval time = " (the same)
 *              | "total time = " SP* F2 " ms / " SP* INT " tokens"
 *              | "draft acceptance" [" rate"] " = " F5 " (" SP* INT " accepted /"
 *                SP* INT " generated)" [ ", mean len = " SP* F2
 *                | ", mean acceptance length = " SP* F2
 *                  ", acceptance rate per position = (" [F3 {", " F3}] ")" ]
 *              | "acc per pos = (" [F3 {", " F3}] ")" | other text, ignored )
 * TIME  := SP* F2 " ms / " SP* INT " tokens ("
 * Old builds print the prefix alone, then the timing and draft lines
 * without it: those attach to the block the prefix-only line opened.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logs/llama_log.h"

enum body_kind { B_EMPTY, B_PROMPT, B_EVAL, B_TOTAL, B_DRAFT, B_ACCPOS, B_OTHER };

/* What one line says, before it is put in a block. */
struct body {
	enum body_kind kind;
	double ms;
	uint64_t tokens, accepted, generated;
	char mean[24];
	bool has_list;
	size_t k;
	uint16_t rate[SS_LOG_MAX_POS];
};

static void skip_sp(const char **p, const char *end)
{
	while (*p < end && **p == ' ')
		(*p)++;
}

static const char *count(const char **p, const char *end, uint64_t *v)
{
	bool toolong = false;
	size_t l;

	skip_sp(p, end);
	l = ss_log_int(*p, end, v, &toolong);
	if (toolong)
		return "a count with more than 18 digits";
	if (!l)
		return "a count that is not an integer";
	*p += l;
	return NULL;
}

/* SP* Fd into txt (cap bytes) and *v when v is given. */
static const char *fixed(const char **p, const char *end, int d, char *txt, size_t cap, double *v)
{
	bool toolong = false;
	size_t l;

	skip_sp(p, end);
	l = ss_log_fixed(*p, end, d, &toolong);
	if (toolong)
		return "a number with more than 18 digits";
	if (!l)
		return "a number that is not fixed-point";
	if (txt) {
		if (l >= cap)
			return "a number with more than 18 digits";
		memcpy(txt, *p, l);
		txt[l] = '\0';
	}
	if (v) {
		char buf[32];
		memcpy(buf, *p, l);
		buf[l] = '\0';
		*v = strtod(buf, NULL);
	}
	*p += l;
	return NULL;
}

/* The per-token rates in the timing lines: F2, inf or nan. */
static const char *rate_num(const char **p, const char *end)
{
	skip_sp(p, end);
	if (ss_log_eat(p, end, "inf") || ss_log_eat(p, end, "nan") || ss_log_eat(p, end, "-nan"))
		return NULL;
	return fixed(p, end, 2, NULL, 0, NULL);
}

static const char *timing(const char *p, const char *end, struct body *b, bool total)
{
	const char *why = fixed(&p, end, 2, NULL, 0, &b->ms);

	if (why)
		return why;
	if (!ss_log_eat(&p, end, " ms /"))
		return "no ' ms /' after the time";
	if ((why = count(&p, end, &b->tokens)))
		return why;
	if (!ss_log_eat(&p, end, " tokens"))
		return "no ' tokens' after the count";
	if (!total) {
		if (!ss_log_eat(&p, end, " (") || (why = rate_num(&p, end)) ||
		    !ss_log_eat(&p, end, " ms per token,") || (why = rate_num(&p, end)) ||
		    !ss_log_eat(&p, end, " tokens per second)"))
			return why ? why : "a per-token part that does not parse";
	}
	return p == end ? NULL : "text after the timing";
}

/* "(" [F3 {", " F3}] ")" to the end of the line. */
static const char *pos_list(const char *p, const char *end, struct body *b)
{
	b->has_list = true;
	if (!ss_log_eat(&p, end, "("))
		return "no '(' before the position rates";
	if (ss_log_eat(&p, end, ")"))
		return p == end ? NULL : "text after the position rates";
	for (;;) {
		bool toolong = false;
		size_t l = ss_log_fixed(p, end, 3, &toolong);
		if (toolong)
			return "a position rate with more than 18 digits";
		if (l != 5 || p[0] > '1' || (p[0] == '1' && memcmp(p + 2, "000", 3) != 0))
			return "a position rate that is not a rate with three decimals";
		if (b->k == SS_LOG_MAX_POS)
			return "a position list longer than 256";
		b->rate[b->k++] = (uint16_t)((p[0] - '0') * 1000 + (p[2] - '0') * 100 +
					     (p[3] - '0') * 10 + (p[4] - '0'));
		p += l;
		if (ss_log_eat(&p, end, ")"))
			return p == end ? NULL : "text after the position rates";
		if (!ss_log_eat(&p, end, ", "))
			return "a position list that does not parse";
	}
}

/* The tail after "draft acceptance". */
static const char *draft(const char *p, const char *end, struct body *b)
{
	const char *why;
	bool toolong = false;

	b->kind = B_DRAFT;
	ss_log_eat(&p, end, " rate");
	if (!ss_log_eat(&p, end, " = "))
		return "no ' = ' after draft acceptance";
	size_t l = ss_log_fixed(p, end, 5, &toolong);
	if (!l && !ss_log_eat(&p, end, "nan"))
		return toolong ? "a number with more than 18 digits"
			       : "a ratio that is not a number with five decimals";
	p += l;
	if (!ss_log_eat(&p, end, " (") || (why = count(&p, end, &b->accepted)) ||
	    !ss_log_eat(&p, end, " accepted /") || (why = count(&p, end, &b->generated)) ||
	    !ss_log_eat(&p, end, " generated)"))
		return why ? why : "the accepted / generated part does not parse";
	if (p == end)
		return NULL;
	if (ss_log_eat(&p, end, ", mean len = ")) {
		why = fixed(&p, end, 2, b->mean, sizeof(b->mean), NULL);
		return why ? why : p == end ? NULL : "text after the mean length";
	}
	if (!ss_log_eat(&p, end, ", mean acceptance length = "))
		return "text after the draft counts";
	if ((why = fixed(&p, end, 2, b->mean, sizeof(b->mean), NULL)))
		return why;
	if (!ss_log_eat(&p, end, ", acceptance rate per position = "))
		return "no position rates after the mean acceptance length";
	return pos_list(p, end, b);
}

/* A body (after the slot prefix, or a whole unprefixed line's label). */
static const char *body_parse(const char *p, const char *end, struct body *b)
{
	skip_sp(&p, end);
	b->kind = B_EMPTY;
	if (p == end)
		return NULL;
	if (ss_log_eat(&p, end, "prompt eval time = ")) {
		b->kind = B_PROMPT;
		return timing(p, end, b, false);
	}
	if (ss_log_eat(&p, end, "eval time = ")) {
		b->kind = B_EVAL;
		return timing(p, end, b, false);
	}
	if (ss_log_eat(&p, end, "total time = ")) {
		b->kind = B_TOTAL;
		return timing(p, end, b, true);
	}
	if (ss_log_eat(&p, end, "draft acceptance"))
		return draft(p, end, b);
	if (ss_log_eat(&p, end, "acc per pos = ")) {
		b->kind = B_ACCPOS;
		return pos_list(p, end, b);
	}
	b->kind = B_OTHER;
	return NULL;
}

/* The slot prefix at p: ids into *slot, *task and the body's start. */
static const char *slot_prefix(const char *p, const char *end, long long *slot, long long *task,
			       const char **body)
{
	uint64_t v;
	bool neg;
	const char *why;

	p += strlen("slot print_timing: id");
	if ((why = count(&p, end, &v)))
		return why;
	*slot = (long long)v;
	if (!ss_log_eat(&p, end, " | task "))
		return "no ' | task ' in the slot prefix";
	neg = ss_log_eat(&p, end, "-");
	if (p < end && *p == ' ')
		return "a task id that is not an integer";
	if ((why = count(&p, end, &v)))
		return why;
	*task = neg ? -(long long)v : (long long)v;
	if (!ss_log_eat(&p, end, " |"))
		return "no ' |' after the task id";
	if (p < end && !ss_log_eat(&p, end, " "))
		return "no space after the slot prefix";
	*body = p;
	return NULL;
}

void ss_llama_blocks_init(struct ss_llama_blocks *b)
{
	memset(b, 0, sizeof(*b));
}

static void open_block(struct ss_llama_blocks *b, bool has_ids, long long slot, long long task,
		       const char *pre, size_t pre_len)
{
	struct ss_log_prefix pf;
	struct ss_llama_task *t = &b->cur;

	memset(t, 0, offsetof(struct ss_llama_task, rate));
	t->malformed = t->steps_known = t->hist_known = t->has_itl = false;
	t->has_ids = has_ids;
	t->slot = has_ids ? slot : -1;
	t->task = has_ids ? task : 0;
	t->first_line = b->line;
	ss_log_prefix_parse(pre, pre_len, &pf);
	if (pf.time_len && pf.time_len < sizeof(t->time)) {
		memcpy(t->time, pf.time, pf.time_len);
		t->time[pf.time_len] = '\0';
	}
	b->open = true;
	b->closing = false;
}

/* Hand the open block back (derived) and close it. */
static void close_block(struct ss_llama_blocks *b, struct ss_llama_task *out, bool *done)
{
	if (!b->open)
		return;
	ss_llama_task_derive(&b->cur);
	memcpy(out, &b->cur, sizeof(*out));
	*done = true;
	b->open = b->bare = b->closing = false;
}

/* Whether the block already holds what this line brings. */
static bool has_part(const struct ss_llama_task *t, enum body_kind k)
{
	switch (k) {
	case B_PROMPT:
		return t->has_prompt || t->has_eval || t->has_total || t->has_draft;
	case B_EVAL:
		return t->has_eval || t->has_total || t->has_draft;
	case B_TOTAL:
		return t->has_total || t->has_draft;
	case B_DRAFT:
		return t->has_draft;
	default:
		return false;
	}
}

static void put_list(struct ss_llama_task *t, const struct body *bd)
{
	if (bd->has_list) {
		t->k = bd->k;
		memcpy(t->rate, bd->rate, bd->k * sizeof(bd->rate[0]));
	}
}

static void put(struct ss_llama_task *t, const struct body *bd)
{
	switch (bd->kind) {
	case B_PROMPT:
		t->has_prompt = true;
		t->prompt_ms = bd->ms;
		t->prompt_tokens = bd->tokens;
		break;
	case B_EVAL:
		t->has_eval = true;
		t->eval_ms = bd->ms;
		t->eval_tokens = bd->tokens;
		break;
	case B_TOTAL:
		t->has_total = true;
		t->total_ms = bd->ms;
		t->total_tokens = bd->tokens;
		break;
	case B_DRAFT:
		t->has_draft = true;
		t->accepted = bd->accepted;
		t->generated = bd->generated;
		memcpy(t->mean, bd->mean, sizeof(t->mean));
		put_list(t, bd); /* L3 carries its list on the draft line */
		break;
	case B_ACCPOS:
		put_list(t, bd);
		break;
	default:
		break;
	}
}

/* An unprefixed line of an old build's block: its body, or NULL. */
static const char *bare_body(const char *s, const char *end)
{
	static const char *const labels[] = {"prompt eval time = ", "eval time = ",
					     "total time = "};

	for (size_t i = 0; i < 3; i++) {
		const char *hit = memmem(s, (size_t)(end - s), labels[i], strlen(labels[i]));
		if (hit && (hit == s || hit[-1] == ' ') &&
		    (i != 1 || hit - s < 7 || memcmp(hit - 7, "prompt ", 7) != 0))
			return hit;
	}
	return NULL;
}

/*
 * A draft (or acc per pos) line that does not parse: the block it belongs
 * to (the open one, or one it opens by its own slot prefix) is malformed.
 * An unprefixed one that follows no block's total time or prefix-only
 * line belongs to none.
 */
static void bad_draft(struct ss_llama_blocks *b, bool prefixed, long long slot, long long task,
		      const char *s, const char *hit, const char *why, struct ss_llama_task *out,
		      bool *done)
{
	if (!prefixed) {
		if (!b->open || !(b->bare || b->closing) || b->cur.has_draft)
			return;
	} else if (!b->open || !b->cur.has_ids || b->cur.slot != slot || b->cur.task != task ||
		   b->cur.has_draft) {
		close_block(b, out, done);
		open_block(b, true, slot, task, s, (size_t)(hit - s));
	}
	if (!b->cur.bad_draft)
		b->cur.bad_draft = why;
	b->cur.last_line = b->line;
}

enum ss_log_status ss_llama_blocks_feed(struct ss_llama_blocks *b, const char *s, size_t n,
					struct ss_llama_task *out, bool *done, const char **why)
{
	static const char slot_anchor[] = "slot print_timing: id";
	const char *end = s + n, *bodyp = NULL;
	long long slot = -1, task = 0;
	struct body bd;
	bool prefixed;

	*done = false;
	*why = NULL;
	b->line++;
	const char *hit = memmem(s, n, slot_anchor, sizeof(slot_anchor) - 1);
	const char *anchor = memmem(s, n, "draft acceptance", 16);
	if (hit && (!anchor || hit < anchor)) {
		prefixed = true;
		*why = slot_prefix(hit, end, &slot, &task, &bodyp);
		if (*why)
			return SS_LOG_BAD;
	} else if (anchor) {
		prefixed = false;
		bodyp = anchor;
	} else if (b->open && b->bare && (bodyp = bare_body(s, end)) != NULL) {
		prefixed = false;
	} else {
		/* any other line ends a block whose total time was seen */
		if (b->closing && n)
			close_block(b, out, done);
		return SS_LOG_SKIPPED;
	}
	memset(&bd, 0, offsetof(struct body, rate));
	*why = body_parse(bodyp, end, &bd);
	if (*why) {
		/* SPEC 13: a draft line that does not parse makes its block malformed */
		if (bd.kind == B_DRAFT || bd.kind == B_ACCPOS)
			bad_draft(b, prefixed, slot, task, s, hit, *why, out, done);
		return SS_LOG_BAD;
	}
	if (bd.kind == B_OTHER)
		return SS_LOG_SKIPPED;
	if (!prefixed && !(b->open && (b->bare || b->closing))) {
		*why = "a draft line outside any print_timing block";
		return SS_LOG_BAD;
	}
	if (!prefixed && has_part(&b->cur, bd.kind)) {
		/* the block has it already: this line belongs to no block */
		close_block(b, out, done);
		if (bd.kind != B_DRAFT)
			return SS_LOG_SKIPPED;
		*why = "a draft line outside any print_timing block";
		return SS_LOG_BAD;
	}
	bool same = b->open && (!prefixed || (b->cur.has_ids && b->cur.slot == slot &&
					      b->cur.task == task));
	if (same && bd.kind == B_EMPTY) {
		/* an old build's prefix-only line: the unprefixed lines follow */
		b->bare = true;
	} else if (!same || has_part(&b->cur, bd.kind)) {
		close_block(b, out, done);
		open_block(b, true, slot, task, s, (size_t)(hit - s));
		b->bare = bd.kind == B_EMPTY;
	}
	put(&b->cur, &bd);
	b->cur.last_line = b->line;
	if (bd.kind == B_TOTAL) {
		b->closing = true;
		b->cur.total_line = b->line;
	}
	return SS_LOG_OK;
}

bool ss_llama_blocks_finish(struct ss_llama_blocks *b, struct ss_llama_task *out)
{
	bool done = false;

	close_block(b, out, &done);
	return done;
}

bool ss_log_steps_from_mean(uint64_t a, const char *mean, uint64_t *steps)
{
	const char *m = mean;

	while (*m == ' ')
		m++;
	double v = strtod(m, NULL);
	size_t mlen = strlen(m);
	if (!a || !mlen || a > ((uint64_t)1 << 53) || !(v - 0.005 - 1.0 > 0.0))
		return false;
	double lo = floor((double)a / (v + 0.005 - 1.0)) - 3.0;
	double hi = ceil((double)a / (v - 0.005 - 1.0)) + 3.0;
	if (lo < 1.0)
		lo = 1.0;
	uint64_t found = 0, nfound = 0;
	for (double s = lo; s <= hi; s += 1.0) {
		bool ok = ss_log_prints_as(1.0 + (double)a / s, 2, m, mlen);
		if (ok) {
			if (++nfound == 2)
				return false;
			found = (uint64_t)s;
		} else if (nfound) {
			break; /* the matches are one run of integers */
		} else if (s - lo > 1e6) {
			return false;
		}
	}
	if (!nfound)
		return false;
	*steps = found;
	return true;
}

/* The one count n in [0, s] with `%.3f` of n/s printing the rate. */
static bool count_at(uint16_t rate, uint64_t s, uint64_t *n)
{
	char txt[8];
	double c = floor((double)rate * (double)s / 1000.0 + 0.5);
	int hits = 0;

	snprintf(txt, sizeof(txt), "%u.%03u", rate / 1000u, rate % 1000u);
	for (double x = c - 2.0; x <= c + 2.0; x += 1.0) {
		if (x < 0.0 || x > (double)s)
			continue;
		if (ss_log_prints_as(x / (double)s, 3, txt, strlen(txt))) {
			hits++;
			*n = (uint64_t)x;
		}
	}
	return hits == 1;
}

static void derive_hist(struct ss_llama_task *t)
{
	uint64_t n[SS_LOG_MAX_POS], sum = 0;

	if (!t->k || !t->steps_known || t->steps > 1000)
		return;
	for (size_t i = 0; i < t->k; i++) {
		if (!count_at(t->rate[i], t->steps, &n[i]))
			return;
		if (i && n[i] > n[i - 1])
			return;
		sum += n[i];
	}
	if (sum != t->accepted)
		return;
	t->hist[0] = t->steps - n[0];
	for (size_t j = 1; j < t->k; j++)
		t->hist[j] = n[j - 1] - n[j];
	t->hist[t->k] = n[t->k - 1];
	t->hist_known = true;
}

void ss_llama_task_derive(struct ss_llama_task *t)
{
	t->malformed = t->steps_known = t->hist_known = t->has_itl = false;
	if (t->has_eval && t->eval_tokens >= 2) {
		t->has_itl = true;
		t->itl_ms = t->eval_ms / (double)(t->eval_tokens - 1);
	}
	if (!t->has_draft)
		return;
	if (t->accepted > t->generated) {
		t->malformed = true;
		return;
	}
	if (t->mean[0])
		t->steps_known = ss_log_steps_from_mean(t->accepted, t->mean, &t->steps);
	derive_hist(t);
}
