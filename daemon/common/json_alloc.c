/*
 * json_alloc.c - small-block free lists per thread for jansson (json_alloc.h).
 *
 * Every block is a plain malloc block, handed out as malloc gave it: a
 * block freed with free() by whoever got it from jansson (json_dumps' text)
 * is freed correctly.  Its size class is found again at json_pool_free from
 * malloc_usable_size: class c (0..15) holds blocks of at least (c+1)*16
 * usable bytes.  A free block on a list keeps the next pointer in its first
 * bytes.  Every block jansson gets from malloc comes through
 * json_plain_malloc, which counts the failures.
 */
#include "common/json_alloc.h"

#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GRAIN 16
#define CLASSES 16                  /* 16, 32, ... 256 bytes */
#define KEEP 4096                   /* free blocks kept per class and thread */

struct free_block {
	struct free_block *next;
};

struct thread_cache {
	struct free_block *head[CLASSES];
	uint32_t count[CLASSES];
	bool registered;   /* the exit destructor is set for this thread */
	bool closed;       /* the thread is exiting: straight to malloc and free */
};

static _Thread_local struct thread_cache cache;
static _Thread_local unsigned long failures;   /* jansson's allocations that failed on this thread */
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static bool key_ok;

/* Gives a thread's kept blocks back to malloc when it exits. */
static void
drain(void *arg)
{
	struct thread_cache *c = arg;

	for (int i = 0; i < CLASSES; i++) {
		while (c->head[i] != NULL) {
			struct free_block *b = c->head[i];
			c->head[i] = b->next;
			free(b);
		}
		c->count[i] = 0;
	}
	c->closed = true;
}

static void
make_key(void)
{
	key_ok = pthread_key_create(&exit_key, drain) == 0;
}

/* Arranges for drain() at this thread's exit; without it the thread keeps nothing. */
static bool
register_thread(void)
{
	pthread_once(&exit_once, make_key);
	if (!key_ok || pthread_setspecific(exit_key, &cache) != 0)
		return false;
	cache.registered = true;
	return true;
}

/*
 * The parse's rescue area (json_alloc_rescue): blocks handed out, after a
 * failed malloc, only while a parse runs, and given back all at once when
 * it ends.  Static per thread, so that it is there however short memory is.
 */
#define RESCUE_BYTES (64 * 1024)

static _Thread_local struct {
	bool active;
	size_t used;
	_Alignas(16) unsigned char area[RESCUE_BYTES];
} rescue;

/* Whether p is a block of this thread's rescue area (never given to free). */
static bool
in_rescue(const void *p)
{
	const unsigned char *b = p;

	return b >= rescue.area && b < rescue.area + RESCUE_BYTES;
}

/* A block of the rescue area, while a parse runs and while there is room; else NULL. */
static void *
rescue_take(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!rescue.active || n > RESCUE_BYTES - rescue.used)
		return NULL;
	p = rescue.area + rescue.used;
	rescue.used += n;
	return p;
}

void
json_alloc_rescue(bool on)
{
	rescue.active = on;
	rescue.used = 0;
}

void *
json_plain_malloc(size_t n)
{
	void *p = malloc(n);

	if (p != NULL)
		return p;
	failures++;
	return rescue_take(n);
}

void
json_plain_free(void *p)
{
	if (!in_rescue(p))
		free(p);
}

unsigned long
json_alloc_failures(void)
{
	return failures;
}

void *
json_pool_malloc(size_t n)
{
	unsigned cls;

	if (n == 0)
		n = 1;
	if (n > (size_t)CLASSES * GRAIN || cache.closed)
		return json_plain_malloc(n);
	cls = (unsigned)((n - 1) / GRAIN);
	if (cache.head[cls] != NULL) {
		struct free_block *b = cache.head[cls];
		cache.head[cls] = b->next;
		cache.count[cls]--;
		return b;
	}
	return json_plain_malloc((size_t)(cls + 1) * GRAIN);
}

void
json_pool_free(void *p)
{
	size_t usable;
	unsigned cls;
	struct free_block *b = p;

	if (p == NULL || in_rescue(p))
		return;
	usable = malloc_usable_size(p);
	if (usable < GRAIN || cache.closed || (!cache.registered && !register_thread())) {
		free(p);
		return;
	}
	cls = (unsigned)(usable / GRAIN - 1);   /* the largest class it can serve */
	if (cls >= CLASSES || cache.count[cls] >= KEEP) {
		free(p);
		return;
	}
	b->next = cache.head[cls];
	cache.head[cls] = b;
	cache.count[cls]++;
}

size_t
json_pool_cached(void)
{
	size_t n = 0;

	for (int i = 0; i < CLASSES; i++)
		n += cache.count[i];
	return n;
}

/* Whether this is a sanitizer build (ASan must see every block). */
static bool
sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return true;
#else
	return false;
#endif
#else
	return false;
#endif
}

bool
json_alloc_init(void)
{
	const char *env = getenv("PITBOSS_JSON_POOL");

	if (sanitized() || (env != NULL && strcmp(env, "off") == 0)) {
		json_alloc_init_plain();
		return false;
	}
	json_set_alloc_funcs(json_pool_malloc, json_pool_free);
	return true;
}

void
json_alloc_init_plain(void)
{
	json_set_alloc_funcs(json_plain_malloc, json_plain_free);
}
