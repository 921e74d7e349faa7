/*
 * server_cli.c - the server's counters in the command (SPEC 10): from the
 * aggregate to ss_server_finish(), and the server tags of --expect.
 */
#include "cli/server_cli.h"

#include <string.h>

bool ss_cli_server_read(const struct ss_agg *a)
{
	for (size_t i = 0; i < a->ninputs; i++)
		if (a->inputs[i].server || a->inputs[i].log)
			return true;
	return false;
}

bool ss_cli_server_finish(struct ss_server *s, const struct ss_agg *a,
			  const struct ss_analysis_opts *o, struct ss_server_results *out)
{
	struct ss_server_requests req[SS_ENGINE_COUNT];

	memset(req, 0, sizeof(req));
	for (int e = 1; e < SS_ENGINE_COUNT; e++) {
		const struct ss_engine_sums *es = &a->by_engine[e];

		/* sums of counts: never negative */
		req[e].present = es->present;
		req[e].steps = es->steps > 0 ? (unsigned __int128)es->steps : 0;
		req[e].accepted = es->accepted > 0 ? (unsigned __int128)es->accepted : 0;
		req[e].drafted = es->drafted > 0 ? (unsigned __int128)es->drafted : 0;
	}
	return ss_server_finish(s, req, o->has_cost, o->cost, out);
}

bool ss_cli_server_by_dir(const struct ss_analysis_opts *o)
{
	return o->group_by.n == 1 && o->group_by.keys[0].kind == SS_GK_DIR;
}

bool ss_cli_server_groups(struct ss_server_bydir *d, const struct ss_analysis_opts *o,
			  struct ss_server_results *r, struct ss_server_groups *groups,
			  struct ss_msg *msg)
{
	if (!ss_cli_server_by_dir(o)) {
		if (o->group_by.n)
			ss_msg_warn(msg, "the server's results are pooled: only --group-by dir "
				    "(alone) gives them per group (SPEC 10.7)");
		return true;
	}
	if (d->full)
		ss_msg_warn(msg, "--group-by dir: more than %d directories of server inputs; "
			    "the others' are pooled only", SS_SERVER_BYDIR_MAX);
	if (ss_server_bydir_bounded(d))
		ss_msg_warn(msg, "--group-by dir: the directories' server counters reached their "
			    "bound (the memory limit's share, which they share, see --memory-limit, "
			    "or a count's cap): some series, endpoints or intervals of the groups "
			    "are left out of them (the pooled results have their own)");
	if (!ss_server_groups_finish(d, o->has_cost, o->cost, o->compare, groups))
		return false;
	r->groups = groups;
	return true;
}

void ss_cli_server_expect_value(const struct ss_server_results *r, const struct ss_expect *e,
				bool *has, double *v)
{
	size_t n = 0;

	*has = false;
	*v = 0.0;
	for (size_t i = 0; r && i < r->nfamilies; i++) {
		const struct ss_server_family *f = &r->families[i];

		if (e->server == SS_EXPECT_SERVER_ACCEPTANCE_LENGTH && f->has_acceptance_length) {
			*v = f->acceptance_length;
			n++;
		} else if (e->server == SS_EXPECT_SERVER_RATE && f->has_rate) {
			*v = f->draft_acceptance_rate;
			n++;
		}
	}
	*has = n == 1;
	if (!*has)
		*v = 0.0;
}
