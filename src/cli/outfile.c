#include "cli/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/alloc.h"

/*
 * Open temporary files for the signal handler: a chain through the
 * outfiles, changed only with every signal blocked, so the handler always
 * sees a whole chain. Outputs are opened and placed by the main thread
 * alone (worker threads block the stop signals anyway).
 */
static struct ss_outfile *volatile temps;

static void block_all(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

/* Call with signals blocked. */
static void remember(struct ss_outfile *o)
{
	o->next_temp = temps;
	temps = o;
}

static void forget(struct ss_outfile *o)
{
	sigset_t old;

	block_all(&old);
	for (struct ss_outfile *volatile *p = &temps; *p; p = &(*p)->next_temp) {
		if (*p == o) {
			*p = o->next_temp;
			break;
		}
	}
	o->next_temp = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void ss_outfile_abort_all_from_signal(void)
{
	for (struct ss_outfile *o = temps; o; o = o->next_temp)
		if (o->tmp)
			unlink(o->tmp);
}

/* Compress what is written when the path's name asks for it (SPEC 8.3). */
static bool start_codec(struct ss_outfile *o, const char *path, struct ss_msg *msg)
{
	enum ss_codec codec = ss_codec_for_path(path);

	if (codec == SS_CODEC_NONE)
		return true;
	o->z = ss_compressor_new(codec, o->fp);
	if (!o->z) {
		ss_msg_error(msg, "out of memory");
		ss_outfile_abort(o);
		return false;
	}
	return true;
}

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/*
 * A device, FIFO or socket (/dev/null, /dev/full, /dev/stdout, a named
 * pipe) is written in place: there is no file to replace atomically, and
 * a temporary file renamed over it would replace the device node itself.
 * Nothing is overwritten, so --force is not needed.
 */
static bool open_direct(struct ss_outfile *o, const char *path, struct ss_msg *msg)
{
	int fd;

	do
		fd = open(path, O_WRONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		ss_msg_error(msg, "cannot open '%s': %s", path, strerror(errno));
		return false;
	}
	o->path = ss_strdup(path);
	o->fp = o->path ? fdopen(fd, "w") : NULL;
	if (!o->fp) {
		ss_msg_error(msg, "cannot write '%s': %s", path,
			     o->path ? strerror(errno) : "out of memory");
		close(fd);
		ss_free(o->path);
		o->path = NULL;
		return false;
	}
	o->direct = true;
	return start_codec(o, path, msg);
}

/* The temporary name of `path` is ".NAME" TEMP_TAG "XXXXXX" in its directory. */
#define TEMP_TAG ".specscan."
#define STALE_AGE (60 * 60)   /* older than any run that writes its reports */

/*
 * Nothing removes a temporary file when the process is killed (SIGKILL,
 * a crash, a power cut): name one left beside `path` by an earlier run,
 * older than an hour (so not a run still writing), for the user to
 * remove. Only names this program makes are looked at; none is removed.
 */
static void warn_stale(const char *path, size_t dirlen, struct ss_msg *msg)
{
	const char *base = path + dirlen;
	size_t blen = strlen(base), tlen = strlen(TEMP_TAG), nlen = 1 + blen + tlen + 6;
	char *p = ss_malloc(dirlen + nlen + 2);  /* "DIR/" + the name, or "./" + it */
	time_t now = time(NULL);
	struct dirent *e;
	DIR *d;

	if (!p)
		return;
	if (dirlen)
		memcpy(p, path, dirlen);
	else
		memcpy(p, "./", dirlen = 2);
	p[dirlen] = '\0';
	d = opendir(p);
	while (d && (e = readdir(d))) {
		struct stat st;
		const char *n = e->d_name;

		if (n[0] != '.' || strlen(n) != nlen || strncmp(n + 1, base, blen) != 0 ||
		    strncmp(n + 1 + blen, TEMP_TAG, tlen) != 0)
			continue;
		memcpy(p + dirlen, n, nlen + 1);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > STALE_AGE)
			ss_msg_warn(msg, "'%s' is a temporary file left by an earlier run that was "
				    "killed before it finished; remove it", p);
	}
	if (d)
		closedir(d);
	ss_free(p);
}

bool ss_outfile_open(struct ss_outfile *o, const char *path, bool force,
		     const char *const *inputs, size_t ninputs, struct ss_msg *msg)
{
	struct stat st;
	const char *slash;
	size_t dirlen;
	int fd;
	sigset_t old;

	memset(o, 0, sizeof(*o));
	if (strcmp(path, "-") == 0) {
		o->is_stdout = true;
		o->fp = stdout;
		o->path = ss_strdup("-");
		if (!o->path) {
			ss_msg_error(msg, "out of memory");
			return false;
		}
		return true;
	}
	if (stat(path, &st) == 0) {
		for (size_t i = 0; i < ninputs; i++) {
			if (same_file(&st, inputs[i])) {
				ss_msg_error(msg, "refusing to write '%s': it is one of the inputs", path);
				return false;
			}
		}
		if (S_ISDIR(st.st_mode)) {
			ss_msg_error(msg, "cannot write '%s': it is a directory", path);
			return false;
		}
		if (!S_ISREG(st.st_mode))
			return open_direct(o, path, msg);
		if (!force) {
			ss_msg_error(msg, "'%s' exists; refusing to overwrite it without --force: "
				     "nothing written", path);
			return false;
		}
	}
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	o->path = ss_strdup(path);
	warn_stale(path, dirlen, msg);
	o->tmp = ss_malloc(strlen(path) + 32);
	if (!o->path || !o->tmp) {
		ss_free(o->path);
		ss_free(o->tmp);
		o->path = o->tmp = NULL;
		ss_msg_error(msg, "out of memory");
		return false;
	}
	sprintf(o->tmp, "%.*s.%s" TEMP_TAG "XXXXXX", (int)dirlen, path, path + dirlen);
	/* Block signals so the handler never misses a created temp file. */
	block_all(&old);
	fd = mkstemp(o->tmp);
	if (fd >= 0)
		remember(o);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		ss_msg_error(msg, "cannot create '%s': %s", path, strerror(errno));
		ss_free(o->tmp);
		ss_free(o->path);
		o->tmp = o->path = NULL;
		return false;
	}
	{
		/* mkstemp makes the file private; give it the usual mode. */
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		ss_msg_error(msg, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		ss_outfile_abort(o);
		return false;
	}
	return start_codec(o, path, msg);
}

bool ss_outfile_write(struct ss_outfile *o, const void *p, size_t n)
{
	if (o->failed || !o->fp)
		return false;
	if (o->z) {
		if (!ss_compressor_write(o->z, p, n)) {
			o->failed = true;
			o->err = ss_compressor_error(o->z);
		}
	} else if (n && fwrite(p, 1, n, o->fp) != n) {
		o->failed = true;
		o->err = errno;
	}
	return !o->failed;
}

/* The end of a compressed stream: the last frame, the gzip trailer. */
static bool end_codec(struct ss_outfile *o)
{
	bool ok = true;

	if (!o->z)
		return true;
	if (!o->failed && !ss_compressor_finish(o->z)) {
		ok = false;
		o->failed = true;
		o->err = ss_compressor_error(o->z) ? ss_compressor_error(o->z) : ENOMEM;
	}
	ss_compressor_free(o->z);
	o->z = NULL;
	return ok && !o->failed;
}

/* Standard output: flushed, left open. */
static bool finish_stdout(struct ss_outfile *o, struct ss_msg *msg)
{
	bool ok = end_codec(o);
	int err = o->err;

	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (ok)
			err = errno;
		ok = false;
	}
	if (!ok)
		ss_msg_error(msg, "cannot write to standard output: %s", strerror(err ? err : EIO));
	ss_free(o->path);
	o->path = NULL;
	o->fp = NULL;
	o->failed = !ok;
	return ok;
}

