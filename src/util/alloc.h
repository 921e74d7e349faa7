/*
 * alloc.h - the one allocation wrapper of specscan.
 *
 * Every heap allocation of the project goes through these functions, so a
 * test can make the N-th allocation fail (ss_alloc_fail_at) and check that
 * each failure ends in a clean error. They return NULL on failure and never
 * abort; callers report SS_ENOMEM up the status ladder.
 */
#ifndef SS_ALLOC_H
#define SS_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *ss_malloc(size_t n);
void *ss_calloc(size_t count, size_t size);
void *ss_realloc(void *p, size_t n);
/* Grow an array of `count` elements of `size` bytes; NULL on overflow. */
void *ss_reallocarray(void *p, size_t count, size_t size);
char *ss_strdup(const char *s);
char *ss_strndup(const char *s, size_t n);
void ss_free(void *p);

/*
 * Fault injection for tests: the n-th allocation from now (1-based) and,
 * when `sticky`, every later one fails. n = 0 turns injection off.
 * ss_alloc_count() tells how many allocations were attempted since the last
 * ss_alloc_fail_at() call. Thread-safe.
 */
void ss_alloc_fail_at(uint64_t n, int sticky);
uint64_t ss_alloc_count(void);

#endif
