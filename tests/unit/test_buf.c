/*
 * test_buf.c - the growable buffer: appends in place and through growth
 * give the same bytes, always NUL-terminated, with SS_BUF_SLACK spare
 * bytes after them; an append that just fits does not grow the buffer,
 * one byte more does; a formatted append leaves the slack too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "util/buf.h"

/* What every append must leave: the text so far, its NUL, the slack. */
static void check(const struct ss_buf *b, const char *want, size_t n)
{
	assert_false(b->failed);
	assert_int_equal(b->len, n);
	assert_memory_equal(b->data, want, n);
	assert_int_equal(b->data[n], '\0');
	assert_true(b->cap >= b->len + SS_BUF_SLACK + 1);
}

/*
 * Pieces of 0 to 40 bytes and single bytes, in turn, to 100000 bytes:
 * the buffer grows many times, and holds what a plain array of the same
 * appends holds.
 */
static void test_appends(void **state)
{
	static char want[100000 + 64];
	struct ss_buf b = SS_BUF_INIT;
	size_t n = 0, piece = 0;

	(void)state;
	while (n < 100000) {
		char chunk[41];

		for (size_t i = 0; i < piece; i++)
			chunk[i] = (char)('a' + (n + i) % 26);
		ss_buf_add(&b, chunk, piece);
		memcpy(want + n, chunk, piece);
		n += piece;
		check(&b, want, n);
		ss_buf_addc(&b, (char)('A' + n % 26));
		want[n] = (char)('A' + n % 26);
		n++;
		check(&b, want, n);
		piece = (piece + 7) % 41;
	}
	ss_buf_reset(&b);
	check(&b, "", 0);
	ss_buf_adds(&b, "after reset");
	check(&b, "after reset", 11);
	ss_buf_release(&b);
}

/* The room that fits without growing: cap - len - SS_BUF_SLACK - 1 bytes. */
static void test_fit_boundary(void **state)
{
	char fill[4096];
	struct ss_buf b = SS_BUF_INIT;
	size_t cap, room;

	(void)state;
	memset(fill, 'x', sizeof(fill));
	ss_buf_addc(&b, 'y');
	cap = b.cap;
	room = cap - b.len - SS_BUF_SLACK - 1;
	assert_true(room < sizeof(fill));
	ss_buf_add(&b, fill, room);        /* exactly fits */
	assert_int_equal(b.cap, cap);
	assert_int_equal(b.len, room + 1);
	assert_int_equal(b.data[b.len], '\0');
	ss_buf_addc(&b, 'z');              /* one more: grows */
	assert_true(b.cap > cap);
	assert_int_equal(b.len, room + 2);
	assert_int_equal(b.data[0], 'y');
	assert_int_equal(b.data[room], 'x');
	assert_int_equal(b.data[room + 1], 'z');
	assert_int_equal(b.data[room + 2], '\0');
	assert_true(b.cap >= b.len + SS_BUF_SLACK + 1);
	/* an empty append to an empty buffer allocates and terminates */
	ss_buf_release(&b);
	ss_buf_add(&b, NULL, 0);
	check(&b, "", 0);
	ss_buf_release(&b);
}

/*
 * ss_buf_addf after 0 to 299 bytes, of 0 to 199 bytes: the text, its NUL
 * and the slack after it, at every length (a formatted append that ran
 * into the slack left the inline appends' room to wrap), and a plain
 * append after it lands where a plain array says.
 */
static void test_addf_keeps_slack(void **state)
{
	static char want[600], text[200];

	(void)state;
	memset(want, 'a', sizeof(want));
	memset(text, 'b', sizeof(text));
	for (size_t n0 = 0; n0 < 300; n0++) {
		for (size_t m = 0; m < sizeof(text); m += 7) {
			struct ss_buf b = SS_BUF_INIT;

			ss_buf_add(&b, want, n0);
			ss_buf_addf(&b, "%.*s", (int)m, text);
			memset(want + n0, 'b', m);
			check(&b, want, n0 + m);
			ss_buf_add(&b, "cd", 2);
			want[n0 + m] = 'c';
			want[n0 + m + 1] = 'd';
			check(&b, want, n0 + m + 2);
			memset(want, 'a', sizeof(want));
			ss_buf_release(&b);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_fit_boundary),
		cmocka_unit_test(test_addf_keeps_slack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