/* A device or FIFO: flushed and closed; nothing to rename. */
static bool finish_direct(struct ss_outfile *o, struct ss_msg *msg)
{
	bool ok = end_codec(o);
	int err = o->err;

	if (fflush(o->fp) != 0 || ferror(o->fp)) {
		if (ok)
			err = errno;
		ok = false;
	}
	if (fclose(o->fp) != 0 && ok) {
		ok = false;
		err = errno;
	}
	o->fp = NULL;
	if (!ok)
		ss_msg_error(msg, "cannot write '%s': %s", o->path, strerror(err ? err : EIO));
	ss_free(o->path);
	o->path = NULL;
	o->failed = !ok;
	return ok;
}

bool ss_outfile_finish(struct ss_outfile *o, struct ss_msg *msg)
{
	bool ok;
	int err;

	if (!o->path || !o->fp)
		return o->path ? !o->failed : true;
	if (o->is_stdout)
		return finish_stdout(o, msg);
	if (o->direct)
		return finish_direct(o, msg);
	ok = end_codec(o);
	err = o->err;
	if (ok && (fflush(o->fp) != 0 || ferror(o->fp))) {
		ok = false;
		err = errno;
	}
	if (ok && fsync(fileno(o->fp)) != 0 && errno != EINVAL && errno != EROFS) {
		ok = false;
		err = errno;
	}
	if (fclose(o->fp) != 0 && ok) {
		ok = false;
		err = errno;
	}
	o->fp = NULL;
	if (!ok) {
		ss_msg_error(msg, "cannot write '%s': %s", o->path, strerror(err ? err : EIO));
		ss_outfile_abort(o);
		return false;
	}
	return true;
}

bool ss_outfile_place(struct ss_outfile *o, struct ss_msg *msg)
{
	if (!o->path)
		return true;    /* stdout, a device, or already placed */
	if (!o->tmp || o->fp)
		return false;   /* not finished */
	if (rename(o->tmp, o->path) != 0) {
		ss_msg_error(msg, "cannot write '%s': %s", o->path, strerror(errno));
		ss_outfile_abort(o);
		return false;
	}
	forget(o);
	ss_free(o->tmp);
	ss_free(o->path);
	o->tmp = o->path = NULL;
	return true;
}

void ss_outfile_abort(struct ss_outfile *o)
{
	ss_compressor_free(o->z);
	o->z = NULL;
	if (o->fp && !o->is_stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		forget(o);
	}
	ss_free(o->tmp);
	ss_free(o->path);
	o->tmp = o->path = NULL;
}
