/*
 * options_analysis.c - the options of SPEC 7.7 (--positions, --draft-cost,
 * --ci, --bootstrap, --seed, --group-by, --compare, --expect, --windows,
 * --outliers, --definitions): their
 * values and the checks between them. options.c's table lists them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "metrics/values.h"
#include "util/grow.h"

static bool usage(FILE *err, const char *msg)
{
	fprintf(err, "specscan: %s\nTry 'specscan --help' for more information.\n", msg);
	return false;
}

/* A plain decimal number (no hex, inf or nan), the whole text. */
static bool parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !errno && *end == '\0' && end != s && isfinite(*out);
}

/* An unsigned decimal integer, the whole text, at most max. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

bool ss_options_analysis(struct ss_analysis_opts *a, int id, const char *arg, FILE *err)
{
	char msg[512];
	uint64_t u;

	switch (id) {
	case SS_OPT_POSITIONS:
		a->positions = true;
		return true;
	case SS_OPT_DRAFT_COST:
		if (!parse_number(arg, &a->cost) || a->cost < 0) {
			snprintf(msg, sizeof(msg), "invalid draft cost '%s' (a number >= 0)", arg);
			return usage(err, msg);
		}
		a->has_cost = a->positions = true;
		return true;
	case SS_OPT_CI:
		if (!parse_number(arg, &a->level) || !(a->level > 0 && a->level < 100)) {
			snprintf(msg, sizeof(msg), "invalid level '%s' for --ci (a number between 0 and 100, e.g. 95)", arg);
			return usage(err, msg);
		}
		a->ci = true;
		return true;
	case SS_OPT_BOOTSTRAP:
		if (!parse_u64(arg, SS_BOOT_MAX_RESAMPLES, &u) || u < 1) {
			snprintf(msg, sizeof(msg), "invalid resample count '%s' for --bootstrap (1 to 1000000)", arg);
			return usage(err, msg);
		}
		a->resamples = (uint32_t)u;
		return true;
	case SS_OPT_SEED:
		if (!parse_u64(arg, UINT64_MAX, &a->seed)) {
			snprintf(msg, sizeof(msg), "invalid seed '%s' (0 to 18446744073709551615)", arg);
			return usage(err, msg);
		}
		return true;
	case SS_OPT_GROUP_BY:
		ss_group_spec_release(&a->group_by);
		switch (ss_group_spec_parse(arg, &a->group_by, msg, sizeof(msg))) {
		case SS_GP_OK:
			return true;
		case SS_GP_NOMEM:
			fprintf(err, "specscan: out of memory\n");
			return false;
		case SS_GP_USAGE:
			break;
		}
		return usage(err, msg);
	case SS_OPT_COMPARE:
		a->compare = arg;
		return true;
	case SS_OPT_WINDOWS:
		switch (ss_duration_parse(arg, &a->window_ns, &a->window_unit)) {
		case SS_DUR_OK:
			a->windows = true;
			a->window_text = arg;
			return true;
		case SS_DUR_ZERO:
			snprintf(msg, sizeof(msg), "invalid duration '%s' for --windows (it must be at least 1)", arg);
			break;
		case SS_DUR_OVERFLOW:
			snprintf(msg, sizeof(msg), "duration '%s' for --windows is too long (at most 2^63-1 ns, about 292 years)", arg);
			break;
		case SS_DUR_SYNTAX:
			snprintf(msg, sizeof(msg), "invalid duration '%s' for --windows (N seconds, or Ns, Nm, Nh; e.g. 60 or 5m)", arg);
			break;
		}
		return usage(err, msg);
	case SS_OPT_OUTLIERS:
		if (!parse_u64(arg, SS_OUTLIERS_MAX, &u) || u < 1) {
			snprintf(msg, sizeof(msg), "invalid count '%s' for --outliers (1 to 1000)", arg);
			return usage(err, msg);
		}
		a->outliers = (size_t)u;
		return true;
	case SS_OPT_DEFINITIONS:
		a->definitions = true;
		return true;
	case SS_OPT_SPEEDUP:
		a->speedup = true;
		return true;
	case SS_OPT_EXPECT: {
		const char *tags[SS_M_COUNT];

		if (!SS_ALLOC_GROW(a->expects, a->nexpects + 1, a->expects_cap)) {
			fprintf(err, "specscan: out of memory\n");
			return false;
		}
		for (int m = 0; m < SS_M_COUNT; m++)
			tags[m] = ss_metric_table[m].tag;
		if (!ss_expect_parse(arg, tags, SS_M_COUNT, &a->expects[a->nexpects], msg, sizeof(msg)))
			return usage(err, msg);
		a->nexpects++;
		return true;
	}
	}
	return usage(err, "unknown analysis option");
}

bool ss_options_analysis_check(const struct ss_analysis_opts *a, FILE *err)
{
	if (a->compare && a->group_by.n == 0)
		return usage(err, "--compare needs --group-by");
	return true;
}
