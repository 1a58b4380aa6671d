/*
 * report_cache.c - the per-thread cache of rendered report answers
 * (report_cache.h).  At most a few dozen entries: lookups and evictions
 * are linear scans of one small array, cheaper than any index here.
 */
#include "http/report_cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cache_entry {
	char *key;                  /* one block: key_len bytes of key, then body_len bytes of body */
	size_t key_len;
	uint64_t hash;
	uint64_t used;              /* the cache's clock when last looked up or stored */
	int status;
	const char *content_type;
	char disposition[REPORT_CACHE_DISPOSITION_MAX];
	bool has_disposition;
	size_t body_len;
};

struct report_cache {
	struct cache_entry *entries;    /* max_entries slots; the first count are in use */
	size_t count;
	size_t max_entries;
	size_t bytes;
	size_t max_bytes;
	size_t max_answer;
	uint64_t clock;
	bool stamped;
	struct report_cache_stamp stamp;
};

static atomic_uint_fast64_t cache_hits;
static atomic_uint_fast64_t cache_misses;

static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;
static bool thread_key_ok;

/* FNV-1a: compared before the key's bytes, so most misses cost no memcmp. */
static uint64_t
key_hash(const char *key, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct report_cache *
report_cache_new(size_t max_entries, size_t max_bytes, size_t max_answer)
{
	struct report_cache *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->max_entries = max_entries > 0 ? max_entries : 1;
	c->entries = calloc(c->max_entries, sizeof(*c->entries));
	if (c->entries == NULL) {
		free(c);
		return NULL;
	}
	c->max_bytes = max_bytes;
	c->max_answer = max_answer;
	return c;
}

/* Frees slot i and moves the last entry into it. */
static void
drop(struct report_cache *c, size_t i)
{
	struct cache_entry *e = &c->entries[i];

	c->bytes -= e->key_len + e->body_len;
	free(e->key);
	c->count--;
	if (i != c->count)
		*e = c->entries[c->count];
	memset(&c->entries[c->count], 0, sizeof(c->entries[c->count]));
}

static void
drop_all(struct report_cache *c)
{
	while (c->count > 0)
		drop(c, c->count - 1);
}

void
report_cache_free(struct report_cache *c)
{
	if (c == NULL)
		return;
	drop_all(c);
	free(c->entries);
	free(c);
}

static bool
stamp_equal(const struct report_cache_stamp *a, const struct report_cache_stamp *b)
{
	return a->store == b->store && pit_data_state_equal(&a->data, &b->data) && strcmp(a->config, b->config) == 0;
}

/* Empties the cache when the stamp is not the one its answers were made under. */
static void
check_stamp(struct report_cache *c, const struct report_cache_stamp *stamp)
{
	if (c->stamped && stamp_equal(&c->stamp, stamp))
		return;
	drop_all(c);
	c->stamp = *stamp;
	c->stamped = true;
}

/* The slot holding key, or -1. */
static ptrdiff_t
find(const struct report_cache *c, const char *key, size_t key_len, uint64_t hash)
{
	for (size_t i = 0; i < c->count; i++) {
		const struct cache_entry *e = &c->entries[i];
		if (e->hash == hash && e->key_len == key_len && memcmp(e->key, key, key_len) == 0)
			return (ptrdiff_t)i;
	}
	return -1;
}

bool
report_cache_get(struct report_cache *c, const struct report_cache_stamp *stamp, const char *key, size_t key_len,
    struct cached_answer *out)
{
	struct cache_entry *e;
	ptrdiff_t i;

	check_stamp(c, stamp);
	i = find(c, key, key_len, key_hash(key, key_len));
	if (i < 0)
		return false;
	e = &c->entries[i];
	e->used = ++c->clock;
	out->status = e->status;
	out->content_type = e->content_type;
	out->disposition = e->has_disposition ? e->disposition : NULL;
	out->body = e->key + e->key_len;
	out->body_len = e->body_len;
	return true;
}

/* Evicts the least recently used entry. */
static void
evict_one(struct report_cache *c)
{
	size_t oldest = 0;

	for (size_t i = 1; i < c->count; i++)
		if (c->entries[i].used < c->entries[oldest].used)
			oldest = i;
	drop(c, oldest);
}

int
report_cache_put(struct report_cache *c, const struct report_cache_stamp *stamp, const char *key, size_t key_len,
    const struct cached_answer *a, struct pb_error *err)
{
	uint64_t hash = key_hash(key, key_len);
	size_t need = key_len + a->body_len;
	struct cache_entry *e;
	ptrdiff_t i;
	char *block;

	check_stamp(c, stamp);
	if (a->status < 200 || a->status > 299 || a->body_len > c->max_answer || need < a->body_len || need > c->max_bytes)
		return 0;
	block = malloc(need > 0 ? need : 1);
	if (block == NULL)
		return pb_oom(err);
	memcpy(block, key, key_len);
	if (a->body_len > 0)
		memcpy(block + key_len, a->body, a->body_len);
	i = find(c, key, key_len, hash);
	if (i >= 0)
		drop(c, (size_t)i);
	while (c->count > 0 && (c->count >= c->max_entries || c->bytes + need > c->max_bytes))
		evict_one(c);
	e = &c->entries[c->count++];
	e->key = block;
	e->key_len = key_len;
	e->hash = hash;
	e->used = ++c->clock;
	e->status = a->status;
	e->content_type = a->content_type;
	e->has_disposition = a->disposition != NULL;
	snprintf(e->disposition, sizeof(e->disposition), "%s", a->disposition ? a->disposition : "");
	e->body_len = a->body_len;
	c->bytes += need;
	return 0;
}

size_t
report_cache_count(const struct report_cache *c)
{
	return c->count;
}

size_t
report_cache_bytes(const struct report_cache *c)
{
	return c->bytes;
}

/* The thread-specific data's destructor: runs as a pool thread exits. */
static void
thread_cache_free(void *p)
{
	report_cache_free(p);
}

static void
thread_key_create(void)
{
	thread_key_ok = pthread_key_create(&thread_key, thread_cache_free) == 0;
}

struct report_cache *
report_cache_thread(void)
{
	struct report_cache *c;

	if (pthread_once(&thread_key_once, thread_key_create) != 0 || !thread_key_ok)
		return NULL;
	c = pthread_getspecific(thread_key);
	if (c != NULL)
		return c;
	c = report_cache_new(REPORT_CACHE_ENTRIES, REPORT_CACHE_BYTES, REPORT_CACHE_ANSWER_MAX);
	if (c != NULL && pthread_setspecific(thread_key, c) != 0) {
		report_cache_free(c);
		c = NULL;
	}
	return c;
}

void
report_cache_thread_release(void)
{
	struct report_cache *c;

	if (pthread_once(&thread_key_once, thread_key_create) != 0 || !thread_key_ok)
		return;
	c = pthread_getspecific(thread_key);
	if (c != NULL) {
		pthread_setspecific(thread_key, NULL);
		report_cache_free(c);
	}
}

void
report_cache_note(bool hit)
{
	atomic_fetch_add_explicit(hit ? &cache_hits : &cache_misses, 1, memory_order_relaxed);
}

void
report_cache_counters(uint64_t *hits, uint64_t *misses)
{
	*hits = atomic_load_explicit(&cache_hits, memory_order_relaxed);
	*misses = atomic_load_explicit(&cache_misses, memory_order_relaxed);
}
