/*
 * inputs.c - from command-line paths to decoded streams (SPEC 1.1).
 *
 * Each path becomes a list of files (one, or the files a directory
 * selects: dirwalk.c); each file is opened, its compression layers are
 * peeled off by magic bytes (sniff.c), and if what is left is an archive,
 * its members become the inputs, in archive order (container.c).
 *
 * Decisions where SPEC 1.1 is silent (also in the docs):
 *  - With -r, a tree is walked and every AIPerf artifact directory gives
 *    its one file, and nothing else (SPEC 1.1: a README or a plot in a
 *    results tree is not an input); a walk that finds none is a failed
 *    input that says so. Names starting with '.' are skipped (editor and
 *    VCS litter), and symbolic links to directories are not followed (no
 *    loops). The whole list is sorted byte-wise by path before reading.
 *  - Every file opened (stdin too) is compared with the outputs by device
 *    and inode: an input that is an output is refused and the run stops
 *    before anything is written (SPEC 4).
 *  - A directory that cannot be listed while walking is reported as a
 *    failed input at its place in that order; the walk goes on.
 *  - Archives inside archives are not opened: such a member is a failed
 *    input with a message.
 */
#include "io/inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/artifacts.h"
#include "io/container.h"
#include "io/dirwalk.h"
#include "io/input_fail.h"
#include "io/sniff.h"
#include "io/source.h"
#include "util/alloc.h"

struct ss_inputs {
	const char *const *paths;
	size_t npaths, next_path;
	bool recursive;
	bool resolved;      /* every path was expanded up front (a shard, a list) */
	struct ss_msg *msg;
	struct ss_filelist files;
	size_t next_file;
	struct ss_stream *cur;
	char *cur_name;
	char *fail_name;
	struct ss_container *ctr;
	struct ss_inputs_opts opts;
	/* progress (ss_inputs_progress): the last file opened from a path,
	 * the sizes of those before it, the sizes of all */
	int prog_fd;
	uint64_t prog_size, prog_before, prog_total;
	bool prog_known;
};

enum step { STEP_OK, STEP_FAILED, STEP_FATAL, STEP_AGAIN, STEP_REFUSED };

static const char stdin_name[] = "<stdin>";

/* ss_fail_input() for the iterator: report, record `name` (taken over), return. */
#define fail_input(it, name, ...)                                                 \
	(ss_fail_input((it)->msg, &(it)->fail_name, (name), __VA_ARGS__) == SS_NEXT_FAILED \
		 ? STEP_FAILED                                                    \
		 : STEP_FATAL)

/*
 * Append the file entries of one command-line path. A path that cannot be
 * read is an entry too, reported when its turn comes.
 */
static enum step expand_path(struct ss_inputs *it, const char *path)
{
	struct stat st;
	char *art, *p;
	bool nomem;
	size_t first;

	if (strcmp(path, "-") == 0)
		return ss_filelist_push(&it->files, NULL, 0) ? STEP_AGAIN : STEP_FATAL;
	if (stat(path, &st) != 0)
		return ss_filelist_push_failed(&it->files, path, SS_ENTRY_STAT, errno) ? STEP_AGAIN
											: STEP_FATAL;
	if (!S_ISDIR(st.st_mode)) {
		p = ss_strdup(path);
		return p && (ss_filelist_push(&it->files, p, 0) || (ss_free(p), false)) ?
		       STEP_AGAIN : STEP_FATAL;
	}
	art = ss_artifact_file(path, &nomem);
	if (nomem)
		return STEP_FATAL;
	if (art)
		return ss_filelist_push_artdir(&it->files, path, art) ? STEP_AGAIN : STEP_FATAL;
	/* SPEC 10.8: a directory of a server-metrics export alone is one too */
	art = ss_artifact_server_file(path, &nomem);
	if (nomem)
		return STEP_FATAL;
	if (art)
		return ss_filelist_push(&it->files, art, 0) || (ss_free(art), false) ? STEP_AGAIN
										  : STEP_FATAL;
	if (!it->recursive)
		return ss_filelist_push_failed(&it->files, path, SS_ENTRY_NOT_ARTDIR, 0)
			       ? STEP_AGAIN
			       : STEP_FATAL;
	first = it->files.len;
	if (!ss_dirwalk(&it->files, path, it->opts.stop))
		return STEP_FATAL;
	if (it->files.len == first && !(it->opts.stop && *it->opts.stop))
		return ss_filelist_push_failed(&it->files, path, SS_ENTRY_NO_ARTDIRS, 0)
			       ? STEP_AGAIN
			       : STEP_FATAL;
	ss_filelist_sort(&it->files, first);
	return STEP_AGAIN;
}

