/*
 * dirwalk.h - the list of files the command-line paths expand to, and the
 * walk of a directory tree (-r) that fills it.
 *
 * Ownership: the list owns the paths of its entries (ss_filelist_clear
 * frees them); the caller owns the list's array.
 */
#ifndef SS_DIRWALK_H
#define SS_DIRWALK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/grow.h"

/* Why an entry is an input that fails when its turn comes: kept as a unit
 * of its own, so that with --shard exactly one shard reports it. */
enum ss_entry_fail {
	SS_ENTRY_OK = 0, SS_ENTRY_WALK, SS_ENTRY_STAT, SS_ENTRY_NOT_ARTDIR,
	SS_ENTRY_NO_ARTDIRS /* -r found no artifact directory below it */
};

struct ss_file_entry {
	char *path;         /* NULL: standard input */
	int err;            /* errno of SS_ENTRY_WALK (a directory of the walk) and _STAT */
	enum ss_entry_fail fail;
};

struct ss_filelist SS_VEC(struct ss_file_entry);

/* Append an entry taking over `path`; false (path not taken) when out of memory.
 * err != 0: a directory of the walk that could not be listed. */
bool ss_filelist_push(struct ss_filelist *l, char *path, int err);
/* Append an entry for a path (copied) that fails when its turn comes. */
bool ss_filelist_push_failed(struct ss_filelist *l, const char *path, enum ss_entry_fail fail,
			     int err);
/*
 * Append what the artifact directory `dir` gives: its export `art` (taken
 * over, freed on failure) and then its server-metrics export, if any
 * (SPEC 10.4). false: out of memory.
 */
bool ss_filelist_push_artdir(struct ss_filelist *l, const char *dir, char *art);
/* Free the paths of the entries from `from` on and empty the list. */
void ss_filelist_clear(struct ss_filelist *l, size_t from);
/* Sort the entries from `first` on byte-wise by path. */
void ss_filelist_sort(struct ss_filelist *l, size_t first);

/*
 * Append the exports of the artifact directories below `dir` (SPEC 1.1,
 * 10.4:
 * `dir` itself when it is one; loose files are not inputs of a walk; a
 * directory that cannot be listed is an entry with its errno). Unsorted.
 * Ends early, with what it found, when *stop is set (stop may be NULL).
 * It holds one open directory per level of the tree. false: out of memory.
 */
bool ss_dirwalk(struct ss_filelist *l, const char *dir, const volatile sig_atomic_t *stop);

#endif
