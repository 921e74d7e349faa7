/* stdfds.c - reopen closed standard descriptors on /dev/null. */
#include "util/stdfds.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

bool ss_stdfds_ensure(bool was_closed[3])
{
	for (int fd = 0; fd < 3; fd++) {
		int got;

		was_closed[fd] = false;
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		was_closed[fd] = true;
		/* The lowest free descriptor is this one: 0..fd-1 are open. */
		got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (got < 0)
			return false;
		if (got != fd) {
			if (dup2(got, fd) < 0) {
				close(got);
				return false;
			}
			close(got);
		}
	}
	return true;
}
