/*
 * fuzz_scrape.c - libFuzzer target: the exposition-text reader and the
 * window (SPEC 10.1-10.3) on arbitrary bytes.
 *
 * The first byte chooses the piece size the text is fed in, a small line
 * limit and a draft cost; the rest is the text. Oracles beyond "no crash,
 * no leak, no undefined behaviour":
 *  - the text read in those pieces with the template and read whole
 *    without it give the same results, counts and bad lines (the template
 *    is a shortcut, never another answer);
 *  - counts hold together: bad lines and samples within the lines,
 *    snapshots within the samples, resets within the snapshots;
 *  - a family's intervals add up to its window when every one of its
 *    processes has intervals and none started inside the window (SPEC
 *    10.3: intervals only for a process with three or more snapshots,
 *    the window over those with two; a process that started inside the
 *    window counts from 0, its intervals from its first snapshot);
 *  - a rebuilt histogram sums to the steps and its Σ j·H[j] to the
 *    accepted tokens; positions of a consistent family never rise.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/expo.h"
#include "server/keymap.h"
#include "server/server.h"
#include "util/buf.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const size_t pieces[8] = {1, 2, 3, 7, 13, 64, 4096, 0};

struct outcome {
	struct ss_scrape_stats st;
	struct ss_server_results r;
	struct ss_buf sum;
};

/* How many processes have intervals (listed process by process). */
static size_t interval_processes(const struct ss_server_family *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nintervals; i++)
		n += i == 0 || f->intervals[i].process != f->intervals[i - 1].process;
	return n;
}

static void check_family(const struct ss_server_family *f)
{
	CHECK(f->resets <= f->snapshots);
	if (f->nintervals && f->started_in_window == 0 && interval_processes(f) == f->processes) {
		unsigned __int128 s = 0, d = 0;
		__int128 a = 0;

		for (size_t i = 0; i < f->nintervals; i++) {
			s += f->intervals[i].steps;
			d += f->intervals[i].draft_tokens;
			a += f->intervals[i].accepted_tokens;
		}
		CHECK(s == f->steps && d == f->draft_tokens && a == f->accepted_tokens);
	}
	if (f->histogram) {
		unsigned __int128 s = 0, a = 0;

		for (size_t j = 0; j <= f->npositions; j++) {
			s += f->histogram[j];
			a += (unsigned __int128)j * f->histogram[j];
		}
		CHECK(s == f->steps);
		CHECK(f->accepted_tokens >= 0 && a == (unsigned __int128)f->accepted_tokens);
		CHECK(f->what_if != NULL);
	}
	if (f->has_consistent && f->consistent)
		for (size_t p = 1; p < f->npositions; p++)
			CHECK(f->positions[p].accepted <= f->positions[p - 1].accepted);
	/* SPEC 10.3: no derived value while a counter the row needs is missing */
	CHECK(f->has_acceptance_length == (f->steps > 0 && f->nmissing == 0));
	CHECK(f->started_in_window <= f->processes && f->nidle <= f->processes);
	CHECK(f->nprocess_names == f->processes);
	for (size_t i = 0; i < f->nintervals; i++)
		CHECK(f->intervals[i].process < f->nprocess_names);
	for (size_t i = 0; i < f->nidle; i++)
		CHECK(f->idle[i].process < f->nprocess_names);
}

static void add128(struct ss_buf *b, unsigned __int128 v)
{
	ss_buf_add_u64(b, (uint64_t)(v >> 64));
	ss_buf_addc(b, ':');
	ss_buf_add_u64(b, (uint64_t)v);
	ss_buf_addc(b, ' ');
}

