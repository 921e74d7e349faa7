/*
 * dirwalk.c - a directory tree to a list of files (-r): every AIPerf
 * artifact directory gives its one export and its server-metrics export,
 * and nothing else is taken (SPEC 1.1, 10.4); names starting with '.' are skipped, links to directories
 * are not followed (no loops).
 */
#include "io/dirwalk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/artifacts.h"
#include "util/alloc.h"
#include "util/text.h"

bool ss_filelist_push(struct ss_filelist *l, char *path, int err)
{
	if (!SS_ALLOC_GROW(l->v, l->len + 1, l->cap))
		return false;
	l->v[l->len].path = path;
	l->v[l->len].err = err;
	l->v[l->len].fail = err ? SS_ENTRY_WALK : SS_ENTRY_OK;
	l->len++;
	return true;
}

bool ss_filelist_push_failed(struct ss_filelist *l, const char *path, enum ss_entry_fail fail,
			     int err)
{
	char *p = ss_strdup(path);

	if (!p || !ss_filelist_push(l, p, err)) {
		ss_free(p);
		return false;
	}
	l->v[l->len - 1].fail = fail;
	return true;
}

bool ss_filelist_push_artdir(struct ss_filelist *l, const char *dir, char *art)
{
	bool nomem;
	char *srv;

	if (!ss_filelist_push(l, art, 0)) {
		ss_free(art);
		return false;
	}
	srv = ss_artifact_server_file(dir, &nomem);
	if (nomem)
		return false;
	return !srv || ss_filelist_push(l, srv, 0) || (ss_free(srv), false);
}

void ss_filelist_clear(struct ss_filelist *l, size_t from)
{
	for (size_t i = from; i < l->len; i++)
		ss_free(l->v[i].path);
	l->len = 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ss_file_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

void ss_filelist_sort(struct ss_filelist *l, size_t first)
{
	qsort(l->v + first, l->len - first, sizeof(*l->v), cmp_entry);
}

bool ss_dirwalk(struct ss_filelist *l, const char *dir, const volatile sig_atomic_t *stop)
{
	bool nomem;
	char *art = ss_artifact_file(dir, &nomem);
	DIR *d;
	struct dirent *de;

	if (nomem)
		return false;
	if (art)
		return ss_filelist_push_artdir(l, dir, art);
	/* SPEC 10.8: a directory of a server-metrics export alone is one too */
	art = ss_artifact_server_file(dir, &nomem);
	if (nomem)
		return false;
	if (art)
		return ss_filelist_push(l, art, 0) || (ss_free(art), false);
	d = opendir(dir);
	if (!d) {
		int err = errno ? errno : EIO;
		char *p = ss_strdup(dir);

		return p && (ss_filelist_push(l, p, err) || (ss_free(p), false));
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *p;
		bool ok = true;

		if (stop && *stop)
			break;
		if (de->d_name[0] == '.')
			continue;
		p = ss_path_join(dir, de->d_name);
		if (!p) {
			closedir(d);
			return false;
		}
		if (lstat(p, &st) != 0) {
			ok = ss_filelist_push(l, p, errno);
		} else if (S_ISDIR(st.st_mode)) {
			ok = ss_dirwalk(l, p, stop);
			ss_free(p);
		} else {
			ss_free(p);
		}
		if (!ok) {
			closedir(d);
			return false;
		}
	}
	closedir(d);
	return true;
}
