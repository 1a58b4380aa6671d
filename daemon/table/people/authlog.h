/*
 * authlog.h - failed sign-ins, counted in memory and written to the
 * significant events in bounded form, so that no unauthenticated client can
 * grow the append-only record without bound:
 *
 *   auth_lockout   one per lockout, at most AUTHLOG_LOCKOUTS_PER_MINUTE a
 *                  minute; the lockouts beyond are counted in the summary.
 *   auth_failures  the summary: at most one a minute (and one at stop), with
 *                  the counts and the AUTHLOG_TOP addresses that failed most.
 *
 * http/auth.c notes each failure and lockout as it happens (no database
 * write on the request's path); the daemon's main loop writes what is due
 * once a second (authlog_flush) and everything at stop.
 */
#ifndef PB_TABLE_AUTHLOG_H
#define PB_TABLE_AUTHLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

struct pit;

#define AUTHLOG_SUMMARY_MS 60000       /* a summary covers a minute from its first failure */
#define AUTHLOG_LOCKOUTS_PER_MINUTE 10 /* auth_lockout events recorded a minute, at most */
#define AUTHLOG_TOP 10                 /* addresses named in a summary */
#define AUTHLOG_ADDRS 1024             /* addresses counted apart in a summary's minute */

/*
 * A failed sign-in from client (an unknown token, or any but a good one
 * while client is locked out: while_locked) at now_ms.  Counted exactly
 * while the minute has seen at most AUTHLOG_ADDRS addresses; beyond, the
 * address that failed least gives its place (its count is then an upper
 * bound, as the summary says), so an address that fails often is always
 * named.
 */
void authlog_failure(const char *client, bool while_locked, int64_t now_ms);

/* client was just locked out after failures failed sign-ins, for seconds. */
void authlog_lockout(const char *client, unsigned failures, unsigned seconds, int64_t now_ms);

/* A good token was served from an address locked out for failures (counted in the summary). */
void authlog_served_while_locked(int64_t now_ms);

/*
 * Writes what is due through p->store in one transaction: the lockouts
 * noted since the last call, and the summary when its minute is over (or
 * at_stop).  A failure to write is logged with the counts that were lost
 * (they are not kept: memory stays bounded) and returns -1 (err).
 */
int authlog_flush(struct pit *p, bool at_stop, int64_t now_ms, struct pb_error *err);

/* Forgets everything noted (tests). */
void authlog_reset(void);

#endif
