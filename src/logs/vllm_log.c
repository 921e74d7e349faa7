/*
 * vllm_log.c - vLLM's interval line, read by key, in any order (SPEC 12.2).
 *
 * The tail is items separated by ", ", each "KEY: VALUE"; the position
 * list's elements after the first follow as tokens of their own, and an
 * unknown item's value may hold ", " too (forks print lists), so a token
 * that is not "KEY: ..." continues the item before it when that item is
 * the list or an unknown one, and is a bad line otherwise.
 */
#include <stddef.h>
#include <string.h>

#include "logs/vllm_log.h"

enum item_key {
	K_ACCEPTED,      /* Accepted: INT tokens */
	K_NACCEPTED,     /* Number of accepted tokens: INT */
	K_DRAFTED,       /* Drafted: INT tokens */
	K_NDRAFT,        /* Number of draft tokens: INT */
	K_MEAN,          /* Mean acceptance length: F2 | nan */
	K_LIST,          /* Per-position acceptance rate: [F3] */
	K_RATE,          /* (Avg )Draft acceptance rate: F1% | nan% | F3 | nan */
	K_IGNORED,       /* the throughputs */
	K_EFFICIENCY,    /* System efficiency: the V0 engine */
	K_UNKNOWN
};

static const struct {
	const char *key;
	enum item_key k;
} keys[] = {
	{"Accepted", K_ACCEPTED},
	{"Number of accepted tokens", K_NACCEPTED},
	{"Drafted", K_DRAFTED},
	{"Number of draft tokens", K_NDRAFT},
	{"Mean acceptance length", K_MEAN},
	{"Per-position acceptance rate", K_LIST},
	{"Draft acceptance rate", K_RATE},
	{"Avg Draft acceptance rate", K_RATE},
	{"Accepted throughput", K_IGNORED},
	{"Drafted throughput", K_IGNORED},
	{"System efficiency", K_EFFICIENCY},
};

static bool key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == ' ' || c == '-' || c == '_' || c == '(' || c == ')' || c == '/' || c == '.' ||
	       c == '#' || c == '%';
}

