/*
 * server_cli.h - the command's side of SPEC 10: whether the run read a
 * server input, the server's results against the main results' per-engine
 * sums (reconciliation), and the values of the `--expect` server tags.
 *
 * Ownership: the caller owns the struct ss_server (made before the run,
 * fed by run/) and the results, released with ss_server_results_release().
 */
#ifndef SS_SERVER_CLI_H
#define SS_SERVER_CLI_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "analysis/expect.h"
#include "metrics/aggregate.h"
#include "server/bydir.h"
#include "server/server.h"
#include "util/msg.h"

/* Whether any input of the run was a server input (its key is then written). */
bool ss_cli_server_read(const struct ss_agg *a);

/* ss_server_finish() with the main results' sums and --draft-cost. false: out of memory. */
bool ss_cli_server_finish(struct ss_server *s, const struct ss_agg *a,
			  const struct ss_analysis_opts *o, struct ss_server_results *out);

/* Whether the server's results are per directory: --group-by dir alone (SPEC 10.7). */
bool ss_cli_server_by_dir(const struct ss_analysis_opts *o);

/*
 * After ss_cli_server_finish(): with --group-by dir alone, each
 * directory's results into `groups`, hung on r->groups; with other keys,
 * the note that only dir groups the server's results. false: out of
 * memory.
 */
bool ss_cli_server_groups(struct ss_server_bydir *d, const struct ss_analysis_opts *o,
			  struct ss_server_results *r, struct ss_server_groups *groups,
			  struct ss_msg *msg);

/* A server tag's value: the single family's that has one (none or several: absent). */
void ss_cli_server_expect_value(const struct ss_server_results *r, const struct ss_expect *e,
				bool *has, double *v);

#endif
