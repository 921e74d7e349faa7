/*
 * server_samples.h - helpers of the server stage's unit tests: samples
 * written as "name{k=v,k=v} value" (no quotes, no escapes: the reader's
 * grammar has its own tests) put through ss_server_sample(), snapshots of
 * a list of them, and a server with its unnamed endpoint. Included by one
 * test file each (static functions).
 */
#ifndef SERVER_SAMPLES_H
#define SERVER_SAMPLES_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "server/server.h"

#define assert_double_is(x, y) assert_true((x) == (y))
#define assert_u128(x, y) assert_true((x) == (unsigned __int128)(y))
#define assert_i128(x, y) assert_true((x) == (__int128)(y))

/*
 * One sample written as "name{k=v,k=v} value" (no quotes, no escapes: the
 * reader's grammar has its own tests). Labels point into a static copy.
 */
static enum ss_server_status put_sample(struct ss_server *s, const char *text)
{
	static char buf[512];
	struct ss_server_label labels[16];
	size_t n = 0;
	char *name = buf, *lab, *val, *end;
	const char *reason;
	enum ss_server_status st;

	snprintf(buf, sizeof(buf), "%s", text);
	val = strrchr(buf, ' ');
	assert_non_null(val);
	*val++ = '\0';
	lab = strchr(buf, '{');
	if (lab) {
		*lab++ = '\0';
		end = strchr(lab, '}');
		assert_non_null(end);
		*end = '\0';
		while (*lab) {
			char *eq = strchr(lab, '='), *comma;

			assert_non_null(eq);
			*eq = '\0';
			comma = strchr(eq + 1, ',');
			if (comma)
				*comma = '\0';
			labels[n++] = (struct ss_server_label){lab, strlen(lab), eq + 1, strlen(eq + 1)};
			lab = comma ? comma + 1 : eq + 1 + strlen(eq + 1);
		}
	}
	st = ss_server_sample(s, name, strlen(name), labels, n, val, strlen(val), &reason);
	if (st == SS_SERVER_BAD)
		assert_non_null(reason);
	return st;
}

/* A snapshot of the NULL-ended samples, each expected to be kept or ignored. */
static void snap_at(struct ss_server *s, uint32_t ep, enum ss_server_source src, unsigned flags,
		    bool has_time, int64_t t, ...)
{
	va_list ap;
	const char *text;

	assert_true(ss_server_begin(s, ep, src, flags));
	va_start(ap, t);
	while ((text = va_arg(ap, const char *)) != NULL) {
		enum ss_server_status st = put_sample(s, text);

		assert_true(st == SS_SERVER_KEPT || st == SS_SERVER_IGNORED);
	}
	va_end(ap);
	ss_server_end(s, has_time, t);
}

#define SNAP(s, ...) snap_at((s), 0, SS_SRC_PROMETHEUS, 0, false, 0, __VA_ARGS__, NULL)

static struct ss_server *new_server(void)
{
	struct ss_server *s = ss_server_new(NULL);

	assert_non_null(s);
	assert_int_equal(ss_server_endpoint(s, "", 0), 0);
	return s;
}

static const struct ss_server_family *finish(struct ss_server *s, struct ss_server_results *r,
					      size_t nfam)
{
	assert_true(ss_server_finish(s, NULL, false, 0.0, r));
	assert_int_equal(r->nfamilies, nfam);
	return nfam ? &r->families[0] : NULL;
}

#endif
