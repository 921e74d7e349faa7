/* fileid.c - files known by device and inode (see fileid.h). */
#include "util/fileid.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

void ss_fileids_init(struct ss_fileids *s)
{
	memset(s, 0, sizeof(*s));
}

void ss_fileids_release(struct ss_fileids *s)
{
	ss_free(s->v);
	ss_fileids_init(s);
}

bool ss_fileids_add(struct ss_fileids *s, dev_t dev, ino_t ino, const char *name)
{
	if (ss_fileids_find(s, dev, ino))
		return true;
	if (!SS_ALLOC_GROW(s->v, s->n + 1, s->cap))
		return false;
	s->v[s->n].dev = dev;
	s->v[s->n].ino = ino;
	s->v[s->n].name = name;
	s->n++;
	return true;
}

const struct ss_fileid *ss_fileids_find(const struct ss_fileids *s, dev_t dev, ino_t ino)
{
	/* A handful of outputs: a linear scan is the fastest there is. */
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].dev == dev && s->v[i].ino == ino)
			return &s->v[i];
	return NULL;
}
