/*
 * expo.h - the Prometheus / OpenMetrics text reader (SPEC 10.1): the bytes
 * of one input, fed in pieces of any size, become snapshots of a struct
 * ss_server (server/server.h).
 *
 * The grammar is 10.1's: sample lines `NAME[{LABELS}] VALUE [TIMESTAMP]`
 * (label values with `\\`, `\"`, `\n` escapes, valid UTF-8, a trailing
 * comma allowed; integer millisecond timestamps; spaces or tabs between
 * fields), `# HELP` / `# TYPE` and other comments, `# EOF`, and specscan's
 * `# time: T`. A snapshot ends at `# EOF`, at a `# time:` line after a
 * sample, or just before a sample whose series already appeared in it.
 * Every other line is a bad line: counted and named in a message
 * (ss_server_bad), never a stop.
 *
 * Only what it must is kept: the unfinished line (at most max_line bytes),
 * the series seen in the open snapshot, and one page's series texts (the
 * "template"): a scrape loop repeats its page with new values, so a line
 * whose series text is the template's next one is not parsed again.
 * Everything the reader allocates it frees in ss_scrape_free().
 */
#ifndef SS_SERVER_EXPO_H
#define SS_SERVER_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/server.h"

/* The longest line read (longer ones are bad lines), unless the options say. */
#define SS_SCRAPE_MAX_LINE (1u << 20)

struct ss_scrape_opts {
	size_t max_line;  /* 0: SS_SCRAPE_MAX_LINE */
	bool no_template; /* parse every line in full (the fuzzer compares both ways) */
};

struct ss_scrape_stats {
	uint64_t lines;     /* lines read, the unfinished last one included */
	uint64_t bad_lines; /* bad lines and bad samples of this input */
	uint64_t snapshots;
	uint64_t samples;   /* sample lines, bad samples included */
};

struct ss_scrape;

/*
 * A reader of one input named `name` (copied; used in messages), giving
 * its snapshots to `srv` at `endpoint`. opts may be NULL. NULL when out
 * of memory.
 */
struct ss_scrape *ss_scrape_new(struct ss_server *srv, uint32_t endpoint, const char *name,
				const struct ss_scrape_opts *opts);
void ss_scrape_free(struct ss_scrape *sc);

/* The next n bytes of the input. false when out of memory (the input cannot go on). */
bool ss_scrape_feed(struct ss_scrape *sc, const void *data, size_t n);

/*
 * The end of the input: the last line (a sample or `# time:` line without
 * its line end is a bad line: the page was cut) and the open snapshot.
 * false when out of memory.
 */
bool ss_scrape_finish(struct ss_scrape *sc);

void ss_scrape_get_stats(const struct ss_scrape *sc, struct ss_scrape_stats *st);

#endif
