/*
 * timing.h - one request's timing (SPEC 11.1) and the per-request values
 * of SPEC 11.4's `reasoning` and `concurrency` keys, as pure functions of
 * what the engines and the artifact reader find.
 *
 * A records (or enriched) line gives its times as metrics, each a value
 * and a unit: ss_time_to_ms() converts one, ss_tokens_of() reads the
 * output length. A raw line gives `start_perf_ns` and the `perf_ns` of
 * each element: struct ss_raw_timer takes the elements one at a time, in
 * line order, in a few integers (whatever the order of the keys in the
 * line: the start may come after the elements), and ss_raw_timer_finish()
 * derives the times. ss_timing_of_raw() does the same over a list.
 *
 * Ownership: plain values; nothing here allocates or keeps a pointer.
 */
#ifndef SS_TIMING_H
#define SS_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The times of 11.1, in the order of 11.2's `timing` object. */
enum ss_time {
	SS_T_TTFT = 0, /* time_to_first_token */
	SS_T_ITL,      /* inter_token_latency */
	SS_T_LATENCY,  /* request_latency */
	SS_T_COUNT
};

/* "time_to_first_token", "inter_token_latency", "request_latency". */
extern const char *const ss_time_tags[SS_T_COUNT];

/* One request's timing; every time in ms, finite and >= 0. */
struct ss_timing {
	bool has[SS_T_COUNT];
	double ms[SS_T_COUNT];
	bool has_output;        /* output_sequence_length (records) or */
	int64_t output_tokens;  /* usage.completion_tokens (raw): c */
};

void ss_timing_clear(struct ss_timing *t);

/* Whether the request has any time (11.2's n counts these requests). */
static inline bool ss_timing_any(const struct ss_timing *t)
{
	return t->has[SS_T_TTFT] || t->has[SS_T_ITL] || t->has[SS_T_LATENCY];
}

/*
 * A metric's value V in unit U (`unit_len` bytes, not NUL-terminated) in
 * ms: U one of ns, us, ms, s, V finite and >= 0. false (absent) otherwise.
 */
bool ss_time_to_ms(double v, const char *unit, size_t unit_len, double *ms);

/*
 * An output length: V integral, >= 0 and below 2^63, U `tokens`. false
 * (absent) otherwise.
 */
bool ss_tokens_of(double v, const char *unit, size_t unit_len, int64_t *c);

/*
 * A raw line's timing, element by element. Feed every element of
 * `responses` in line order (has_perf false: its perf_ns is missing or not
 * an integer), and the line's start when it has one.
 */
struct ss_raw_timer {
	bool has_start;
	int64_t start;
	size_t elements;
	bool bad;                /* an element without an integer perf_ns */
	int64_t min_perf;        /* the earliest element */
	int64_t last_perf;       /* the last element, in line order */
	bool has_content;
	int64_t content_perf;    /* the first element with a content token */
	bool has_c;
	int64_t c;               /* the last completion_tokens seen */
};

void ss_raw_timer_init(struct ss_raw_timer *rt);
void ss_raw_timer_start(struct ss_raw_timer *rt, int64_t start_perf_ns);
/*
 * One element: its perf_ns, whether its text holds a content token (11.1:
 * a choice with a non-empty delta.content, delta.reasoning_content,
 * delta.reasoning, text or message.content), and the usage's
 * completion_tokens when the element has one (an integer >= 0).
 */
void ss_raw_timer_element(struct ss_raw_timer *rt, bool has_perf, int64_t perf_ns,
			  bool content, bool has_c, int64_t c);
/*
 * The timing of 11.1: latency = last perf_ns - start, TTFT = the first
 * content element's perf_ns - start (both ns / 10^6 in ms), c the last
 * completion_tokens, ITL = (latency - TTFT) / (c - 1) for c >= 2. No time
 * when the start is missing, an element has no integer perf_ns or one is
 * before the start.
 */
void ss_raw_timer_finish(const struct ss_raw_timer *rt, struct ss_timing *out);

/* One element of a raw line, for ss_timing_of_raw(). */
struct ss_raw_element {
	bool has_perf;
	int64_t perf_ns;
	bool content;
	bool has_c;
	int64_t c;
};

void ss_timing_of_raw(bool has_start, int64_t start_perf_ns, const struct ss_raw_element *e,
		      size_t n, struct ss_timing *out);

/*
 * ITL from the times in ms and c (AIPerf's definition): (latency - TTFT) /
 * (c - 1), set in t when t has both times, c >= 2 and the result is
 * finite and >= 0. Used for raw lines, whose ITL is not written.
 */
void ss_timing_derive_itl(struct ss_timing *t);

/*
 * SPEC 11.4's `reasoning` value: r = t / c bucketed up to quarters,
 * ceil(4r) / 4, as the number of quarters q (0..4; the value is q / 4).
 * Exact integer arithmetic (0.3 -> 2, 0 only for t = 0). false (null)
 * when t or c is unknown, c < 1, t < 0 or t > c.
 */
bool ss_reasoning_quarters(bool has_t, int64_t t, bool has_c, int64_t c, int *q);

/*
 * SPEC 11.4's `concurrency` value from the JSON number text of
 * input_config.loadgen.concurrency (`len` bytes): an integer literal (no
 * fraction, no exponent) >= 1 and <= 2^63-1. false (null) otherwise.
 */
bool ss_concurrency_of(const char *text, size_t len, int64_t *out);

#endif
