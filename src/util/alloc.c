#include "util/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_uint_fast64_t fail_at;    /* 0: no injection */
static atomic_uint_fast64_t attempts;
static atomic_int fail_sticky;

static int should_fail(void)
{
	uint_fast64_t n = atomic_fetch_add(&attempts, 1) + 1;
	uint_fast64_t at = atomic_load(&fail_at);

	if (at == 0)
		return 0;
	return n == at || (atomic_load(&fail_sticky) && n > at);
}

void ss_alloc_fail_at(uint64_t n, int sticky)
{
	atomic_store(&attempts, 0);
	atomic_store(&fail_sticky, sticky);
	atomic_store(&fail_at, n);
}

uint64_t ss_alloc_count(void)
{
	return atomic_load(&attempts);
}

void *ss_malloc(size_t n)
{
	if (should_fail())
		return NULL;
	return malloc(n ? n : 1);
}

void *ss_calloc(size_t count, size_t size)
{
	if (should_fail())
		return NULL;
	return calloc(count ? count : 1, size ? size : 1);
}

void *ss_realloc(void *p, size_t n)
{
	if (should_fail())
		return NULL;
	return realloc(p, n ? n : 1);
}

void *ss_reallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	return ss_realloc(p, count * size);
}

char *ss_strndup(const char *s, size_t n)
{
	char *d = ss_malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *ss_strdup(const char *s)
{
	return ss_strndup(s, strlen(s));
}

void ss_free(void *p)
{
	free(p);
}
