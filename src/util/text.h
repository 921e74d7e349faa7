/*
 * text.h - small string helpers used across stages: a borrowed span of
 * bytes, comparing a counted key with a literal, and joining two names
 * into a new string (which the caller frees).
 */
#ifndef SS_TEXT_H
#define SS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * A borrowed run of bytes, [p, p + n): the text belongs to whoever handed
 * the span out, and the span dies with it (not NUL-terminated).
 */
struct ss_span {
	const char *p;
	size_t n;
};

/* Whether the counted string key[0..n) is exactly the literal `lit`. */
static inline bool ss_key_is(const char *key, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n == l && memcmp(key, lit, l) == 0;
}

/*
 * Copy the string src into dst (cap >= 1 bytes), cut to fit and always
 * NUL-ended: snprintf(dst, cap, "%s", src) without the formatting, for
 * the per-request path.
 */
static inline void ss_copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n > cap - 1)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Zero the struct at p (size bytes) but for bytes [from, to), which hold
 * text arrays the caller empties by their first byte: for the resets run
 * once per request, where clearing the texts whole cost more than the rest.
 */
static inline void ss_clear_around(void *p, size_t size, size_t from, size_t to)
{
	memset(p, 0, from);
	memset((char *)p + to, 0, size - to);
}

/* "a" SEP "b" ("ab" when sep is '\0'), allocated (ss_free it); NULL when
 * out of memory. */
char *ss_join(const char *a, char sep, const char *b);

/*
 * A path below a directory: "dir/name", with no second '/' when `dir`
 * ends in one, and plain "name" when `dir` is empty. Allocated, or NULL.
 */
char *ss_path_join(const char *dir, const char *name);

/*
 * The `dir` of an input named name[0..n) (SPEC 7.3): the name up to its
 * last '/', without it ("a/b/c.jsonl" -> "a/b", "runs.tar:coding/x.jsonl"
 * -> "runs.tar:coding"); an archive member's name without a '/' of its
 * own gives ARCHIVE ":." ("runs.tar:x.jsonl" -> "runs.tar:."), any other
 * name without '/' "." ("<stdin>" -> "."). The value is name[0..*keep)
 * followed by the returned suffix (a static "", "." or ":."). A ':' after
 * the last '/' is taken for the archive's separator (a plain file named
 * "a:b.jsonl" has the dir "a:.").
 */
const char *ss_name_dir(const char *name, size_t n, size_t *keep);

#endif
