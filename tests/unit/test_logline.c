/*
 * test_logline.c - the line layer of SPEC 12.1: cleaning (CR, ANSI CSI),
 * anchors (the first one wins, prefixes never matter), the prefix's time,
 * process name and tag set behind every deployment prefix of
 * notes on the formats (docker -t, kubectl --timestamps --prefix, compose,
 * journald, the engines' own), and the printed-number helpers. Every
 * expected value is written out by hand from the line it comes from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "logs/logline.h"

static size_t clean_str(const char *in, char *out)
{
	return ss_log_clean(in, strlen(in), out);
}

static void test_clean(void **state)
{
	char out[256];
	size_t n;

	(void)state;
	/* vLLM's colour prefix, coloured level and time, CRLF */
	n = clean_str("\033[1;36m(APIServer pid=1)\033[0;0m \033[32mINFO\033[0m "
		      "\033[90m05-01 14:24:50\033[0m x\r", out);
	assert_int_equal(n, strlen("(APIServer pid=1) INFO 05-01 14:24:50 x"));
	assert_memory_equal(out, "(APIServer pid=1) INFO 05-01 14:24:50 x", n);
	/* only one CR goes */
	n = clean_str("a\r\r", out);
	assert_int_equal(n, 2);
	assert_memory_equal(out, "a\r", 2);
	/* a remnant whose ESC was lost when pasted stays (not guessed at) */
	n = clean_str("[0;36m(Worker_TP5_EP5 pid=890)[0;0m", out);
	assert_int_equal(n, strlen("[0;36m(Worker_TP5_EP5 pid=890)[0;0m"));
	/* an ESC that starts no CSI sequence stays, so does a cut one */
	n = clean_str("\033]0;t\007 \033[12", out);
	assert_int_equal(n, strlen("\033]0;t\007 \033[12"));
	assert_memory_equal(out, "\033]0;t\007 \033[12", n);
	/* a CSI without parameters, and one in place */
	char inplace[] = "\033[mDecode\033[K batch";
	n = ss_log_clean(inplace, strlen(inplace), inplace);
	assert_int_equal(n, 12);
	assert_memory_equal(inplace, "Decode batch", 12);
}

static void expect_anchor(const char *s, enum ss_log_format fmt, size_t at, size_t tail)
{
	struct ss_log_anchor a;

	assert_true(ss_log_find_anchor(s, strlen(s), &a));
	assert_int_equal(a.fmt, fmt);
	assert_int_equal(a.at, at);
	assert_int_equal(a.tail, tail);
}

static void test_anchors(void **state)
{
	struct ss_log_anchor a;

	(void)state;
	expect_anchor("INFO x SpecDecoding metrics: Accepted: 1 tokens", SS_LOG_VLLM, 7, 29);
	expect_anchor("Speculative metrics: a", SS_LOG_VLLM, 0, 21);
	expect_anchor("[t TP0] Decode batch. #running-req: 1", SS_LOG_SGLANG, 8, 20);
	expect_anchor("draft acceptance rate = 0.5", SS_LOG_LLAMACPP, 0, 16);
	/* the slot prefix comes first but is not a counted anchor */
	expect_anchor("slot print_timing: id  1 | task 0 | draft acceptance = 1", SS_LOG_LLAMACPP,
		      36, 52);
	expect_anchor("I slot print_timing: id  1 | task 0 | ", SS_LOG_LLAMASLOT, 2, 23);
	/* the first anchor of any format wins */
	expect_anchor("Decode batch SpecDecoding metrics: ", SS_LOG_SGLANG, 0, 12);
	expect_anchor("SpecDecoding metrics: Decode batch", SS_LOG_VLLM, 0, 22);
	expect_anchor("xx draft acceptance Decode batch", SS_LOG_LLAMACPP, 3, 19);
	/* no anchor: other text, a near miss, the statistics line */
	assert_false(ss_log_find_anchor("INFO Avg prompt throughput: 1.0", 31, &a));
	assert_false(ss_log_find_anchor("SpecDecoding metrics:", 21, &a));
	const char *st = "0.06.896.057 I statistics     draft-eagle3: #calls(b,g,a) = 1";
	assert_false(ss_log_find_anchor(st, strlen(st), &a));
	assert_false(ss_log_find_anchor("", 0, &a));
}

