/*
 * report_cache.h - rendered report answers (the bytes, their content type,
 * Content-Disposition and status), kept per worker thread so that a report
 * asked again, as the page polls it, costs a lookup and a copy instead of
 * the SQL, the grouping and the JSON.
 *
 * Each libmicrohttpd pool thread has its own SQLite connection and its own
 * cache, in thread-specific data: no locks.  An answer is valid while its
 * stamp holds: the same connection, the same data state of that connection
 * (table/ops/ops.h: nothing committed since, by anyone) and the same
 * configuration file.  A different stamp empties the whole cache.  The
 * cache is an LRU bounded by a number of entries and a total of bytes;
 * answers larger than a per-answer limit, and answers that are not 2xx,
 * are not kept.
 *
 * What goes into a key (route, query, scope) is the caller's business
 * (http/reports.c): it must name everything the answer depends on besides
 * the stamp.
 */
#ifndef PB_HTTP_REPORT_CACHE_H
#define PB_HTTP_REPORT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hash.h"
#include "table/ops/ops.h"

#define REPORT_CACHE_ENTRIES 32
#define REPORT_CACHE_BYTES ((size_t)4 << 20)          /* per thread */
#define REPORT_CACHE_ANSWER_MAX ((size_t)512 << 10)   /* larger answers are not kept */
#define REPORT_CACHE_DISPOSITION_MAX 128

/* An answer as it goes on the wire. */
struct cached_answer {
	int status;
	const char *content_type;   /* a string with static storage (a literal): kept by address */
	const char *disposition;    /* NULL: none; copied (at most REPORT_CACHE_DISPOSITION_MAX - 1 bytes) */
	const char *body;           /* copied */
	size_t body_len;
};

/* What the answers in a cache are valid for. */
struct report_cache_stamp {
	const void *store;                 /* the connection the data state was read from */
	struct pit_data_state data;
	char config[PB_SHA256_HEX_LEN];    /* the configuration file's SHA-256 */
};

struct report_cache;

/* An empty cache with these bounds; NULL when out of memory. */
struct report_cache *report_cache_new(size_t max_entries, size_t max_bytes, size_t max_answer);
void report_cache_free(struct report_cache *c);

/*
 * Looks key up.  A stamp other than the one the cache holds drops every
 * entry first (and becomes the cache's).  On a hit fills out, whose
 * pointers stay valid until the next call on this cache, and returns true.
 */
bool report_cache_get(struct report_cache *c, const struct report_cache_stamp *stamp, const char *key, size_t key_len,
    struct cached_answer *out);

/*
 * Keeps a copy of the answer under key (replacing any answer already
 * there), evicting the least recently used until it fits.  Not kept, and
 * still 0: a status other than 2xx, or more than the per-answer limit.
 * -1 (500 out_of_memory) when the copy cannot be made.
 */
int report_cache_put(struct report_cache *c, const struct report_cache_stamp *stamp, const char *key, size_t key_len,
    const struct cached_answer *a, struct pb_error *err);

/* How many answers, and how many bytes (keys and bodies), the cache holds. */
size_t report_cache_count(const struct report_cache *c);
size_t report_cache_bytes(const struct report_cache *c);

/*
 * The calling thread's cache, made with the default bounds on first use and
 * freed when the thread exits; NULL when out of memory.
 */
struct report_cache *report_cache_thread(void);

/* Frees the calling thread's cache now: for a thread that never exits through pthread_exit (main). */
void report_cache_thread_release(void);

/* Counts a request answered from a cache (hit) or computed (miss), for /metrics. */
void report_cache_note(bool hit);
void report_cache_counters(uint64_t *hits, uint64_t *misses);

#endif
