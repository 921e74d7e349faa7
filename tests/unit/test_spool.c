/*
 * test_spool.c - held archive members in one temporary file (spool.h):
 * members read back whole and in order from one descriptor, the limit
 * counts bytes held (not bytes ever written), a member over the limit is
 * not kept and its source is still read to its end, a source failure is
 * kept for the read-back, and the file starts over when nothing is held.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/source.h"
#include "io/spool.h"

static enum ss_spool_res put(struct ss_spool *sp, const char *text, size_t chunk,
			     const char *fail_with, struct ss_spool_entry *e, char **fail)
{
	struct ss_stream *s = ss_source_mem_new(text, strlen(text), chunk, fail_with);
	char why[128];
	enum ss_spool_res r;

	assert_non_null(s);
	r = ss_spool_copy(sp, s, e, fail, NULL, why, sizeof(why));
	/* Whatever happened, the source was read to its end or failure. */
	{
		char c;
		size_t got = 1;
		enum ss_io st = ss_stream_read(s, &c, 1, &got);

		assert_true(st != SS_IO_OK);
		assert_int_equal(got, 0);
	}
	ss_stream_free(s);
	return r;
}

static void get(struct ss_spool *sp, const struct ss_spool_entry *e, const char *want)
{
	struct ss_stream *s = ss_spool_open(sp, e);
	char buf[256];
	size_t len = 0, got;

	assert_non_null(s);
	for (;;) {
		enum ss_io r = ss_stream_read(s, buf + len, 3, &got);   /* small reads */

		len += got;
		if (r == SS_IO_END)
			break;
		assert_int_equal(r, SS_IO_OK);
		assert_true(len < sizeof(buf) - 3);
	}
	assert_int_equal(len, strlen(want));
	assert_memory_equal(buf, want, len);
	ss_stream_free(s);
}

static void test_members_back_to_back(void **state)
{
	struct ss_spool *sp = ss_spool_new(0);
	struct ss_spool_entry a, b, c;
	char *fail;

	(void)state;
	assert_int_equal(put(sp, "alpha\n", 0, NULL, &a, &fail), SS_SPOOL_OK);
	assert_null(fail);
	assert_int_equal(put(sp, "bravo bravo\n", 4, NULL, &b, &fail), SS_SPOOL_OK);
	assert_int_equal(put(sp, "", 0, NULL, &c, &fail), SS_SPOOL_OK);
	/* 6 + 12 + 0 bytes, one after the other. */
	assert_int_equal(a.off, 0);
	assert_int_equal(a.len, 6);
	assert_int_equal(b.off, 6);
	assert_int_equal(b.len, 12);
	assert_int_equal(c.len, 0);
	assert_int_equal(ss_spool_held(sp), 18);
	get(sp, &b, "bravo bravo\n");
	assert_int_equal(ss_spool_held(sp), 6);
	get(sp, &c, "");
	get(sp, &a, "alpha\n");
	assert_int_equal(ss_spool_held(sp), 0);
	assert_int_equal(ss_spool_peak(sp), 18);
	/* Nothing held: the next member starts the file over. */
	assert_int_equal(put(sp, "x\n", 0, NULL, &a, &fail), SS_SPOOL_OK);
	assert_int_equal(a.off, 0);
	ss_spool_drop(sp, &a);
	ss_spool_free(sp);
}

static void test_limit(void **state)
{
	struct ss_spool *sp = ss_spool_new(10);
	struct ss_spool_entry a, b, c;
	char *fail;

	(void)state;
	assert_int_equal(put(sp, "123456\n", 2, NULL, &a, &fail), SS_SPOOL_OK);
	/* 7 held + 4 = 11 > 10: not kept, and nothing of it stays. */
	assert_int_equal(put(sp, "abc\n", 1, NULL, &b, &fail), SS_SPOOL_FULL);
	assert_int_equal(ss_spool_held(sp), 7);
	/* 7 + 3 = 10 fits exactly. */
	assert_int_equal(put(sp, "xy\n", 0, NULL, &c, &fail), SS_SPOOL_OK);
	assert_int_equal(ss_spool_held(sp), 10);
	get(sp, &a, "123456\n");
	/* Space given back counts again. */
	assert_int_equal(put(sp, "abc\n", 1, NULL, &b, &fail), SS_SPOOL_OK);
	get(sp, &c, "xy\n");
	get(sp, &b, "abc\n");
	assert_int_equal(ss_spool_peak(sp), 10);
	/* Larger than the whole limit. */
	assert_int_equal(put(sp, "0123456789A\n", 0, NULL, &a, &fail), SS_SPOOL_FULL);
	ss_spool_free(sp);
}

