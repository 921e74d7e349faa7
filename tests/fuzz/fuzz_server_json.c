/*
 * fuzz_server_json.c - libFuzzer target: SPEC 10.1's JSON shapes
 * (server/server_json.h) and the window on arbitrary bytes.
 *
 * The first byte chooses the reading: the rest as JSONL lines, each told
 * by ss_server_json_shape() and fed when it is a server shape; as AIPerf's
 * JSON document; or as one line fed as every shape in turn (a caller that
 * names the wrong shape must get bad lines, never a crash). Oracles beyond
 * "no crash, no leak, no undefined behaviour":
 *  - the shape of a text is a pure function: asked twice, the same, and
 *    the same when read from a parser the text is open on
 *    (ss_server_json_shape_open(), as the run reads it from the
 *    request's document) whenever that can tell it;
 *  - nothing fails but for memory, and the snapshots the calls say they
 *    gave are the server's;
 *  - a family's figures hold together: a rebuilt histogram sums to the
 *    steps and its Σ j·H[j] to the accepted tokens, positions of a
 *    consistent family never rise, an acceptance length exactly when
 *    there are steps, resets within the snapshots.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "server/keymap.h"
#include "server/server.h"
#include "server/server_json.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_family(const struct ss_server_family *f)
{
	CHECK(f->resets <= f->snapshots);
	if (f->histogram) {
		unsigned __int128 s = 0, a = 0;

		for (size_t j = 0; j <= f->npositions; j++) {
			s += f->histogram[j];
			a += (unsigned __int128)j * f->histogram[j];
		}
		CHECK(s == f->steps);
		CHECK(f->accepted_tokens >= 0 && a == (unsigned __int128)f->accepted_tokens);
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

/* A copy of text[0..n) with the seam's padding (NULL only when out of memory). */
static char *padded(const char *text, size_t n)
{
	char *p = malloc(n + SSJ_PADDING);

	if (!p)
		return NULL;
	memcpy(p, text, n);
	memset(p + n, ' ', SSJ_PADDING);
	return p;
}

static uint64_t feed_line(struct ss_server *s, const char *text, size_t n, uint64_t line,
			  int forced)
{
	char *p = padded(text, n);
	struct ssj_parser *ps = ssj_parser_new();
	enum ss_server_shape sh, open_sh;
	uint64_t got = 0, all = 0;

	CHECK(p != NULL && ps != NULL);
	sh = ss_server_json_shape(p, n);
	CHECK(ss_server_json_shape(p, n) == sh);
	(void)ssj_open(ps, p, n);
	if (ss_server_json_shape_open(ps, p, n, &open_sh))
		CHECK(open_sh == sh);
	ssj_parser_free(ps);
	if (forced) {
		for (int k = SS_SRVJ_AIPERF_LINE; k <= SS_SRVJ_PROM_API; k++) {
			CHECK(ss_server_json_line(s, (enum ss_server_shape)k, "d", 1, "fuzz", line, p,
						  n, &got));
			all += got;
		}
	} else if (sh != SS_SRVJ_NONE) {
		CHECK(ss_server_json_line(s, sh, "d", 1, "fuzz", line, p, n, &got));
		all = got;
	}
	free(p);
	return all;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_server *s;
	struct ss_server_results r;
	const char *text = (const char *)data + 1;
	size_t n;
	uint64_t snaps = 0, line = 0;

	/* the same hash key in every process: a fixed -seed replays the same inputs */
	ss_keymap_fixed_key_for_tests();
	if (size < 1)
		return 0;
	n = size - 1;
	s = ss_server_new(NULL);
	CHECK(s != NULL);
	switch (data[0] % 3) {
	case 0: /* JSONL */
		for (size_t at = 0; at <= n;) {
			const char *nl = memchr(text + at, '\n', n - at);
			size_t end = nl ? (size_t)(nl - text) : n;

			line++;
			if (end > at)
				snaps += feed_line(s, text + at, end - at, line, 0);
			at = end + 1;
		}
		break;
	case 1: { /* the document */
		char *p = padded(text, n);
		uint64_t got = 0;

		CHECK(p != NULL);
		CHECK(ss_server_json_document(s, "d", 1, "fuzz", p, n, &got));
		snaps = got;
		free(p);
		break;
	}
	default: /* one line, every shape */
		snaps = feed_line(s, text, n, 1, 1);
		break;
	}
	CHECK(ss_server_finish(s, NULL, false, 0.0, &r));
	CHECK(r.snapshots == snaps);
	for (size_t i = 0; i < r.nfamilies; i++)
		check_family(&r.families[i]);
	ss_server_results_release(&r);
	ss_server_free(s);
	return 0;
}
