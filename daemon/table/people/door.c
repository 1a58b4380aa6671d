/*
 * door.c - address and unknown-id lockouts in memory (people.h).
 */
#include "table/people/people.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/ids.h"

#define ADDR_MAX 46                 /* INET6_ADDRSTRLEN */

struct record {
	char key[PB_ID_MAX > ADDR_MAX ? PB_ID_MAX : ADDR_MAX];
	unsigned failures;
	int64_t first_ms;               /* the first failure of the current count */
	int64_t locked_until_ms;
	unsigned lockouts;              /* lockouts within DOOR_GROWTH_WINDOW_MS of the last one */
	int64_t last_lockout_ms;
};

static pthread_mutex_t door_lock = PTHREAD_MUTEX_INITIALIZER;
static struct record addresses[DOOR_ADDRESSES];
static struct record nobodies[DOOR_NOBODIES];

/*
 * The record of key in recs (n of them), or (create) a new one: an empty
 * slot, else the unlocked one whose count began longest ago.  NULL when key
 * has none and !create, or when every slot holds an active lockout (the
 * newcomer is then counted nowhere: people.h).  Keys compare without regard
 * to case when fold.  Call with door_lock held.
 */
static struct record *
slot(struct record *recs, int n, const char *key, bool fold, int64_t now, bool create)
{
	struct record *free_slot = NULL;

	for (int i = 0; i < n; i++) {
		struct record *r = &recs[i];
		if (r->key[0] != '\0' && (fold ? strcasecmp(r->key, key) : strcmp(r->key, key)) == 0)
			return r;
		if (r->key[0] == '\0') {
			if (free_slot == NULL || free_slot->key[0] != '\0')
				free_slot = r;
		} else if (r->locked_until_ms <= now && (free_slot == NULL ||
		    (free_slot->key[0] != '\0' && r->first_ms < free_slot->first_ms))) {
			free_slot = r;
		}
	}
	if (!create || free_slot == NULL)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	snprintf(free_slot->key, sizeof(free_slot->key), "%s", key);
	return free_slot;
}

/* Whether r is locked out at now; *until_ms gets its end. */
static bool
locked(const struct record *r, int64_t now, int64_t *until_ms)
{
	if (r == NULL || r->locked_until_ms <= now)
		return false;
	if (until_ms != NULL)
		*until_ms = r->locked_until_ms;
	return true;
}

/*
 * Counts a failure on r at now: failures count within one lockout time of
 * the first; max of them lock r out for lockout_ms, grown (grow) by each
 * lockout of the last day.  A failure while locked is not counted.
 */
static void
count(struct record *r, unsigned max, int64_t lockout_ms, bool grow, int64_t now, struct door_count *out)
{
	memset(out, 0, sizeof(*out));
	if (r == NULL)
		return;
	if (locked(r, now, &out->locked_until_ms)) {
		out->was_locked = true;
		return;
	}
	if (r->failures == 0 || now - r->first_ms > lockout_ms) {
		r->failures = 0;
		r->first_ms = now;
	}
	if (++r->failures < max)
		return;
	if (!grow || now - r->last_lockout_ms > DOOR_GROWTH_WINDOW_MS)
		r->lockouts = 0;
	if (r->lockouts > 0)
		lockout_ms *= r->lockouts >= 3 ? DOOR_GROWTH_MAX : 1 << r->lockouts;
	r->lockouts++;
	r->last_lockout_ms = now;
	out->locked_now = true;
	out->failures = r->failures;
	r->locked_until_ms = now + lockout_ms;
	out->locked_until_ms = r->locked_until_ms;
	r->failures = 0;
}

bool
door_address_locked(const char *addr, int64_t now_ms, int64_t *until_ms)
{
	bool is;

	pthread_mutex_lock(&door_lock);
	is = locked(slot(addresses, DOOR_ADDRESSES, addr, false, now_ms, false), now_ms, until_ms);
	pthread_mutex_unlock(&door_lock);
	return is;
}

void
door_address_failed(const char *addr, unsigned max, int64_t lockout_ms, int64_t now_ms, struct door_count *out)
{
	pthread_mutex_lock(&door_lock);
	count(slot(addresses, DOOR_ADDRESSES, addr, false, now_ms, true), max, lockout_ms, true, now_ms, out);
	pthread_mutex_unlock(&door_lock);
}

bool
door_nobody_locked(const char *id, int64_t now_ms, int64_t *until_ms)
{
	bool is;

	pthread_mutex_lock(&door_lock);
	is = locked(slot(nobodies, DOOR_NOBODIES, id, true, now_ms, false), now_ms, until_ms);
	pthread_mutex_unlock(&door_lock);
	return is;
}

void
door_nobody_failed(const char *id, unsigned max, int64_t lockout_ms, int64_t now_ms, bool *locked_now)
{
	struct door_count c;

	pthread_mutex_lock(&door_lock);
	count(slot(nobodies, DOOR_NOBODIES, id, true, now_ms, true), max, lockout_ms, false, now_ms, &c);
	pthread_mutex_unlock(&door_lock);
	*locked_now = c.locked_now;
}

void
door_reset(void)
{
	pthread_mutex_lock(&door_lock);
	memset(addresses, 0, sizeof(addresses));
	memset(nobodies, 0, sizeof(nobodies));
	pthread_mutex_unlock(&door_lock);
}
