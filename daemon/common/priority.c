/*
 * priority.c - a thread's own nice level (priority.h).
 */
#include "common/priority.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

int
pb_lower_thread_priority(int by)
{
#ifdef __linux__
	id_t tid = (id_t)gettid();
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, tid);
	if (errno != 0)
		nice = 0;
	return setpriority(PRIO_PROCESS, tid, nice + by > 19 ? 19 : nice + by);
#else
	(void)by;
	return 0;
#endif
}
