/*
 * expect.h - the gates of `--expect TAG OP VALUE` (SPEC 7.5).
 *
 * TAG is a metric tag of SPEC 3 (looked up in a table the caller passes,
 * so this stage needs no metric module) or `positionN` (N >= 1): the pooled
 * rate of draft position N of the largest k (7.1), a fraction in [0, 1] as
 * the JSON writes it; or one of the values of SPEC 7.8 and 7.11:
 * `window_min`, `window_last` (the windows' summary), `all_rejected_requests`,
 * `all_accepted_requests` (the outliers' counts). OP is one of >=, >, <=, <. VALUE is a finite decimal
 * number. Blanks around the three parts are allowed.
 *
 * Ownership: a parsed struct ss_expect borrows its text (the argument) and
 * holds no allocation; nothing here keeps state.
 */
#ifndef SS_EXPECT_H
#define SS_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ss_expect_op { SS_OP_GE = 0, SS_OP_GT, SS_OP_LE, SS_OP_LT };

/* What a gate reads besides a metric or a position (metric -1, position 0). */
enum ss_expect_value {
	SS_EXV_NONE = 0,
	SS_EXV_WINDOW_MIN,
	SS_EXV_WINDOW_LAST,
	SS_EXV_ALL_REJECTED,
	SS_EXV_ALL_ACCEPTED
};

struct ss_expect {
	const char *text;     /* the argument as given; borrowed */
	int metric;           /* index into the caller's tag table, or -1 */
	uint32_t position;    /* >= 1 when metric is -1 and `what` is SS_EXV_NONE */
	enum ss_expect_value what;
	enum ss_expect_op op;
	double value;
};

/*
 * Parse `text` against tags[0..ntags-1]. false on a usage error, with a
 * message (no "specscan: " prefix) in err.
 */
bool ss_expect_parse(const char *text, const char *const *tags, size_t ntags,
		     struct ss_expect *out, char *err, size_t errlen);

/*
 * Whether the expectation holds for a metric value; an absent value
 * (has = false) never holds. The caller passes 0 for an absent Zero-Step
 * Requests count, as SPEC 7.5 says.
 */
bool ss_expect_holds(const struct ss_expect *e, bool has, double v);

#endif
