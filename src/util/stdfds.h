/*
 * stdfds.h - standard descriptors 0-2 that were closed when specscan
 * started. As careful Unix programs do, they are opened on /dev/null
 * before anything else is opened: otherwise the first file opened becomes
 * fd 1 and receives stdout's report, or a temporary file becomes fd 0 and
 * is read as standard input.
 *
 * Ownership: the descriptors opened on /dev/null stay open for the life of
 * the process (they stand in for 0, 1 and 2); nothing else is handed out.
 */
#ifndef SS_STDFDS_H
#define SS_STDFDS_H

#include <stdbool.h>

/*
 * Open each closed descriptor of 0, 1, 2 on /dev/null (0 for reading, 1
 * and 2 for writing); was_closed[i] tells which were. false: /dev/null
 * could not be opened (the process should stop).
 */
bool ss_stdfds_ensure(bool was_closed[3]);

#endif