/* The default limit (docs/BEHAVIOUR.md, Disk): half the free space, at most 64 x the
 * record limit, never more than half the free space (issue 24: it was
 * floored at the record limit, so an 8 MiB tmpfs got 256 MiB). */
static void test_default_limit(void **state)
{
	const uint64_t MiB = 1 << 20;

	(void)state;
	assert_int_equal(ss_spool_limit_for(8 * MiB, 256 * MiB), 4 * MiB);
	assert_int_equal(ss_spool_limit_for(1 * MiB, 256 * MiB), 512 * 1024);
	assert_int_equal(ss_spool_limit_for(100ull << 30, 256 * MiB), 16ull << 30);
	assert_int_equal(ss_spool_limit_for(UINT64_MAX, 256 * MiB), 16ull << 30);
	assert_int_equal(ss_spool_limit_for(31ull << 30, 256 * MiB), 31ull << 29);
	/* no free space: 1 byte, never 0 (which would mean no limit) */
	assert_int_equal(ss_spool_limit_for(0, 256 * MiB), 1);
	assert_int_equal(ss_spool_limit_for(1, 256 * MiB), 1);
	/* 64 x a huge record limit saturates instead of wrapping */
	assert_int_equal(ss_spool_limit_for(UINT64_MAX, UINT64_MAX / 2), UINT64_MAX / 2);
}

static void test_source_failure_kept(void **state)
{
	struct ss_spool *sp = ss_spool_new(0);
	struct ss_spool_entry a;
	char *fail;

	(void)state;
	assert_int_equal(put(sp, "good\nbro", 3, "truncated member", &a, &fail), SS_SPOOL_OK);
	assert_non_null(fail);
	assert_string_equal(fail, "truncated member");
	free(fail);
	get(sp, &a, "good\nbro");
	ss_spool_free(sp);
}

/* A stream still open keeps the spool alive after its owner lets go. */
static void test_reference(void **state)
{
	struct ss_spool *sp = ss_spool_new(0);
	struct ss_spool_entry a;
	struct ss_stream *s;
	char *fail, buf[16];
	size_t got;

	(void)state;
	assert_int_equal(put(sp, "late\n", 0, NULL, &a, &fail), SS_SPOOL_OK);
	s = ss_spool_open(sp, &a);
	assert_non_null(s);
	ss_spool_free(sp);
	assert_int_equal(ss_stream_read(s, buf, sizeof(buf), &got), SS_IO_OK);
	assert_int_equal(got, 5);
	assert_memory_equal(buf, "late\n", 5);
	ss_stream_free(s);
}

/* One descriptor however many members are held. */
static void test_one_descriptor(void **state)
{
	struct ss_spool *sp = ss_spool_new(0);
	struct ss_spool_entry e[300];
	char *fail;
	int before = 0, after = 0;
	DIR *d;
	struct dirent *de;

	(void)state;
	if ((d = opendir("/proc/self/fd")) != NULL) {
		while ((de = readdir(d)) != NULL)
			before++;
		closedir(d);
	}
	for (int i = 0; i < 300; i++)
		assert_int_equal(put(sp, "m\n", 0, NULL, &e[i], &fail), SS_SPOOL_OK);
	if ((d = opendir("/proc/self/fd")) != NULL) {
		while ((de = readdir(d)) != NULL)
			after++;
		closedir(d);
		assert_true(after - before <= 1);
	}
	for (int i = 0; i < 300; i++)
		get(sp, &e[i], "m\n");
	ss_spool_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members_back_to_back),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_default_limit),
		cmocka_unit_test(test_source_failure_kept),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_one_descriptor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