/* The anchor rule restated the slow way: the earliest counted anchor by
 * memmem, else the slot prefix. */
static bool ref_anchor(const char *s, size_t n, struct ss_log_anchor *a)
{
	static const char *const counted[] = {"SpecDecoding metrics: ", "Speculative metrics: ",
					      "Decode batch", "draft acceptance"};
	static const enum ss_log_format fmts[] = {SS_LOG_VLLM, SS_LOG_VLLM, SS_LOG_SGLANG,
						  SS_LOG_LLAMACPP};
	const char *best = NULL;

	for (size_t i = 0; i < 4; i++) {
		const char *hit = memmem(s, n, counted[i], strlen(counted[i]));
		if (hit && (!best || hit < best)) {
			best = hit;
			a->fmt = fmts[i];
			a->at = (size_t)(hit - s);
			a->tail = a->at + strlen(counted[i]);
		}
	}
	if (best)
		return true;
	best = memmem(s, n, "slot print_timing: id", 21);
	if (!best)
		return false;
	a->fmt = SS_LOG_LLAMASLOT;
	a->at = (size_t)(best - s);
	a->tail = a->at + 21;
	return true;
}

static void test_anchor_scan(void **state)
{
	/* pieces that make near misses, whole anchors and the scan's pairs */
	static const char *const pieces[] = {
		"SpecDecoding metrics: ", "Speculative metrics: ", "Decode batch", "draft acceptance",
		"slot print_timing: id", "SpecDecoding metrics:", "Decode bat", "draft accept",
		"Sp", "De", "dr", "sl", "S", "D", "d", "s", "x", " ", "0.500, ", "\033[0m"};
	uint32_t seed = 12345;
	char line[256];

	(void)state;
	for (int round = 0; round < 200000; round++) {
		size_t n = 0;
		seed = seed * 1103515245u + 12345u;
		int parts = (int)((seed >> 16) % 12);
		for (int p = 0; p < parts; p++) {
			seed = seed * 1103515245u + 12345u;
			const char *piece = pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t l = strlen(piece);
			if (n + l > sizeof(line))
				break;
			memcpy(line + n, piece, l);
			n += l;
		}
		/* every length and offset: the scan's sixteen-byte steps and tail */
		seed = seed * 1103515245u + 12345u;
		size_t off = n ? (seed >> 16) % (n + 1) : 0;
		struct ss_log_anchor want, got;
		bool w = ref_anchor(line + off, n - off, &want);
		bool g = ss_log_find_anchor(line + off, n - off, &got);
		assert_int_equal(g, w);
		if (w) {
			assert_int_equal(got.fmt, want.fmt);
			assert_int_equal(got.at, want.at);
			assert_int_equal(got.tail, want.tail);
		}
	}
}

static void expect_prefix(const char *s, const char *time, const char *proc, const char *tags)
{
	struct ss_log_prefix p;

	ss_log_prefix_parse(s, strlen(s), &p);
	assert_int_equal(p.time_len, strlen(time));
	if (*time)
		assert_memory_equal(p.time, time, p.time_len);
	assert_int_equal(p.proc_len, strlen(proc));
	if (*proc)
		assert_memory_equal(p.proc, proc, p.proc_len);
	assert_string_equal(p.tags, tags);
}

