/*
 * lockout.h - the policy that decides whether a password may be tried, and
 * counts how it went (docs/security.md, "The lockout").  Sign-ins, witness
 * signatures and changes of one's own password all go through it:
 *
 *   - A client address locked out for failures (table/door.h) may try no
 *     password at all: refused before any hashing, and it adds to nobody's
 *     count.
 *   - A person locked out after auth.max_failures wrong passwords in a row
 *     is locked out only at addresses he has not signed in from in the last
 *     12 hours (DOOR_HOME_MS): his own terminal keeps working while
 *     guessing from anywhere else is refused, even with the right password.
 *   - An id that names nobody who can sign in is counted the same way in
 *     memory, so that neither the answers nor their times tell which ids
 *     exist.
 */
#ifndef PB_TABLE_LOCKOUT_H
#define PB_TABLE_LOCKOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "table/core/pit.h"

struct person;

/* 429 locked_out (err->guess: a failed attempt) when the client's address (p->client) is locked out; 0 otherwise. */
int pit_lockout_address(struct pit *p, struct pb_error *err);

/*
 * Whether id may try a password from p->client now: who is the person
 * (usable: found, active, with a password), else the id names nobody.  429
 * locked_out, the same words for a person and for nobody, when it is locked
 * out here (err->guess: it counts towards the address's lockout); 0
 * otherwise (-1 with 500 on a read error).
 */
int pit_lockout_person(struct pit *p, const char *id, const struct person *who, bool usable, struct pb_error *err);

/*
 * Counts a password of id (as: "sign_in", "witness", "password_change"):
 * for a usable person in a write of its own that a refused request does not
 * roll back (a good one starts the count again; the max-th wrong one locks
 * the person out, recorded as person_locked_out); for nobody in memory.
 * *locked_now tells that this one locked the id out.
 */
int pit_lockout_count(struct pit *p, const char *id, bool usable, bool good, const char *as, bool *locked_now,
    struct pb_error *err);

/* 429 locked_out for an id that this wrong password has just locked out (the same words for a person and nobody). */
int pit_lockout_now(struct pit *p, struct pb_error *err);

#endif