/* Turn the next command-line path into file entries. */
static enum step expand(struct ss_inputs *it)
{
	const char *path = it->npaths ? it->paths[it->next_path] : "-";

	it->next_path++;
	ss_filelist_clear(&it->files, it->next_file);
	it->next_file = 0;
	return expand_path(it, path);
}

/* Make `s` (a decoded stream named `name`, owned) the current input. */
static enum step use_stream(struct ss_inputs *it, struct ss_stream *s, char *name,
			    bool nested)
{
	struct ss_stream *d;
	bool archive;

	if (!ss_decode_layers(s, &d, &archive, it->opts.zstd_window_log)) {
		ss_free(name);
		return STEP_FATAL;
	}
	if (archive && nested) {
		ss_stream_free(d);
		return fail_input(it, name, "'%s': archives inside archives are not read", name);
	}
	if (archive) {
		enum ss_next r;

		it->ctr = ss_container_open(d, name, it->msg, it->opts.spool_limit,
					    it->opts.stop, &it->fail_name, &r);
		ss_free(name);
		return r == SS_NEXT_OK ? STEP_AGAIN : r == SS_NEXT_FAILED ? STEP_FAILED : STEP_FATAL;
	}
	it->cur = d;
	it->cur_name = name;
	d->name = name;
	return STEP_OK;
}

/* The next member of the current archive, decoded; STEP_AGAIN once it is done. */
static enum step member_next(struct ss_inputs *it)
{
	struct ss_stream *s;
	char *name;

	switch (ss_container_next(it->ctr, &s, &name, &it->fail_name)) {
	case SS_NEXT_OK:
		return use_stream(it, s, name, true);
	case SS_NEXT_FAILED:
		return STEP_FAILED;
	case SS_NEXT_END:
		ss_container_free(it->ctr);
		it->ctr = NULL;
		return STEP_AGAIN;
	default:
		return STEP_FATAL;
	}
}

/* ---- files ---- */

/* The file on `fd` is now the one being read: the one before is done. */
static void track_file(struct ss_inputs *it, int fd)
{
	struct stat st;

	it->prog_before += it->prog_size;
	it->prog_fd = fd;
	it->prog_size = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* The sizes of the exports a walk of `dir` (-r) will read; false when out
 * of memory or stopped. */
static bool tree_size(const char *dir, const volatile sig_atomic_t *stop, uint64_t *size)
{
	struct ss_filelist l = {NULL, 0, 0};
	struct stat st;
	bool ok = ss_dirwalk(&l, dir, stop);

	for (size_t i = 0; ok && i < l.len; i++)
		if (l.v[i].path && !l.v[i].err && stat(l.v[i].path, &st) == 0 && S_ISREG(st.st_mode))
			*size += (uint64_t)st.st_size;
	ss_filelist_clear(&l, 0);
	ss_free(l.v);
	return ok && !(stop && *stop);
}

/*
 * The size a path adds to the total; false when it cannot be known. A pipe,
 * a FIFO or a device adds nothing: SPEC 5's percentage is of the inputs
 * whose sizes are known.
 */
static bool path_size(const char *path, bool recursive, bool walk,
		      const volatile sig_atomic_t *stop, uint64_t *size)
{
	struct stat st;
	bool nomem;
	char *art;

	*size = 0;
	if (strcmp(path, "-") == 0) {
		if (fstat(0, &st) == 0 && S_ISREG(st.st_mode))
			*size = (uint64_t)st.st_size;
		return true;
	}
	if (stat(path, &st) != 0)
		return true;            /* fails when opened: adds nothing */
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return true;
	}
	if (!S_ISDIR(st.st_mode))
		return true;
	art = ss_artifact_file(path, &nomem);
	if (!art) {
		/* a directory of a server export alone (10.8) */
		art = ss_artifact_server_file(path, &nomem);
		if (art && stat(art, &st) == 0 && S_ISREG(st.st_mode))
			*size = (uint64_t)st.st_size;
		if (art) {
			ss_free(art);
			return true;
		}
	}
	if (art) {
		if (stat(art, &st) == 0 && S_ISREG(st.st_mode))
			*size = (uint64_t)st.st_size;
		ss_free(art);
		art = ss_artifact_server_file(path, &nomem);
		if (art && stat(art, &st) == 0 && S_ISREG(st.st_mode))
			*size += (uint64_t)st.st_size;
		ss_free(art);
		return true;
	}
	/* a tree (-r): its exports' sizes, from a walk of its own (the run
	 * walks it again when its turn comes) */
	return !recursive || (walk && tree_size(path, stop, size));
}