/* The key's length when the token is "KEY: VALUE" (0 when it is not). */
static size_t item_key_len(const char *p, const char *end)
{
	if (p >= end || !((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return 0;
	for (const char *q = p; q + 1 < end; q++) {
		if (q[0] == ':' && q[1] == ' ')
			return (size_t)(q - p);
		if (!key_char(*q))
			return 0;
	}
	/* "KEY:" at the very end: an empty value (an empty list) */
	if (end - p >= 2 && end[-1] == ':') {
		for (const char *q = p; q < end - 1; q++)
			if (!key_char(*q))
				return 0;
		return (size_t)(end - 1 - p);
	}
	return 0;
}

static enum item_key lookup(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == n && memcmp(keys[i].key, p, n) == 0)
			return keys[i].k;
	return K_UNKNOWN;
}

/* A whole value that is INT, with `suffix` after it when given. */
static const char *read_count(const char *v, const char *end, const char *suffix, uint64_t *out)
{
	bool toolong = false;
	size_t l = ss_log_int(v, end, out, &toolong);

	if (toolong)
		return "a count with more than 18 digits";
	const char *q = v + l;
	if (!l || (suffix && !ss_log_eat(&q, end, suffix)) || q != end)
		return "a count that is not an integer";
	return NULL;
}

/* A whole value that is Fd (or "nan" when nan_ok), then `suffix`. */
static bool read_fixed(const char *v, const char *end, int d, const char *suffix, bool *toolong)
{
	const char *q = v;
	size_t l = ss_log_fixed(v, end, d, toolong);

	if (l)
		q += l;
	else if (!ss_log_eat(&q, end, "nan"))
		return false;
	return (!suffix || ss_log_eat(&q, end, suffix)) && q == end;
}

/* One position rate (F3, at most 1.000) appended to the list. */
static const char *add_rate(struct ss_vllm_line *o, const char *v, const char *end)
{
	bool toolong = false;
	size_t l = ss_log_fixed(v, end, 3, &toolong);

	if (toolong)
		return "a position rate with more than 18 digits";
	if (!l || v + l != end)
		return "a position rate that is not a number with three decimals";
	if (l != 5 || v[0] > '1' || (v[0] == '1' && memcmp(v + 2, "000", 3) != 0))
		return "a position rate above 1";
	if (o->k == SS_LOG_MAX_POS)
		return "a position list longer than 256";
	o->rate[o->k++] = (uint16_t)((v[0] - '0') * 1000 + (v[2] - '0') * 100 +
				     (v[3] - '0') * 10 + (v[4] - '0'));
	return NULL;
}

struct seen {
	bool a, d, mean, list, rate, eff;
};

/* One "KEY: VALUE" item; *mode tells what a bare token after it extends. */
static const char *item(struct ss_vllm_line *o, struct seen *s, enum item_key k, const char *v,
			const char *end, enum item_key *mode)
{
	bool toolong = false, *flag = NULL;
	const char *why = NULL;

	*mode = k;
	switch (k) {
	case K_ACCEPTED:
	case K_NACCEPTED:
		flag = &s->a;
		why = read_count(v, end, k == K_ACCEPTED ? " tokens" : NULL, &o->accepted);
		break;
	case K_DRAFTED:
	case K_NDRAFT:
		flag = &s->d;
		why = read_count(v, end, k == K_DRAFTED ? " tokens" : NULL, &o->drafted);
		break;
	case K_MEAN: {
		size_t l = (size_t)(end - v);
		flag = &s->mean;
		if (l >= sizeof(o->mean) || !read_fixed(v, end, 2, NULL, &toolong)) {
			why = "a mean acceptance length that is not a number with two decimals";
			break;
		}
		o->has_mean = true;
		memcpy(o->mean, v, l);
		o->mean[l] = '\0';
		break;
	}
	case K_LIST:
		flag = &s->list;
		o->has_list = true;
		if (v != end)
			why = add_rate(o, v, end);
		else
			*mode = K_IGNORED; /* an empty list has no elements after it */
		break;
	case K_RATE:
		flag = &s->rate;
		if (!read_fixed(v, end, 1, "%", &toolong) && !read_fixed(v, end, 3, NULL, &toolong))
			why = "a draft acceptance rate that is not a percentage or a rate";
		break;
	case K_EFFICIENCY:
		flag = &s->eff;
		if (!read_fixed(v, end, 3, NULL, &toolong))
			why = "a system efficiency that is not a number with three decimals";
		break;
	case K_IGNORED:
		break;
	case K_UNKNOWN:
		o->unknown_items++;
		break;
	}
	if (toolong && why)
		why = "a number with more than 18 digits";
	if (!why && flag) {
		if (*flag)
			why = "an item given twice";
		*flag = true;
	}
	return why;
}

static void find_steps(struct ss_vllm_line *o)
{
	if (!o->k || !o->drafted || o->drafted % o->k)
		return;
	uint64_t s = o->drafted / o->k;
	if (o->has_mean &&
	    !ss_log_prints_as(1.0 + (double)o->accepted / (double)s, 2, o->mean, strlen(o->mean)))
		return;
	o->steps = s;
	o->steps_known = true;
}

static enum ss_log_status bad(struct ss_vllm_line *o, const char *why)
{
	o->why = why;
	return SS_LOG_BAD;
}

enum ss_log_status ss_vllm_line_parse(const char *tail, size_t n, struct ss_vllm_line *o)
{
	const char *end = tail + n;
	struct seen s = {0};
	enum item_key mode = K_UNKNOWN;
	bool first = true;

	/* the rates are written as the list grows: clear the rest only */
	memset(o, 0, offsetof(struct ss_vllm_line, rate));
	o->unknown_items = 0;
	o->steps_known = false;
	o->steps = 0;
	o->why = NULL;
	if (end - tail >= 2 && end[-2] == ',' && end[-1] == ' ')
		end -= 2;
	else if (end > tail && end[-1] == ',')
		end--;
	else if (end > tail && end[-1] == '.' && memmem(tail, n, "System efficiency: ", 19))
		end--;
	if (end == tail)
		return bad(o, "no items");
	for (const char *p = tail; p < end;) {
		const char *t_end = memmem(p, (size_t)(end - p), ", ", 2);
		if (!t_end)
			t_end = end;
		size_t kl = item_key_len(p, t_end);
		const char *why;
		if (kl) {
			const char *v = p + kl + 2 > t_end ? t_end : p + kl + 2;
			why = item(o, &s, lookup(p, kl), v, t_end, &mode);
		} else if (!first && mode == K_LIST) {
			why = add_rate(o, p, t_end);
		} else if (!first && mode == K_UNKNOWN) {
			why = NULL;
		} else {
			why = "an item that is not KEY: VALUE";
		}
		if (why)
			return bad(o, why);
		first = false;
		p = t_end == end ? end : t_end + 2;
		if (p == end && t_end != end)
			return bad(o, "an empty item");
	}
	if (s.eff) {
		o->why = "vLLM V0 engine line (cumulative counts since the engine started): "
			 "not used";
		return SS_LOG_REFUSED;
	}
	if (!s.a)
		return bad(o, "no accepted-token count");
	if (!s.d)
		return bad(o, "no draft-token count");
	if (o->accepted > o->drafted)
		return bad(o, "more accepted tokens than drafted");
	find_steps(o);
	return SS_LOG_OK;
}

void ss_vllm_tally_init(struct ss_vllm_tally *t)
{
	memset(t, 0, sizeof(*t));
}

void ss_vllm_tally_add(struct ss_vllm_tally *t, const struct ss_vllm_line *l)
{
	t->lines++;
	t->unknown_items += l->unknown_items;
	if (!l->drafted)
		return; /* speculation off: adds nothing */
	t->accepted += l->accepted;
	t->drafted += l->drafted;
	if (!l->steps_known) {
		t->unpinned++;
		return;
	}
	t->steps += l->steps;
	if (l->k > t->k)
		t->k = l->k;
	for (size_t i = 0; i < l->k; i++)
		t->pos_weighted[i] += (unsigned __int128)l->rate[i] * l->steps;
}

bool ss_vllm_tally_rate(const struct ss_vllm_tally *t, size_t i, double *rate)
{
	if (!t->steps || i >= t->k)
		return false;
	*rate = (double)t->pos_weighted[i] / ((double)t->steps * 1000.0);
	return true;
}
