/*
 * fuzz_expo_diff.c - libFuzzer target: the exposition-text reader
 * (src/server/expo.c and the window) against the reference reader of
 * expo_ref.h, written from SPEC 10.1, 10.2 and 13 alone.
 *
 * The input is one text, read whole by both (inputs over 64 KiB are left
 * alone: the reference is quadratic). They must agree on the lines, the
 * sample lines, the bad lines and samples, and the snapshots; and, where
 * the reference can tell the window of vLLM's steps, draft tokens and
 * accepted tokens (expo_ref.h says when), on whether the family is there
 * and on those three sums. This is how issue 35's class 5 was found: a
 * bad line of a known family changed the window.
 *
 * Built with -DEXPO_DIFF_DEBUG it prints both sides' figures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expo_ref.h"
#include "server/expo.h"
#include "server/keymap.h"
#include "server/server.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_server *s;
	struct ss_scrape *sc;
	struct ss_scrape_stats st;
	struct ss_server_results r;
	struct ref_counts ref;
	const struct ss_server_family *vllm = NULL;

	/* the same hash key in every process: a fixed -seed replays the same inputs */
	ss_keymap_fixed_key_for_tests();
	if (size > 65536)
		return 0;
	s = ss_server_new(NULL);
	CHECK(s != NULL);
	CHECK(ss_server_endpoint(s, "", 0) == 0);
	sc = ss_scrape_new(s, 0, "fuzz", NULL);
	CHECK(sc != NULL);
	CHECK(ss_scrape_feed(sc, data, size));
	CHECK(ss_scrape_finish(sc));
	ss_scrape_get_stats(sc, &st);
	CHECK(ss_server_finish(s, NULL, false, 0.0, &r));
	ss_scrape_free(sc);
	ss_server_free(s);

	ref_read((const char *)data, size, &ref);
#ifdef EXPO_DIFF_DEBUG
	fprintf(stderr, "lines %llu/%llu samples %llu/%llu bad %llu/%llu snapshots %llu/%llu window_ok %d\n",
		(unsigned long long)st.lines, (unsigned long long)ref.lines,
		(unsigned long long)st.samples, (unsigned long long)ref.samples,
		(unsigned long long)st.bad_lines, (unsigned long long)ref.bad_lines,
		(unsigned long long)st.snapshots, (unsigned long long)ref.snapshots, ref.window_ok);
#endif
	CHECK(st.lines == ref.lines);
	CHECK(st.samples == ref.samples);
	CHECK(st.bad_lines == ref.bad_lines);
	CHECK(st.snapshots == ref.snapshots);
	for (size_t i = 0; i < r.nfamilies; i++)
		if (r.families[i].row->engine == SS_ENGINE_VLLM &&
		    r.families[i].row->source == SS_SRC_PROMETHEUS)
			vllm = &r.families[i];
#ifdef EXPO_DIFF_DEBUG
	if (vllm)
		fprintf(stderr, "product S %llu D %llu A %lld snapshots %llu since_start %d; ",
			(unsigned long long)vllm->steps, (unsigned long long)vllm->draft_tokens,
			(long long)vllm->accepted_tokens, (unsigned long long)vllm->snapshots,
			vllm->since_start);
	fprintf(stderr, "reference S %llu D %llu A %llu has %d\n", (unsigned long long)ref.ds,
		(unsigned long long)ref.dd, (unsigned long long)ref.da, ref.has_vllm);
#endif
	if (ref.window_ok) {
		CHECK((vllm != NULL) == ref.has_vllm);
		if (vllm) {
			CHECK(vllm->steps == ref.ds);
			CHECK(vllm->draft_tokens == ref.dd);
			CHECK(vllm->accepted_tokens == (__int128)ref.da);
		}
	}
	ss_server_results_release(&r);
	return 0;
}
