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

int
pb_thread_nice(void)
{
#ifdef __linux__
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)gettid());
	return errno != 0 ? 0 : nice;
#else
	return 0;
#endif
}

int
pb_set_thread_nice(int nice)
{
#ifdef __linux__
	return setpriority(PRIO_PROCESS, (id_t)gettid(), nice);
#else
	(void)nice;
	return 0;
#endif
}