/* The total for ss_inputs_progress(): the files of a resolved list (a
 * shard reads only its own), else what the paths name. */
static void progress_total(struct ss_inputs *it)
{
	uint64_t size;

	it->prog_known = true;
	it->prog_total = 0;
	if (it->resolved) {
		for (size_t i = 0; i < it->files.len; i++) {
			const struct ss_file_entry *fe = &it->files.v[i];

			if (fe->err)
				continue;
			if (!path_size(fe->path ? fe->path : "-", false, false, it->opts.stop, &size))
				it->prog_known = false;
			it->prog_total += size;
		}
	} else {
		for (size_t i = 0; i < (it->npaths ? it->npaths : 1); i++) {
			if (!path_size(it->npaths ? it->paths[i] : "-", it->recursive,
				       it->opts.progress, it->opts.stop, &size))
				it->prog_known = false;
			it->prog_total += size;
		}
	}
	if (!it->prog_known)
		it->prog_total = 0;
}

bool ss_inputs_progress(const struct ss_inputs *it, uint64_t *done, uint64_t *total)
{
	uint64_t cur = 0;

	if (it->prog_fd >= 0 && it->prog_size) {
		off_t pos = lseek(it->prog_fd, 0, SEEK_CUR);

		/* a closed file (EBADF) was read to its end */
		cur = pos < 0 ? it->prog_size : (uint64_t)pos;
		if (cur > it->prog_size)
			cur = it->prog_size;
	}
	*done = it->prog_before + cur;
	*total = it->prog_known ? it->prog_total : 0;
	if (it->prog_known && *done > *total)
		*done = *total;         /* a file that grew while being read */
	return it->prog_known;
}

/*
 * Whether the open file `fd` is one of the outputs (by device and inode,
 * so also through a link, a walk or a redirected stdin): then it is
 * refused, with a message, and the run stops before writing anything.
 */
