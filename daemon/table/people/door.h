/*
 * door.h - who may still try a password, counted in memory (docs/security.md,
 * "The lockout").
 *
 * Two kinds of record, each bounded and thread-safe:
 *
 *   addresses  failed sign-ins of any kind from one client address (an
 *              unknown token, a wrong password at sign-in, a refused
 *              witness, a wrong current password).  After max failures
 *              within the lockout time the address is locked out: its
 *              password work is refused before any hashing, and its
 *              failures count towards nobody's lockout.  A good bearer
 *              token is still served from it (http/auth.c).
 *   nobodies   ids that name no person who can sign in (unknown, inactive,
 *              or without a password), counted exactly like a person's
 *              failures (store: people.failures): after max wrong passwords
 *              the id is locked out like a person would be, so that a
 *              guesser cannot tell a real id from an unknown one by when
 *              the answer turns into 429 or by how fast it comes.
 *
 * The lockout time of an address grows with each lockout it earns within a
 * day (doubling, at most DOOR_GROWTH_MAX times the configured time).
 *
 * When every record holds an active lockout, a newcomer has none: its
 * failures are counted nowhere and it is never locked out.  Sharing one
 * record among the newcomers would let whoever holds enough addresses (an
 * IPv6 prefix) lock every other address out of signing in; the person's own
 * lockout and the password pool still bound the guessing.
 */
#ifndef PB_TABLE_DOOR_H
#define PB_TABLE_DOOR_H

#include <stdbool.h>
#include <stdint.h>

#define DOOR_ADDRESSES 1024         /* address records; the oldest unlocked one gives its place */
#define DOOR_NOBODIES 4096          /* unknown-id records; the oldest unlocked one gives its place */
#define DOOR_GROWTH_MAX 8           /* an address's lockout grows to at most 8 times auth.lockout_seconds */
#define DOOR_GROWTH_WINDOW_MS (24LL * 3600 * 1000)
#define DOOR_HOME_MS (12LL * 3600 * 1000)   /* a sign-in makes its address the person's for 12 hours */

/* What a failure did to an address's record. */
struct door_count {
	bool was_locked;            /* it was locked out already: not counted */
	bool locked_now;            /* this failure locked it out */
	unsigned failures;          /* the failures that led to the lockout (locked_now) */
	int64_t locked_until_ms;    /* when locked (was or now) */
};

/* True when addr is locked out at now_ms; *until_ms is when it ends. */
bool door_address_locked(const char *addr, int64_t now_ms, int64_t *until_ms);

/*
 * Counts a failure from addr at now_ms: max failures within lockout_ms lock
 * it out for lockout_ms, doubled for each lockout it had in the last day (at
 * most DOOR_GROWTH_MAX times).  A failure while locked is not counted.
 */
void door_address_failed(const char *addr, unsigned max, int64_t lockout_ms, int64_t now_ms, struct door_count *out);

/* True when the unknown id (compared without regard to case) is locked out; *until_ms is when it ends. */
bool door_nobody_locked(const char *id, int64_t now_ms, int64_t *until_ms);

/* Counts a wrong password for an unknown id; *locked_now when this one locked it out. */
void door_nobody_failed(const char *id, unsigned max, int64_t lockout_ms, int64_t now_ms, bool *locked_now);

/* Forgets every record (tests). */
void door_reset(void);

#endif
