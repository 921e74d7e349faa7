/*
 * windows.h - acceptance over time (SPEC 7.8, 7.13): the DURATION of
 * --windows, and the windows folded from the aggregate's timeline
 * (metrics/timeline.h).
 *
 * Window w holds the points with ⌊(t − t0) / D⌋ = w, t0 the smallest time;
 * every window from 0 to the last is listed, empty ones too. Sums are
 * taken over the points in input order, so the result does not depend on
 * the thread count.
 *
 * Ownership: a struct ss_windows owns its window array until
 * ss_windows_release(); it borrows nothing from the timeline.
 */
#ifndef SS_WINDOWS_H
#define SS_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/timeline.h"

/* SPEC 7.8: at most this many windows. */
#define SS_WINDOWS_MAX 100000

enum ss_dur_status { SS_DUR_OK = 0, SS_DUR_SYNTAX, SS_DUR_ZERO, SS_DUR_OVERFLOW };

/*
 * Parse DURATION: ASCII digits (N >= 1) and an optional unit s, m or h
 * (seconds without one). *ns is the duration in ns (at most 2^63 - 1),
 * *unit the unit letter ('s' when none).
 */
enum ss_dur_status ss_duration_parse(const char *text, int64_t *ns, char *unit);

struct ss_window {
	uint64_t requests;
	__int128 steps, accepted, drafted;
	double al_sum;            /* of the records' acceptance lengths, input order */
	uint64_t al_n;            /* the records that have one */
	bool has_al, has_dar, has_mean;
	double acceptance_length;      /* 1 + accepted / steps */
	double draft_acceptance_rate;  /* accepted / drafted x 100 */
	double mean_acceptance_length; /* al_sum / al_n */
};

struct ss_windows {
	int64_t duration_ns;
	bool timed;               /* some point: t0 and the windows exist */
	int64_t t0_ns;
	uint64_t untimed;
	struct ss_window *w;      /* nwin of them; owned */
	size_t nwin;
	bool has_summary;         /* some window has steps */
	double min, max, first, last;
	size_t min_window;        /* the earliest window holding the minimum */
	uint64_t suggest_s;       /* SS_WIN_TOO_MANY: the smallest whole seconds that fit */
};

enum ss_win_status { SS_WIN_OK = 0, SS_WIN_NOMEM, SS_WIN_TOO_MANY };

/*
 * Fold the timeline into windows of duration_ns. SS_WIN_TOO_MANY: more
 * than SS_WINDOWS_MAX windows (a usage error; `suggest_s` names the
 * smallest duration in seconds that fits, `nwin` how many windows the
 * duration given would make).
 */
enum ss_win_status ss_windows_compute(struct ss_windows *out, const struct ss_timeline *tl,
				      int64_t duration_ns);
void ss_windows_release(struct ss_windows *w);

#endif
