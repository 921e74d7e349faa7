/*
 * spool.c - held archive members in one temporary file (see spool.h).
 *
 * Members are appended at `end`; reading one back is pread() at its
 * offset, so any number of held members share one descriptor. `held`
 * counts the bytes of members not yet given back; when it drops to zero
 * the file is truncated and `end` starts over.
 */
#include "io/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io/source.h"
#include "util/alloc.h"

#define COPY_BUF (64 << 10)   /* disk-bound: a small buffer does */

struct ss_spool {
	int fd;             /* -1 until the first member */
	unsigned refs;
	uint64_t limit, held, peak, end;
};

struct ss_spool *ss_spool_new(uint64_t limit)
{
	struct ss_spool *sp = ss_calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	sp->fd = -1;
	sp->refs = 1;
	sp->limit = limit;
	return sp;
}

void ss_spool_free(struct ss_spool *sp)
{
	if (!sp || --sp->refs > 0)
		return;
	if (sp->fd >= 0)
		close(sp->fd);
	ss_free(sp);
}

uint64_t ss_spool_held(const struct ss_spool *sp)
{
	return sp->held;
}

uint64_t ss_spool_peak(const struct ss_spool *sp)
{
	return sp->peak;
}

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

uint64_t ss_spool_limit_for(uint64_t free_bytes, uint64_t max_record)
{
	uint64_t cap = max_record > UINT64_MAX / 64 ? UINT64_MAX : max_record * 64;
	uint64_t lim = free_bytes / 2 < cap ? free_bytes / 2 : cap;

	/* 0 would mean no limit: with no free space at all, nothing fits. */
	return lim ? lim : 1;
}

uint64_t ss_spool_default_limit(uint64_t max_record)
{
	struct statvfs v;

	if (statvfs(tmp_dir(), &v) != 0)
		return ss_spool_limit_for(UINT64_MAX, max_record);   /* unknown: the cap */
	return ss_spool_limit_for((uint64_t)v.f_bavail * (uint64_t)v.f_frsize, max_record);
}

/* A nameless temporary file: O_TMPFILE, else mkstemp and unlink. */
static int open_tmp(void)
{
	const char *dir = tmp_dir();
	char *path;
	size_t n;
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	n = strlen(dir) + sizeof("/specscan-spool.XXXXXX");
	path = ss_malloc(n);
	if (!path) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(path, n, "%s/specscan-spool.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	ss_free(path);
	return fd;
}

static void give_back(struct ss_spool *sp, uint64_t off, uint64_t len)
{
	sp->held -= len;
	if (sp->held == 0) {
		/* Nothing held: start the file over. */
		if (sp->fd >= 0 && ftruncate(sp->fd, 0) == 0)
			sp->end = 0;
		return;
	}
#ifdef FALLOC_FL_PUNCH_HOLE
	/* Best effort: free the member's blocks now. */
	if (len > 0)
		(void)fallocate(sp->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)off, (off_t)len);
#else
	(void)off;
#endif
}

void ss_spool_drop(struct ss_spool *sp, const struct ss_spool_entry *e)
{
	give_back(sp, e->off, e->len);
}

static bool write_all(int fd, const unsigned char *p, size_t n, uint64_t off)
{
	while (n > 0) {
		ssize_t k = pwrite(fd, p, n, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EIO;
			return false;
		}
		p += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
	return true;
}

enum ss_spool_res ss_spool_copy(struct ss_spool *sp, struct ss_stream *from,
				struct ss_spool_entry *e, char **fail,
				const volatile sig_atomic_t *stop, char *why, size_t why_size)
{
	unsigned char *buf;
	enum ss_spool_res res = SS_SPOOL_OK;
	bool full = false;

	*fail = NULL;
	e->off = sp->end;
	e->len = 0;
	if (why_size)
		why[0] = '\0';
	if (sp->fd < 0) {
		sp->fd = open_tmp();
		if (sp->fd < 0) {
			snprintf(why, why_size, "%s", strerror(errno));
			return SS_SPOOL_IOERR;
		}
	}
	buf = ss_malloc(COPY_BUF);
	if (!buf)
		return SS_SPOOL_NOMEM;
	for (;;) {
		size_t k = 0;
		enum ss_io r;

		if (stop && *stop) {
			res = SS_SPOOL_STOPPED;
			break;
		}
		r = ss_stream_read(from, buf, COPY_BUF, &k);
		if (k > 0 && !full && res == SS_SPOOL_OK) {
			if (sp->limit && (sp->held + e->len > sp->limit ||
					  k > sp->limit - sp->held - e->len)) {
				full = true;   /* read on to the member's end, keep nothing */
			} else if (!write_all(sp->fd, buf, k, e->off + e->len)) {
				snprintf(why, why_size, "%s", strerror(errno));
				res = SS_SPOOL_IOERR;
			} else {
				e->len += k;
			}
		}
		if (r == SS_IO_END)
			break;
		if (r == SS_IO_ERROR) {
			if (res == SS_SPOOL_OK && !full) {
				*fail = ss_strdup(ss_stream_error(from));
				if (!*fail)
					res = SS_SPOOL_NOMEM;
			}
			break;
		}
		if (res != SS_SPOOL_OK)
			break;
	}
	ss_free(buf);
	if (res == SS_SPOOL_OK && full)
		res = SS_SPOOL_FULL;
	if (res != SS_SPOOL_OK) {
		/* Nothing of it is kept; the file end is reused. */
		if (sp->held == 0 && sp->fd >= 0 && ftruncate(sp->fd, 0) == 0)
			sp->end = 0;
		e->len = 0;
		return res;
	}
	sp->end = e->off + e->len;
	sp->held += e->len;
	if (sp->held > sp->peak)
		sp->peak = sp->held;
	return SS_SPOOL_OK;
}

/* ---- reading a member back ---- */

struct spool_stream {
	struct ss_stream s;
	struct ss_spool *sp;
	uint64_t off, len, pos;
};

static enum ss_io spool_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct spool_stream *ss = (struct spool_stream *)s;
	uint64_t left = ss->len - ss->pos;
	ssize_t k;

	if (left == 0)
		return SS_IO_END;
	if (n > left)
		n = (size_t)left;
	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	k = pread(ss->sp->fd, buf, n, (off_t)(ss->off + ss->pos));
	if (k < 0 && errno == EINTR)
		return ss_stream_fail(s, "read interrupted by a signal");
	if (k < 0)
		return ss_stream_fail(s, "cannot read back the spooled member: %s",
				      strerror(errno));
	if (k == 0)
		return ss_stream_fail(s, "the spooled member is shorter than written");
	ss->pos += (uint64_t)k;
	*got = (size_t)k;
	return SS_IO_OK;
}

static void spool_destroy(struct ss_stream *s)
{
	struct spool_stream *ss = (struct spool_stream *)s;

	give_back(ss->sp, ss->off, ss->len);
	ss_spool_free(ss->sp);
	ss_free(ss);
}

static const struct ss_stream_ops spool_ops = {spool_read, spool_destroy, NULL};

struct ss_stream *ss_spool_open(struct ss_spool *sp, const struct ss_spool_entry *e)
{
	struct spool_stream *ss = ss_calloc(1, sizeof(*ss));

	if (!ss) {
		give_back(sp, e->off, e->len);
		return NULL;
	}
	ss_stream_setup(&ss->s, &spool_ops, NULL);
	ss->sp = sp;
	sp->refs++;
	ss->off = e->off;
	ss->len = e->len;
	return &ss->s;
}