/* Everything the results say, as text, to compare two reads. */
static void summarize(struct outcome *o)
{
	struct ss_buf *b = &o->sum;

	ss_buf_addf(b, "%llu %llu %llu %llu | %llu %llu %llu\n", (unsigned long long)o->st.lines,
		    (unsigned long long)o->st.bad_lines, (unsigned long long)o->st.snapshots,
		    (unsigned long long)o->st.samples, (unsigned long long)o->r.endpoints,
		    (unsigned long long)o->r.snapshots, (unsigned long long)o->r.bad_lines);
	for (size_t i = 0; i < o->r.nfamilies; i++) {
		const struct ss_server_family *f = &o->r.families[i];

		ss_buf_addf(b, "%s %s %llu %llu %llu %d%d%d %d%d %lld %lld ", f->row->counters,
			    ss_engine_name(f->row->engine), (unsigned long long)f->snapshots,
			    (unsigned long long)f->series, (unsigned long long)f->resets,
			    f->since_start, f->inexact, f->estimated, f->has_start, f->has_end,
			    (long long)f->start_ns, (long long)f->end_ns);
		add128(b, f->steps);
		add128(b, f->draft_tokens);
		add128(b, (unsigned __int128)f->accepted_tokens);
		ss_buf_addf(b, "%a %a %zu %d %d %zu %zu %u\n", f->acceptance_length,
			    f->draft_acceptance_rate, f->npositions, f->consistent,
			    f->histogram != NULL, f->nintervals, f->ngauges, f->suggested_k);
		for (size_t p = 0; p < f->npositions; p++) {
			add128(b, f->positions[p].accepted);
			add128(b, f->positions[p].drafted);
		}
		for (size_t g = 0; g < f->ngauges; g++)
			ss_buf_addf(b, "%a ", f->gauges[g].value);
		for (size_t k = 0; k < f->nintervals; k++) {
			ss_buf_addf(b, "%d%d %lld %lld ", f->intervals[k].has_start,
				    f->intervals[k].has_end, (long long)f->intervals[k].start_ns,
				    (long long)f->intervals[k].end_ns);
			add128(b, f->intervals[k].steps);
		}
		ss_buf_addc(b, '\n');
	}
}

static void read_once(const char *text, size_t n, size_t piece, bool no_template, size_t max_line,
		      bool has_cost, double cost, struct outcome *o)
{
	struct ss_server *s = ss_server_new(NULL);
	struct ss_scrape_opts opts = {max_line, no_template};
	struct ss_scrape *sc;
	uint32_t ep;

	memset(o, 0, sizeof(*o));
	ss_buf_init(&o->sum);
	CHECK(s != NULL);
	ep = ss_server_endpoint(s, "", 0);
	CHECK(ep == 0);
	sc = ss_scrape_new(s, ep, "fuzz", &opts);
	CHECK(sc != NULL);
	if (piece == 0)
		piece = n ? n : 1;
	for (size_t at = 0; at < n; at += piece)
		CHECK(ss_scrape_feed(sc, text + at, n - at < piece ? n - at : piece));
	CHECK(ss_scrape_finish(sc));
	ss_scrape_get_stats(sc, &o->st);
	CHECK(ss_server_finish(s, NULL, has_cost, cost, &o->r));
	ss_scrape_free(sc);
	ss_server_free(s);
	summarize(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome a, b;
	size_t piece, max_line;
	bool has_cost;
	double cost;

	/* the same hash key in every process: a fixed -seed replays the same inputs */
	ss_keymap_fixed_key_for_tests();
	if (size < 1)
		return 0;
	piece = pieces[data[0] & 7];
	max_line = (data[0] & 8) ? 64 : 0;
	has_cost = data[0] & 16;
	cost = (double)(data[0] >> 5) / 8.0;
	read_once((const char *)data + 1, size - 1, piece, false, max_line, has_cost, cost, &a);
	read_once((const char *)data + 1, size - 1, 0, true, max_line, has_cost, cost, &b);
	CHECK(a.sum.len == b.sum.len && memcmp(a.sum.data, b.sum.data, a.sum.len) == 0);
	CHECK(a.st.bad_lines <= a.st.lines && a.st.samples <= a.st.lines);
	CHECK(a.st.snapshots <= a.st.samples);
	CHECK(a.r.bad_lines == a.st.bad_lines && a.r.snapshots == a.st.snapshots);
	/* endpoints counts the processes (SPEC 10.3): one or more when there are snapshots */
	CHECK((a.r.endpoints > 0) == (a.st.snapshots > 0) && a.r.endpoints <= a.st.snapshots);
	for (size_t i = 0; i < a.r.nfamilies; i++)
		check_family(&a.r.families[i]);
	ss_server_results_release(&a.r);
	ss_server_results_release(&b.r);
	ss_buf_release(&a.sum);
	ss_buf_release(&b.sum);
	return 0;
}
