#include "util/grow.h"

void *ss_grow_array(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *np;

	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	np = ss_reallocarray(p, n, size);
	if (np)
		*cap = n;
	return np;
}
