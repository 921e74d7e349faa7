/*
 * bydir.h - the server's results per directory (SPEC 10.7, `--group-by
 * dir` alone): one struct ss_server per `dir` value (util/text.h's
 * ss_name_dir of the input's name), each fed the same snapshots as the
 * pooled state but only its own directory's, so each computes 10.3's
 * window from its group's snapshots alone. The feed (feed.h) does the
 * feeding; the window code is the pooled state's, unchanged.
 *
 * Ownership: a struct ss_server_bydir owns its directories' names and
 * states until ss_server_bydir_release(); the results own their rows
 * (the names copied) until ss_server_groups_release().
 */
#ifndef SS_SERVER_BYDIR_H
#define SS_SERVER_BYDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/server.h"

/* Directories kept at most; the inputs of more are pooled only (said once). */
#define SS_SERVER_BYDIR_MAX 1000

struct ss_server_bydir_row {
	char *dir;               /* owned, NUL-terminated */
	size_t len;
	struct ss_server *srv;   /* owned */
};

struct ss_server_bydir {
	struct ss_server_bydir_row *rows;
	size_t n, cap;
	uint64_t budget;         /* all the states' together (ss_server_share_budget) */
	uint64_t charged;        /* what they have taken of it */
	bool full;               /* SS_SERVER_BYDIR_MAX was reached */
};

void ss_server_bydir_init(struct ss_server_bydir *d, uint64_t budget);
void ss_server_bydir_release(struct ss_server_bydir *d);

/*
 * The state of the directory of the input named `name`, made when new
 * (with no message context: the pooled state tells bad lines once).
 * NULL when out of memory (*nomem) or past SS_SERVER_BYDIR_MAX.
 */
struct ss_server *ss_server_bydir_of(struct ss_server_bydir *d, const char *name, bool *nomem);

/* Whether a directory's state reached a bound (the shared budget, a count's cap). */
bool ss_server_bydir_bounded(const struct ss_server_bydir *d);

/* One directory's results. */
struct ss_server_group {
	char *dir;                        /* owned */
	size_t len;
	struct ss_server_results res;     /* owned */
};

/* The per-directory results, in ascending byte order of the names. */
struct ss_server_groups {
	struct ss_server_group *rows;     /* owned */
	size_t n;
	bool has_baseline;                /* --compare named one of them */
	size_t baseline;
};

/*
 * Finish every directory's state (no reconciliation: it stays on the
 * pooled families) into `out`, sorted; with `compare` (NULL: none), the
 * row whose name it is, a trailing '/' ignored. false: out of memory.
 */
bool ss_server_groups_finish(struct ss_server_bydir *d, bool has_cost, double cost,
			     const char *compare, struct ss_server_groups *out);
void ss_server_groups_release(struct ss_server_groups *g);

#endif
