/*
 * json_alloc.h - jansson's memory in pitbossd: small blocks recycled
 * through free lists of the thread that frees them.
 *
 * A whole round builds and frees about 1,300 JSON values (the request, the
 * event bodies, the answer).  Through glibc's malloc most of those frees
 * overflow its per-thread cache (7 blocks a size) and come back through its
 * slower bins; here a freed block of up to 256 bytes waits on a list of its
 * size class (16-byte steps, at most 4096 blocks a class and thread) for the
 * next allocation of that class on that thread.  Larger blocks go to malloc.
 * Every block is a plain malloc block (json_dumps' text may still be freed
 * with free()), and may be freed on another thread than the one that
 * allocated it.  When a thread exits its lists are given back to malloc.
 *
 * Sanitizer builds keep malloc (so that ASan sees every JSON value), and
 * PITBOSS_JSON_POOL=off in the environment does the same (valgrind runs).
 */
#ifndef PB_COMMON_JSON_ALLOC_H
#define PB_COMMON_JSON_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Makes jansson allocate through the pool (call once, early).  Returns whether the pool is in use. */
bool json_alloc_init(void);

/* The pool's allocation functions, for tests. */
void *json_pool_malloc(size_t n);
void json_pool_free(void *p);

/* Blocks waiting in this thread's lists, for tests. */
size_t json_pool_cached(void);

#endif
