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
 *    its one file; outside artifact directories every regular file is read
 *    too, as an archive's members are. A user pointing -r at a tree of
 *    captures (`*.jsonl.zst`, `*.sse`) expects them read. Names starting
 *    with '.' are skipped (editor and VCS litter), and symbolic links to
 *    directories are not followed (no loops); links to files are.
 *    The whole list is sorted byte-wise by path before reading.
 *  - A directory that cannot be listed while walking is reported as a
 *    failed input at its place in that order; the walk goes on.
 *  - Archives inside archives are not opened: such a member is a failed
 *    input with a message.
 */
#include "io/inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/artifacts.h"
#include "io/container.h"
#include "io/dirwalk.h"
#include "io/inputs_int.h"
#include "io/sniff.h"
#include "io/source.h"
#include "util/alloc.h"

/* The buffer that copies archive members to temporary files. */
#define SPOOL_SIZE (1 << 20)

struct ss_inputs {
	const char *const *paths;
	size_t npaths, next_path;
	bool recursive;
	struct ss_msg *msg;
	struct ss_filelist files;
	size_t next_file;
	struct ss_stream *cur;
	char *cur_name;
	char *fail_name;
	struct ss_container *ctr;
	unsigned char *spool_buf;
};

enum step { STEP_OK, STEP_FAILED, STEP_FATAL, STEP_AGAIN };

static const char stdin_name[] = "<stdin>";

enum ss_next ss_fail_input(struct ss_msg *msg, char **slot, char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ss_msg_verror(msg, fmt, ap);
	va_end(ap);
	ss_free(*slot);
	*slot = name;
	return name ? SS_NEXT_FAILED : SS_NEXT_FATAL;
}

/* ss_fail_input() for the iterator: report, record `name` (taken over), return. */
#define fail_input(it, name, ...)                                                 \
	(ss_fail_input((it)->msg, &(it)->fail_name, (name), __VA_ARGS__) == SS_NEXT_FAILED \
		 ? STEP_FAILED                                                    \
		 : STEP_FATAL)

/* Turn the next command-line path into file entries. */
static enum step expand(struct ss_inputs *it)
{
	const char *path = it->npaths ? it->paths[it->next_path] : "-";
	struct stat st;
	char *art, *p;
	bool nomem;
	size_t first;

	it->next_path++;
	ss_filelist_clear(&it->files, it->next_file);
	it->next_file = 0;
	if (strcmp(path, "-") == 0)
		return ss_filelist_push(&it->files, NULL, 0) ? STEP_AGAIN : STEP_FATAL;
	if (stat(path, &st) != 0)
		return fail_input(it, ss_strdup(path), "cannot open '%s': %s", path,
				  strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		p = ss_strdup(path);
		return p && (ss_filelist_push(&it->files, p, 0) || (ss_free(p), false)) ?
		       STEP_AGAIN : STEP_FATAL;
	}
	art = ss_artifact_file(path, &nomem);
	if (nomem)
		return STEP_FATAL;
	if (art)
		return ss_filelist_push(&it->files, art, 0) || (ss_free(art), false) ?
		       STEP_AGAIN : STEP_FATAL;
	if (!it->recursive)
		return fail_input(it, ss_strdup(path),
				  "'%s' is a directory but not an AIPerf artifact directory "
				  "(no " SS_ART_RAW " or " SS_ART_REC "); use -r to read a tree",
				  path);
	first = it->files.len;
	if (!ss_dirwalk(&it->files, path))
		return STEP_FATAL;
	if (it->files.len == first)
		ss_msg_warn(it->msg, "'%s': no input files found", path);
	else
		ss_filelist_sort(&it->files, first);
	return STEP_AGAIN;
}

/* Make `s` (a decoded stream named `name`, owned) the current input. */
static enum step use_stream(struct ss_inputs *it, struct ss_stream *s, char *name,
			    bool nested)
{
	struct ss_stream *d;
	bool archive;

	if (!ss_decode_layers(s, &d, &archive)) {
		ss_free(name);
		return STEP_FATAL;
	}
	if (archive && nested) {
		ss_stream_free(d);
		return fail_input(it, name, "'%s': archives inside archives are not read", name);
	}
	if (archive) {
		enum ss_next r;

		it->ctr = ss_container_open(d, name, it->msg, it->spool_buf, SPOOL_SIZE,
					    &it->fail_name, &r);
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

static enum step open_file(struct ss_inputs *it, struct ss_file_entry *fe)
{
	const char *shown = fe->path ? fe->path : stdin_name;
	struct ss_stream *s;
	char *name;
	int fd = 0;

	if (fe->err)
		return fail_input(it, ss_strdup(shown), "cannot read directory '%s': %s", shown,
				  strerror(fe->err));
	if (fe->path) {
		do
			fd = open(fe->path, O_RDONLY | O_CLOEXEC);
		while (fd < 0 && errno == EINTR);
		if (fd < 0)
			return fail_input(it, ss_strdup(shown), "cannot open '%s': %s", shown,
					  strerror(errno));
	}
	name = ss_strdup(shown);
	if (!name) {
		if (fe->path)
			close(fd);
		return STEP_FATAL;
	}
	s = ss_source_fd_new(fd, fe->path != NULL);
	if (!s) {
		ss_free(name);
		return STEP_FATAL;
	}
	return use_stream(it, s, name, false);
}

/* ---- the iterator ---- */

struct ss_inputs *ss_inputs_new(const char *const *paths, size_t n,
				const struct ss_inputs_opts *opts, struct ss_msg *msg)
{
	struct ss_inputs *it = ss_calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->paths = paths;
	it->npaths = n;
	it->recursive = opts && opts->recursive;
	it->msg = msg;
	it->spool_buf = ss_malloc(SPOOL_SIZE);
	if (!it->spool_buf) {
		ss_free(it);
		return NULL;
	}
	return it;
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
	ss_free(it->spool_buf);
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
		case STEP_AGAIN:
			break;
		}
	}
}