static void test_prefixes(void **state)
{
	(void)state;
	/* docker logs -t */
	expect_prefix("2026-12-01T10:00:00.123456789Z (APIServer pid=1) INFO 12-01 10:00:00 "
		      "[metrics.py:101] ",
		      "2026-12-01T10:00:00.123456789Z", "APIServer", "");
	/* kubectl logs --timestamps --prefix */
	expect_prefix("[pod/vllm-0/vllm] 2026-12-01T10:00:00.000000001Z (APIServer_DP1 pid=77) "
		      "INFO 12-01 10:00:00 [metrics.py:101] ",
		      "2026-12-01T10:00:00.000000001Z", "APIServer_DP1", "");
	/* compose, without and with -t (older: a space after the bar; newer: none) */
	expect_prefix("vllm-1  | INFO 06-06 14:20:34 [metrics.py:86] ", "", "", "");
	expect_prefix("vllm-1  | 2026-12-01T10:00:00.5+01:00 INFO 12-01 ",
		      "2026-12-01T10:00:00.5+01:00", "", "");
	expect_prefix("sglang-1  |2026-12-01T10:00:00.000000000Z [2026-12-01 10:00:00 TP0] ",
		      "2026-12-01T10:00:00.000000000Z", "", "TP0");
	/* journald: no time read, vllm[123] is not vLLM's process prefix */
	expect_prefix("Dec 01 10:00:00 gpu1 vllm[123]: INFO 12-01 10:00:00 [metrics.py:101] ", "",
		      "", "");
	/* SGLang's tag set, in any order, sorted */
	expect_prefix("[2026-07-21 15:00:13 TP0 EP0] ", "", "", "EP0 TP0");
	expect_prefix("[2026-07-21 15:00:13.123 DP1 TP1] ", "", "", "DP1 TP1");
	expect_prefix("[2026-07-21 15:00:13] ", "", "", "");
	/* llama.cpp's timestamp and level, a Slurm label: nothing */
	expect_prefix("0.06.896.015 I ", "", "", "");
	expect_prefix("3: INFO 05-01 14:24:50 ", "", "", "");
	/* near misses: no T, no zone, a seconds field cut */
	expect_prefix("2026-12-01 10:00:00Z x", "", "", "");
	expect_prefix("2026-12-01T10:00:00 x", "", "", "");
	expect_prefix("2026-12-01T10:00:0Z x", "", "", "");
	expect_prefix("2026-12-01T10:00:00.Z x", "", "", "");
	/* "(NAME pid=N)" needs the digits and the parenthesis */
	expect_prefix("(APIServer pid=) (EngineCore_DP0 pid=12) ", "", "EngineCore_DP0", "");
}

static void test_numbers(void **state)
{
	const char *s;
	uint64_t v = 7;
	bool toolong = false;

	(void)state;
	s = "123456789012345678 ";
	assert_int_equal(ss_log_int(s, s + strlen(s), &v, &toolong), 18);
	assert_true(v == 123456789012345678ULL);
	assert_false(toolong);
	s = "1234567890123456789";
	assert_int_equal(ss_log_int(s, s + strlen(s), &v, &toolong), 0);
	assert_true(toolong);
	toolong = false;
	s = "x1";
	assert_int_equal(ss_log_int(s, s + 2, &v, &toolong), 0);
	assert_false(toolong);
	s = "2.37,";
	assert_int_equal(ss_log_fixed(s, s + strlen(s), 2, &toolong), 4);
	assert_int_equal(ss_log_fixed(s, s + strlen(s), 3, &toolong), 0);
	s = "2.375";
	assert_int_equal(ss_log_fixed(s, s + strlen(s), 2, &toolong), 0);
	s = ".37";
	assert_int_equal(ss_log_fixed(s, s + strlen(s), 2, &toolong), 0);
	s = "1234567890123456789.00";
	assert_int_equal(ss_log_fixed(s, s + strlen(s), 2, &toolong), 0);
	assert_true(toolong);
}

static void test_prints_as(void **state)
{
	(void)state;
	/* 1 + 89/65 = 2.3692307692307693 */
	assert_true(ss_log_prints_as(1.0 + 89.0 / 65.0, 2, "2.37", 4));
	assert_false(ss_log_prints_as(1.0 + 89.0 / 65.0, 2, "2.36", 4));
	/* 0.125 is exact in binary and rounds to even: 0.12, as Python prints */
	assert_true(ss_log_prints_as(0.125, 2, "0.12", 4));
	/* 0.615 is 0.61499999... in binary: 0.61 */
	assert_true(ss_log_prints_as(0.615, 2, "0.61", 4));
	assert_false(ss_log_prints_as(2.5, 2, "2.5", 3));
	assert_true(ss_log_prints_as(25.0 / 913.0, 3, "0.027", 5));
}

static void test_bucket(void **state)
{
	(void)state;
	assert_true(ss_log_bucket(0) == 0);
	assert_true(ss_log_bucket(1) == 1);
	assert_true(ss_log_bucket(3) == 2);
	assert_true(ss_log_bucket(24) == 16);
	assert_true(ss_log_bucket(32) == 32);
	assert_true(ss_log_bucket(UINT64_MAX) == (UINT64_C(1) << 63));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_anchors),
		cmocka_unit_test(test_anchor_scan),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_prints_as),
		cmocka_unit_test(test_bucket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
