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
 *
 * Either way (and in `pitboss`, which keeps malloc), every allocation
 * jansson asks for and does not get is counted per thread
 * (json_alloc_failures): jansson returns NULL for most of them, but its
 * parser drops a byte it cannot store and parses on, so a check that must
 * not take a text misread for a text altered asks whether the count moved
 * (json_parse_checked, common/json_text.h).
 */
#ifndef PB_COMMON_JSON_ALLOC_H
#define PB_COMMON_JSON_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Makes jansson allocate through the pool (call once, early), or through
 * json_plain_malloc in a sanitizer build or with PITBOSS_JSON_POOL=off.
 * Returns whether the pool is in use.
 */
bool json_alloc_init(void);

/* Makes jansson allocate through json_plain_malloc and json_plain_free (no pool). */
void json_alloc_init_plain(void);

/* malloc and free, the failures of malloc counted. */
void *json_plain_malloc(size_t n);
void json_plain_free(void *p);

/* The allocations jansson asked for on this thread and did not get, since the thread started. */
unsigned long json_alloc_failures(void);

/*
 * jansson 2.14's parser is not safe when an allocation fails part way: its
 * lexer drops a byte it cannot store and parses on, and may then assert()
 * or read past its buffer on an escaped string.  While on (json_loads of a
 * check, json_parse_checked), an allocation of jansson's that malloc
 * refuses is still counted as failed but served from a static area of the
 * thread's (64 KiB), so that the parse ends cleanly; its value is then
 * thrown away.  Off gives the whole area back: nothing may hold a block of
 * it by then.
 */
void json_alloc_rescue(bool on);

/* The pool's allocation functions, for tests. */
void *json_pool_malloc(size_t n);
void json_pool_free(void *p);

/* Blocks waiting in this thread's lists, for tests. */
size_t json_pool_cached(void);

#endif
