/*
 * fuzz_inputs.c - libFuzzer target: the input front end (magic-byte
 * detection, zstd, gzip, libarchive filters and archives, artifact
 * selection and spooling) on arbitrary bytes, every stream it yields
 * tested for Prometheus text as the run does (io/sniff.h: a peek, never
 * consumed) and read to its end through the framer.
 *
 * The bytes are given as a seekable file (a memfd, named through
 * /proc/self/fd) or as standard input fed by a pipe (zip and 7z take other
 * paths when they can seek): one of the two per run, chosen by the input's
 * length, so a run stays fast. Oracles beyond "no crash, no leak":
 * the iterator never reports running out of memory, ends after a bounded
 * number of steps, and every stream ends with END or ERROR. Decompression
 * bombs are cut off after 64 KiB of decoded bytes per run (the framer
 * window and record limit are small too), so a run stays short: thousands
 * of runs a second, not tens.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/framer.h"
#include "io/inputs.h"
#include "io/sniff.h"
#include "io/source.h"
#include "util/msg.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
/*
 * Decoded bytes read per run, and the framing: small, yet a decoded stream
 * still spans several windows and batches and can hold a line over the
 * record limit.
 */
#define DECODED_CAP ((size_t)64 << 10)
#define MAX_RECORD ((size_t)16 << 10)
#define WINDOW ((size_t)4 << 10)
#define TARGET ((size_t)16 << 10)
#define MAX_STEPS 10000

/* A stream that reads another (borrowed) up to a budget of bytes. */
struct capped {
	struct ss_stream s;
	struct ss_stream *from;
	size_t *budget;
};

static enum ss_io capped_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct capped *c = (struct capped *)s;
	enum ss_io r;

	if (*c->budget == 0)
		return SS_IO_END;
	if (n > *c->budget)
		n = *c->budget;
	r = ss_stream_read(c->from, buf, n, got);
	CHECK(*got <= n);
	*c->budget -= *got;
	if (r == SS_IO_ERROR)
		return ss_stream_fail(s, "%s", ss_stream_error(c->from));
	return r;
}

static void capped_destroy(struct ss_stream *s)
{
	(void)s;
}

static const struct ss_stream_ops capped_ops = {capped_read, capped_destroy, NULL};

static FILE *devnull;

static void read_all(const char *path)
{
	const char *paths[1] = {path};
	struct ss_inputs_opts opts = {.recursive = false};
	struct ss_msg msg;
	struct ss_inputs *it;
	struct ss_framer *f;
	struct ss_batch b;
	size_t budget = DECODED_CAP;

	ss_msg_init(&msg, devnull, SS_NORMAL);
	it = ss_inputs_new(paths, path ? 1 : 0, &opts, &msg);
	f = ss_framer_new(MAX_RECORD, SS_FRAMING_AUTO);
	ss_batch_init(&b);
	if (!it || !f)
		goto out;
	ss_framer_set_window(f, WINDOW);
	for (int steps = 0;; steps++) {
		struct ss_stream *s;
		const char *name;
		enum ss_next n;
		struct capped c;
		enum ss_fill r;

		CHECK(steps < MAX_STEPS);
		n = ss_inputs_next(it, &s, &name);
		CHECK(n != SS_NEXT_FATAL);
		if (n == SS_NEXT_END)
			break;
		if (n == SS_NEXT_FAILED) {
			CHECK(name != NULL);
			continue;
		}
		CHECK(s != NULL && name != NULL);
		{
			bool scrape;

			CHECK(ss_sniff_scrape(s, &scrape));
		}
		memset(&c, 0, sizeof(c));
		ss_stream_setup(&c.s, &capped_ops, NULL);
		c.from = s;
		c.budget = &budget;
		ss_framer_start(f, &c.s);
		do {
			ss_batch_reset(&b);
			r = ss_framer_fill(f, &b, TARGET);
		} while (r == SS_FILL_MORE);
		CHECK(r != SS_FILL_NOMEM);
		CHECK(c.s.peek == NULL);   /* the framer never peeks */
	}
out:
	ss_batch_release(&b);
	ss_framer_free(f);
	ss_inputs_free(it);
}

struct feeder {
	int fd;
	const uint8_t *p;
	size_t n;
};

static void *feed(void *arg)
{
	struct feeder *fd = arg;
	size_t off = 0;

	while (off < fd->n) {
		ssize_t k = write(fd->fd, fd->p + off, fd->n - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	close(fd->fd);
	return NULL;
}

/*
 * The bytes as standard input through a pipe. They are written before
 * anything is read when the pipe holds them (a pipe holds 64 KiB, grown
 * when asked for up to the system's limit): no thread, which under ASan
 * costs more than the whole run, and reads that do not depend on
 * scheduling. A longer input is fed the rest by a thread.
 */
static void run_pipe(const uint8_t *data, size_t size)
{
	int p[2], saved = dup(0), fl;
	struct feeder fd;
	pthread_t t;
	size_t off = 0;
	bool threaded = false;
	char sink[4096];

	if (saved < 0 || pipe(p) != 0)
		abort();
	fl = fcntl(p[1], F_GETFL);
	if (fl < 0 || fcntl(p[1], F_SETFL, fl | O_NONBLOCK) != 0)
		abort();
	if (size > 65536)
		(void)fcntl(p[1], F_SETPIPE_SZ, (int)(size < (1 << 20) ? size : 1 << 20));
	while (off < size) {
		ssize_t k = write(p[1], data + off, size - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		off += (size_t)k;
	}
	if (off < size) {
		if (fcntl(p[1], F_SETFL, fl) != 0)
			abort();
		fd.fd = p[1];
		fd.p = data + off;
		fd.n = size - off;
		if (pthread_create(&t, NULL, feed, &fd) != 0)
			abort();
		threaded = true;
	} else {
		close(p[1]);
	}
	dup2(p[0], 0);
	close(p[0]);
	read_all(NULL);
	/* Whatever was not read (a capped bomb) is drained so the feeder ends. */
	while (read(0, sink, sizeof(sink)) > 0)
		;
	if (threaded)
		pthread_join(t, NULL);
	dup2(saved, 0);
	close(saved);
}

static void run_file(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_inputs", 0);
	char path[64];
	size_t off = 0;

	if (fd < 0)
		abort();
	while (off < size) {
		ssize_t k = write(fd, data + off, size - off);

		if (k <= 0)
			abort();
		off += (size_t)k;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_all(path);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
		/*
		 * Inputs are a few KiB: 1 MiB decoder and archive buffers,
		 * mapped and faulted in anew for every stream, cost most of a
		 * run under ASan (about 950 runs/s); 16 KiB still makes each
		 * source read in several steps.
		 */
		ss_source_set_buffer_size((size_t)16 << 10);
	}
	if (size & 1)
		run_pipe(data, size);
	else
		run_file(data, size);
	return 0;
}
