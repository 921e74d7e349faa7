/*
 * dirwalk.h - the list of files the command-line paths expand to, and the
 * walk of a directory tree (-r) that fills it.
 */
#ifndef SS_DIRWALK_H
#define SS_DIRWALK_H

#include <stdbool.h>
#include <stddef.h>

#include "util/grow.h"

struct ss_file_entry {
	char *path;         /* NULL: standard input */
	int err;            /* != 0: a directory of the walk that failed */
};

struct ss_filelist SS_VEC(struct ss_file_entry);

/* Append an entry taking over `path`; false (path not taken) when out of memory. */
bool ss_filelist_push(struct ss_filelist *l, char *path, int err);
/* Free the paths of the entries from `from` on and empty the list. */
void ss_filelist_clear(struct ss_filelist *l, size_t from);
/* Sort the entries from `first` on byte-wise by path. */
void ss_filelist_sort(struct ss_filelist *l, size_t first);

/*
 * Append the files below `dir`: its export when it is an artifact
 * directory, else every file of the tree (a directory that cannot be
 * listed is an entry with its errno). Unsorted. false: out of memory.
 */
bool ss_dirwalk(struct ss_filelist *l, const char *dir);

bool ss_is_regular_file(const char *path);

#endif
