/*
 * priority.h - background threads (the start-up walk, the long reads) run
 * nicer than the daemon, so that when the processors are busy the pit's
 * requests go first; on an idle machine they still run at full speed.
 */
#ifndef PB_COMMON_PRIORITY_H
#define PB_COMMON_PRIORITY_H

/* Lowers the calling thread's priority by `by` nice levels (at most to 19; Linux: nice is per thread); -1 when refused. */
int pb_lower_thread_priority(int by);

/* The calling thread's nice value (0 where threads have none of their own). */
int pb_thread_nice(void);

/* Sets the calling thread's nice value; -1 when refused (a lower value needs root or RLIMIT_NICE). */
int pb_set_thread_nice(int nice);

#endif
