/*
 * fileid.h - files known by device and inode, not by name: a hard link, a
 * symbolic link, `dir/../x`, standard input redirected from a file and a
 * file found by a directory walk are the same file as its output when
 * their (device, inode) pairs are equal. The output list registers its
 * targets; the input layer checks every file it opens (SPEC 4: an input
 * is never overwritten, however it was reached).
 *
 * Ownership: the list owns its array until ss_fileids_release() and
 * borrows each output's name, which must outlive it.
 */
#ifndef SS_FILEID_H
#define SS_FILEID_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ss_fileid {
	dev_t dev;
	ino_t ino;
	const char *name;   /* borrowed: the output's path as given */
};

struct ss_fileids {
	struct ss_fileid *v;
	size_t n, cap;
};

void ss_fileids_init(struct ss_fileids *s);
void ss_fileids_release(struct ss_fileids *s);
/* Add a file by its stat; false: out of memory. */
bool ss_fileids_add(struct ss_fileids *s, dev_t dev, ino_t ino, const char *name);
/* The entry for (dev, ino), or NULL. */
const struct ss_fileid *ss_fileids_find(const struct ss_fileids *s, dev_t dev, ino_t ino);

#endif