static bool is_output(struct ss_inputs *it, int fd, const char *shown)
{
	const struct ss_fileid *hit;
	struct stat st;

	if (!it->opts.outputs || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	hit = ss_fileids_find(it->opts.outputs, st.st_dev, st.st_ino);
	if (!hit)
		return false;
	ss_msg_error(it->msg, "refusing to write '%s': it is one of the inputs ('%s')",
		     hit->name, shown);
	return true;
}

static enum step open_file(struct ss_inputs *it, struct ss_file_entry *fe)
{
	const char *shown = fe->path ? fe->path : stdin_name;
	struct ss_stream *s;
	char *name;
	int fd = 0;

	switch (fe->fail) {
	case SS_ENTRY_OK:
		break;
	case SS_ENTRY_WALK:
		return fail_input(it, ss_strdup(shown), "cannot read directory '%s': %s", shown,
				  strerror(fe->err));
	case SS_ENTRY_STAT:
		return fail_input(it, ss_strdup(shown), "cannot open '%s': %s", shown,
				  strerror(fe->err));
	case SS_ENTRY_NOT_ARTDIR: {
		struct ss_buf what = SS_BUF_INIT;
		enum step st;

		ss_artifact_describe(fe->path ? fe->path : shown, &what);
		st = fail_input(it, ss_strdup(shown),
				"'%s' is a directory but not an AIPerf artifact directory "
				"(no " SS_ART_RAW " or " SS_ART_REC ")%s", shown,
				what.data && !what.failed ? what.data : "");
		ss_buf_release(&what);
		return st;
	}
	case SS_ENTRY_NO_ARTDIRS:
		return fail_input(it, ss_strdup(shown),
				  "'%s': no AIPerf artifact directory found below it (-r reads "
				  "only those; pass other files by name or glob)", shown);
	}
	if (fe->path) {
		do
			fd = open(fe->path, O_RDONLY | O_CLOEXEC);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return fail_input(it, ss_strdup(shown), "cannot open '%s': %s", shown,
					  strerror(errno));
	}
	if (is_output(it, fd, shown)) {
		if (fe->path)
			close(fd);
		return STEP_REFUSED;
	}
	name = ss_strdup(shown);
	if (!name) {
		if (fe->path)
			close(fd);
		return STEP_FATAL;
	}
	track_file(it, fd);
	s = ss_source_fd_new(fd, fe->path != NULL);
	if (!s) {
		ss_free(name);
		return STEP_FATAL;
	}
	ss_stream_set_stop(s, it->opts.stop);   /* decoders above inherit it */
	return use_stream(it, s, name, false);
}

/* ---- the iterator ---- */

/* Whether the file at `path` (compressed or not, not an archive) is a
 * server input; false also when it cannot be read (its turn says why). */
static bool server_file(const struct ss_inputs *it, const char *path, bool *fatal)
{
	struct ss_stream *s, *top;
	bool archive = false, scrape = false, log = false;
	int fd;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return false;
	s = ss_source_fd_new(fd, true);
	if (!s) {
		close(fd);
		*fatal = true;
		return false;
	}
	if (!ss_decode_layers(s, &top, &archive, it->opts.zstd_window_log)) {
		*fatal = true;
		return false;
	}
	/* a log is no server file: split like requests (SPEC 12.6) */
	if (!archive && (!ss_sniff_log(top, &log) || (!log && !ss_sniff_scrape(top, &scrape))))
		*fatal = true;
	ss_stream_free(top);
	return scrape;
}

/*
 * Whether a file is a server input by its name: AIPerf's document (read
 * so whatever --input-kind says, 10.5), or with detection on its
 * server_metrics_export.jsonl (what an artifact directory contributes).
 */
static bool server_name(const struct ss_inputs *it, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = strlen(path), d = sizeof(SS_ART_SRV_DOC) - 1;
	int exp = ss_artifact_server_export(slash ? slash + 1 : path);

	if ((n >= d && strcmp(path + n - d, SS_ART_SRV_DOC) == 0) || exp == 1)
		return true;   /* (exp 1: the document with a compression suffix, 10.8) */
	return exp == 2 && it->opts.shard_server == 1;
}

/* SPEC 10.5: leave the server files out of a shard's units, with a note. false: out of memory. */
static bool drop_server_files(struct ss_inputs *it)
{
	size_t kept = 0;
	bool fatal = false;

	for (size_t i = 0; i < it->files.len; i++) {
		struct ss_file_entry *fe = &it->files.v[i];

		if (fe->fail == SS_ENTRY_OK && fe->path &&
		    (server_name(it, fe->path) || it->opts.shard_server == 2 ||
		     (it->opts.shard_server == 1 && server_file(it, fe->path, &fatal)))) {
			ss_msg_warn(it->msg, "%s: a server input, left out under --shard "
				    "(give it to the merge run)", fe->path);
			ss_free(fe->path);
			continue;
		}
		it->files.v[kept++] = *fe;
	}
	it->files.len = kept;
	return !fatal;
}

/*
 * Expand every path now (SPEC 8.2: the units are the resolved inputs:
 * files, the files directories select, each archive one unit, each failed
 * path one unit) and keep only the shard's contiguous block
 * floor(I*M/N) .. floor((I+1)*M/N) - 1. false: out of memory.
 */
static bool resolve(struct ss_inputs *it, const struct ss_inputs_opts *opts)
{
	size_t total = it->npaths ? it->npaths : 1, lo = 0, hi;

	for (size_t i = 0; i < total; i++)
		if (expand_path(it, it->npaths ? it->paths[i] : "-") == STEP_FATAL)
			return false;
	it->next_path = total;
	if (opts->shard_count > 0 && !drop_server_files(it))
		return false;
	hi = it->files.len;
	if (opts->shard_count > 0) {
		unsigned __int128 m = it->files.len;

		lo = (size_t)(m * opts->shard_index / opts->shard_count);
		hi = (size_t)(m * (opts->shard_index + 1) / opts->shard_count);
	}
	for (size_t i = 0; i < it->files.len; i++)
		if (i < lo || i >= hi)
			ss_free(it->files.v[i].path);
	memmove(it->files.v, it->files.v + lo, (hi - lo) * sizeof(*it->files.v));
	it->files.len = hi - lo;
	it->resolved = true;
	return true;
}

struct ss_inputs *ss_inputs_new(const char *const *paths, size_t n,
				const struct ss_inputs_opts *opts, struct ss_msg *msg)
{
	struct ss_inputs *it = ss_calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->paths = paths;
	it->npaths = n;
	it->recursive = opts && opts->recursive;
	if (opts)
		it->opts = *opts;
	it->msg = msg;
	it->prog_fd = -1;
	if (opts && (opts->resolve || opts->shard_count > 0) && !resolve(it, opts)) {
		ss_inputs_free(it);
		return NULL;
	}
	progress_total(it);
	return it;
}

size_t ss_inputs_unit_count(const struct ss_inputs *it)
{
	return it->resolved ? it->files.len : 0;
}

const char *ss_inputs_unit_name(const struct ss_inputs *it, size_t i)
{
	return it->files.v[i].path ? it->files.v[i].path : "-";
}

static void drop_current(struct ss_inputs *it)
{
	ss_stream_free(it->cur);
	it->cur = NULL;
	ss_free(it->cur_name);
	it->cur_name = NULL;
}

void ss_inputs_free(struct ss_inputs *it)
{
	if (!it)
		return;
	drop_current(it);
	ss_container_free(it->ctr);
	ss_filelist_clear(&it->files, it->next_file);
	ss_free(it->files.v);
	ss_free(it->fail_name);
	ss_free(it);
}

enum ss_next ss_inputs_next(struct ss_inputs *it, struct ss_stream **out,
			    const char **name)
{
	size_t total = it->npaths ? it->npaths : 1;

	*out = NULL;
	*name = NULL;
	drop_current(it);
	for (;;) {
		enum step r;

		if (it->ctr) {
			r = member_next(it);
		} else if (it->next_file < it->files.len) {
			struct ss_file_entry fe = it->files.v[it->next_file++];

			r = open_file(it, &fe);
			ss_free(fe.path);
		} else if (it->next_path < total) {
			r = expand(it);
		} else {
			return SS_NEXT_END;
		}
		switch (r) {
		case STEP_OK:
			*out = it->cur;
			*name = it->cur_name;
			return SS_NEXT_OK;
		case STEP_FAILED:
			*name = it->fail_name;
			return SS_NEXT_FAILED;
		case STEP_FATAL:
			return SS_NEXT_FATAL;
		case STEP_REFUSED:
			return SS_NEXT_REFUSED;
		case STEP_AGAIN:
			break;
		}
	}
}
