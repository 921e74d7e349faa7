/*
 * source_file.c - the bottom of a chain: a file descriptor (a file,
 * standard input, or a spooled archive member). Reads go straight into the
 * caller's buffer, as large as it offers.
 */
#include "io/source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"

/* A bigger pipe means fewer wake-ups when a decompressor feeds stdin. */
#define SS_PIPE_SIZE (1 << 20)

struct fd_stream {
	struct ss_stream s;
	int fd;
	bool close_fd;
	bool regular;
};

static enum ss_io fd_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct fd_stream *fs = (struct fd_stream *)s;
	ssize_t k;

	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	/*
	 * No retry on EINTR: specscan's handlers (SIGINT, SIGTERM, SIGHUP)
	 * are installed without SA_RESTART precisely so that a read blocked
	 * on a pipe or FIFO returns and the run can stop.
	 */
	k = read(fs->fd, buf, n);
	if (k < 0 && errno == EINTR)
		return ss_stream_fail(s, "read interrupted by a signal");
	if (k < 0)
		return ss_stream_fail(s, "read error: %s", strerror(errno));
	*got = (size_t)k;
	return k == 0 ? SS_IO_END : SS_IO_OK;
}

static void fd_destroy(struct ss_stream *s)
{
	struct fd_stream *fs = (struct fd_stream *)s;

	if (fs->close_fd)
		close(fs->fd);
	ss_free(fs);
}

static const struct ss_stream_ops fd_ops = {fd_read, fd_destroy, NULL};

struct ss_stream *ss_source_fd_new(int fd, bool close_fd)
{
	struct fd_stream *fs = ss_malloc(sizeof(*fs));
	struct stat st;

	if (!fs) {
		if (close_fd)
			close(fd);
		return NULL;
	}
	ss_stream_setup(&fs->s, &fd_ops, NULL);
	fs->fd = fd;
	fs->close_fd = close_fd;
	fs->regular = false;
	if (fstat(fd, &st) == 0) {
		fs->regular = S_ISREG(st.st_mode);
#ifdef F_SETPIPE_SZ
		if (S_ISFIFO(st.st_mode) && fcntl(fd, F_GETPIPE_SZ) < SS_PIPE_SIZE)
			(void)fcntl(fd, F_SETPIPE_SZ, SS_PIPE_SIZE);   /* best effort */
#endif
#ifdef POSIX_FADV_SEQUENTIAL
		if (S_ISREG(st.st_mode))
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	}
	return &fs->s;
}

int ss_source_seekable_fd(const struct ss_stream *s)
{
	const struct fd_stream *fs = (const struct fd_stream *)s;

	if (s->ops != &fd_ops || !fs->regular)
		return -1;
	return fs->fd;
}
