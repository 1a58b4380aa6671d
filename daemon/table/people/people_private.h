/*
 * people_private.h - what the files of people/ share and no other folder
 * includes: a person and their roles as JSON, the roles' names for
 * messages, and the lockout policy that sign-ins, witnesses and password
 * changes go through.  The public interface is table/people/people.h.
 */
#ifndef PB_TABLE_PEOPLE_PRIVATE_H
#define PB_TABLE_PEOPLE_PRIVATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "table/people/people.h"

struct person;

/* A person as the API shows them: {"id", "name", "roles", "active", "must_change_password", "locked_out", ...}. */
json_t *person_json(const struct person *who);

/* The roles of a set as a JSON array of names, in the order of enum role. */
json_t *roles_json(unsigned roles);

/* The names of the roles in a set, "floor or pitboss", for messages (witness.c). */
void roles_text(unsigned roles, char *out, size_t n);

/*
 * lockout.c - the policy that decides whether a password may be tried, and
 * counts how it went (docs/security.md, "The lockout").  Sign-ins, witness
 * signatures and changes of one's own password all go through it:
 *
 *   - A client address locked out for failures (table/people/people.h) may try no
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
